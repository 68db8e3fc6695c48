// State estimation (Russell & Wolfe 2005, section 2): the belief state of a player is every full
// position consistent with his view. Own attempts filter the candidates (and a legal one moves
// them); announcements before a turn filter them; an opponent's turn keeps the candidates with at
// least as many attemptable-but-illegal moves as Illegal answers heard, and replaces each by every
// legal move of his whose announcements match. Three forms:
// - breadth-first (bfs*): the naive layer-by-layer expansion, duplicates removed after each event;
// - depth-first (dfs*): a resumable stream of consistent current positions, one branch at a time,
//   duplicates removed at the output; also counts every consistent history (information sets);
// - a randomized depth-first sampler (sample*): restarts a shuffled descent for each position.
// Every run works in budgets: a call does at most `budget` units of work (positions generated) and
// returns ESTIMATE_MORE, so the host can stop on time limits and show progress; a full store is
// ESTIMATE_LIMIT, never a trap.
//
// Position records used (POSITIONS handles):
// | handles                      | use                                                         |
// |------------------------------|-------------------------------------------------------------|
// | 0 … 15                       | the host's (the root is given by handle)                   |
// | STACK_BASE … + 2 × (levels+1)| depth-first: per level, the position after the opponent's move and after the own move |
// | storeBase() … capacity − 1   | the output store (depth-first, sampler) or two layers (breadth-first) |

import { POSITIONS, POSITION_SHIFT, W_HALFMOVE, W_KEY_LO, W_KEY_HI, copyPosition, positionCapacity, samePosition } from '../chess/position';
import { MOVES, generateMoves, listOffset, LEVEL_LIST_BASE, LEVEL_LISTS, REFEREE_LIST } from '../chess/moveGen';
import { rule, RULE_FIFTY_MOVES, RULE_PAWN_TRY_NONSENSE } from '../referee/rules';
import {
  ANSWER_NONSENSE, ANSWER_ILLEGAL, END_NONE, END_DRAW_REPETITION, PERCEPT_END_SHIFT,
  answerAttempt, playAndAnnounce, legalPawnCaptures, PAWN_TRY_SQUARES,
} from '../referee/referee';
import { ATTEMPTS, generateAttempts, isPawnCaptureAttempt, attemptOf } from '../referee/attempts';
import { randomBelow, seedRandom } from '../referee/game';
import { mul32 } from '../chess/bitboard';
import {
  viewLength, eventType, eventWord, isBranching,
  V_OWN_ATTEMPT, V_OPPONENT, V_PAWN_TRIES, V_ANY, TRIES_COUNT, TRIES_EXISTS,
} from './view';

export const ESTIMATE_DONE: i32 = 0;
export const ESTIMATE_MORE: i32 = 1;
export const ESTIMATE_LIMIT: i32 = 2;
export const ESTIMATE_TOO_DEEP: i32 = 3;
export const ESTIMATE_INCONSISTENT: i32 = 4;
/** Depth-first: a position (dfsLast) was found; call dfsNext again for the next one. */
export const ESTIMATE_FOUND: i32 = 5;
/** Depth-first: every branch has been followed. */
export const ESTIMATE_EXHAUSTED: i32 = 6;

export const STACK_BASE: i32 = 16;
const STACK_RECORDS: i32 = 2 * (LEVEL_LISTS + 1);
export function storeBase(): i32 { return STACK_BASE + STACK_RECORDS; }
function storeCapacity(): i32 { return positionCapacity() - storeBase(); }

// ---- consistency of one position with one event ----

/** Does a computed percept match the view's? A repetition draw depends on the game's history, not on the position: accepted where the position itself announces nothing. */
function perceptsMatch(view: i32, computed: i32): bool {
  if (view == computed) return true;
  const endMask = 7 << PERCEPT_END_SHIFT;
  return ((view >> PERCEPT_END_SHIFT) & 7) == END_DRAW_REPETITION && ((computed >> PERCEPT_END_SHIFT) & 7) == END_NONE &&
    (view & ~endMask) == (computed & ~endMask);
}

/** Attempts of the side to move that the referee would answer Illegal (the opponent's possible Illegal attempts). */
export function illegalOptions(h: i32): i32 {
  const pawnTriesNonsense = rule(RULE_PAWN_TRY_NONSENSE) != 0 && legalPawnCaptures(h) == 0;
  const list = listOffset(REFEREE_LIST);
  const legal = generateMoves(h, list);
  const n = generateAttempts(h);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const attempt = unchecked(ATTEMPTS[i]);
    if (pawnTriesNonsense && isPawnCaptureAttempt(h, attempt)) continue; // Nonsense, not Illegal
    let isLegal = false;
    for (let j = 0; j < legal; j++) if (attemptOf(unchecked(MOVES[list + j])) == attempt) { isLegal = true; break; }
    if (!isLegal) count++;
  }
  return count;
}

/**
 * Applies non-branching event `e` to position `h`: returns `h` (kept), `dst` (an own legal move
 * played into it), or -1 (inconsistent).
 */
function applyEvent(h: i32, e: i32, dst: i32): i32 {
  const type = eventType(e);
  if (type == V_OWN_ATTEMPT) {
    const percept = eventWord(e, 2);
    const answer = percept & 3;
    if (answer == ANSWER_NONSENSE) return h; // decided on the own board: says nothing of the rest
    const got = answerAttempt(h, eventWord(e, 1), dst);
    if (answer == ANSWER_ILLEGAL) return (got & 3) == ANSWER_ILLEGAL ? h : -1;
    return perceptsMatch(percept, got) ? dst : -1;
  }
  if (type == V_PAWN_TRIES) {
    const count = legalPawnCaptures(h);
    const kind = (unchecked(eventWord(e, 0)) >> 8) & 3;
    if (kind == TRIES_COUNT) return count == eventWord(e, 1) ? h : -1;
    if (kind == TRIES_EXISTS) return (count > 0 ? 1 : 0) == eventWord(e, 1) ? h : -1;
    return unchecked(PAWN_TRY_SQUARES[0]) == eventWord(e, 2) && unchecked(PAWN_TRY_SQUARES[1]) == eventWord(e, 3) ? h : -1;
  }
  if (type == V_ANY) return (legalPawnCaptures(h) > 0 ? 1 : 0) == eventWord(e, 1) ? h : -1;
  if (type == V_OPPONENT) return illegalCountPossible(h, e) ? h : -1; // a turn still in progress
  return -1;
}

function illegalCountPossible(h: i32, e: i32): bool {
  const heard = eventWord(e, 1);
  return heard <= 0 || illegalOptions(h) >= heard;
}

// ---- duplicate removal: a hash set of handles, cleared by bumping a generation ----

let HASH_HANDLE = new Int32Array(0);
let HASH_GENERATION = new Int32Array(0);
let hashMask: i32 = 0;
let generation: i32 = 1;

function ensureHash(): void {
  let size = 1024;
  while (size < storeCapacity() * 2) size <<= 1;
  if (HASH_HANDLE.length < size) {
    HASH_HANDLE = new Int32Array(size);
    HASH_GENERATION = new Int32Array(size);
  }
  hashMask = size - 1;
}

function clearHash(): void { generation++; }


/** Adds `h` to the set unless an equal position is there (Zobrist key, then a full compare). */
function insertUnique(h: i32): bool {
  const base = h << POSITION_SHIFT;
  let slot = (unchecked(POSITIONS[base + W_KEY_LO]) ^ (unchecked(POSITIONS[base + W_KEY_HI]) >>> 7)) & hashMask;
  while (unchecked(HASH_GENERATION[slot]) == generation) {
    if (samePosition(unchecked(HASH_HANDLE[slot]), h, rule(RULE_FIFTY_MOVES) != 0)) return false;
    slot = (slot + 1) & hashMask;
  }
  unchecked(HASH_GENERATION[slot] = generation);
  unchecked(HASH_HANDLE[slot] = h);
  return true;
}

// ---- breadth-first ----

let bfsEvent: i32 = 0;
let bfsIndex: i32 = 0;
let inBase: i32 = 0;
let inCount: i32 = 0;
let outBase: i32 = 0;
let outCount: i32 = 0;
let half: i32 = 0;
let failedAt: i32 = -1;
let work: f64 = 0;

/** Starts breadth-first estimation from position `root` (with the side to move the view begins with). */
export function bfsStart(root: i32): i32 {
  ensureHash();
  half = storeCapacity() >> 1;
  if (half < 1) return ESTIMATE_LIMIT;
  inBase = storeBase();
  outBase = inBase + half;
  copyPosition(root, inBase);
  inCount = 1;
  outCount = 0;
  bfsEvent = 0;
  bfsIndex = 0;
  failedAt = -1;
  work = 0;
  pauseAfterEvent = false;
  clearHash();
  return ESTIMATE_MORE;
}

function keep(h: i32): bool {
  // copies `h` into the next layer unless it is there already; false when the layer is full
  if (outCount >= half) return false;
  const slot = outBase + outCount;
  if (h != slot) copyPosition(h, slot);
  if (insertUnique(slot)) outCount++;
  return true;
}

let pauseAfterEvent: bool = false;
/** With `on`, bfsRun returns ESTIMATE_MORE after each event, so the belief after every event (every ply) can be read. */
export function bfsPauseAfterEachEvent(on: bool): void { pauseAfterEvent = on; }

/** Continues breadth-first estimation for at most `budget` work units. */
export function bfsRun(budget: i32): i32 {
  let spent = 0;
  while (bfsEvent < viewLength()) {
    const e = bfsEvent;
    const list = listOffset(LEVEL_LIST_BASE);
    while (bfsIndex < inCount) {
      if (spent >= budget) return ESTIMATE_MORE;
      const h = inBase + bfsIndex;
      if (isBranching(e)) {
        if (illegalCountPossible(h, e)) {
          const n = generateMoves(h, list);
          const percept = eventWord(e, 2);
          for (let i = 0; i < n; i++) {
            if (outCount >= half) return ESTIMATE_LIMIT;
            const child = outBase + outCount;
            if (perceptsMatch(percept, playAndAnnounce(h, unchecked(MOVES[list + i]), child)) && insertUnique(child)) outCount++;
          }
          spent += n + 1;
          work += n + 1;
        } else { spent++; work++; }
      } else {
        if (outCount >= half) return ESTIMATE_LIMIT;
        const r = applyEvent(h, e, outBase + outCount);
        if (r >= 0 && !keep(r)) return ESTIMATE_LIMIT;
        spent++;
        work++;
      }
      bfsIndex++;
    }
    // the next layer becomes the current one
    const t = inBase; inBase = outBase; outBase = t;
    inCount = outCount;
    outCount = 0;
    bfsIndex = 0;
    clearHash();
    bfsEvent++;
    if (inCount == 0) { failedAt = e; return ESTIMATE_INCONSISTENT; }
    if (pauseAfterEvent && bfsEvent < viewLength()) return ESTIMATE_MORE;
  }
  return ESTIMATE_DONE;
}

export function bfsResultBase(): i32 { return inBase; }
export function bfsResultCount(): i32 { return inCount; }
export function bfsEventsDone(): i32 { return bfsEvent; }
export function estimateFailedAt(): i32 { return failedAt; }
export function estimateWork(): f64 { return work; }

// ---- depth-first transposition table ----
// One opponent turn (event e) reached again with an equal position has the same subtree: in
// positions mode it is skipped. A direct-mapped table of full position copies (a newer entry
// replaces an older one), so memory stays fixed and equality is exact, never a key alone.
// Entry (TT_WORDS): words 0..31 the position record, 32 the event, 33 the run it belongs to.
const TT_WORDS: i32 = 34;
const TT_MAX_ENTRIES: i32 = 1 << 18; // 34 MB at most
let TT = new Int32Array(0);
let ttMask: i32 = 0;
let ttRun: i32 = 1;

/** Sizes the table to the store (a power of two, at most TT_MAX_ENTRIES), allocating only to grow. */
function ensureTable(): void {
  let entries = 1 << 12;
  while (entries < storeCapacity() && entries < TT_MAX_ENTRIES) entries <<= 1;
  if (TT.length < entries * TT_WORDS) TT = new Int32Array(entries * TT_WORDS);
  ttMask = entries - 1;
}

/** Has this run expanded the opponent turn `e` from a position equal to `h`? Records it if not. */
function seenBefore(h: i32, e: i32): bool {
  const base = h << POSITION_SHIFT;
  const slot = (unchecked(POSITIONS[base + W_KEY_LO]) ^ mul32(e + 1, 0x9e3779b1) ^ (unchecked(POSITIONS[base + W_KEY_HI]) >>> 13)) & ttMask;
  const t = slot * TT_WORDS;
  if (unchecked(TT[t + 33]) == ttRun && unchecked(TT[t + 32]) == e) {
    let same = true;
    for (let i = 0; i < W_HALFMOVE; i++) if (unchecked(TT[t + i]) != unchecked(POSITIONS[base + i])) { same = false; break; }
    if (same && (rule(RULE_FIFTY_MOVES) == 0 || unchecked(TT[t + W_HALFMOVE]) == unchecked(POSITIONS[base + W_HALFMOVE]))) return true;
  }
  for (let i = 0; i < 32; i++) unchecked(TT[t + i] = unchecked(POSITIONS[base + i]));
  unchecked(TT[t + 32] = e);
  unchecked(TT[t + 33] = ttRun);
  return false;
}

// ---- depth-first ----
// Frames are the opponent turns being branched over: the position before his move, the event,
// and the next of his legal moves (in list LEVEL_LIST_BASE + level) to try.

const FRAME_HANDLE = new Int32Array(LEVEL_LISTS);
const FRAME_EVENT = new Int32Array(LEVEL_LISTS);
const FRAME_NEXT = new Int32Array(LEVEL_LISTS);
const FRAME_COUNT = new Int32Array(LEVEL_LISTS);
let frames: i32 = 0;
let rootHandle: i32 = 0;
let started: bool = false;
let deepestEvent: i32 = -1;

// modes
const MODE_POSITIONS: i32 = 0; // distinct current positions, into the store
const MODE_HISTORIES: i32 = 1; // every consistent history, counted (nothing stored)
const MODE_SAMPLE: i32 = 2; // shuffled descents restarted after each new position
let mode: i32 = MODE_POSITIONS;
let storeCount: i32 = 0;
let histories: f64 = 0;
let lastEmitted: i32 = -1;
let tooDeep: bool = false;

function afterOpponent(level: i32): i32 { return STACK_BASE + 2 * level; }
function afterOwn(level: i32): i32 { return STACK_BASE + 2 * level + 1; }

const CHAIN_FAIL: i32 = -1;
const CHAIN_PUSHED: i32 = -2;

/**
 * Follows the view from event `e` with position `h` at `level` until the next opponent move
 * (pushes a frame: CHAIN_PUSHED), the end of the view (returns the position), or an
 * inconsistency (CHAIN_FAIL).
 */
function runChain(h: i32, e: i32, level: i32): i32 {
  while (e < viewLength()) {
    if (e > deepestEvent) deepestEvent = e;
    if (isBranching(e)) {
      if (mode == MODE_POSITIONS && seenBefore(h, e)) return CHAIN_FAIL; // explored already: same positions
      if (!illegalCountPossible(h, e)) return CHAIN_FAIL;
      if (level >= LEVEL_LISTS) { tooDeep = true; return CHAIN_FAIL; }
      const list = listOffset(LEVEL_LIST_BASE + level);
      const n = generateMoves(h, list);
      work += n + 1;
      if (mode == MODE_SAMPLE) {
        for (let i = n - 1; i > 0; i--) { // Fisher-Yates shuffle
          const j = randomBelow(i + 1);
          const t = unchecked(MOVES[list + i]);
          unchecked(MOVES[list + i] = unchecked(MOVES[list + j]));
          unchecked(MOVES[list + j] = t);
        }
      }
      FRAME_HANDLE[level] = h;
      FRAME_EVENT[level] = e;
      FRAME_NEXT[level] = 0;
      FRAME_COUNT[level] = n;
      frames = level + 1;
      return CHAIN_PUSHED;
    }
    const dst = h == afterOwn(level) ? afterOpponent(level) : afterOwn(level);
    h = applyEvent(h, e, dst);
    work++;
    if (h < 0) return CHAIN_FAIL;
    e++;
  }
  deepestEvent = viewLength();
  return h;
}

/** Starts a depth-first run from `root`: mode 0 distinct positions, 1 histories, 2 samples (with seed). */
export function dfsStart(root: i32, runMode: i32, seed: i32): i32 {
  ensureHash();
  clearHash();
  mode = runMode;
  ttRun++;
  if (mode == MODE_POSITIONS) ensureTable();
  rootHandle = root;
  frames = 0;
  started = false;
  storeCount = 0;
  histories = 0;
  deepestEvent = -1;
  failedAt = -1;
  tooDeep = false;
  work = 0;
  lastEmitted = -1;
  if (mode == MODE_SAMPLE) seedRandom(seed);
  // histories are counted, not stored; the other modes need room for at least one position
  return mode != MODE_HISTORIES && storeCapacity() < 1 ? ESTIMATE_LIMIT : ESTIMATE_MORE;
}

/** A position the view allows was reached: store it (positions, samples) or count it (histories). */
function emit(h: i32): i32 {
  if (mode == MODE_HISTORIES) { histories++; lastEmitted = h; return ESTIMATE_FOUND; }
  if (storeCount >= storeCapacity()) return ESTIMATE_LIMIT;
  const slot = storeBase() + storeCount;
  copyPosition(h, slot);
  if (!insertUnique(slot)) return ESTIMATE_MORE; // seen before
  storeCount++;
  lastEmitted = slot;
  if (mode == MODE_SAMPLE) { frames = 0; started = false; } // the next sample descends afresh
  return ESTIMATE_FOUND;
}

/**
 * Continues the depth-first run until the next position (ESTIMATE_FOUND, dfsLast() holds it),
 * or `budget` work units (ESTIMATE_MORE), or the end (ESTIMATE_EXHAUSTED; ESTIMATE_INCONSISTENT
 * when nothing at all was found), or ESTIMATE_LIMIT / ESTIMATE_TOO_DEEP.
 */
export function dfsNext(budget: i32): i32 {
  const stopAt = work + <f64>budget;
  if (!started) {
    started = true;
    copyPosition(rootHandle, afterOpponent(0));
    const r = runChain(afterOpponent(0), 0, 0);
    if (r >= 0) { const s = emit(r); if (s != ESTIMATE_MORE) return s; }
  }
  while (frames > 0) {
    if (work >= stopAt) return ESTIMATE_MORE;
    const level = frames - 1;
    const next = FRAME_NEXT[level];
    if (next >= FRAME_COUNT[level]) { frames--; continue; }
    FRAME_NEXT[level] = next + 1;
    const e = FRAME_EVENT[level];
    const child = afterOpponent(level + 1);
    const move = unchecked(MOVES[listOffset(LEVEL_LIST_BASE + level) + next]);
    work++;
    if (!perceptsMatch(eventWord(e, 2), playAndAnnounce(FRAME_HANDLE[level], move, child))) continue;
    const r = runChain(child, e + 1, level + 1);
    if (r >= 0) { const s = emit(r); if (s != ESTIMATE_MORE) return s; }
  }
  if (tooDeep) return ESTIMATE_TOO_DEEP;
  if (storeCount == 0 && histories == 0) { failedAt = deepestEvent; return ESTIMATE_INCONSISTENT; }
  return ESTIMATE_EXHAUSTED;
}

export function dfsLast(): i32 { return lastEmitted; }
export function dfsStoreCount(): i32 { return storeCount; }
export function dfsHistories(): f64 { return histories; }
/** The opponent's move chosen at `level` of the current branch (for listing histories). */
export function dfsChosenMove(level: i32): i32 {
  return unchecked(MOVES[listOffset(LEVEL_LIST_BASE + level) + FRAME_NEXT[level] - 1]);
}
export function dfsDepth(): i32 { return frames; }

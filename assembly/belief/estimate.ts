// State estimation (Russell & Wolfe 2005, section 2): the belief state of a player is every full
// position consistent with his view. Own attempts filter the candidates (and a legal one moves
// them); announcements before a turn filter them; an opponent's turn keeps the candidates with at
// least as many attemptable-but-illegal moves as Illegal answers heard, and replaces each by every
// legal move of his whose announcements match. Three forms:
// - breadth-first (bfs*): the naive layer-by-layer expansion, duplicates removed after each event;
// - depth-first (dfs*): a resumable stream of consistent current positions, one branch at a time,
//   duplicates removed at the output, and a position reached again after the same opponent move
//   followed only once; also counts every consistent history (information sets);
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
// | BATCH_BASE … + MAX_MOVES − 1 | depth-first positions mode: the opponent's last turn played as one batch |
// | storeBase() … end − 1        | the output store (depth-first, sampler) or two layers (breadth-first); depth-first positions mode also keeps the positions it has followed in the free records at the top; `end` is the arena's end, or where an interleaved search's records begin |

import { POSITIONS, POSITION_SHIFT, W_COLOR, W_TYPE, W_SIDE, W_CASTLING, MOVE_EN_PASSANT, copyPosition, positionCapacity, pieceAt } from '../chess/position';
import { MOVES, MAX_MOVES, generateMoves, listOffset, LEVEL_LIST_BASE, LEVEL_LISTS, REFEREE_LIST } from '../chess/moveGen';
import { rule, RULE_FIFTY_MOVES, RULE_PAWN_TRY_NONSENSE } from '../referee/rules';
import {
  ANSWER_NONSENSE, END_NONE, END_DRAW_REPETITION, PERCEPT_END_SHIFT, PERCEPT_CAPTURE_SHIFT,
  ANSWER_LEGAL, legalMoveFor, playAndAnnounce, legalPawnCaptures, PAWN_TRY_SQUARES,
} from '../referee/referee';
import { ATTEMPTS, generateAttempts, isPawnCaptureAttempt, isAttemptable, attemptOf } from '../referee/attempts';
import { randomBelow, seedRandom } from '../referee/game';
import { PositionSet } from './positionSet';
import { luby } from './luby';
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
const BATCH_BASE: i32 = STACK_BASE + STACK_RECORDS;
export function storeBase(): i32 { return BATCH_BASE + MAX_MOVES; }
/** The end of the estimator's records: the arena's end, or less when a search shares the arena (interleaving). */
let arenaEnd: i32 = 0;
function storeCapacity(): i32 { return arenaEnd - storeBase(); }

// ---- consistency of one position with one event ----

/** Does a computed percept match the view's? A repetition draw depends on the game's history, not on the position: accepted where the position itself announces nothing. */
function perceptsMatch(view: i32, computed: i32): bool {
  if (view == computed) return true;
  const endMask = 7 << PERCEPT_END_SHIFT;
  return ((view >> PERCEPT_END_SHIFT) & 7) == END_DRAW_REPETITION && ((computed >> PERCEPT_END_SHIFT) & 7) == END_NONE &&
    (view & ~endMask) == (computed & ~endMask);
}

/**
 * Plays the opponent's legal `move` of `h` into `dst`: does it make the announcements `percept`
 * (the view's)? Every capture is announced and only captures are, so a move that captures when
 * the view heard none, or the other way round, is rejected without being played (8 % of them on
 * the bench views).
 */
export function opponentMoveMatches(h: i32, move: i32, dst: i32, percept: i32): bool {
  const captures = (move >> 12) == MOVE_EN_PASSANT || pieceAt(h << POSITION_SHIFT, (move >> 6) & 63) != 0;
  if (captures != ((percept & PERCEPT_CAPTURE_MASK) != 0)) return false;
  return perceptsMatch(percept, playAndAnnounce(h, move, dst));
}
const PERCEPT_CAPTURE_MASK: i32 = 127 << PERCEPT_CAPTURE_SHIFT;

/**
 * Attempts of the side to move of `h` that the referee would answer Illegal (the opponent's
 * possible Illegal attempts), given the number of its legal moves. Every legal move names its own
 * attempt (a move legal on the full board is legal on the board of the mover's own pieces, and
 * distinct legal moves have distinct attempt codes: only promotions share a from-to pair, and they
 * keep their piece), so the Illegal attempts are the attempts less the legal moves, less the pawn
 * capture attempts where the rules make them Nonsense (none of them is legal then).
 */
function illegalOptionsGiven(h: i32, legal: i32): i32 {
  const n = generateAttempts(h);
  let count = n - legal;
  if (rule(RULE_PAWN_TRY_NONSENSE) != 0 && legalPawnCaptures(h) == 0) {
    for (let i = 0; i < n; i++) if (isPawnCaptureAttempt(h, unchecked(ATTEMPTS[i]))) count--;
  }
  return count;
}

/** Attempts of the side to move that the referee would answer Illegal (the opponent's possible Illegal attempts). */
export function illegalOptions(h: i32): i32 {
  return illegalOptionsGiven(h, generateMoves(h, listOffset(REFEREE_LIST)));
}

/**
 * Applies non-branching event `e` to position `h`: returns `h` (kept), `dst` (an own legal move
 * played into it), or -1 (inconsistent).
 */
export function applyEvent(h: i32, e: i32, dst: i32, list: i32): i32 {
  const type = eventType(e);
  if (type == V_OWN_ATTEMPT) {
    const percept = eventWord(e, 2);
    const answer = percept & 3;
    if (answer == ANSWER_NONSENSE) return h; // decided on the own board: says nothing of the rest
    const attempt = eventWord(e, 1);
    const move = legalMoveNamed(h, attempt, list);
    if (answer == ANSWER_LEGAL) return move >= 0 && perceptsMatch(percept, playAndAnnounce(h, move, dst)) ? dst : -1;
    return move < 0 && !isNonsense(h, e, attempt) ? h : -1; // Illegal
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

// ---- own attempts ----
// The referee's answer to an attempt (answerAttempt, referee.ts) is Nonsense when the attempt is
// not attemptable on the mover's own board or is a pawn try the rules call Nonsense, else Illegal
// when it names no legal move, else Legal. A legal move is always attemptable (legal on the full
// board, it is legal on the own board) and never a Nonsense pawn try (it is itself a legal pawn
// capture), so the estimator asks in the other order: Legal exactly when the attempt names a legal
// move; Illegal when it names none and is not Nonsense. Attemptability depends only on the mover's
// own pieces and castling rights, the same in every candidate: it is computed once per own board.

// Per event of the view: the own board attemptability was computed for (OWN_WORDS words: the run
// stamp << 1 | attemptable, then the mover's pieces by colour and type and his castling rights).
const OWN_WORDS: i32 = 16;
let OWN_CACHE = new Int32Array(0);
let ownStamp: i32 = 0;

/** Forgets every own board (the rules, which shape attempts, may have changed since the last run). */
export function resetOwnAttempts(): void {
  ownStamp++;
  if (OWN_CACHE.length < viewLength() * OWN_WORDS) OWN_CACHE = new Int32Array(viewLength() * OWN_WORDS);
  ownListHandle = -1;
}

/** Would the referee call own attempt `attempt` (event `e`) Nonsense in `h`? */
function isNonsense(h: i32, e: i32, attempt: i32): bool {
  const base = h << POSITION_SHIFT;
  const c = e * OWN_WORDS;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const ownLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  const ownHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  const state = us | (unchecked(POSITIONS[base + W_CASTLING]) << 1);
  let same = (unchecked(OWN_CACHE[c]) >> 1) == ownStamp && unchecked(OWN_CACHE[c + 1]) == ownLo &&
    unchecked(OWN_CACHE[c + 2]) == ownHi && unchecked(OWN_CACHE[c + 3]) == state;
  for (let i = 0; same && i < 12; i += 2) {
    same = unchecked(OWN_CACHE[c + 4 + i]) == (unchecked(POSITIONS[base + W_TYPE + 2 + i]) & ownLo) &&
      unchecked(OWN_CACHE[c + 5 + i]) == (unchecked(POSITIONS[base + W_TYPE + 3 + i]) & ownHi);
  }
  if (!same) {
    unchecked(OWN_CACHE[c] = (ownStamp << 1) | (isAttemptable(h, attempt) ? 1 : 0));
    unchecked(OWN_CACHE[c + 1] = ownLo);
    unchecked(OWN_CACHE[c + 2] = ownHi);
    unchecked(OWN_CACHE[c + 3] = state);
    for (let i = 0; i < 12; i += 2) {
      unchecked(OWN_CACHE[c + 4 + i] = unchecked(POSITIONS[base + W_TYPE + 2 + i]) & ownLo);
      unchecked(OWN_CACHE[c + 5 + i] = unchecked(POSITIONS[base + W_TYPE + 3 + i]) & ownHi);
    }
  }
  if ((unchecked(OWN_CACHE[c]) & 1) == 0) return true;
  return rule(RULE_PAWN_TRY_NONSENSE) != 0 && isPawnCaptureAttempt(h, attempt) && legalPawnCaptures(h) == 0;
}

// An own turn is often several attempts on one position (Illegal ones, then a legal one): its
// legal moves are generated once, into the move list the caller lends, while the position stays.
let ownListHandle: i32 = -1; // the position whose legal moves the lent list holds (-1: none)
let ownListCount: i32 = 0;

/** The legal move of `h` that `attempt` names, or -1 (as legalMoveFor), generated into `list` unless it holds h's moves already. */
function legalMoveNamed(h: i32, attempt: i32, list: i32): i32 {
  if (list < 0) return legalMoveFor(h, attempt); // no list to lend (the deepest level)
  if (ownListHandle != h) {
    ownListCount = generateMoves(h, list);
    ownListHandle = h;
  }
  for (let i = 0; i < ownListCount; i++) {
    const move = unchecked(MOVES[list + i]);
    if (attemptOf(move) == attempt) return move;
  }
  return -1;
}

function illegalCountPossible(h: i32, e: i32): bool {
  const heard = eventWord(e, 1);
  return heard <= 0 || illegalOptions(h) >= heard;
}

/** illegalCountPossible for a position whose `legal` moves have been generated. */
export function illegalCountPossibleGiven(h: i32, e: i32, legal: i32): bool {
  const heard = eventWord(e, 1);
  return heard <= 0 || illegalOptionsGiven(h, legal) >= heard;
}

// ---- duplicate removal ----

/** The distinct positions output (breadth-first: of the layer being built). */
const OUTPUTS = new PositionSet();

function clearOutputs(): void { OUTPUTS.clear(rule(RULE_FIFTY_MOVES) != 0); }

/** Adds `h` to the outputs unless an equal position is there. */
function insertUnique(h: i32): bool {
  if (OUTPUTS.has(h, 0)) return false;
  OUTPUTS.add(h, 0);
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
  arenaEnd = positionCapacity();
  resetOwnAttempts();
  half = storeCapacity() >> 1;
  if (half < 1) return ESTIMATE_LIMIT;
  inBase = storeBase();
  outBase = inBase + half;
  copyPosition(root, inBase);
  inCount = 1;
  if (countHistories) {
    if (HISTORIES_IN.length < half) { HISTORIES_IN = new Float64Array(half); HISTORIES_OUT = new Float64Array(half); }
    HISTORIES_IN[0] = 1;
  }
  outCount = 0;
  bfsEvent = 0;
  bfsIndex = 0;
  failedAt = -1;
  work = 0;
  pauseAfterEvent = false;
  clearOutputs();
  return ESTIMATE_MORE;
}

function keep(h: i32, histories: f64): bool {
  // copies `h` into the next layer unless it is there already; false when the layer is full
  if (outCount >= half) return false;
  const slot = outBase + outCount;
  if (h != slot) copyPosition(h, slot);
  addHistories(slot, histories);
  return true;
}

// Information sets with multiplicities (bfsCountHistories): each position of a layer carries the
// number of histories (sequences of the opponent's moves) reaching it, and a duplicate adds its
// number to the position kept instead of being followed again; the information set's size is the
// sum over the last layer, for the work of the breadth-first belief. Exact: two histories that
// meet in one position have the same futures (consistency with the rest of the view depends on
// the position alone; a repetition draw announced is accepted position by position, as above).
let countHistories: bool = false;
let HISTORIES_IN = new Float64Array(0);
let HISTORIES_OUT = new Float64Array(0);

/** With `on`, breadth-first counts the histories reaching each position (bfsHistories). Call before bfsStart. */
export function bfsCountHistories(on: bool): void { countHistories = on; }

/** Adds `slot` (the next free record of the layer) unless an equal position is there; counted, its histories go to the one kept. */
function addHistories(slot: i32, histories: f64): void {
  if (insertUnique(slot)) {
    if (countHistories) unchecked(HISTORIES_OUT[outCount] = histories);
    outCount++;
  } else if (countHistories) {
    const kept = OUTPUTS.found - outBase;
    unchecked(HISTORIES_OUT[kept] = unchecked(HISTORIES_OUT[kept]) + histories);
  }
}

/** The number of histories reaching the current layer's positions (after bfsCountHistories(true)). */
export function bfsHistories(): f64 {
  let sum: f64 = 0;
  if (countHistories) for (let i = 0; i < inCount; i++) sum += unchecked(HISTORIES_IN[i]);
  return sum;
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
        const n = generateMoves(h, list);
        if (illegalCountPossibleGiven(h, e, n)) {
          const percept = eventWord(e, 2);
          const histories = countHistories ? unchecked(HISTORIES_IN[bfsIndex]) : 0;
          for (let i = 0; i < n; i++) {
            if (outCount >= half) return ESTIMATE_LIMIT;
            const child = outBase + outCount;
            if (opponentMoveMatches(h, unchecked(MOVES[list + i]), child, percept)) addHistories(child, histories);
          }
          spent += n + 1;
          work += n + 1;
        } else { spent++; work++; }
      } else {
        if (outCount >= half) return ESTIMATE_LIMIT;
        ownListHandle = -1;
        const r = applyEvent(h, e, outBase + outCount, list);
        if (r >= 0 && !keep(r, countHistories ? unchecked(HISTORIES_IN[bfsIndex]) : 0)) return ESTIMATE_LIMIT;
        spent++;
        work++;
      }
      bfsIndex++;
    }
    // the next layer becomes the current one
    const t = inBase; inBase = outBase; outBase = t;
    if (countHistories) { const c = HISTORIES_IN; HISTORIES_IN = HISTORIES_OUT; HISTORIES_OUT = c; }
    inCount = outCount;
    outCount = 0;
    bfsIndex = 0;
    clearOutputs();
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

// ---- depth-first: positions already followed ----
// In positions mode, a position reached again after the same opponent move event has the same
// future, so it is followed once. Followed positions are copied into the free part of the store,
// from its top down (records followedTop … capacity − 1), and found through FOLLOWED, tagged
// with their event. This is a cache: when the outputs, growing from the bottom, need a record it
// holds, or it has no room left, it is emptied and starts again, so exactness never depends on it.

const FOLLOWED = new PositionSet();
let followedTop: i32 = 0;

function clearFollowed(): void {
  FOLLOWED.clear(rule(RULE_FIFTY_MOVES) != 0);
  followedTop = arenaEnd;
}

/** Has this run followed a position equal to `h` from event `e`? Records it (when there is room) if not. */
function followedBefore(h: i32, e: i32): bool {
  if (FOLLOWED.has(h, e)) return true;
  if (followedTop - 1 < storeBase() + storeCount + 1) { // no room above the outputs (keeping one for the next)
    clearFollowed();
    if (followedTop - 1 < storeBase() + storeCount + 1) return false;
    FOLLOWED.has(h, e); // sets the free slot in the emptied set
  }
  followedTop--;
  copyPosition(h, followedTop);
  FOLLOWED.add(followedTop, e);
  return false;
}

/** The output record storeBase() + storeCount, made free of followed positions. */
function nextOutputSlot(): i32 {
  const slot = storeBase() + storeCount;
  if (slot >= followedTop) clearFollowed();
  return slot;
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
/** The view's last opponent move (-1: none), and it again when it is the view's last event (else -1). */
let lastBranching: i32 = -1;
let leafEvent: i32 = -1;

// Sampler restarts: the first consistent leaf of a randomly ordered descent can lie behind a wide
// dead subtree (a heavy-tailed running time), so a descent that has done more than
// restartUnit × luby(i) work without a new position is abandoned for a fresh one (luby.ts); i
// counts the descents of the run. 0: never restart.
export const DEFAULT_RESTART_UNIT: i32 = 4096;
let restartUnit: i32 = DEFAULT_RESTART_UNIT;
let descents: i32 = 0;
let restarts: i32 = 0;
let descentStart: f64 = 0;

/** Sets the sampler's restart unit (after dfsStart; 0: no restarts). */
export function dfsRestartUnit(unit: i32): void { restartUnit = max(0, unit); }
/** Descents begun by the sampler so far, and how many of them were abandoned at their cutoff. */
export function dfsDescents(): i32 { return descents; }
export function dfsRestarts(): i32 { return restarts; }

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
  ownListHandle = -1;
  while (e < viewLength()) {
    if (e > deepestEvent) deepestEvent = e;
    if (isBranching(e)) {
      if (level >= LEVEL_LISTS) {
        if (illegalCountPossible(h, e)) tooDeep = true;
        return CHAIN_FAIL;
      }
      const list = listOffset(LEVEL_LIST_BASE + level);
      const n = generateMoves(h, list);
      work += n + 1;
      if (!illegalCountPossibleGiven(h, e, n)) return CHAIN_FAIL;
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
      if (e == lastBranching) batchReady = false; // the batch holds another frame's moves
      return CHAIN_PUSHED;
    }
    const dst = h == afterOwn(level) ? afterOpponent(level) : afterOwn(level);
    const next = applyEvent(h, e, dst, level < LEVEL_LISTS ? listOffset(LEVEL_LIST_BASE + level) : -1);
    if (next != h) ownListHandle = -1;
    h = next;
    work++;
    if (h < 0) return CHAIN_FAIL;
    e++;
  }
  deepestEvent = viewLength();
  return h;
}

/** Starts a depth-first run from `root`: mode 0 distinct positions, 1 histories, 2 samples (with seed). */
export function dfsStart(root: i32, runMode: i32, seed: i32): i32 { return dfsStartWithin(root, runMode, seed, positionCapacity()); }

/** dfsStart using only the records below `end` (the rest of the arena belongs to a search fed by this run). */
export function dfsStartWithin(root: i32, runMode: i32, seed: i32, end: i32): i32 {
  arenaEnd = min(end, positionCapacity());
  resetOwnAttempts();
  clearOutputs();
  mode = runMode;
  if (mode == MODE_POSITIONS) clearFollowed();
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
  pendingNext = 0;
  pendingEnd = 0;
  batchReady = false;
  if (mode == MODE_SAMPLE) seedRandom(seed);
  restartUnit = DEFAULT_RESTART_UNIT;
  descents = 0;
  restarts = 0;
  lastBranching = -1;
  for (let e = 0; e < viewLength(); e++) if (isBranching(e)) lastBranching = e;
  leafEvent = lastBranching == viewLength() - 1 ? lastBranching : -1;
  // histories are counted, not stored; the other modes need room for at least one position
  return mode != MODE_HISTORIES && storeCapacity() < 1 ? ESTIMATE_LIMIT : ESTIMATE_MORE;
}

/** A position the view allows was reached: store it (positions, samples) or count it (histories). */
function emit(h: i32): i32 {
  if (mode == MODE_HISTORIES) { histories++; lastEmitted = h; return ESTIMATE_FOUND; }
  if (storeCount >= storeCapacity()) return ESTIMATE_LIMIT;
  if (OUTPUTS.has(h, 0)) return ESTIMATE_MORE; // seen before: copied only when new
  const slot = nextOutputSlot();
  copyPosition(h, slot);
  OUTPUTS.add(slot, 0);
  storeCount++;
  lastEmitted = slot;
  if (mode == MODE_SAMPLE) { frames = 0; started = false; descents++; } // the next sample descends afresh
  return ESTIMATE_FOUND;
}

// When the view ends with an opponent move, his positions after it are the output. Most of them
// are found again through other parents (his moves in another order), so nearly every one costs a
// lookup, and a lookup is a cache miss or two. A frame's remaining moves are therefore played as
// one batch, straight into the free records of the store; the lookups' slots and records are
// touched first, all together, so the processor fetches them in parallel; then the new positions
// are kept (moved down over the duplicates) and streamed one per call from
// [pendingNext, pendingEnd).
const BATCH_MATCH = new Int32Array(MAX_MOVES);
let pendingNext: i32 = 0;
let pendingEnd: i32 = 0;
let touchSink: i32 = 0;

/** Plays the moves next … of the leaf frame at `level` as one batch; false (nothing done) when the store has no room for them all. */
function leafBatch(level: i32, next: i32): bool {
  const n = unchecked(FRAME_COUNT[level]);
  const first = storeBase() + storeCount;
  if (first + (n - next) > arenaEnd) return false;
  if (first + (n - next) > followedTop) clearFollowed();
  const parent = unchecked(FRAME_HANDLE[level]);
  const e = unchecked(FRAME_EVENT[level]);
  const percept = eventWord(e, 2);
  const list = listOffset(LEVEL_LIST_BASE + level);
  let matched = 0;
  for (let i = next; i < n; i++) {
    const slot = first + i - next;
    const ok = opponentMoveMatches(parent, unchecked(MOVES[list + i]), slot, percept);
    unchecked(BATCH_MATCH[i - next] = ok ? 1 : 0);
    if (ok) matched++;
  }
  work += n - next - 1; // the caller counted move `next`
  unchecked(FRAME_NEXT[level] = n);
  pendingNext = first;
  pendingEnd = first;
  if (matched == 0) return true;
  deepestEvent = viewLength();
  let sink = 0;
  for (let i = 0; i < n - next; i++) if (unchecked(BATCH_MATCH[i]) != 0) sink ^= OUTPUTS.touch(first + i, 0);
  touchSink ^= sink;
  for (let i = 0; i < n - next; i++) {
    if (unchecked(BATCH_MATCH[i]) == 0) continue;
    const slot = first + i;
    if (OUTPUTS.has(slot, 0)) continue;
    const kept = storeBase() + storeCount;
    if (kept != slot) copyPosition(slot, kept);
    OUTPUTS.add(kept, 0);
    storeCount++;
  }
  pendingEnd = storeBase() + storeCount;
  return true;
}

// When the view goes on after the opponent's last turn (own events), each of his positions after
// it is looked up among those followed, and most are found (his moves in another order): the
// frame's moves are played at once into BATCH_BASE + move index, the lookups' slots and records
// touched together, then each position is taken in turn as if just played.
let batchReady: bool = false;

function lastTurnBatch(level: i32, next: i32): void {
  const n = unchecked(FRAME_COUNT[level]);
  const parent = unchecked(FRAME_HANDLE[level]);
  const e = unchecked(FRAME_EVENT[level]);
  const percept = eventWord(e, 2);
  const list = listOffset(LEVEL_LIST_BASE + level);
  let sink = 0;
  for (let i = next; i < n; i++) {
    const ok = opponentMoveMatches(parent, unchecked(MOVES[list + i]), BATCH_BASE + i, percept);
    unchecked(BATCH_MATCH[i] = ok ? 1 : 0);
  }
  for (let i = next; i < n; i++) if (unchecked(BATCH_MATCH[i]) != 0) sink ^= FOLLOWED.touch(BATCH_BASE + i, e + 1);
  touchSink ^= sink;
  batchReady = true;
}

/**
 * Continues the depth-first run until the next position (ESTIMATE_FOUND, dfsLast() holds it),
 * or `budget` work units (ESTIMATE_MORE), or the end (ESTIMATE_EXHAUSTED; ESTIMATE_INCONSISTENT
 * when nothing at all was found), or ESTIMATE_LIMIT / ESTIMATE_TOO_DEEP.
 */
export function dfsNext(budget: i32): i32 {
  if (pendingNext < pendingEnd) { lastEmitted = pendingNext++; return ESTIMATE_FOUND; }
  const stopAt = work + <f64>budget;
  if (!started) {
    started = true;
    descentStart = work;
    copyPosition(rootHandle, afterOpponent(0));
    const r = runChain(afterOpponent(0), 0, 0);
    if (r >= 0) { const s = emit(r); if (s != ESTIMATE_MORE) return s; }
  }
  while (frames > 0) {
    if (work >= stopAt) return ESTIMATE_MORE;
    if (mode == MODE_SAMPLE && restartUnit > 0 && work - descentStart > <f64>restartUnit * <f64>luby(descents)) {
      descents++;
      restarts++;
      frames = 0;
      started = false;
      return ESTIMATE_MORE;
    }
    const level = frames - 1;
    const next = unchecked(FRAME_NEXT[level]);
    if (next >= unchecked(FRAME_COUNT[level])) { frames--; continue; }
    unchecked(FRAME_NEXT[level] = next + 1);
    const e = unchecked(FRAME_EVENT[level]);
    const move = unchecked(MOVES[listOffset(LEVEL_LIST_BASE + level) + next]);
    work++;
    if (e == leafEvent && mode == MODE_POSITIONS && leafBatch(level, next)) {
      if (pendingNext < pendingEnd) { lastEmitted = pendingNext++; return ESTIMATE_FOUND; }
      continue;
    }
    if (e == leafEvent && mode == MODE_POSITIONS && storeCount < storeCapacity()) {
      // the view ends with this opponent move: his position after it is a consistent current
      // position, played straight into the store and kept unless it is there already
      const slot = nextOutputSlot();
      if (!opponentMoveMatches(unchecked(FRAME_HANDLE[level]), move, slot, eventWord(e, 2))) continue;
      deepestEvent = viewLength();
      if (!insertUnique(slot)) continue;
      storeCount++;
      lastEmitted = slot;
      return ESTIMATE_FOUND;
    }
    let child = afterOpponent(level + 1);
    if (e == lastBranching && mode == MODE_POSITIONS) {
      // the opponent's last turn, own events after it: his moves played as one batch
      if (!batchReady) lastTurnBatch(level, next);
      child = BATCH_BASE + next;
      if (unchecked(BATCH_MATCH[next]) == 0) continue;
    } else if (!opponentMoveMatches(unchecked(FRAME_HANDLE[level]), move, child, eventWord(e, 2))) continue;
    // positions mode: the same position after the same event has the same future: followed once
    if (mode == MODE_POSITIONS && followedBefore(child, e + 1)) continue;
    const r = runChain(child, e + 1, level + 1);
    if (r >= 0) { const s = emit(r); if (s != ESTIMATE_MORE) return s; }
  }
  if (tooDeep) return ESTIMATE_TOO_DEEP;
  if (storeCount == 0 && histories == 0) { failedAt = deepestEvent; return ESTIMATE_INCONSISTENT; }
  return ESTIMATE_EXHAUSTED;
}

/** The position just found. In positions mode the store keeps them in order: the k-th found is record storeBase() + k. */
export function dfsLast(): i32 { return lastEmitted; }
export function dfsStoreCount(): i32 { return storeCount; }
export function dfsHistories(): f64 { return histories; }
/** The opponent's move chosen at `level` of the current branch (for listing histories). */
export function dfsChosenMove(level: i32): i32 {
  return unchecked(MOVES[listOffset(LEVEL_LIST_BASE + level) + FRAME_NEXT[level] - 1]);
}
export function dfsDepth(): i32 { return frames; }

// Making the children of belief-state nodes (the paper's "expand"): the attempts worth trying at
// an OR node, the parts of an ATTEMPT node, the successors of an EXPAND node. With `early`
// (the E- algorithms) a build stops at the first position that fails, without making the rest.

import { POSITIONS, POSITION_SHIFT, W_KEY_LO, W_KEY_HI, samePosition } from '../chess/position';
import { MOVES, listOffset, generateMoves } from '../chess/moveGen';
import { mul32 } from '../chess/bitboard';
import { rule, RULE_FIFTY_MOVES } from '../referee/rules';
import {
  ANSWER_LEGAL,
  ANSWER_ILLEGAL,
  ANSWER_NONSENSE,
  END_NONE,
  PERCEPT_CHECK,
  PERCEPT_CAPTURE_SHIFT,
  perceptEnd,
  answerAttempt,
  playAndAnnounce,
  pawnTryRuledOut,
} from '../referee/referee';
import { knownNoMate } from './table';
import { attemptOf, isAttemptable } from '../referee/attempts';
import { afterOwnMove, announceTries, triesLo, triesHi, WON, FAILED } from './outcome';
import {
  N_PARENT,
  N_FIRST,
  N_NEXT,
  N_DEPTH,
  N_ATTEMPT,
  N_ENTRIES,
  N_SIZE,
  N_ATTEMPTS,
  N_COUNT,
  KIND_OR,
  KIND_ATTEMPT,
  KIND_EXPAND,
  FLAG_EXPANDED,
  FLAG_TERMINAL,
  ENTRY_HANDLE,
  ENTRY_NEXT,
  ATTEMPT_LIST,
  attemptTop,
  get,
  set,
  kindOf,
  addFlag,
  prove,
  disprove,
  isProven,
  isDisproven,
  newNode,
  newPosition,
  dropNewestPosition,
  addEntry,
  addPending,
  pushAttempt,
  keyIs,
  setKey,
  markOutOfRoom,
  knownNoMateSet,
} from './tree';
import { newArena } from '../chess/arena';

/** Move lists of the search pool (lists 0..63) the builds use; perft never runs during a solve. */
const ATTEMPT_MOVES: i32 = listOffset(1);
const EXPAND_MOVES: i32 = listOffset(2);
const CACHE_MOVES: i32 = listOffset(3);

// ---- duplicate positions within a node: a hash set of (node, position) ----
// Black-box builds clear it per build (a build makes a node's positions all at once); incremental
// searches keep it for the whole search (they never free nodes, so an entry cannot go stale).

let DEDUPE_NODE: Int32Array = new Int32Array(0);
let DEDUPE_HANDLE: Int32Array = new Int32Array(0);
let DEDUPE_GENERATION: Int32Array = new Int32Array(0);
let dedupeMask: i32 = 0;
let dedupeGeneration: i32 = 0;
let dedupeUsed: i32 = 0;
/** Positions go to `pending` lists (incremental searches) rather than `entries`. */
let incremental: bool = false;

/** Bytes per slot of the set (node, handle, generation). */
export const DEDUPE_SLOT_BYTES: i32 = 12;
export function dedupeBytes(): f64 {
  return f64(dedupeMask + 1) * f64(DEDUPE_SLOT_BYTES);
}

/**
 * Sizes the set for up to `positions` positions — the largest power of two within two slots per
 * position, the share the host's memory budget gives it (grow-only arrays) — and chooses where
 * positions go.
 */
export function resetBuilds(positions: i32, isIncremental: bool): void {
  let size = 1024;
  while (size * 2 <= positions * 2 && size < 1 << 24) size <<= 1;
  if (DEDUPE_NODE.length < size) {
    DEDUPE_NODE = newArena(size);
    DEDUPE_HANDLE = newArena(size);
    DEDUPE_GENERATION = newArena(size);
    dedupeGeneration = 0;
  }
  dedupeMask = DEDUPE_NODE.length - 1;
  incremental = isIncremental;
  newBuild();
}

function newBuild(): void {
  dedupeGeneration++;
  dedupeUsed = 0;
}

/** Adds `h` (shared with the parent, so never a duplicate) to `node`'s positions; false out of room. */
function addShared(node: i32, h: i32): bool {
  return incremental ? addPending(node, h) : addEntry(node, h);
}

/**
 * Adds the newest position `h` to `node` unless an equal one is there: 1 added, 0 a duplicate
 * (the record is given back), -1 out of room.
 */
function addUnique(node: i32, h: i32): i32 {
  if (dedupeUsed * 4 >= dedupeMask * 3) {
    dropNewestPosition();
    markOutOfRoom();
    return -1;
  }
  const base = h << POSITION_SHIFT;
  let slot =
    (unchecked(POSITIONS[base + W_KEY_LO]) ^ (unchecked(POSITIONS[base + W_KEY_HI]) >>> 7) ^ mul32(node, 0x9e3779b1)) &
    dedupeMask;
  const clock = rule(RULE_FIFTY_MOVES) != 0;
  while (unchecked(DEDUPE_GENERATION[slot]) == dedupeGeneration) {
    if (unchecked(DEDUPE_NODE[slot]) == node && samePosition(unchecked(DEDUPE_HANDLE[slot]), h, clock)) {
      dropNewestPosition();
      return 0;
    }
    slot = (slot + 1) & dedupeMask;
  }
  if (!addShared(node, h)) {
    dropNewestPosition();
    return -1;
  }
  unchecked((DEDUPE_GENERATION[slot] = dedupeGeneration));
  unchecked((DEDUPE_NODE[slot] = node));
  unchecked((DEDUPE_HANDLE[slot] = h));
  dedupeUsed++;
  return 1;
}

/** The child of `node` of `kind` with key (k0, k1, k2), made if there is none yet; -1 out of room. */
function childWithKey(node: i32, kind: i32, k0: i32, k1: i32, k2: i32, depth: i32): i32 {
  for (let c = get(node, N_FIRST); c >= 0; c = get(c, N_NEXT)) if (keyIs(c, k0, k1, k2)) return c;
  const c = newNode(kind, node, depth);
  if (c >= 0) setKey(c, k0, k1, k2);
  return c;
}

// ---- OR nodes: the attempts worth trying ----

const TRIED = newArena(1 << 15);
let triedGeneration: i32 = 0;

/** Marks in TRIED (a new generation) the attempts already made this turn before OR node `node`. */
function markTried(node: i32): void {
  triedGeneration++;
  let n = node;
  for (;;) {
    const p = get(n, N_PARENT);
    if (p < 0 || kindOf(p) != KIND_ATTEMPT) break;
    unchecked((TRIED[get(p, N_ATTEMPT)] = triedGeneration));
    n = get(p, N_PARENT);
  }
}

/**
 * Lists at `node` every attempt legal in at least one of its positions and not yet tried this
 * turn (the turn's earlier attempts are the ATTEMPT ancestors this node is the Illegal part of),
 * in order of first appearance.
 */
export function listAttempts(node: i32): void {
  markTried(node);
  const start = attemptTop;
  for (let e = get(node, N_ENTRIES); e >= 0; e = unchecked(ENTRY_NEXT[e])) {
    const n = newAttempts(unchecked(ENTRY_HANDLE[e]));
    for (let i = 0; i < n; i++) if (!pushAttempt(unchecked(NEW_ATTEMPTS[i]))) return;
  }
  set(node, N_ATTEMPTS, start);
  set(node, N_COUNT, attemptTop - start);
  addFlag(node, FLAG_EXPANDED);
}

export function attemptAt(node: i32, i: i32): i32 {
  return unchecked(ATTEMPT_LIST[get(node, N_ATTEMPTS) + i]);
}

// ---- one position at a time (shared by the black-box builds and the incremental searches) ----

export const STEP_OK: i32 = 0;
export const STEP_FAILED: i32 = 1;
export const STEP_NO_ROOM: i32 = 2;

/**
 * Tries the attempt of ATTEMPT node `node` in position `h` of its OR parent: a rejection puts `h`
 * in the Illegal child; a legal move is judged — a won position is dropped (its EXPAND part is
 * still made, so the strategy shows the answer), an open one goes to the EXPAND part of what we
 * hear, a failing one is STEP_FAILED.
 */
function attemptIn(node: i32, h: i32): i32 {
  const depth = get(node, N_DEPTH);
  const dst = newPosition();
  if (dst < 0) return STEP_NO_ROOM;
  const attempt = get(node, N_ATTEMPT);
  const percept = h == movesOfHandle ? answerFromMoves(h, attempt, dst) : answerAttempt(h, attempt, dst);
  if ((percept & 3) != ANSWER_LEGAL) {
    dropNewestPosition();
    const rejected = childWithKey(node, KIND_OR, percept, 0, 0, depth);
    return rejected >= 0 && addShared(rejected, h) ? STEP_OK : STEP_NO_ROOM;
  }
  const result = afterOwnMove(dst, percept, depth);
  if (result == FAILED) {
    dropNewestPosition();
    return STEP_FAILED;
  }
  announceTries(dst);
  const part = childWithKey(node, KIND_EXPAND, percept, triesLo, triesHi, depth - 1);
  if (part < 0) {
    dropNewestPosition();
    return STEP_NO_ROOM;
  }
  if (result == WON) {
    dropNewestPosition();
    return STEP_OK;
  }
  return addUnique(part, dst) < 0 ? STEP_NO_ROOM : STEP_OK;
}

/**
 * Plays every legal move of theirs in position `h` of EXPAND node `node`, adding the results to its
 * OR children by what we hear. A move that ends the game (we are mated or stalemated, or a draw) is
 * STEP_FAILED; with `stopAtFailure` the other moves are not made.
 */
function repliesIn(node: i32, h: i32, stopAtFailure: bool): i32 {
  const depth = get(node, N_DEPTH);
  const n = generateMoves(h, EXPAND_MOVES);
  let status = STEP_OK;
  for (let i = 0; i < n; i++) {
    const dst = newPosition();
    if (dst < 0) return STEP_NO_ROOM;
    const percept = playAndAnnounce(h, unchecked(MOVES[EXPAND_MOVES + i]), dst);
    if (perceptEnd(percept) != END_NONE) {
      dropNewestPosition();
      status = STEP_FAILED;
      if (stopAtFailure) return status;
      continue;
    }
    announceTries(dst);
    const next = childWithKey(node, KIND_OR, percept, triesLo, triesHi, depth - 1);
    if (next < 0) {
      dropNewestPosition();
      return STEP_NO_ROOM;
    }
    if (addUnique(next, dst) < 0) return STEP_NO_ROOM;
  }
  return status;
}

// One position's legal moves by attempt, for trying many attempts in it (an OR node integrating a
// position tries every attempt child's attempt there): one move generation instead of one per
// attempt. Valid while movesOfHandle is that position (integrate sets and clears it).
const MOVE_OF_ATTEMPT = newArena(1 << 15);
const MOVE_STAMP = newArena(1 << 15);
let moveStamp: i32 = 0;
let movesOfHandle: i32 = -1;

function cacheMoves(h: i32): void {
  moveStamp++;
  const n = generateMoves(h, CACHE_MOVES);
  for (let i = 0; i < n; i++) {
    const move = unchecked(MOVES[CACHE_MOVES + i]);
    const attempt = attemptOf(move);
    unchecked((MOVE_STAMP[attempt] = moveStamp));
    unchecked((MOVE_OF_ATTEMPT[attempt] = move));
  }
  movesOfHandle = h;
}

/** answerAttempt (referee.ts) with the legal moves of `h` already at hand. */
function answerFromMoves(h: i32, attempt: i32, dst: i32): i32 {
  if (!isAttemptable(h, attempt)) return ANSWER_NONSENSE;
  if (pawnTryRuledOut(h, attempt)) return ANSWER_NONSENSE;
  if (unchecked(MOVE_STAMP[attempt]) != moveStamp) return ANSWER_ILLEGAL;
  return playAndAnnounce(h, unchecked(MOVE_OF_ATTEMPT[attempt]), dst);
}

// ---- black-box builds: a node's children made from all its positions at once ----

/**
 * Tries the attempt of ATTEMPT node `node` in every position of its OR parent. A failing position
 * disproves the node; an EXPAND child left without positions (every position in it won) is proven;
 * the node is proven when every child is.
 */
export function buildAttempt(node: i32, early: bool): void {
  newBuild();
  let failed = false;
  for (let e = get(get(node, N_PARENT), N_ENTRIES); e >= 0; e = unchecked(ENTRY_NEXT[e])) {
    const status = attemptIn(node, unchecked(ENTRY_HANDLE[e]));
    if (status == STEP_NO_ROOM) return;
    if (status == STEP_FAILED) {
      failed = true;
      if (early) break;
    }
  }
  addFlag(node, FLAG_EXPANDED);
  if (failed) {
    disprove(node);
    addFlag(node, FLAG_TERMINAL);
    return;
  }
  let open = false;
  for (let c = get(node, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
    if (kindOf(c) == KIND_EXPAND && get(c, N_SIZE) == 0) {
      prove(c);
      addFlag(c, FLAG_EXPANDED | FLAG_TERMINAL);
    }
    if (!isProven(c)) open = true;
  }
  if (!open) {
    prove(node);
    addFlag(node, FLAG_TERMINAL);
  }
}

// ---- EXPAND nodes ----

/**
 * Plays every legal move of theirs in every position of EXPAND node `node`, grouping the results
 * (duplicates removed) into OR children by what we hear. A move that ends the game (we are mated
 * or stalemated, or a draw) disproves the node.
 */
export function buildExpand(node: i32, early: bool): void {
  newBuild();
  let failed = false;
  for (let e = get(node, N_ENTRIES); e >= 0; e = unchecked(ENTRY_NEXT[e])) {
    const status = repliesIn(node, unchecked(ENTRY_HANDLE[e]), early);
    if (status == STEP_NO_ROOM) return;
    if (status == STEP_FAILED) {
      failed = true;
      if (early) break;
    }
  }
  addFlag(node, FLAG_EXPANDED);
  if (failed) {
    disprove(node);
    addFlag(node, FLAG_TERMINAL);
  }
}

// ---- attempt ordering (beyond the paper, switchable) ----

/** Order attempts: checks first, then captures, then the rest (each group in generation order). */
let orderAttempts: bool = false;
export function setAttemptOrdering(on: bool): void {
  orderAttempts = on;
}

const NEW_ATTEMPTS = new Int32Array(256);
const ATTEMPT_SCORES = new Int32Array(256);
let scratchPosition: i32 = -1;

/** The scratch record the ordering plays attempts into (outside the search's arena). */
export function setScratchPosition(h: i32): void {
  scratchPosition = h;
}

/**
 * The attempts legal in `h` not marked in TRIED (this generation), marked now, into NEW_ATTEMPTS
 * (ordered when ordering is on); returns how many.
 */
function newAttempts(h: i32): i32 {
  const n = generateMoves(h, ATTEMPT_MOVES);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const move = unchecked(MOVES[ATTEMPT_MOVES + i]);
    const attempt = attemptOf(move);
    if (unchecked(TRIED[attempt]) == triedGeneration) continue;
    unchecked((TRIED[attempt] = triedGeneration));
    let score = 0;
    if (orderAttempts) {
      const percept = playAndAnnounce(h, move, scratchPosition);
      score = (percept & PERCEPT_CHECK) != 0 ? 2 : ((percept >> PERCEPT_CAPTURE_SHIFT) & 127) != 0 ? 1 : 0;
    }
    // insertion by score, stable
    let j = count;
    while (j > 0 && unchecked(ATTEMPT_SCORES[j - 1]) < score) {
      unchecked((NEW_ATTEMPTS[j] = unchecked(NEW_ATTEMPTS[j - 1])));
      unchecked((ATTEMPT_SCORES[j] = unchecked(ATTEMPT_SCORES[j - 1])));
      j--;
    }
    unchecked((NEW_ATTEMPTS[j] = attempt));
    unchecked((ATTEMPT_SCORES[j] = score));
    count++;
  }
  return count;
}

// ---- incremental searches: one position at a time ----

/**
 * Integrates position `h` (just taken from `node`'s pending list, see takePending) into OR or
 * EXPAND node `node`: an EXPAND node plays their moves in it (a failing one disproves the node);
 * an OR node tries every live ATTEMPT child's attempt in it (a failing one disproves that child,
 * which stays, so the attempt is not made again) and makes an ATTEMPT child for every attempt
 * legal in `h` and new to the node, replaying all the node's earlier positions into it — so an
 * attempt is considered only once it is legal in some position seen (never an always-illegal
 * one). First the tables: a node they know has no mate (the position table: `h`; the belief
 * table: an OR node's integrated positions, `h` now among them) is disproved without that work.
 * Returns STEP_NO_ROOM when an arena is full.
 */
export function integrate(node: i32, h: i32): i32 {
  if (knownNoMate(h, get(node, N_DEPTH))) {
    disprove(node);
    return STEP_OK;
  }
  if (kindOf(node) == KIND_OR && knownNoMateSet(node)) {
    disprove(node);
    return STEP_OK;
  }
  if (kindOf(node) == KIND_EXPAND) {
    const status = repliesIn(node, h, true);
    if (status == STEP_FAILED) disprove(node);
    return status == STEP_NO_ROOM ? STEP_NO_ROOM : STEP_OK;
  }
  markTried(node);
  cacheMoves(h);
  for (let c = get(node, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
    unchecked((TRIED[get(c, N_ATTEMPT)] = triedGeneration));
    if (isDisproven(c)) continue;
    const status = attemptIn(c, h);
    if (status == STEP_NO_ROOM) {
      movesOfHandle = -1;
      return status;
    }
    if (status == STEP_FAILED) disprove(c);
  }
  movesOfHandle = -1;
  const n = newAttempts(h);
  for (let i = 0; i < n; i++) {
    const c = newNode(KIND_ATTEMPT, node, get(node, N_DEPTH));
    if (c < 0) return STEP_NO_ROOM;
    set(c, N_ATTEMPT, unchecked(NEW_ATTEMPTS[i]));
    addFlag(c, FLAG_EXPANDED);
    for (let e = get(node, N_ENTRIES); e >= 0 && !isDisproven(c); e = unchecked(ENTRY_NEXT[e])) {
      const status = attemptIn(c, unchecked(ENTRY_HANDLE[e]));
      if (status == STEP_NO_ROOM) return status;
      if (status == STEP_FAILED) disprove(c);
    }
  }
  return STEP_OK;
}

// Depth-first state estimation: a resumable stream of consistent current positions, one branch of
// opponent moves at a time, duplicates removed at the output and a position reached again after
// the same opponent move followed only once; in histories mode every consistent history counted
// (information sets), in sample mode shuffled descents restarted after each new position. The
// interleaved search (solver/interleave.ts) is fed by it.

import { copyPosition } from '../chess/position';
import { MOVES, MAX_MOVES, generateMoves, listOffset, LEVEL_LIST_BASE, LEVEL_LISTS } from '../chess/moveGen';
import { rule, RULE_FIFTY_MOVES } from '../referee/rules';
import { randomBelow, seedRandom } from '../chess/random';
import { PositionSet } from './positionSet';
import { luby } from './luby';
import { viewLength, eventWord, isBranching } from './view';
import {
  opponentMoveMatches,
  applyEvent,
  resetOwnAttempts,
  illegalCountPossible,
  illegalCountPossibleGiven,
  forgetOwnList,
} from './consistency';
import {
  ESTIMATE_MORE,
  ESTIMATE_LIMIT,
  ESTIMATE_TOO_DEEP,
  ESTIMATE_INCONSISTENT,
  ESTIMATE_FOUND,
  ESTIMATE_EXHAUSTED,
  ESTIMATE_FRONTIER,
  STACK_BASE,
  BATCH_BASE,
  storeBase,
  storeCapacity,
  arenaEnd,
  work,
  startRun,
  addWork,
  failAt,
  OUTPUTS,
  clearOutputs,
  insertUnique,
} from './estimate';

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
  if (followedTop - 1 < storeBase() + storeCount + 1) {
    // no room above the outputs (keeping one for the next)
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
export const MODE_POSITIONS: i32 = 0; // distinct current positions, into the store
export const MODE_HISTORIES: i32 = 1; // every consistent history, counted (nothing stored)
export const MODE_SAMPLE: i32 = 2; // shuffled descents restarted after each new position
let mode: i32 = MODE_POSITIONS;
let storeCount: i32 = 0;
let histories: f64 = 0;
let lastEmitted: i32 = -1;
let tooDeep: bool = false;
/** The view's last opponent move (-1: none), and it again when it is the view's last event (else -1). */
let lastBranching: i32 = -1;
let leafEvent: i32 = -1;

// ---- splitting a run (Gupta, Richards & Sarood 2010: the history tree cut at a frontier) ----
// A run with a frontier stops each branch at the opponent turn `frontierLevel` (before his moves
// are generated) and returns it as ESTIMATE_FRONTIER: its position, event and the opponent moves
// chosen above it are a task. A task is a run started from such a position at that event and
// level, so its frames, levels, work and histories are exactly those of the whole run below the
// frontier: the frontier run and the tasks together do the work of one run, in the same order.
let startEvent: i32 = 0;
let baseLevel: i32 = 0;
let frontierLevel: i32 = -1;
/** The event of the frontier just reached (-1: the last chain reached the end of the view). */
let frontierEvent: i32 = -1;
let frontiersFound: i32 = 0;

// Sampler restarts: the first consistent leaf of a randomly ordered descent can lie behind a wide
// dead subtree (a heavy-tailed running time), so a descent that has done more than
// restartUnit × luby(i) work without a new position is abandoned for a fresh one (luby.ts); i
// counts the descents of the run. 0: never restart. Off unless dfsRestartUnit sets a unit after
// dfsStart: with restarts the samples differ, and the shipped problem databases (whose Black
// samples its belief) must regenerate identically (test/db/shipped.test.ts); 4096 is the unit the
// sampler was measured with.
export const DEFAULT_RESTART_UNIT: i32 = 0;
let restartUnit: i32 = DEFAULT_RESTART_UNIT;
let descents: i32 = 0;
let restarts: i32 = 0;
let descentStart: f64 = 0;

/** Sets the sampler's restart unit (after dfsStart; 0: no restarts). */
export function dfsRestartUnit(unit: i32): void {
  restartUnit = max(0, unit);
}
/** Descents begun by the sampler so far, and how many of them were abandoned at their cutoff. */
export function dfsDescents(): i32 {
  return descents;
}
export function dfsRestarts(): i32 {
  return restarts;
}

function afterOpponent(level: i32): i32 {
  return STACK_BASE + 2 * level;
}
function afterOwn(level: i32): i32 {
  return STACK_BASE + 2 * level + 1;
}

const CHAIN_FAIL: i32 = -1;
const CHAIN_PUSHED: i32 = -2;

/**
 * Follows the view from event `e` with position `h` at `level` until the next opponent move
 * (pushes a frame: CHAIN_PUSHED), the end of the view (returns the position), or an
 * inconsistency (CHAIN_FAIL).
 */
function runChain(h: i32, e: i32, level: i32): i32 {
  forgetOwnList();
  while (e < viewLength()) {
    if (e > deepestEvent) deepestEvent = e;
    if (isBranching(e)) {
      if (level == frontierLevel) {
        frontierEvent = e;
        return h; // the caller returns it as ESTIMATE_FRONTIER
      }
      if (level >= LEVEL_LISTS) {
        if (illegalCountPossible(h, e)) tooDeep = true;
        return CHAIN_FAIL;
      }
      const list = listOffset(LEVEL_LIST_BASE + level);
      const n = generateMoves(h, list);
      addWork(n + 1);
      if (!illegalCountPossibleGiven(h, e, n)) return CHAIN_FAIL;
      if (mode == MODE_SAMPLE) {
        for (let i = n - 1; i > 0; i--) {
          // Fisher-Yates shuffle
          const j = randomBelow(i + 1);
          const t = unchecked(MOVES[list + i]);
          unchecked((MOVES[list + i] = unchecked(MOVES[list + j])));
          unchecked((MOVES[list + j] = t));
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
    if (next != h) forgetOwnList();
    h = next;
    addWork(1);
    if (h < 0) return CHAIN_FAIL;
    e++;
  }
  deepestEvent = viewLength();
  frontierEvent = -1;
  return h;
}

/** Starts a depth-first run from `root` in MODE_* (samples use the seed), in the records below `end` (at most the arena's end). */
export function dfsStart(root: i32, runMode: i32, seed: i32, end: i32): i32 {
  return dfsStartWithin(root, runMode, seed, end);
}

/** dfsStart using only the records below `end` (the rest of the arena belongs to a search fed by this run). */
export function dfsStartWithin(root: i32, runMode: i32, seed: i32, end: i32): i32 {
  startRun(end);
  resetOwnAttempts();
  clearOutputs();
  mode = runMode;
  if (mode == MODE_POSITIONS) clearFollowed();
  rootHandle = root;
  startEvent = 0;
  baseLevel = 0;
  frontierLevel = -1;
  frontierEvent = -1;
  frontiersFound = 0;
  frames = 0;
  started = false;
  storeCount = 0;
  histories = 0;
  deepestEvent = -1;
  tooDeep = false;
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

/**
 * After dfsStart: the run starts at view event `event` with the root as the position at opponent
 * turn `level` (a task: a frontier position of another run, its event and level), and, when
 * `frontier` >= 0, stops each branch at opponent turn `frontier` (ESTIMATE_FRONTIER). Event and level 0, frontier -1: the whole run.
 */
export function dfsSplit(event: i32, level: i32, frontier: i32): void {
  startEvent = event;
  baseLevel = level;
  frames = level;
  frontierLevel = frontier;
}

/** The event of the frontier position dfsLast() holds (after ESTIMATE_FRONTIER). */
export function dfsFrontierEvent(): i32 {
  return frontierEvent;
}

/** A chain's end `r` (a position) as a status: the frontier, or a position the view allows. */
function reached(r: i32): i32 {
  if (frontierEvent < 0) return emit(r);
  lastEmitted = r;
  frontiersFound++;
  return ESTIMATE_FRONTIER;
}

/** A position the view allows was reached: store it (positions, samples) or count it (histories). */
function emit(h: i32): i32 {
  if (mode == MODE_HISTORIES) {
    histories++;
    lastEmitted = h;
    return ESTIMATE_FOUND;
  }
  if (storeCount >= storeCapacity()) return ESTIMATE_LIMIT;
  if (OUTPUTS.has(h, 0)) return ESTIMATE_MORE; // seen before: copied only when new
  const slot = nextOutputSlot();
  copyPosition(h, slot);
  OUTPUTS.add(slot, 0);
  storeCount++;
  lastEmitted = slot;
  if (mode == MODE_SAMPLE) {
    // the next sample descends afresh
    frames = 0;
    started = false;
    descents++;
  }
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
    unchecked((BATCH_MATCH[i - next] = ok ? 1 : 0));
    if (ok) matched++;
  }
  addWork(n - next - 1); // the caller counted move `next`
  unchecked((FRAME_NEXT[level] = n));
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
    unchecked((BATCH_MATCH[i] = ok ? 1 : 0));
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
  if (pendingNext < pendingEnd) {
    lastEmitted = pendingNext++;
    return ESTIMATE_FOUND;
  }
  const stopAt = work + <f64>budget;
  if (!started) {
    started = true;
    descentStart = work;
    copyPosition(rootHandle, afterOpponent(baseLevel));
    const r = runChain(afterOpponent(baseLevel), startEvent, baseLevel);
    if (r >= 0) {
      const s = reached(r);
      if (s != ESTIMATE_MORE) return s;
    }
  }
  while (frames > baseLevel) {
    if (work >= stopAt) return ESTIMATE_MORE;
    if (mode == MODE_SAMPLE && restartUnit > 0 && work - descentStart > <f64>restartUnit * <f64>luby(descents)) {
      descents++;
      restarts++;
      frames = baseLevel;
      started = false;
      return ESTIMATE_MORE;
    }
    const level = frames - 1;
    const next = unchecked(FRAME_NEXT[level]);
    if (next >= unchecked(FRAME_COUNT[level])) {
      frames--;
      continue;
    }
    unchecked((FRAME_NEXT[level] = next + 1));
    const e = unchecked(FRAME_EVENT[level]);
    const move = unchecked(MOVES[listOffset(LEVEL_LIST_BASE + level) + next]);
    addWork(1);
    if (e == leafEvent && mode == MODE_POSITIONS && leafBatch(level, next)) {
      if (pendingNext < pendingEnd) {
        lastEmitted = pendingNext++;
        return ESTIMATE_FOUND;
      }
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
    if (r >= 0) {
      const s = reached(r);
      if (s != ESTIMATE_MORE) return s;
    }
  }
  if (tooDeep) return ESTIMATE_TOO_DEEP;
  if (storeCount == 0 && histories == 0 && frontiersFound == 0) {
    failAt(deepestEvent);
    return ESTIMATE_INCONSISTENT;
  }
  return ESTIMATE_EXHAUSTED;
}

/** The position just found. In positions mode the store keeps them in order: the k-th found is record storeBase() + k. */
export function dfsLast(): i32 {
  return lastEmitted;
}
export function dfsStoreCount(): i32 {
  return storeCount;
}
export function dfsHistories(): f64 {
  return histories;
}
/** The opponent's move chosen at `level` of the current branch (for listing histories). */
export function dfsChosenMove(level: i32): i32 {
  return unchecked(MOVES[listOffset(LEVEL_LIST_BASE + level) + FRAME_NEXT[level] - 1]);
}
export function dfsDepth(): i32 {
  return frames;
}

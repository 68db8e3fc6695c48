// Breadth-first state estimation: the naive layer-by-layer expansion (every candidate position
// through one view event at a time, duplicates removed after each event), the baseline the
// depth-first estimator (stream.ts) is measured against. Its two layers share the store.

import { copyPosition } from '../chess/position';
import { MOVES, generateMoves, listOffset, LEVEL_LIST_BASE } from '../chess/moveGen';
import { viewLength, eventWord, isBranching } from './view';
import {
  opponentMoveMatches,
  applyEvent,
  resetOwnAttempts,
  illegalCountPossibleGiven,
  forgetOwnList,
} from './consistency';
import {
  ESTIMATE_DONE,
  ESTIMATE_MORE,
  ESTIMATE_LIMIT,
  ESTIMATE_INCONSISTENT,
  storeBase,
  storeCapacity,
  startRun,
  addWork,
  failAt,
  clearOutputs,
  insertUnique,
  OUTPUTS,
} from './estimate';

// ---- breadth-first ----

let bfsEvent: i32 = 0;
let bfsIndex: i32 = 0;
let inBase: i32 = 0;
let inCount: i32 = 0;
let outBase: i32 = 0;
let outCount: i32 = 0;
let half: i32 = 0;

/**
 * Starts breadth-first estimation from position `root` (with the side to move the view begins
 * with), its layers in the records below `end` (at most the arena's end).
 */
export function bfsStart(root: i32, end: i32): i32 {
  startRun(end);
  resetOwnAttempts();
  half = storeCapacity() >> 1;
  if (half < 1) return ESTIMATE_LIMIT;
  inBase = storeBase();
  outBase = inBase + half;
  copyPosition(root, inBase);
  inCount = 1;
  if (countHistories) {
    if (HISTORIES_IN.length < half) {
      HISTORIES_IN = new Float64Array(half);
      HISTORIES_OUT = new Float64Array(half);
    }
    unchecked((HISTORIES_IN[0] = 1));
  }
  outCount = 0;
  bfsEvent = 0;
  bfsIndex = 0;
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
// the position alone; a repetition draw announced is accepted position by position).
let countHistories: bool = false;
let HISTORIES_IN = new Float64Array(0);
let HISTORIES_OUT = new Float64Array(0);

/** With `on`, breadth-first counts the histories reaching each position (bfsHistories). Call before bfsStart. */
export function bfsCountHistories(on: bool): void {
  countHistories = on;
}

/** Adds `slot` (the next free record of the layer) unless an equal position is there; counted, its histories go to the one kept. */
function addHistories(slot: i32, histories: f64): void {
  if (insertUnique(slot)) {
    if (countHistories) unchecked((HISTORIES_OUT[outCount] = histories));
    outCount++;
  } else if (countHistories) {
    const kept = OUTPUTS.found - outBase;
    unchecked((HISTORIES_OUT[kept] = unchecked(HISTORIES_OUT[kept]) + histories));
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
export function bfsPauseAfterEachEvent(on: bool): void {
  pauseAfterEvent = on;
}

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
          addWork(n + 1);
        } else {
          spent++;
          addWork(1);
        }
      } else {
        if (outCount >= half) return ESTIMATE_LIMIT;
        forgetOwnList();
        const r = applyEvent(h, e, outBase + outCount, list);
        if (r >= 0 && !keep(r, countHistories ? unchecked(HISTORIES_IN[bfsIndex]) : 0)) return ESTIMATE_LIMIT;
        spent++;
        addWork(1);
      }
      bfsIndex++;
    }
    // the next layer becomes the current one
    const t = inBase;
    inBase = outBase;
    outBase = t;
    if (countHistories) {
      const c = HISTORIES_IN;
      HISTORIES_IN = HISTORIES_OUT;
      HISTORIES_OUT = c;
    }
    inCount = outCount;
    outCount = 0;
    bfsIndex = 0;
    clearOutputs();
    bfsEvent++;
    if (inCount == 0) {
      failAt(e);
      return ESTIMATE_INCONSISTENT;
    }
    if (pauseAfterEvent && bfsEvent < viewLength()) return ESTIMATE_MORE;
  }
  return ESTIMATE_DONE;
}

export function bfsResultBase(): i32 {
  return inBase;
}
export function bfsResultCount(): i32 {
  return inCount;
}
export function bfsEventsDone(): i32 {
  return bfsEvent;
}

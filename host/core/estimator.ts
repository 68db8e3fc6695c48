// The state-estimation part of the core's ABI (assembly/belief/) as host values: a view written into
// the core's view buffer (the layout of assembly/belief/view.ts), the breadth-first and depth-first
// estimators started and stepped, and their statuses mapped, once, to what happened. With
// host/engine.ts and the other files of host/core/, the only host code that calls the core's exports.
import type { Engine } from '../engine';
import { fail } from '../errors';
import {
  VIEW_WORDS,
  V_OWN_ATTEMPT,
  V_OPPONENT,
  V_PAWN_TRIES,
  V_ANY,
  V_SIDE_SHIFT,
  V_TRIES_SHIFT,
  TRIES_COUNT,
  TRIES_EXISTS,
  TRIES_SQUARES,
  ESTIMATE_DONE,
  ESTIMATE_MORE,
  ESTIMATE_LIMIT,
  ESTIMATE_TOO_DEEP,
  ESTIMATE_INCONSISTENT,
  ESTIMATE_FOUND,
  ESTIMATE_EXHAUSTED,
  ESTIMATE_FRONTIER,
  MODE_POSITIONS,
  MODE_HISTORIES,
  MODE_SAMPLE,
  WHITE,
  BLACK,
} from '../constants';
import { parseUci } from '../notation/move';
import { encodePercept } from '../record/percept';
import { MAX_VIEW_COUNT, type View, type ViewEvent } from '../record/record';

/**
 * What an estimator step ended with: `more` (the budget ran out), `found` (depth-first: a position
 * or history was found), or the run's end — `complete`, `limit-positions` (the store is full),
 * `too-deep` (more opponent turns than the depth-first estimator follows), `inconsistent` (no
 * position fits the view).
 */
export type Step = 'more' | 'found' | 'frontier' | 'complete' | 'limit-positions' | 'too-deep' | 'inconsistent';

const STEPS: Record<number, Step> = {
  [ESTIMATE_DONE]: 'complete',
  [ESTIMATE_EXHAUSTED]: 'complete',
  [ESTIMATE_MORE]: 'more',
  [ESTIMATE_FOUND]: 'found',
  [ESTIMATE_FRONTIER]: 'frontier',
  [ESTIMATE_LIMIT]: 'limit-positions',
  [ESTIMATE_TOO_DEEP]: 'too-deep',
  [ESTIMATE_INCONSISTENT]: 'inconsistent',
};

function stepOf(status: number): Step {
  const step = STEPS[status];
  if (step === undefined) throw new Error(`the estimator returned status ${status}`); // a core bug: internal
  return step;
}

/** Depth-first modes: distinct positions (into the store), histories (counted), or seeded samples. */
export type DepthFirstMode = 'positions' | 'histories' | 'samples';
const MODES: Record<DepthFirstMode, number> = {
  positions: MODE_POSITIONS,
  histories: MODE_HISTORIES,
  samples: MODE_SAMPLE,
};

/** The host record the estimators start from (the view's start position). */
export const ROOT = 0;

/** The most a count of a view may say (host/record/record.ts; the readers refuse more with the line): checked again before the core reads it. */
export { MAX_VIEW_COUNT };

/** A count of view event `index` (absent, or an integer from 0 to MAX_VIEW_COUNT), checked on the host before the core reads it. */
function checkCount(count: number | undefined, index: number, what: string): void {
  if (count !== undefined && !(Number.isInteger(count) && count >= 0 && count <= MAX_VIEW_COUNT))
    throw fail('bad-view', {
      text: `view event ${index + 1}: ${what} ${count} is out of range (an integer from 0 to ${MAX_VIEW_COUNT})`,
    });
}

/** Writes view event `event` (the `index`-th, for messages) into `buffer` at word `at` (the layout of assembly/belief/view.ts). */
export function encodeViewEvent(buffer: Int32Array, at: number, event: ViewEvent, index: number): void {
  const e = at;
  const side = (event.side === 'white' ? WHITE : BLACK) << V_SIDE_SHIFT;
  buffer.fill(0, e, e + VIEW_WORDS);
  if (event.type === 'attempt') {
    const code = parseUci(event.attempt);
    if (code === undefined) throw fail('bad-view', { text: `event ${index + 1}: bad attempt '${event.attempt}'` });
    buffer[e] = V_OWN_ATTEMPT | side;
    buffer[e + 1] = code;
    buffer[e + 2] = encodePercept(event.percept);
  } else if (event.type === 'opponent-move') {
    checkCount(event.illegal, index, 'Illegal count');
    buffer[e] = V_OPPONENT | side;
    buffer[e + 1] = event.illegal ?? -1;
    buffer[e + 2] = event.percept ? encodePercept(event.percept) : -1;
  } else if (event.type === 'pawn-tries') {
    checkCount(event.count, index, 'pawn-try count');
    const kind = event.count !== undefined ? TRIES_COUNT : event.exists !== undefined ? TRIES_EXISTS : TRIES_SQUARES;
    buffer[e] = V_PAWN_TRIES | side | (kind << V_TRIES_SHIFT);
    buffer[e + 1] = event.count ?? (event.exists ? 1 : 0);
    for (const sq of event.squares ?? []) buffer[e + 2 + (sq >> 5)] |= 1 << (sq & 31);
  } else {
    buffer[e] = V_ANY | side;
    buffer[e + 1] = event.yes ? 1 : 0;
  }
}

/** Checks every event of `view` as the core would read it (counts in range, attempts well formed), before any is used: a KriegError naming the first bad one. */
export function checkViewEvents(view: View): void {
  const scratch = new Int32Array(VIEW_WORDS);
  view.events.forEach((event, i) => encodeViewEvent(scratch, 0, event, i));
}

/** Writes `view` into the core's view buffer, its rules into the engine and its start position into record ROOT. */
export function loadView(engine: Engine, view: View): void {
  engine.setRules(view.rules);
  engine.setFen(ROOT, view.start);
  const buffer = engine.view('view');
  if (view.events.length * VIEW_WORDS > buffer.length)
    throw fail('view-too-long', {
      text: `the view has ${view.events.length} events; the engine holds ${buffer.length / VIEW_WORDS}`,
    });
  view.events.forEach((event, i) => encodeViewEvent(buffer, i * VIEW_WORDS, event, i));
  if (engine.core.exports.setViewLength(view.events.length) < 0)
    throw fail('view-too-long', { text: 'the view does not fit the engine' });
}

/** The first record of the estimators' store (the records below it are the host's and the depth-first stack). */
export function storeBase(engine: Engine): number {
  return engine.core.exports.storeBase();
}

/** Work units spent since the run started (positions generated and tested). */
export function estimateWork(engine: Engine): number {
  return engine.core.exports.estimateWork();
}

/** After `inconsistent`: the index of the view event no position survives. */
export function failedEvent(engine: Engine): number {
  return engine.core.exports.estimateFailedAt();
}

// ---- breadth-first ----

/** Starts breadth-first from `root`, its layers in the records below `end` (default: the whole arena). */
export function startBreadthFirst(engine: Engine, root = ROOT, end = engine.capacity): Step {
  return stepOf(engine.core.exports.bfsStart(root, end));
}
export function runBreadthFirst(engine: Engine, budget: number): Step {
  return stepOf(engine.core.exports.bfsRun(budget));
}
/** Pause (`more`) after every view event, so each event's belief can be read. */
export function pauseAfterEachEvent(engine: Engine, on: boolean): void {
  engine.core.exports.bfsPauseAfterEachEvent(on ? 1 : 0);
}

/** Count the histories reaching each position of the next breadth-first run (information sets with multiplicities); call before startBreadthFirst. */
export function countHistories(engine: Engine, on: boolean): void {
  engine.core.exports.bfsCountHistories(on ? 1 : 0);
}
/** After a counted run: the histories reaching the current layer. */
export function historiesReaching(engine: Engine): number {
  return engine.core.exports.bfsHistories();
}

/** The current layer: its records [base, base + count), and the view events done. */
export function breadthFirstLayer(engine: Engine): { base: number; count: number; eventsDone: number } {
  const x = engine.core.exports;
  return { base: x.bfsResultBase(), count: x.bfsResultCount(), eventsDone: x.bfsEventsDone() };
}

// ---- depth-first ----

/** Starts depth-first from `root`, its store in the records below `end` (default: the whole arena). */
export function startDepthFirst(
  engine: Engine,
  mode: DepthFirstMode,
  seed = 0,
  root = ROOT,
  end = engine.capacity,
): Step {
  return stepOf(engine.core.exports.dfsStart(root, MODES[mode], seed | 0, end));
}
/**
 * After startDepthFirst, a split run (Gupta et al. 2010): start at view event `from.event` with the
 * root as the position at opponent turn `from.level` (a task: a frontier position of another run),
 * and, with `frontier`, stop each branch at that opponent turn with `frontier` (the next task).
 */
export function splitDepthFirst(engine: Engine, from: { event: number; level: number }, frontier = -1): void {
  engine.core.exports.dfsSplit(from.event, from.level, frontier);
}
/** The view event of the frontier position lastFound() holds (after a `frontier` step). */
export function frontierEvent(engine: Engine): number {
  return engine.core.exports.dfsFrontierEvent();
}
/** Until the next position or history (`found`) or `budget` work units (`more`). */
/**
 * Restarts the sampler's descents (after startDepthFirst): a descent that has done more than
 * unit × luby(i) work without a position is abandoned for a fresh one (assembly/belief/stream.ts);
 * 0 turns restarts off, the core's default.
 */
export function restartSamplerDescents(engine: Engine, unit: number): void {
  engine.core.exports.dfsRestartUnit(unit | 0);
}

/** The sampler's descents begun in this run, and how many were abandoned at their cutoff. */
export function samplerDescents(engine: Engine): { descents: number; restarts: number } {
  return { descents: engine.core.exports.dfsDescents(), restarts: engine.core.exports.dfsRestarts() };
}

export function nextDepthFirst(engine: Engine, budget: number): Step {
  return stepOf(engine.core.exports.dfsNext(budget));
}
/** The record of the position just found (positions mode: the k-th found is storeBase() + k). */
export function lastFound(engine: Engine): number {
  return engine.core.exports.dfsLast();
}
/** Histories found so far (histories mode). */
export function historiesFound(engine: Engine): number {
  return engine.core.exports.dfsHistories();
}
/** The opponent moves chosen along the branch just found, one per level. */
export function chosenMoves(engine: Engine): number[] {
  const x = engine.core.exports;
  return Array.from({ length: x.dfsDepth() }, (_, level) => x.dfsChosenMove(level));
}

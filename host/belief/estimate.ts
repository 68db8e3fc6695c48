// State estimation from the host: runs the core's estimators (host/core/estimator.ts) in budgeted
// steps, so time limits and progress work, in an arena grown as the run needs it, and returns
// positions, counts and the reason a run stopped.
import type { Engine } from '../engine';
import { POSITION_WORDS } from '../constants';
import { makeUci } from '../notation/move';
import type { View } from '../record/record';
import {
  loadView,
  startBreadthFirst,
  runBreadthFirst,
  breadthFirstLayer,
  startDepthFirst,
  nextDepthFirst,
  lastFound,
  storeBase,
  historiesFound,
  chosenMoves,
  estimateWork,
  failedEvent,
  countHistories,
  historiesReaching,
  type Step,
  restartSamplerDescents,
  samplerDescents,
} from '../core/estimator';
import { pliesBefore } from './describe';

export { loadView } from '../core/estimator';

/**
 * Breadth-first keeps whole layers (fast: 60× less work than depth-first on long views, since it
 * merges equal positions at every ply) but needs memory for the largest layer and keeps nothing
 * when stopped; depth-first streams (memory for its stack only) and keeps a partial result. `auto`
 * runs breadth-first and falls back to depth-first, in the time left, when a layer outgrows the
 * positions limit or the memory budget.
 */
export type EstimateMode = 'bfs' | 'dfs' | 'auto';
export type Outcome = 'complete' | 'limit-positions' | 'limit-time' | 'limit-work' | 'inconsistent' | 'too-deep';

/** The positions limit when none is given (the CLI's default too). */
export const DEFAULT_LIMIT_POSITIONS = 2_000_000;
/** The most positions a limit may ask for: breadth-first keeps two layers, 8 M records of 128 bytes, just under the core's 1 GiB array limit. */
export const MAX_LIMIT_POSITIONS = 4_000_000;
/** The memory the position arena may grow to when no budget is given. */
export const DEFAULT_ARENA_BYTES = 1000 * 2 ** 20;
/** The first store of a run (positions); it grows 8 times over only when a run fills it. */
const FIRST_STORE = 1 << 16;
const RECORD_BYTES = POSITION_WORDS * 4;

export interface Limits {
  /**
   * Stop after this many positions (depth-first, sample: `limit-positions` means there are more) or
   * when a layer exceeds it (breadth-first). Default DEFAULT_LIMIT_POSITIONS.
   */
  positions?: number;
  /** Stop after this much work (positions generated and tested). */
  work?: number;
  /** Stop after this many milliseconds (all runs together). */
  timeMs?: number;
  /**
   * Bytes the engine's position arena may grow to (default DEFAULT_ARENA_BYTES; never shrunk): a
   * run that fills its store before the positions limit runs again in an arena 8 times larger, up
   * to what the limit needs. A store the budget cannot enlarge ends the run with `limit-positions`.
   */
  memoryBytes?: number;
}

export interface EstimateResult {
  outcome: Outcome;
  /** Positions found (all of them when complete), as position-record handles in the engine. */
  handles: number[];
  /**
   * With `inconsistent`: the index of the view event no position survives, and the number of plies
   * (moves of either side) played before it — so the failing turn is ply failedPly + 1.
   */
  failedEvent?: number;
  failedPly?: number;
  /** Breadth-first: the view events done when the run stopped (a layer over the limit: the event it grew at). */
  eventsDone?: number;
  /** The estimator that gave this result (`auto` resolved). */
  mode: 'bfs' | 'dfs';
  /** Work of the last run (positions generated and tested). */
  work: number;
  /** Milliseconds of every run together. */
  ms: number;
  /** The sampler (sampleBelief): its descents in the last run, and how many it abandoned and restarted. */
  sampler?: { descents: number; restarts: number };
}

const STEP = 20_000; // work units per core call: short enough to check the clock and report progress

interface Run {
  engine: Engine;
  view: View;
  limits: Limits;
  started: number;
}

function begin(engine: Engine, view: View, limits: Limits): Run {
  loadView(engine, view);
  return { engine, view, limits, started: performance.now() };
}

/** The time or work limit reached, if any (checked between core steps). */
function stopReason(run: Run): Outcome | undefined {
  if (run.limits.timeMs !== undefined && performance.now() - run.started > run.limits.timeMs) return 'limit-time';
  if (run.limits.work !== undefined && estimateWork(run.engine) > run.limits.work) return 'limit-work';
  return undefined;
}

/** The result of a run that ended with `outcome` (an inconsistent view: no positions, and where it failed). */
function finish(run: Run, outcome: Outcome, handles: number[], mode: 'bfs' | 'dfs' = 'dfs'): EstimateResult {
  const result: EstimateResult = {
    outcome,
    mode,
    handles: outcome === 'inconsistent' ? [] : handles,
    work: estimateWork(run.engine),
    ms: performance.now() - run.started,
  };
  if (outcome === 'inconsistent') {
    result.failedEvent = failedEvent(run.engine);
    result.failedPly = pliesBefore(run.view, result.failedEvent);
  }
  return result;
}

/** A step that ends the run: its outcome (`found` and `more` do not). */
export function ended(step: Step): Outcome | undefined {
  return step === 'found' || step === 'more' || step === 'frontier' ? undefined : step;
}

/**
 * Runs `run` (one estimation, given the time left) in an arena just big enough: first a store of
 * FIRST_STORE positions (or the engine's, if larger), and only when a run fills its store
 * (`storeFull`) one 8 times bigger, up to `need` positions or the memory budget.
 */
function growing<R extends { ms: number }>(
  engine: Engine,
  need: number,
  limits: Limits,
  run: (timeMs: number | undefined, end: number) => R,
  storeFull: (r: R) => boolean,
): R {
  const base = storeBase(engine);
  const budget = Math.max(engine.capacity, Math.floor((limits.memoryBytes ?? DEFAULT_ARENA_BYTES) / RECORD_BYTES));
  const wanted = Math.min(base + need, budget);
  let capacity = Math.max(engine.capacity, Math.min(wanted, base + FIRST_STORE));
  const started = performance.now();
  for (;;) {
    if (engine.capacity < capacity) engine.resize(capacity);
    const timeMs = limits.timeMs === undefined ? undefined : Math.max(1, limits.timeMs - (performance.now() - started));
    // breadth-first under a memory budget (the arena sized for a search that follows): no more
    // records than the run needs, so a layer past the positions limit stops it as soon as it would
    // in an arena grown to that size (depth-first keeps the rest for its followed-positions cache)
    const end =
      limits.memoryBytes === undefined ? engine.capacity : Math.min(engine.capacity, Math.max(wanted, base + 1));
    const result = run(timeMs, end);
    if (storeFull(result) && capacity < wanted) {
      capacity = Math.min(wanted, base + (capacity - base) * 8);
      continue;
    }
    result.ms = performance.now() - started;
    return result;
  }
}

/**
 * The belief state of the view's owner: every position consistent with the view (duplicates
 * removed), in the engine's arena (which may grow: see Limits.memoryBytes; its records are the
 * estimator's).
 */
export function estimateBelief(
  engine: Engine,
  view: View,
  mode: EstimateMode,
  limits: Limits = {},
  onProgress?: (found: number, work: number) => void,
): EstimateResult {
  if (mode === 'auto') {
    const started = performance.now();
    const layered = estimateBelief(engine, view, 'bfs', limits, onProgress);
    if (layered.outcome !== 'limit-positions') return layered;
    const left = limits.timeMs === undefined ? undefined : limits.timeMs - (performance.now() - started);
    if (left !== undefined && left <= 0) return { ...layered, outcome: 'limit-time' };
    const streamed = estimateBelief(engine, view, 'dfs', { ...limits, timeMs: left }, onProgress);
    streamed.ms = performance.now() - started;
    return streamed;
  }
  const limit = limits.positions ?? DEFAULT_LIMIT_POSITIONS;
  // depth-first looks for one position past the limit, to tell "exactly the limit" (complete) from "more"
  const stop = mode === 'bfs' ? limit : limit + 1;
  const need = mode === 'bfs' ? 2 * (limit + 1) : limit + 1;
  const result = growing(
    engine,
    need,
    limits,
    (timeMs, end) => runEstimate(engine, view, mode, stop, end, { ...limits, timeMs }, onProgress),
    (r) => r.outcome === 'limit-positions' && (mode === 'bfs' || r.handles.length < stop),
  );
  if (result.handles.length > limit) {
    result.handles.length = limit;
    result.outcome = 'limit-positions';
  }
  return result;
}

function runEstimate(
  engine: Engine,
  view: View,
  mode: EstimateMode,
  maxPositions: number,
  /** Breadth-first: the end of its records. */
  end: number,
  limits: Limits,
  onProgress?: (found: number, work: number) => void,
): EstimateResult {
  const run = begin(engine, view, limits);
  if (mode === 'bfs') {
    let step = startBreadthFirst(engine, undefined, end);
    const layerDone = (outcome: Outcome, handles: number[]) => ({
      ...finish(run, outcome, handles, 'bfs'),
      eventsDone: breadthFirstLayer(engine).eventsDone,
    });
    while (step === 'more') {
      const stop = stopReason(run);
      if (stop) return layerDone(stop, []);
      step = runBreadthFirst(engine, STEP);
      onProgress?.(breadthFirstLayer(engine).count, estimateWork(engine));
    }
    if (step !== 'complete') return layerDone(ended(step)!, []);
    const { base, count } = breadthFirstLayer(engine);
    if (count > maxPositions) return layerDone('limit-positions', []);
    return layerDone(
      'complete',
      Array.from({ length: count }, (_, i) => base + i),
    );
  }
  const handles: number[] = [];
  if (startDepthFirst(engine, 'positions') === 'limit-positions') return finish(run, 'limit-positions', handles);
  // positions mode stores the k-th position found in record storeBase() + k (no lastFound call per position)
  const store = storeBase(engine);
  for (;;) {
    const step = nextDepthFirst(engine, STEP);
    if (step === 'found') handles.push(store + handles.length);
    const end = ended(step);
    if (end) return finish(run, end, handles);
    if (handles.length >= maxPositions) return finish(run, 'limit-positions', handles);
    if (step === 'more' || (handles.length & 1023) === 0) {
      onProgress?.(handles.length, estimateWork(engine));
      const stop = stopReason(run);
      if (stop) return finish(run, stop, handles);
    }
  }
}

/** Up to `k` distinct consistent positions from shuffled depth-first descents (seeded); the arena grows as for estimateBelief. */
export function sampleBelief(
  engine: Engine,
  view: View,
  k: number,
  seed: number,
  limits: Limits = {},
  restartUnit = 0,
): EstimateResult {
  return growing(
    engine,
    k,
    limits,
    (timeMs) => runSample(engine, view, k, seed, { ...limits, timeMs }, restartUnit),
    (r) => r.outcome === 'limit-positions' && r.handles.length < k,
  );
}

function runSample(
  engine: Engine,
  view: View,
  k: number,
  seed: number,
  limits: Limits,
  restartUnit: number,
): EstimateResult {
  const run = begin(engine, view, limits);
  const handles: number[] = [];
  const done = (outcome: Outcome) => ({ ...finish(run, outcome, handles), sampler: samplerDescents(engine) });
  if (startDepthFirst(engine, 'samples', seed) === 'limit-positions') return done('limit-positions');
  restartSamplerDescents(engine, restartUnit);
  while (handles.length < k) {
    const step = nextDepthFirst(engine, STEP);
    if (step === 'found') handles.push(lastFound(engine));
    const end = ended(step);
    if (end) return done(end);
    const stop = stopReason(run);
    if (stop && handles.length < k) return done(stop);
  }
  return done('complete');
}

export interface InformationSet {
  outcome: Outcome;
  /** Number of consistent histories (move sequences of both players). */
  count: number;
  /** With `list`: each history as UCI moves from the start. */
  histories?: string[][];
  failedEvent?: number;
  failedPly?: number;
  work: number;
  ms: number;
}

/**
 * Every sequence of moves of both players that produces the view: counted, or listed.
 * `limits.positions` bounds the histories (none by default): `limit-positions` means there are more.
 * Counted with multiplicities (countedHistories: the breadth-first belief's work) while its layers
 * fit the memory budget; listed, or counted past it, one history at a time (depth-first: the
 * arena needs only the estimator's stack).
 */
export function informationSet(
  engine: Engine,
  view: View,
  list = false,
  limits: Limits = {},
  onProgress?: (histories: number, work: number) => void,
): InformationSet {
  const started = performance.now();
  if (!list) {
    const counted = countedHistories(engine, view, limits);
    if (counted) return counted;
    if (limits.timeMs !== undefined)
      limits = { ...limits, timeMs: Math.max(1, limits.timeMs - (performance.now() - started)) };
  }
  return depthFirstInformationSet(engine, view, list, limits, onProgress);
}

/**
 * The information set one history at a time (depth-first): what `informationSet` lists, and counts
 * past the memory budget; also the work each task of the worker pool's split does
 * (host/belief/parallel.node.ts), hence bench:parallel's one-worker baseline.
 */
export function depthFirstInformationSet(
  engine: Engine,
  view: View,
  list = false,
  limits: Limits = {},
  onProgress?: (histories: number, work: number) => void,
): InformationSet {
  if (engine.capacity < storeBase(engine) + 2) engine.resize(storeBase(engine) + 2);
  const run = begin(engine, view, limits);
  const historyOf = historyLines(view);
  const histories: string[][] = [];
  // one history past the limit tells "exactly the limit" (complete) from "more" (partial)
  const stopAt = limits.positions === undefined ? Infinity : limits.positions + 1;
  const done = (outcome: Outcome): InformationSet => {
    const { work, ms, failedEvent: failed, failedPly } = finish(run, outcome, []);
    let count = historiesFound(engine);
    if (limits.positions !== undefined && count > limits.positions) {
      count = limits.positions;
      histories.length = Math.min(histories.length, count);
      outcome = 'limit-positions';
    }
    return {
      outcome,
      count,
      work,
      ms,
      ...(failed === undefined ? {} : { failedEvent: failed, failedPly }),
      ...(list ? { histories } : {}),
    };
  };
  if (startDepthFirst(engine, 'histories') === 'limit-positions') return done('limit-positions');
  for (;;) {
    const step = nextDepthFirst(engine, STEP);
    const end = ended(step);
    if (end) return done(end);
    const stop = stopReason(run);
    if (stop) return done(stop);
    onProgress?.(historiesFound(engine), estimateWork(engine));
    if (step !== 'found') continue;
    if (list) histories.push(historyOf(chosenMoves(engine)));
    if (historiesFound(engine) >= stopAt) return done('limit-positions');
  }
}

/**
 * A history as UCI moves from the start, from the opponent's moves chosen along a branch
 * (chosenMoves): the view's own legal moves interleaved with them.
 */
export function historyLines(view: View): (theirMoves: number[]) => string[] {
  const ownMoves = view.events
    .filter((e) => e.type === 'attempt' && e.side === view.as && e.percept.answer === 'legal')
    .map((e) => (e as { attempt: string }).attempt);
  const firstIsOwn =
    view.events.findIndex(
      (e) => (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept),
    ) === view.events.findIndex((e) => e.type === 'attempt' && e.percept.answer === 'legal');
  return (theirMoves) => {
    const theirs = theirMoves.map(makeUci);
    const moves: string[] = [];
    for (let i = 0, own = 0, opp = 0; own < ownMoves.length || opp < theirs.length; i++) {
      const ownTurn = (i % 2 === 0) === firstIsOwn;
      if (ownTurn && own < ownMoves.length) moves.push(ownMoves[own++]);
      else if (!ownTurn && opp < theirs.length) moves.push(theirs[opp++]);
      else break;
    }
    return moves;
  };
}

/**
 * The information set counted with multiplicities: breadth-first, each position carrying the
 * number of histories reaching it (assembly/belief/bfs.ts), in an arena grown as estimateBelief's;
 * undefined when a layer outgrows the memory budget.
 */
function countedHistories(engine: Engine, view: View, limits: Limits): InformationSet | undefined {
  let full = false;
  const result = growing(
    engine,
    Number.MAX_SAFE_INTEGER,
    limits,
    (timeMs) => {
      const run = begin(engine, view, { ...limits, timeMs });
      countHistories(engine, true);
      try {
        let step = startBreadthFirst(engine);
        while (step === 'more') {
          const stop = stopReason(run);
          if (stop) return { ...finish(run, stop, []), count: 0 };
          step = runBreadthFirst(engine, STEP);
        }
        full = step === 'limit-positions';
        return {
          ...finish(run, step === 'complete' ? step : ended(step)!, []),
          count: step === 'complete' ? historiesReaching(engine) : 0,
        };
      } finally {
        countHistories(engine, false);
      }
    },
    () => full,
  );
  if (full) return undefined;
  const { outcome, count, work, ms, failedEvent: failed, failedPly } = result;
  // a count is known only whole: past the limit, the limit is what is reported
  const over = limits.positions !== undefined && count > limits.positions;
  return {
    outcome: over ? 'limit-positions' : outcome,
    count: over ? limits.positions! : count,
    work,
    ms,
    ...(failed === undefined ? {} : { failedEvent: failed, failedPly }),
  };
}

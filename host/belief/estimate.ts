// State estimation from the host: runs the core's estimators (host/core/estimator.ts) in budgeted
// steps, so time limits and progress work, and returns positions, counts and the reason a run
// stopped.
import type { Engine } from '../engine';
import { makeUci } from '../notation/move';
import type { View } from '../record/record';
import {
  loadView, startBreadthFirst, runBreadthFirst, breadthFirstLayer, startDepthFirst, nextDepthFirst, lastFound, storeBase,
  historiesFound, chosenMoves, estimateWork, failedEvent, type Step,
} from '../core/estimator';

export { loadView } from '../core/estimator';

export type EstimateMode = 'bfs' | 'dfs';
export type Outcome = 'complete' | 'limit-positions' | 'limit-time' | 'limit-work' | 'inconsistent' | 'too-deep';

export interface Limits {
  /** Stop after this many positions (depth-first, sample) or when a layer exceeds it (breadth-first). */
  positions?: number;
  /** Stop after this much work (positions generated and tested). */
  work?: number;
  /** Stop after this many milliseconds. */
  timeMs?: number;
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
  work: number;
  ms: number;
}

/** Plies (moves of either side) played before view event `event`. */
export function pliesBefore(view: View, event: number): number {
  return view.events.slice(0, event).filter((e) => (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept)).length;
}

const STEP = 20_000; // work units per core call: short enough to check the clock and report progress

interface Run { engine: Engine; view: View; limits: Limits; started: number }

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
function finish(run: Run, outcome: Outcome, handles: number[]): EstimateResult {
  const result: EstimateResult = { outcome, handles: outcome === 'inconsistent' ? [] : handles, work: estimateWork(run.engine), ms: performance.now() - run.started };
  if (outcome === 'inconsistent') {
    result.failedEvent = failedEvent(run.engine);
    result.failedPly = pliesBefore(run.view, result.failedEvent);
  }
  return result;
}

/** A step that ends the run: its outcome (`found` and `more` do not). */
function ended(step: Step): Outcome | undefined {
  return step === 'found' || step === 'more' ? undefined : step;
}

/** The belief state of the view's owner: every position consistent with the view (duplicates removed). */
export function estimateBelief(engine: Engine, view: View, mode: EstimateMode, limits: Limits = {}, onProgress?: (found: number, work: number) => void): EstimateResult {
  const run = begin(engine, view, limits);
  const maxPositions = limits.positions ?? Infinity;
  if (mode === 'bfs') {
    let step = startBreadthFirst(engine);
    while (step === 'more') {
      const stop = stopReason(run);
      if (stop) return finish(run, stop, []);
      step = runBreadthFirst(engine, STEP);
      onProgress?.(breadthFirstLayer(engine).count, estimateWork(engine));
    }
    if (step !== 'complete') return finish(run, ended(step)!, []);
    const { base, count } = breadthFirstLayer(engine);
    if (count > maxPositions) return finish(run, 'limit-positions', []);
    return finish(run, 'complete', Array.from({ length: count }, (_, i) => base + i));
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

/** Up to `k` distinct consistent positions from shuffled depth-first descents (seeded). */
export function sampleBelief(engine: Engine, view: View, k: number, seed: number, limits: Limits = {}): EstimateResult {
  const run = begin(engine, view, limits);
  const handles: number[] = [];
  if (startDepthFirst(engine, 'samples', seed) === 'limit-positions') return finish(run, 'limit-positions', handles);
  while (handles.length < k) {
    const step = nextDepthFirst(engine, STEP);
    if (step === 'found') handles.push(lastFound(engine));
    const end = ended(step);
    if (end) return finish(run, end, handles);
    const stop = stopReason(run);
    if (stop && handles.length < k) return finish(run, stop, handles);
  }
  return finish(run, 'complete', handles);
}

export interface InformationSet {
  outcome: Outcome;
  /** Number of consistent histories (move sequences of both players). */
  count: number;
  /** With `list`: each history as UCI moves from the start. */
  histories?: string[][];
  failedPly?: number;
  work: number;
  ms: number;
}

/** Every sequence of moves of both players that produces the view: counted, or listed. */
export function informationSet(engine: Engine, view: View, list = false, limits: Limits = {}): InformationSet {
  const run = begin(engine, view, limits);
  const ownMoves = view.events.filter((e) => e.type === 'attempt' && e.side === view.as && e.percept.answer === 'legal').map((e) => (e as { attempt: string }).attempt);
  const firstIsOwn = view.events.findIndex((e) => (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept)) ===
    view.events.findIndex((e) => e.type === 'attempt' && e.percept.answer === 'legal');
  const histories: string[][] = [];
  const done = (outcome: Outcome): InformationSet => {
    const { work, ms, failedPly } = finish(run, outcome, []);
    return { outcome, count: historiesFound(engine), work, ms, ...(failedPly === undefined ? {} : { failedPly }), ...(list ? { histories } : {}) };
  };
  if (startDepthFirst(engine, 'histories') === 'limit-positions') return done('limit-positions');
  for (;;) {
    const step = nextDepthFirst(engine, STEP);
    const end = ended(step);
    if (end) return done(end);
    const stop = stopReason(run);
    if (stop) return done(stop);
    if (step !== 'found') continue;
    if (list) {
      const theirs = chosenMoves(engine).map(makeUci);
      const moves: string[] = [];
      for (let i = 0, own = 0, opp = 0; own < ownMoves.length || opp < theirs.length; i++) {
        const ownTurn = (i % 2 === 0) === firstIsOwn;
        if (ownTurn && own < ownMoves.length) moves.push(ownMoves[own++]);
        else if (!ownTurn && opp < theirs.length) moves.push(theirs[opp++]);
        else break;
      }
      histories.push(moves);
    }
    if (limits.positions !== undefined && historiesFound(engine) >= limits.positions) return done('limit-positions');
  }
}

// State estimation from the host: encodes a view for the core (assembly/belief/view.ts layout),
// runs the core's estimators in budgeted steps (so time limits and progress work), and returns
// positions, counts and the reason a run stopped.
import type { Engine } from '../engine';
import { KriegError } from '../status';
import { encodePercept } from '../referee/percept';
import { parseUciAttempt } from '../referee/validate';
import { moveToUci } from '../notation/move';
import type { View, ViewEvent } from '../referee/record';

// core constants (assembly/belief/)
const VIEW_WORDS = 4;
const V_OWN_ATTEMPT = 1;
const V_OPPONENT = 2;
const V_PAWN_TRIES = 3;
const V_ANY = 4;
const TRIES = { count: 0, exists: 1, squares: 2 } as const;
const STATUS = { done: 0, more: 1, limit: 2, tooDeep: 3, inconsistent: 4, found: 5, exhausted: 6 } as const;
const ROOT = 0; // the host record the estimators start from

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

/** Writes view event `event` (the `index`-th, for messages) into `buffer` at word `at` (assembly/belief/view.ts layout). */
export function encodeViewEvent(buffer: Int32Array, at: number, event: ViewEvent, index: number): void {
  const e = at;
  const side = event.side === 'white' ? 0 : 1;
  buffer.fill(0, e, e + VIEW_WORDS);
  if (event.type === 'attempt') {
    const code = parseUciAttempt(event.attempt);
    if (code === undefined) throw new KriegError('bad-view', `event ${index + 1}: bad attempt '${event.attempt}'`);
    buffer[e] = V_OWN_ATTEMPT | (side << 4);
    buffer[e + 1] = code;
    buffer[e + 2] = encodePercept(event.percept);
  } else if (event.type === 'opponent-move') {
    buffer[e] = V_OPPONENT | (side << 4);
    buffer[e + 1] = event.illegal ?? -1;
    buffer[e + 2] = event.percept ? encodePercept(event.percept) : -1;
  } else if (event.type === 'pawn-tries') {
    const kind = event.count !== undefined ? TRIES.count : event.exists !== undefined ? TRIES.exists : TRIES.squares;
    buffer[e] = V_PAWN_TRIES | (side << 4) | (kind << 8);
    buffer[e + 1] = event.count ?? (event.exists ? 1 : 0);
    for (const sq of event.squares ?? []) buffer[e + 2 + (sq >> 5)] |= 1 << (sq & 31);
  } else {
    buffer[e] = V_ANY | (side << 4);
    buffer[e + 1] = event.yes ? 1 : 0;
  }
}

/** Writes `view` into the core's view buffer and its start position into the root record. */
export function loadView(engine: Engine, view: View): void {
  engine.setRules(view.rules);
  engine.setFen(ROOT, view.start);
  const buffer = engine.view('view');
  if (view.events.length * VIEW_WORDS > buffer.length) throw new KriegError('view-too-long', `the view has ${view.events.length} events; the engine holds ${buffer.length / VIEW_WORDS}`);
  view.events.forEach((event, i) => encodeViewEvent(buffer, i * VIEW_WORDS, event, i));
  if (engine.core.exports.setViewLength(view.events.length) < 0) throw new KriegError('view-too-long', 'the view does not fit the engine');
}

/** Plies (moves of either side) played before view event `event`. */
export function pliesBefore(view: View, event: number): number {
  return view.events.slice(0, event).filter((e) => (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept)).length;
}

const STEP = 20_000; // work units per core call: short enough to check the clock and report progress

interface Run { limits: Limits; started: number; onProgress?: (found: number, work: number) => void }

function timeUp(run: Run): boolean {
  return run.limits.timeMs !== undefined && performance.now() - run.started > run.limits.timeMs;
}

/** The time or work limit reached, if any (checked between core steps). */
function stopReason(run: Run, work = 0): Outcome | undefined {
  if (timeUp(run)) return 'limit-time';
  if (run.limits.work !== undefined && work > run.limits.work) return 'limit-work';
  return undefined;
}

/** The belief state of the view's owner: every position consistent with the view (duplicates removed). */
export function estimateBelief(engine: Engine, view: View, mode: EstimateMode, limits: Limits = {}, onProgress?: Run['onProgress']): EstimateResult {
  loadView(engine, view);
  const x = engine.core.exports;
  const run: Run = { limits, started: performance.now(), onProgress };
  const finish = (outcome: Outcome, handles: number[]): EstimateResult => {
    const result: EstimateResult = { outcome, handles, work: x.estimateWork(), ms: performance.now() - run.started };
    if (outcome === 'inconsistent') { result.failedEvent = x.estimateFailedAt(); result.failedPly = pliesBefore(view, result.failedEvent); }
    return result;
  };
  const maxPositions = limits.positions ?? Infinity;
  if (mode === 'bfs') {
    let status = x.bfsStart(ROOT);
    while (status === STATUS.more) {
      const stop = stopReason(run, x.estimateWork());
      if (stop) return finish(stop, []);
      status = x.bfsRun(STEP);
      onProgress?.(x.bfsResultCount(), x.estimateWork());
    }
    if (status === STATUS.inconsistent) return finish('inconsistent', []);
    if (status === STATUS.limit) return finish('limit-positions', []);
    const base = x.bfsResultBase();
    const count = x.bfsResultCount();
    if (count > maxPositions) return finish('limit-positions', []);
    return finish('complete', Array.from({ length: count }, (_, i) => base + i));
  }
  const handles: number[] = [];
  if (x.dfsStart(ROOT, 0, 0) === STATUS.limit) return finish('limit-positions', handles);
  // positions mode stores the k-th position found in record storeBase() + k (no dfsLast call per position)
  const store = x.storeBase();
  for (;;) {
    const status = x.dfsNext(STEP);
    if (status === STATUS.found) handles.push(store + handles.length);
    if (status === STATUS.found || status === STATUS.more) {
      if (handles.length >= maxPositions) return finish('limit-positions', handles);
      if (status === STATUS.more || (handles.length & 1023) === 0) {
        onProgress?.(handles.length, x.estimateWork());
        const stop = stopReason(run, x.estimateWork());
        if (stop) return finish(stop, handles);
      }
      continue;
    }
    if (status === STATUS.exhausted) return finish('complete', handles);
    if (status === STATUS.inconsistent) return finish('inconsistent', []);
    if (status === STATUS.tooDeep) return finish('too-deep', handles);
    if (status === STATUS.limit) return finish('limit-positions', handles);
  }
}

/** Up to `k` distinct consistent positions from shuffled depth-first descents (seeded). */
export function sampleBelief(engine: Engine, view: View, k: number, seed: number, limits: Limits = {}): EstimateResult {
  loadView(engine, view);
  const x = engine.core.exports;
  const started = performance.now();
  const handles: number[] = [];
  const finish = (outcome: Outcome): EstimateResult => {
    const r: EstimateResult = { outcome, handles, work: x.estimateWork(), ms: performance.now() - started };
    if (outcome === 'inconsistent') { r.failedEvent = x.estimateFailedAt(); r.failedPly = pliesBefore(view, r.failedEvent); }
    return r;
  };
  const run: Run = { limits, started };
  if (x.dfsStart(ROOT, 2, seed | 0) === STATUS.limit) return finish('limit-positions');
  while (handles.length < k) {
    const status = x.dfsNext(STEP);
    if (status === STATUS.found) handles.push(x.dfsLast());
    if (status === STATUS.found || status === STATUS.more) {
      const stop = stopReason(run, x.estimateWork());
      if (stop && handles.length < k) return finish(stop);
      continue;
    }
    if (status === STATUS.exhausted) return finish('complete');
    if (status === STATUS.inconsistent) return finish('inconsistent');
    if (status === STATUS.tooDeep) return finish('too-deep');
    return finish('limit-positions');
  }
  return finish('complete');
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

/**
 * Every sequence of moves of both players that produces the view: counted, or listed. Counted
 * with multiplicities (breadth-first, each position carrying the number of histories reaching it:
 * the work of the breadth-first belief); when a layer does not fit the engine's store, one history
 * at a time (depth-first, as listing does).
 */
export function informationSet(engine: Engine, view: View, list = false, limits: Limits = {}): InformationSet {
  if (!list) {
    const counted = countHistories(engine, view, limits);
    if (counted) return counted;
  }
  loadView(engine, view);
  const x = engine.core.exports;
  const started = performance.now();
  const ownMoves = view.events.filter((e) => e.type === 'attempt' && e.side === view.as && e.percept.answer === 'legal').map((e) => (e as { attempt: string }).attempt);
  const firstIsOwn = view.events.findIndex((e) => (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept)) ===
    view.events.findIndex((e) => e.type === 'attempt' && e.percept.answer === 'legal');
  const histories: string[][] = [];
  const run: Run = { limits, started };
  if (x.dfsStart(ROOT, 1, 0) === STATUS.limit) return { outcome: 'limit-positions', count: 0, work: 0, ms: 0, ...(list ? { histories } : {}) };
  const done = (outcome: Outcome): InformationSet => {
    const r: InformationSet = { outcome, count: x.dfsHistories(), work: x.estimateWork(), ms: performance.now() - started };
    if (list) r.histories = histories;
    if (outcome === 'inconsistent') r.failedPly = pliesBefore(view, x.estimateFailedAt());
    return r;
  };
  for (;;) {
    const status = x.dfsNext(STEP);
    if (status === STATUS.found || status === STATUS.more) {
      const stop = stopReason(run, x.estimateWork());
      if (stop) return done(stop);
    }
    if (status === STATUS.found) {
      if (list) {
        const theirs = Array.from({ length: x.dfsDepth() }, (_, level) => moveToUci(x.dfsChosenMove(level)));
        const moves: string[] = [];
        for (let i = 0, own = 0, opp = 0; own < ownMoves.length || opp < theirs.length; i++) {
          const ownTurn = (i % 2 === 0) === firstIsOwn;
          if (ownTurn && own < ownMoves.length) moves.push(ownMoves[own++]);
          else if (!ownTurn && opp < theirs.length) moves.push(theirs[opp++]);
          else break;
        }
        histories.push(moves);
      }
      if (limits.positions !== undefined && x.dfsHistories() >= limits.positions) return done('limit-positions');
      continue;
    }
    if (status === STATUS.more) continue;
    if (status === STATUS.exhausted) return done('complete');
    if (status === STATUS.inconsistent) return done('inconsistent');
    return done(status === STATUS.tooDeep ? 'too-deep' : 'limit-positions');
  }
}

/** The information set counted with multiplicities (bfsCountHistories); undefined when a layer outgrows the engine's store. */
export function countHistories(engine: Engine, view: View, limits: Limits): InformationSet | undefined {
  loadView(engine, view);
  const x = engine.core.exports;
  const run: Run = { limits, started: performance.now() };
  const done = (outcome: Outcome, count: number): InformationSet => {
    const r: InformationSet = { outcome, count, work: x.estimateWork(), ms: performance.now() - run.started };
    if (outcome === 'inconsistent') r.failedPly = pliesBefore(view, x.estimateFailedAt());
    return r;
  };
  x.bfsCountHistories(1);
  try {
    let status = x.bfsStart(ROOT);
    while (status === STATUS.more) {
      const stop = stopReason(run, x.estimateWork());
      if (stop) return done(stop, 0);
      status = x.bfsRun(STEP);
    }
    if (status === STATUS.limit) return undefined;
    if (status === STATUS.inconsistent) return done('inconsistent', 0);
    const count = x.bfsHistories();
    // a count is known only whole: at or past the limit, the limit is what is reported
    if (limits.positions !== undefined && count >= limits.positions) return done('limit-positions', limits.positions);
    return done('complete', count);
  } finally {
    x.bfsCountHistories(0);
  }
}

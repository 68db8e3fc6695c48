// Information sets and depth-first beliefs on the worker pool, after Gupta, Richards & Sarood
// 2010: the tree of histories is cut at a frontier, an opponent turn (their "sequential
// threshold"); the main thread walks the tree above it (the frontier run), and each branch that
// reaches it is a task — its position, view event and turn — that a worker walks to the end of
// the view. The frontier run and the tasks together are exactly the sequential depth-first walk
// (assembly/belief/stream.ts, dfsSplit), in the same order, so folding the tasks' results in task
// order gives the sequential answer: the same count, the same histories in the same order, the
// same positions (duplicates across tasks removed at the fold, the first kept), the same limits
// and exit codes — whatever the number of workers or the scheduling.
//
// Grain: the frontier is the shallowest opponent turn with at least TARGET_TASKS branches (8 per
// worker past 8 workers); docs/scaling.md has the measurements behind it.
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { POSITION_WORDS, W_HALFMOVE, W_KEY_LO } from '../constants';
import type { View } from '../record/record';
import {
  loadView,
  startDepthFirst,
  splitDepthFirst,
  nextDepthFirst,
  frontierEvent,
  lastFound,
  historiesFound,
  chosenMoves,
  estimateWork,
  storeBase,
  failedEvent,
  ROOT,
  type DepthFirstMode,
} from '../core/estimator';
import { pliesBefore } from './describe';
import {
  ended,
  historyLines,
  informationSet,
  estimateBelief,
  type EstimateResult,
  type InformationSet,
  type Limits,
  type Outcome,
} from './estimate';
import { runTasks, type WorkerPool } from '../pool/pool';

/**
 * Branches wanted at the frontier: enough for the shared queue to balance, few enough that the
 * tasks' fixed costs stay small (a turn deeper has ~10 times as many: docs/scaling.md "Grain").
 */
export const TARGET_TASKS = 64;
/**
 * Belief tasks wanted per worker: the sequential walk follows a position reached again after the
 * same event once; tasks cannot see each other's, so every extra cut repeats work.
 */
export const BELIEF_TASKS_PER_JOB = 4;
/** The deepest frontier tried (the upper tree is walked once per frontier tried). */
const MAX_FRONTIER = 6;
const STEP = 20_000;

/** A branch at the frontier: the task of one worker. */
export interface SplitTask {
  /** The position record (POSITION_WORDS words) at the frontier. */
  root: Int32Array;
  /** The view event it stands at (an opponent turn) and the turn's level (opponent turns before it). */
  event: number;
  level: number;
  /** The opponent's moves chosen above it (one per level). */
  above: number[];
}

/** What the frontier run met, in depth-first order: a task, or a history / position found above the frontier. */
type Item = { task: SplitTask } | { history: number[] } | { position: Int32Array };

interface Frontier {
  items: Item[];
  tasks: number;
  level: number;
  outcome?: Outcome;
  work: number;
}

/**
 * Walks the tree above frontier `level` in `mode`, listing what it meets (positions mode keeps
 * at most `maxPositions` above it: past them the answer is settled).
 */
function walkFrontier(engine: Engine, view: View, mode: DepthFirstMode, level: number, maxPositions: number): Frontier {
  loadView(engine, view);
  const items: Item[] = [];
  let tasks = 0;
  let positions = 0;
  if (startDepthFirst(engine, mode) === 'limit-positions')
    return { items, tasks, level, outcome: 'limit-positions', work: 0 };
  splitDepthFirst(engine, { event: 0, level: 0 }, level);
  for (;;) {
    const step = nextDepthFirst(engine, STEP);
    if (step === 'frontier') {
      const h = lastFound(engine);
      const root = engine.positions.slice(h * POSITION_WORDS, (h + 1) * POSITION_WORDS);
      items.push({ task: { root, event: frontierEvent(engine), level, above: chosenMoves(engine) } });
      tasks++;
    } else if (step === 'found') {
      if (mode === 'histories') items.push({ history: chosenMoves(engine) });
      else {
        const h = lastFound(engine);
        items.push({ position: engine.positions.slice(h * POSITION_WORDS, (h + 1) * POSITION_WORDS) });
        if (++positions > maxPositions)
          return { items, tasks, level, outcome: 'limit-positions', work: estimateWork(engine) };
      }
    } else {
      const end = ended(step);
      if (end === 'limit-positions' && positions <= maxPositions) {
        // positions mode: the store is full before the limit: again in one 8 times larger
        engine.resize(storeBase(engine) + (engine.capacity - storeBase(engine)) * 8);
        return walkFrontier(engine, view, mode, level, maxPositions);
      }
      if (end)
        return { items, tasks, level, outcome: end === 'complete' ? undefined : end, work: estimateWork(engine) };
    }
  }
}

/**
 * The frontier: the shallowest opponent turn with `target` branches (or the deepest tried), or
 * the turn `level` when given.
 */
function chooseFrontier(
  engine: Engine,
  view: View,
  mode: DepthFirstMode,
  maxPositions: number,
  target: number,
  level?: number,
): Frontier {
  if (level !== undefined) return walkFrontier(engine, view, mode, level, maxPositions);
  let frontier = walkFrontier(engine, view, mode, 1, maxPositions);
  for (let d = 2; d <= MAX_FRONTIER && frontier.tasks > 0 && frontier.tasks < target && !frontier.outcome; d++)
    frontier = walkFrontier(engine, view, mode, d, maxPositions);
  return frontier;
}

/** How a split run went (the scaling bench's model is fitted on it). */
export interface SplitTrace {
  /** The frontier's opponent turn, and the work and time of the walk above it (the main thread's, serial). */
  level: number;
  frontierWork: number;
  frontierMs: number;
  /** Each task's work, in task order (the tasks delivered). */
  taskWork: number[];
}

// ---- the worker side ----

export interface TaskInput {
  backend: BackendName;
  view: View;
  mode: 'histories' | 'positions';
  task: Omit<SplitTask, 'above'>;
  /** Stop after this many histories or positions (the limit plus one). */
  stopAt: number;
  /** Histories: list the opponent's moves of each (below the task's level). */
  list: boolean;
}

export interface TaskOutput {
  step: 'complete' | 'limit-positions' | 'too-deep' | 'inconsistent';
  count: number;
  work: number;
  failedEvent?: number;
  /** Histories with `list`: the opponent's moves below the task's level. */
  histories?: number[][];
  /** Positions: the records found, POSITION_WORDS words each, in order. */
  positions?: Int32Array;
}

const engines = new Map<BackendName, Engine>();

/** Runs one task (in a worker: host/worker.ts). */
export function runSplitTask(input: TaskInput): TaskOutput {
  let engine = engines.get(input.backend);
  if (!engine) engines.set(input.backend, (engine = new Engine(createCore(input.backend), 2)));
  const base = storeBase(engine);
  const want = input.mode === 'histories' ? base + 2 : base + Math.min(input.stopAt, 1 << 16) + 64;
  for (;;) {
    if (engine.capacity < want) engine.resize(want);
    const out = walkTask(engine, input);
    // positions: a store too small for the task's positions is grown and the task run again
    if (out.step === 'limit-positions' && out.count < input.stopAt) {
      const more = base + Math.min(input.stopAt + 64, (engine.capacity - base) * 8);
      if (more > engine.capacity) {
        engine.resize(more);
        continue;
      }
    }
    return out;
  }
}

function walkTask(engine: Engine, input: TaskInput): TaskOutput {
  loadView(engine, input.view);
  engine.positions.set(input.task.root, ROOT * POSITION_WORDS);
  const histories: number[][] = [];
  const found: number[] = [];
  const out = (step: TaskOutput['step']): TaskOutput => {
    const result: TaskOutput = {
      step,
      count: input.mode === 'histories' ? historiesFound(engine) : found.length,
      work: estimateWork(engine),
    };
    if (step === 'inconsistent') result.failedEvent = failedEvent(engine);
    if (input.list) result.histories = histories;
    if (input.mode === 'positions') {
      const words = new Int32Array(found.length * POSITION_WORDS);
      const arena = engine.positions;
      found.forEach((h, i) =>
        words.set(arena.subarray(h * POSITION_WORDS, (h + 1) * POSITION_WORDS), i * POSITION_WORDS),
      );
      result.positions = words;
    }
    return result;
  };
  if (startDepthFirst(engine, input.mode) === 'limit-positions') return out('limit-positions');
  splitDepthFirst(engine, input.task);
  for (;;) {
    const step = nextDepthFirst(engine, STEP);
    const end = ended(step);
    if (end) return out(end as TaskOutput['step']);
    if (step !== 'found') continue;
    if (input.mode === 'positions') found.push(lastFound(engine));
    else if (input.list) histories.push(chosenMoves(engine).slice(input.task.level));
    if ((input.mode === 'histories' ? historiesFound(engine) : found.length) >= input.stopAt)
      return out('limit-positions');
  }
}

// ---- the main thread: the fold ----

/**
 * Work units walked on the main thread before the pool starts: a view whose walk ends within them
 * (most views: a few ms) is answered by the sequential walk, sparing the workers' start-up (tens of ms each).
 */
export const PROBE_WORK = 200_000;

export interface ParallelOptions {
  backend: BackendName;
  jobs: number;
  /** Workers to run on (kept for several runs: the tests, the benches); default: `jobs` started for the run. */
  pool?: WorkerPool;
  /** Cut at this opponent turn instead of the shallowest with enough branches (the scaling bench). */
  frontier?: number;
  /** Filled with how the split went. */
  trace?: SplitTrace;
  /** The sequential probe's work (default PROBE_WORK; 0: split at once, as the tests and benches do). */
  probeWork?: number;
  /** positions: the histories (information sets) or positions (beliefs) limit; timeMs: the time limit. No work limit (see docs/scaling.md). */
  limits: Pick<Limits, 'positions' | 'timeMs'>;
}

/** Folds the tasks' outputs in order: true once the limit is passed. */
interface Fold {
  add(output: TaskOutput, task: SplitTask): boolean;
  addItem(item: Exclude<Item, { task: SplitTask }>): boolean;
}

async function runSplit(
  engine: Engine,
  view: View,
  mode: 'histories' | 'positions',
  options: ParallelOptions,
  stopAt: number,
  list: boolean,
  fold: Fold,
): Promise<{ outcome: Outcome; work: number; failedEvent?: number; ms: number }> {
  const started = performance.now();
  // enough tasks for every worker to take several (the split never changes the answer)
  // beliefs: as few tasks as balance allows, as a position reached in two tasks is followed in both
  const target = mode === 'positions' ? BELIEF_TASKS_PER_JOB * options.jobs : Math.max(TARGET_TASKS, 8 * options.jobs);
  const frontier = chooseFrontier(engine, view, mode, stopAt - 1, target, options.frontier);
  const trace: SplitTrace = options.trace ?? { level: 0, frontierWork: 0, frontierMs: 0, taskWork: [] };
  Object.assign(trace, {
    level: frontier.level,
    frontierWork: frontier.work,
    frontierMs: performance.now() - started,
    taskWork: [],
  });
  let work = frontier.work;
  if (frontier.outcome === 'inconsistent')
    return { outcome: 'inconsistent', work, failedEvent: failedEvent(engine), ms: performance.now() - started };
  const tasks = frontier.items.flatMap((item) => ('task' in item ? [item.task] : []));
  const inputs: TaskInput[] = tasks.map((task) => ({
    backend: options.backend,
    view,
    mode,
    task: { root: task.root, event: task.event, level: task.level },
    stopAt,
    list,
  }));
  // the items above the frontier before task i's are folded just before it
  const taskAt = frontier.items.flatMap((it, k) => ('task' in it ? [k] : []));
  let item = 0;
  let limited = false;
  const foldUpTo = (end: number): boolean => {
    for (; item < end; item++) {
      const it = frontier.items[item];
      if (!('task' in it) && fold.addItem(it)) return true;
    }
    return false;
  };
  let tooDeep = frontier.outcome === 'too-deep';
  let deepest = -1;
  const timeMs =
    options.limits.timeMs === undefined ? undefined : options.limits.timeMs - (performance.now() - started);
  if (timeMs !== undefined && timeMs <= 0) return { outcome: 'limit-time', work, ms: performance.now() - started };
  const run = await runTasks<TaskInput, TaskOutput>('split', inputs, {
    jobs: options.jobs,
    pool: options.pool,
    timeMs,
    onResult: (i, output) => {
      if (foldUpTo(taskAt[i])) return (limited = true);
      item = taskAt[i] + 1;
      work += output.work;
      trace.taskWork.push(output.work);
      if (output.step === 'too-deep') tooDeep = true;
      if (output.step === 'inconsistent') deepest = Math.max(deepest, output.failedEvent ?? -1);
      if (fold.add(output, tasks[i]) || output.step === 'limit-positions') return (limited = true);
      return false;
    },
  });
  if (!limited && run.stopped !== 'time' && foldUpTo(frontier.items.length)) limited = true;
  const ms = performance.now() - started;
  if (limited || frontier.outcome === 'limit-positions') return { outcome: 'limit-positions', work, ms };
  if (run.stopped === 'time') return { outcome: 'limit-time', work, ms };
  if (tooDeep) return { outcome: 'too-deep', work, ms };
  return { outcome: 'complete', work, ms, failedEvent: deepest };
}

/**
 * informationSet (host/belief/estimate.ts) on `options.jobs` workers: the same count, histories
 * and outcome. `engine` walks the frontier (on the main thread).
 */
export async function informationSetParallel(
  engine: Engine,
  view: View,
  list: boolean,
  options: ParallelOptions,
): Promise<InformationSet> {
  const probeWork = options.probeWork ?? PROBE_WORK;
  if (probeWork > 0) {
    const probe = informationSet(engine, view, list, { ...options.limits, work: probeWork });
    if (probe.outcome !== 'limit-work') return probe;
  }
  if (engine.capacity < storeBase(engine) + 2) engine.resize(storeBase(engine) + 2);
  const limit = options.limits.positions;
  const stopAt = limit === undefined ? Number.MAX_SAFE_INTEGER : limit + 1;
  const historyOf = historyLines(view);
  const histories: string[][] = [];
  let count = 0;
  const fold: Fold = {
    addItem(item) {
      if (!('history' in item)) return false;
      count++;
      if (list) histories.push(historyOf(item.history));
      return count >= stopAt;
    },
    add(output, task) {
      count += output.count;
      if (list) for (const below of output.histories ?? []) histories.push(historyOf([...task.above, ...below]));
      return count >= stopAt;
    },
  };
  const run = await runSplit(engine, view, 'histories', options, stopAt, list, fold);
  let outcome = run.outcome;
  if (outcome === 'complete' && count === 0) outcome = 'inconsistent';
  if (limit !== undefined && count > limit) {
    count = limit;
    outcome = 'limit-positions';
  }
  if (list && histories.length > count) histories.length = count;
  const result: InformationSet = { outcome, count, work: run.work, ms: run.ms, ...(list ? { histories } : {}) };
  if (outcome === 'inconsistent') {
    result.failedEvent = run.failedEvent;
    result.failedPly = pliesBefore(view, run.failedEvent ?? 0);
  }
  return result;
}

/**
 * estimateBelief(…, 'dfs', …) on `options.jobs` workers: the same positions in the same order
 * (duplicates across tasks removed at the fold), written into `engine`'s store; the work differs
 * (a position reached in two tasks is followed in both).
 */
export async function estimateBeliefParallel(
  engine: Engine,
  view: View,
  options: ParallelOptions & { limits: { positions: number } },
): Promise<EstimateResult> {
  const probeWork = options.probeWork ?? PROBE_WORK;
  if (probeWork > 0) {
    const probe = estimateBelief(engine, view, 'dfs', { ...options.limits, work: probeWork });
    if (probe.outcome !== 'limit-work') return probe;
  }
  const limit = options.limits.positions;
  const stopAt = limit + 1;
  // exact duplicate removal, as the core's: buckets by the Zobrist key, then the words compared
  const compared = view.rules.fiftyMoveDraw ? W_HALFMOVE + 1 : W_HALFMOVE;
  const buckets = new Map<number, Int32Array[]>();
  const kept: Int32Array[] = [];
  const same = (a: Int32Array, b: Int32Array) => {
    for (let i = 0; i < compared; i++) if (a[i] !== b[i]) return false;
    return true;
  };
  const keep = (words: Int32Array): boolean => {
    const key = words[W_KEY_LO];
    const bucket = buckets.get(key);
    if (bucket?.some((w) => same(w, words))) return false;
    const copy = words.slice();
    if (bucket) bucket.push(copy);
    else buckets.set(key, [copy]);
    kept.push(copy);
    return kept.length >= stopAt;
  };
  const fold: Fold = {
    addItem: (item) => 'position' in item && keep(item.position),
    add(output) {
      const words = output.positions!;
      for (let i = 0; i < words.length; i += POSITION_WORDS)
        if (keep(words.subarray(i, i + POSITION_WORDS))) return true;
      return false;
    },
  };
  const base = storeBase(engine);
  if (engine.capacity < base + (1 << 16)) engine.resize(base + (1 << 16));
  const run = await runSplit(engine, view, 'positions', options, stopAt, false, fold);
  let outcome = run.outcome;
  if (outcome === 'complete' && kept.length === 0) outcome = 'inconsistent';
  if (kept.length > limit) {
    kept.length = limit;
    outcome = 'limit-positions';
  }
  if (engine.capacity < base + kept.length + 1) engine.resize(base + kept.length + 1);
  const arena = engine.positions;
  kept.forEach((words, i) => arena.set(words, (base + i) * POSITION_WORDS));
  const result: EstimateResult = {
    outcome,
    handles: outcome === 'inconsistent' ? [] : kept.map((_, i) => base + i),
    work: run.work,
    ms: run.ms,
    mode: 'dfs',
  };
  if (outcome === 'inconsistent') {
    result.failedEvent = run.failedEvent;
    result.failedPly = pliesBefore(view, run.failedEvent ?? 0);
  }
  return result;
}

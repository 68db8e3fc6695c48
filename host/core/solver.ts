// The guaranteed-checkmate search's part of the core's ABI (assembly/solver/) as host values: a
// search started over positions already in the arena (or streamed from the estimator), stepped
// under a budget, its statuses mapped, once, to what happened, its statistics, and the words of a
// proof's strategy. With host/engine.ts and the other files of host/core/, the only host code that
// calls the core's exports.
import type { Engine } from '../engine';
import {
  SOLVE_PROVEN,
  SOLVE_DISPROVEN,
  SOLVE_MORE,
  SOLVE_NO_ROOM,
  SOLVE_BAD_PROBLEM,
  SOLVE_INCONSISTENT,
  SOLVE_BELIEF_LIMIT,
  STAT_NODES,
  STAT_POSITIONS,
  STAT_PEAK_BYTES,
  STAT_TABLE_HITS,
  STAT_STREAMED,
  STAT_BELIEF_TABLE_HITS,
} from '../constants';

/**
 * What a search step ended with: `more` (the budget ran out), an answer, `no-room` (an arena is
 * full: the answer is unknown), or, interleaved, `inconsistent` (no position fits the view) and
 * `belief-limit` (the estimator ran out of room).
 */
export type SearchStep = 'more' | 'proven' | 'disproven' | 'no-room' | 'inconsistent' | 'belief-limit';

const STEPS: Record<number, SearchStep> = {
  [SOLVE_PROVEN]: 'proven',
  [SOLVE_DISPROVEN]: 'disproven',
  [SOLVE_MORE]: 'more',
  [SOLVE_NO_ROOM]: 'no-room',
  [SOLVE_INCONSISTENT]: 'inconsistent',
  [SOLVE_BELIEF_LIMIT]: 'belief-limit',
};

/** The arenas of a search: node records, position entries (and attempt-list slots), position records up to `positionEnd`. */
export interface SearchArenas {
  nodes: number;
  entries: number;
  positionEnd: number;
}

/**
 * Starts a search over positions [first, first + count) (one side to move; record first - 1 is its
 * scratch) for mate within `ply`, with algorithm code `algo` (ALGO_*) and OPTION_* bits. False when
 * the core rejects the problem.
 */
export function startSearch(
  engine: Engine,
  first: number,
  count: number,
  ply: number,
  algo: number,
  options: number,
  arenas: SearchArenas,
): boolean {
  return (
    engine.core.exports.solveStart(
      first,
      count,
      ply,
      algo,
      options,
      arenas.nodes,
      arenas.entries,
      arenas.positionEnd,
    ) !== SOLVE_BAD_PROBLEM
  );
}

/**
 * Starts an interleaved search: the root's positions stream from a depth-first estimation of the
 * view loaded in the engine (host/core/estimator.ts loadView), from record `viewRoot`, confined below
 * record `estimateEnd`; `side` (0 White, 1 Black) moves at the view's end. False when the core
 * rejects it (the algorithm is not of the directional family).
 */
export function startInterleavedSearch(
  engine: Engine,
  viewRoot: number,
  estimateEnd: number,
  side: number,
  ply: number,
  algo: number,
  options: number,
  arenas: SearchArenas,
): boolean {
  return (
    engine.core.exports.solveStartInterleaved(
      viewRoot,
      estimateEnd,
      side,
      ply,
      algo,
      options,
      arenas.nodes,
      arenas.entries,
      arenas.positionEnd,
    ) !== SOLVE_BAD_PROBLEM
  );
}

/** Continues for about `budget` nodes and positions made. */
export function runSearch(engine: Engine, budget: number): SearchStep {
  const status = engine.core.exports.solveRun(budget);
  const step = STEPS[status];
  if (step === undefined) throw new Error(`the solver returned status ${status}`); // a core bug: internal
  return step;
}

export interface SearchCounts {
  /** Belief-state nodes made (OR, ATTEMPT and EXPAND). */
  nodes: number;
  /** Physical positions generated. */
  positions: number;
  /** Peak bytes of the search's arenas in use. */
  peakBytes: number;
  /** Nodes disproved by the position table and by the belief-state table. */
  tableHits: number;
  beliefTableHits: number;
  /** Interleaved: positions received from the estimator. */
  streamed: number;
}

export function searchCounts(engine: Engine): SearchCounts {
  const stat = engine.core.exports.solveStat;
  return {
    nodes: stat(STAT_NODES),
    positions: stat(STAT_POSITIONS),
    peakBytes: stat(STAT_PEAK_BYTES),
    tableHits: stat(STAT_TABLE_HITS),
    beliefTableHits: stat(STAT_BELIEF_TABLE_HITS),
    streamed: stat(STAT_STREAMED),
  };
}

/** Nodes made so far (cheaper than searchCounts, for limits checked between steps). */
export function nodesMade(engine: Engine): number {
  return engine.core.exports.solveStat(STAT_NODES);
}

/** The proof of a proven root as the core encodes it (assembly/solver/solve.ts); empty if none. */
export function strategyWords(engine: Engine): Int32Array {
  const x = engine.core.exports;
  const length = x.strategyWrite(); // first: writing may grow (replace) the buffer
  return engine.core.view(x.strategyBuffer()).slice(0, length);
}

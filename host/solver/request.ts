// THE ONE solve request: a problem (a belief state, or a view whose belief state is estimated
// first), an algorithm by name ('auto' or one of ALGORITHMS), limits and switches in; the answer,
// its statistics and the strategy out. `krieg solve`, the web page's Solve tab and the library ask
// through here; where a problem comes from (files, the database) is sources/problems.ts's.
import type { Engine } from '../engine';
import type { View } from '../record/record';
import {
  solve,
  solveView,
  beliefPositions,
  positionRecordsFor,
  DEFAULT_BELIEF_LIMIT,
  DEFAULT_MEMORY_BYTES,
  type ViewBeliefOptions,
  type Problem,
  type SolveLimits,
  type SolveResult,
  type SolveStats,
  type Switches,
} from './solve';
import { solveAuto, algorithmChoice, AUTO, type AutoResult } from './auto';

/** A problem given as a view: the question is about the player to move at its end. */
export interface ViewProblem {
  view: View;
  ply: number;
  materialWins?: boolean;
}

export interface SolveRequest {
  /** 'auto' (the learned policy's schedule), an algorithm or an alias. With interleave, auto means gl-dbu. */
  algorithm: string;
  /** For a view: stream the estimator's positions straight into an incremental directional search. */
  interleave?: boolean;
  limits: SolveLimits;
  /** performance.now() at which the time limit was set (default: now): the time before the search counts too. */
  since?: number;
  /** A view's belief: its estimation (limit, memory and messages; the limits' memory is the default budget). */
  belief?: ViewBeliefOptions;
  switches?: Switches;
  onProgress?: (stats: SolveStats) => void;
}

export type SolveAnswer = (SolveResult | AutoResult) & {
  /** The belief state searched (a view's, when estimated first; none when interleaved). */
  problem: Problem;
  /** Positions searched: the belief state's, or those streamed before the answer. */
  positions: number;
};

/** Answers `request` for `target` (see the file comment). */
export function solveRequest(engine: Engine, target: Problem | ViewProblem, request: SolveRequest): SolveAnswer {
  const since = request.since ?? performance.now();
  const { limits, switches = {} } = request;
  const memoryBytes = limits.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const timeLeft = () =>
    limits.timeMs === undefined ? undefined : Math.max(1, limits.timeMs - (performance.now() - since));
  const choice = algorithmChoice(request.algorithm);
  if ('view' in target && request.interleave) {
    const algorithm = choice === AUTO ? 'gl-dbu' : choice;
    const { view, ply, materialWins } = target;
    const solved = solveView(
      engine,
      view,
      ply,
      algorithm,
      { interleave: true, materialWins, beliefLimit: request.belief?.limit ?? DEFAULT_BELIEF_LIMIT },
      { ...limits, timeMs: timeLeft() },
      switches,
    );
    const problem: Problem = { rules: view.rules, positions: [], ply, materialWins: materialWins === true };
    return { ...solved, problem, positions: solved.beliefPositions };
  }
  const problem: Problem =
    'view' in target
      ? {
          rules: target.view.rules,
          positions: beliefPositions(engine, target.view, {
            memoryBytes,
            timeMs: timeLeft(),
            ...request.belief,
          }),
          ply: target.ply,
          materialWins: target.materialWins === true,
        }
      : target;
  // the engine sized for the search before the time left is taken, so that the limit counts it too
  const records = positionRecordsFor(memoryBytes);
  if (engine.capacity < records) engine.resize(records);
  const searchLimits = { ...limits, timeMs: timeLeft() };
  const result =
    choice === AUTO
      ? solveAuto(engine, problem, searchLimits, request.onProgress, switches)
      : solve(engine, problem, choice, searchLimits, request.onProgress, switches);
  return { ...result, problem, positions: problem.positions.length };
}

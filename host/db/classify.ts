// Mate / near-miss classification of a belief state (SPEC §7; Russell & Wolfe 2005 §3), by node
// limits only, so that it is deterministic:
// - mate: gl-dbu proves a guaranteed mate within the ply; its strategy must pass the independent
//   verifier;
// - near-miss: no guaranteed mate, but one strategy mates in at least half of the positions. The
//   strategy is found by a coverage-maximising use of the incremental solver (greedyCover): the
//   positions are added one at a time, each kept when gl-dbu still proves the kept set; the
//   strategy for the kept set must pass the verifier on that set;
// - otherwise neither, or unknown when a search ran out of nodes.
import type { Engine } from '../engine';
import { solve, type Problem, type SolveResult } from '../solver/solve';
import { strategyToJson } from '../solver/strategy';
import { verifyStrategy, verdictText } from '../verify/verify';
import type { ProblemClass } from '../solver/problemFile';

export interface ClassifyLimits {
  /** Node limit of the classifying gl-dbu search (a search that runs out: the point is unknown). */
  nodes: number;
  /** Node limit of each search of the greedy cover (one that runs out leaves that position out). */
  greedyNodes: number;
}

export const CLASSIFY_LIMITS: ClassifyLimits = { nodes: 2_000_000, greedyNodes: 400_000 };

export interface Classified {
  cls: ProblemClass;
  /** Indices of the positions the witness strategy mates in (all of them for a mate). */
  covered: number[];
  /** The witness strategy on the covered positions, as krieg-strategy JSON. */
  strategy: string;
  /** Nodes made by gl-dbu (the classification) and by the greedy cover. */
  work: Record<string, number>;
}

export type Classification = Classified | { cls: 'neither' | 'unknown'; work: Record<string, number> };

const subset = (problem: Problem, indices: number[]): Problem => ({
  ...problem,
  positions: indices.map((i) => problem.positions[i]),
});

/**
 * The positions (indices, in order) one gl-dbu strategy mates in, built greedily from `start` (a
 * set known to be covered), or undefined once fewer than half can be reached; `onSolve` sees every
 * search's result (for work counts).
 */
export function greedyCover(
  solver: Engine,
  problem: Problem,
  nodes: number,
  start: number[] = [],
  onSolve?: (r: SolveResult) => void,
): number[] | undefined {
  const n = problem.positions.length;
  const need = Math.ceil(n / 2);
  const kept = [...start];
  const rest = [...Array(n).keys()].filter((i) => !start.includes(i));
  for (let r = 0; r < rest.length; r++) {
    if (kept.length + (rest.length - r) < need) return undefined;
    const trial = [...kept, rest[r]].sort((a, b) => a - b);
    const result = solve(solver, subset(problem, trial), 'gl-dbu', { nodes });
    onSolve?.(result);
    if (result.answer === 'proven') kept.splice(0, kept.length, ...trial);
  }
  return kept.length >= need ? kept : undefined;
}

/** A strategy the verifier rejects is a solver bug: never stored, reported as an internal error (not a KriegError: not bad input). */
function verified(problem: Problem, result: SolveResult, what: string): string {
  const verdict = verifyStrategy(problem, result.strategy!);
  if (!verdict.ok)
    throw new Error(`solver bug: the verifier rejects gl-dbu's strategy for ${what}:\n${verdictText(verdict)}`);
  return JSON.stringify(strategyToJson(result.strategy!));
}

/** Classifies `problem` (see the file comment); `greedyStart`: positions known to be covered. */
export function classify(
  solver: Engine,
  problem: Problem,
  limits: ClassifyLimits = CLASSIFY_LIMITS,
  greedyStart: number[] = [],
): Classification {
  const first = solve(solver, problem, 'gl-dbu', { nodes: limits.nodes });
  const work: Record<string, number> = { 'gl-dbu': first.stats.nodes };
  if (first.answer === 'unknown') return { cls: 'unknown', work };
  const all = problem.positions.map((_, i) => i);
  if (first.answer === 'proven')
    return { cls: 'mate', covered: all, strategy: verified(problem, first, 'the mate'), work };
  work.greedy = 0;
  const covered = greedyCover(solver, problem, limits.greedyNodes, greedyStart, (r) => {
    work.greedy += r.stats.nodes;
  });
  if (!covered) return { cls: 'neither', work };
  const witness = solve(solver, subset(problem, covered), 'gl-dbu', { nodes: limits.nodes });
  // a cover that started from a known set (a re-analysis) may meet its first search here
  if (witness.answer === 'unknown') return { cls: 'unknown', work };
  if (witness.answer !== 'proven')
    throw new Error(
      `solver bug: gl-dbu disproves the covered set, which the greedy search (or the shallower search it started from) proved`,
    );
  return {
    cls: 'near-miss',
    covered,
    strategy: verified(subset(problem, covered), witness, 'the covered positions'),
    work,
  };
}

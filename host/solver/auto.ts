// `--algo auto`: algorithm selection for guaranteed-checkmate search (issue 17). A problem's cheap
// features — plies, belief size, the material on the board (the same in every position of a belief
// state, since White always knows how many black pieces remain) — pick a schedule from a policy
// learned on the problem database's benchmark results (bench/auto.ts writes autoPolicy.ts, training
// on one half of the instances and reporting its evaluation on the other):
//   - one algorithm, or
//   - a probe: `first` with a small node budget, whose outcome predicts the class cheaply (ipns, say,
//     proves the easy mates within a few thousand nodes), then `then` from scratch when the probe
//     ran out. Node budgets make the choice deterministic: the same problem always takes the same
//     path, whatever the machine's speed.
// Every algorithm gives the same answer (the tests assert it), so auto's answer is every
// algorithm's; only the work differs. The core holds one search per engine, so a probe's work is
// not resumed by the second algorithm; a two-engine portfolio (both searches interleaved) costs
// about twice the faster one's time on every problem, which the training data show to be worse in
// total than this policy (bench/results/auto.md).
import type { Engine } from '../engine';
import {
  solve,
  solveProblem,
  ALGORITHMS,
  ALGORITHM_ALIASES,
  type Algorithm,
  type Problem,
  type SolveLimits,
  type SolveResult,
  type SolveStats,
  type Switches,
} from './solve';
import { fail } from '../errors';
import type { AutoPolicy, Schedule } from './policy';
import { AUTO_POLICY } from './autoPolicy';

export type { AutoPolicy, AutoRule, Schedule } from './policy';

/** The name `--algo` takes for this selection. */
export const AUTO = 'auto';

/** What `--algo` (and the web page's solver) accepts: auto, an algorithm, or an alias of one. */
export const ALGORITHM_CHOICES: readonly string[] = [AUTO, ...ALGORITHMS];

/** `name` as auto or an algorithm (aliases resolved); an unknown name is refused with the known ones. */
export function algorithmChoice(name: string): Algorithm | typeof AUTO {
  if (name === AUTO) return AUTO;
  const algorithm = ALGORITHM_ALIASES[name] ?? name;
  if (!(ALGORITHMS as readonly string[]).includes(algorithm))
    throw fail('bad-algorithm', { name, known: [...ALGORITHM_CHOICES, ...Object.keys(ALGORITHM_ALIASES)] });
  return algorithm as Algorithm;
}

export interface AutoFeatures {
  ply: number;
  /** Positions in the belief state. */
  size: number;
  /** Pieces other than the kings: the mover's and the opponent's. */
  ownPieces: number;
  opponentPieces: number;
}

/** The features of a problem, read from its first position (the mover's side). */
export function autoFeatures(problem: Pick<Problem, 'ply' | 'positions'>): AutoFeatures {
  const [board, side] = (problem.positions[0] ?? '').split(' ');
  let white = 0;
  let black = 0;
  for (const c of board ?? '') {
    if ('PNBRQ'.includes(c)) white++;
    else if ('pnbrq'.includes(c)) black++;
  }
  const whiteMoves = side !== 'b';
  return {
    ply: problem.ply,
    size: problem.positions.length,
    ownPieces: whiteMoves ? white : black,
    opponentPieces: whiteMoves ? black : white,
  };
}

const within = (range: [number, number] | undefined, x: number) =>
  range === undefined || (x >= range[0] && x <= range[1]);

export function chooseSchedule(features: AutoFeatures, policy: AutoPolicy = AUTO_POLICY): Schedule {
  const rule = policy.rules.find(
    (r) =>
      within(r.ply, features.ply) &&
      within(r.size, features.size) &&
      within(r.ownPieces, features.ownPieces) &&
      within(r.opponentPieces, features.opponentPieces),
  );
  return (rule ?? policy.rules[policy.rules.length - 1]).schedule;
}

export function scheduleText(s: Schedule): string {
  return s.probeNodes === undefined || s.then === undefined
    ? s.first
    : `${s.first} for ${s.probeNodes} nodes, then ${s.then}`;
}

export interface AutoResult extends SolveResult {
  auto: {
    features: AutoFeatures;
    schedule: Schedule;
    /** The probe's outcome when it did not answer (then the answer is `then`'s). */
    probe?: { algorithm: Algorithm; nodes: number; positions: number; ms: number };
  };
}

/** Solves `problem` with the algorithm `name` (algorithmChoice): auto's schedule, or the one named. */
export function solveByName(
  engine: Engine,
  problem: Problem,
  name: string,
  limits: SolveLimits = {},
  onProgress?: (stats: SolveStats) => void,
  switches: Switches = {},
): SolveResult | AutoResult {
  const choice = algorithmChoice(name);
  return choice === AUTO
    ? solveAuto(engine, problem, limits, onProgress, switches)
    : solve(engine, problem, choice, limits, onProgress, switches);
}

/**
 * Solves `problem` with the schedule the policy picks for it. Limits bound the whole (nodes and
 * time are shared by the probe and what follows); the result's `algorithm` is the one that
 * answered, its statistics the sum of both runs.
 */
export function solveAuto(
  engine: Engine,
  problem: Problem,
  limits: SolveLimits = {},
  onProgress?: (stats: SolveStats) => void,
  switches: Switches = {},
  policy: AutoPolicy = AUTO_POLICY,
): AutoResult {
  const features = autoFeatures(problem);
  const schedule = chooseSchedule(features, policy);
  if (schedule.probeNodes === undefined || schedule.then === undefined) {
    return { ...solve(engine, problem, schedule.first, limits, onProgress, switches), auto: { features, schedule } };
  }
  const probeNodes = Math.min(schedule.probeNodes, limits.nodes ?? Infinity);
  const { result: probe, loaded } = solveProblem(
    engine,
    problem,
    schedule.first,
    { ...limits, nodes: probeNodes },
    onProgress,
    switches,
  );
  // the probe answered, or the caller's own limit stopped it
  if (probe.answer !== 'unknown' || probe.limit !== 'nodes' || probeNodes < schedule.probeNodes)
    return { ...probe, auto: { features, schedule } };
  const left: SolveLimits = {
    ...limits,
    nodes: limits.nodes === undefined ? undefined : limits.nodes - probe.stats.nodes,
    timeMs: limits.timeMs === undefined ? undefined : Math.max(1, limits.timeMs - probe.stats.ms),
  };
  // the probe's positions are still loaded: the second search starts from them
  const { result: main } = solveProblem(
    engine,
    problem,
    schedule.then,
    left,
    onProgress &&
      ((s) =>
        onProgress({
          ...s,
          nodes: s.nodes + probe.stats.nodes,
          positions: s.positions + probe.stats.positions,
          ms: s.ms + probe.stats.ms,
        })),
    switches,
    loaded,
  );
  const p = probe.stats;
  return {
    ...main,
    stats: {
      nodes: p.nodes + main.stats.nodes,
      positions: p.positions + main.stats.positions,
      peakBytes: Math.max(p.peakBytes, main.stats.peakBytes),
      ms: p.ms + main.stats.ms,
      tableHits: p.tableHits + main.stats.tableHits,
      beliefTableHits: p.beliefTableHits + main.stats.beliefTableHits,
    },
    auto: {
      features,
      schedule,
      probe: { algorithm: schedule.first, nodes: p.nodes, positions: p.positions, ms: p.ms },
    },
  };
}

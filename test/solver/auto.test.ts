// `--algo auto` (host/solver/auto.ts): whatever it picks answers as every algorithm does.
// - The shipped policy, on a sample of the 3- and 5-ply sets (test/data/problems/set-*.json, mates
//   and near-misses) and the hand-built suite, on both backends: the expected answer, a strategy
//   the independent verifier accepts, the same answer as every single algorithm.
// - Every schedule a policy can hold — each algorithm alone, and probes that always answer and
//   that always fall through (a 1-node budget) — gives the same answers (so a retrained policy
//   cannot change an answer, only the work).
// - The policy's rules: features read from the first position, first match wins, the shipped
//   policy covers every feature vector, and the caller's node limit bounds the probe and the rest.
// Bounded by node limits, never by time.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { parseProblems, type NamedProblem } from '../../host/solver/problemFile';
import { solve, ALGORITHMS, type Algorithm } from '../../host/solver/solve';
import {
  solveAuto,
  solveByName,
  algorithmChoice,
  AUTO,
  autoFeatures,
  chooseSchedule,
  scheduleText,
  type AutoPolicy,
  type Schedule,
} from '../../host/solver/auto';
import { AUTO_POLICY } from '../../host/solver/autoPolicy';
import { verifyStrategy, verdictText } from '../../host/verify/verify';

const load = (file: string) =>
  parseProblems(readFileSync(new URL(`../data/problems/${file}`, import.meta.url), 'utf8'), file);
const sets = [...load('set-3ply.json'), ...load('set-5ply.json')];
/** Per ply and class, every 12th problem of the sets (both backends: kept cheap), and the hand-built suite. */
const sample: NamedProblem[] = [
  ...[3, 5].flatMap((ply) =>
    ['proven', 'disproven'].flatMap((expect) =>
      sets.filter((p) => p.ply === ply && p.expect === expect).filter((_, i) => i % 12 === 0),
    ),
  ),
  ...load('hand.json').filter((p) => p.expect !== undefined),
];
const NODES = { nodes: 4_000_000 };
const only = (schedule: Schedule): AutoPolicy => ({ trainedOn: 'test', rules: [{ schedule }] });

describe.each(BACKENDS)('auto on %s', (backend) => {
  const engine = createEngine(backend);

  it.each(sample.map((p) => [p.id, p] as const))('%s: the expected answer, a verified strategy', (_, problem) => {
    const r = solveAuto(engine, problem, NODES);
    expect(r.answer, scheduleText(r.auto.schedule)).toBe(problem.expect);
    if (r.answer === 'proven') {
      const verdict = verifyStrategy(problem, r.strategy!);
      expect(verdict.ok, verdictText(verdict)).toBe(true);
    }
    // the answering algorithm is the schedule's
    expect([r.auto.schedule.first, r.auto.schedule.then]).toContain(r.algorithm);
  });
});

describe("every schedule gives every algorithm's answer", () => {
  const engine = createEngine('wasm');
  // every other problem of the sample, up to 30 positions (dfs and its kin are slow on large 5-ply beliefs)
  const problems = sample.filter((p, i) => i % 2 === 0 && p.positions.length <= 30);
  const LIMITS = { nodes: 60_000 };
  const schedules: Schedule[] = [
    ...ALGORITHMS.map((first) => ({ first })),
    { first: 'ipns', probeNodes: 1, then: 'gl-dbu' }, // the probe never answers: gl-dbu does
    { first: 'gl-dbu', probeNodes: 1, then: 'le-dfs' },
    { first: 'ipns', probeNodes: 4_000_000, then: 'gl-dbu' }, // the probe always answers
  ];
  it.each(problems.map((p) => [p.id, p] as const))('%s', (_, problem) => {
    const answers = new Map<string, string>();
    for (const schedule of schedules) {
      const r = solveAuto(engine, problem, schedule.first === 'gl-dbu' ? NODES : LIMITS, undefined, {}, only(schedule));
      // the black-box algorithms may run out of nodes on the larger problems: unknown is no answer
      if (r.answer !== 'unknown') answers.set(scheduleText(schedule), r.answer);
      // a 1-node probe answers only the trivial problems; otherwise the second algorithm does
      if (schedule.probeNodes === 1 && r.auto.probe) expect(r.algorithm).toBe(schedule.then);
    }
    expect(new Set(answers.values()), JSON.stringify([...answers])).toEqual(new Set([problem.expect]));
    expect(answers.get('gl-dbu')).toBe(problem.expect);
    expect(answers.get('ipns for 1 nodes, then gl-dbu')).toBe(problem.expect);
  });
});

describe('the policy', () => {
  const fen = (board: string, side: 'w' | 'b') => `${board} ${side} - - 0 1`;

  it("reads plies, belief size and both sides' material from the first position", () => {
    const positions = [fen('4k3/pp6/8/8/8/8/8/R3K2Q', 'w'), fen('4k3/1p6/p7/8/8/8/8/R3K2Q', 'w')];
    expect(autoFeatures({ ply: 5, positions })).toEqual({ ply: 5, size: 2, ownPieces: 2, opponentPieces: 2 });
    // Black to move: Black's pieces are its own
    expect(autoFeatures({ ply: 3, positions: [fen('4k3/ppp5/8/8/8/8/8/4K2Q', 'b')] })).toEqual({
      ply: 3,
      size: 1,
      ownPieces: 3,
      opponentPieces: 1,
    });
  });

  it('takes the first rule that matches', () => {
    const policy: AutoPolicy = {
      trainedOn: 'test',
      rules: [
        { ply: [5, 5], size: [10, Infinity], schedule: { first: 'ipns' } },
        { opponentPieces: [0, 1], schedule: { first: 'le-dfs' } },
        { schedule: { first: 'gl-dbu', probeNodes: 100, then: 'e-pns' } },
      ],
    };
    expect(chooseSchedule({ ply: 5, size: 10, ownPieces: 1, opponentPieces: 0 }, policy).first).toBe('ipns');
    expect(chooseSchedule({ ply: 5, size: 9, ownPieces: 1, opponentPieces: 0 }, policy).first).toBe('le-dfs');
    expect(chooseSchedule({ ply: 3, size: 50, ownPieces: 1, opponentPieces: 4 }, policy)).toEqual({
      first: 'gl-dbu',
      probeNodes: 100,
      then: 'e-pns',
    });
  });

  it('the shipped policy names real algorithms and covers every problem', () => {
    const named = (a: Algorithm | undefined) => a === undefined || (ALGORITHMS as readonly string[]).includes(a);
    for (const r of AUTO_POLICY.rules) {
      expect(named(r.schedule.first) && named(r.schedule.then), JSON.stringify(r)).toBe(true);
      expect((r.schedule.probeNodes === undefined) === (r.schedule.then === undefined), JSON.stringify(r)).toBe(true);
    }
    for (const ply of [1, 3, 5, 7, 9]) {
      for (const size of [1, 2, 5, 20, 100, 10_000]) {
        for (const own of [0, 1, 5, 15]) {
          for (const opponent of [0, 1, 5, 15]) {
            const features = { ply, size, ownPieces: own, opponentPieces: opponent };
            const matched = AUTO_POLICY.rules.filter((r) =>
              (['ply', 'size', 'ownPieces', 'opponentPieces'] as const).every(
                (k) => r[k] === undefined || (features[k] >= r[k]![0] && features[k] <= r[k]![1]),
              ),
            );
            expect(matched.length, JSON.stringify(features)).toBeGreaterThan(0);
          }
        }
      }
    }
  });

  it("the caller's node limit bounds the probe and what follows", () => {
    const engine = createEngine('wasm');
    const problem = sample.find((p) => p.ply === 5 && p.expect === 'disproven')!;
    const full = solve(engine, problem, 'gl-dbu', NODES);
    expect(full.answer).toBe('disproven');
    // a limit below the probe's budget: the probe stops, unknown, nothing after it
    const small = solveAuto(
      engine,
      problem,
      { nodes: 5 },
      undefined,
      {},
      only({ first: 'ipns', probeNodes: 1000, then: 'gl-dbu' }),
    );
    expect(small.answer).toBe('unknown');
    expect(small.limit).toBe('nodes');
    expect(small.auto.probe).toBeUndefined();
    // a limit past the probe's: the rest gets what the probe left (a step may overshoot a node limit a little)
    const probeNodes = 3;
    const limited = solveAuto(
      engine,
      problem,
      { nodes: 1000 + full.stats.nodes },
      undefined,
      {},
      only({ first: 'ipns', probeNodes, then: 'gl-dbu' }),
    );
    expect(limited.auto.probe!.nodes).toBeGreaterThanOrEqual(probeNodes);
    expect(limited.answer).toBe('disproven');
    expect(limited.algorithm).toBe('gl-dbu');
    // the statistics are the sum of both runs, the second exactly gl-dbu's alone
    expect(limited.stats.nodes).toBe(limited.auto.probe!.nodes + full.stats.nodes);
    // the rest cannot have more than the limit left by the probe
    const starved = solveAuto(
      engine,
      problem,
      { nodes: limited.auto.probe!.nodes + 2 },
      undefined,
      {},
      only({ first: 'ipns', probeNodes, then: 'gl-dbu' }),
    );
    expect(starved.answer).toBe('unknown');
  });

  it('by name: auto runs the policy, a name or alias the one algorithm; an unknown name lists auto among the known', () => {
    const engine = createEngine('wasm');
    const problem = sample.find((p) => p.ply === 3 && p.expect === 'proven')!;
    const auto = solveByName(engine, problem, AUTO, NODES);
    expect(auto).toMatchObject({ answer: 'proven', auto: solveAuto(engine, problem, NODES).auto });
    const named = solveByName(engine, problem, 'udb', NODES);
    expect(named.algorithm).toBe('le-dfs');
    expect(named).not.toHaveProperty('auto');
    expect(named.stats.nodes).toBe(solve(engine, problem, 'le-dfs', NODES).stats.nodes);
    expect(() => algorithmChoice('best')).toThrow(/unknown algorithm 'best' \(known: auto, dfs,/);
  });
});

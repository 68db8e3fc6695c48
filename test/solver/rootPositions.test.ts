// The root's positions (issue 38, G3: a belief state of 100,000 positions ignored --limit-time): on
// both backends, repeated positions are ignored without changing the work (the core finds them in
// a hash set, no longer by comparing each position with every earlier one); loading and checking
// them looks at the time limit, and happens once for the searches of one problem that follow one
// another (auto's probe and the rest, deepening's plies). Bounded by node limits.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { parseProblems } from '../../host/solver/problemFile';
import { solve, ALGORITHMS } from '../../host/solver/solve';
import { solveAuto, type AutoPolicy } from '../../host/solver/auto';
import { bigBelief } from '../lib/bigProblem';

const LIMITS = { nodes: 2_000_000 };
const hand = parseProblems(readFileSync(new URL('../data/problems/hand.json', import.meta.url), 'utf8'), 'hand.json');
/** Hand-built problems of several positions, proven and disproven. */
const several = hand.filter((p) => p.positions.length > 1);

describe.each(BACKENDS)('%s', (backend) => {
  const engine = createEngine(backend);

  it('repeated positions are ignored: the same answer and the same work as without them, every algorithm', () => {
    expect(several.length).toBeGreaterThanOrEqual(5);
    for (const problem of several) {
      // every position again, in reverse order, after the first ones: the first of each is kept
      const repeated = { ...problem, positions: [...problem.positions, ...[...problem.positions].reverse()] };
      for (const algorithm of ALGORITHMS) {
        const at = `${problem.id} ${algorithm}`;
        const once = solve(engine, problem, algorithm, LIMITS);
        const twice = solve(engine, repeated, algorithm, LIMITS);
        expect(once.answer, at).toBe(problem.expect);
        expect(twice.answer, at).toBe(once.answer);
        expect([twice.stats.nodes, twice.stats.positions], at).toEqual([once.stats.nodes, once.stats.positions]);
      }
    }
  });
});

describe.each(BACKENDS)('%s: loading a big belief state', (backend) => {
  const engine = createEngine(backend);
  const problem = { rules: hand[0].rules, ply: 3, positions: bigBelief(5_000) };

  it('looks at the clock: a time limit already spent stops it before any search', () => {
    const result = solve(engine, problem, 'gl-dbu', { timeMs: 0 });
    expect(result).toMatchObject({ answer: 'unknown', limit: 'time' });
    expect(result.stats.nodes).toBe(0);
  });

  it("happens once for auto's probe and what follows it, and once for every ply of deepening", () => {
    const loads = vi.spyOn(engine, 'setFen');
    try {
      const probe: AutoPolicy = { rules: [{ schedule: { first: 'ipns', probeNodes: 1, then: 'dfs' } }], trainedOn: '' };
      const auto = solveAuto(engine, problem, { nodes: 20 }, undefined, {}, probe);
      expect(auto.auto.probe).toBeDefined();
      expect(auto.algorithm).toBe('dfs');
      expect(loads).toHaveBeenCalledTimes(problem.positions.length);
      loads.mockClear();
      const deepened = solve(engine, problem, 'dfs', { nodes: 20 }, undefined, { deepen: true });
      expect(deepened.stats.nodes).toBeGreaterThan(1);
      expect(loads).toHaveBeenCalledTimes(problem.positions.length);
    } finally {
      loads.mockRestore();
    }
  });
});

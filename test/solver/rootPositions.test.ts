// The root's positions (issue 38, G3: a belief state of 100,000 positions ignored --limit-time): on
// both backends, repeated positions are ignored without changing the work (the core finds them in
// a hash set, no longer by comparing each position with every earlier one). Bounded by node limits.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { parseProblems } from '../../host/solver/problemFile';
import { solve, ALGORITHMS } from '../../host/solver/solve';

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

// krieg solve's default, --algo auto, end to end: the schedule and the answering algorithm in the
// text and in --json, the same answer as a named algorithm, gl-dbu when interleaving, and the
// caller's limits (exit 4 when they stop it).
import { describe, it, expect } from 'vitest';
import { expectOneLine, krieg } from '../lib/cli';
import { ALGORITHMS } from '../../host/solver/solve';

describe('krieg solve --algo auto', () => {
  it('is the default; --json names the schedule, the features and the algorithm that answered', async () => {
    for (const id of ['db:5', 'db:2']) {
      const auto = JSON.parse((await krieg(['solve', id, '--json'])).stdout);
      expect((ALGORITHMS as readonly string[]).includes(auto.algorithm)).toBe(true);
      expect([auto.auto.schedule.first, auto.auto.schedule.then]).toContain(auto.algorithm);
      expect(auto.auto.features.size).toBe(auto.positions);
      const named = JSON.parse((await krieg(['solve', id, '--json', '--algo', 'le-dfs'])).stdout);
      expect(named.auto).toBeUndefined();
      expect(auto.answer).toBe(named.answer);
    }
  });

  it('interleaving takes gl-dbu', async () => {
    const run = JSON.parse((await krieg(['solve', 'db:5', '--interleave', '--json'])).stdout);
    expect(run.algorithm).toBe('gl-dbu');
    expect(run.answer).toBe('disproven');
  });

  it("stops at the caller's node limit (exit 4)", async () => {
    const run = await krieg(['solve', 'db:5', '--limit-nodes', '2']);
    expect(run.status).toBe(4);
    expect(run.stdout).toMatch(/answer: unknown/);
    expect(run.stdout).toMatch(/search: auto \(/);
  });

  it('an unknown --algo is refused in one line naming auto and the algorithms (exit 2)', async () => {
    expect(expectOneLine(await krieg(['solve', 'db:5', '--algo', 'fastest']), 2)).toMatch(
      /unknown algorithm 'fastest' \(known: auto, dfs, .*gl-dbu, ipns/,
    );
  });
});

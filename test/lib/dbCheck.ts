// Re-checks one stored instance of the problem database against independent truth (issue 7,
// acceptance 2): a mate's stored strategy passes the independent verifier (chessops) on every
// position; a near-miss's stored strategy passes it on the covered positions, which are at least
// half of them, and no algorithm finds a full mate (each one disproves it). The stored belief is
// what the estimator makes of the stored view (KPGN and JSON both). A re-analysed instance has its
// source's belief and view.
import { expect } from 'vitest';
import type { Engine } from '../../host/engine';
import { ProblemDb, type InstanceRow } from '../../host/db/database.node';
import { solve, type Algorithm, type Problem, type SolveLimits } from '../../host/solver/solve';
import { strategyFromJson } from '../../host/solver/strategy';
import { verifyStrategy, verdictText } from '../../host/verify/verify';
import { estimateBelief } from '../../host/belief/estimate';
import { parseRecordJson } from '../../host/notation/recordJson';
import { parseKpgn } from '../../host/notation/kpgn';
import type { View } from '../../host/record/record';
import { parseRulesJson } from '../../host/record/rules';

/** Algorithms that must each disprove a near-miss: incremental, proof-number and depth-first families. */
export const NEAR_MISS_CHECKERS: Algorithm[] = ['gl-dbu', 'ipns', 'le-dfs'];
const LIMITS: SolveLimits = { nodes: 3_000_000 };

export function problemOf(row: InstanceRow): Problem {
  return { rules: parseRulesJson(row.rulesJson), ply: row.ply, positions: row.positions };
}

function viewOfText(parsed: ReturnType<typeof parseKpgn>): View {
  if (parsed.kind !== 'view') throw new Error('a stored view is a record');
  return parsed.view;
}

export function checkInstance(
  db: ProblemDb,
  solver: Engine,
  estimator: Engine,
  row: InstanceRow,
  algorithms = NEAR_MISS_CHECKERS,
  limits = LIMITS,
): void {
  const what = `instance ${row.id} (${row.ply}-ply ${row.cls}, ${row.beliefSize} positions)`;
  const problem = problemOf(row);
  expect(row.positions, what).toHaveLength(row.beliefSize);
  const view = viewOfText(parseRecordJson(row.viewJson));
  expect(viewOfText(parseKpgn(row.viewKpgn)).events, what).toEqual(view.events);
  const belief = estimateBelief(estimator, view, 'bfs');
  expect(belief.outcome, what).toBe('complete');
  expect(belief.handles.map((h) => estimator.fen(h)).sort(), what).toEqual([...row.positions].sort());
  expect(new Set(row.covered).size, what).toBe(row.covered.length);
  expect(
    row.covered.every((i) => Number.isInteger(i) && i >= 0 && i < row.beliefSize),
    what,
  ).toBe(true);
  const covered = { ...problem, positions: row.covered.map((i) => row.positions[i]) };
  const verdict = verifyStrategy(covered, strategyFromJson(JSON.parse(row.strategy)));
  expect(verdict.ok, `${what}: ${verdictText(verdict)}`).toBe(true);
  if (row.cls === 'mate') {
    expect(row.covered, what).toHaveLength(row.beliefSize);
  } else {
    expect(row.covered.length * 2, what).toBeGreaterThanOrEqual(row.beliefSize);
    expect(row.covered.length, what).toBeLessThan(row.beliefSize);
    for (const algo of algorithms)
      expect(solve(solver, problem, algo, limits).answer, `${what}: ${algo}`).toBe('disproven');
  }
  if (row.sourceId !== null) {
    const source = db.instance(row.sourceId)!;
    expect(source.cls, what).toBe('near-miss');
    expect(source.ply, what).toBeLessThan(row.ply);
    expect(source.positions, what).toEqual(row.positions);
    expect(source.viewKpgn, what).toBe(row.viewKpgn);
    // what the shallower search covered stays covered deeper
    expect(
      source.covered.every((i) => row.covered.includes(i)),
      what,
    ).toBe(true);
  }
}

/** Everything a database holds, in a comparable form. */
export async function contents(path: string) {
  const db = await ProblemDb.open(path);
  try {
    return { params: db.params(), games: db.games(), instances: db.instances(), results: db.results() };
  } finally {
    db.close();
  }
}

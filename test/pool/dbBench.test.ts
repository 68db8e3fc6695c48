// `krieg db bench --jobs 2` (host/db/bench.node.ts on the pool): the same results rows, in the same
// order, as --jobs 1 — instance, algorithm, answer, nodes, positions — with the concurrency named
// in the machine column; times are not compared (they are measurements).
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../host/db/instances.node';
import { EXIT } from '../../host/errors';
import { krieg, ROOT } from '../lib/cli';

const DIR = mkdtempSync(join(tmpdir(), 'krieg-pool-bench-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function bench(jobs: number) {
  const path = join(DIR, `jobs${jobs}.sqlite`);
  copyFileSync(join(ROOT, 'data/problems.sqlite'), path);
  const args = ['db', 'bench', '--db', path, '--limit', '4', '--algo', 'le-dfs', 'gl-dbu', '--jobs', String(jobs)];
  const run = await krieg(args);
  expect(run.status, run.stderr).toBe(EXIT.ok);
  const db = await openDb(path);
  const rows = db.results();
  db.close();
  return rows;
}

describe('krieg db bench --jobs', () => {
  it('records what --jobs 1 records, in the same order', async () => {
    const one = await bench(1);
    const two = await bench(2);
    const same = (r: (typeof one)[number]) => [r.instanceId, r.algorithm, r.answer, r.nodes, r.positions];
    expect(two.map(same)).toEqual(one.map(same));
    expect(one.length).toBe(8);
    expect(two.every((r) => r.machine.endsWith(', 2 solves at once'))).toBe(true);
    expect(one.some((r) => r.machine.includes('at once'))).toBe(false);
  });
});

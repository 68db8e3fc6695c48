// krieg db reanalyse (host/db/reanalyse.node.ts): re-analysing a database's 3-ply near-misses at 5 ply
// gives exactly the 5-ply instances generation's own re-analysis stores (the same classes, covered
// positions and witness strategies); stopped after each instance and resumed, it ends with the
// same database; every stored instance re-checks (test/lib/dbCheck.ts); bad depths are refused.
// The database generated without re-analysis is made once; each test works on a copy of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProblemDb, type InstanceRow } from '../../host/db/database.node';
import { generate, selfPlayWorkers, DEFAULT_PARAMS, type GenerateParams } from '../../host/db/generate.node';
import { reanalyse } from '../../host/db/reanalyse.node';
import { CLASSIFY_LIMITS } from '../../host/db/classify';
import { createEngine } from '../../host/node';
import { checkInstance } from '../lib/dbCheck';
import { expectOneLine, krieg } from '../lib/cli';

const GAMES = 24;
const workers = () => selfPlayWorkers('wasm');
const comparable = (i: InstanceRow) => ({
  key: i.key,
  cls: i.cls,
  positions: i.positions,
  covered: i.covered,
  strategy: i.strategy,
  viewKpgn: i.viewKpgn,
  game: i.game,
});

async function generated(reanalyseAt: number): Promise<ProblemDb> {
  const params: GenerateParams = { ...DEFAULT_PARAMS, reanalyse: reanalyseAt };
  const db = await ProblemDb.create(undefined, params);
  generate(db, workers(), params, { mates: Infinity, nearMisses: Infinity, maxGames: GAMES });
  return db;
}

let DIR = '';
/** The file bytes of the GAMES games generated without re-analysis. */
let shallowBytes: Uint8Array;
let copies = 0;

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-reanalyse-'));
  const shallow = await generated(0);
  shallowBytes = shallow.bytes();
  shallow.close();
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

/** A file of its own holding the database generated without re-analysis. */
function shallowFile(): string {
  const path = join(DIR, `shallow-${++copies}.sqlite`);
  writeFileSync(path, shallowBytes);
  return path;
}

describe('krieg db reanalyse', () => {
  it("finds at 5 ply exactly what generation's re-analysis stores, and resumes to the same end", async () => {
    const reference = await generated(5);
    const fives = reference.instances({ ply: 5 });
    expect(fives.length).toBeGreaterThan(0);

    const shallow = await ProblemDb.open(shallowFile());
    expect(shallow.instances({ ply: 3 }).map(comparable)).toEqual(reference.instances({ ply: 3 }).map(comparable));
    const solver = createEngine('wasm');
    const end = reanalyse(shallow, solver, 3, 5, CLASSIFY_LIMITS);
    expect(end.done).toBe(end.total);
    expect(shallow.instances({ ply: 5 }).map(comparable)).toEqual(fives.map(comparable));
    // each stored instance names its source and re-checks against independent truth
    const estimator = createEngine('wasm', 1 << 16);
    for (const row of shallow.instances({ ply: 5 })) {
      expect(shallow.instance(row.sourceId!)!.ply).toBe(3);
      checkInstance(shallow, solver, estimator, row);
    }

    // one instance at a time, as if killed after each: the same database
    const stepwise = await ProblemDb.open(shallowFile());
    for (let guard = 0; guard < 100; guard++) {
      const p = reanalyse(stepwise, solver, 3, 5, CLASSIFY_LIMITS, 1);
      if (p.done === p.total) break;
    }
    expect(stepwise.instances({ ply: 5 }).map(comparable)).toEqual(fives.map(comparable));
    // and a finished re-analysis does nothing more
    const again = reanalyse(stepwise, solver, 3, 5, CLASSIFY_LIMITS);
    expect(again.stored).toBe(fives.length);
    for (const db of [reference, shallow, stepwise]) db.close();
  });

  it('the command: progress, a summary, bad depths refused in one line', async () => {
    const path = shallowFile();
    const db = await ProblemDb.open(path);
    const nearMisses = db.instances({ ply: 3, cls: 'near-miss' }).length;
    db.close();
    const run = await krieg(['db', 'reanalyse', '--db', path, '--from', '3', '--ply', '5']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${nearMisses} of ${nearMisses} 3-ply near-misses re-analysed`);
    const bad = await krieg(['db', 'reanalyse', '--db', path, '--from', '3', '--ply', '4']);
    expect(expectOneLine(bad, 2)).toMatch(/odd and deeper than 3/);
  });
});

// The shipped problem database, data/problems.sqlite (issue 7): its size and classes (acceptance
// 1), every instance re-checked against independent truth (acceptance 2; test/lib/dbCheck.ts) — a
// sample of each ply and class by default, all of them with KRIEG_DB_FULL=1 — and reproducibility:
// its first games, generated again from its stored parameters, give the same games and instances.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ProblemDb } from '../../host/db/database';
import { defaultDbPath } from '../../host/db/paths';
import { generate, type GenerateParams } from '../../host/db/generate';
import { createEngine } from '../../host/node';
import { checkInstance } from '../lib/dbCheck';

const FULL = process.env.KRIEG_DB_FULL === '1';
/** Per ply and class in the default run: the largest beliefs and an even spread of the rest. */
const SAMPLE = 15;
const REPLAYED_GAMES = 25;

let db: ProblemDb;
beforeAll(async () => { db = await ProblemDb.open(defaultDbPath()); });
afterAll(() => db?.close());

describe('the shipped problem database', () => {
  it('holds at least 500 mates and 500 near-misses at 3 ply, and the 5-ply re-analysis of the near-misses', () => {
    const count = (ply: number, cls: string) => db.counts().find((c) => c.ply === ply && c.cls === cls)?.count ?? 0;
    expect(count(3, 'mate')).toBeGreaterThanOrEqual(500);
    expect(count(3, 'near-miss')).toBeGreaterThanOrEqual(500);
    const nearMisses = db.instances({ ply: 3, cls: 'near-miss' });
    const deeper = db.instances({ ply: 5 });
    // every 3-ply near-miss has its 5-ply re-analysis (a mate or a near-miss there)
    expect(new Set(deeper.map((d) => d.sourceId))).toEqual(new Set(nearMisses.map((n) => n.id)));
    expect(db.instances().every((i) => i.beliefSize >= 2 && i.beliefSize <= 100)).toBe(true);
  });

  it(`re-checks ${FULL ? 'every instance' : `a sample of ${SAMPLE} per ply and class`} (KRIEG_DB_FULL=1: all)`, () => {
    const solver = createEngine('wasm');
    const estimator = createEngine('wasm', 1 << 16);
    let checked = 0;
    for (const ply of [3, 5]) {
      for (const cls of ['mate', 'near-miss'] as const) {
        const rows = db.instances({ ply, cls });
        const bySize = [...rows].sort((a, b) => b.beliefSize - a.beliefSize || a.id - b.id);
        const picked = FULL ? rows : [...bySize.slice(0, 2), ...Array.from({ length: SAMPLE - 2 }, (_, k) => rows[Math.floor(((k + 0.5) * rows.length) / (SAMPLE - 2))])];
        for (const row of picked) { checkInstance(db, solver, estimator, row); checked++; }
      }
    }
    expect(checked).toBe(FULL ? db.instances().length : 4 * SAMPLE);
  });

  it(`is reproducible: its first ${REPLAYED_GAMES} games generated again are the same, instances included`, async () => {
    const params = db.params<GenerateParams>();
    const again = await ProblemDb.create(undefined, params);
    const workers = {
      referee: createEngine('wasm', 1024), work: createEngine('wasm', 1 << 17), scorer: createEngine('wasm', 256), solver: createEngine('wasm'),
    };
    generate(again, workers, params, { mates: Infinity, nearMisses: Infinity, maxGames: REPLAYED_GAMES });
    expect(again.games()).toEqual(db.games().slice(0, REPLAYED_GAMES));
    const shipped = db.instances().filter((i) => i.game <= REPLAYED_GAMES);
    expect(shipped.length).toBeGreaterThan(0);
    expect(again.instances()).toEqual(shipped);
  });
});

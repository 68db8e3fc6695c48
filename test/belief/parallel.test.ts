// Information sets and beliefs on the worker pool (host/belief/parallel.node.ts) against the sequential
// walk they split: for every view — seeded random games under every preset, both sides, cut after
// every ply, and the benchmark's game — the same count, histories in the same order, the same work,
// the same positions in the same order, the same outcome (and the same failing event for a
// corrupted view); on both backends (JS, the same core source, on every 3rd view), on 2 and 3 workers,
// split at once (no sequential probe), so even small views are cut into tasks. Limits end the same
// way. Views are chosen by a work budget (the sequential walk's), never by the clock: 30,000 units
// by default (288 of the 341 views that fit 150,000, a fifth of their work), 150,000 with
// KRIEG_POOL_FULL=1.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, type BackendName } from '../../host/node';
import { preset, PRESET_NAMES } from '../../host/record/rules';
import { randomGame } from '../../host/referee/game';
import { viewOf, type GameRecord, type View } from '../../host/record/record';
import { parseKpgnGames } from '../../host/notation/kpgn';
import { estimateBelief, informationSet } from '../../host/belief/estimate';
import { estimateBeliefParallel, informationSetParallel } from '../../host/belief/parallel.node';
import { WorkerPool } from '../../host/pool/pool';
import { cut } from '../../bench/lib/plies';
import { ROOT } from '../lib/cli';

const FULL = process.env.KRIEG_POOL_FULL === '1';
/** The sequential walk's work a view may take to be compared (the small ones are the many). */
const WORK = FULL ? 150_000 : 30_000;
const MIN_VIEWS = 50;
/**
 * The views each backend walks in the tests over every view: WASM all, JS (the same core source, 2-3
 * times slower) every 3rd, still every preset and both sides on both pools (KRIEG_POOL_FULL=1: all).
 */
const EVERY: Record<BackendName, number> = FULL ? { wasm: 1, js: 1 } : { wasm: 1, js: 3 };

function plies(record: GameRecord): number {
  return record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length;
}

/** Every view of the sources, cut after every ply, both sides, whose sequential walk fits WORK. */
function views(): { name: string; view: View }[] {
  const engine = createEngine('wasm', 2);
  const records: { name: string; record: GameRecord }[] = [];
  PRESET_NAMES.forEach((name, i) => {
    for (let seed = 1; seed <= 3; seed++) {
      engine.setRules(preset(name));
      records.push({ name: `${name} seed ${seed}`, record: randomGame(engine, 100 * i + seed, { maxPlies: 9 }) });
    }
  });
  const bench = parseKpgnGames(readFileSync(`${ROOT}/bench/data/belief-plies.kpgn`, 'utf8'));
  bench.forEach((parsed, i) => {
    if (parsed.kind === 'record') records.push({ name: `belief-plies ${i + 1}`, record: parsed.record });
  });
  const out: { name: string; view: View }[] = [];
  for (const { name, record } of records) {
    for (let ply = 1; ply <= plies(record); ply++) {
      for (const as of ['white', 'black'] as const) {
        const view = viewOf(cut(record, ply), as);
        if (informationSet(engine, view, false, { work: WORK }).outcome === 'limit-work') continue;
        out.push({ name: `${name}, ply ${ply}, ${as}`, view });
      }
    }
  }
  return out;
}

const VIEWS = views();

/** Both backends' runs share the workers (a worker keeps an engine of each backend). */
const pools = [new WorkerPool(2), new WorkerPool(3)];
afterAll(() => pools.forEach((p) => p.close()));

describe.each(BACKENDS)('parallel information sets and beliefs (%s)', (backend: BackendName) => {
  const engine = createEngine(backend, 2);
  const walked = VIEWS.filter((_, i) => i % EVERY[backend] === 0);

  it(`has at least ${MIN_VIEWS} views, both sides, every preset`, () => {
    expect(walked.length).toBeGreaterThanOrEqual(MIN_VIEWS);
    expect(new Set(walked.map((v) => v.view.as))).toEqual(new Set(['white', 'black']));
    for (const name of PRESET_NAMES) expect(walked.some((v) => v.name.startsWith(`${name} `))).toBe(true);
  });

  it('counts, lists and works as the sequential walk', async () => {
    for (const [i, { name, view }] of walked.entries()) {
      const pool = pools[i % 2];
      const seq = informationSet(engine, view, true);
      const par = await informationSetParallel(engine, view, true, {
        backend,
        jobs: pool.jobs,
        pool,
        probeWork: 0,
        limits: {},
      });
      expect({ name, outcome: par.outcome, count: par.count, work: par.work, failed: par.failedEvent }).toEqual({
        name,
        outcome: seq.outcome,
        count: seq.count,
        work: seq.work,
        failed: seq.failedEvent,
      });
      expect(par.histories, name).toEqual(seq.histories);
    }
  });

  it('finds the positions of the depth-first belief, in its order', async () => {
    for (const [i, { name, view }] of walked.entries()) {
      const pool = pools[i % 2];
      const seq = estimateBelief(engine, view, 'dfs');
      const seqFens = seq.handles.map((h) => engine.fen(h));
      const par = await estimateBeliefParallel(engine, view, {
        backend,
        jobs: pool.jobs,
        pool,
        probeWork: 0,
        limits: { positions: 2_000_000 },
      });
      expect(par.outcome, name).toBe(seq.outcome);
      expect(
        par.handles.map((h) => engine.fen(h)),
        name,
      ).toEqual(seqFens);
    }
  });

  it('finds a corrupted view inconsistent at the same event', async () => {
    // the last opponent turn heard 99 Illegal answers: no position has that many illegal options
    const corrupted = VIEWS.flatMap(({ name, view }) => {
      const last = view.events.map((e) => e.type).lastIndexOf('opponent-move');
      if (last < 0 || view.events.filter((e) => e.type === 'opponent-move').length < 2) return [];
      const events = view.events.map((e, i) => (i === last ? { ...e, illegal: 99 } : e));
      return [{ name, view: { ...view, events } as View }];
    }).slice(0, 12);
    expect(corrupted.length).toBe(12);
    for (const { name, view } of corrupted) {
      const seq = informationSet(engine, view);
      expect(seq.outcome, name).toBe('inconsistent');
      const par = await informationSetParallel(engine, view, false, {
        backend,
        jobs: 2,
        pool: pools[0],
        probeWork: 0,
        limits: {},
      });
      expect({ outcome: par.outcome, failedEvent: par.failedEvent, failedPly: par.failedPly }, name).toEqual({
        outcome: seq.outcome,
        failedEvent: seq.failedEvent,
        failedPly: seq.failedPly,
      });
      const seqB = estimateBelief(engine, view, 'dfs');
      const parB = await estimateBeliefParallel(engine, view, {
        backend,
        jobs: 2,
        pool: pools[0],
        probeWork: 0,
        limits: { positions: 1000 },
      });
      expect({ outcome: parB.outcome, failedEvent: parB.failedEvent }, name).toEqual({
        outcome: seqB.outcome,
        failedEvent: seqB.failedEvent,
      });
    }
  });

  it('stops at the histories and positions limits as the sequential walk does', async () => {
    const big = VIEWS.filter(({ view }) => informationSet(engine, view).count > 50).slice(0, 5);
    expect(big.length).toBe(5);
    for (const { name, view } of big) {
      for (const limit of [1, 50]) {
        const seq = informationSet(engine, view, true, { positions: limit });
        const par = await informationSetParallel(engine, view, true, {
          backend,
          jobs: 2,
          pool: pools[0],
          probeWork: 0,
          limits: { positions: limit },
        });
        expect({ outcome: par.outcome, count: par.count, histories: par.histories }, `${name}, limit ${limit}`).toEqual(
          {
            outcome: seq.outcome,
            count: seq.count,
            histories: seq.histories,
          },
        );
        const seqB = estimateBelief(engine, view, 'dfs', { positions: limit });
        const seqFens = seqB.handles.map((h) => engine.fen(h));
        const parB = await estimateBeliefParallel(engine, view, {
          backend,
          jobs: 2,
          pool: pools[0],
          probeWork: 0,
          limits: { positions: limit },
        });
        expect(parB.outcome, `${name}, limit ${limit}`).toBe(seqB.outcome);
        expect(parB.handles.map((h) => engine.fen(h))).toEqual(seqFens);
      }
    }
  });
});

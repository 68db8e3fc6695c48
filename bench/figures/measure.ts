// bench/figures.ts, measuring: every algorithm on each instance of the sample, the long-limit
// baselines, interleaved against sequential estimation, and WASM against JS; resumable (RunStore).
import { join } from 'node:path';
import { createEngine } from '../../host/node';
import { type Engine } from '../../host/engine';
import { solve, solveView, ALGORITHMS, type Algorithm } from '../../host/solver/solve';
import { gitState, machine, progress, seconds, writeJson } from '../lib/harness';
import { sampleInstances, type BenchInstance } from '../lib/instances';
import { RunStore, PhaseProgress } from '../lib/runStore';
import {
  material,
  LONG_BELIEF,
  type Measurements,
  type Run,
  type InterleaveRun,
  type BackendRun,
  type InstanceInfo,
} from '../lib/measure';
import { flag, quick } from '../lib/args';
import {
  LIMIT_MS,
  LONG_LIMIT_MS,
  PER_CLASS,
  PLIES,
  BACKEND_PER_CLASS,
  MEMORY_MIB,
  root,
  outDir,
  databases,
  suffix,
} from './settings';

export async function measure(): Promise<Measurements> {
  const instances: BenchInstance[] = [];
  for (const path of databases) instances.push(...(await sampleInstances(path, PER_CLASS, PLIES)));
  const options = {
    limitMs: LIMIT_MS,
    longLimitMs: LONG_LIMIT_MS,
    memoryMiB: MEMORY_MIB,
    perClass: PER_CLASS,
    quick,
    databases: databases.map((p) => p.replace(`${root}/`, '')),
    ...(PLIES.join() === '3,5' ? {} : { plies: PLIES }),
  };
  const store = new RunStore(
    join(root, `.cache/figures/runs${suffix}.jsonl`),
    options,
    flag('--fresh') ? 'fresh' : 'write',
  );
  if (store.size)
    progress(`figures: resuming, ${store.size} measurements already made (${store.path}; --fresh starts over)`);
  progress(
    `figures: ${instances.length} instances from ${databases.length} database(s), 11 algorithms, limit ${seconds(LIMIT_MS)}`,
  );
  const limits = (limitMs: number) => ({ timeMs: limitMs, memoryBytes: MEMORY_MIB * 2 ** 20 });
  const engine = createEngine('wasm');
  const runOf = (e: Engine, x: BenchInstance, algorithm: Algorithm, limitMs: number): Run => {
    const r = solve(e, x.problem, algorithm, limits(limitMs));
    return {
      answer: r.answer,
      nodes: r.stats.nodes,
      positions: r.stats.positions,
      ms: r.answer === 'unknown' ? null : r.stats.ms,
      limitMs,
    };
  };
  for (const algorithm of ALGORITHMS) runOf(engine, instances[0], algorithm, 50); // warm-up

  // 1. every algorithm on every instance
  const runs: Measurements['runs'] = {};
  // measured in a shuffled (fixed) order, so that the estimate of the time left holds early on
  const order = [...instances].sort((p, q) => hash(p.key) - hash(q.key));
  let phase = new PhaseProgress('figures [solve]', instances.length, progress);
  order.forEach((x, i) => {
    let fresh = false;
    runs[x.key] = {};
    for (const algorithm of ALGORITHMS) {
      const key = `solve|${x.key}|${algorithm}`;
      fresh ||= !store.has(key);
      runs[x.key][algorithm] = store.getOrMeasure(key, () => runOf(engine, x, algorithm, LIMIT_MS));
    }
    checkAgreement(
      x,
      Object.values(runs[x.key]).map((r) => r!.answer),
    );
    phase.step(i + 1, fresh, `instances (${x.key}, ${x.ply}-ply ${x.cls}, ${x.size} positions)`);
  });

  // 2. the speed-up claims' baselines with the long limit on large beliefs
  const long: Measurements['long'] = {};
  const large = instances.filter((x) => x.size >= LONG_BELIEF);
  phase = new PhaseProgress('figures [long limit]', large.length, progress);
  large.forEach((x, i) => {
    let fresh = false;
    for (const algorithm of ['dfs', 'le-dfs'] as Algorithm[]) {
      if (runs[x.key][algorithm]!.ms !== null || LONG_LIMIT_MS <= LIMIT_MS) continue;
      const key = `long|${x.key}|${algorithm}`;
      fresh ||= !store.has(key);
      (long[x.key] ??= {})[algorithm] = store.getOrMeasure(key, () => runOf(engine, x, algorithm, LONG_LIMIT_MS));
    }
    checkAgreement(
      x,
      [...Object.values(runs[x.key]), ...Object.values(long[x.key] ?? {})].map((r) => r!.answer),
    );
    phase.step(i + 1, fresh, `large beliefs (${x.key})`);
  });

  // 3. interleaved against sequential estimation and gl-dbu, from the stored views
  const interleave: Measurements['interleave'] = {};
  const withViews = instances.filter((x) => x.view);
  phase = new PhaseProgress('figures [interleave]', withViews.length, progress);
  withViews.forEach((x, i) => {
    const key = `inter|${x.key}`;
    const fresh = !store.has(key);
    interleave[x.key] = store.getOrMeasure<InterleaveRun>(key, () => {
      const one = (interleaved: boolean) => {
        const r = solveView(engine, x.view!, x.ply, 'gl-dbu', { interleave: interleaved }, limits(LIMIT_MS));
        return { answer: r.answer, ms: r.answer === 'unknown' ? null : r.stats.ms, beliefPositions: r.beliefPositions };
      };
      return { sequential: one(false), interleaved: one(true) };
    });
    checkAgreement(x, [
      interleave[x.key].sequential.answer,
      interleave[x.key].interleaved.answer,
      runs[x.key]['gl-dbu']!.answer,
    ]);
    phase.step(i + 1, fresh, `views (${x.key})`);
  });

  // 4. WASM and JS on identical work: a sub-sample, the runs WASM answered within a tenth of the limit
  const backends: Measurements['backends'] = {};
  const pairs: [BenchInstance, Algorithm][] = [];
  for (const db of new Set(instances.map((x) => x.db))) {
    for (const set of new Set(instances.filter((x) => x.db === db).map((x) => `${x.ply}/${x.cls}`))) {
      const mine = instances.filter((x) => x.db === db && `${x.ply}/${x.cls}` === set);
      const k = Math.min(BACKEND_PER_CLASS, mine.length);
      for (let j = 0; j < k; j++) {
        const x = mine[Math.floor(((j + 0.5) * mine.length) / k)];
        for (const algorithm of ALGORITHMS) {
          const ms = runs[x.key][algorithm]!.ms;
          if (ms !== null && ms <= LIMIT_MS / 10) pairs.push([x, algorithm]);
        }
      }
    }
  }
  let js: Engine | undefined;
  phase = new PhaseProgress('figures [wasm/js]', pairs.length, progress);
  pairs.forEach(([x, algorithm], i) => {
    const key = `js|${x.key}|${algorithm}`;
    const fresh = !store.has(key);
    const pair = store.getOrMeasure<BackendRun>(key, () => {
      js ??= createEngine('js');
      runOf(js, x, algorithm, 50); // warm-up (JIT)
      const w = runOf(engine, x, algorithm, LIMIT_MS);
      const j = runOf(js, x, algorithm, LIMIT_MS * 10);
      if (w.answer !== j.answer || w.nodes !== j.nodes || w.positions !== j.positions) {
        throw new Error(
          `different work on the two backends for ${algorithm} on ${x.key}: ${JSON.stringify(w)} vs ${JSON.stringify(j)}`,
        );
      }
      return { answer: w.answer, nodes: w.nodes, positions: w.positions, wasmMs: w.ms!, jsMs: j.ms! };
    });
    (backends[x.key] ??= {})[algorithm] = pair;
    if (fresh || i + 1 === pairs.length) phase.step(i + 1, fresh, `algorithm runs (${x.key} ${algorithm})`);
  });

  const infos: InstanceInfo[] = instances.map((x) => {
    const { white, black } = material(x.problem.positions[0]);
    return {
      key: x.key,
      db: x.db,
      id: x.id,
      game: x.game,
      ply: x.ply,
      cls: x.cls,
      size: x.size,
      whitePieces: white,
      blackPieces: black,
    };
  });
  const git = gitState(root, ['assembly', 'host']);
  const m: Measurements = {
    machine: machine(),
    commit: git.commit,
    dirty: git.dirty,
    date: new Date().toISOString(),
    options,
    instances: infos,
    runs,
    long,
    interleave,
    backends,
  };
  writeJson(join(outDir, `runs${suffix}.json`), m);
  return m;
}

/** A 32-bit FNV-1a hash of a string (a fixed shuffle). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Every answer given on an instance agrees with its class (a disagreement is a solver bug: exit 1). */
function checkAgreement(x: BenchInstance, answers: string[]): void {
  const expected = x.cls === 'mate' ? 'proven' : 'disproven';
  const wrong = answers.find((a) => a !== 'unknown' && a !== expected);
  if (wrong) {
    console.error(`solver disagreement on ${x.key}: ${wrong}, stored as a ${x.cls}`);
    process.exit(1);
  }
}

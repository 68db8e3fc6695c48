// Russell & Wolfe's figures as krieg's own plots (issue 17), from one command:
//   npm run bench:figures [-- --quick] [-- --limit-ms MS] [-- --long-limit-ms MS] [-- --per-class N]
//                         [-- --db FILE …] [-- --plies 3,5,7] [-- --render-only] [-- --fresh]
// 1. solved-<db>.svg: the paper's Figure 4 — per ply and class, the percentage of instances each of
//    the 11 algorithms solves within time t (log axis), for each database;
// 2. interleave.svg: the paper's Figure 9 — interleaved against sequential estimation + gl-dbu, per
//    instance, mates and near-misses;
// 3. speedup.svg: gl-dbu's speed-up over the best black-box algorithm and over dfs against belief
//    size, per instance, with a least-squares fit (the paper's §6 analysis predicts ≈ belief size);
// 4. wasm-js.svg: WASM over the same core compiled to JS, per algorithm, on identical work.
// Each SVG has its Vega-Lite spec with the data inline beside it (*.vl.json); the measurements are
// in bench/results/figures/runs.json and the tables and the paper's claims, each marked reproduced
// or contradicted, in bench/results/figures.md (copied into docs/results.md).
//
// Measuring is resumable: every solve is appended to .cache/figures/runs[-quick].jsonl as it is
// made, and a run killed at any point continues where it stopped (--fresh starts over); progress
// with an estimate of the time left goes to stderr. --render-only redraws from runs.json.
// The sample: --per-class instances of each ply and class of each database (default 100; all of the
// initial-position database), every algorithm once with --limit-ms (default 3 s; the first run of
// each algorithm is a warm-up); dfs and le-dfs again with --long-limit-ms (20 s) on beliefs of ≥ 50
// positions where 3 s stopped them (the speed-up claims); the WASM/JS pairs on a sub-sample. The
// defaults are the committed run's: about 45 minutes on one quiet core.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../host/node';
import type { Engine } from '../host/engine';
import { solve, solveView, ALGORITHMS, type Algorithm } from '../host/solver/solve';
import {
  describeMachine,
  gitState,
  machine,
  median,
  progress,
  repoRoot,
  seconds,
  writeJson,
  writeText,
} from './lib/harness';
import { sampleInstances, dbName, type BenchInstance } from './lib/instances';
import { RunStore, PhaseProgress } from './lib/runStore';
import {
  material,
  timeOf,
  LONG_BELIEF,
  type Measurements,
  type Run,
  type InterleaveRun,
  type BackendRun,
  type InstanceInfo,
} from './lib/measure';
import {
  renderSvg,
  solvedCurvesSpec,
  curvePoints,
  interleaveSpec,
  speedupSpec,
  backendRatioSpec,
  BLACK_BOX,
  type CurvePoint,
  type InterleavePoint,
  type SpeedupPoint,
  type Fit,
  type RatioBar,
} from './lib/charts';
import { databaseArgs, flag, integerOption, option, quick } from './lib/args';

const LIMIT_MS = integerOption('--limit-ms', quick ? 300 : 3000);
const LONG_LIMIT_MS = integerOption('--long-limit-ms', quick ? 1000 : 20_000);
const PER_CLASS = integerOption('--per-class', quick ? 3 : 100);
/** The plies measured (the paper's figure: 3 and 5; the 7-ply extension with --plies 3,5,7). */
const PLIES = (option('--plies') ?? '3,5').split(',').map(Number);
/** Instances per database, ply and class measured on both backends. */
const BACKEND_PER_CLASS = quick ? 1 : 5;
const MEMORY_MIB = 1024;
const MIN_MS = 0.1; // the curves' left edge: faster solves are drawn there

const root = repoRoot();
const outDir = join(root, 'bench/results/figures');
const databases = databaseArgs(root);
const suffix = quick ? '-quick' : '';

// ---- measuring ----

async function measure(): Promise<Measurements> {
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

// ---- drawing ----

const panelName = (ply: number, cls: string) => `${ply}-ply ${cls === 'mate' ? 'mates' : 'near-misses'}`;
const ratioText = (r: number, bound = false) => `${bound ? '≥ ' : ''}${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`;

async function draw(m: Measurements): Promise<void> {
  const md: string[] = [
    "### Figures: the paper's plots, regenerated",
    '',
    `Machine: ${describeMachine(m.machine as Parameters<typeof describeMachine>[0])}; commit ${m.commit}${m.dirty ? ' (with uncommitted changes)' : ''}; ${m.date}.`,
    '',
    `\`npm run bench:figures${m.options.quick ? ' -- --quick' : ''}\`: ${m.instances.length} instances (${m.options.perClass} of each ply and class of each database, or all if fewer, evenly spread over the ids), every algorithm once on WASM with a limit of ${seconds(m.options.limitMs)} (arenas ${m.options.memoryMiB} MiB); dfs and le-dfs again with ${seconds(m.options.longLimitMs)} on beliefs of ≥ ${LONG_BELIEF} positions where the first limit stopped them. Every answer agrees with the instance's class (asserted). Each SVG has its Vega-Lite spec, data inline, beside it (\`*.vl.json\`); the measurements are in \`bench/results/figures/runs${m.options.quick ? '-quick' : ''}.json\`.`,
  ];
  const files = (name: string) => ({
    svg: join(outDir, `${name}${m.options.quick ? '-quick' : ''}.svg`),
    json: join(outDir, `${name}${m.options.quick ? '-quick' : ''}.vl.json`),
    rel: `bench/results/figures/${name}${m.options.quick ? '-quick' : ''}.svg`,
  });
  const emit = async (name: string, spec: Parameters<typeof renderSvg>[0]) => {
    const f = files(name);
    writeText(f.svg, await renderSvg(spec));
    writeJson(f.json, spec);
    return f.rel;
  };
  const dbs = [...new Set(m.instances.map((x) => x.db))];
  const time = (key: string, a: Algorithm) => m.runs[key]?.[a]?.ms ?? null;

  // 1. solved within t
  md.push('', "#### 1. Solving ability: the percentage of instances solved within time t (the paper's Figure 4)");
  const totals: Record<string, Record<string, { solved: number; within1s: number; cappedMs: number; n: number }>> = {};
  for (const db of dbs) {
    const mine = m.instances.filter((x) => x.db === db);
    const panels: string[] = [];
    const points: CurvePoint[] = [];
    const sets = [...new Set(mine.map((x) => `${x.ply}/${x.cls}`))].sort();
    for (const set of sets) {
      const [ply, cls] = [Number(set.split('/')[0]), set.split('/')[1]];
      const inSet = mine.filter((x) => x.ply === ply && x.cls === cls);
      const panel = `${panelName(ply, cls)} (${inSet.length})`;
      panels.push(panel);
      for (const a of ALGORITHMS) {
        const times = inSet.map((x) => time(x.key, a));
        points.push(...curvePoints(panel, a, times, MIN_MS, m.options.limitMs));
        const t = ((totals[`${db}|${set}`] ??= {})[a] = { solved: 0, within1s: 0, cappedMs: 0, n: inSet.length });
        for (const ms of times) {
          if (ms !== null) t.solved++;
          if (ms !== null && ms <= 1000) t.within1s++;
          t.cappedMs += ms ?? m.options.limitMs;
        }
      }
    }
    const rel = await emit(
      `solved-${db}`,
      solvedCurvesSpec(
        `${db}.sqlite: % of instances solved within time t (number of instances per panel)`,
        points,
        panels,
        m.options.limitMs,
        MIN_MS,
      ),
    );
    md.push(
      '',
      `![${db}: solved within t](${rel})`,
      '',
      `${db}.sqlite — solved within the limit (${seconds(m.options.limitMs)}) / total time, unsolved counted at the limit:`,
      '',
      `| Algorithm | ${sets.map((s) => panelName(Number(s.split('/')[0]), s.split('/')[1])).join(' | ')} |`,
      `|---|${sets.map(() => '---:').join('|')}|`,
    );
    for (const a of ALGORITHMS) {
      md.push(
        `| ${a} | ${sets
          .map((s) => {
            const t = totals[`${db}|${s}`][a];
            return `${t.solved}/${t.n}, ${seconds(t.cappedMs)}`;
          })
          .join(' | ')} |`,
      );
    }
  }

  // 2. interleaved vs sequential
  const inter: InterleavePoint[] = [];
  for (const x of m.instances) {
    const r = m.interleave[x.key];
    if (!r || r.sequential.ms === null || r.interleaved.ms === null) continue;
    inter.push({
      db: x.db,
      id: x.id,
      ply: x.ply,
      cls: x.cls,
      size: x.size,
      sequentialMs: r.sequential.ms,
      interleavedMs: r.interleaved.ms,
    });
  }
  md.push(
    '',
    "#### 2. Interleaved estimation and search against estimation, then search (gl-dbu; the paper's Figure 9)",
  );
  if (inter.length) {
    const all = inter.flatMap((p) => [p.sequentialMs, p.interleavedMs]);
    const rel = await emit(
      'interleave',
      interleaveSpec(inter, Math.max(MIN_MS, Math.min(...all) / 1.5), Math.max(...all) * 1.5),
    );
    md.push(
      '',
      `![interleaved vs sequential](${rel})`,
      '',
      'Times include the estimation from the stored view; below the diagonal, interleaving is faster.',
      '',
      '| Database | Set | Instances | Median belief | Interleaved faster on | Median speed-up (sequential / interleaved) |',
      '|---|---|---:|---:|---:|---:|',
    );
    for (const db of dbs) {
      for (const set of [...new Set(inter.filter((p) => p.db === db).map((p) => `${p.ply}/${p.cls}`))].sort()) {
        const mine = inter.filter((p) => p.db === db && `${p.ply}/${p.cls}` === set);
        md.push(
          `| ${db} | ${panelName(mine[0].ply, mine[0].cls)} | ${mine.length} | ${median(mine.map((p) => p.size))} | ${mine.filter((p) => p.interleavedMs < p.sequentialMs).length} | ${median(mine.map((p) => p.sequentialMs / p.interleavedMs)).toFixed(2)}× |`,
        );
      }
    }
  }

  // 3. speed-up against belief size
  const speedups: SpeedupPoint[] = [];
  const baselines = ['over the best black-box algorithm', 'over dfs'];
  for (const x of m.instances) {
    const g = time(x.key, 'gl-dbu');
    if (g === null) continue;
    const base = (a: Algorithm) => timeOf(m, x.key, a)!;
    const d = base('dfs');
    speedups.push({
      baseline: baselines[1],
      db: x.db,
      id: x.id,
      ply: x.ply,
      cls: x.cls,
      size: x.size,
      speedup: (d.ms ?? d.limitMs) / Math.max(g, 0.001),
      bound: d.ms === null,
    });
    const bb = BLACK_BOX.map(base);
    const answered = bb.filter((t) => t.ms !== null).map((t) => t.ms!);
    const best = answered.length ? Math.min(...answered) : Math.min(...bb.map((t) => t.limitMs));
    speedups.push({
      baseline: baselines[0],
      db: x.db,
      id: x.id,
      ply: x.ply,
      cls: x.cls,
      size: x.size,
      speedup: best / Math.max(g, 0.001),
      bound: !answered.length,
    });
  }
  const fits = baselines.map((b) =>
    fit(
      b,
      speedups.filter((p) => p.baseline === b),
    ),
  );
  md.push('', '#### 3. Incremental speed-up against belief size');
  if (speedups.length) {
    const rel = await emit(
      'speedup',
      speedupSpec(
        speedups,
        fits.filter((f) => f.n >= 3),
        baselines,
      ),
    );
    md.push(
      '',
      `![speed-up against belief size](${rel})`,
      '',
      `Per instance, time(baseline) / time(gl-dbu), both databases, every ply and class; hollow points are lower bounds (the baseline reached its limit: they enter the fit at the bound). Fits of log speed-up on log belief size (least squares): ${fits.map((f) => `${f.baseline}: speed-up ∝ size^${f.slope.toFixed(2)} ± ${(1.96 * f.se).toFixed(2)} (95%, n = ${f.n})`).join('; ')}.`,
    );
  }
  md.push(...speedupClaim(m, speedups));

  // 4. WASM / JS
  const bars: RatioBar[] = [];
  for (const a of ALGORITHMS) {
    const rs = Object.values(m.backends)
      .map((b) => b[a])
      .filter((r): r is BackendRun => r !== undefined);
    if (!rs.length) continue;
    bars.push({
      algorithm: a,
      ratio: rs.reduce((s, r) => s + r.jsMs, 0) / rs.reduce((s, r) => s + r.wasmMs, 0),
      problems: rs.length,
    });
  }
  md.push('', '#### 4. WASM against JS, per algorithm');
  if (bars.length) {
    const rel = await emit('wasm-js', backendRatioSpec(bars));
    md.push(
      '',
      `![WASM vs JS](${rel})`,
      '',
      `Total JS time / total WASM time per algorithm over the same runs (${BACKEND_PER_CLASS} instances of each database, ply and class, the runs WASM finished within a tenth of the limit), measured in one process; nodes and positions identical on both backends (asserted): ${bars.map((b) => `${b.algorithm} ${b.ratio.toFixed(2)}× (${b.problems})`).join(', ')}.`,
    );
  }

  md.push(...claims(m, totals, inter, fits, dbs));
  // the per-instance points are in the specs (*.vl.json); here the summaries
  writeJson(join(outDir, `figures${m.options.quick ? '-quick' : ''}.json`), { totals, fits, bars });
  const name = m.options.quick ? 'figures-quick' : 'figures';
  writeText(join(root, `bench/results/${name}.md`), md.join('\n'));
  console.log(md.join('\n'));
}

/** Least-squares fit of log speed-up on log size, with the slope's standard error. */
function fit(baseline: string, points: SpeedupPoint[]): Fit & { se: number } {
  const xs = points.map((p) => Math.log(p.size));
  const ys = points.map((p) => Math.log(Math.max(p.speedup, 1e-6)));
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  const slope = sxx > 0 ? xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / sxx : 0;
  const intercept = my - slope * mx;
  const residual = ys.reduce((s, y, i) => s + (y - intercept - slope * xs[i]) ** 2, 0);
  const se = n > 2 && sxx > 0 ? Math.sqrt(residual / (n - 2) / sxx) : Infinity;
  const sizes = points.map((p) => p.size);
  return { baseline, slope, intercept, n, se, from: Math.min(...sizes), to: Math.max(...sizes) };
}

const BINS: [number, number][] = [
  [1, 1],
  [2, 3],
  [4, 9],
  [10, 24],
  [25, 49],
  [50, 100],
  [101, Infinity],
];

/** Acceptance 4 of issue 17: the speed-up as the paper states it, on beliefs of ≥ 50 positions. */
function speedupClaim(m: Measurements, points: SpeedupPoint[]): string[] {
  const md = [
    '',
    `The paper's abstract: the black-box algorithms beat the naive one by two or more orders of magnitude, and incrementalization gains one or more over its black-box counterpart. Here, on the instances with beliefs of ≥ ${LONG_BELIEF} positions (dfs and le-dfs with the long limit, ${seconds(m.options.longLimitMs)}; ≥: some baseline runs reached it, so the median is a lower bound):`,
    '',
    '| Set | Instances | Median belief | gl-dbu over dfs (median) | gl-dbu over le-dfs (median) | gl-dbu over the best black-box (median) |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const large = m.instances.filter((x) => x.size >= LONG_BELIEF && m.runs[x.key]?.['gl-dbu']?.ms != null);
  const ratio = (x: InstanceInfo, a: Algorithm) => {
    const t = timeOf(m, x.key, a)!;
    return { r: (t.ms ?? t.limitMs) / Math.max(m.runs[x.key]['gl-dbu']!.ms!, 0.001), bound: t.ms === null };
  };
  const medianOf = (rs: { r: number; bound: boolean }[]) => {
    if (!rs.length) return '—';
    const sorted = [...rs].sort((a, b) => a.r - b.r);
    const mid = sorted[Math.floor((sorted.length - 1) / 2)];
    // the median is a lower bound when a bound lies at or below it
    const bound = sorted.slice(0, Math.floor((sorted.length - 1) / 2) + 1).some((x) => x.bound) || mid.bound;
    return ratioText(median(rs.map((x) => x.r)), bound);
  };
  const groups: [string, InstanceInfo[]][] = [
    ['all', large],
    ...[...new Set(large.map((x) => `${x.ply}/${x.cls}`))]
      .sort()
      .map(
        (s) =>
          [panelName(Number(s.split('/')[0]), s.split('/')[1]), large.filter((x) => `${x.ply}/${x.cls}` === s)] as [
            string,
            InstanceInfo[],
          ],
      ),
  ];
  for (const [name, xs] of groups) {
    const best = points
      .filter((p) => p.baseline.startsWith('over the best') && xs.some((x) => x.db === p.db && x.id === p.id))
      .map((p) => ({ r: p.speedup, bound: p.bound }));
    md.push(
      `| ${name} | ${xs.length} | ${xs.length ? median(xs.map((x) => x.size)) : '—'} | ${medianOf(xs.map((x) => ratio(x, 'dfs')))} | ${medianOf(xs.map((x) => ratio(x, 'le-dfs')))} | ${medianOf(best)} |`,
    );
  }
  md.push(
    '',
    'gl-dbu over the best black-box algorithm per belief-size bin (every instance, median; no target):',
    '',
    '| Belief size | Instances | Median speed-up | Fastest black-box (most often) |',
    '|---|---:|---:|---|',
  );
  for (const [lo, hi] of BINS) {
    const mine = points.filter((p) => p.baseline.startsWith('over the best') && p.size >= lo && p.size <= hi);
    if (!mine.length) continue;
    const counts = new Map<string, number>();
    for (const p of mine) {
      const times = BLACK_BOX.map((a) => ({ a, t: timeOf(m, `${p.db}:${p.id}`, a)!.ms }));
      const answered = times.filter((t) => t.t !== null).sort((a, b) => a.t! - b.t!);
      const a = answered[0]?.a ?? 'none';
      counts.set(a, (counts.get(a) ?? 0) + 1);
    }
    const top = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    md.push(
      `| ${lo === hi ? lo : hi === Infinity ? `${lo}+` : `${lo}–${hi}`} | ${mine.length} | ${medianOf(mine.map((p) => ({ r: p.speedup, bound: p.bound })))} | ${top} |`,
    );
  }
  return md;
}

type Totals = Record<string, Record<string, { solved: number; within1s: number; cappedMs: number; n: number }>>;

/** The paper's qualitative claims, each judged on the measurements, with the figure that shows it. */
function claims(
  m: Measurements,
  totals: Totals,
  inter: InterleavePoint[],
  fits: (Fit & { se: number })[],
  dbs: string[],
): string[] {
  const md = [
    '',
    "#### The paper's claims, checked",
    '',
    '| Claim (Russell & Wolfe 2005) | Verdict | Evidence | Figure |',
    '|---|---|---|---|',
  ];
  const cells = Object.entries(totals);
  const sum = (
    db: string,
    a: string,
    f: (t: Totals[string][string]) => number,
    filter: (set: string) => boolean = () => true,
  ) => cells.filter(([k]) => k.startsWith(`${db}|`) && filter(k.split('|')[1])).reduce((s, [, t]) => s + f(t[a]), 0);
  const fig1 = dbs.map((db) => `solved-${db}${m.options.quick ? '-quick' : ''}.svg`).join(', ');
  const verdict = (ok: boolean, partly = false) => (ok ? 'reproduced' : partly ? 'partly reproduced' : 'contradicted');
  // DFS slowest
  const slowest = cells.map(([k, t]) => ({
    k,
    a: Object.entries(t).sort((p, q) => q[1].cappedMs - p[1].cappedMs)[0][0],
  }));
  const dfsSlowest = slowest.filter((s) => s.a === 'dfs').length;
  md.push(
    `| DFS is by far the slowest | ${verdict(dfsSlowest === slowest.length, dfsSlowest * 2 >= slowest.length)} | dfs has the largest total time in ${dfsSlowest} of ${slowest.length} panels${
      dfsSlowest < slowest.length
        ? ` (elsewhere: ${slowest
            .filter((s) => s.a !== 'dfs')
            .map((s) => `${s.a} on ${s.k.replace('|', ' ')}`)
            .join(', ')})`
        : ''
    } | ${fig1} |`,
  );
  for (const [a, claim] of [
    ['l-dfs', 'L-DFS is considerably faster than DFS (legal-first)'],
    ['pns', 'PNS is much faster than DFS'],
  ] as const) {
    const ratios = dbs.map((db) => ({ db, r: sum(db, 'dfs', (t) => t.cappedMs) / sum(db, a, (t) => t.cappedMs) }));
    md.push(
      `| ${claim} | ${verdict(
        ratios.every((x) => x.r >= 2),
        ratios.some((x) => x.r >= 2),
      )} | total time dfs / ${a}: ${ratios.map((x) => `${ratioText(x.r)} (${x.db})`).join(', ')} (≥ 2× counted as "much") | ${fig1} |`,
    );
  }
  // GL-DBU best overall
  const ranks = dbs.map((db) => {
    const order = ALGORITHMS.map((a) => ({
      a,
      solved: sum(db, a, (t) => t.solved),
      ms: sum(db, a, (t) => t.cappedMs),
    })).sort((p, q) => q.solved - p.solved || p.ms - q.ms);
    return { db, rank: order.findIndex((o) => o.a === 'gl-dbu') + 1, best: order[0] };
  });
  md.push(
    `| GL-DBU has the highest solving ability overall | ${verdict(
      ranks.every((r) => r.rank === 1),
      ranks.some((r) => r.rank <= 3),
    )} | rank of gl-dbu by instances solved, then total time: ${ranks.map((r) => `${r.rank} on ${r.db}${r.rank > 1 ? ` (first: ${r.best.a}, ${r.best.solved} solved, ${seconds(r.best.ms)})` : ''}`).join('; ')} | ${fig1} |`,
  );
  // IPNS best on mates, behind on near-misses
  const ipns = dbs.flatMap((db) =>
    cells
      .filter(([k]) => k.startsWith(`${db}|`))
      .map(([k, t]) => {
        const order = Object.entries(t)
          .sort((p, q) => q[1].solved - p[1].solved || p[1].cappedMs - q[1].cappedMs)
          .map(([a]) => a);
        return {
          set: k.replace('|', ' '),
          mate: k.endsWith('/mate'),
          first: order[0],
          rank: order.indexOf('ipns') + 1,
        };
      }),
  );
  const mates = ipns.filter((x) => x.mate);
  const misses = ipns.filter((x) => !x.mate);
  const ipnsOk = mates.filter((x) => x.rank === 1).length;
  const behind = misses.filter((x) => x.rank > 1).length;
  md.push(
    `| IPNS is by far the best on mates, behind the depth-first incremental ones on near-misses | ${verdict(ipnsOk === mates.length && behind === misses.length, ipnsOk + behind > 0)} | ipns first on ${ipnsOk} of ${mates.length} mate panels (${mates.map((x) => `${x.set}: rank ${x.rank}`).join(', ')}); behind on ${behind} of ${misses.length} near-miss panels | ${fig1} |`,
  );
  // interleaving
  const med = (cls: string) => {
    const xs = inter.filter((p) => p.cls === cls);
    return xs.length ? median(xs.map((p) => p.sequentialMs / p.interleavedMs)) : NaN;
  };
  const nm = med('near-miss');
  const ma = med('mate');
  md.push(
    `| Interleaving estimation with search helps on near-misses, not on mates | ${verdict(nm > 1.1 && ma < 1.1 && ma > 0.9, nm > ma)} | median speed-up of interleaving: near-misses ${nm.toFixed(2)}×, mates ${ma.toFixed(2)}× (helps: > 1.1×) | interleave${m.options.quick ? '-quick' : ''}.svg |`,
  );
  // speed-up grows with belief size
  md.push(
    `| The incremental speed-up grows with belief size (≈ the belief size, §6) | ${verdict(
      fits.every((f) => f.slope - 1.96 * f.se > 0),
      fits.some((f) => f.slope > 0),
    )} | fitted exponents: ${fits.map((f) => `${f.baseline} ${f.slope.toFixed(2)} ± ${(1.96 * f.se).toFixed(2)}`).join('; ')} (the paper's model predicts about 1 over the black-box counterpart) | speedup${m.options.quick ? '-quick' : ''}.svg |`,
  );
  return md;
}

// ---- main (after every declaration: the bundle runs top to bottom) ----

const measurements = flag('--render-only')
  ? (JSON.parse(readFileSync(join(outDir, `runs${suffix}.json`), 'utf8')) as Measurements)
  : await measure();
await draw(measurements);

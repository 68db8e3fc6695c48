// Scaling on the worker pool (issue 15): speed-up and efficiency on 1 and 2 workers — all this
// machine has — for information sets and depth-first beliefs of growing size, database generation
// and matches; then a model fitted on those runs that predicts 16, 64 and 1,024 workers, and the
// same model set against Gupta, Richards & Sarood 2010 (Table 2: 4,495,121 histories, 1,524 s on
// one processor, 2.64 s on 1,024).
//
// The model. A split run is the main thread's walk above the frontier (serial: measured), then
// the tasks on P workers from one shared queue: each worker takes the next task when it is free
// (as host/pool/pool.ts does), a task costing work_i / rate + c. The task works are the real ones
// (deterministic: the core counts work units), at every frontier turn 1 … 4; the rate is the
// sequential run's (work units per second); the per-task overhead c (messages, the view loaded,
// the result copied) is fitted on the 1-worker pool run and checked on the 2-worker run; the
// start-up u (a worker's thread, its engine, the WASM compiled) is measured with ping tasks. The
// prediction for P workers is u + frontier + the makespan of that list schedule, at the frontier
// turn that makes it shortest (Gupta's grain-size sweet spot). For Gupta's machine the task works
// of krieg's largest view (6.06 M histories) are scaled to their 1,524 s, and their serial part and per-task
// overhead fitted on their 2–16 processor times; 32–1,024 are predictions, set beside theirs.
//
// Usage: npm run bench:parallel [-- --quick]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type BackendName } from '../host/node';
import { viewOf, type GameRecord, type View } from '../host/record/record';
import { parseKpgnGames } from '../host/notation/kpgn';
import { depthFirstInformationSet, informationSet, estimateBelief } from '../host/belief/estimate';
import { informationSetParallel, estimateBeliefParallel, type SplitTrace } from '../host/belief/parallel.node';
import { WorkerPool } from '../host/pool/pool';
import { ProblemDb } from '../host/db/database.node';
import { generate, generateOnPool, selfPlayWorkers, DEFAULT_PARAMS } from '../host/db/generate.node';
import { runMatch, type MatchParams } from '../host/players/match.node';
import { parsePlayerSpec } from '../host/players/registry';
import { preset } from '../host/record/rules';
import { cut } from './lib/plies';
import { describeMachine, gitState, group, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';
import {
  CEILING_FLAG,
  ceilingChild,
  measureCeiling,
  type Ceiling,
  type Workload as CeilingWorkload,
} from './lib/ceiling';

const quick = process.argv.includes('--quick');
const root = repoRoot();
const backend: BackendName = 'wasm';
const m = machine();
const loads: number[][] = [];
const largest = (xs: number[]) => xs.reduce((a, x) => (x > a ? x : a), 0);
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
const loadAvg = () =>
  process.platform === 'linux' ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number) : [];
loads.push(loadAvg());

const games = parseKpgnGames(readFileSync(join(root, 'bench/data/belief-plies.kpgn'), 'utf8')).flatMap((p) =>
  p.kind === 'record' ? [p.record] : [],
);
const viewAt = (game: number, ply: number, as: 'white' | 'black'): View =>
  viewOf(cut(games[game] as GameRecord, ply), as);

// ---- a ceiling child (bench/lib/ceiling.ts): this bundle run again with one workload to time ----
const DB_PARAMS = { ...DEFAULT_PARAMS, seed: 3 };
function ceilingWorkload([kind, ...rest]: string[]): CeilingWorkload {
  if (kind === 'infoset') {
    const engine = createEngine(backend, 2);
    const view = viewAt(Number(rest[0]), Number(rest[1]), rest[2] as 'white' | 'black');
    return () => depthFirstInformationSet(engine, view);
  }
  const workers = selfPlayWorkers(backend);
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'krieg-bench-ceiling-'));
    const db = await ProblemDb.create(join(dir, 'db.sqlite'), DB_PARAMS);
    generate(db, workers, DB_PARAMS, { mates: Infinity, nearMisses: Infinity, maxGames: Number(rest[0]) });
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
if (process.argv[2] === CEILING_FLAG) {
  await ceilingChild(ceilingWorkload(process.argv.slice(3)));
  process.exit(0);
}
/** The machine's ceiling for `workload` (two processes at once against one alone), with progress. */
async function ceiling(workload: string[]): Promise<Ceiling> {
  const c = await measureCeiling(process.argv[1]!, workload);
  progress(
    `parallel: ceiling ${workload.join(' ')}: ${(c.aloneMs / 1000).toFixed(2)} s alone, ${(c.togetherMs / 1000).toFixed(2)} s two at once (×${c.speedup.toFixed(2)})`,
  );
  return c;
}

interface Workload {
  kind: 'infoset' | 'belief' | 'db generate' | 'match';
  name: string;
  size: string;
  t1: number;
  t2: number;
  speedup: number;
  efficiency: number;
  cpu2: number;
  /** The machine's ceiling for this work: two independent processes at once (bench/lib/ceiling.ts). */
  ceiling?: Ceiling;
  note: string;
}
const rows: Workload[] = [];

/** Wall time of `fn` and the CPU time of the whole process (every thread) while it ran. */
async function clock<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, ms, cpuMs: (c.user + c.system) / 1000 };
}

function row(
  kind: Workload['kind'],
  name: string,
  size: string,
  t1: number,
  t2: number,
  cpu2: number,
  note = '',
  ceiling?: Ceiling,
) {
  const speedup = t1 / t2;
  rows.push({ kind, name, size, t1, t2, speedup, efficiency: speedup / 2, cpu2, ceiling, note });
  progress(
    `parallel: ${kind} ${name}: ${(t1 / 1000).toFixed(2)} s → ${(t2 / 1000).toFixed(2)} s on 2 (×${speedup.toFixed(2)})`,
  );
}

// ---- start-up: P workers each answering one ping ----
async function startUp(p: number): Promise<number> {
  const { ms } = await clock(async () => {
    const pool = new WorkerPool(p);
    await pool.run(
      'ping',
      Array.from({ length: p }, (_, i) => i),
      { onResult: () => {} },
    );
    pool.close();
  });
  return ms;
}
const startupMs = { 1: await startUp(1), 2: await startUp(2) };

// ---- information sets and beliefs ----
const engine = createEngine(backend, 2);
const INFOSETS: { game: number; ply: number; as: 'white' | 'black' }[] = quick
  ? [
      { game: 0, ply: 8, as: 'white' },
      { game: 1, ply: 14, as: 'white' },
    ]
  : [
      { game: 0, ply: 8, as: 'white' },
      { game: 1, ply: 14, as: 'white' },
      { game: 0, ply: 11, as: 'black' },
      { game: 0, ply: 10, as: 'white' },
      { game: 0, ply: 12, as: 'white' }, // 6.06 M histories: past Gupta et al.'s 4.5 M, the model's fit
    ];
const label = (v: { game: number; ply: number; as: string }) =>
  `${v.game === 0 ? 'berkeley' : 'restricted'} ply ${v.ply} ${v.as}`;

interface Fit {
  view: string;
  histories: number;
  work: number;
  t1: number;
  rate: number;
  pool1: number;
  measured2: number;
  trace: SplitTrace;
  levels: { level: number; frontierMs: number; taskWork: number[] }[];
}
let fit: Fit | undefined;

for (const v of INFOSETS) {
  const view = viewAt(v.game, v.ply, v.as);
  // the pool splits the depth-first walk (what `infoset --list --jobs N` runs), so its one-worker
  // baseline is that walk; `infoset --count` counts with multiplicities on one thread instead
  const seq = await clock(() => depthFirstInformationSet(engine, view));
  const counted = await clock(() => informationSet(engine, view));
  if (counted.value.count !== seq.value.count)
    throw new Error(`${label(v)}: counted ${counted.value.count} histories, walked ${seq.value.count}`);
  const trace: SplitTrace = { level: 0, frontierWork: 0, frontierMs: 0, taskWork: [] };
  const par = await clock(() =>
    informationSetParallel(engine, view, false, { backend, jobs: 2, probeWork: 0, limits: {}, trace }),
  );
  if (par.value.count !== seq.value.count || par.value.work !== seq.value.work)
    throw new Error(
      `${label(v)}: parallel ${par.value.count} histories (work ${par.value.work}), sequential ${seq.value.count} (work ${seq.value.work})`,
    );
  row(
    'infoset',
    label(v),
    `${group(seq.value.count)} histories`,
    seq.ms,
    par.ms,
    par.cpuMs,
    `${trace.taskWork.length} tasks at opponent turn ${trace.level}; frontier ${trace.frontierMs.toFixed(0)} ms; counted with multiplicities on one thread (\`infoset --count\`) in ${(counted.ms / 1000).toFixed(2)} s`,
    await ceiling(['infoset', String(v.game), String(v.ply), v.as]),
  );
  if (v === INFOSETS[INFOSETS.length - 1]) {
    // the model's fit: the 1-worker pool on a pool started beforehand, the frontier cut at turns 1 … 4
    const pool = new WorkerPool(1);
    await pool.run('ping', [0], { onResult: () => {} });
    const one: SplitTrace = { level: 0, frontierWork: 0, frontierMs: 0, taskWork: [] };
    const pool1 = await clock(() =>
      informationSetParallel(engine, view, false, { backend, jobs: 1, pool, probeWork: 0, limits: {}, trace: one }),
    );
    pool.close();
    const levels: Fit['levels'] = [];
    const two = new WorkerPool(2);
    for (let level = 1; level <= (quick ? 2 : 4); level++) {
      const t: SplitTrace = { level: 0, frontierWork: 0, frontierMs: 0, taskWork: [] };
      await informationSetParallel(engine, view, false, {
        backend,
        jobs: 2,
        pool: two,
        probeWork: 0,
        frontier: level,
        limits: {},
        trace: t,
      });
      levels.push({ level, frontierMs: t.frontierMs, taskWork: t.taskWork });
      progress(`parallel: model: turn ${level}, ${t.taskWork.length} tasks`);
    }
    two.close();
    fit = {
      view: label(v),
      histories: seq.value.count,
      work: seq.value.work,
      t1: seq.ms,
      rate: seq.value.work / (seq.ms / 1000),
      pool1: pool1.ms,
      measured2: par.ms,
      trace: one,
      levels,
    };
  }
}
loads.push(loadAvg());

const BELIEFS = quick ? INFOSETS.slice(0, 1) : INFOSETS.slice(0, 3);
for (const v of BELIEFS) {
  const view = viewAt(v.game, v.ply, v.as);
  estimateBelief(engine, view, 'dfs'); // the arena grown once, as the parallel run finds it
  const seq = await clock(() => estimateBelief(engine, view, 'dfs'));
  const count = seq.value.handles.length;
  const par = await clock(() =>
    estimateBeliefParallel(engine, view, { backend, jobs: 2, limits: { positions: 2_000_000 } }),
  );
  if (par.value.handles.length !== count) throw new Error(`${label(v)}: belief ${par.value.handles.length} ≠ ${count}`);
  row(
    'belief',
    label(v),
    `${group(count)} positions`,
    seq.ms,
    par.ms,
    par.cpuMs,
    `work ${group(seq.value.work)} sequential, ${group(par.value.work)} split (positions reached in two tasks are followed in both)`,
  );
}
loads.push(loadAvg());

// ---- database generation ----
{
  const dir = mkdtempSync(join(tmpdir(), 'krieg-bench-parallel-'));
  const gamesN = quick ? 12 : 96; // enough games that the last ones to finish (the longest) leave little idle time
  const params = DB_PARAMS;
  const targets = { mates: Infinity, nearMisses: Infinity, maxGames: gamesN };
  const workers = selfPlayWorkers(backend);
  const a = await ProblemDb.create(join(dir, 'one.sqlite'), params);
  const seq = await clock(() => generate(a, workers, params, targets));
  const b = await ProblemDb.create(join(dir, 'two.sqlite'), params);
  const par = await clock(() => generateOnPool(b, workers, params, targets, { backend, jobs: 2 }));
  if (JSON.stringify(a.instances()) !== JSON.stringify(b.instances())) throw new Error('db generate: instances differ');
  const instances = a.instances().length;
  a.close();
  b.close();
  rmSync(dir, { recursive: true, force: true });
  row(
    'db generate',
    `${gamesN} games, endgames`,
    `${instances} instances`,
    seq.ms,
    par.ms,
    par.cpuMs,
    '',
    await ceiling(['db', String(gamesN / 2)]),
  );
}
loads.push(loadAvg());

// ---- matches ----
for (const [first, second, n, nodes] of [
  ['random', 'random', quick ? 40 : 100, undefined],
  ['los', 'random', 4, 2000],
] as const) {
  const dir = mkdtempSync(join(tmpdir(), 'krieg-bench-parallel-'));
  const params: MatchParams = {
    players: [parsePlayerSpec(first), parsePlayerSpec(second)],
    games: n,
    seed: 1,
    rules: preset('berkeley'),
    maxPlies: 200,
    backend,
    ...(nodes ? { nodes } : {}),
  };
  const seq = await clock(() => runMatch(params, join(dir, 'one.kpgn'), 1));
  const par = await clock(() => runMatch(params, join(dir, 'two.kpgn'), 2));
  if (readFileSync(join(dir, 'one.kpgn'), 'utf8') !== readFileSync(join(dir, 'two.kpgn'), 'utf8'))
    throw new Error(`match ${first} v ${second}: the files differ`);
  rmSync(dir, { recursive: true, force: true });
  const perGame = seq.ms / n;
  row(
    'match',
    `${first} v ${second}${nodes ? `, ${nodes} nodes a move` : ''}`,
    `${n} games`,
    seq.ms,
    par.ms,
    par.cpuMs,
    `${perGame.toFixed(1)} ms a game`,
  );
}
loads.push(loadAvg());

// ---- the model ----

/** The makespan of tasks (ms each) on p workers taking the next task when free (the pool's shared queue). */
function makespan(tasks: number[], p: number): number {
  if (p >= tasks.length) return largest(tasks);
  // a binary heap of the workers' free times
  const heap = new Float64Array(p);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let s = i;
      if (l < p && heap[l] < heap[s]) s = l;
      if (r < p && heap[r] < heap[s]) s = r;
      if (s === i) return;
      [heap[i], heap[s]] = [heap[s], heap[i]];
      i = s;
    }
  };
  for (const t of tasks) {
    heap[0] += t;
    down(0);
  }
  return Math.max(...heap);
}

const f = fit!;
const msPerWork = 1000 / f.rate;
const taskMs = f.trace.taskWork.reduce((a, w) => a + w, 0) * msPerWork;
const overhead = Math.max(0, (f.pool1 - f.trace.frontierMs - taskMs) / f.trace.taskWork.length);
const startup = startupMs[2];
function predict(p: number, perTask: number, serial: (level: { frontierMs: number }) => number, scale = msPerWork) {
  let best = { ms: Infinity, level: 0, tasks: 0 };
  for (const level of f.levels) {
    const ms =
      serial(level) +
      makespan(
        level.taskWork.map((w) => w * scale + perTask),
        p,
      );
    if (ms < best.ms) best = { ms, level: level.level, tasks: level.taskWork.length };
  }
  return best;
}
const here = (p: number) => predict(p, overhead, (level) => startup + level.frontierMs);
const PS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
const model = PS.map((p) => {
  const x = here(p);
  return { p, ms: x.ms, speedup: f.t1 / x.ms, efficiency: f.t1 / x.ms / p, level: x.level, tasks: x.tasks };
});

// Gupta et al. 2010, Table 2
const GUPTA: [number, number][] = [
  [1, 1524],
  [2, 812],
  [4, 407],
  [8, 208],
  [16, 102],
  [32, 53.2],
  [64, 28.0],
  [128, 14.9],
  [256, 7.7],
  [512, 4.59],
  [1024, 2.64],
];
const GUPTA_HISTORIES = 4_495_121;
const guptaScale = (1524 * 1000) / f.work; // their ms per krieg work unit on this view's tree shape
let guptaFit = { serial: 0, perTask: 0, err: Infinity };
// the makespan part does not depend on the serial part: computed once per overhead (levels of at most 4,096 tasks serve 2–16 processors)
const fitPoints = GUPTA.filter(([p]) => p >= 2 && p <= 16);
for (const perTask of Array.from({ length: 81 }, (_, i) => (i === 0 ? 0 : 0.01 * 10 ** (i / 16)))) {
  const spans = fitPoints.map(([p]) =>
    Math.min(
      ...f.levels
        .filter((l) => l.taskWork.length <= 4096)
        .map((l) =>
          makespan(
            l.taskWork.map((w) => w * guptaScale + perTask),
            p,
          ),
        ),
    ),
  );
  for (let serial = 0; serial <= 5000; serial += 25) {
    const err = fitPoints.reduce((e, [, t], i) => e + Math.log((serial + spans[i]) / 1000 / t) ** 2, 0);
    if (err < guptaFit.err) guptaFit = { serial, perTask, err };
  }
}
const gupta = GUPTA.map(([p, reported]) => {
  const x = predict(p, guptaFit.perTask, () => guptaFit.serial, guptaScale);
  return { p, reported, predicted: x.ms / 1000, level: x.level, tasks: x.tasks, error: x.ms / 1000 / reported - 1 };
});

// ---- results ----
const git = gitState(root, ['assembly', 'host', 'bench']);
const stamp = new Date().toISOString();
const result = {
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date: stamp,
  loads,
  quick,
  startupMs,
  workloads: rows,
  fit: {
    view: f.view,
    histories: f.histories,
    work: f.work,
    sequentialMs: f.t1,
    rate: f.rate,
    pool1Ms: f.pool1,
    frontierMs: f.trace.frontierMs,
    tasks: f.trace.taskWork.length,
    perTaskOverheadMs: overhead,
    startupMs: startup,
    measured2Ms: f.measured2,
    predicted2Ms: here(2).ms,
    levels: f.levels.map((l) => ({
      level: l.level,
      tasks: l.taskWork.length,
      frontierMs: l.frontierMs,
      largestTaskShare: largest(l.taskWork) / sum(l.taskWork),
    })),
  },
  model,
  gupta: { histories: GUPTA_HISTORIES, serialS: guptaFit.serial / 1000, perTaskMs: guptaFit.perTask, rows: gupta },
};
writeJson(join(root, 'bench/results/parallel.json'), result);

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const md: string[] = [];
md.push('### Scaling on the worker pool');
md.push('');
md.push(`Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (dirty)' : ''}; ${stamp}.`);
md.push(
  `Load average (1 min) at the start, after the information sets, beliefs, db generation, matches: ${loads.map((l) => l[0]).join(', ')} — on ${m.cores} cores, a load above ~${m.cores - 1} means other work shared the processors: the 2-worker times are then not a speed-up measurement; re-run on a quiet machine.`,
);
md.push('');
md.push('| Workload | Size | 1 worker | 2 workers | Speed-up | Efficiency | CPU on 2 | Machine ceiling | Note |');
md.push('|---|---|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows)
  md.push(
    `| ${r.kind}: ${r.name} | ${r.size} | ${s(r.t1)} | ${s(r.t2)} | ${r.speedup.toFixed(2)}× | ${(r.efficiency * 100).toFixed(0)}% | ${s(r.cpu2)} | ${r.ceiling ? `${r.ceiling.speedup.toFixed(2)}×` : '—'} | ${r.note} |`,
  );
md.push('');
md.push(
  `1 worker = the sequential path (\`--jobs 1\`); 2 workers = the pool, worker start-up included (${startupMs[2].toFixed(0)} ms for 2 workers, ${startupMs[1].toFixed(0)} ms for 1, measured with ping tasks). Every parallel answer was checked equal to the sequential one (counts and work; instances; match files byte for byte). Machine ceiling = 2 × (one process alone) / (the slower of two processes at once), the same sequential work warm in separate processes (bench/lib/ceiling.ts: information sets the whole walk twice, db generation ${quick ? 6 : 48} games twice): what the two processors of this machine give two independent computations, the most any 2-worker pool can reach for that work here.`,
);
md.push('');
md.push(`#### Model (fitted on the largest, ${f.view}: ${group(f.histories)} histories, ${group(f.work)} work units)`);
md.push('');
md.push(
  `Rate ${group(Math.round(f.rate))} work units/s (the sequential run); frontier walk ${f.trace.frontierMs.toFixed(0)} ms (serial); per-task overhead c = ${overhead.toFixed(2)} ms fitted on the 1-worker pool (${s(f.pool1)}, ${f.trace.taskWork.length} tasks); start-up ${startup.toFixed(0)} ms. Check: 2 workers predicted ${s(here(2).ms)}, measured ${s(f.measured2)}. Task sizes per frontier turn: ${f.levels.map((l) => `turn ${l.level}: ${l.taskWork.length} tasks, the largest ${((largest(l.taskWork) / sum(l.taskWork)) * 100).toFixed(1)}% of the work`).join('; ')}.`,
);
md.push('');
md.push('| Workers | Predicted time | Speed-up | Efficiency | Frontier turn (tasks) |');
md.push('|---:|---:|---:|---:|---|');
for (const r of model.filter((r) => [1, 2, 16, 64, 1024].includes(r.p)))
  md.push(
    `| ${r.p} | ${s(r.ms)} | ${r.speedup.toFixed(1)}× | ${(r.efficiency * 100).toFixed(0)}% | ${r.level} (${r.tasks}) |`,
  );
md.push('');
md.push(
  `Predictions, not measurements (this machine has ${m.cores} cores). They assume start-up does not grow with the workers and that memory bandwidth does not bind.`,
);
md.push('');
md.push('#### Against Gupta, Richards & Sarood 2010 (Table 2)');
md.push('');
md.push(
  `Their instance: the 10th ply of their example game, ${group(GUPTA_HISTORIES)} histories, 1,524 s on 1 processor, 2.64 s on 1,024. The model with the task sizes of krieg's largest view (${f.view}, the 12th ply) scaled to their 1,524 s, and a serial part (${(guptaFit.serial / 1000).toFixed(2)} s) and per-task overhead (${guptaFit.perTask.toPrecision(3)} ms) fitted on their 2–16 processor times; 32 and up are predictions. krieg on this machine: ${group(f.histories)} histories in ${s(f.t1)} on 1 worker, ${s(f.measured2)} on 2.`,
);
md.push('');
md.push('| Processors | Reported | Model | Error | Frontier turn (tasks) |');
md.push('|---:|---:|---:|---:|---|');
for (const r of gupta)
  md.push(
    `| ${r.p} | ${r.reported} s | ${r.predicted.toFixed(2)} s | ${r.error >= 0 ? '+' : ''}${(r.error * 100).toFixed(0)}% | ${r.level} (${r.tasks}) |`,
  );
writeText(join(root, 'bench/results/parallel.md'), md.join('\n') + '\n');

// ---- the plot: speed-up against workers, log-log ----
{
  const W = 640;
  const H = 420;
  const L = 60;
  const B = 50;
  const x = (p: number) => L + (Math.log2(p) / 10) * (W - L - 20);
  const y = (sp: number) => H - B - (Math.log2(Math.max(sp, 1)) / 10) * (H - B - 20);
  const line = (pts: [number, number][], color: string, dash = '') =>
    `<polyline fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${pts.map(([p, sp]) => `${x(p).toFixed(1)},${y(sp).toFixed(1)}`).join(' ')}"/>`;
  const dots = (pts: [number, number][], color: string) =>
    pts.map(([p, sp]) => `<circle cx="${x(p).toFixed(1)}" cy="${y(sp).toFixed(1)}" r="4" fill="${color}"/>`).join('');
  const ticks = [1, 4, 16, 64, 256, 1024];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    ...ticks.map(
      (t) =>
        `<line x1="${x(t)}" y1="${H - B}" x2="${x(t)}" y2="20" stroke="#eee"/><text x="${x(t)}" y="${H - B + 16}" text-anchor="middle">${t}</text><line x1="${L}" y1="${y(t)}" x2="${W - 20}" y2="${y(t)}" stroke="#eee"/><text x="${L - 6}" y="${y(t) + 4}" text-anchor="end">${t}</text>`,
    ),
    `<text x="${(W + L) / 2}" y="${H - 12}" text-anchor="middle">workers (processors)</text>`,
    `<text x="16" y="${(H - B) / 2}" transform="rotate(-90 16 ${(H - B) / 2})" text-anchor="middle">speed-up</text>`,
    line(
      PS.map((p) => [p, p]),
      '#bbb',
      '4 4',
    ),
    line(
      model.map((r) => [r.p, r.speedup]),
      '#1f77b4',
    ),
    dots(
      [
        [1, 1],
        [2, f.t1 / f.measured2],
      ],
      '#1f77b4',
    ),
    line(
      gupta.map((r) => [r.p, 1524 / r.predicted]),
      '#d62728',
      '6 3',
    ),
    dots(
      GUPTA.map(([p, t]) => [p, 1524 / t]),
      '#d62728',
    ),
    `<text x="${L + 10}" y="34" fill="#1f77b4">krieg, ${f.view}: model (line), measured here (dots)</text>`,
    `<text x="${L + 10}" y="50" fill="#d62728">Gupta et al. 2010 Table 2 (dots), the model on their machine (dashed)</text>`,
    `<text x="${L + 10}" y="66" fill="#888">ideal</text>`,
    '</svg>',
  ];
  writeText(join(root, 'bench/results/parallel.svg'), parts.join('\n') + '\n');
}
progress('parallel: wrote bench/results/parallel.{json,md,svg}');

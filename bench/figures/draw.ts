// bench/figures.ts, charting: the four figures as SVG with their Vega-Lite specs, and the tables
// beside them in bench/results/figures.md (the claims' prose is ./text.ts).
import { join } from 'node:path';
import { ALGORITHMS, type Algorithm } from '../../host/solver/solve';
import { describeMachine, median, seconds, writeJson, writeText } from '../lib/harness';
import { timeOf, LONG_BELIEF, type Measurements, type BackendRun } from '../lib/measure';
import {
  renderSvg,
  curvePoints,
  solvedCurvesSpec,
  interleaveSpec,
  speedupSpec,
  backendRatioSpec,
  BLACK_BOX,
  type CurvePoint,
  type InterleavePoint,
  type SpeedupPoint,
  type Fit,
  type RatioBar,
} from '../lib/charts';
import { BACKEND_PER_CLASS, root, outDir } from './settings';
import { panelName, speedupClaim, claims } from './text';

const MIN_MS = 0.1; // the curves' left edge: faster solves are drawn there

export async function draw(m: Measurements): Promise<void> {
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

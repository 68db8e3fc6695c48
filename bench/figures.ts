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
//
// The parts: figures/settings.ts (the command line), figures/measure.ts, figures/draw.ts (the
// figures and their tables), figures/text.ts (the claims).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Measurements } from './lib/measure';
import { flag } from './lib/args';
import { outDir, suffix } from './figures/settings';
import { measure } from './figures/measure';
import { draw } from './figures/draw';

// ---- main (after every declaration: the bundle runs top to bottom) ----

const measurements = flag('--render-only')
  ? (JSON.parse(readFileSync(join(outDir, `runs${suffix}.json`), 'utf8')) as Measurements)
  : await measure();
await draw(measurements);

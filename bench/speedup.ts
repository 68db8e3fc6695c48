// Issue 6's target, measured: the speed-up of gl-dbu and ipns over the BEST black-box algorithm on
// the 5-ply near-misses, per decile of difficulty (difficulty = the best black-box time).
// Per problem, the seven black-box algorithms run in turn, each with a time limit of the best time
// so far (at most --limit-ms): the best black-box time is exact (a slower algorithm is cut as soon
// as it can no longer be the best) for a fraction of the cost of running every one to the end.
// When every black-box algorithm reaches the limit, the speed-up is a lower bound (marked ≥).
// Every search gets --memory-mib of arena (default 2048), so that an answer is never unknown for
// lack of memory. Databases: the shipped ones (data/problems.sqlite, endgame starts, and
// data/problems-standard.sqlite, games from the initial position), or --db FILE …
// Usage: npm run bench:speedup [-- --limit-ms MS] [-- --db FILE …] [-- --quick]
import { join } from 'node:path';
import { createEngine } from '../host/node';
import { ProblemDb } from '../host/db/database.node';
import { solve, type Algorithm, type Problem } from '../host/solver/solve';
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
import { parseRulesJson } from '../host/record/rules';
import { databaseArgs, integerOption, quick } from './lib/args';

const LIMIT_MS = integerOption('--limit-ms', quick ? 2000 : 30_000);
const MEMORY_BYTES = integerOption('--memory-mib', 2048) * 2 ** 20;
/** Fastest first, so that the cut-off falls early. */
const BLACK_BOX: Algorithm[] = ['le-dfs', 'e-pns', 'gx-dfs', 'pns', 'gl-dfs', 'l-dfs', 'dfs'];
const INCREMENTAL: Algorithm[] = ['gl-dbu', 'ipns'];

const root = repoRoot();
const databases = databaseArgs(root);
const engine = createEngine('wasm');

interface Row {
  id: number;
  size: number;
  best: { algorithm: Algorithm | null; ms: number };
  incremental: Record<string, number | null>;
}

/** Time of `algorithm` on `problem` within `limitMs` (null when it did not answer). */
function time(problem: Problem, algorithm: Algorithm, limitMs: number): number | null {
  const r = solve(engine, problem, algorithm, { timeMs: limitMs, memoryBytes: MEMORY_BYTES });
  if (r.answer === 'proven') throw new Error(`${algorithm} proves a near-miss`);
  return r.answer === 'unknown' ? null : r.stats.ms;
}

function measure(problem: Problem): Omit<Row, 'id' | 'size'> {
  let best: Row['best'] = { algorithm: null, ms: LIMIT_MS };
  for (const algorithm of BLACK_BOX) {
    const ms = time(problem, algorithm, best.ms);
    if (ms !== null && ms < best.ms) best = { algorithm, ms };
  }
  const incremental: Record<string, number | null> = {};
  for (const algorithm of INCREMENTAL) incremental[algorithm] = time(problem, algorithm, LIMIT_MS);
  return { best, incremental };
}

const m = machine();
const git = gitState(root, ['assembly', 'host']);
const md = [
  '### Incremental against the best black-box algorithm on the 5-ply near-misses',
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `\`npm run bench:speedup\`: every 5-ply near-miss of each database; the best black-box time is the least of the seven black-box algorithms (each cut at the best time so far, at most ${seconds(LIMIT_MS)}); deciles by that time, easiest first; each cell the median over the decile of best black-box time / incremental time (≥: the decile's median is a lower bound, some problems no black-box algorithm answered within the limit). Arenas ${MEMORY_BYTES / 2 ** 20} MiB per search. Target (issue 6): ≥ 100× on the hardest decile.`,
];
const results: Record<string, Row[]> = {};
for (const path of databases) {
  const db = await ProblemDb.open(path);
  let rows = db.instances({ ply: 5, cls: 'near-miss' });
  const start = db.params<{ start?: string }>().start ?? '?';
  db.close();
  if (quick) rows = rows.slice(0, 20);
  progress(`speedup: ${path}: ${rows.length} 5-ply near-misses, limit ${seconds(LIMIT_MS)}`);
  const measured: Row[] = rows.map((row, i) => {
    const r = {
      id: row.id,
      size: row.beliefSize,
      ...measure({ rules: parseRulesJson(row.rulesJson), ply: 5, positions: row.positions }),
    };
    if ((i + 1) % 20 === 0) progress(`  ${i + 1} of ${rows.length}`);
    return r;
  });
  results[path] = measured;
  const sorted = [...measured].sort((a, b) => a.best.ms - b.best.ms);
  const name = path.replace(`${root}/`, '');
  const timeouts = INCREMENTAL.map((a) => `${a} ${sorted.filter((r) => r.incremental[a] === null).length}`).join(', ');
  md.push(
    '',
    `${name} (${start} starts): ${sorted.length} problems; no black-box answer within the limit on ${sorted.filter((r) => r.best.algorithm === null).length}; incremental runs that reached the limit (left out of the ratios): ${timeouts}.`,
    '',
    `| Decile | Problems | Median belief | Best black-box (median) | Fastest black-box (most often) | ${INCREMENTAL.map((a) => `${a} (median)`).join(' | ')} | ${INCREMENTAL.map((a) => `${a} over best`).join(' | ')} |`,
    `|---:|---:|---:|---:|---|${INCREMENTAL.map(() => '---:').join('|')}|${INCREMENTAL.map(() => '---:').join('|')}|`,
  );
  const deciles = Math.min(10, sorted.length);
  for (let d = 0; d < deciles; d++) {
    const part = sorted.slice(
      Math.floor((d * sorted.length) / deciles),
      Math.floor(((d + 1) * sorted.length) / deciles),
    );
    const bound = part.some((r) => r.best.algorithm === null) ? '≥ ' : '';
    const counts = new Map<string, number>();
    for (const r of part) counts.set(r.best.algorithm ?? 'none', (counts.get(r.best.algorithm ?? 'none') ?? 0) + 1);
    const fastest = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const times = INCREMENTAL.map((a) => part.map((r) => r.incremental[a]).filter((t): t is number => t !== null));
    const ratios = INCREMENTAL.map((a) =>
      part.filter((r) => r.incremental[a] !== null).map((r) => r.best.ms / Math.max(r.incremental[a]!, 0.001)),
    );
    md.push(
      `| ${d + 1} | ${part.length} | ${median(part.map((r) => r.size))} | ${bound}${seconds(median(part.map((r) => r.best.ms)))} | ${fastest} | ${times.map((t) => (t.length ? seconds(median(t)) : '—')).join(' | ')} | ${ratios.map((r) => (r.length ? `${bound}${median(r).toFixed(median(r) >= 10 ? 0 : 1)}×` : '—')).join(' | ')} |`,
    );
  }
}
const name = quick ? 'speedup-quick' : 'speedup';
writeText(join(root, `bench/results/${name}.md`), md.join('\n'));
writeJson(join(root, `bench/results/${name}.json`), {
  machine: m,
  git,
  limitMs: LIMIT_MS,
  memoryBytes: MEMORY_BYTES,
  results,
});
console.log(md.join('\n'));

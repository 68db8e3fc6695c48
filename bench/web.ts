// The web app's budgets (issue 16): page load to first interactive (the board drawn, both workers'
// engines instantiated, the controls wired: the app's performance mark 'krieg-interactive', from
// navigation start) in headless Chromium from a local server, and the bytes the load transfers,
// gzipped (level 6, as a static server compresses), excluding the problem database and sql.js,
// which the page loads only when a database is opened. Budgets: ≤ 1 s and ≤ 400 KB.
// Usage: npm run bench:web [-- --runs N]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { serveStatic, WEB_DIR, SHIPPED_DB } from '../scripts/static-server.mjs';
import { CHROMIUM, launchChromium } from '../test/lib/chromium';
import { describeMachine, gitState, machine, median, repoRoot, writeJson, writeText } from './lib/harness';

const root = repoRoot();
const at = process.argv.indexOf('--runs');
const RUNS = at >= 0 ? Number(process.argv[at + 1]) : 7;
const BUDGET_MS = 1000;
const BUDGET_BYTES = 400 * 1024;

execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'wasm', 'js', 'web', '--stale'], { stdio: 'inherit' });

const served = new Map<string, { raw: number; gzip: number }>();
const { server, url } = await serveStatic(WEB_DIR, {
  extra: SHIPPED_DB,
  onRequest: (path, file) => {
    const body = readFileSync(file);
    served.set(path, { raw: body.length, gzip: gzipSync(body, { level: 6 }).length });
  },
});
const browser = await launchChromium();
const runsMs: number[] = [];
try {
  for (let run = 0; run <= RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } }); // a cold cache each run
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('#app[data-ready=true]', { timeout: 30_000 });
    const ms = await page.evaluate(() => performance.getEntriesByName('krieg-interactive')[0].startTime);
    if (run > 0) runsMs.push(ms); // run 0 warms the browser process up
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}

const files = [...served.entries()].sort(([a], [b]) => a.localeCompare(b));
const excluded = (path: string) => path === '/problems.sqlite' || path.startsWith('/vendor/');
const counted = files.filter(([path]) => !excluded(path));
const gzipBytes = counted.reduce((n, [, s]) => n + s.gzip, 0);
const rawBytes = counted.reduce((n, [, s]) => n + s.raw, 0);
const medianMs = median(runsMs);
const m = machine();
const git = gitState(root, ['host', 'assembly', 'scripts/build.mjs']);
writeJson(join(root, 'bench/results/web.json'), {
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date: new Date().toISOString(),
  runs: RUNS,
  runsMs,
  medianMs,
  maxMs: Math.max(...runsMs),
  budgetMs: BUDGET_MS,
  files: Object.fromEntries(files),
  rawBytes,
  gzipBytes,
  budgetBytes: BUDGET_BYTES,
  withinBudget: medianMs <= BUDGET_MS && gzipBytes <= BUDGET_BYTES,
});
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const md = [
  '### Web app',
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `Headless Chromium (${CHROMIUM}) loading dist/web from a local server, a cold cache each time; median of ${RUNS} loads after a warm-up.`,
  '',
  '| Measure | Value | Budget |',
  '|---|---:|---:|',
  `| Load to first interactive (median; max) | ${medianMs.toFixed(0)} ms; ${Math.max(...runsMs).toFixed(0)} ms | ≤ ${BUDGET_MS} ms |`,
  `| Transferred, gzipped (raw) | ${kb(gzipBytes)} (${kb(rawBytes)}) | ≤ ${kb(BUDGET_BYTES)} |`,
  '',
  `Files loaded: ${counted.map(([path, s]) => `${path} ${kb(s.gzip)}`).join(', ')}. Not counted: the problem database and sql.js (vendor/sql-wasm-inline.js, ${kb(gzipSync(readFileSync(join(WEB_DIR, 'vendor/sql-wasm-inline.js')), { level: 6 }).length)} gzipped), loaded only when a database is opened.`,
].join('\n');
writeText(join(root, 'bench/results/web.md'), md);
console.log(md);
if (medianMs > BUDGET_MS || gzipBytes > BUDGET_BYTES) {
  console.error(`bench:web: over budget (${medianMs.toFixed(0)} ms, ${kb(gzipBytes)})`);
  process.exitCode = 1;
}

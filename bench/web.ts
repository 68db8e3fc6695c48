// The web app's budgets (issues 16 and 37), in headless Chromium from the local server of `npm run
// web` (scripts/static-server.mjs, which compresses what it sends):
// - load: page load to first interactive (the board drawn, the controls wired and the game's
//   engine up, its cores made: the app's performance mark 'krieg-interactive', from navigation
//   start; 'krieg-controls' marks the page's own part, and the start-up's other marks — the head
//   script, the game worker's thread, script and first core, app.js — are reported as well), and the
//   bytes transferred compressed before the first game starts (the bodies the server sent during
//   the load, the workers' requests included, which the browser's own count of the page leaves out;
//   a file asked again is answered 304 without a body), excluding the problem database and sql.js,
//   loaded only when a database is opened. Budgets: ≤ 500 ms and ≤ 150 KB.
// - Know as a game goes on (issue 37's promise: the heatmap of the current ply within 1 s at any
//   ply): a random game of 300 plies loaded and Black's view stepped through ply by ply, each step
//   the tracker fed that ply's events; the time from the step to the heatmap of its ply, median,
//   p99 and max over the 300 steps (measured in the page);
// - Know after a jump: the same game loaded afresh, Black's view asked at ply 10, then 100, then
//   300 (each answer feeds the tracker the plies since the last), then at ply 100 again (kept);
// - krieg's replies at 1 s a move: the opponent's time per move over a game against it.
// Usage: npm run bench:web [-- --runs N] [-- --moves N]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { serveStatic, WEB_DIR, SHIPPED_DB } from '../scripts/static-server.mjs';
import { CHROMIUM, launchChromium } from '../test/lib/chromium';
import { createEngine } from '../host/node';
import { randomGame } from '../host/referee/game';
import { makeRecordKpgn } from '../host/notation/kpgn';
import { describeMachine, gitState, machine, median, repoRoot, writeJson, writeText } from './lib/harness';

const root = repoRoot();
const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = option('--runs', 7);
const MOVES = option('--moves', 20);
const BUDGET_MS = 500;
const BUDGET_BYTES = 150 * 1024;
const KNOW_PLIES = [10, 100, 300];
/** Know's heatmap of the current ply, at any ply of the game (issue 37). */
const KNOW_BUDGET_MS = 1000;
const REPLY_SECONDS = 1;

execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'wasm', 'js', 'web', '--stale'], { stdio: 'inherit' });

const served = new Map<string, { raw: number; sent: number }>();
const excluded = (path: string) => path === '/problems.sqlite' || path.startsWith('/vendor/');
/** The bodies sent during the load being measured. */
let loadBytes = 0;
const { server, url } = await serveStatic(WEB_DIR, {
  extra: SHIPPED_DB,
  onRequest: (path, _file, raw, sent) => {
    if (!served.has(path) || sent > 0) served.set(path, { raw, sent });
    if (!excluded(path)) loadBytes += sent;
  },
});
/** The start-up's marks, in the order they come (host/web/index.html, entry.ts, app.ts, worker.ts). */
const MARKS = [
  'krieg-head',
  'krieg-worker-origin',
  'krieg-worker-script',
  'krieg-worker-ran',
  'krieg-app',
  'krieg-controls',
  'krieg-worker-core',
  'krieg-interactive',
] as const;
const MARK_WORDS: Record<(typeof MARKS)[number], string> = {
  'krieg-head': "the head script asked for the game's worker",
  'krieg-worker-origin': 'its thread made',
  'krieg-worker-script': 'its script begins',
  'krieg-worker-ran': "its modules' set-up done",
  'krieg-app': "the page's script (app.js) begins",
  'krieg-controls': 'the controls wired',
  'krieg-worker-core': 'its first core made',
  'krieg-interactive': 'interactive',
};
const browser = await launchChromium();
const runsMs: number[] = [];
const controlsMs: number[] = [];
const marksMs: Record<string, number[]> = Object.fromEntries(MARKS.map((m) => [m, []]));
let stepMs: number[] = [];
let stepKinds: Record<string, number> = {};
const transfers: number[] = [];
let know: { ply: number; ms: number; kind: string; kept?: boolean }[] = [];
const replies: number[] = [];

/** A game of exactly `plies` plies (the first seed whose random game lasts that long). */
function longGame(plies: number): string {
  const engine = createEngine('wasm', 64);
  for (let seed = 1; ; seed++) {
    const record = randomGame(engine, seed, { maxPlies: plies });
    if (record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length === plies)
      return makeRecordKpgn(record);
  }
}

/** Black's view asked at `ply` of the replay: milliseconds to the answer. */
async function knowAt(page: Page, ply: number): Promise<{ ms: number; kind: string }> {
  const started = Date.now();
  await page.fill('#replay-ply', String(ply));
  await page.dispatchEvent('#replay-ply', 'input');
  await page.waitForFunction(
    (ply) =>
      document.getElementById('know-data')!.dataset.positions !== '' &&
      document.getElementById('belief-size')!.textContent!.includes(`at ply ${ply}:`),
    ply,
    { timeout: 600_000 },
  );
  return { ms: Date.now() - started, kind: (await page.getAttribute('#know-data', 'data-kind')) ?? '' };
}

try {
  for (let run = 0; run <= RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } }); // a cold cache each run
    const page = await context.newPage();
    loadBytes = 0;
    await page.goto(url);
    await page.waitForSelector('#app[data-ready=true]', { timeout: 30_000 });
    const marks = await page.evaluate(
      (names) => names.map((mark) => performance.getEntriesByName(mark)[0]?.startTime),
      [...MARKS],
    );
    if (run > 0) {
      // run 0 warms the browser process up
      MARKS.forEach((mark, i) => marks[i] !== undefined && marksMs[mark].push(marks[i]));
      runsMs.push(marksMs['krieg-interactive'].at(-1)!);
      controlsMs.push(marksMs['krieg-controls'].at(-1)!);
      transfers.push(loadBytes);
    }
    await context.close();
  }

  const game = longGame(Math.max(...KNOW_PLIES));
  /** A fresh page with the long game loaded, at ply 0 of Black's view. */
  const loaded = async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.waitForSelector('#app[data-ready=true]');
    await page.click('[data-tab=load]');
    await page.setInputFiles('#file', { name: 'long.kpgn', mimeType: 'text/plain', buffer: Buffer.from(game) });
    await page.waitForSelector('#replay:not([hidden])');
    await page.fill('#replay-ply', '0');
    await page.dispatchEvent('#replay-ply', 'input');
    await page.selectOption('#replay-side', 'black');
    await knowAt(page, 0);
    return page;
  };

  // Know as the game goes on: one ply a step, timed in the page from the step to its heatmap
  const stepping = await loaded();
  ({ stepMs, stepKinds } = await stepping.evaluate(
    async (plies) => {
      const size = document.getElementById('belief-size')!;
      const data = document.getElementById('know-data')!;
      const next = document.getElementById('replay-next')!;
      const ms: number[] = [];
      const kinds: Record<string, number> = {};
      for (let ply = 1; ply <= plies; ply++) {
        const started = performance.now();
        next.click();
        await new Promise<void>((resolve) => {
          const shown = () => data.dataset.positions !== '' && size.textContent!.includes(`at ply ${ply}:`);
          const check = () => (shown() ? resolve() : setTimeout(check, 1));
          check();
        });
        ms.push(performance.now() - started);
        kinds[data.dataset.kind!] = (kinds[data.dataset.kind!] ?? 0) + 1;
      }
      return { stepMs: ms, stepKinds: kinds };
    },
    Math.max(...KNOW_PLIES),
  ));
  await stepping.close();

  // Know after a jump, on a page that has not stepped through the game
  const page = await loaded();
  for (const ply of KNOW_PLIES) know.push({ ply, ...(await knowAt(page, ply)) });
  know.push({ ply: KNOW_PLIES[1], ...(await knowAt(page, KNOW_PLIES[1])), kept: true });

  // krieg's replies at 1 s a move: the person's moves drawn among those offered
  await page.click('[data-tab=play]');
  await page.selectOption('#opponent', 'krieg');
  await page.fill('#time', String(REPLY_SECONDS));
  await page.fill('#start-fen', '');
  await page.click('#new-game');
  await page.waitForSelector('#app[data-state=your-move]');
  let s = 7;
  while (replies.length < MOVES && (await page.getAttribute('#app', 'data-state')) === 'your-move') {
    const offered = ((await page.getAttribute('#board', 'data-attempts')) ?? '').split(' ').filter(Boolean);
    s = (s * 1664525 + 1013904223) >>> 0;
    const uci = offered[s % offered.length];
    const before = await page.evaluate(() => document.querySelectorAll('#transcript li.event').length);
    const moved = () =>
      page.evaluate(() => {
        type State = { opponentMs?: number; view: { events: { type: string; percept?: unknown }[] } };
        const state = (globalThis as unknown as { kriegApp: { play: { state: State } } }).kriegApp.play.state;
        const replies = state.view.events.filter((e) => e.type === 'opponent-move' && e.percept).length;
        return { replies, ms: state.opponentMs };
      });
    const heard = (await moved()).replies;
    await page.fill('#attempt-text', uci);
    await page.press('#attempt-text', 'Enter');
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('#transcript li.event').length > n &&
        ['your-move', 'over'].includes(document.getElementById('app')!.dataset.state!),
      before,
      { timeout: 60_000 },
    );
    const now = await moved();
    if (now.replies > heard && now.ms !== undefined) replies.push(now.ms); // krieg replied to a legal move
  }
} finally {
  await browser.close();
  server.close();
}

const files = [...served.entries()].sort(([a], [b]) => a.localeCompare(b));
const counted = files.filter(([path]) => !excluded(path));
const sentBytes = counted.reduce((n, [, s]) => n + s.sent, 0);
const rawBytes = counted.reduce((n, [, s]) => n + s.raw, 0);
const transferred = median(transfers);
const medianMs = median(runsMs);
const sorted = [...replies].sort((a, b) => a - b);
const stepSorted = [...stepMs].sort((a, b) => a - b);
const steps = {
  plies: stepMs.length,
  medianMs: median(stepMs),
  p99Ms: stepSorted[Math.floor(0.99 * (stepSorted.length - 1))],
  maxMs: Math.max(...stepMs),
  kinds: stepKinds,
};
const replyStats = {
  moves: replies.length,
  medianMs: median(replies),
  p90Ms: sorted[Math.floor(0.9 * (sorted.length - 1))],
  maxMs: Math.max(...replies),
};
const m = machine();
const git = gitState(root, ['host', 'assembly', 'scripts/build.mjs', 'scripts/static-server.mjs']);
writeJson(join(root, 'bench/results/web.json'), {
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date: new Date().toISOString(),
  runs: RUNS,
  runsMs,
  medianMs,
  controlsMs,
  controlsMedianMs: median(controlsMs),
  marksMedianMs: Object.fromEntries(MARKS.map((m) => [m, median(marksMs[m])])),
  maxMs: Math.max(...runsMs),
  budgetMs: BUDGET_MS,
  files: Object.fromEntries(files),
  rawBytes,
  sentBytes,
  transferredBytes: transferred,
  budgetBytes: BUDGET_BYTES,
  knowSteps: { ...steps, all: stepMs.map((ms) => Math.round(ms)) },
  know,
  replies: { seconds: REPLY_SECONDS, ...replyStats, all: replies },
  knowBudgetMs: KNOW_BUDGET_MS,
  withinBudget: medianMs <= BUDGET_MS && transferred <= BUDGET_BYTES && steps.maxMs <= KNOW_BUDGET_MS,
});
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const md = [
  '### Web app',
  '',
  `Machine: ${describeMachine(m)}; load average ${(await import('node:os')).loadavg()[0].toFixed(1)} at the end; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `Headless Chromium (${CHROMIUM}) loading dist/web from the local server of \`npm run web\` (compressed: brotli under 1 MB, else gzip), a cold cache each time; median of ${RUNS} loads after a warm-up.`,
  '',
  '| Measure | Value | Budget |',
  '|---|---:|---:|',
  `| Load to first interactive (median; max) | ${medianMs.toFixed(0)} ms; ${Math.max(...runsMs).toFixed(0)} ms | ≤ ${BUDGET_MS} ms |`,
  `| of which the page's own set-up (the controls wired; median) | ${median(controlsMs).toFixed(0)} ms | |`,
  `| Start-up, from navigation start (medians): ${MARKS.map((m) => MARK_WORDS[m]).join('; ')} | ${MARKS.map((m) => median(marksMs[m]).toFixed(0)).join('; ')} ms | |`,
  `| Transferred before the first game, compressed (bodies sent; each file once; raw) | ${kb(transferred)} (${kb(sentBytes)}; ${kb(rawBytes)}) | ≤ ${kb(BUDGET_BYTES)} |`,
  `| Know as the game goes on: Black's view stepped ply by ply through a 300-ply game, step to heatmap (median; p99; max of ${steps.plies}) | ${sec(steps.medianMs)}; ${sec(steps.p99Ms)}; ${sec(steps.maxMs)} (${Object.entries(
    steps.kinds,
  )
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ')}) | ≤ ${sec(KNOW_BUDGET_MS)} |`,
  ...know.map(
    (k, i) =>
      `| Know after a jump, Black's view at ply ${k.ply} of a 300-ply game${k.kept ? ' again (kept)' : i === 0 ? ' (from ply 0)' : ` (after ply ${know[i - 1].ply})`} | ${sec(k.ms)} (${k.kind}) | |`,
  ),
  `| krieg's reply at ${REPLY_SECONDS} s a move (median; p90; max of ${replyStats.moves}) | ${sec(replyStats.medianMs)}; ${sec(replyStats.p90Ms)}; ${sec(replyStats.maxMs)} | |`,
  '',
  `Files loaded: ${counted.map(([path, s]) => `${path} ${kb(s.sent)}`).join(', ')}. Not counted: the problem database and sql.js (vendor/sql-wasm-inline.js, ${kb(gzipSync(readFileSync(join(WEB_DIR, 'vendor/sql-wasm-inline.js')), { level: 9 }).length)} gzipped), loaded only when a database is opened.`,
].join('\n');
writeText(join(root, 'bench/results/web.md'), md);
console.log(md);
if (medianMs > BUDGET_MS || transferred > BUDGET_BYTES || steps.maxMs > KNOW_BUDGET_MS) {
  console.error(`bench:web: over budget (${medianMs.toFixed(0)} ms, ${kb(transferred)}, Know ${sec(steps.maxMs)})`);
  process.exitCode = 1;
}

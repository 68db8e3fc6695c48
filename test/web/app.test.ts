// The web app (host/web/index.html, app.ts, worker.ts) end to end in headless Chromium, as a user
// drives it: whole games against the random player on both backends, the Know heatmap against
// `krieg belief --show heatmap`, a problem-database instance solved and shown as a tree, a KPGN
// record loaded, stepped through and saved back byte for byte, the page responsive while a solve
// runs, and no request leaving the origin. Screenshots of each screen at 1280×800 and 390 px wide
// go to test/artifacts/ (not committed).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchChromium } from '../lib/chromium';
import { a11yViolations } from '../lib/a11y';
import { serveStatic, WEB_DIR, SHIPPED_DB } from '../../scripts/static-server.mjs';
import { krieg, ROOT } from '../lib/cli';
import { createEngine } from '../../host/node';
import { randomGame } from '../../host/referee/game';
import { makeRecordKpgn } from '../../host/notation/kpgn';

const ARTIFACTS = join(ROOT, 'test/artifacts');
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
/** Plies of the long game Know follows: 200 (the "ply ≥ 200", about 15 s) with KRIEG_WEB_FULL=1, else 60. */
const LONG_GAME = process.env.KRIEG_WEB_FULL ? 200 : 60;

/**
 * Plays the human's side in the page through its board: picks an attempt the page offers (a
 * seeded choice) and clicks its squares, until the game ends or `maxPlies` plies are played.
 */
async function playInPage(page: Page, seed: number, maxPlies = Infinity): Promise<{ plies: number; attempts: number }> {
  return page.evaluate(
    async ({ seed, maxPlies }) => {
      let s = seed >>> 0;
      const random = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
      const app = document.getElementById('app')!;
      const board = document.getElementById('board')!;
      const settled = () =>
        new Promise<void>((resolve) => {
          const check = () =>
            app.dataset.state === 'your-move' || app.dataset.state === 'over' ? resolve() : setTimeout(check, 2);
          check();
        });
      const press = (name: string) => {
        const el = board.querySelector<HTMLElement>(`[data-square="${name}"]`)!;
        const r = el.getBoundingClientRect();
        const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true };
        el.dispatchEvent(new PointerEvent('pointerdown', at));
        el.dispatchEvent(new PointerEvent('pointerup', at));
      };
      let attempts = 0;
      board.scrollIntoView();
      await settled();
      while (app.dataset.state === 'your-move' && Number(app.dataset.plies) < maxPlies) {
        const offered = (board.dataset.attempts ?? '').split(' ').filter(Boolean);
        const uci = offered[Math.floor(random() * offered.length)];
        const events = document.querySelectorAll('#transcript li.event').length;
        press(uci.slice(0, 2));
        press(uci.slice(2, 4));
        // a promotion with a choice: the piece, in the dialog
        document.querySelector<HTMLButtonElement>(`#promotion-dialog[open] [data-piece=${uci[4]}]`)?.click();
        attempts++;
        app.dataset.state = 'sent';
        const sent = performance.now();
        await new Promise<void>((resolve, reject) => {
          const check = () =>
            document.querySelectorAll('#transcript li.event').length > events &&
            (app.dataset.state === 'your-move' || app.dataset.state === 'over')
              ? resolve()
              : performance.now() - sent > 20_000
                ? reject(new Error(`no answer to ${uci} in 20 s: ${document.getElementById('status')!.textContent}`))
                : setTimeout(check, 2);
          check();
        });
      }
      return { plies: Number(app.dataset.plies), attempts };
    },
    { seed, maxPlies },
  );
}

describe('the web app in headless Chromium', () => {
  let server: Server | undefined;
  let origin = '';
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'krieg-web-'));

  const openPage = async (size: keyof typeof SIZES = 'desktop') => {
    page = await context.newPage();
    await page.setViewportSize(SIZES[size]);
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('request', (req) => requests.push(req.url()));
    page.on('dialog', (dialog) => void dialog.accept()); // "abandon the game in progress?": yes
    await page.goto(`${origin}?follow=0`); // Know follows a game in the background only where a test ticks it
    await page.waitForSelector('#app[data-ready=true]', { timeout: 20_000 });
    return page;
  };

  const screenshot = async (name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${size}.png`), fullPage: size === 'phone' });
    }
    await page.setViewportSize(SIZES.desktop);
  };

  const newGame = async (options: { backend: 'wasm' | 'js'; preset: string; start?: string; side?: string }) => {
    await page.click('[data-tab=play]');
    await page.selectOption('#backend', options.backend);
    await page.waitForSelector(`#app[data-backend=${options.backend}]`);
    await page.selectOption('#side', options.side ?? 'white');
    await page.selectOption('#preset', options.preset);
    await page.selectOption('#opponent', 'random');
    await page.fill('#time', '0.2');
    await page.fill('#start-fen', options.start ?? '');
    await page.click('#new-game');
    await page.waitForSelector('#app[data-state=your-move]');
  };

  beforeAll(async () => {
    const served = await serveStatic(WEB_DIR, { extra: SHIPPED_DB });
    server = served.server;
    origin = served.url;
    browser = await launchChromium();
    context = await browser.newContext({ acceptDownloads: true });
    await openPage();
  });

  afterEach(() => {
    const seen = problems.splice(0);
    expect(seen, `the page reported errors:\n${seen.join('\n')}`).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('plays a whole game against random on WASM, by clicks, a drag and the keyboard, to its end', async () => {
    await newGame({ backend: 'wasm', preset: 'wild16' });
    // one move by dragging (pointer down on e2, up on e4), one typed
    await page.dragAndDrop('[data-square=e2]', '[data-square=e4]');
    await page.waitForFunction(() => /White has moved/.test(document.querySelector('#transcript')?.textContent ?? ''));
    await page.waitForSelector('#app[data-state=your-move]');
    expect(await page.textContent('#transcript')).toMatch(/You play e2e4\. White has moved/);
    await page.fill('#attempt-text', 'd2d4');
    await page.press('#attempt-text', 'Enter');
    await page.waitForFunction(() => document.getElementById('transcript')!.textContent!.includes('d2d4'));
    await page.waitForSelector('#app[data-state=your-move]');
    await screenshot('play');
    const { plies } = await playInPage(page, 1);
    expect(await page.getAttribute('#app', 'data-state')).toBe('over');
    expect(plies).toBeGreaterThan(4);
    // any end the rules allow (a mate, a stalemate, a draw), with its result
    expect(await page.textContent('#result')).toMatch(/\((1-0|0-1|1\/2-1\/2)\)$/);
    // the end: the full board revealed and stepped through from either side
    await page.click('[data-tab=know]');
    await page.click('#reveal');
    await page.waitForSelector('#replay:not([hidden])');
    expect(await page.getAttribute('#replay', 'data-ply')).toBe(String(plies));
    // the true position at the end has both colours' pieces
    const pieces = await page.$$eval('#board [data-piece]', (els) => els.map((e) => e.getAttribute('data-piece')));
    expect(pieces.some((p) => p?.startsWith('w'))).toBe(true);
    expect(pieces.some((p) => p?.startsWith('b'))).toBe(true);
    // ply 2 first (the true board needs no estimate), then Black's view of it: an estimate of a
    // short view, not of the whole game's (which the tracker may take long over on a busy machine)
    await page.fill('#replay-ply', '2');
    await page.dispatchEvent('#replay-ply', 'input');
    await page.selectOption('#replay-side', 'black');
    await page.waitForFunction(() => document.getElementById('know-data')!.dataset.positions, undefined, {
      timeout: 90_000,
    });
    expect(await a11yViolations(page), 'Know with a heatmap and the replay').toEqual([]);
    const black = await page.$$eval('#board [data-piece]', (els) => els.map((e) => e.getAttribute('data-piece')));
    expect(black.filter(Boolean).every((p) => p!.startsWith('b'))).toBe(true);
    await screenshot('know');
  }, 240_000);

  it('plays a shorter game on the JavaScript backend to its end', async () => {
    await newGame({ backend: 'js', preset: 'wild16', start: 'k7/8/8/8/8/8/8/KR6 w - - 0 1' });
    await playInPage(page, 2);
    expect(await page.getAttribute('#app', 'data-state')).toBe('over');
    expect(await page.getAttribute('#app', 'data-backend')).toBe('js');
    expect(await page.textContent('#result')).toMatch(/\((1-0|0-1|1\/2-1\/2)\)/);
  }, 120_000);

  it("follows the game in the background, then shows the same heatmap numbers as `krieg belief --show heatmap` from what Know kept; the tray counts the enemy's men; the move list shows Know at a ply", async () => {
    await page.click('[data-tab=know]');
    await page.check('#know-follow');
    await newGame({ backend: 'wasm', preset: 'berkeley' });
    const { plies } = await playInPage(page, 7, 6);
    // Know's worker followed the game to its last ply while the Know tab was not shown
    await page.waitForSelector(`#app[data-followed="${plies}"]`, { timeout: 60_000 });
    const men = await page.$$eval('#tray-men li', (els) => els.map((e) => Number(e.dataset.count)));
    expect(men).toHaveLength(6);
    expect(men[5]).toBe(1); // the king
    expect(await page.textContent('#tray-note')).toMatch(/^\d+ of 16 left; you took \d+.*Promotions are not heard/);
    await page.click('[data-tab=know]');
    await page.waitForFunction(() => document.getElementById('know-data')!.dataset.heatmap);
    expect(await page.getAttribute('#know-data', 'data-source')).toBe('kept');
    await page.uncheck('#know-follow');
    const shown = await page.$eval('#know-data', (el) => ({
      counts: el.getAttribute('data-heatmap')!.split(',').map(Number),
      positions: Number(el.getAttribute('data-positions')),
      kind: el.getAttribute('data-kind'),
    }));
    // the view, saved by the page as KPGN, given to the CLI
    await page.click('[data-tab=load]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-kpgn')]);
    const file = join(tmp, 'view.kpgn');
    await download.saveAs(file);
    const run = await krieg(['belief', file, '--show', 'heatmap', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const cli = JSON.parse(run.stdout);
    expect(shown.kind).toBe('exact');
    expect(shown.positions).toBe(cli.count);
    expect(shown.counts).toEqual(cli.heatmap.counts);
    expect(cli.heatmap.total).toBe(shown.positions);
    // the board's squares carry the same numbers
    const squares = await page.$$eval('#board .sq', (els) =>
      Object.fromEntries(els.map((e) => [e.getAttribute('data-square'), Number(e.getAttribute('data-count'))])),
    );
    const files = 'abcdefgh';
    for (let sq = 0; sq < 64; sq++) expect(squares[`${files[sq & 7]}${(sq >> 3) + 1}`]).toBe(cli.heatmap.counts[sq]);
    // the move list: move 1's Know shows the belief after ply 2, kept on the way; Play goes back to the game
    await page.click('[data-tab=play]');
    await page.click('#transcript > li:first-child button.see-ply');
    await page.waitForSelector('#replay[data-ply="2"]');
    await page.waitForFunction(() => document.getElementById('belief-size')!.textContent!.includes('at ply 2:'));
    expect(await page.getAttribute('#know-data', 'data-source')).toBe('kept');
    expect(await a11yViolations(page), 'Know from the move list').toEqual([]);
    await page.click('[data-tab=play]');
    expect(await page.isHidden('#replay')).toBe(true);
    expect(await page.textContent('#status')).toBe('Back to the game: your move.');
  }, 120_000);

  it('opens the shipped database, finds an instance’s mate and shows it as a tree highlighting the board', async () => {
    await page.click('[data-tab=load]');
    await page.click('#db-shipped');
    await page.waitForSelector('#db:not([hidden])', { timeout: 30_000 });
    await page.selectOption('#db-ply', '3');
    await page.selectOption('#db-class', 'mate');
    expect(await a11yViolations(page), 'Load/Save with the database listed').toEqual([]);
    await screenshot('load');
    const id = await page.getAttribute('#db-rows tr', 'data-id');
    await page.click(`#db-rows tr[data-id="${id}"] button`);
    await page.waitForSelector('#panel-solve:not([hidden])');
    expect(await page.textContent('#problem-label')).toContain(`instance ${id}: mate in 3`);
    await page.click('#solve');
    await page.waitForSelector('#solve-answer[data-answer=proven]', { timeout: 60_000 });
    const first = page.locator('#solve-tree summary').first();
    const attempt = await first.getAttribute('data-attempt');
    expect(attempt).toMatch(/^[a-h][1-8][a-h][1-8]/);
    await first.hover();
    const lit = await page.$$eval('#board .sq.hl', (els) => els.map((e) => e.getAttribute('data-square')).sort());
    expect(lit).toEqual([attempt!.slice(0, 2), attempt!.slice(2, 4)].sort());
    expect(await page.locator('#solve-tree details').count()).toBeGreaterThan(0);
    expect(await a11yViolations(page), 'Solve with a proof tree').toEqual([]);
    await screenshot('solve');
  }, 120_000);

  it('loads a KPGN record, steps through it, and saves it back identical', async () => {
    const engine = createEngine('wasm', 64);
    const record = randomGame(engine, 11, { maxPlies: 30 });
    const plies = record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length;
    const text = makeRecordKpgn(record);
    await page.click('[data-tab=load]');
    await page.setInputFiles('#file', { name: 'game.kpgn', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.waitForSelector('#replay:not([hidden])');
    const last = Number(await page.getAttribute('#replay', 'data-ply'));
    expect(last).toBe(plies);
    await page.click('#replay-prev');
    await page.waitForSelector(`#replay[data-ply="${plies - 1}"]`);
    await page.click('#replay-next');
    await page.waitForSelector(`#replay[data-ply="${plies}"]`);
    await page.selectOption('#replay-side', 'white');
    await page.fill('#replay-ply', '0');
    await page.dispatchEvent('#replay-ply', 'input');
    await page.waitForSelector('#replay[data-ply="0"]');
    await page.click('[data-tab=load]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-kpgn')]);
    const saved = join(tmp, 'saved.kpgn');
    await download.saveAs(saved);
    expect(readFileSync(saved, 'utf8')).toBe(text);
  }, 60_000);

  it('loads a file of 3 KPGN games, offers the choice and replays game 2; Solve where the viewer is not to move says why', async () => {
    const engine = createEngine('wasm', 64);
    const records = [21, 22, 23].map((seed, i) => randomGame(engine, seed, { maxPlies: 10 + 4 * i }));
    const text = records.map(makeRecordKpgn).join('\n');
    await page.click('[data-tab=load]');
    await page.setInputFiles('#file', { name: 'three.kpgn', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.waitForSelector('#panel-know:not([hidden])'); // game 1 replayed in Know
    await page.click('[data-tab=load]');
    await page.waitForSelector('#games-row:not([hidden])');
    expect(await page.locator('#game-choice option').count()).toBe(3);
    await page.selectOption('#game-choice', '1');
    await page.waitForSelector('#replay[data-ply="14"]');
    expect(await page.textContent('#load-note')).toMatch(/three\.kpgn, game 2 of 3: a game record/);
    // White's view at ply 3 (Black to move): explained, not sent to the solver
    await page.selectOption('#replay-side', 'white');
    await page.fill('#replay-ply', '3');
    await page.dispatchEvent('#replay-ply', 'input');
    await page.click('[data-tab=solve]');
    await page.click('#solve');
    await page.waitForSelector('#solve-answer[data-answer=not-to-move]');
    expect(await page.textContent('#solve-answer')).toMatch(/^At ply 3 Black is to move, not White/);
  }, 60_000);

  it(`Know keeps up with a long loaded game: the belief at ply ${LONG_GAME} from its tracker, then an earlier ply at once`, async () => {
    const engine = createEngine('wasm', 64);
    const record = randomGame(engine, 5, { maxPlies: LONG_GAME });
    const plies = record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length;
    expect(plies).toBe(LONG_GAME);
    await page.click('[data-tab=load]');
    await page.setInputFiles('#file', {
      name: 'long.kpgn',
      mimeType: 'text/plain',
      buffer: Buffer.from(makeRecordKpgn(record)),
    });
    await page.waitForSelector(`#replay[data-ply="${plies}"]`);
    const shown = async (ply: number) => {
      await page.waitForFunction(
        (ply) =>
          document.getElementById('know-data')!.dataset.positions !== '' &&
          document.getElementById('belief-size')!.textContent!.includes(`at ply ${ply}:`),
        ply,
        { timeout: 240_000 },
      );
      return page.$eval('#know-data', (el) => ({ kind: el.dataset.kind, positions: Number(el.dataset.positions) }));
    };
    await page.selectOption('#replay-side', 'black');
    const last = await shown(plies);
    expect(['exact', 'sample', 'none']).toContain(last.kind);
    if (last.kind !== 'none') expect(last.positions).toBeGreaterThan(0);
    // a ply passed on the way: kept, so no tracking again
    const half = plies / 2;
    await page.fill('#replay-ply', String(half));
    await page.dispatchEvent('#replay-ply', 'input');
    await shown(half);
    expect(await page.textContent('#belief-size')).toMatch(new RegExp(`^(exact|a sample|none) at ply ${half}:`));
    // Solve at a late ply where Black is to move: the exact belief Know tracks is searched, whatever
    // its size; a sample is refused in words (no raw error, no estimation from the first ply)
    await page.fill('#replay-ply', String(half + 1));
    await page.dispatchEvent('#replay-ply', 'input');
    const late = await shown(half + 1);
    await page.click('[data-tab=solve]');
    await page.selectOption('#ply', '1');
    await page.click('#solve');
    await page.waitForSelector('#solve-answer:not([data-answer=""])', { timeout: 120_000 });
    const answer = await page.getAttribute('#solve-answer', 'data-answer');
    if (late.kind === 'exact') expect(['proven', 'disproven', 'unknown']).toContain(answer);
    else {
      expect(answer).toBe('not-exact');
      expect(await page.textContent('#solve-answer')).toMatch(
        new RegExp(`^At ply ${half + 1} (Know holds a sample of Black's belief|no position fits)`),
      );
    }
  }, 300_000);

  it('solves a 7-ply instance of the shipped database (Mate within 7)', async () => {
    await page.click('[data-tab=load]');
    await page.click('#db-shipped');
    await page.waitForSelector('#db:not([hidden])', { timeout: 30_000 });
    await page.selectOption('#db-ply', '7');
    await page.selectOption('#db-class', 'mate');
    await page.waitForSelector('#db-rows tr[data-id="2529"]');
    await page.click('#db-rows tr[data-id="2529"] button');
    await page.waitForSelector('#panel-solve:not([hidden])');
    expect(await page.inputValue('#ply')).toBe('7');
    await page.selectOption('#algorithm', 'auto');
    await page.click('#solve');
    await page.waitForSelector('#solve-answer[data-answer=proven]', { timeout: 90_000 });
    expect(await page.textContent('#solve-answer')).toMatch(/^Yes: a forced mate within 7 plies/);
  }, 120_000);

  it('stays responsive while a solve runs (a click handled within 100 ms), and Cancel stops it', async () => {
    // a large problem: four positions after 1 e4, White to find a mate in 5 (no quick answer)
    await page.click('[data-tab=load]');
    await page.fill(
      '#fen-set',
      [
        'r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2',
        'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
        'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
        'rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2',
      ].join('\n'),
    );
    await page.selectOption('#fen-preset', 'berkeley');
    await page.click('#fen-use');
    await page.selectOption('#ply', '5');
    await page.selectOption('#algorithm', 'dfs'); // the plain search: auto's probe may answer too soon
    await page.fill('#solve-nodes', '100000000');
    await page.click('#solve');
    await page.waitForSelector('#app[data-solving=true]');
    await page.waitForFunction(() => /belief nodes/.test(document.getElementById('solve-progress')!.textContent!));
    const delays: number[] = [];
    for (const tab of ['know', 'play', 'solve']) {
      await page.click(`[data-tab=${tab}]`);
      delays.push(
        await page.evaluate(
          () => (globalThis as unknown as { kriegApp: { lastClickDelay: number } }).kriegApp.lastClickDelay,
        ),
      );
      expect(await page.getAttribute('#app', 'data-tab')).toBe(tab);
    }
    expect(await page.getAttribute('#app', 'data-solving')).toBe('true');
    for (const delay of delays) expect(delay).toBeLessThan(100);
    await page.click('#cancel');
    await page.waitForSelector('#solve-answer[data-answer=cancelled]');
    expect(await page.getAttribute('#app', 'data-solving')).toBe('false');
  }, 60_000);

  it('sends no request outside its origin', () => {
    expect(requests.length).toBeGreaterThan(0);
    const outside = requests.filter(
      (url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:'),
    );
    expect(outside).toEqual([]);
  });

  it('fits a 390-px-wide phone: the board and the panel within the width', async () => {
    await page.setViewportSize(SIZES.phone);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      board: document.getElementById('board')!.getBoundingClientRect().width,
    }));
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.board).toBeLessThanOrEqual(390);
    await page.setViewportSize(SIZES.desktop);
    writeFileSync(join(tmp, 'done'), '');
  });
});

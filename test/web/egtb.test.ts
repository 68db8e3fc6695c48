// The tablebase in the web app (issues #35 item 3, #37 item 7), in headless Chromium: a K+R v K
// game loaded (Kc6, Rh1 against Ka8: Rh1-h2, then Ka8-a7, so that White's belief is the king on
// a7 or b8), White's view at its last ply shows in Know "guaranteed mate in 3", the value and
// attempt the table gives that state, with the attempt lit on the board; Solve says it beside its
// own answer. The table is a small one built around that state (three moves deep: a full build
// takes half a minute), served at egtb/ as `npm run web` serves the cache's; the page fetches it
// only when a belief first reaches the ending. Without it, Know says how to build it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../lib/chromium';
import { ROOT } from '../lib/cli';
import { serveStatic, WEB_DIR } from '../../scripts/static-server.mjs';
import { createEngine } from '../../host/node';
import { preset } from '../../host/record/rules';
import { egtbBuild, egtbEntries, egtbProbe } from '../../host/core/egtb';
import { egtbTableName } from '../../host/players/egtb';
import { egtbPath, saveTable } from '../../host/players/egtbFile.node';
import { GameSession } from '../../host/referee/session';
import { makeRecordKpgn } from '../../host/notation/kpgn';
import { makeUci, parseUci } from '../../host/notation/move';

const ARTIFACTS = join(ROOT, 'test/artifacts');
const A7 = 48;
const B8 = 57;

describe('the tablebase in the web app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'krieg-web-egtb-'));
  const empty = mkdtempSync(join(tmpdir(), 'krieg-web-egtb-none-'));
  const servers: Server[] = [];
  let browser: Browser | undefined;
  let kpgn = '';
  let value = 0;
  let attempt = '';
  const requests: string[] = [];
  const problems: string[] = [];

  /** A server of the app with the tables of `tables` at egtb/; the page open with the game loaded, White's view at its end. */
  async function openWithGame(tables: string): Promise<Page> {
    const served = await serveStatic(WEB_DIR, { extra: { '/egtb/': tables } });
    servers.push(served.server);
    const page = await browser!.newPage();
    requests.length = 0;
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('request', (req) => requests.push(new URL(req.url()).pathname));
    await page.goto(`${served.url}?follow=0`);
    await page.waitForSelector('#app[data-ready=true]', { timeout: 20_000 });
    expect(requests.filter((r) => r.startsWith('/egtb/'))).toEqual([]); // nothing fetched before a game reaches it
    await page.click('[data-tab=load]');
    await page.setInputFiles('#file', { name: 'krk.kpgn', mimeType: 'text/plain', buffer: Buffer.from(kpgn) });
    await page.waitForSelector('#replay[data-ply="2"]');
    await page.selectOption('#replay-side', 'white');
    return page;
  }

  beforeAll(async () => {
    const rules = preset('berkeley');
    const engine = createEngine('wasm', 16);
    engine.setRules(rules);
    const session = new GameSession(engine, { start: 'k7/8/2K5/8/8/8/8/7R w - - 0 1' });
    expect(session.attempt(parseUci('h1h2')!).answer).toBe('legal');
    expect(session.attempt(parseUci('a8a7')!).answer).toBe('legal');
    kpgn = makeRecordKpgn(session.record());
    const table = createEngine('wasm', 16);
    table.setRules(rules);
    table.setFen(0, '8/k7/2K5/8/8/8/7R/8 w - - 0 1');
    const built = egtbBuild(table, 'krk', { log2: 16, around: [{ handle: 0, squares: [A7, B8] }], depth: 3 });
    const probe = egtbProbe(table, 0, [A7, B8]);
    [value, attempt] = [probe.value, makeUci(probe.attempt)];
    const byValue = [built.states - built.byValue.reduce((a, b) => a + b, 0), ...built.byValue.slice(1)];
    const header = { ending: 'krk' as const, table: egtbTableName(rules), states: built.states, starts: built.starts };
    saveTable(egtbPath(dir, 'krk', header.table), { ...header, longest: built.longest, byValue }, egtbEntries(table));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
    expect(problems).toEqual([]);
  });

  it('Know and Solve say the guaranteed mate in N of the lone king on a7 or b8, the attempt lit on the board', async () => {
    expect(value).toBe(3); // h2a2 confines the king to the a-file's corner: checked by the table
    const page = await openWithGame(dir);
    await page.waitForSelector('#know-egtb[data-state=answered]', { timeout: 30_000 });
    expect(await page.getAttribute('#know-egtb', 'data-value')).toBe(String(value));
    expect(await page.getAttribute('#know-egtb', 'data-attempt')).toBe(attempt);
    expect(await page.textContent('#know-egtb')).toMatch(
      new RegExp(
        `^Guaranteed mate in ${value} moves \\(K\\+R v K tablebase, the king on 2 squares; 5 plies.*try ${attempt} first`,
      ),
    );
    const lit = await page.$$eval('#board .sq.hl', (els) => els.map((el) => el.getAttribute('data-square')).sort());
    expect(lit).toEqual([attempt.slice(0, 2), attempt.slice(2, 4)].sort());
    expect(requests.filter((r) => r.startsWith('/egtb/'))).toEqual(['/egtb/krk-dirs-draw.egtb.gz']);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, 'egtb-know-desktop.png') });

    await page.click('[data-tab=solve]');
    await page.selectOption('#ply', '3');
    await page.click('#solve');
    await page.waitForSelector('#solve-egtb[data-state=answered]', { timeout: 30_000 });
    expect(await page.getAttribute('#solve-egtb', 'data-value')).toBe(String(value));
    expect(await page.getAttribute('#solve-answer', 'data-answer')).toBe('disproven'); // 3 ply is too short for it
    expect(requests.filter((r) => r.startsWith('/egtb/'))).toHaveLength(1); // the table loaded once
    await page.screenshot({ path: join(ARTIFACTS, 'egtb-solve-desktop.png') });
    await page.close();
  }, 120_000);

  it('without the table, Know says how to build it', async () => {
    const page = await openWithGame(empty);
    await page.waitForSelector('#know-egtb[data-state=absent]', { timeout: 30_000 });
    expect(await page.textContent('#know-egtb')).toMatch(
      /no krk-dirs-draw\.egtb\.gz tablebase is served here: build it with `npx krieg egtb build krk`/,
    );
    await page.close();
  }, 120_000);
});

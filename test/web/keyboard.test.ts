// The web app by keyboard and by drag, in headless Chromium: a whole game played with the keyboard
// only (Tab into every tab, arrows along the tab list and on the board, Enter, Escape), the focus
// kept on the board across its renders; a game by drag with a piece following the pointer and the
// promotion dialog; and the accessibility check of every tab (test/lib/a11y.ts: axe-core's serious
// and critical violations, and the tab list's and grid's semantics). Each scenario loads the page once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../lib/chromium';
import { a11yViolations } from '../lib/a11y';
import { serveStatic, WEB_DIR } from '../../scripts/static-server.mjs';

const TABS = ['play', 'know', 'solve', 'load'] as const;

describe('the web app by keyboard and by drag', () => {
  let server: Server | undefined;
  let origin = '';
  let browser: Browser | undefined;
  const problems: string[] = [];

  const openPage = async (viewport = { width: 1280, height: 800 }): Promise<Page> => {
    const page = await browser!.newPage({ viewport });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    await page.goto(`${origin}?follow=0`); // Know does not follow the games in the background
    await page.waitForSelector('#app[data-ready=true]', { timeout: 20_000 });
    return page;
  };

  /** Presses Tab until the focus is on `selector` (at most 80 presses): the element is in the Tab order. */
  const tabTo = async (page: Page, selector: string) => {
    for (let i = 0; i < 80; i++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`${selector} is not reached by Tab`);
  };

  const focusedSquare = (page: Page) =>
    page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.square ?? null);

  /** Walks the focus on the board (White at the bottom) from the focused square to `to` with arrow keys. */
  const walkTo = async (page: Page, to: string) => {
    const from = (await focusedSquare(page))!;
    expect(from, 'the focus is on a square of the board').toMatch(/^[a-h][1-8]$/);
    const files = to.charCodeAt(0) - from.charCodeAt(0);
    const ranks = to.charCodeAt(1) - from.charCodeAt(1);
    for (let i = 0; i < Math.abs(files); i++) await page.keyboard.press(files > 0 ? 'ArrowRight' : 'ArrowLeft');
    for (let i = 0; i < Math.abs(ranks); i++) await page.keyboard.press(ranks > 0 ? 'ArrowUp' : 'ArrowDown');
    expect(await focusedSquare(page)).toBe(to);
  };

  /** Attempts `uci` on the board by keyboard: Enter on the piece, arrows, Enter on the target. */
  const attemptByKeys = async (page: Page, uci: string) => {
    const events = await page.locator('#transcript li.event').count();
    await walkTo(page, uci.slice(0, 2));
    await page.keyboard.press('Enter');
    await walkTo(page, uci.slice(2, 4));
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('#transcript li.event').length > n &&
        ['your-move', 'over'].includes(document.getElementById('app')!.dataset.state!),
      events,
    );
    // the board was drawn again: the focus is still on the square of the target
    expect(await focusedSquare(page)).toBe(uci.slice(2, 4));
  };

  beforeAll(async () => {
    const served = await serveStatic(WEB_DIR);
    server = served.server;
    origin = served.url;
    browser = await launchChromium();
  });

  afterEach(() => {
    const seen = problems.splice(0);
    expect(seen, `the page reported errors:\n${seen.join('\n')}`).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('plays a whole game by keyboard only, through every tab, with no accessibility violation on any', async () => {
    const page = await openPage();
    // the tab list: one Tab stop; the arrows go along it, showing each tab; each tab passes the check
    await tabTo(page, '[role=tab][aria-selected=true]');
    for (const tab of [...TABS.slice(1), TABS[0]]) {
      await page.keyboard.press('ArrowRight');
      expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.tab)).toBe(tab);
      expect(await page.getAttribute('#app', 'data-tab')).toBe(tab);
      expect(await page.isVisible(`#panel-${tab}`)).toBe(true);
      expect(await a11yViolations(page), `the ${tab} tab`).toEqual([]);
    }
    await page.keyboard.press('End');
    expect(await page.getAttribute('#app', 'data-tab')).toBe('load');
    await page.keyboard.press('Home');
    expect(await page.getAttribute('#app', 'data-tab')).toBe('play');
    // the game's settings by keyboard: White (Kb6, Rh1) against a lone king on a8, the random player
    await tabTo(page, '#opponent');
    await page.keyboard.type('random');
    expect(await page.inputValue('#opponent')).toBe('random');
    await tabTo(page, '#time');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('0.2');
    await tabTo(page, '#start-fen');
    await page.keyboard.type('k7/8/1K6/8/8/8/8/7R w - - 0 1');
    await tabTo(page, '#new-game');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#app[data-state=your-move]');
    expect(await page.isEnabled('#resign')).toBe(true);
    // White's clock runs (White to move), Black's stands
    await page.waitForSelector('#clock-white.running');
    expect(await page.textContent('#clock-black')).toBe('Black 0:00');
    await tabTo(page, '#board .sq');
    // Enter picks the rook up, Escape puts it down again
    await walkTo(page, 'h1');
    await page.keyboard.press('Enter');
    expect(await page.getAttribute('[data-square=h1]', 'class')).toContain('selected');
    await page.keyboard.press('Escape');
    expect(await page.locator('#board .sq.selected').count()).toBe(0);
    // 1. Rh2 (Black's only move is Kb8), 2. Kb7 is Illegal (b7 touches b8), 2. Rh8 mates
    await attemptByKeys(page, 'h1h2');
    expect(await page.locator('#board .sq.last').evaluateAll((els) => els.map((e) => e.dataset.square))).toEqual([
      'h2',
      'h1',
    ]);
    await attemptByKeys(page, 'b6b7');
    expect(await page.textContent('#status')).toMatch(/Illegal, try again/);
    expect(await page.locator('#board .sq.illegal').evaluateAll((els) => els.map((e) => e.dataset.square))).toEqual([
      'b7',
      'b6',
    ]);
    await attemptByKeys(page, 'h2h8');
    expect(await page.getAttribute('#app', 'data-state')).toBe('over');
    expect(await page.textContent('#result')).toBe('White wins: Checkmate (1-0)');
    // the clocks stopped at the end: time used per side as m:ss
    await page.waitForFunction(() => !document.querySelector('#clock .running'));
    expect(await page.textContent('#clock-white')).toMatch(/^White \(you\) \d+:\d\d$/);
    expect(await page.textContent('#clock-black')).toMatch(/^Black \d+:\d\d$/);
    // the tray: Black had only its king, and keeps it
    expect(await page.$$eval('#tray-men li', (els) => els.map((e) => e.dataset.count).join(''))).toBe('000001');
    expect(await page.textContent('#tray-note')).toMatch(/^1 of 1 left; you took 0\./);
    // the referee's log, by move number: 1. (Rh2, Black's move) and 2. (the Illegal try and the mate)
    const moves = await page.$$eval('#transcript > li', (els) =>
      els.map((li) => ({ n: (li as HTMLLIElement).value, events: li.querySelectorAll('li.event').length })),
    );
    expect(moves.map((m) => m.n)).toEqual([1, 2]);
    expect(moves[1].events).toBe(2);
    await page.close();
  }, 120_000);

  it('plays a game by drag: the piece follows the pointer, and the promotion dialog asks for the piece', async () => {
    const page = await openPage();
    await page.selectOption('#opponent', 'random');
    await page.fill('#time', '0.2');
    // White's pawn on e7 promotes; a knight leaves king and knight against king: a draw at once
    await page.fill('#start-fen', 'k7/4P3/8/8/8/8/8/K7 w - - 0 1');
    await page.click('#new-game');
    await page.waitForSelector('#app[data-state=your-move]');
    const centre = async (square: string) => {
      const box = (await page.locator(`[data-square=${square}]`).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const e7 = await centre('e7');
    const e8 = await centre('e8');
    const a2 = await centre('a2');
    // a drop on a square the board does not offer is said, not ignored
    await page.mouse.move(e7.x, e7.y);
    await page.mouse.down();
    await page.mouse.move(a2.x, a2.y, { steps: 4 });
    await page.mouse.up();
    expect(await page.textContent('#status')).toBe('e7a2 is not possible on your board.');
    await page.mouse.move(e7.x, e7.y);
    await page.mouse.down();
    await page.mouse.move(e8.x, e8.y, { steps: 4 });
    // the piece under the pointer while dragging
    const drag = (await page.locator('.piece.drag').boundingBox())!;
    expect(Math.abs(drag.x + drag.width / 2 - e8.x)).toBeLessThan(2);
    await page.mouse.up();
    expect(await page.locator('.piece.drag').count()).toBe(0);
    await page.waitForSelector('#promotion-dialog[open]');
    expect(await page.$$eval('#promotion-choices button', (els) => els.map((e) => e.dataset.piece))).toEqual([
      'q',
      'r',
      'b',
      'n',
    ]);
    expect(await a11yViolations(page), 'the promotion dialog').toEqual([]);
    await page.click('#promotion-choices [data-piece=n]');
    await page.waitForSelector('#app[data-state=over]');
    expect(await page.textContent('#transcript')).toMatch(
      /You play e7e8n\. White has moved\. Draw: insufficient material/,
    );
    expect(await page.textContent('#result')).toBe('Draw: insufficient material (1/2-1/2)');
    expect(await page.getAttribute('[data-square=e8]', 'data-piece')).toBe('wN');
    await page.close();
  }, 60_000);

  it('on a 390-px phone puts the board, the game buttons and the transcript first, the settings folded below; New game asks, Resign ends', async () => {
    const page = await openPage({ width: 390, height: 844 });
    expect(await page.getAttribute('#settings', 'open')).toBeNull();
    const top = (selector: string) => page.$eval(selector, (el) => el.getBoundingClientRect().top + window.scrollY);
    const board = await page.$eval('#board', (el) => el.getBoundingClientRect().bottom + window.scrollY);
    const transcript = await top('#transcript');
    expect(await top('#new-game')).toBeGreaterThan(board);
    const transcriptEnd = await page.$eval('#transcript', (el) => el.getBoundingClientRect().bottom + window.scrollY);
    expect(transcriptEnd).toBeLessThanOrEqual(await top('#settings'));
    // within the first screen and a half, not below the whole settings form
    expect(transcript).toBeLessThan(844 * 1.5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await a11yViolations(page), 'the phone layout').toEqual([]);
    // a game started from the folded settings; New game asks before abandoning it (no: it goes on)
    await page.click('#settings summary');
    await page.selectOption('#opponent', 'random');
    await page.fill('#time', '0.2');
    await page.click('#new-game');
    await page.waitForSelector('#app[data-state=your-move]');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.click('#new-game');
    expect(asked).toEqual(['A game is in progress. Abandon it?']);
    expect(await page.getAttribute('#app', 'data-state')).toBe('your-move');
    // Resign, confirmed: the game is lost
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#resign');
    await page.waitForSelector('#app[data-state=over]');
    expect(await page.textContent('#result')).toBe('Black wins: White resigned (0-1)');
    expect(await page.isEnabled('#resign')).toBe(false);
    await page.close();
  }, 60_000);
});

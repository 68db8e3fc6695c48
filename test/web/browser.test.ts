// The engine in a real browser: dist/web (host/web/main.ts + index.html) served over HTTP (and opened from disk) and driven
// in headless Chromium (the system /usr/bin/chromium, see scripts/ensure-browser.mjs), both through
// the globalThis.krieg API and through the demo page's form. Any page error or console error fails.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium } from '../lib/chromium';
import { serveStatic, WEB_DIR } from '../../scripts/static-server.mjs';
import type { KriegWebApi } from '../../host/web/main';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const CASES = [
  { name: 'start position', fen: START, depth: 4, nodes: 197281 },
  { name: 'Kiwipete', fen: KIWIPETE, depth: 3, nodes: 97862 },
] as const;
const BACKENDS = ['wasm', 'js'] as const;

describe('krieg in headless Chromium', () => {
  let server: Server | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const served = await serveStatic(WEB_DIR);
    server = served.server;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    await page.goto(`${served.url}perft.html`);
    // mountDemo enables the button once the module has loaded and wired the form
    await page.waitForSelector('#run:not([disabled])', { timeout: 600_000 });
  });

  afterEach(() => {
    // reported once per test that saw them, then cleared so one failure does not cascade
    const seen = problems.splice(0);
    expect(seen, `the page reported errors:\n${seen.join('\n')}`).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('exposes globalThis.krieg', async () => {
    const api = await page.evaluate(() => {
      const k = (globalThis as unknown as { krieg?: KriegWebApi }).krieg;
      return k ? { fns: [typeof k.createEngine, typeof k.perft], backends: [...k.BACKENDS] } : null;
    });
    expect(api).toEqual({ fns: ['function', 'function'], backends: ['wasm', 'js'] });
  });

  for (const backend of BACKENDS) {
    for (const c of CASES) {
      it(`API: perft(${c.depth}) of the ${c.name} on ${backend} = ${c.nodes}`, async () => {
        const got = await page.evaluate(
          ({ fen, depth, backend }) => {
            const engine = (globalThis as unknown as { krieg: KriegWebApi }).krieg.createEngine(backend);
            engine.setFen(0, fen);
            return { backend: engine.backend, nodes: engine.perft(0, depth) };
          },
          { fen: c.fen, depth: c.depth, backend },
        );
        expect(got).toEqual({ backend, nodes: c.nodes });
      });
    }
  }

  async function runForm(
    fen: string,
    depth: number,
    backend: string,
    bulk = false,
  ): Promise<{ className: string; nodes: string | null; text: string }> {
    await page.fill('#fen', fen);
    await page.fill('#depth', String(depth));
    await page.selectOption('#backend', backend);
    await page.setChecked('#bulk', bulk);
    await page.click('#run');
    await page.waitForFunction(
      () => {
        const r = document.getElementById('result')!;
        return (
          (r.className === 'ok' || r.className === 'error') &&
          !(document.getElementById('run') as HTMLButtonElement).disabled
        );
      },
      undefined,
      { timeout: 600_000 },
    );
    return page.$eval('#result', (r) => ({
      className: r.className,
      nodes: r.getAttribute('data-nodes'),
      text: r.textContent ?? '',
    }));
  }

  for (const backend of BACKENDS) {
    for (const c of CASES) {
      it(`UI: perft(${c.depth}) of the ${c.name} on ${backend} shows ${c.nodes}`, async () => {
        const r = await runForm(c.fen, c.depth, backend);
        expect(r.className, r.text).toBe('ok');
        expect(Number(r.nodes)).toBe(c.nodes);
        expect(r.text).toContain(c.nodes.toLocaleString('en-US'));
        expect(r.text).toMatch(/ms/);
        expect(r.text).toMatch(/nodes\/s/);
      });
    }
  }

  it('UI: bulk counting gives the same count', async () => {
    const r = await runForm(KIWIPETE, 3, 'wasm', true);
    expect(Number(r.nodes)).toBe(97862);
    if (process.env.KRIEG_WEB_SCREENSHOT)
      await page.screenshot({ path: process.env.KRIEG_WEB_SCREENSHOT, fullPage: true });
  });

  it('the pages opened from disk (file://) work too: their scripts are classic ones, not modules', async () => {
    const local = await browser!.newPage();
    const errors: string[] = [];
    local.on('pageerror', (err) => errors.push(err.message));
    local.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await local.goto(pathToFileURL(join(WEB_DIR, 'perft.html')).href);
    await local.waitForSelector('#run:not([disabled])', { timeout: 600_000 });
    await local.fill('#depth', '3');
    await local.click('#run');
    await local.waitForFunction(() => document.getElementById('result')!.className === 'ok', undefined, {
      timeout: 600_000,
    });
    expect(await local.$eval('#result', (r) => r.getAttribute('data-nodes'))).toBe('8902');
    // the app (index.html) too: from disk its workers start from a Blob of worker-source.js, and nothing it loads is a module
    await local.goto(pathToFileURL(join(WEB_DIR, 'index.html')).href);
    await local.waitForSelector('#app[data-ready=true]', { timeout: 600_000 });
    // the JS core is loaded only when that backend is chosen (portable.js, a classic script): from disk too
    await local.selectOption('#backend', 'js');
    await local.waitForSelector('#app[data-backend=js]', { timeout: 600_000 });
    expect(await local.getAttribute('#status', 'data-kind')).not.toBe('error');
    await local.close();
    expect(errors).toEqual([]);
  });

  it('UI: a bad FEN is reported on the page, not thrown', async () => {
    const r = await runForm('not a fen', 2, 'js');
    expect(r.className).toBe('error');
    expect(r.nodes).toBeNull();
    expect(r.text).toContain('bad-fen');
    await page.fill('#fen', START); // leave the page in a sane state
  });
});

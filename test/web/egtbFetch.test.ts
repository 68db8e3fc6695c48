// The web game's opponent's tables (host/web/egtb.ts fetchedTables), in Node (fetch and
// DecompressionStream as the browser's): a small K+R table served as `npm run web` serves the
// cache's; asked first, the source says no and fetches it; asked again once it came, it loads it
// into the player's engine, whose probe then gives the table's value. A table not served stays
// "no", without an error. And the page's filter of the FENs worth asking the table about.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveStatic, WEB_DIR } from '../../scripts/static-server.mjs';
import { createEngine } from '../../host/node';
import { preset } from '../../host/record/rules';
import { egtbBuild, egtbEntries, egtbProbe } from '../../host/core/egtb';
import { egtbTableName } from '../../host/players/egtb';
import { egtbPath, saveTable } from '../../host/players/egtbFile.node';
import { fetchedTables } from '../../host/web/egtb';
import { mayBeTabled } from '../../host/web/app/egtb';

const FEN = '8/k7/2K5/8/8/8/7R/8 w - - 0 1';
const SQUARES = [48, 57]; // a7, b8
const rules = preset('berkeley');
const table = egtbTableName(rules);
const dir = mkdtempSync(join(tmpdir(), 'krieg-egtb-fetch-'));
let server: Server | undefined;
let base = '';
let value = 0;

beforeAll(async () => {
  const engine = createEngine('wasm', 16);
  engine.setRules(rules);
  engine.setFen(0, FEN);
  const built = egtbBuild(engine, 'krk', { log2: 16, around: [{ handle: 0, squares: SQUARES }], depth: 3 });
  value = egtbProbe(engine, 0, SQUARES).value;
  const byValue = [built.states - built.byValue.reduce((a, b) => a + b, 0), ...built.byValue.slice(1)];
  const header = { ending: 'krk' as const, table, states: built.states, starts: built.starts, longest: built.longest };
  saveTable(egtbPath(dir, 'krk', table), { ...header, byValue }, egtbEntries(engine));
  const served = await serveStatic(WEB_DIR, { extra: { '/egtb/': dir } });
  server = served.server;
  base = `${served.url}egtb/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Asks `ask` until it says yes, or `tries` times with a pause between; the last answer. */
async function until(ask: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (ask()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe("the web opponent's tables", () => {
  it('no while the table is fetched, then loaded into the engine: the probe gives its value', async () => {
    expect(value).toBe(3);
    const tables = fetchedTables(base);
    const engine = createEngine('wasm', 64);
    engine.setRules(rules);
    expect(tables(engine, 'krk', table)).toBe(false); // asked first: the fetch starts
    expect(await until(() => tables(engine, 'krk', table))).toBe(true);
    engine.setFen(0, FEN);
    expect(egtbProbe(engine, 0, SQUARES).value).toBe(value);
  });

  it('a table not served stays no', async () => {
    const tables = fetchedTables(base);
    const engine = createEngine('wasm', 64);
    engine.setRules(rules);
    expect(await until(() => tables(engine, 'kqk', table), 20)).toBe(false);
  });
});

describe('the FENs the page asks the table about', () => {
  it.each([
    ['8/k7/2K5/8/8/8/7R/8 w - - 0 1', true],
    ['8/k7/2K5/8/8/8/7R/8 b - - 0 1', false], // the lone king to move
    ['8/K7/2k5/8/8/8/7r/8 b - - 0 1', true],
    ['8/k7/2K5/8/8/8/2B4B/8 w - - 0 1', true],
    ['8/k7/2K5/8/8/8/2B4N/8 w - - 0 1', true],
    ['8/k7/2K5/8/8/8/2N4N/8 w - - 0 1', false],
    ['8/k7/2K5/8/8/8/7R/7P w - - 0 1', false],
    ['8/kp6/2K5/8/8/8/7R/8 w - - 0 1', false],
  ])('%s: %s', (fen, tabled) => expect(mayBeTabled(fen)).toBe(tabled));
});

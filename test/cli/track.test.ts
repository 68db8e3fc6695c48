// `krieg track` and `krieg belief --mode track` in-process: the plies of a view small enough to know
// by hand (after 1. e2e4 e7e5, White holds 1 position, then Black's 20 first moves), the exact
// tracker's positions equal to the breadth-first belief, a pool kept under --pool-max, the SVG
// chart, the JSON document, and the exit codes: 3 with the bad ply and event named, 2 for bad input.
// Budgets are work budgets (the time budget set out of reach), so nothing depends on the clock.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg as runKrieg } from '../lib/cli';

const krieg = (args: string[]) => runKrieg(args, DIR);
const NO_CLOCK = ['--budget-ms', '100000000'];

let DIR = '';
const TWO = 'two.kpgn'; // 1. e2e4 e7e5, the full record
const BAD = 'bad.kpgn'; // White's view where Black captured on e4 at move 1: impossible
const GAMES = 'games.kpgn';
const SHORT = 'short.kpgn';

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-track-'));
  const header = (filtered: string) =>
    `[White "a"]\n[Black "b"]\n[Result "*"]\n[Variant "berkeley"]\n[Filtered "${filtered}"]\n\n`;
  writeFileSync(join(DIR, TWO), `${header('no')}1. e2e4 {,:}\n1... e7e5 {,:}\n*\n`);
  writeFileSync(join(DIR, BAD), `${header('white')}1. e2e4 {,:}\n1... ?? {e4,:0}\n*\n`);
  for (const [out, plies] of [
    [GAMES, '24'],
    [SHORT, '8'],
  ]) {
    const play = await krieg(['play', '--games', '2', '--seed', '5', '--max-plies', plies, '--out', out]);
    expect(play.status, play.stderr).toBe(0);
  }
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('krieg track', () => {
  it('prints one line per ply: 1 position after 1. e2e4, 20 after Black replies', async () => {
    const run = await krieg(['track', TWO, '--as', 'white', ...NO_CLOCK]);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ply +1 +exact +size +1 +top-ups +0 +\d+\.\d ms$/);
    expect(lines[1]).toMatch(/^ply +2 +exact +size +20 +top-ups +0 +\d+\.\d ms$/);
    expect(lines[2]).toMatch(/^plies: 2 \(2 exact, 0 pool\), \d+\.\d{3} s$/);
    expect(run.stderr).toBe('');
  });

  it('--json gives the plies; --out draws them', async () => {
    const run = await krieg(['track', TWO, '--as', 'white', '--json', '--out', 'track.svg', ...NO_CLOCK]);
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.complete).toBe(true);
    expect(doc.plies.map((r: { ply: number; mode: string; size: number }) => [r.ply, r.mode, r.size])).toEqual([
      [1, 'exact', 1],
      [2, 'exact', 20],
    ]);
    expect(doc.svg).toBe('track.svg');
    const svg = readFileSync(join(DIR, 'track.svg'), 'utf8');
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<polyline');
  });

  it('keeps a pool under --pool-max, and every pool ply holds positions', async () => {
    const run = await krieg([
      'track',
      GAMES,
      '--as',
      'black',
      '--exact-max',
      '30',
      '--pool-max',
      '60',
      '--budget-work',
      '200000',
      '--json',
      ...NO_CLOCK,
    ]);
    expect(run.status, run.stderr).toBe(0);
    const rows: { mode: string; size: number }[] = JSON.parse(run.stdout).plies;
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.some((r) => r.mode === 'pool')).toBe(true);
    for (const r of rows) expect(r.size).toBeLessThanOrEqual(r.mode === 'exact' ? 30 : 60);
  });

  it('names the bad ply and event, exit 3, after printing the plies before it', async () => {
    const run = await krieg(['track', BAD, ...NO_CLOCK]);
    expect(run.stdout).toMatch(/^ply +1 +exact +size +1 /);
    expect(expectOneLine(run, 3)).toMatch(/^krieg: the view is inconsistent: no position survives ply 2 \(event 2: /);
  });

  it('refuses bad input with one line, exit 2, writing nothing', async () => {
    for (const args of [
      ['track', TWO, '--as', 'white', '--out', 'track.png'],
      ['track', TWO, '--as', 'white', '--budget-ms', '0'],
      ['track', TWO, '--as', 'white', '--pool-max', 'many'],
      ['track', 'missing.kpgn', '--as', 'white'],
      ['track', TWO],
    ]) {
      expectOneLine(await krieg(args), 2);
    }
    expect(existsSync(join(DIR, 'track.png'))).toBe(false);
  });
});

describe('krieg belief --mode track', () => {
  it('gives the breadth-first belief while the tracker is exact', async () => {
    for (const [as, game] of [
      ['white', '1'],
      ['black', '2'],
    ]) {
      const tracked = await krieg([
        'belief',
        SHORT,
        '--as',
        as,
        '--game',
        game,
        '--mode',
        'track',
        '--json',
        '--show',
        'fens',
      ]);
      expect(tracked.status, tracked.stderr).toBe(0);
      const t = JSON.parse(tracked.stdout);
      const bfs = JSON.parse(
        (await krieg(['belief', SHORT, '--as', as, '--game', game, '--mode', 'bfs', '--json', '--show', 'fens']))
          .stdout,
      );
      expect(t.tracker).toBe('exact');
      // the same positions; the halfmove clock is that of one history (not part of a position without a 50-move rule)
      const positions = (fens: string[]) => fens.map((f) => f.replace(/ \d+ (\d+)$/, ' $1')).sort();
      expect(positions(t.fens)).toEqual(positions(bfs.fens));
    }
  });

  it('exit 3 naming the ply on an inconsistent view', async () => {
    const run = await krieg(['belief', BAD, '--mode', 'track']);
    expect(expectOneLine(run, 3)).toMatch(/^krieg: the view is inconsistent: no position survives ply 2 /);
  });
});

// `krieg belief` and `krieg infoset` through the built CLI: counts on a view small enough to know
// by hand (after 1. e2e4 e7e5, White's belief is Black's 20 possible first moves), agreement of
// the breadth-first, depth-first and sampling estimators, every --show form, the SVG and PNG
// heatmaps, the JSON document, and the exit codes: 3 for an inconsistent view, 4 for a limit, 2 for bad input.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, readdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOneLine, krieg as runKrieg, type CliRun } from '../lib/cli';
import { decodePng } from '../belief/decodePng';
import { PNG_WIDTH, PNG_HEIGHT, PNG_LEFT, PNG_TOP, PNG_SQUARE } from '../../host/belief/heatmapPng.node';

// every command runs in the test's temporary directory
const krieg = (args: string[]) => runKrieg(args, DIR);

/** The count printed on the first line ("positions: N" / "histories: N"). */
function countOf(run: CliRun): number {
  const m = /^(?:positions|histories): (\d+)/.exec(run.stdout);
  if (!m) throw new Error(`no count in:\n${run.stdout}${run.stderr}`);
  return Number(m[1]);
}

const FEN = /^[1-8pnbrqkPNBRQK/]+ [wb] [KQkq-]+ [a-h1-8-]+ \d+ \d+$/;
const fensOf = (run: CliRun) => run.stdout.split('\n').filter((l) => FEN.test(l));

let DIR = '';
const TWO = 'two.kpgn'; // 1. e2e4 e7e5, the full record
const BAD = 'bad.kpgn'; // White's view where Black captured on e4 at move 1: impossible
const GAMES = 'games.kpgn';
const LONG = 'long.kpgn';

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-belief-'));
  const header = (filtered: string) =>
    `[White "a"]\n[Black "b"]\n[Result "*"]\n[Variant "berkeley"]\n[Filtered "${filtered}"]\n\n`;
  writeFileSync(join(DIR, TWO), `${header('no')}1. e2e4 {,:}\n1... e7e5 {,:}\n*\n`);
  writeFileSync(join(DIR, BAD), `${header('white')}1. e2e4 {,:}\n1... ?? {e4,:0}\n*\n`);
  for (const [out, games, seed, plies] of [
    [GAMES, '3', '5', '10'],
    [LONG, '1', '11', '40'],
  ]) {
    const play = await krieg(['play', '--games', games, '--seed', seed, '--max-plies', plies, '--out', out]);
    expect(play.status, play.stderr).toBe(0);
  }
});

afterAll(async () => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('krieg belief', () => {
  it("counts White's 20 positions after 1. e2e4 e7e5, in every mode", async () => {
    for (const mode of ['dfs', 'bfs']) {
      const run = await krieg(['belief', TWO, '--as', 'white', '--mode', mode]);
      expect(run.status, run.stderr).toBe(0);
      expect(countOf(run)).toBe(20);
      expect(run.stdout).toMatch(new RegExp(`^outcome: complete \\(${mode}; work \\d+, \\d+\\.\\d{3} s\\)$`, 'm'));
      expect(run.stderr).toBe('');
    }
    const sample = await krieg(['belief', TWO, '--as', 'white', '--mode', 'sample', '-k', '50']);
    expect(sample.status, sample.stderr).toBe(0);
    expect(countOf(sample)).toBe(20); // fewer exist than asked for: all of them
  });

  it('prints 20 distinct FENs, the same for bfs and dfs, and samples among them', async () => {
    const dfs = fensOf(await krieg(['belief', TWO, '--as', 'white', '--show', 'fens']));
    const bfs = fensOf(await krieg(['belief', TWO, '--as', 'white', '--mode', 'bfs', '--show', 'fens']));
    expect(dfs).toHaveLength(20);
    expect(new Set(dfs).size).toBe(20);
    expect(bfs).toEqual(dfs);
    for (const fen of dfs) expect(fen).toMatch(/\/4P3\/8\/PPPP1PPP\/RNBQKBNR w KQkq - [01] 2$/);
    expect(dfs).toContain('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');
    for (const seed of ['1', '2']) {
      const run = await krieg([
        'belief',
        TWO,
        '--as',
        'white',
        '--mode',
        'sample',
        '-k',
        '5',
        '--seed',
        seed,
        '--show',
        'fens',
      ]);
      expect(run.status, run.stderr).toBe(0);
      const sample = fensOf(run);
      expect(sample).toHaveLength(5);
      expect(new Set(sample).size).toBe(5);
      for (const fen of sample) expect(dfs).toContain(fen);
      // how the sample was drawn: its descents, some abandoned at their Luby cutoff (issue #13)
      expect(run.stdout).toMatch(/sample of 5, seed \d; \d+ descents, \d+ abandoned at their Luby cutoff/);
    }
    const again = fensOf(
      await krieg(['belief', TWO, '--as', 'white', '--mode', 'sample', '-k', '5', '--seed', '2', '--show', 'fens']),
    );
    expect(again).toEqual(
      fensOf(
        await krieg(['belief', TWO, '--as', 'white', '--mode', 'sample', '-k', '5', '--seed', '2', '--show', 'fens']),
      ),
    );
  });

  it('agrees across modes and backends on played games, as both sides', async () => {
    for (const game of ['1']) {
      // 3,603 and 9,688 positions
      for (const as of ['white', 'black']) {
        const counts = [
          countOf(await krieg(['belief', GAMES, '--game', game, '--as', as, '--mode', 'dfs'])),
          countOf(await krieg(['belief', GAMES, '--game', game, '--as', as, '--mode', 'bfs'])),
          countOf(await krieg(['belief', GAMES, '--game', game, '--as', as, '--backend', 'js'])),
        ];
        expect(counts[0]).toBeGreaterThan(1);
        expect(counts).toEqual([counts[0], counts[0], counts[0]]);
        // every position has at least one history leading to it
        expect(countOf(await krieg(['infoset', GAMES, '--game', game, '--as', as, '--count']))).toBeGreaterThanOrEqual(
          counts[0],
        );
      }
    }
  });

  it('reads a view file as its own side', async () => {
    const view = await krieg(['view', GAMES, '--as', 'black', '--game', '1']);
    expect(view.status, view.stderr).toBe(0);
    writeFileSync(join(DIR, 'view.kpgn'), view.stdout);
    const fromView = await krieg(['belief', 'view.kpgn']);
    expect(fromView.status, fromView.stderr).toBe(0);
    expect(countOf(fromView)).toBe(countOf(await krieg(['belief', GAMES, '--as', 'black'])));
    expectOneLine(await krieg(['belief', 'view.kpgn', '--as', 'white']), 2);
  });

  it('draws boards', async () => {
    const run = await krieg(['belief', TWO, '--as', 'white', '--show', 'boards']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.match(/^ {5}a b c d e f g h$/gm)).toHaveLength(20);
    expect(run.stdout).toContain('  1  R N B Q K B N R');
    expect(run.stdout).toContain('  4  . . . . P . . .');
  });

  it('prints the opponent-piece heatmap and writes it as SVG', async () => {
    const run = await krieg(['belief', TWO, '--as', 'white', '--show', 'heatmap', '--out', 'heat.svg']);
    expect(run.status, run.stderr).toBe(0);
    const rows = run.stdout.split('\n').filter((l) => /^[1-8]   /.test(l));
    expect(rows).toHaveLength(8);
    // cells of 7 characters (count, space, percentage) two apart, after the rank and 3 spaces
    const cells = (rank: number) =>
      Array.from({ length: 8 }, (_, i) => rows[8 - rank].slice(4 + 9 * i, 11 + 9 * i).trim());
    expect(cells(8)).toEqual(['20 100%', '18  90%', '20 100%', '20 100%', '20 100%', '20 100%', '18  90%', '20 100%']);
    expect(cells(7)).toEqual(Array(8).fill('18  90%'));
    expect(cells(5)).toEqual(Array(8).fill('1   5%'));
    for (const rank of [1, 2, 3, 4]) expect(cells(rank)).toEqual(Array(8).fill('0   0%'));
    const svg = readFileSync(join(DIR, 'heat.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<rect/g)).toHaveLength(64);
    expect(svg).toContain('White&apos;s belief');
    expect(svg).toMatch(/>a8: 20 \(100%\)</);
    expect(readdirSync(DIR).filter((f) => f.endsWith('.tmp'))).toEqual([]); // written atomically
  });

  it('writes the heatmap as PNG for a .png file', async () => {
    const run = await krieg(['belief', TWO, '--as', 'white', '--out', 'heat.png', '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).png).toBe('heat.png');
    const png = decodePng(readFileSync(join(DIR, 'heat.png')));
    expect([png.width, png.height, png.bitDepth, png.colourType]).toEqual([PNG_WIDTH, PNG_HEIGHT, 8, 2]);
    expect(png.text.Title).toMatch(/^White's belief: a vs b, game 1, after 2 plies$/);
    // a square's colour, at its top left corner (clear of the count written in it)
    const at = (square: string) =>
      png.rgb(
        PNG_LEFT + (square.charCodeAt(0) - 97) * PNG_SQUARE + 2,
        PNG_TOP + (8 - Number(square[1])) * PNG_SQUARE + 2,
      );
    // a Black piece on a8 in all 20 positions, on b3 and d3 in none (the three are light squares),
    // on a5 in 1 of 20 and on a3 in none (both dark)
    expect(at('a8')).not.toEqual(at('b3'));
    expect(at('b3')).toEqual(at('d3'));
    expect(at('a5')).not.toEqual(at('a3'));
    expect(readdirSync(DIR).filter((f) => f.endsWith('.tmp'))).toEqual([]); // written atomically
  });

  it('prints one JSON document', async () => {
    const run = await krieg(['belief', TWO, '--as', 'white', '--show', 'fens', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ outcome: 'complete', complete: true, count: 20, as: 'white', mode: 'bfs', game: 1 }); // auto: breadth-first, the layers fit
    expect(doc.work).toBeGreaterThan(0);
    expect(typeof doc.ms).toBe('number');
    expect(doc.fens).toEqual(fensOf(await krieg(['belief', TWO, '--as', 'white', '--show', 'fens'])));
    expect(doc.heatmap.color).toBe('black');
    expect(doc.heatmap.total).toBe(20);
    expect(doc.heatmap.counts).toHaveLength(64);
    expect(doc.heatmap.counts.reduce((a: number, b: number) => a + b, 0)).toBe(20 * 16);
  });

  it('exits 3 on an inconsistent view, naming the ply and event', async () => {
    for (const mode of ['dfs', 'bfs', 'sample']) {
      const run = await krieg(['belief', BAD, '--mode', mode]);
      const line = expectOneLine(run, 3);
      expect(line).toMatch(/^krieg: the view is inconsistent: no position survives ply 2 \(event 2: Black's move/);
      expect(countOf(run)).toBe(0);
    }
    const json = await krieg(['belief', BAD, '--json']);
    expect(json.status).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ outcome: 'inconsistent', failedPly: 1, failedEvent: 1, count: 0 });
  });

  it('exits 4 with the partial count when a limit is reached', async () => {
    const run = await krieg(['belief', TWO, '--as', 'white', '--limit-positions', '5', '--show', 'fens']);
    expect(expectOneLine(run, 4)).toMatch(/^krieg: limit reached: more than 5 positions/);
    expect(run.stdout).toMatch(/^positions: 5 \(partial\)$/m);
    expect(fensOf(run)).toHaveLength(5);
    // exactly at the limit is complete
    expect((await krieg(['belief', TWO, '--as', 'white', '--limit-positions', '20'])).status).toBe(0);
    const bfs = await krieg(['belief', TWO, '--as', 'white', '--mode', 'bfs', '--limit-positions', '5']);
    expect(expectOneLine(bfs, 4)).toMatch(/limit reached/);
    expect(bfs.stdout).toMatch(/^positions: unknown$/m);
    const time = await krieg(['belief', LONG, '--as', 'white', '--mode', 'dfs', '--limit-time', '0.3']);
    expect(expectOneLine(time, 4)).toMatch(
      /limit reached: the time limit of 0.3 s \(--limit-time\); the count is partial; to go faster try --mode bfs/,
    );
    expect(countOf(time)).toBeGreaterThan(0);
    const work = await krieg(['belief', LONG, '--as', 'white', '--limit-work', '100000', '--json']); // checked between steps of 20,000 units
    expect(work.status).toBe(4);
    expect(JSON.parse(work.stdout)).toMatchObject({ outcome: 'limit-work', complete: false });
  });

  it('documents the exit codes in --help', async () => {
    for (const command of ['belief', 'infoset']) {
      const help = await krieg([command, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(/3 the view is\s+inconsistent/);
      expect(help.stdout).toMatch(/4 a limit\s+was\s+reached/);
    }
  });

  it('rejects bad input with exit code 2 and one line', async () => {
    const cases: [string[], RegExp][] = [
      [['belief', TWO], /full record; say whose view with --as/],
      [
        ['belief', TWO, '--as', 'green'],
        /belief: --as must be one of white, black, got 'green'; run 'krieg belief --help'/,
      ],
      [['belief', TWO, '--as', 'white', '--mode', 'bogus'], /--mode must be one of/],
      [['belief', TWO, '--as', 'white', '--game', '2'], /game must be an integer from 1 to 1/],
      [['belief', TWO, '--as', 'white', '-k', '0', '--mode', 'sample'], /k must be/],
      [['belief', TWO, '--as', 'white', '--limit-positions', 'lots'], /limit-positions must be/],
      [['belief', TWO, '--as', 'white', '--limit-time', '-1'], /limit-time must be/],
      [['belief', TWO, '--as', 'white', '--out', 'heat.jpg'], /out must name a \.svg or \.png file, got 'heat\.jpg'/],
      [['belief', 'missing.kpgn', '--as', 'white'], /missing\.kpgn: no such file/],
      [['belief', BAD, '--as', 'black'], /white's view; black's cannot be derived/],
      [['infoset', TWO, '--as', 'white'], /say --count or --list/],
      [['infoset', TWO, '--as', 'white', '--count', '--list'], /--count and --list exclude each other/],
      [['infoset', TWO, '--as', 'white', '--count', '--limit-histories', '0'], /limit-histories must be/],
    ];
    for (const [args, reason] of cases) {
      const run = await krieg(args);
      expect(expectOneLine(run, 2), args.join(' ')).toMatch(reason);
      expect(run.stdout, args.join(' ')).toBe('');
    }
  });
});

describe('krieg infoset', () => {
  it('counts and lists the 20 histories of 1. e2e4 e7e5 as White knows it', async () => {
    const count = await krieg(['infoset', TWO, '--as', 'white', '--count']);
    expect(count.status, count.stderr).toBe(0);
    expect(countOf(count)).toBe(20);
    const list = await krieg(['infoset', TWO, '--as', 'white', '--list']);
    expect(list.status, list.stderr).toBe(0);
    const lines = list.stdout.split('\n').filter((l) => /^e2e4 [a-h][1-8][a-h][1-8]$/.test(l));
    expect(lines).toHaveLength(20);
    expect(new Set(lines).size).toBe(20);
    expect(lines).toContain('e2e4 e7e5');
    const json = JSON.parse((await krieg(['infoset', TWO, '--as', 'white', '--list', '--json'])).stdout);
    expect(json).toMatchObject({ outcome: 'complete', count: 20 });
    expect(json.histories.sort()).toEqual(lines.sort());
  });

  it("lists Black's histories with White's moves hidden ones filled in", async () => {
    const run = await krieg(['infoset', GAMES, '--as', 'black', '--list', '--limit-histories', '50']);
    expect([0, 4]).toContain(run.status);
    const lines = run.stdout.split('\n').filter((l) => /^([a-h][1-8][a-h][1-8][qrbn]? ?)+$/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line.split(' ').filter((_, i) => i % 2 === 1)).toEqual(['d7d6', 'b7b5', 'c8h3', 'c7c6', 'b8a6']);
  });

  it('uses the same exit codes: 3 inconsistent, 4 limit', async () => {
    expect(expectOneLine(await krieg(['infoset', BAD, '--count']), 3)).toMatch(
      /inconsistent: no position survives ply 2/,
    );
    const limited = await krieg(['infoset', TWO, '--as', 'white', '--list', '--limit-histories', '7']);
    expect(expectOneLine(limited, 4)).toMatch(/^krieg: limit reached: more than 7 histories/);
    expect(limited.stdout.split('\n').filter((l) => l.startsWith('e2e4 '))).toHaveLength(7);
    expect((await krieg(['infoset', TWO, '--as', 'white', '--count', '--limit-histories', '20'])).status).toBe(0);
    // millions of histories, found quickly one after the other: the time limit must still stop the
    // count (exit 4, not the full count; no wall-clock bound here: a busy machine slows the child)
    const time = await krieg(['infoset', LONG, '--as', 'white', '--count', '--limit-time', '0.5']);
    expect(expectOneLine(time, 4)).toMatch(/limit reached: the time limit of 0.5 s/);
  });
});

// What the commands that read a games file say about files that are not one, in one line with exit
// 2 (issue #38): a directory given as the file (it said "(no-file)") or as --out (it said "EBUSY");
// a chess PGN and a binary file (they got "missing [Variant] tag"); an Illegal count past the range
// (G1: belief named no file nor line, track printed plies before refusing the view).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, BACKENDS, KriegError } from '../../host/node';
import { trackView } from '../../host/belief/track';
import { MAX_VIEW_COUNT, type View } from '../../host/record/record';
import { preset } from '../../host/record/rules';
import { START_FEN } from '../../host/notation/fen';
import { ROOT, expectOneLine, krieg as runKrieg } from '../lib/cli';

let DIR = '';
const krieg = (args: string[]) => runKrieg(args, DIR);

const LICHESS = [
  '[Event "Rated Blitz game"]',
  '[Site "https://lichess.org/abcdefgh"]',
  '[Date "2024.01.01"]',
  '[White "a"]',
  '[Black "b"]',
  '[Result "1-0"]',
  '[TimeControl "180+0"]',
  '[ECO "C20"]',
  '',
  '1. e4 { [%clk 0:03:00] } 1... e5 { [%clk 0:03:00] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0',
  '',
].join('\n');

/** White's view of four moves each, Black's last turn heard with `illegal` Illegal attempts (on line 12). */
const viewWith = (illegal: number) =>
  [
    '[Variant "berkeley"]',
    '[Filtered "white"]',
    '[Result "*"]',
    '',
    '1. e2e4 {,:}',
    '1... ?? {,:}',
    '2. d2d4 {,:}',
    '2... ?? {,:}',
    '3. g1f3 {,:}',
    '3... ?? {,:}',
    '4. b1c3 {,:}',
    `4... ?? {,:${illegal}}`,
    '5. a2a3 {,:}',
    '*',
    '',
  ].join('\n');

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-gamesfile-'));
  writeFileSync(join(DIR, 'lichess.pgn'), LICHESS);
  writeFileSync(join(DIR, 'standard.pgn'), LICHESS.replace('[ECO', '[Variant "Standard"]\n[ECO'));
  copyFileSync(join(ROOT, 'data/problems.sqlite'), join(DIR, 'games.kpgn'));
  writeFileSync(join(DIR, 'counted.kpgn'), viewWith(MAX_VIEW_COUNT + 1));
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('files that are not games files', () => {
  it('a directory given as the file is named a directory (view, belief, track)', async () => {
    for (const command of ['view', 'belief', 'track'])
      expect(expectOneLine(await krieg([command, '.', '--as', 'white']), 2), command).toBe(
        'krieg: .: cannot read it (it is a directory)',
      );
  });

  it('a chess PGN is named one, not a record missing its [Variant] tag', async () => {
    for (const command of ['view', 'belief', 'track', 'infoset'])
      expect(
        expectOneLine(
          await krieg([command, 'lichess.pgn', '--as', 'white', ...(command === 'infoset' ? ['--count'] : [])]),
          2,
        ),
        command,
      ).toMatch(
        /^krieg: lichess\.pgn: line 1, column 1: this looks like a chess PGN \(moves in SAN and no \[Variant\] tag\), not a Kriegspiel record; /,
      );
    expect(expectOneLine(await krieg(['view', 'standard.pgn', '--as', 'white']), 2)).toMatch(
      /^krieg: standard\.pgn: line 8, column 1: this looks like a chess PGN \(moves in SAN and \[Variant "Standard"\]\), not a Kriegspiel record; /,
    );
    // a Kriegspiel record without its [Variant] tag is still told so
    expect(
      expectOneLine(await krieg(['view', join(ROOT, 'test/data/malformed/variant-missing.kpgn'), '--as', 'white']), 2),
    ).toMatch(/line 1, column 1: missing \[Variant\] tag$/);
  });

  it('a binary file is named one', async () => {
    for (const command of ['view', 'belief', 'solve'])
      expect(expectOneLine(await krieg([command, 'games.kpgn', '--as', 'white']), 2), command).toBe(
        'krieg: games.kpgn: not a games file (binary data, not text); krieg reads KPGN, its JSON records and views, and ks-game saves',
      );
  });
});

describe('--out naming a directory (G6)', () => {
  it('says it is a directory, in one line with exit 2, and writes nothing', async () => {
    const before = readdirSync(DIR).sort();
    const play = await krieg(['play', '--games', '1', '--max-plies', '2', '--out', '.']);
    expect(expectOneLine(play, 2)).toBe('krieg: .: cannot write it (it is a directory)');
    const solve = await krieg(['solve', '--positions', '7k/8/6K1/8/8/8/8/R7 w - - 0 1', '--ply', '3', '--out', DIR]);
    expect(expectOneLine(solve, 2)).toBe(`krieg: ${DIR}: cannot write it (it is a directory)`);
    expect(readdirSync(DIR).sort()).toEqual(before);
  });
});

describe('an Illegal count past the range (G1)', () => {
  it('is refused naming the file, line and column, before any ply is tracked', async () => {
    const expected = `krieg: counted.kpgn: line 12, column 12: Illegal count ${MAX_VIEW_COUNT + 1} is out of range (an integer from 0 to ${MAX_VIEW_COUNT})`;
    for (const command of ['belief', 'track', 'view', 'infoset']) {
      const run = await krieg([
        command,
        'counted.kpgn',
        '--as',
        'white',
        ...(command === 'infoset' ? ['--count'] : []),
      ]);
      expect(expectOneLine(run, 2), command).toBe(expected);
      expect(run.stdout, command).toBe('');
    }
  });

  it.each(BACKENDS)('a view given to the tracker is checked whole before the first ply (%s)', (backend) => {
    const engine = createEngine(backend, 64);
    const events: View['events'] = [
      { type: 'attempt', side: 'white', attempt: 'e2e4', percept: { answer: 'legal' } },
      { type: 'opponent-move', side: 'black', illegal: 0, percept: { answer: 'legal' } },
      { type: 'attempt', side: 'white', attempt: 'd2d4', percept: { answer: 'legal' } },
      { type: 'opponent-move', side: 'black', illegal: MAX_VIEW_COUNT + 1, percept: { answer: 'legal' } },
    ];
    const view: View = {
      rules: preset('berkeley'),
      start: START_FEN,
      white: '?',
      black: '?',
      result: '*',
      tags: {},
      as: 'white',
      events,
    };
    const rows: number[] = [];
    expect(() => trackView(engine, view, {}, { work: 100_000 }, (r) => rows.push(r.ply))).toThrow(KriegError);
    expect(rows).toEqual([]);
  });
});

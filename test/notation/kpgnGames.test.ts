// Splitting KPGN text into games (host/notation/kpgn/games.ts), the one splitter of every reader:
// parseKpgnGames (a whole text), the games file reader (host/io/gamesFile.ts, a file read in pieces)
// and the games log (host/io/gamesLog.ts, which resumes a run after its last complete game). Each
// text below is written by hand with its games' byte offsets and line numbers counted by hand: a
// non-ASCII tag (bytes differ from characters), CRLF, % comments and tag values holding brackets
// and results, tags after moves with no blank line, no final newline, a truncated last game.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KpgnGameScanner,
  kpgnGameComplete,
  kpgnGameSpans,
  parseKpgnGames,
  type GameSpan,
} from '../../host/notation/kpgn';
import { readGame, readGames } from '../../host/io/gamesFile';
import { GamesLog, readGamesLog, type RunIdentity } from '../../host/io/gamesLog';

/** Two games, a blank line between them; `[White "é"]` is 12 bytes of 11 characters. */
const PLAIN = [
  '[White "é"]', //                 bytes 0–12
  '[Variant "berkeley"]', //        13–33
  '[Result "*"]', //                34–46
  '', //                            47
  '1. e2e4 {,:}', //                line 5: 48–60
  '*', //                           61–62
  '', //                            63
  '[White "b"]', //                 line 8 (index 7): bytes 64–
  '[Variant "berkeley"]',
  '[Result "*"]',
  '',
  '1. d2d4 {,:}', //                line 12
  '1... d7d5 {,:}', //              line 13
  '*',
  '', //                            141 bytes in all
];

/** Brackets and results in a comment before the first game, in a tag value and in a comment between moves. */
const TRICKY = [
  '% [White "not a game"] 1-0', //  a comment: 27 bytes with its newline
  '[Event "round [2]: 1-0"]', //    line 2 (index 1): game 1 starts at byte 27
  '[White "a"]',
  '[Variant "berkeley"]',
  '[Result "*"]',
  '',
  '1. e2e4 {,:}', //                line 7
  '% [Black "x"] 0-1 [', //         a comment among the moves: not a game
  '1... e7e5 {,:}', //              line 9
  '*', //                           game 1 ends at byte 149
  '[White "b"]', //                 index 10: tags after moves, no blank line: game 2
  '[Variant "berkeley"]',
  '[Result "*"]',
  '*', //                           no final newline: 196 bytes
];

const TEXTS: { name: string; text: string; spans: GameSpan[]; lines: number[][] }[] = [
  {
    name: 'plain',
    text: PLAIN.join('\n'),
    spans: [
      { start: { offset: 0, line: 0 }, end: 64 },
      { start: { offset: 64, line: 7 }, end: 141 },
    ],
    lines: [[5], [12, 13]],
  },
  {
    name: 'CRLF',
    text: PLAIN.join('\r\n'), // one byte more on each of game 1's 7 lines
    spans: [
      { start: { offset: 0, line: 0 }, end: 71 },
      { start: { offset: 71, line: 7 }, end: 155 },
    ],
    lines: [[5], [12, 13]],
  },
  {
    name: 'brackets and results in comments and tags',
    text: TRICKY.join('\n'),
    spans: [
      { start: { offset: 27, line: 1 }, end: 149 },
      { start: { offset: 149, line: 10 }, end: 196 },
    ],
    lines: [[7, 9], []],
  },
  {
    name: 'a byte-order mark and non-ASCII white space before the first game',
    text: '\ufeff\u00a0\n\u3000% c\n' + PLAIN.join('\n'), // 3 + 2 + 1, then 3 + 3 + 1 bytes
    spans: [
      { start: { offset: 13, line: 2 }, end: 77 },
      { start: { offset: 77, line: 9 }, end: 154 },
    ],
    lines: [[7], [14, 15]],
  },
];

/** The games the scanner finds in `text`, fed in pieces of `piece` bytes (at least 3, as it asks). */
function scan(text: string, piece: number): GameSpan[] {
  const bytes = Buffer.from(text, 'utf8');
  const games: GameSpan[] = [];
  const scanner = new KpgnGameScanner((_, start, end) => {
    games.push({ start, end });
  });
  for (let position = 0; position < bytes.length;) {
    const part = bytes.subarray(position, position + piece);
    position += scanner.feed(part, part.length, position, position + part.length >= bytes.length);
  }
  scanner.end(bytes.length);
  return games;
}

let DIR = '';
beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-scan-'));
});
afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('the KPGN games splitter', () => {
  it.each(TEXTS)('$name: byte offsets, lines, and the events at their lines', ({ text, spans, lines }) => {
    expect(Buffer.byteLength(text)).toBe(spans[spans.length - 1].end);
    expect(kpgnGameSpans(Buffer.from(text, 'utf8'))).toEqual(spans);
    for (const piece of [3, 4, 5, 7]) expect(scan(text, piece), `pieces of ${piece}`).toEqual(spans);
    const games = parseKpgnGames(text);
    expect(games.map((g) => g.positions.map((p) => p.line))).toEqual(lines);
    expect(games.map((g) => g.kind === 'record' && g.record.white)).toEqual([text.includes('é') ? 'é' : 'a', 'b']);
    // the games file reader: the same games, whole or one by one
    const path = join(DIR, 'games.kpgn');
    writeFileSync(path, text);
    expect(JSON.stringify(readGames(path))).toBe(JSON.stringify(games));
    expect(JSON.stringify(readGame(path, '2').game)).toBe(JSON.stringify(games[1]));
    expect(() => readGame(path, '3')).toThrow('game must be an integer from 1 to 2');
  });

  it('a text of blank lines and comments holds no game', () => {
    expect(kpgnGameSpans(Buffer.from('\n  \n% [White "x"] 1-0\n'))).toEqual([]);
    expect(() => parseKpgnGames('\n% nothing\n')).toThrow(/line 1, column 1: no game found/);
  });

  it('a game is complete when its last line (not blank, not a comment) is its result', () => {
    expect(kpgnGameComplete(PLAIN.slice(0, 7).join('\n'))).toBe(true);
    expect(kpgnGameComplete('[Result "1-0"]\n\n1. e2e4 {,:}\n1-0\r\n% done\n\n')).toBe(true);
    expect(kpgnGameComplete('[Event "1-0"]\n[Result "*"]\n\n1. e2e4 {,:}\n')).toBe(false);
    expect(kpgnGameComplete('[Event "a"]\n[Res')).toBe(false);
  });

  it('parses only the game asked for: a broken later game does not stop an earlier one', () => {
    const path = join(DIR, 'broken.kpgn');
    writeFileSync(path, PLAIN.slice(0, 7).join('\n') + '\n' + PLAIN.slice(7).join('\n').replace('{,:}', '{garbage}'));
    expect(readGame(path, undefined).n).toBe(1);
    expect(() => readGame(path, '2')).toThrow(/broken\.kpgn: line 12, column/);
    expect(() => readGames(path)).toThrow(/broken\.kpgn: line 12, column/);
  });
});

describe('the games log finds its complete games with the same splitter', () => {
  const ID: RunIdentity = { key: 'k', tag: 'Play', noun: 'run of krieg play' };
  /** A game as a log holds it (gameText: the record and a blank line): 114 bytes. */
  const logGame = (round: number) =>
    [
      '[Play "k"]', //           11 bytes with the newline
      `[Round "${round}"]`, //   12
      '[White "a"]', //          12
      '[Black "b"]', //          12
      '[Result "*"]', //         13
      '[Variant "berkeley"]', // 21
      '[Filtered "no"]', //      16
      '', //                     1
      '1. e2e4 {,:}', //         13
      '*', //                    2
      '', //                     1
      '',
    ].join('\n');

  it('two games and a third cut short by a kill: the two, ending at bytes 114 and 228', () => {
    const path = join(DIR, 'log.kpgn');
    writeFileSync(path, logGame(1) + logGame(2) + '[Play "k"]\n[Rou');
    const { records, ends, validBytes } = readGamesLog(path, ID);
    expect(records.map((r) => r.tags.Round)).toEqual(['1', '2']);
    expect(ends).toEqual([114, 228]);
    expect(validBytes).toBe(228);
    // opened to go on: the game cut short is removed, to be played again
    expect(new GamesLog(path, ID, 5).records).toHaveLength(2);
    expect(readFileSync(path, 'utf8')).toBe(logGame(1) + logGame(2));
    // a last game dropped (krieg play's game stopped unfinished) goes too, the blank line before it stays
    expect(new GamesLog(path, ID, 5, 'kpgn', (r) => r.tags.Round === '2').records).toHaveLength(1);
    expect(readFileSync(path, 'utf8')).toBe(logGame(1));
  });

  it('CRLF and a last game with no final newline are read whole', () => {
    const path = join(DIR, 'crlf.kpgn');
    const text = (logGame(1) + logGame(2)).replace(/\n/g, '\r\n').replace(/\r\n\r\n$/, '');
    writeFileSync(path, text);
    const { records, ends, validBytes } = readGamesLog(path, ID);
    expect(records).toHaveLength(2);
    expect(ends).toEqual([125, 246]); // 11 line ends of CRLF each; the second game without its last two (4 bytes)
    expect(validBytes).toBe(Buffer.byteLength(text));
  });

  it('refuses a game without its result that another follows, and a game of another run', () => {
    const path = join(DIR, 'bad-log.kpgn');
    writeFileSync(path, logGame(1).replace('\n*\n', '\n') + logGame(2));
    expect(() => readGamesLog(path, ID)).toThrow(/bad-log\.kpgn: line 1: a game without its result line/);
    writeFileSync(path, logGame(1) + logGame(3));
    expect(() => readGamesLog(path, ID)).toThrow(/bad-log\.kpgn: game 2 \(line 12\) belongs to another run/);
  });
});

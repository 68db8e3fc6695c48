// The games file reader (host/io/gamesFile.ts) finds a KPGN file's games with KpgnGameScanner, from
// bytes and in pieces, and parses only those asked for: it must split exactly as parseKpgnGames does
// on the whole text (tags after moves, blank and % lines, CRLF, a byte-order mark, non-ASCII white
// space, no final newline), whatever the size of the pieces, and read game N alone the same.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKpgnGames, KpgnGameScanner, type GameStart } from '../../host/notation/kpgn';
import { readGame, readGames } from '../../host/io/gamesFile';

const game = (white: string, moves: string, eol = '\n') =>
  [`[White "${white}"]`, '[Variant "berkeley"]', '[Result "*"]', '', ...moves.split('|'), '*', ''].join(eol);

const TEXTS: Record<string, string> = {
  plain: game('a', '1. e2e4 {,:}') + '\n' + game('b', '1. d2d4 {,:}|1... d7d5 {,:}'),
  crlf: game('a', '1. e2e4 {,:}', '\r\n') + game('b', '1. d2d4 {,:}', '\r\n'),
  'no blank line between games': game('a', '1. e2e4 {,:}') + game('b', '1. d2d4 {,:}'),
  'byte-order mark and comments': '\ufeff% a comment\n\n' + game('a', '1. e2e4 {,:}') + '% between\n' + game('ü', ''),
  'non-ASCII white space': '\u00a0\u3000' + game('a', '1. e2e4 {,:}') + '\u2003\u202f' + game('b', '1. e2e4 {,:}'),
  'indented tags and no final newline': '  ' + game('a', '1. e2e4 {,:}').trimEnd() + '\n\t' + game('é', '').trimEnd(),
  'games of tags only': '[Variant "berkeley"]\n*\n[Variant "berkeley"]\n[Result "*"]\n\n*\n\n\n[Variant "berkeley"]\n',
};

/** The starts and ends the scanner finds in `text`, fed in pieces of `piece` bytes (at least 3, as the scanner asks). */
function scan(text: string, piece: number): { start: GameStart; end: number }[] {
  const bytes = Buffer.from(text, 'utf8');
  const games: { start: GameStart; end: number }[] = [];
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

describe('KpgnGameScanner and the games file reader', () => {
  it.each(Object.keys(TEXTS))('split as parseKpgnGames: %s', (name) => {
    const text = TEXTS[name];
    const expected = parseKpgnGames(text);
    const bytes = Buffer.from(text, 'utf8');
    for (const piece of [3, 4, 5, 7, 1 << 20]) {
      const games = scan(text, piece);
      expect(games.length, `pieces of ${piece}`).toBe(expected.length);
      games.forEach(({ start, end }, i) => {
        const part = bytes.toString('utf8', start.offset, end);
        expect(
          parseKpgnGames(part)[0].positions.map((p) => p.line + start.line),
          `game ${i + 1}`,
        ).toEqual(expected[i].positions.map((p) => p.line));
      });
    }
    const path = join(DIR, 'games.kpgn');
    writeFileSync(path, text);
    expect(JSON.stringify(readGames(path))).toBe(JSON.stringify(expected));
    expected.forEach((parsed, i) => {
      expect(JSON.stringify(readGame(path, String(i + 1)).game), `game ${i + 1}`).toBe(JSON.stringify(parsed));
    });
    expect(() => readGame(path, String(expected.length + 1))).toThrow(
      `game must be an integer from 1 to ${expected.length}`,
    );
  });

  it('parses only the game asked for: a broken later game does not stop an earlier one', () => {
    const path = join(DIR, 'broken.kpgn');
    writeFileSync(path, game('a', '1. e2e4 {,:}') + '\n' + game('b', '1. e2e4 {garbage}'));
    expect(readGame(path, undefined).n).toBe(1);
    expect(() => readGame(path, '2')).toThrow(/broken\.kpgn: line 12, column/);
    expect(() => readGames(path)).toThrow(/broken\.kpgn: line 12, column/);
  });
});

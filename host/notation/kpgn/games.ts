// Splitting a KPGN text into its games, in one place for every reader: KpgnGameScanner finds where
// each game begins and ends in UTF-8 bytes, given in pieces; parseKpgnGames (a whole text), the
// games file reader (host/io/gamesFile.ts, a file of any size, parsing only the games asked for)
// and the games log (host/io/gamesLog.ts, which needs the byte end of each complete game) all use it.
import { fail } from '../../errors';
import { RESULTS, parseKpgn, type ParsedKpgn } from './read';

/** Where a game of a KPGN text begins: the offset of its first line (bytes of UTF-8) and the line's index (0-based). */
export interface GameStart {
  offset: number;
  line: number;
}

const BLANK_LINE = 0; // empty, white space or a % comment
const TAG_LINE = 1;
const MOVE_LINE = 2;

/** The length of the UTF-8 white space character (as String.prototype.trim sees it: Zs and U+FEFF) at `i`, or 0. */
function blankLength(bytes: Uint8Array, i: number, length: number): number {
  const [a, b, c] = [bytes[i], i + 1 < length ? bytes[i + 1] : -1, i + 2 < length ? bytes[i + 2] : -1];
  if (a === 0xc2) return b === 0xa0 ? 2 : 0;
  if (a === 0xe1) return b === 0x9a && c === 0x80 ? 3 : 0;
  if (a === 0xe2 && b === 0x80) return c >= 0x80 && (c <= 0x8a || c === 0xa8 || c === 0xa9 || c === 0xaf) ? 3 : 0;
  if (a === 0xe2) return b === 0x81 && c === 0x9f ? 3 : 0;
  if (a === 0xe3) return b === 0x80 && c === 0x80 ? 3 : 0;
  return a === 0xef && b === 0xbb && c === 0xbf ? 3 : 0;
}

/**
 * The games of a KPGN text given in pieces of UTF-8 bytes (a game begins at its first line that is
 * not blank, a tag line after moves begins the next), found without making any text: only the
 * first character of each line that is not white space is looked at, so a file of any size is
 * scanned in one pass, and a reader parses only the game it wants. `onGame` hears each game once
 * its end is known (the next game's first line, or the end of the text), with its number
 * (1-based); returning true stops the scan (`stopped`).
 */
export class KpgnGameScanner {
  /** Games found so far. */
  games = 0;
  stopped = false;
  private line = 0;
  private lineStart = 0;
  private kind: number | undefined;
  private start: GameStart | undefined;
  private inMoves = false;

  constructor(private readonly onGame: (n: number, start: GameStart, end: number) => boolean | void) {}

  /**
   * Scans `bytes[0, length)`, the bytes from offset `base` of the text: how many it took, all of
   * them unless a character is cut at the end of the piece and more follow (`last` false), which
   * are then given again at the start of the next piece (so a piece that is not the last holds at
   * least 3 bytes).
   */
  feed(bytes: Uint8Array, length: number, base: number, last: boolean): number {
    let i = 0;
    while (i < length && !this.stopped) {
      if (this.kind !== undefined) {
        const newline = bytes.indexOf(10, i);
        if (newline < 0 || newline >= length) return length;
        this.endLine(base + newline + 1);
        i = newline + 1;
        continue;
      }
      const b = bytes[i];
      if (b === 10) this.endLine(base + i + 1);
      else if (b === 32 || (b >= 9 && b <= 13)) {
        // white space before the line's first character
      } else if (b < 0x80) this.kind = b === 91 /* [ */ ? TAG_LINE : b === 37 /* % */ ? BLANK_LINE : MOVE_LINE;
      else if (!last && i + 3 > length) return i;
      else {
        const blank = blankLength(bytes, i, length);
        if (blank > 0) i += blank - 1;
        else this.kind = MOVE_LINE;
      }
      i++;
    }
    return length;
  }

  /** The end of the text, at offset `size`: the last game is heard. */
  end(size: number): void {
    if (this.stopped) return;
    if (this.lineStart < size) this.endLine(size);
    this.flush(size);
  }

  private endLine(next: number): void {
    const kind = this.kind ?? BLANK_LINE;
    if (kind === TAG_LINE && (this.start === undefined || this.inMoves)) {
      this.flush(this.lineStart);
      this.start = { offset: this.lineStart, line: this.line };
      this.inMoves = false;
    } else if (kind === MOVE_LINE) {
      this.start ??= { offset: this.lineStart, line: this.line };
      this.inMoves = true;
    }
    this.line++;
    this.lineStart = next;
    this.kind = undefined;
  }

  private flush(end: number): void {
    if (this.start === undefined || this.stopped) return;
    if (this.onGame(++this.games, this.start, end) === true) this.stopped = true;
    this.start = undefined;
  }
}

/** A game found in a text: where it begins, and the offset (bytes) where it ends. */
export interface GameSpan {
  start: GameStart;
  end: number;
}

/** The games of a whole text given as UTF-8 bytes, in order. */
export function kpgnGameSpans(bytes: Uint8Array): GameSpan[] {
  const spans: GameSpan[] = [];
  const scanner = new KpgnGameScanner((_, start, end) => {
    spans.push({ start, end });
  });
  scanner.feed(bytes, bytes.length, 0, true);
  scanner.end(bytes.length);
  return spans;
}

/**
 * A game's text as parseKpgn reads it (from line `start.line + 1`): the text of its span, without
 * the line end before the next game (`last`: the text's last game, taken whole).
 */
export function kpgnGameText(text: string, last: boolean): string {
  return last ? text : text.replace(/\r?\n$/, '');
}

/**
 * Whether a game's text ends with its result line (the last line neither blank nor a % comment is
 * 1-0, 0-1, 1/2-1/2 or *): a game written whole, not one cut short while being written.
 */
export function kpgnGameComplete(text: string): boolean {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const last = lines.filter((line) => line !== '' && !line.startsWith('%')).pop();
  return last !== undefined && (RESULTS as string[]).includes(last);
}

/** Splits a text of KPGN games (a game starts at a tag line that follows moves) and parses each. */
export function parseKpgnGames(text: string): ParsedKpgn[] {
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // a byte-order mark stays where it was
  const games = kpgnGameSpans(bytes).map(({ start, end }) =>
    parseKpgn(kpgnGameText(decoder.decode(bytes.subarray(start.offset, end)), end === bytes.length), start.line + 1),
  );
  if (games.length === 0) throw fail('bad-kpgn', { line: 1, column: 1, reason: 'no game found' });
  return games;
}

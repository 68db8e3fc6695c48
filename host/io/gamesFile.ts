// Files of games (records or views), in KPGN or JSON, and ks-game saves: reading them, and their text.
// One reader for every command: a KPGN file is scanned from disk for its games' boundaries (never
// held whole) and only the games asked for are parsed; JSON documents are read and parsed whole.
import { KriegError, fail, optionError } from '../errors';
import { FileReader, readTextFile } from './files';
import { parseCount } from './args';
import {
  parseKpgn,
  KpgnGameScanner,
  kpgnGameText,
  makeRecordKpgn,
  makeViewKpgn,
  type ParsedKpgn,
} from '../notation/kpgn';
import { parseRecordJsonGames, recordToJson, viewToJson } from '../notation/recordJson';
import { isKsGameText, parseKsGameGames } from '../notation/ksGame';
import type { GameRecord, View } from '../record/record';

export type Format = 'kpgn' | 'json';
export const FORMATS: Format[] = ['kpgn', 'json'];

export function formatOf(path: string, given?: string): Format {
  if (given) return given as Format;
  return /\.json$/i.test(path) ? 'json' : 'kpgn';
}

/** When reading must stop: a time (performance.now(), ms), and the limit's name for the message (exit 4). */
export interface ReadDeadline {
  at: number;
  text: string;
}

/** Bytes a KPGN file is scanned by (and how much of its start tells its kind). */
const PIECE_BYTES = 2 ** 20;
const HEAD_BYTES = 2 ** 16;

type Kind = 'kpgn' | 'json' | 'ks-game';

/** Whether the start of a file holds binary data: a NUL byte, or mostly control characters. */
function isBinary(head: Uint8Array): boolean {
  let controls = 0;
  for (const b of head) {
    if (b === 0) return true;
    if ((b < 32 && b !== 9 && b !== 10 && b !== 12 && b !== 13 && b !== 27) || b === 127) controls++;
  }
  return controls > head.length / 10;
}

/** The kind of a games file, as its text begins. */
function kindOf(text: string): Kind {
  if (isKsGameText(text)) return 'ks-game';
  return /^\s*[[{]/.test(text) && !/^\s*\[[A-Za-z]/.test(text) ? 'json' : 'kpgn';
}

/** The kind of games file `file` holds, told by its start (read into `buffer`), and its whole text if that was needed to tell it. */
function kindOfFile(file: FileReader, buffer: Buffer): { kind: Kind; whole?: string } {
  const head = buffer.subarray(0, file.read(buffer, 0, HEAD_BYTES));
  if (isBinary(head)) throw fail('not-games-file', { path: file.path, why: 'binary data, not text' });
  const text = head.toString('utf8');
  // a start of white space longer than the head: the kind is told by the whole text
  const whole = head.length < file.size && text.trim() === '' ? readTextFile(file.path) : undefined;
  return { kind: kindOf(whole ?? text), whole };
}

/** Whether `path` is a KPGN file, as its start tells (without reading the rest): false for JSON, ks-game saves and binary data. */
export function isKpgnFile(path: string): boolean {
  const file = FileReader.open(path);
  try {
    return kindOfFile(file, Buffer.alloc(HEAD_BYTES)).kind === 'kpgn';
  } catch (error) {
    if (error instanceof KriegError && error.code === 'not-games-file') return false;
    throw error;
  } finally {
    file.close();
  }
}

/** The games of a whole JSON text (krieg's records and views, or a ks-game save). */
function parseJsonGames(path: string, text: string, kind: Kind): ParsedKpgn[] {
  try {
    return kind === 'ks-game' ? parseKsGameGames(text) : parseRecordJsonGames(text);
  } catch (error) {
    if (error instanceof KriegError) throw error.within(path);
    throw error;
  }
}

function parseKpgnGame(path: string, text: string, firstLine: number): ParsedKpgn {
  try {
    return parseKpgn(text, firstLine);
  } catch (error) {
    if (error instanceof KriegError) throw error.within(path);
    throw error;
  }
}

/**
 * Reads games file `path` (KPGN, krieg's JSON, or a ks-game save) and hands its games to `onGame`
 * (number 1-based, parsed), for every game `wanted` says yes to, until `onGame` returns true:
 * how many games the file holds (those scanned, when stopped). A KPGN file is scanned in pieces,
 * only the games wanted parsed; a binary file is refused; errors name the file, line and column.
 */
function scanGames(
  path: string,
  wanted: (n: number) => boolean,
  onGame: (n: number, game: ParsedKpgn) => boolean | void,
  deadline?: ReadDeadline,
): number {
  const file = FileReader.open(path);
  try {
    const buffer = Buffer.alloc(Math.min(PIECE_BYTES, Math.max(file.size, 1)));
    const { kind, whole } = kindOfFile(file, buffer);
    if (kind !== 'kpgn') {
      const games = parseJsonGames(path, whole ?? readTextFile(path), kind);
      for (let i = 0; i < games.length; i++) if (wanted(i + 1) && onGame(i + 1, games[i]) === true) return i + 1;
      return games.length;
    }
    const checkTime = () => {
      if (deadline !== undefined && performance.now() > deadline.at)
        throw fail('limit-reached', { text: `${path}: reading it reached ${deadline.text}` });
    };
    const scanner = new KpgnGameScanner((n, start, end) => {
      if (!wanted(n)) return false;
      checkTime();
      const text = kpgnGameText(file.text(start.offset, end), end >= file.size);
      return onGame(n, parseKpgnGame(path, text, start.line + 1));
    });
    for (let position = 0; position < file.size && !scanner.stopped;) {
      checkTime();
      const length = file.read(buffer, position);
      if (length === 0) break;
      position += scanner.feed(buffer, length, position, position + length >= file.size);
    }
    scanner.end(file.size);
    if (scanner.games === 0) throw fail('bad-kpgn', { line: 1, column: 1, reason: 'no game found' }).within(path);
    return scanner.games;
  } finally {
    file.close();
  }
}

/** Reads every game of a file (KPGN, krieg's JSON, or a ks-game save); errors name the file, line and column. */
export function readGames(path: string): ParsedKpgn[] {
  const games: ParsedKpgn[] = [];
  scanGames(
    path,
    () => true,
    (_, game) => {
      games.push(game);
    },
  );
  return games;
}

/**
 * Game `which` of a games file (1-based, as given on the command line; the first when not given)
 * and its number. Only that game is parsed: a KPGN file is scanned for its boundaries up to the
 * game's end (to its end for a number past the last game, which is refused naming how many there
 * are); past `deadline`, reading stops with limit-reached (exit 4).
 */
export function readGame(
  path: string,
  which: string | number | undefined,
  deadline?: ReadDeadline,
): { game: ParsedKpgn; n: number } {
  let wanted: number | undefined = 1;
  if (which !== undefined) {
    try {
      wanted = parseCount('game', which, 1, Number.MAX_SAFE_INTEGER);
    } catch {
      wanted = undefined; // refused below, with the number of games the file holds
    }
  }
  let found: ParsedKpgn | undefined;
  const count = scanGames(
    path,
    (n) => n === wanted,
    (_, game) => {
      found = game;
      return true;
    },
    deadline,
  );
  // not a game number, or past the last game: the range names how many the file holds
  if (found === undefined) throw optionError('game', 1, count, which ?? 1);
  return { game: found, n: wanted! };
}

export function formatGames(games: (GameRecord | View)[], format: Format): string {
  const isView = (g: GameRecord | View): g is View => 'as' in g;
  if (format === 'json') {
    const docs = games.map((g) => (isView(g) ? viewToJson(g) : recordToJson(g)));
    return JSON.stringify(docs.length === 1 ? docs[0] : docs, null, 2) + '\n';
  }
  return games.map((g) => (isView(g) ? makeViewKpgn(g) : makeRecordKpgn(g))).join('\n');
}

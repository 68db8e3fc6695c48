// Files of games (records or views), in KPGN or JSON, and ks-game saves: reading them, and their text.
import { KriegError } from '../errors';
import { readTextFile } from './files';
import { parseKpgnGames, makeRecordKpgn, makeViewKpgn, type ParsedKpgn } from '../notation/kpgn';
import { parseRecordJsonGames, recordToJson, viewToJson } from '../notation/recordJson';
import { isKsGameText, parseKsGameGames } from '../notation/ksGame';
import type { GameRecord, View } from '../record/record';

export type Format = 'kpgn' | 'json';
export const FORMATS: Format[] = ['kpgn', 'json'];

export function formatOf(path: string, given?: string): Format {
  if (given) return given as Format;
  return /\.json$/i.test(path) ? 'json' : 'kpgn';
}

/** Reads every game of a file (KPGN, krieg's JSON, or a ks-game save); errors name the file, line and column. */
export function readGames(path: string): ParsedKpgn[] {
  const text = readTextFile(path);
  try {
    if (isKsGameText(text)) return parseKsGameGames(text);
    return /^\s*[[{]/.test(text) && !/^\s*\[[A-Za-z]/.test(text) ? parseRecordJsonGames(text) : parseKpgnGames(text);
  } catch (error) {
    if (error instanceof KriegError) throw error.within(path);
    throw error;
  }
}

export function formatGames(games: (GameRecord | View)[], format: Format): string {
  const isView = (g: GameRecord | View): g is View => 'as' in g;
  if (format === 'json') {
    const docs = games.map((g) => (isView(g) ? viewToJson(g) : recordToJson(g)));
    return JSON.stringify(docs.length === 1 ? docs[0] : docs, null, 2) + '\n';
  }
  return games.map((g) => (isView(g) ? makeViewKpgn(g) : makeRecordKpgn(g))).join('\n');
}

// Reading and writing files of games (records or views), in KPGN or JSON, for the commands.
import { readFileSync, writeFileSync, renameSync, existsSync, statSync } from 'node:fs';
import { KriegError } from '../status';
import { parseKpgnGames, writeRecordKpgn, writeViewKpgn, type ParsedKpgn } from '../notation/kpgn';
import { parseRecordJsonGames, recordToJson, viewToJson } from '../notation/recordJson';
import type { GameRecord, View } from '../referee/record';

export type Format = 'kpgn' | 'json';
export const FORMATS: Format[] = ['kpgn', 'json'];

export function formatOf(path: string, given?: string): Format {
  if (given) return given as Format;
  return /\.json$/i.test(path) ? 'json' : 'kpgn';
}

/** Reads every game of a file; errors name the file, line and column. */
export function readGames(path: string): ParsedKpgn[] {
  if (!existsSync(path) || !statSync(path).isFile()) throw new KriegError('no-file', `${path}: no such file`);
  const text = readFileSync(path, 'utf8');
  try {
    return /^\s*[[{]/.test(text) && !/^\s*\[[A-Za-z]/.test(text) ? parseRecordJsonGames(text) : parseKpgnGames(text);
  } catch (error) {
    if (error instanceof KriegError) throw new KriegError(error.code, `${path}: ${error.message}`);
    throw error;
  }
}

export function formatGames(games: (GameRecord | View)[], format: Format): string {
  const isView = (g: GameRecord | View): g is View => 'as' in g;
  if (format === 'json') {
    const docs = games.map((g) => (isView(g) ? viewToJson(g) : recordToJson(g)));
    return JSON.stringify(docs.length === 1 ? docs[0] : docs, null, 2) + '\n';
  }
  return games.map((g) => (isView(g) ? writeViewKpgn(g) : writeRecordKpgn(g))).join('\n');
}

/** Writes atomically: a temporary file renamed into place, so a failure leaves nothing half-written. */
export function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

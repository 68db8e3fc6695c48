// Reading and writing files of games (records or views), in KPGN or JSON, for the commands.
import { readFileSync, writeFileSync, renameSync, existsSync, statSync, rmSync } from 'node:fs';
import { KriegError, fail } from '../errors';
import { parseKpgnGames, makeRecordKpgn, makeViewKpgn, type ParsedKpgn } from '../notation/kpgn';
import { parseRecordJsonGames, recordToJson, viewToJson } from '../notation/recordJson';
import { viewOf, type GameRecord, type Side, type View } from '../record/record';
import { validateRecord } from '../referee/validate';
import type { Engine } from '../engine';

export type Format = 'kpgn' | 'json';
export const FORMATS: Format[] = ['kpgn', 'json'];

export function formatOf(path: string, given?: string): Format {
  if (given) return given as Format;
  return /\.json$/i.test(path) ? 'json' : 'kpgn';
}

/** Reads every game of a file; errors name the file, line and column. */
export function readGames(path: string): ParsedKpgn[] {
  if (!existsSync(path) || !statSync(path).isFile()) throw fail('no-file', { path });
  const text = readFileSync(path, 'utf8');
  try {
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

/**
 * The view of `as` in parsed game `n` (1-based) of `file`: a record is replayed through the referee
 * first (so an impossible answer is reported with its line); a view is taken as written, if it is
 * `as`'s (or `as` is not given). Errors name the file.
 */
export function viewOfGame(engine: Engine, file: string, game: ParsedKpgn, n: number, as: Side | undefined): View {
  if (game.kind === 'view') {
    if (as !== undefined && game.view.as !== as) throw fail('wrong-side', { file, game: n, side: game.view.as, wanted: as });
    return game.view;
  }
  if (as === undefined) throw fail('missing-as', { file, game: n });
  try {
    return viewOf(validateRecord(engine, game.record, game.positions, game.startAt), as);
  } catch (error) {
    if (error instanceof KriegError) throw error.within(file);
    throw error;
  }
}

const WRITE_ERRORS: Record<string, string> = {
  ENOENT: 'no such directory', EACCES: 'permission denied', EPERM: 'permission denied', ENOSPC: 'no space left on the device',
  EISDIR: 'it is a directory', EROFS: 'read-only file system', ENOTDIR: 'a part of the path is not a directory',
};

/**
 * Writes atomically: a temporary file renamed into place, so a failure leaves nothing half-written
 * (the temporary file is removed) and is reported as a KriegError naming the file.
 */
export function writeAtomically(path: string, content: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    const e = error as NodeJS.ErrnoException;
    if (!e.code) throw error;
    throw fail('write-failed', { path, why: WRITE_ERRORS[e.code] ?? e.code });
  }
}

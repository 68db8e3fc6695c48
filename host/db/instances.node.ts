// The problem database's instances as the rest of krieg uses them: the database file a command
// means, opening it to read, an instance by id, its stored columns parsed (a damaged one is named by
// database, instance and column), and an instance as a problem (`krieg solve db:ID`) or a view.
import { isAbsolute, relative } from 'node:path';
import { KriegError, fail } from '../errors';
import { parseRecordJson } from '../notation/recordJson';
import type { NamedProblem } from '../solver/problemFile';
import { strategyFromJson, type Strategy } from '../solver/strategy';
import { parseRulesJson } from '../record/rules';
import type { View } from '../record/record';
import { ProblemDb, type InstanceRow } from './database.node';
import { defaultDbPath, shippedDbAt } from './paths.node';

/** A problem source naming an instance of the database: db:ID. */
export const DB_PREFIX = 'db:';

/** The database file to use: `given`, else the shipped one (relative to the working directory when inside it, for shorter messages). */
export function dbPath(given: string | undefined): string {
  if (given !== undefined) return given;
  const path = defaultDbPath();
  const short = relative(process.cwd(), path);
  return short.startsWith('..') || isAbsolute(short) ? path : short;
}

/**
 * The database a command writes (db generate, db bench, db reanalyse, db upgrade): only one named
 * with --db that is not a shipped database under another name, so that no command changes the
 * shipped databases (tracked files of the package).
 */
export function dbPathToWrite(given: string | undefined, command: string): string {
  if (given === undefined) throw fail('db-read-only', { command });
  const shipped = shippedDbAt(given);
  if (shipped !== undefined) throw fail('db-shipped', { command, path: given, shipped });
  return given;
}

/** Opens a database to read; a missing file is reported with how to make one. */
export async function openDb(path: string): Promise<ProblemDb> {
  try {
    return await ProblemDb.open(path);
  } catch (error) {
    if (error instanceof KriegError && error.code === 'db-missing')
      throw fail('db-missing', { path, hint: " (create one with 'krieg db generate')" });
    throw error;
  }
}

/** Runs `body` on the open database `path` (a damaged file is refused on opening), closing it afterwards. */
export async function withDb<T>(path: string, body: (db: ProblemDb) => T): Promise<T> {
  const db = await openDb(path);
  try {
    return await body(db);
  } finally {
    db.close();
  }
}

/** The instance with id `text`; a bad or unknown id names the ids there are. */
export function instanceById(db: ProblemDb, text: string): InstanceRow {
  const id = /^\d+$/.test(text) ? Number(text) : NaN;
  const row = Number.isSafeInteger(id) ? db.instance(id) : undefined;
  if (row) return row;
  const ids = db.summaries().map((s) => s.id);
  const range = ids.length ? `ids ${ids[0]}–${ids[ids.length - 1]}` : 'it has no instances';
  if (!Number.isSafeInteger(id)) throw fail('bad-instance', { text, path: db.path ?? '', range });
  throw fail('no-instance', { id: text, path: db.path ?? '', range });
}

/** Parses a stored column, naming the database and instance when it is damaged. */
export function stored<T>(db: ProblemDb, row: InstanceRow, column: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw fail('db-corrupt', {
      where: `${db.path}: instance ${row.id}`,
      what: `${column}: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

const rulesOf = (db: ProblemDb, row: InstanceRow) => stored(db, row, 'rules_json', () => parseRulesJson(row.rulesJson));
export const strategyOf = (db: ProblemDb, row: InstanceRow): Strategy =>
  stored(db, row, 'strategy', () => strategyFromJson(JSON.parse(row.strategy)));

/** The instance's stored view (White's view up to the instance). */
export function viewOfInstance(db: ProblemDb, row: InstanceRow): View {
  return stored(db, row, 'view_json', () => {
    const parsed = parseRecordJson(row.viewJson);
    if (parsed.kind !== 'view') throw new Error('a full record, not a view');
    return parsed.view;
  });
}

/** The instance as a problem (id db:ID), with the answer its class implies. */
export function problemOfInstance(db: ProblemDb, row: InstanceRow): NamedProblem {
  const covered =
    row.covered.length === row.positions.length
      ? 'all positions'
      : `positions ${row.covered.map((i) => i + 1).join(', ')} of ${row.positions.length}`;
  return {
    id: `${DB_PREFIX}${row.id}`,
    rules: rulesOf(db, row),
    ply: row.ply,
    positions: row.positions,
    expect: row.cls === 'mate' ? 'proven' : 'disproven',
    class: row.cls,
    note: `instance ${row.id} of ${db.path}: White's belief in game ${row.game} after ${row.cutPly} plies; the witness strategy mates in ${covered}`,
  };
}

/** An instance as JSON: the row, with positions, view and strategy as values rather than text. */
export function instanceJson(db: ProblemDb, row: InstanceRow): Record<string, unknown> {
  return {
    id: row.id,
    key: row.key,
    rules: row.rules,
    ruleSet: rulesOf(db, row),
    ply: row.ply,
    class: row.cls,
    beliefSize: row.beliefSize,
    positions: row.positions,
    covered: row.covered,
    seed: row.seed,
    game: row.game,
    cutPly: row.cutPly,
    sourceId: row.sourceId,
    work: row.work,
    view: stored(db, row, 'view_json', () => JSON.parse(row.viewJson)),
    strategy: stored(db, row, 'strategy', () => JSON.parse(row.strategy)),
  };
}

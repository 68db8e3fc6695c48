// The problem database's schema (host/db/database.ts opens and writes the file).
//
// Schema version 2 (SCHEMA below is the authority; docs/database.md describes it):
// - meta: key/value text — format, schema_version, params (the generation parameters, JSON),
//   rows (the row count of each table, JSON).
// - games: every self-play game the generator finished, kept or dropped (resuming starts after the
//   last one; the statistics count them).
// - instances: one checkmate problem each, identified by `key` (ply, rule set and sorted belief),
//   so an identical instance is stored once.
// - results: per-algorithm benchmark runs on instances (backend, answer, nodes, time, machine).
// Every row of every table ends with `checksum`: SQLite checks its pages' structure (quick_check)
// but not the bytes inside a row, so a changed byte in a FEN or a count would otherwise be read as
// data. Opening verifies every row and the row counts; version 1 had no checksums (`krieg db
// upgrade` adds them). The checksums do not cover sqlite_master: opening compares the schema with
// SCHEMA's (tables, columns, constraints, indexes; no trigger, view or other object), as this
// file's schemaDifference finds it.
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type initSqlJs from 'sql.js';
import type { SqlJsStatic, SqlValue } from 'sql.js';
export const DB_FORMAT = 'krieg-problem-db';
export const SCHEMA_VERSION = 2;
/** The version before row checksums: read only after `krieg db upgrade`. */
export const UNCHECKED_SCHEMA_VERSION = 1;
/** The tables, in the order they are verified and copied; each row's last column is its checksum. */
export const TABLES = ['meta', 'games', 'instances', 'results'] as const;
export type Table = (typeof TABLES)[number];

export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, checksum TEXT NOT NULL);
CREATE TABLE games (
  game INTEGER PRIMARY KEY,          -- 1, 2, ... in the generator's order
  game_seed INTEGER NOT NULL,        -- the seed the game was played from (derived from params.seed and game)
  setup TEXT NOT NULL,               -- starting FEN
  plies INTEGER NOT NULL,
  result TEXT NOT NULL,              -- '1-0', '0-1', '1/2-1/2' or '*' (stopped at the ply limit)
  dropped INTEGER NOT NULL,          -- 1: White's belief exceeded the drop size; no instance taken
  max_belief INTEGER NOT NULL,       -- the largest belief White held at its turns (dropped: the drop size + 1)
  instances INTEGER NOT NULL,        -- instances stored from this game
  record_kpgn TEXT NOT NULL,         -- the full game record
  checksum TEXT NOT NULL             -- rowChecksum of the columns before it
);
CREATE TABLE instances (
  id INTEGER PRIMARY KEY,            -- 1, 2, ... in generation order
  key TEXT NOT NULL UNIQUE,          -- sha1 of ply, rule set and the sorted positions: identity
  rules TEXT NOT NULL,               -- preset name (or 'custom')
  rules_json TEXT NOT NULL,          -- the full rule set
  ply INTEGER NOT NULL,              -- search depth of the classification (3, 5, ...)
  class TEXT NOT NULL CHECK (class IN ('mate', 'near-miss')),
  belief_size INTEGER NOT NULL,
  view_kpgn TEXT NOT NULL,           -- White's view up to the instance (hints included)
  view_json TEXT NOT NULL,           -- the same view as krieg-view JSON
  positions TEXT NOT NULL,           -- JSON array of FENs: White's exact belief, estimator order
  seed INTEGER NOT NULL,             -- the generator's seed (params.seed)
  game INTEGER NOT NULL REFERENCES games(game),
  cut_ply INTEGER NOT NULL,          -- plies played before the instance (White to move)
  source_id INTEGER REFERENCES instances(id), -- a re-analysis: the shallower near-miss it came from
  covered TEXT NOT NULL,             -- JSON array of position indices the witness strategy mates in (all, for a mate)
  strategy TEXT NOT NULL,            -- the witness: krieg-strategy JSON on the covered positions
  work TEXT NOT NULL,                -- JSON: nodes each algorithm made when the instance was classified
  checksum TEXT NOT NULL
);
CREATE INDEX instances_class ON instances (ply, class);
CREATE TABLE results (
  instance_id INTEGER NOT NULL REFERENCES instances(id),
  algorithm TEXT NOT NULL,
  backend TEXT NOT NULL,             -- 'wasm' or 'js'
  answer TEXT NOT NULL,              -- 'proven', 'disproven' or 'unknown' (a limit was reached)
  nodes INTEGER NOT NULL,
  positions INTEGER NOT NULL,
  ms REAL NOT NULL,
  limit_ms REAL,
  machine TEXT NOT NULL,
  git_commit TEXT,
  run_at TEXT NOT NULL,
  checksum TEXT NOT NULL
);
`;

let sqlPromise: Promise<SqlJsStatic> | undefined;
/**
 * sql.js, loaded once from node_modules at run time, like its WASM file: bundled into the ESM
 * dist/cli.js, its Node code would fail on the missing `__dirname`.
 */
export function sqlJs(): Promise<SqlJsStatic> {
  const load = createRequire(import.meta.url);
  sqlPromise ??= (load('sql.js') as typeof initSqlJs)({ locateFile: () => load.resolve('sql.js/dist/sql-wasm.wasm') });
  return sqlPromise;
}

export const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * What a row holds in `checksum` between its insertion and its signing, as long as a checksum, so
 * that signing rewrites the row in place (no stale copy of it left in the page).
 */
export const UNSIGNED = '0'.repeat(16);

/**
 * The checksum of a row of `table` holding `values` (its columns before `checksum`, as SQLite
 * returns them): the first 16 hex digits of SHA-256 over the table's name and the values as JSON.
 * Computed from the row read back, so SQLite's type affinity cannot make writer and reader disagree.
 */
export function rowChecksum(table: string, values: SqlValue[]): string {
  return createHash('sha256')
    .update(`${table}\n${JSON.stringify(values)}`)
    .digest('hex')
    .slice(0, 16);
}

/** How a message names a row: meta 'key', game N, instance N, results row N. */
export function rowName(table: Table, rowid: SqlValue, first: SqlValue): string {
  if (table === 'meta') return `meta '${String(first).slice(0, 40)}'`;
  if (table === 'games') return `game ${rowid}`;
  if (table === 'instances') return `instance ${rowid}`;
  return `results row ${rowid}`;
}

/** An object of a database's schema as sqlite_master lists it, its SQL without comments or layout. */
export interface SchemaObject {
  type: string;
  name: string;
  table: string;
  sql: string | null;
}

export function schemaObject(r: SqlValue[]): SchemaObject {
  const sql =
    r[3] === null
      ? null
      : String(r[3])
          .replace(/--[^\n]*/g, ' ')
          .replace(/\s+/g, ' ')
          .replace(/ ?([(),]) ?/g, '$1')
          .trim();
  return { type: String(r[0]), name: String(r[1]), table: String(r[2]), sql };
}

const expectedSchemas = new Map<number, SchemaObject[]>();

/**
 * The schema of `version` as SQLite itself lists it, from an empty database made with SCHEMA (so
 * the automatic indexes of PRIMARY KEY and UNIQUE are there too); version 1 is the same without
 * the checksum columns.
 */
export async function expectedSchema(version: number): Promise<SchemaObject[]> {
  let objects = expectedSchemas.get(version);
  if (!objects) {
    const db = new (await sqlJs()).Database();
    try {
      db.exec(SCHEMA);
      objects = (db.exec('SELECT type, name, tbl_name, sql FROM sqlite_master')[0]?.values ?? []).map(schemaObject);
    } finally {
      db.close();
    }
    if (version === UNCHECKED_SCHEMA_VERSION)
      objects = objects.map((o) => ({ ...o, sql: o.sql && o.sql.replace(',checksum TEXT NOT NULL)', ')') }));
    expectedSchemas.set(version, objects);
  }
  return objects;
}

/** The column definitions and constraints of a CREATE TABLE (split at its top-level commas). */
function tableParts(sql: string): string[] {
  const body = sql.slice(sql.indexOf('(') + 1, sql.lastIndexOf(')'));
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '(') depth++;
    else if (body[i] === ')') depth--;
    else if (body[i] === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** What differs between a file's schema and the expected one (the first thing found), or undefined. */
export function schemaDifference(found: SchemaObject[], expected: SchemaObject[]): string | undefined {
  const quote = (text: string) => `'${text.length > 80 ? `${text.slice(0, 80)}…` : text}'`;
  for (const object of found) {
    const want = expected.find((e) => e.type === object.type && e.name === object.name);
    if (!want)
      return `${object.type} ${object.name}${object.table !== object.name ? ` on ${object.table}` : ''} is not part of it`;
    if (want.table !== object.table)
      return `${object.type} ${object.name} is on table ${object.table}, not ${want.table}`;
    if (want.sql === object.sql) continue;
    if (object.type === 'table' && want.sql !== null && object.sql !== null) {
      const [have, need] = [tableParts(object.sql), tableParts(want.sql)];
      for (let i = 0; i < Math.max(have.length, need.length); i++) {
        if (have[i] === need[i]) continue;
        if (have[i] === undefined) return `table ${object.name} lacks ${quote(need[i])}`;
        if (need[i] === undefined) return `table ${object.name} has ${quote(have[i])} in addition`;
        return `table ${object.name} has ${quote(have[i])} where it should have ${quote(need[i])}`;
      }
    }
    return `${object.type} ${object.name} is ${quote(object.sql ?? 'automatic')}, not ${quote(want.sql ?? 'automatic')}`;
  }
  const missing = expected.find((e) => !found.some((o) => o.type === e.type && o.name === e.name));
  return missing && `${missing.type} ${missing.name} is missing`;
}

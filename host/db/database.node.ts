// The checkmate problem database: one SQLite file (sql.js, so the same file opens in a browser),
// with a documented, versioned schema. The whole database lives in memory while open; every
// transaction ends with the file replaced atomically (written aside, then renamed), so a crash or
// kill leaves the last committed state on disk and never a half-written file.
//
// Schema version 2 (SCHEMA of ./schema.ts is the authority; docs/database.md describes it):
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
// SCHEMA's (tables, columns, constraints, indexes; no trigger, view or other object).
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type initSqlJs from 'sql.js';
import type { Database, SqlJsStatic } from 'sql.js';
import { fail } from '../errors';
import { writeAtomically } from '../io/files';
import type { ProblemClass } from '../solver/problemFile';
import {
  gameOfRow,
  instanceOfRow,
  paramsOf,
  resultOfRow,
  type GameRow,
  type InstanceRow,
  type ResultRow,
  type RowContext,
  type SqlValue,
  type InstanceFilter,
  type InstanceSummary,
} from './rows';
import { DB_FORMAT, SCHEMA, SCHEMA_VERSION, TABLES, UNCHECKED_SCHEMA_VERSION, type Table } from './schema';

export { DB_FORMAT, SCHEMA_VERSION, UNCHECKED_SCHEMA_VERSION, TABLES } from './schema';
export type { GameRow, InstanceRow, ResultRow, InstanceFilter, InstanceSummary } from './rows';

/** The identity of an instance: ply, rule set and belief (order-free). */
export function instanceKey(ply: number, rulesJson: string, positions: string[]): string {
  return createHash('sha1')
    .update(`${ply}\n${rulesJson}\n${[...positions].sort().join('\n')}`)
    .digest('hex');
}

let sqlPromise: Promise<SqlJsStatic> | undefined;
/**
 * sql.js, loaded once from node_modules at run time, like its WASM file: bundled into the ESM
 * dist/cli.js, its Node code would fail on the missing `__dirname`.
 */
function sqlJs(): Promise<SqlJsStatic> {
  const load = createRequire(import.meta.url);
  sqlPromise ??= (load('sql.js') as typeof initSqlJs)({ locateFile: () => load.resolve('sql.js/dist/sql-wasm.wasm') });
  return sqlPromise;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * What a row holds in `checksum` between its insertion and its signing, as long as a checksum, so
 * that signing rewrites the row in place (no stale copy of it left in the page).
 */
const UNSIGNED = '0'.repeat(16);

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
function rowName(table: Table, rowid: SqlValue, first: SqlValue): string {
  if (table === 'meta') return `meta '${String(first).slice(0, 40)}'`;
  if (table === 'games') return `game ${rowid}`;
  if (table === 'instances') return `instance ${rowid}`;
  return `results row ${rowid}`;
}

/** An object of a database's schema as sqlite_master lists it, its SQL without comments or layout. */
interface SchemaObject {
  type: string;
  name: string;
  table: string;
  sql: string | null;
}

function schemaObject(r: SqlValue[]): SchemaObject {
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
async function expectedSchema(version: number): Promise<SchemaObject[]> {
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
function schemaDifference(found: SchemaObject[], expected: SchemaObject[]): string | undefined {
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

export class ProblemDb {
  private constructor(
    private readonly db: Database,
    readonly path: string | undefined,
  ) {}

  /**
   * Opens an existing database file. Errors (never a crash, never a write): no such file, not an
   * SQLite file, an SQLite file that is not a krieg problem database, a newer or older schema, a
   * damaged file (a page SQLite cannot read, or a row that does not match its checksum).
   */
  static async open(path: string): Promise<ProblemDb> {
    const problemDb = new ProblemDb(await ProblemDb.readFile(path), path);
    try {
      await problemDb.checkSchema();
      problemDb.verifyRows();
      problemDb.checkRows();
    } catch (error) {
      problemDb.close();
      throw error;
    }
    problemDb.onDisk = ProblemDb.fileStamp(path);
    return problemDb;
  }

  /** The SQLite database in file `path`, every page checked (not yet its schema or rows). */
  private static async readFile(path: string): Promise<Database> {
    if (!existsSync(path) || !statSync(path).isFile()) throw fail('db-missing', { path });
    const bytes = readFileSync(path);
    if (bytes.length < 100 || bytes.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) {
      throw fail('db-not-sqlite', { path });
    }
    const SQL = await sqlJs();
    let db: Database;
    let check: string;
    try {
      db = new SQL.Database(bytes);
      // a damaged page is otherwise found only when a query reads it: check them all now
      check = String(db.exec('PRAGMA quick_check')[0]?.values[0]?.[0]);
    } catch (error) {
      throw fail('db-corrupt', {
        where: path,
        what: `the SQLite file cannot be read (${error instanceof Error ? error.message : error})`,
      });
    }
    if (check !== 'ok') {
      db.close();
      throw fail('db-corrupt', { where: path, what: `the SQLite file is damaged (${check})` });
    }
    return db;
  }

  /**
   * Rewrites a schema version 1 database (no row checksums) as version 2 in place, atomically:
   * the same rows in the same order, each with its checksum. The rows are taken as they are (a
   * byte changed in one before the upgrade is not found). Returns the version the file had.
   */
  static async upgrade(path: string): Promise<number> {
    const old = new ProblemDb(await ProblemDb.readFile(path), path);
    try {
      const version = await old.checkSchema(true);
      if (version === SCHEMA_VERSION) old.verifyRows();
      old.checkRows();
      if (version === SCHEMA_VERSION) return version;
      const SQL = await sqlJs();
      const upgraded = new ProblemDb(new SQL.Database(), path);
      upgraded.onDisk = ProblemDb.fileStamp(path);
      upgraded.transaction(() => {
        upgraded.db.exec(SCHEMA);
        for (const table of TABLES) {
          const statement = old.db.prepare(`SELECT * FROM ${table} ORDER BY rowid`);
          const columns = [...statement.getColumnNames(), 'checksum'].join(', ');
          const marks =
            statement
              .getColumnNames()
              .map(() => '?')
              .join(', ') + `, '${UNSIGNED}'`;
          try {
            while (statement.step()) {
              upgraded.db.run(`INSERT INTO ${table} (${columns}) VALUES (${marks})`, statement.get());
              upgraded.sign(table, Number(upgraded.rows('SELECT last_insert_rowid()')[0][0]));
            }
          } finally {
            statement.free();
          }
        }
        upgraded.setMeta('schema_version', String(SCHEMA_VERSION));
      });
      upgraded.close();
      return version;
    } finally {
      old.close();
    }
  }

  /** Creates a new database with the current schema (in memory until the first commit). */
  static async create(path: string | undefined, params: object): Promise<ProblemDb> {
    if (path !== undefined && existsSync(path)) throw fail('db-exists', { path });
    const SQL = await sqlJs();
    const problemDb = new ProblemDb(new SQL.Database(), path);
    problemDb.db.exec(SCHEMA);
    problemDb.setMeta('format', DB_FORMAT);
    problemDb.setMeta('schema_version', String(SCHEMA_VERSION));
    problemDb.setMeta('params', JSON.stringify(params));
    problemDb.save();
    return problemDb;
  }

  /**
   * Checks the format, the schema version (with `upgradable`, version 1 too) and the schema itself:
   * every table, column, constraint and index as the version creates them, and nothing else (no
   * trigger, view or other object). Returns the version.
   */
  private async checkSchema(upgradable = false): Promise<number> {
    const where = this.path ?? 'database';
    const tables = new Set(
      this.rows('SELECT name FROM sqlite_master WHERE type = ?', ['table']).map((r) => String(r[0])),
    );
    if (!tables.has('meta')) throw fail('db-foreign', { where, why: 'no meta table' });
    let format: string | undefined;
    let version: string | undefined;
    try {
      format = this.meta('format');
      version = this.meta('schema_version');
    } catch (error) {
      throw fail('db-foreign', {
        where,
        why: `its meta table cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    if (format !== DB_FORMAT) throw fail('db-foreign', { where, why: `format '${format ?? 'missing'}'` });
    if (version === String(UNCHECKED_SCHEMA_VERSION) && !upgradable) throw fail('db-unchecked', { where });
    if (version !== String(SCHEMA_VERSION) && version !== String(UNCHECKED_SCHEMA_VERSION))
      throw fail('db-version', { where, version, reads: SCHEMA_VERSION });
    for (const table of TABLES) {
      if (!tables.has(table))
        throw fail('db-corrupt', { where, what: `schema version ${version} but no ${table} table` });
    }
    const wrong = schemaDifference(
      this.rows('SELECT type, name, tbl_name, sql FROM sqlite_master').map(schemaObject),
      await expectedSchema(Number(version)),
    );
    if (wrong) throw fail('db-corrupt', { where, what: `the schema differs from version ${version}: ${wrong}` });
    return Number(version);
  }

  /**
   * Every row against its checksum, and the row counts against meta 'rows': a changed byte inside
   * a row (which PRAGMA quick_check does not see) or a lost row is a KriegError naming the database
   * and the row.
   */
  private verifyRows(): void {
    const where = this.path ?? 'database';
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const statement = this.db.prepare(`SELECT rowid, * FROM ${table} ORDER BY rowid`);
      let count = 0;
      try {
        while (statement.step()) {
          const [rowid, ...values] = statement.get();
          const stored = values.pop();
          if (stored !== rowChecksum(table, values))
            throw fail('db-corrupt', {
              where: `${where}: ${rowName(table, rowid, values[0])}`,
              what: 'the row does not match its checksum (the file is damaged)',
            });
          count++;
        }
      } finally {
        statement.free();
      }
      if (table !== 'meta') counts[table] = count;
    }
    const recorded = this.meta('rows');
    if (recorded !== JSON.stringify(counts))
      throw fail('db-corrupt', {
        where,
        what: `the tables hold ${JSON.stringify(counts)} rows but meta 'rows' says ${recorded ?? 'nothing'} (the file is damaged)`,
      });
  }

  /**
   * Every row checked column by column (host/db/rows.ts: the one validation of a row, which reading
   * an instance repeats): a value no krieg writes — though its row matches its checksum, computed
   * again after the damage — is a KriegError naming the database, the row and the column.
   */
  private checkRows(): void {
    const where = this.path ?? 'database';
    const seed = paramsOf(this.meta('params'), where).seed;
    for (const [key, value] of this.rows("SELECT key, value FROM meta WHERE key LIKE 'reanalysed:%'"))
      if (!/^reanalysed:\d+-\d+$/.test(String(key)) || !/^\d+$/.test(String(value)))
        throw fail('db-corrupt', {
          where: `${where}: meta '${String(key).slice(0, 40)}'`,
          what: `must be reanalysed:FROM-TO holding the last instance id done, found ${JSON.stringify(value)?.slice(0, 40)}`,
        });
    const games = new Set<number>();
    const instances = new Set<number>();
    const context: RowContext = {
      where,
      seed,
      hasGame: (game) => games.has(game),
      hasInstance: (id) => instances.has(id),
      key: instanceKey,
    };
    this.each('SELECT * FROM games ORDER BY game', (r) => games.add(gameOfRow(r, context).game));
    this.each('SELECT * FROM instances ORDER BY id', (r) => instances.add(instanceOfRow(r, context).id));
    this.each('SELECT rowid, * FROM results ORDER BY rowid', ([rowid, ...r]) => resultOfRow(rowid, r, context));
  }

  /** Runs `body` on each row `sql` selects, one at a time. */
  private each(sql: string, body: (row: SqlValue[]) => void): void {
    const statement = this.db.prepare(sql);
    try {
      while (statement.step()) body(statement.get());
    } finally {
      statement.free();
    }
  }

  /** What a row read after opening is checked against: the database as it is now. */
  private rowContext(): RowContext {
    return {
      where: this.path ?? 'database',
      seed: paramsOf(this.meta('params'), this.path ?? 'database').seed,
      hasGame: (game) => this.rows('SELECT 1 FROM games WHERE game = ?', [game]).length > 0,
      hasInstance: (id) => this.rows('SELECT 1 FROM instances WHERE id = ?', [id]).length > 0,
      key: instanceKey,
    };
  }

  /** Sets the checksum of row `rowid` of `table` from the values it holds now. */
  private sign(table: Table, rowid: number): void {
    const values = this.rows(`SELECT * FROM ${table} WHERE rowid = ?`, [rowid])[0];
    this.db.run(`UPDATE ${table} SET checksum = ? WHERE rowid = ?`, [rowChecksum(table, values.slice(0, -1)), rowid]);
  }

  /** Records the row count of each table in meta 'rows' (checked on opening). */
  private recount(): void {
    const counts: Record<string, number> = {};
    for (const table of TABLES)
      if (table !== 'meta') counts[table] = Number(this.rows(`SELECT count(*) FROM ${table}`)[0][0]);
    const text = JSON.stringify(counts);
    if (this.meta('rows') !== text) this.setMeta('rows', text);
  }

  private rows(sql: string, params: SqlValue[] = []): SqlValue[][] {
    const statement = this.db.prepare(sql);
    try {
      statement.bind(params);
      const out: SqlValue[][] = [];
      while (statement.step()) out.push(statement.get());
      return out;
    } finally {
      statement.free();
    }
  }

  meta(key: string): string | undefined {
    const r = this.rows('SELECT value FROM meta WHERE key = ?', [key]);
    return r.length ? String(r[0][0]) : undefined;
  }

  setMeta(key: string, value: string): void {
    this.db.run(
      'INSERT INTO meta (key, value, checksum) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value, UNSIGNED],
    );
    this.sign('meta', Number(this.rows('SELECT rowid FROM meta WHERE key = ?', [key])[0][0]));
  }

  /** The generation parameters stored at creation (checked: a JSON object with the generator's seed). */
  params<T>(): T {
    return paramsOf(this.meta('params'), this.path ?? 'database') as T;
  }

  /**
   * Runs `body` as one transaction and then writes the file: all of it lands, or (on an error, a
   * crash or a kill) none of it.
   */
  transaction<T>(body: () => T): T {
    this.db.exec('BEGIN');
    let value: T;
    try {
      value = body();
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    this.save();
    return value;
  }

  /** Writes the whole database to its file, atomically. */
  save(): void {
    this.recount();
    if (this.path === undefined) return;
    // every save rewrites the whole file: refuse if someone else wrote it since we read or wrote it
    if (this.onDisk !== undefined && ProblemDb.fileStamp(this.path) !== this.onDisk) {
      throw fail('db-changed', { path: this.path });
    }
    writeAtomically(this.path, this.db.export());
    this.onDisk = ProblemDb.fileStamp(this.path);
  }

  /** What the file on disk was when last read or written (size and modification time; '' if none). */
  private onDisk: string | undefined;

  private static fileStamp(path: string): string {
    if (!existsSync(path)) return '';
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  }

  /** The database as SQLite file bytes. */
  bytes(): Uint8Array {
    this.recount();
    return this.db.export();
  }

  close(): void {
    this.db.close();
  }

  lastGame(): number {
    return Number(this.rows('SELECT coalesce(max(game), 0) FROM games')[0][0]);
  }

  addGame(g: GameRow): void {
    this.db.run(
      `INSERT INTO games (game, game_seed, setup, plies, result, dropped, max_belief, instances, record_kpgn, checksum)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '${UNSIGNED}')`,
      [g.game, g.gameSeed, g.setup, g.plies, g.result, g.dropped ? 1 : 0, g.maxBelief, g.instances, g.recordKpgn],
    );
    this.sign('games', g.game);
  }

  /** Games played, and how many of them were dropped (without reading their records). */
  gameTally(): { played: number; dropped: number } {
    const r = this.rows('SELECT count(*), coalesce(sum(dropped), 0) FROM games')[0];
    return { played: Number(r[0]), dropped: Number(r[1]) };
  }

  games(): GameRow[] {
    const where = this.path ?? 'database';
    return this.rows('SELECT * FROM games ORDER BY game').map((r) => gameOfRow(r, { where }));
  }

  /** Games played (dropped ones included) and dropped. */
  gameCounts(): { played: number; dropped: number } {
    const r = this.rows('SELECT count(*), coalesce(sum(dropped), 0) FROM games')[0];
    return { played: Number(r[0]), dropped: Number(r[1]) };
  }

  hasKey(key: string): boolean {
    return this.rows('SELECT 1 FROM instances WHERE key = ?', [key]).length > 0;
  }

  /** Stores an instance (id assigned, returned); an identical one already stored is not added again (returns its id). */
  addInstance(row: Omit<InstanceRow, 'id'>): number {
    const existing = this.rows('SELECT id FROM instances WHERE key = ?', [row.key]);
    if (existing.length) return Number(existing[0][0]);
    this.db.run(
      `INSERT INTO instances (key, rules, rules_json, ply, class, belief_size, view_kpgn, view_json, positions, seed, game,
        cut_ply, source_id, covered, strategy, work, checksum)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '${UNSIGNED}')`,
      [
        row.key,
        row.rules,
        row.rulesJson,
        row.ply,
        row.cls,
        row.beliefSize,
        row.viewKpgn,
        row.viewJson,
        JSON.stringify(row.positions),
        row.seed,
        row.game,
        row.cutPly,
        row.sourceId,
        JSON.stringify(row.covered),
        row.strategy,
        JSON.stringify(row.work),
      ],
    );
    const id = Number(this.rows('SELECT last_insert_rowid()')[0][0]);
    this.sign('instances', id);
    return id;
  }

  /** An instance row read, checked (host/db/rows.ts) against the database as it is now. */
  private instanceOf(r: SqlValue[], context = this.rowContext()): InstanceRow {
    return instanceOfRow(r, context);
  }

  /** Instances in id order, optionally of one ply and/or class. */
  instances(filter: InstanceFilter = {}): InstanceRow[] {
    const { where, params } = ProblemDb.whereOf(filter);
    const context = this.rowContext();
    return this.rows(`SELECT * FROM instances ${where} ORDER BY id`, params).map((r) => this.instanceOf(r, context));
  }

  private static whereOf(filter: InstanceFilter): { where: string; params: SqlValue[] } {
    const terms: string[] = [];
    const params: SqlValue[] = [];
    if (filter.ply !== undefined) {
      terms.push('ply = ?');
      params.push(filter.ply);
    }
    if (filter.cls !== undefined) {
      terms.push('class = ?');
      params.push(filter.cls);
    }
    return { where: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
  }

  /** The small columns of instances in id order (for listings and statistics: no views or strategies). */
  summaries(filter: InstanceFilter = {}): InstanceSummary[] {
    const { where, params } = ProblemDb.whereOf(filter);
    return this.rows(
      `SELECT id, ply, class, belief_size, rules, game, cut_ply FROM instances ${where} ORDER BY id`,
      params,
    ).map((r) => ({
      id: Number(r[0]),
      ply: Number(r[1]),
      cls: String(r[2]) as ProblemClass,
      beliefSize: Number(r[3]),
      rules: String(r[4]),
      game: Number(r[5]),
      cutPly: Number(r[6]),
    }));
  }

  instance(id: number): InstanceRow | undefined {
    const r = this.rows('SELECT * FROM instances WHERE id = ?', [id]);
    return r.length ? this.instanceOf(r[0]) : undefined;
  }

  /** Instances per (ply, class). */
  counts(): { ply: number; cls: ProblemClass; count: number }[] {
    return this.rows('SELECT ply, class, count(*) FROM instances GROUP BY ply, class ORDER BY ply, class').map((r) => ({
      ply: Number(r[0]),
      cls: String(r[1]) as ProblemClass,
      count: Number(r[2]),
    }));
  }

  addResult(r: ResultRow): void {
    this.db.run(
      `INSERT INTO results (instance_id, algorithm, backend, answer, nodes, positions, ms, limit_ms, machine, git_commit,
        run_at, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '${UNSIGNED}')`,
      [
        r.instanceId,
        r.algorithm,
        r.backend,
        r.answer,
        r.nodes,
        r.positions,
        r.ms,
        r.limitMs,
        r.machine,
        r.gitCommit,
        r.runAt,
      ],
    );
    this.sign('results', Number(this.rows('SELECT last_insert_rowid()')[0][0]));
  }

  results(instanceId?: number): ResultRow[] {
    const rows =
      instanceId === undefined
        ? this.rows('SELECT rowid, * FROM results ORDER BY rowid')
        : this.rows('SELECT rowid, * FROM results WHERE instance_id = ? ORDER BY rowid', [instanceId]);
    const context = this.rowContext();
    return rows.map(([rowid, ...r]) => resultOfRow(rowid, r, context));
  }
}

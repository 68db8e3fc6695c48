// The checkmate problem database: one SQLite file (sql.js, so the same file opens in a browser),
// with a documented, versioned schema. The whole database lives in memory while open; every
// transaction ends with the file replaced atomically (written aside, then renamed), so a crash or
// kill leaves the last committed state on disk and never a half-written file.
//
// Schema version 1 (SCHEMA below is the authority; README "Problem database" describes it):
// - meta: key/value text — format, schema_version, params (the generation parameters, JSON).
// - games: every self-play game the generator finished, kept or dropped (resuming starts after the
//   last one; the statistics count them).
// - instances: one checkmate problem each, identified by `key` (ply, rule set and sorted belief),
//   so an identical instance is stored once.
// - results: per-algorithm benchmark runs on instances (backend, answer, nodes, time, machine).
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type initSqlJs from 'sql.js';
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { fail } from '../errors';
import { writeAtomically } from '../io/files';
import type { ProblemClass } from '../solver/problemFile';

export const DB_FORMAT = 'krieg-problem-db';
export const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
  game INTEGER PRIMARY KEY,          -- 1, 2, ... in the generator's order
  game_seed INTEGER NOT NULL,        -- the seed the game was played from (derived from params.seed and game)
  setup TEXT NOT NULL,               -- starting FEN
  plies INTEGER NOT NULL,
  result TEXT NOT NULL,              -- '1-0', '0-1', '1/2-1/2' or '*' (stopped at the ply limit)
  dropped INTEGER NOT NULL,          -- 1: White's belief exceeded the drop size; no instance taken
  max_belief INTEGER NOT NULL,       -- the largest belief White held at its turns (dropped: the drop size + 1)
  instances INTEGER NOT NULL,        -- instances stored from this game
  record_kpgn TEXT NOT NULL          -- the full game record
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
  work TEXT NOT NULL                 -- JSON: nodes each algorithm made when the instance was classified
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
  run_at TEXT NOT NULL
);
`;

export interface GameRow {
  game: number;
  gameSeed: number;
  setup: string;
  plies: number;
  result: string;
  dropped: boolean;
  maxBelief: number;
  instances: number;
  recordKpgn: string;
}

export interface InstanceRow {
  id: number;
  key: string;
  rules: string;
  rulesJson: string;
  ply: number;
  cls: ProblemClass;
  beliefSize: number;
  viewKpgn: string;
  viewJson: string;
  positions: string[];
  seed: number;
  game: number;
  cutPly: number;
  sourceId: number | null;
  covered: number[];
  strategy: string;
  work: Record<string, number>;
}

/** Which instances: one ply and/or one class (none: all). */
export interface InstanceFilter {
  ply?: number;
  cls?: ProblemClass;
}

export type InstanceSummary = Pick<InstanceRow, 'id' | 'ply' | 'cls' | 'beliefSize' | 'rules' | 'game' | 'cutPly'>;

export interface ResultRow {
  instanceId: number;
  algorithm: string;
  backend: string;
  answer: string;
  nodes: number;
  positions: number;
  ms: number;
  limitMs: number | null;
  machine: string;
  gitCommit: string | null;
  runAt: string;
}

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

export class ProblemDb {
  private constructor(
    private readonly db: Database,
    readonly path: string | undefined,
  ) {}

  /**
   * Opens an existing database file. Errors (never a crash, never a write): no such file, not an
   * SQLite file, an SQLite file that is not a krieg problem database, a newer or older schema.
   */
  static async open(path: string): Promise<ProblemDb> {
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
    const problemDb = new ProblemDb(db, path);
    problemDb.checkSchema();
    problemDb.onDisk = ProblemDb.fileStamp(path);
    return problemDb;
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

  private checkSchema(): void {
    const where = this.path ?? 'database';
    const tables = new Set(
      this.rows('SELECT name FROM sqlite_master WHERE type = ?', ['table']).map((r) => String(r[0])),
    );
    if (!tables.has('meta')) throw fail('db-foreign', { where, why: 'no meta table' });
    const format = this.meta('format');
    if (format !== DB_FORMAT) throw fail('db-foreign', { where, why: `format '${format ?? 'missing'}'` });
    const version = this.meta('schema_version');
    if (version !== String(SCHEMA_VERSION)) {
      throw fail('db-version', { where, version, reads: SCHEMA_VERSION });
    }
    for (const table of ['games', 'instances', 'results']) {
      if (!tables.has(table))
        throw fail('db-corrupt', { where, what: `schema version ${SCHEMA_VERSION} but no ${table} table` });
    }
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
    this.db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
      key,
      value,
    ]);
  }

  /** The generation parameters stored at creation. */
  params<T>(): T {
    try {
      return JSON.parse(this.meta('params') ?? '{}') as T;
    } catch {
      throw fail('db-corrupt', { where: this.path ?? 'database', what: "meta 'params' is not valid JSON" });
    }
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
    return this.db.export();
  }

  close(): void {
    this.db.close();
  }

  lastGame(): number {
    return Number(this.rows('SELECT coalesce(max(game), 0) FROM games')[0][0]);
  }

  addGame(g: GameRow): void {
    this.db.run('INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      g.game,
      g.gameSeed,
      g.setup,
      g.plies,
      g.result,
      g.dropped ? 1 : 0,
      g.maxBelief,
      g.instances,
      g.recordKpgn,
    ]);
  }

  /** Games played, and how many of them were dropped (without reading their records). */
  gameTally(): { played: number; dropped: number } {
    const r = this.rows('SELECT count(*), coalesce(sum(dropped), 0) FROM games')[0];
    return { played: Number(r[0]), dropped: Number(r[1]) };
  }

  games(): GameRow[] {
    return this.rows('SELECT * FROM games ORDER BY game').map((r) => ({
      game: Number(r[0]),
      gameSeed: Number(r[1]),
      setup: String(r[2]),
      plies: Number(r[3]),
      result: String(r[4]),
      dropped: r[5] === 1,
      maxBelief: Number(r[6]),
      instances: Number(r[7]),
      recordKpgn: String(r[8]),
    }));
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
        cut_ply, source_id, covered, strategy, work) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    return Number(this.rows('SELECT last_insert_rowid()')[0][0]);
  }

  /** A stored JSON column, or a KriegError naming the database, the instance and the column. */
  private json<T>(id: SqlValue, column: string, text: SqlValue): T {
    try {
      return JSON.parse(String(text)) as T;
    } catch {
      throw fail('db-corrupt', {
        where: `${this.path ?? 'database'}: instance ${id}`,
        what: `column ${column} is not valid JSON`,
      });
    }
  }

  private instanceOf(r: SqlValue[]): InstanceRow {
    return {
      id: Number(r[0]),
      key: String(r[1]),
      rules: String(r[2]),
      rulesJson: String(r[3]),
      ply: Number(r[4]),
      cls: String(r[5]) as ProblemClass,
      beliefSize: Number(r[6]),
      viewKpgn: String(r[7]),
      viewJson: String(r[8]),
      positions: this.json(r[0], 'positions', r[9]),
      seed: Number(r[10]),
      game: Number(r[11]),
      cutPly: Number(r[12]),
      sourceId: r[13] === null ? null : Number(r[13]),
      covered: this.json(r[0], 'covered', r[14]),
      strategy: String(r[15]),
      work: this.json(r[0], 'work', r[16]),
    };
  }

  /** Instances in id order, optionally of one ply and/or class. */
  instances(filter: InstanceFilter = {}): InstanceRow[] {
    const { where, params } = ProblemDb.whereOf(filter);
    return this.rows(`SELECT * FROM instances ${where} ORDER BY id`, params).map((r) => this.instanceOf(r));
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
    this.db.run('INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
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
    ]);
  }

  results(instanceId?: number): ResultRow[] {
    const rows =
      instanceId === undefined
        ? this.rows('SELECT * FROM results ORDER BY rowid')
        : this.rows('SELECT * FROM results WHERE instance_id = ? ORDER BY rowid', [instanceId]);
    return rows.map((r) => ({
      instanceId: Number(r[0]),
      algorithm: String(r[1]),
      backend: String(r[2]),
      answer: String(r[3]),
      nodes: Number(r[4]),
      positions: Number(r[5]),
      ms: Number(r[6]),
      limitMs: r[7] === null ? null : Number(r[7]),
      machine: String(r[8]),
      gitCommit: r[9] === null ? null : String(r[9]),
      runAt: String(r[10]),
    }));
  }
}

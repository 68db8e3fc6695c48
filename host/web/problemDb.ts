// The problem database in the browser: the shipped SQLite file (schema of host/db/database.node.ts)
// opened read-only with sql.js, which is loaded only when a database is opened (a <script> of
// vendor/sql-wasm-inline.js, the WASM inlined, so it needs no fetch and works from file://): the
// page's first load does not carry it. host/db/database.node.ts is the Node side (files, writes); this
// reads the same tables.
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { DB_FORMAT, SCHEMA_VERSION } from '../db/schema';
import { instanceOfRow, paramsOf, type InstanceSummary, type RowContext } from '../db/rows';

/** The global the sql.js script defines. */
const sqlGlobal = globalThis as { initSqlJs?: (config?: object) => Promise<SqlJsStatic> };

export const SQL_JS_SCRIPT = 'vendor/sql-wasm-inline.js';

let sqlPromise: Promise<SqlJsStatic> | undefined;

function loadSqlJs(): Promise<SqlJsStatic> {
  return (sqlPromise ??= new Promise<void>((resolve, reject) => {
    if (sqlGlobal.initSqlJs) return resolve();
    const script = document.createElement('script');
    script.src = SQL_JS_SCRIPT;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${SQL_JS_SCRIPT}`));
    document.head.append(script);
  }).then(() => sqlGlobal.initSqlJs!()));
}

export interface BrowserInstance {
  id: number;
  ply: number;
  cls: string;
  rulesJson: string;
  viewJson: string;
  positions: string[];
}

export interface BrowserDb {
  counts(): { ply: number; cls: string; count: number }[];
  summaries(filter: { ply?: number; cls?: string }): InstanceSummary[];
  instance(id: number): BrowserInstance;
}

export async function openProblemDb(bytes: Uint8Array, name: string): Promise<BrowserDb> {
  const SQL = await loadSqlJs();
  const db: Database = new SQL.Database(bytes);
  const rows = (sql: string, params: SqlValue[] = []): SqlValue[][] => db.exec(sql, params)[0]?.values ?? [];
  const meta = (key: string) => rows('SELECT value FROM meta WHERE key = ?', [key])[0]?.[0];
  let format: SqlValue | undefined;
  try {
    format = meta('format');
  } catch {
    format = undefined;
  }
  if (format !== DB_FORMAT) throw new Error(`${name} is not a krieg problem database`);
  // the page reads the tables only; row checksums are verified by the command line (krieg db upgrade --db FILE)
  if (Number(meta('schema_version')) !== SCHEMA_VERSION)
    throw new Error(
      `${name} has schema version ${meta('schema_version')}; this page reads ${SCHEMA_VERSION}${Number(meta('schema_version')) === 1 ? " (upgrade it with 'krieg db upgrade --db FILE')" : ''}`,
    );
  // an instance opened is checked as the command line checks it (host/db/rows.ts), but for its key (SHA-1)
  const context: RowContext = {
    where: name,
    seed: paramsOf(meta('params') as string | undefined, name).seed,
    hasGame: (game) => rows('SELECT 1 FROM games WHERE game = ?', [game]).length > 0,
    hasInstance: (id) => rows('SELECT 1 FROM instances WHERE id = ?', [id]).length > 0,
  };
  return {
    counts: () =>
      rows('SELECT ply, class, count(*) FROM instances GROUP BY ply, class ORDER BY ply, class').map((r) => ({
        ply: Number(r[0]),
        cls: String(r[1]),
        count: Number(r[2]),
      })),
    summaries: (filter) => {
      const terms: string[] = [];
      const params: SqlValue[] = [];
      if (filter.ply !== undefined) (terms.push('ply = ?'), params.push(filter.ply));
      if (filter.cls !== undefined) (terms.push('class = ?'), params.push(filter.cls));
      return rows(
        `SELECT id, ply, class, belief_size, rules, game, cut_ply FROM instances ${terms.length ? `WHERE ${terms.join(' AND ')}` : ''} ORDER BY id`,
        params,
      ).map((r) => ({
        id: Number(r[0]),
        ply: Number(r[1]),
        cls: String(r[2]) as InstanceSummary['cls'],
        beliefSize: Number(r[3]),
        rules: String(r[4]),
        game: Number(r[5]),
        cutPly: Number(r[6]),
      }));
    },
    instance: (id) => {
      const r = rows('SELECT * FROM instances WHERE id = ?', [id])[0];
      if (!r) throw new Error(`${name} has no instance ${id}`);
      const row = instanceOfRow(r, context);
      return {
        id: row.id,
        ply: row.ply,
        cls: row.cls,
        rulesJson: row.rulesJson,
        viewJson: row.viewJson,
        positions: row.positions,
      };
    },
  };
}

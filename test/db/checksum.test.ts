// Row checksums of the problem database (issue #18 §7, F7): SQLite's quick_check sees a damaged
// page but not a changed byte inside a row, so every row carries a checksum and meta 'rows' the
// row count of each table; opening verifies both. A schema version 1 file (no checksums) is
// refused with the command that upgrades it, and the upgrade keeps every row as it was.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { ProblemDb, SCHEMA_VERSION, TABLES } from '../../host/db/database.node';
import { packageRoot } from '../../host/io/packageRoot';
import { openRefusal, SAMPLE_RESULT } from '../lib/dbDamage';
import { expectOneLine, krieg } from '../lib/cli';
import { contents } from '../lib/dbCheck';

let DIR = '';
const at = (name: string) => join(DIR, name);
let SQL: Awaited<ReturnType<typeof initSqlJs>>;

/** The file at `from` changed by `sql` (run with sql.js, no checksum touched), written to `to`. */
function changed(from: string, to: string, sql: string): string {
  const db = new SQL.Database(new Uint8Array(readFileSync(at(from))));
  db.exec(sql);
  writeFileSync(at(to), db.export());
  db.close();
  return at(to);
}

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-checksum-'));
  SQL = await initSqlJs({ locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm') });
  // one row in every table: a game and an instance of the shipped database, a benchmark run
  const shipped = await ProblemDb.open(join(packageRoot(), 'data/problems-standard.sqlite'));
  const { id: _id, ...row } = shipped.instance(1)!;
  const game = shipped.games().find((g) => g.game === row.game)!;
  shipped.close();
  const db = await ProblemDb.create(at('small.sqlite'), { seed: 1 });
  db.transaction(() => {
    db.addGame(game);
    db.addInstance(row);
    db.addResult(SAMPLE_RESULT);
  });
  db.close();
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('row checksums', () => {
  it('a database krieg wrote opens, and so does each shipped one (schema version 2, every row intact)', async () => {
    expect((await contents(at('small.sqlite'))).results).toHaveLength(1);
    for (const file of ['problems.sqlite', 'problems-standard.sqlite', 'problems-standard-oracle.sqlite']) {
      const db = await ProblemDb.open(join(packageRoot(), 'data', file));
      expect(db.meta('schema_version'), file).toBe(String(SCHEMA_VERSION));
      db.close();
    }
  });

  it('a value changed in any table is named by database and row, though quick_check passes', async () => {
    const cases: [string, RegExp][] = [
      ["UPDATE meta SET value = replace(value, '1', '2') WHERE key = 'params'", /: meta 'params': /],
      ['UPDATE games SET plies = plies + 1', /: game \d+: /],
      ["UPDATE instances SET positions = replace(positions, 'k', 'q')", /: instance 1: /],
      ['UPDATE instances SET belief_size = belief_size - 1', /: instance 1: /],
      ['UPDATE results SET ms = 1.25', /: results row 1: /],
      ["UPDATE results SET checksum = '0123456789abcdef'", /: results row 1: /],
    ];
    for (const [sql, where] of cases) {
      const path = changed('small.sqlite', 'changed.sqlite', sql);
      const check = new SQL.Database(new Uint8Array(readFileSync(path)));
      expect(check.exec('PRAGMA quick_check')[0].values[0][0]).toBe('ok');
      check.close();
      const message = await openRefusal(path);
      expect(message, sql).toMatch(where);
      expect(message).toMatch(/changed\.sqlite: .*the row does not match its checksum \(the file is damaged\)$/);
    }
  });

  it('a lost row is found by the row counts', async () => {
    for (const table of TABLES.filter((t) => t !== 'meta')) {
      const message = await openRefusal(changed('small.sqlite', 'lost.sqlite', `DELETE FROM ${table}`));
      expect(message).toMatch(
        /lost\.sqlite: the tables hold \{.*\} rows but meta 'rows' says \{.*\} \(the file is damaged\)/,
      );
    }
  });

  it('schema version 1 is refused with the command that upgrades it; the upgrade keeps every row', async () => {
    const v1 = changed(
      'small.sqlite',
      'v1.sqlite',
      [
        ...TABLES.map((t) => `ALTER TABLE ${t} DROP COLUMN checksum`),
        "DELETE FROM meta WHERE key = 'rows'",
        "UPDATE meta SET value = '1' WHERE key = 'schema_version'",
      ].join(';'),
    );
    const before = readFileSync(v1);
    expect(await openRefusal(v1)).toMatch(
      /v1\.sqlite: schema version 1, whose rows carry no checksums .*'krieg db upgrade --db .*v1\.sqlite' adds them/,
    );
    expect(expectOneLine(await krieg(['db', 'show', '1', '--db', 'v1.sqlite'], DIR), 2)).toMatch(
      /krieg db upgrade --db v1\.sqlite/,
    );
    // the upgrade writes only a file named with --db
    expect(expectOneLine(await krieg(['db', 'upgrade'], DIR), 2)).toMatch(/db upgrade writes to the database/);
    expect(readFileSync(v1).equals(before)).toBe(true);
    const upgraded = await krieg(['db', 'upgrade', '--db', 'v1.sqlite'], DIR);
    expect(upgraded.status, upgraded.stderr).toBe(0);
    expect(upgraded.stdout).toMatch(/v1\.sqlite: upgraded from schema version 1 to 2/);
    expect(await contents(v1)).toEqual(await contents(at('small.sqlite')));
    const after = readFileSync(v1);
    const again = await krieg(['db', 'upgrade', '--db', 'v1.sqlite'], DIR);
    expect(again.stdout).toMatch(/schema version 2 already; every row matches its checksum/);
    expect(readFileSync(v1).equals(after)).toBe(true);
    // a damaged version 2 file is refused by the upgrade too, and left as it was
    const damaged = changed('small.sqlite', 'damaged.sqlite', 'UPDATE games SET plies = plies + 1');
    const bytes = readFileSync(damaged);
    expect(expectOneLine(await krieg(['db', 'upgrade', '--db', 'damaged.sqlite'], DIR), 2)).toMatch(
      /damaged\.sqlite: game \d+: the row does not match its checksum/,
    );
    expect(readFileSync(damaged).equals(bytes)).toBe(true);
  });
});

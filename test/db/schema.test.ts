// The schema of a problem database is checked on opening (issue #38 G2): the row checksums do not
// cover sqlite_master, so a byte changed in a CREATE statement (`strategy TEXT NOT NULL` read as
// `TEXT N\xefT NULL`) or an object planted in the file (a trigger that makes `db generate` fail, a
// view, an index) was accepted by every command, and `db generate` rewrote the file with it. Every
// command refuses such a file in one line naming it and what differs, and writes nothing.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { ProblemDb } from '../../host/db/database.node';
import { packageRoot } from '../../host/io/packageRoot';
import { openRefusal } from '../lib/dbDamage';
import { expectOneLine, krieg as runKrieg } from '../lib/cli';

let DIR = '';
const at = (name: string) => join(DIR, name);
const krieg = (args: string[]) => runKrieg(args, DIR);
let SQL: Awaited<ReturnType<typeof initSqlJs>>;
/** A shipped database: its parameters are those `db generate` resumes with. */
let SHIPPED: Buffer;

/** The shipped file changed by `sql` (run with sql.js: rows and checksums untouched), written to `name`. */
function changed(name: string, sql: string): string {
  const db = new SQL.Database(new Uint8Array(SHIPPED));
  db.exec(sql);
  writeFileSync(at(name), db.export());
  db.close();
  return at(name);
}

/** The shipped file with the text `from` of its schema (page 1) replaced by `to`, byte for byte. */
function edited(name: string, from: string, to: Buffer): string {
  const bytes = Buffer.from(SHIPPED);
  const pageSize = bytes.readUInt16BE(16);
  const at1 = bytes.indexOf(from, 100, 'latin1');
  expect(at1, from).toBeGreaterThan(0);
  expect(at1, `${from} is on page 1`).toBeLessThan(pageSize);
  to.copy(bytes, at1);
  writeFileSync(at(name), bytes);
  return at(name);
}

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-schema-'));
  SQL = await initSqlJs({ locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm') });
  SHIPPED = readFileSync(join(packageRoot(), 'data/problems-standard.sqlite'));
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('the schema is checked on opening', () => {
  it('a damaged or extended schema is named: which object, which column', async () => {
    const flipped = Buffer.from('strategy TEXT N\xefT NULL', 'latin1');
    const cases: [string, RegExp][] = [
      [
        edited('flip.sqlite', 'strategy TEXT NOT NULL', flipped),
        /flip\.sqlite: the schema differs from version 2: table instances has 'strategy TEXT N.+T NULL' where it should have 'strategy TEXT NOT NULL'$/,
      ],
      [
        edited('reference.sqlite', 'REFERENCES games(game)', Buffer.from('REFERENCES gamez(game)')),
        /reference\.sqlite: the schema differs from version 2: table instances has 'game INTEGER NOT NULL REFERENCES gamez\(game\)' where it should have 'game INTEGER NOT NULL REFERENCES games\(game\)'$/,
      ],
      [
        changed('trigger.sqlite', "CREATE TRIGGER nope BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'nope'); END"),
        /trigger\.sqlite: the schema differs from version 2: trigger nope on games is not part of it$/,
      ],
      [
        changed('view.sqlite', 'CREATE VIEW mates AS SELECT * FROM instances'),
        /view\.sqlite: the schema differs from version 2: view mates is not part of it$/,
      ],
      [
        changed('index.sqlite', 'CREATE INDEX extra ON games (plies)'),
        /index\.sqlite: the schema differs from version 2: index extra on games is not part of it$/,
      ],
      [
        changed('noindex.sqlite', 'DROP INDEX instances_class'),
        /noindex\.sqlite: the schema differs from version 2: index instances_class is missing$/,
      ],
      [
        changed('column.sqlite', "ALTER TABLE results ADD COLUMN note TEXT DEFAULT ''"),
        /column\.sqlite: the schema differs from version 2: table results has 'note TEXT DEFAULT ''' in addition$/,
      ],
    ];
    for (const [path, message] of cases) expect(await openRefusal(path), path).toMatch(message);
  });

  it('every command refuses the flipped schema and the planted trigger in one line; nothing is written', async () => {
    edited('flip.sqlite', 'strategy TEXT NOT NULL', Buffer.from('strategy TEXT N\xefT NULL', 'latin1'));
    changed('trigger.sqlite', "CREATE TRIGGER nope BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'nope'); END");
    for (const [file, message] of [
      ['flip.sqlite', /^krieg: flip\.sqlite: the schema differs from version 2: table instances has 'strategy TEXT N/],
      ['trigger.sqlite', /^krieg: trigger\.sqlite: the schema differs from version 2: trigger nope on games/],
    ] as const) {
      const before = readFileSync(at(file));
      for (const command of [
        ['db', 'list'],
        ['db', 'show', '1'],
        ['db', 'stats'],
        ['db', 'export', '--format', 'problems', '--out', 'never.json'],
        ['db', 'bench', '--limit', '1', '--algo', 'gl-dbu', '--limit-time', '1'],
        ['db', 'reanalyse', '--from', '3', '--ply', '5', '--max', '1', '--nodes', '1000'],
        ['db', 'upgrade'],
        ['db', 'generate', '--start', 'standard', '--mates', '0', '--near-misses', '1000', '--max-games', '1250'],
        ['solve', 'db:1', '--limit-nodes', '1000'],
      ])
        expect(expectOneLine(await krieg([...command, '--db', file]), 2), `${command.join(' ')} ${file}`).toMatch(
          message,
        );
      expect(readFileSync(at(file)).equals(before), file).toBe(true);
    }
  });

  it('the shipped databases and a database krieg makes pass', async () => {
    for (const file of ['problems.sqlite', 'problems-standard.sqlite', 'problems-standard-oracle.sqlite'])
      (await ProblemDb.open(join(packageRoot(), 'data', file))).close();
    const made = await ProblemDb.create(at('new.sqlite'), { seed: 1 });
    made.close();
    (await ProblemDb.open(at('new.sqlite'))).close();
  });
});

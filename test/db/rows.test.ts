// One validation of a problem database's rows (issue #38 G7, host/db/rows.ts): a column damaged and
// its row signed again (as a buggy writer would leave it: the checksum matches) was refused by some
// commands and read by others — a bad rules_json, view_kpgn or view_json, an instance whose game is
// not in the database, parameters without the seed, an even ply that db generate kept. Every command
// that opens the database now refuses each in one line naming the file, the row and the column, and
// writes nothing.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { ProblemDb } from '../../host/db/database.node';
import { packageRoot } from '../../host/io/packageRoot';
import { expectOneLine, krieg as runKrieg } from '../lib/cli';
import { signAgain, SAMPLE_RESULT } from '../lib/dbDamage';

let DIR = '';
const at = (name: string) => join(DIR, name);
const krieg = (args: string[]) => runKrieg(args, DIR);
let SQL: Awaited<ReturnType<typeof initSqlJs>>;

/** The small database changed by `sql` and signed again, written to damaged.sqlite. */
function damaged(sql: string): Buffer {
  const db = new SQL.Database(new Uint8Array(readFileSync(at('small.sqlite'))));
  db.exec(sql);
  signAgain(db);
  writeFileSync(at('damaged.sqlite'), db.export());
  db.close();
  return readFileSync(at('damaged.sqlite'));
}

/** Every command that opens a database (the writers on a file they would resume). */
const COMMANDS = (id: number) => [
  ['db', 'show', String(id)],
  ['db', 'show', String(id), '--json'],
  ['db', 'list'],
  ['db', 'stats'],
  ['db', 'export', '--format', 'json', '--out', 'never.json'],
  ['db', 'export', '--format', 'kpgn', '--out', 'never.kpgn'],
  ['db', 'bench', '--limit', '1', '--algo', 'gl-dbu', '--limit-time', '1'],
  ['db', 'generate', '--start', 'standard', '--mates', '0', '--near-misses', '0'],
  ['db', 'reanalyse', '--max', '1', '--nodes', '1000'],
  ['solve', `db:${id}`, '--limit-nodes', '1000'],
];

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-rows-'));
  SQL = await initSqlJs({ locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm') });
  // the first instances of a shipped database and the games up to theirs, with its parameters (so db
  // generate resumes it), and a benchmark run
  const shipped = await ProblemDb.open(join(packageRoot(), 'data/problems-standard.sqlite'));
  const instances = shipped.instances().slice(0, 3);
  const lastGame = Math.max(...instances.map((i) => i.game));
  const db = await ProblemDb.create(at('small.sqlite'), shipped.params());
  db.transaction(() => {
    for (const game of shipped.games().filter((g) => g.game <= lastGame)) db.addGame(game);
    for (const { id, ...row } of instances) expect(db.addInstance(row)).toBe(id);
    db.addResult(SAMPLE_RESULT);
  });
  shipped.close();
  db.close();
});

afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('a damaged column of a well-signed row', () => {
  it('the intact small database is read by every command', async () => {
    damaged('SELECT 1');
    for (const command of COMMANDS(2).filter((c) => c[1] !== 'bench' && c[1] !== 'reanalyse')) {
      const run = await krieg([...command, '--db', 'damaged.sqlite']);
      // (solve stops at its node limit: exit 4)
      expect(run.status, `${command.join(' ')}: ${run.stderr}`).toBe(command[0] === 'solve' ? 4 : 0);
    }
    rmSync(at('never.json'));
    rmSync(at('never.kpgn'));
  });

  it('is refused by every command, naming the file, the row and the column; nothing is written', async () => {
    // (instance 1 is the near-miss instance 2 re-analyses, from the same view; instance 3 is of another game)
    const other = (column: string) => `(SELECT ${column} FROM instances WHERE id = 3)`;
    const cases: [string, string, RegExp][] = [
      // [SQL, the row, what the message says of the column]
      [`UPDATE instances SET rules_json = 'berkeley' WHERE id = 2`, 'instance 2', /column rules_json must be /],
      [
        `UPDATE instances SET rules_json = '{"pawnTries": "often"}' WHERE id = 2`,
        'instance 2',
        /column rules_json must be a rule set \(JSON\), but /,
      ],
      [`UPDATE instances SET rules = 'chess' WHERE id = 2`, 'instance 2', /column rules must be a preset name/],
      [`UPDATE instances SET view_kpgn = 'no view' WHERE id = 2`, 'instance 2', /column view_kpgn must be /],
      [
        `UPDATE instances SET view_kpgn = replace(view_kpgn, '[Filtered "white"]', '') WHERE id = 2`,
        'instance 2',
        /column view_kpgn must be White's view \(KPGN\), but line \d+, column \d+: /,
      ],
      [`UPDATE instances SET view_json = '{}' WHERE id = 2`, 'instance 2', /column view_json must be /],
      [
        `UPDATE instances SET view_json = ${other('view_json')} WHERE id = 2`,
        'instance 2',
        /column view_json must be the view of view_kpgn, but their events differ/,
      ],
      [`UPDATE instances SET game = 99999 WHERE id = 2`, 'instance 2', /column game must be a game of the games table/],
      [`UPDATE instances SET source_id = 3 WHERE id = 2`, 'instance 2', /column source_id must be empty or an earlier/],
      [`UPDATE instances SET seed = 2 WHERE id = 2`, 'instance 2', /column seed must be the generator's seed \(1/],
      [`UPDATE instances SET ply = 4 WHERE id = 2`, 'instance 2', /column ply must be an odd integer from 1 to 99/],
      [`UPDATE instances SET ply = 0 WHERE id = 2`, 'instance 2', /column ply must be an odd integer/],
      [`UPDATE instances SET strategy = '{}' WHERE id = 2`, 'instance 2', /column strategy must be a witness strategy/],
      [`UPDATE instances SET key = ${other('key')} || 'x' WHERE id = 2`, 'instance 2', /column key must be /],
      [
        `UPDATE instances SET positions = '["x"]', belief_size = 1, covered = '[0]' WHERE id = 2`,
        'instance 2',
        /column positions must be a non-empty array of FENs, but position 1: /,
      ],
      [`UPDATE instances SET covered = '[]' WHERE id = 2`, 'instance 2', /column covered must be /],
      [`UPDATE games SET result = 'won' WHERE game = 1`, 'game 1', /column result must be 1-0, 0-1, 1\/2-1\/2, \*/],
      [`UPDATE results SET answer = 'maybe'`, 'results row 1', /column answer must be proven, disproven or unknown/],
      [`UPDATE results SET instance_id = 99`, 'results row 1', /column instance_id must be an instance/],
    ];
    for (const [sql, row, column] of cases) {
      const bytes = damaged(sql);
      for (const command of COMMANDS(2)) {
        const line = expectOneLine(await krieg([...command, '--db', 'damaged.sqlite']), 2);
        expect(line, `${sql}: ${command.join(' ')}`).toMatch(new RegExp(`^krieg: damaged\\.sqlite: ${row}: `));
        expect(line, `${sql}: ${command.join(' ')}`).toMatch(column);
      }
      expect(readFileSync(at('damaged.sqlite')).equals(bytes), sql).toBe(true);
    }
    expect(existsSync(at('never.json')) || existsSync(at('never.kpgn'))).toBe(false);
  });

  it("meta 'params' without the seed is refused by every command", async () => {
    const db = new SQL.Database(new Uint8Array(readFileSync(at('small.sqlite'))));
    const params = JSON.parse(String(db.exec("SELECT value FROM meta WHERE key = 'params'")[0].values[0][0]));
    delete params.seed;
    const bytes = damaged(`UPDATE meta SET value = '${JSON.stringify(params)}' WHERE key = 'params'`);
    db.close();
    for (const command of COMMANDS(1))
      expect(expectOneLine(await krieg([...command, '--db', 'damaged.sqlite']), 2), command.join(' ')).toMatch(
        /^krieg: damaged\.sqlite: meta 'params' must hold the generator's seed \(an integer from 0 to 2147483647\), found undefined$/,
      );
    expect(readFileSync(at('damaged.sqlite')).equals(bytes)).toBe(true);
  });
});

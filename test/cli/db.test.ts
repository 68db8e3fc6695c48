// `krieg db list|show|export|stats` and `krieg solve|verify db:ID` through the built CLI, on a
// fixture database of two real instances from test/data/problems/set-3ply.json: a guaranteed mate
// (its strategy solved here with gl-dbu) and a near-miss (its witness solved on the one position
// it covers). Then acceptance point 4 of issue 7: a malformed or foreign database file, a wrong
// schema version or a bad db:ID gives exit 2 and one line, and no file is written or changed.
// Run with KRIEG_KEEP_FIXTURE=DIR to keep a copy of the fixture database in DIR.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  mkdtempSync,
  rmSync,
  writeFileSync,
  readFileSync,
  copyFileSync,
  existsSync,
  linkSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { expectOneLine, krieg as runKrieg, ROOT } from '../lib/cli';
import { ProblemDb, instanceKey, type InstanceRow } from '../../host/db/database.node';
import { createEngine } from '../../host/node';
import { solve, type Problem } from '../../host/solver/solve';
import { parseProblems } from '../../host/solver/problemFile';
import { strategyToJson } from '../../host/solver/strategy';
import { randomGame } from '../../host/referee/game';
import { viewOf } from '../../host/record/record';
import { makeViewKpgn, makeRecordKpgn, parseKpgnGames } from '../../host/notation/kpgn';
import { viewToJson } from '../../host/notation/recordJson';

let DIR = '';
const krieg = (args: string[]) => runKrieg(args, DIR);
const DB = 'fixture.sqlite';
const at = (name: string) => join(DIR, name);

const SET = parseProblems(readFileSync(new URL('../data/problems/set-3ply.json', import.meta.url), 'utf8'));
const MATE = SET.find((p) => p.id === '3-kqk-s58367543-p2')!;
const NEAR_MISS = SET.find((p) => p.id === '3-kqkb-s994472688-p6')!;

/** A short real game from the problem's first position, and White's view of it. */
function game(n: number, problem: Problem, seed: number) {
  const engine = createEngine('wasm');
  const record = randomGame(engine, seed, { start: problem.positions[0], maxPlies: 2 });
  const view = viewOf(record, 'white');
  return {
    record,
    view,
    row: {
      game: n,
      gameSeed: seed,
      setup: record.start,
      plies: 2,
      result: record.result,
      dropped: false,
      maxBelief: problem.positions.length,
      instances: 1,
      recordKpgn: makeRecordKpgn(record),
    },
  };
}

/** An instance row of `problem` whose witness strategy mates in the positions `covered`. */
function instance(
  problem: Problem,
  cls: InstanceRow['cls'],
  covered: number[],
  n: number,
  seed: number,
): Omit<InstanceRow, 'id'> {
  const witness = solve(
    createEngine('wasm'),
    { ...problem, positions: covered.map((i) => problem.positions[i]) },
    'gl-dbu',
  );
  expect(witness.answer).toBe('proven');
  const { view } = game(n, problem, seed);
  const rulesJson = JSON.stringify(problem.rules);
  return {
    key: instanceKey(problem.ply, rulesJson, problem.positions),
    rules: 'berkeley',
    rulesJson,
    ply: problem.ply,
    cls,
    beliefSize: problem.positions.length,
    viewKpgn: makeViewKpgn(view),
    viewJson: JSON.stringify(viewToJson(view)),
    positions: problem.positions,
    seed: 1,
    game: n,
    cutPly: 2,
    sourceId: null,
    covered,
    strategy: JSON.stringify(strategyToJson(witness.strategy!)),
    work: { 'gl-dbu': witness.stats.nodes },
  };
}

const bytes = (name: string) => readFileSync(at(name));

beforeAll(async () => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-db-'));
  // the near-miss's witness: a strategy for the first position that is mated alone
  const single = NEAR_MISS.positions.findIndex(
    (fen) => solve(createEngine('wasm'), { ...NEAR_MISS, positions: [fen] }, 'gl-dbu').answer === 'proven',
  );
  expect(single).toBeGreaterThanOrEqual(0);
  const mate = instance(
    MATE,
    'mate',
    MATE.positions.map((_, i) => i),
    1,
    58367543,
  );
  writeFileSync(at('stored.json'), mate.strategy);
  const db = await ProblemDb.create(at(DB), { seed: 1, games: 3, rules: 'berkeley' });
  db.transaction(() => {
    db.addGame(game(1, MATE, 58367543).row);
    db.addGame(game(2, NEAR_MISS, 994472688).row);
    db.addGame({ ...game(3, MATE, 7).row, dropped: true, instances: 0 });
    db.addInstance(mate);
    db.addInstance(instance(NEAR_MISS, 'near-miss', [single], 2, 994472688));
    db.addResult({
      instanceId: 1,
      algorithm: 'gl-dbu',
      backend: 'wasm',
      answer: 'proven',
      nodes: 221,
      positions: 400,
      ms: 1.5,
      limitMs: 60_000,
      machine: 'fixture',
      gitCommit: null,
      runAt: '2025-01-01T00:00:00Z',
    });
  });
  db.close();
});

afterAll(async () => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});
afterAll(async () => {
  if (process.env.KRIEG_KEEP_FIXTURE) copyFileSync(at(DB), join(process.env.KRIEG_KEEP_FIXTURE, DB));
});

describe('krieg db list, show, stats', () => {
  it('lists one aligned line per instance and the count; filters by ply and class', async () => {
    const run = await krieg(['db', 'list', '--db', DB]);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^id\s+ply\s+class\s+belief\s+rules\s+game\s+cut ply$/);
    expect(lines[1]).toMatch(/^ 1\s+3\s+mate\s+2\s+berkeley\s+1\s+2$/);
    expect(lines[2]).toMatch(/^ 2\s+3\s+near-miss\s+2\s+berkeley\s+2\s+2$/);
    expect(lines[1].indexOf('berkeley')).toBe(lines[2].indexOf('berkeley'));
    expect(lines[3]).toBe('2 instances');
    expect((await krieg(['db', 'list', '--db', DB, '--class', 'near-miss'])).stdout).toMatch(
      /^id.*\n 2 .*\n1 instance\n$/,
    );
    expect((await krieg(['db', 'list', '--db', DB, '--limit', '1'])).stdout).toMatch(/1 of 2 instances\n$/);
    expect((await krieg(['db', 'list', '--db', DB, '--ply', '5'])).stdout).toBe('0 instances\n');
    expect(JSON.parse((await krieg(['db', 'list', '--db', DB, '--json'])).stdout)).toEqual([
      { id: 1, ply: 3, class: 'mate', beliefSize: 2, rules: 'berkeley', game: 1, cutPly: 2 },
      { id: 2, ply: 3, class: 'near-miss', beliefSize: 2, rules: 'berkeley', game: 2, cutPly: 2 },
    ]);
  });

  it('shows an instance: fields, numbered positions, coverage, strategy, work, view and results', async () => {
    const mate = await krieg(['db', 'show', '1', '--db', DB]);
    expect(mate.status, mate.stderr).toBe(0);
    expect(mate.stdout).toMatch(
      /^instance 1 of fixture\.sqlite\nply 3, mate, berkeley rules, 2 positions, White to move\n/,
    );
    expect(mate.stdout).toContain(
      `the witness strategy mates in all 2):\n   1   ${MATE.positions[0]}\n   2   ${MATE.positions[1]}\n`,
    );
    expect(mate.stdout).toMatch(/witness strategy:\nWhite mates within 3 ply:\n  try /);
    expect(mate.stdout).toMatch(/work when classified \(nodes\): gl-dbu \d+/);
    expect(mate.stdout).toMatch(/White's view \(KPGN\):\n[\s\S]*\[Filtered "white"\]/);
    expect(mate.stdout).toMatch(
      /benchmark results:\nalgorithm .*\ngl-dbu\s+wasm\s+proven\s+221\s+400\s+1\.5\s+60000\s+fixture/,
    );
    const nearMiss = (await krieg(['db', 'show', '2', '--db', DB])).stdout;
    expect(nearMiss).toMatch(/\* the witness strategy mates there: 1 of 2/);
    expect(nearMiss.match(/^ {3}\d \* /gm)).toHaveLength(1);
    expect(nearMiss).toMatch(/benchmark results: none/);
    const doc = JSON.parse((await krieg(['db', 'show', '2', '--db', DB, '--json'])).stdout);
    expect(doc).toMatchObject({ id: 2, class: 'near-miss', ply: 3, positions: NEAR_MISS.positions, results: [] });
    expect(doc.view).toMatchObject({ format: 'krieg-view', as: 'white' });
    expect(doc.strategy).toMatchObject({ format: 'krieg-strategy', side: 'white', ply: 3 });
  });

  it('stats count games, instances and belief sizes of the fixture', async () => {
    const run = await krieg(['db', 'stats', '--db', DB]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^rules\s+berkeley \(2\)$/m);
    expect(run.stdout).toMatch(/^games\s+3 played, 1 dropped .*; 0\.67 instances per game played$/m);
    expect(run.stdout).toMatch(/^params\s+seed=1 games=3 rules=berkeley$/m);
    expect(run.stdout).toMatch(
      /^ply\s+class\s+instances\s+belief mean\s+median\s+max\n\s+3\s+mate\s+1\s+2\.0\s+2\s+2\n\s+3\s+near-miss\s+1\s+2\.0\s+2\s+2\n\s+all\s+2\s+2\.0\s+2\s+2\n$/m,
    );
    const json = JSON.parse((await krieg(['db', 'stats', '--db', DB, '--json'])).stdout);
    expect(json).toMatchObject({
      schemaVersion: 2,
      rules: { berkeley: 2 },
      games: { played: 3, dropped: 1, instancesPerGame: 0.67 },
      instances: [
        { ply: 3, class: 'mate', beliefSize: { instances: 1, mean: 2, median: 2, max: 2 } },
        { ply: 3, class: 'near-miss' },
      ],
      all: { instances: 2, mean: 2, median: 2, max: 2 },
      params: { seed: 1, games: 3 },
    });
  });
});

describe('krieg db export', () => {
  it('problems: a krieg-problems file that krieg solve reads, with each answer as classified', async () => {
    const run = await krieg(['db', 'export', '--db', DB, '--format', 'problems', '--out', 'p.json']);
    expect(run.stdout).toBe('wrote 2 instances (problems) to p.json\n');
    const problems = parseProblems(readFileSync(at('p.json'), 'utf8'));
    expect(problems.map((p) => [p.id, p.class, p.expect, p.positions])).toEqual([
      ['db:1', 'mate', 'proven', MATE.positions],
      ['db:2', 'near-miss', 'disproven', NEAR_MISS.positions],
    ]);
    expect((await krieg(['solve', 'p.json', '--problem', 'db:1'])).stdout).toMatch(/answer: proven/);
    expect((await krieg(['solve', 'p.json', '--problem', 'db:2'])).stdout).toMatch(/answer: disproven/);
  });

  it("kpgn: White's views tagged with the instance, parsed back", async () => {
    expect(
      (await krieg(['db', 'export', '--db', DB, '--format', 'kpgn', '--class', 'mate', '--out', 'v.kpgn'])).status,
    ).toBe(0);
    const games = parseKpgnGames(readFileSync(at('v.kpgn'), 'utf8'));
    expect(games).toHaveLength(1);
    expect(games[0].kind).toBe('view');
    if (games[0].kind === 'view')
      expect(games[0].view.tags).toMatchObject({ Instance: '1', Ply: '3', Class: 'mate', BeliefSize: '2' });
    await krieg(['db', 'export', '--db', DB, '--format', 'kpgn', '--out', 'all.kpgn']);
    expect(
      parseKpgnGames(readFileSync(at('all.kpgn'), 'utf8')).map((g) => g.kind === 'view' && g.view.tags.Instance),
    ).toEqual(['1', '2']);
  });

  it('json: the rows with positions, view and strategy as values', async () => {
    await krieg(['db', 'export', '--db', DB, '--format', 'json', '--ply', '3', '--out', 'rows.json']);
    const doc = JSON.parse(readFileSync(at('rows.json'), 'utf8'));
    expect(doc).toMatchObject({ format: 'krieg-problem-export', version: 1 });
    expect(doc.instances).toHaveLength(2);
    expect(doc.instances[0]).toMatchObject({
      id: 1,
      class: 'mate',
      positions: MATE.positions,
      covered: [0, 1],
      view: { format: 'krieg-view' },
      strategy: { format: 'krieg-strategy' },
    });
  });

  it('sqlite: a byte copy that opens as the same database; filters and the database itself refused', async () => {
    expect((await krieg(['db', 'export', '--db', DB, '--format', 'sqlite', '--out', 'copy.sqlite'])).status).toBe(0);
    expect(bytes('copy.sqlite').equals(bytes(DB))).toBe(true);
    expect((await krieg(['db', 'list', '--db', 'copy.sqlite'])).stdout).toMatch(/2 instances/);
    expect(
      expectOneLine(
        await krieg(['db', 'export', '--db', DB, '--format', 'sqlite', '--class', 'mate', '--out', 'c2.sqlite']),
        2,
      ),
    ).toMatch(/--ply and --class select for kpgn, json and problems only/);
    const before = bytes(DB);
    for (const format of ['sqlite', 'kpgn']) {
      expect(
        expectOneLine(await krieg(['db', 'export', '--db', DB, '--format', format, '--out', `./${DB}`]), 2),
      ).toMatch(/is the database itself/);
    }
    expect(bytes(DB).equals(before)).toBe(true);
    expect(existsSync(at('c2.sqlite'))).toBe(false);
  });
});

describe('krieg solve and verify db:ID', () => {
  it('solves the mate, and the stored strategy verifies on it', async () => {
    const run = await krieg(['solve', 'db:1', '--db', DB, '--algo', 'gl-dbu', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc).toMatchObject({ source: 'fixture.sqlite, instance 1 (mate)', answer: 'proven', ply: 3, positions: 2 });
    const stored = JSON.parse((await krieg(['db', 'show', '1', '--db', DB, '--json'])).stdout).strategy;
    expect(doc.strategy).toEqual(stored);
    expect(JSON.parse(readFileSync(at('stored.json'), 'utf8'))).toEqual(stored);
    const verified = await krieg(['verify', 'db:1', 'stored.json', '--db', DB]);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/verified: the strategy mates in all 2 positions/);
  });

  it('the near-miss is disproven; its witness fails on the position it does not cover; --ply overrides', async () => {
    expect((await krieg(['solve', 'db:2', '--db', DB])).stdout).toMatch(
      /problem: fixture\.sqlite, instance 2 \(near-miss\), 2 positions[\s\S]*answer: disproven/,
    );
    writeFileSync(
      at('witness.json'),
      JSON.stringify(JSON.parse((await krieg(['db', 'show', '2', '--db', DB, '--json'])).stdout).strategy),
    );
    expect((await krieg(['verify', 'db:2', 'witness.json', '--db', DB])).status).toBe(5);
    expect(JSON.parse((await krieg(['solve', 'db:1', '--db', DB, '--ply', '1', '--json'])).stdout)).toMatchObject({
      ply: 1,
      answer: 'disproven',
    });
  });
});

describe('bad databases and ids: exit 2, one line, nothing written', () => {
  let SQL: Awaited<ReturnType<typeof initSqlJs>>;
  beforeAll(async () => {
    SQL = await initSqlJs({ locateFile: () => createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm') });
    writeFileSync(at('text.sqlite'), 'this is a text file, not a database\n'.repeat(10));
    writeFileSync(at('truncated.sqlite'), bytes(DB).subarray(0, bytes(DB).length >> 1));
    const damaged = bytes(DB);
    const pageSize = damaged.readUInt16BE(16);
    writeFileSync(at('damaged.sqlite'), damaged.fill(0x5a, pageSize, 2 * pageSize)); // page 2 overwritten
    const foreign = new SQL.Database();
    foreign.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1)');
    writeFileSync(at('foreign.sqlite'), foreign.export());
    const v3 = new SQL.Database(bytes(DB));
    v3.exec("UPDATE meta SET value = '3' WHERE key = 'schema_version'");
    writeFileSync(at('v3.sqlite'), v3.export());
  });

  it('every command on each bad file', async () => {
    const files: [string, RegExp][] = [
      ['text.sqlite', /text\.sqlite: not an SQLite database file/],
      ['truncated.sqlite', /truncated\.sqlite: the SQLite file cannot be read \(database disk image is malformed\)/],
      ['damaged.sqlite', /damaged\.sqlite: the SQLite file cannot be read \(database disk image is malformed\)/],
      ['foreign.sqlite', /foreign\.sqlite: an SQLite database, but not a krieg problem database/],
      ['v3.sqlite', /v3\.sqlite: schema version 3; this krieg reads version 2/],
      ['missing.sqlite', /missing\.sqlite: no such database file \(create one with 'krieg db generate'\)/],
    ];
    for (const [file, message] of files) {
      const before = existsSync(at(file)) ? bytes(file) : undefined;
      const commands = [
        ['db', 'list'],
        ['db', 'show', '1'],
        ['db', 'stats'],
        ['db', 'export', '--format', 'problems', '--out', 'never.json'],
        ['db', 'export', '--format', 'sqlite', '--out', 'never.sqlite'],
        ['solve', 'db:1'],
        ['verify', 'db:1', 'stored.json'],
        ['db', 'bench', '--limit', '1'],
        // generate resumes an existing file (and would create a missing one)
        ...(file === 'missing.sqlite' ? [] : [['db', 'generate', '--mates', '1', '--near-misses', '1']]),
      ];
      for (const command of commands)
        expect(expectOneLine(await krieg([...command, '--db', file]), 2), `${command.join(' ')} --db ${file}`).toMatch(
          message,
        );
      expect(existsSync(at(file)) ? bytes(file) : undefined).toEqual(before);
    }
    expect(existsSync(at('never.json')) || existsSync(at('never.sqlite')) || existsSync(at('missing.sqlite'))).toBe(
      false,
    );
  });

  it('bad ids for show, solve and verify', async () => {
    const before = bytes(DB);
    const cases: [string[], RegExp][] = [
      [['solve', 'db:0'], /no instance 0 in fixture\.sqlite \(ids 1–2\)/],
      [['solve', 'db:99999'], /no instance 99999 in fixture\.sqlite \(ids 1–2\)/],
      [['solve', 'db:abc'], /instance id must be a positive integer, got 'abc' \(fixture\.sqlite: ids 1–2\)/],
      [['solve', 'db:'], /instance id must be a positive integer, got ''/],
      [['verify', 'db:3', 'stored.json'], /no instance 3 in fixture\.sqlite/],
      [['db', 'show', '-1'], /instance id must be a positive integer, got '-1'/],
      [['db', 'show', '7'], /no instance 7 in fixture\.sqlite \(ids 1–2\)/],
      [['solve', 'db:1', '--out', 'never.json', '--ply', '0'], /ply must be an integer from 1 to 99/],
      [
        ['db', 'export', '--format', 'kpgn', '--ply', '5', '--out', 'never.kpgn'],
        /fixture\.sqlite: no instances of ply 5; nothing written/,
      ],
      [['db', 'list', '--limit', '0'], /limit must be an integer/],
    ];
    for (const [args, message] of cases)
      expect(expectOneLine(await krieg([...args, '--db', DB]), 2), args.join(' ')).toMatch(message);
    expect(bytes(DB).equals(before)).toBe(true);
    expect(existsSync(at('never.json')) || existsSync(at('never.kpgn'))).toBe(false);
  });

  it('an option given without a value says so, naming it, in every db command (and solve db:ID)', async () => {
    const before = bytes(DB);
    const cases: string[][] = [
      ['db', 'show', '1', '--db'],
      ['db', 'show', '1', '--db', '--json'],
      ['db', 'list', '--db', DB, '--ply'],
      ['db', 'list', '--limit', '--db', DB],
      ['db', 'stats', '--db'],
      ['db', 'export', '--db', DB, '--format', 'kpgn', '--out'],
      ['db', 'export', '--db', DB, '--format', 'kpgn', '--out', 'never.kpgn', '--ply'],
      ['db', 'bench', '--db', DB, '--algo'],
      ['db', 'bench', '--db', DB, '--limit-time'],
      ['db', 'bench', '--db', DB, '--jobs'],
      ['db', 'generate', '--db', 'never.sqlite', '--seed'],
      ['db', 'generate', '--db'],
      ['db', 'reanalyse', '--db', DB, '--nodes'],
      ['db', 'upgrade', '--db'],
      ['solve', 'db:1', '--db'],
    ];
    for (const args of cases) {
      const bare = args.find((a, i) => a.startsWith('--') && (args[i + 1] ?? '--').startsWith('--'))!;
      const command = args[0] === 'db' ? `db ${args[1]}` : args[0];
      expect(expectOneLine(await krieg(args), 2), args.join(' ')).toBe(
        `krieg: ${command}: ${bare} needs a value; run 'krieg ${command} --help' for usage`,
      );
    }
    expect(bytes(DB).equals(before)).toBe(true);
    expect(existsSync(at('never.kpgn')) || existsSync(at('never.sqlite'))).toBe(false);
  });

  it('the default database is data/problems.sqlite of the package', async () => {
    const run = await krieg(['db', 'list', '--help']);
    expect(run.stdout).toMatch(
      /--db\s+the problem database file\s+\[string\] \[default: data\/problems\.sqlite of the krieg package\]/,
    );
  });
});

describe('the shipped databases are read-only, whatever the path that names them', () => {
  it('db bench, generate, reanalyse and upgrade refuse them in one line, each file unchanged', async () => {
    const shipped = ['problems.sqlite', 'problems-standard.sqlite'].map((f) => join(ROOT, 'data', f));
    const state = () => shipped.map((f) => ({ bytes: readFileSync(f), mtime: statSync(f).mtimeMs }));
    const before = state();
    symlinkSync(shipped[0], at('link.sqlite'));
    linkSync(shipped[1], at('hard.sqlite'));
    // [path, the directory it is relative to, the shipped file it names]
    const names: [string, string, string][] = [
      ['data/problems.sqlite', ROOT, 'data/problems.sqlite'],
      ['./data/../data/problems.sqlite', ROOT, 'data/problems.sqlite'],
      [shipped[1], DIR, 'data/problems-standard.sqlite'],
      ['link.sqlite', DIR, 'data/problems.sqlite'],
      ['hard.sqlite', DIR, 'data/problems-standard.sqlite'],
    ];
    const commands = [
      ['db', 'bench', '--limit', '1', '--algo', 'gl-dbu', '--limit-time', '1'],
      ['db', 'generate', '--mates', '0', '--near-misses', '0'],
      ['db', 'reanalyse', '--max', '1', '--nodes', '1000'],
      ['db', 'upgrade'],
    ];
    for (const [path, cwd, name] of names)
      for (const command of commands) {
        const line = expectOneLine(await runKrieg([...command, '--db', path], cwd), 2);
        expect(line, `${command.join(' ')} --db ${path}`).toBe(
          `krieg: ${path}: ${command.slice(0, 2).join(' ')} would write to ${name}, a database shipped with krieg (read-only); copy it first (cp ${path} my.sqlite) and give --db my.sqlite`,
        );
      }
    const after = state();
    for (let i = 0; i < shipped.length; i++) {
      expect(after[i].bytes.equals(before[i].bytes), shipped[i]).toBe(true);
      expect(after[i].mtime, shipped[i]).toBe(before[i].mtime);
    }
    // a copy is the user's own
    copyFileSync(shipped[1], at('mine.sqlite'));
    expect((await krieg(['db', 'upgrade', '--db', 'mine.sqlite'])).status).toBe(0);
  });
});

// krieg db generate|list|show|export|stats|bench [--db FILE]
// The checkmate problem database (host/db/database.ts): reading it, and the instances as problems
// for `krieg solve db:ID` and `krieg verify db:ID`. Only `generate` (./dbGenerate) and `bench`
// (./dbBench, its results table) write to it.
import type { Argv } from 'yargs';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { runCommand, parseCount } from './common';
import { formatGames, writeAtomically } from './gamesFile';
import { generateCommand } from './dbGenerate';
import { benchCommand } from './dbBench';
import { reanalyseCommand } from './dbReanalyse';
import { ProblemDb, SCHEMA_VERSION, type InstanceRow, type InstanceFilter } from '../db/database';
import { defaultDbPath, DEFAULT_DB } from '../db/paths';
import { parseRecordJson } from '../notation/recordJson';
import { formatProblems, type NamedProblem, type ProblemClass } from '../solver/problemFile';
import { strategyFromJson, strategyText, type Strategy } from '../solver/strategy';
import { parseRulesJson } from '../referee/rules';
import type { View } from '../referee/record';
import { KriegError } from '../status';

/** `krieg solve db:ID`: the FILE argument naming an instance of the database. */
export const DB_PREFIX = 'db:';
const CLASSES: ProblemClass[] = ['mate', 'near-miss'];
const EXPORT_FORMATS = ['kpgn', 'json', 'problems', 'sqlite'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function withDbOption<T>(y: Argv<T>, describe = 'the problem database file') {
  return y.option('db', { type: 'string', describe, defaultDescription: `${DEFAULT_DB} of the krieg package` });
}

/** The database file to use: --db, else the shipped one (relative to the working directory when inside it, for shorter messages). */
export function dbPath(given: string | undefined): string {
  if (given !== undefined) return given;
  const path = defaultDbPath();
  const short = relative(process.cwd(), path);
  return short.startsWith('..') || isAbsolute(short) ? path : short;
}

/** Opens a database to read; a missing file is reported with how to make one. */
export async function openDb(path: string): Promise<ProblemDb> {
  try {
    return await ProblemDb.open(path);
  } catch (error) {
    if (error instanceof KriegError && error.code === 'db-missing')
      throw new KriegError(error.code, `${error.message} (create one with 'krieg db generate')`);
    throw error;
  }
}

/** Runs `body` on the open database `path` (a damaged file is refused on opening), closing it afterwards. */
export async function withDb<T>(path: string, body: (db: ProblemDb) => T): Promise<T> {
  const db = await openDb(path);
  try {
    return body(db);
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
  if (!Number.isSafeInteger(id))
    throw new KriegError(
      'bad-instance',
      `instance id must be a positive integer, got '${text}' (${db.path}: ${range})`,
    );
  throw new KriegError('no-instance', `no instance ${text} in ${db.path} (${range})`);
}

/** Parses a stored column, naming the database and instance when it is damaged. */
function stored<T>(db: ProblemDb, row: InstanceRow, column: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new KriegError(
      'db-corrupt',
      `${db.path}: instance ${row.id}: ${column}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const rulesOf = (db: ProblemDb, row: InstanceRow) => stored(db, row, 'rules_json', () => parseRulesJson(row.rulesJson));
const strategyOf = (db: ProblemDb, row: InstanceRow): Strategy =>
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
function instanceJson(db: ProblemDb, row: InstanceRow): Record<string, unknown> {
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

/** Text columns under a header row; columns of numbers right-aligned. */
function table(rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map(String));
  const widths = cells[0].map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  const numeric = widths.map((_, c) => cells.slice(1).every((row) => /^[\d.]*$/.test(row[c] ?? '')));
  return (
    cells
      .map((row) =>
        row
          .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function filterOf(argv: { ply?: string; class?: ProblemClass }): InstanceFilter {
  return { ply: argv.ply === undefined ? undefined : parseCount('ply', argv.ply, 1, 99), cls: argv.class };
}

const withFilter = <T>(y: Argv<T>) =>
  y
    .option('ply', { type: 'string', describe: 'only instances of this depth (3, 5 …)' })
    .option('class', {
      choices: CLASSES,
      describe:
        'only guaranteed mates, or only near-misses (no guaranteed mate; one strategy mates in at least half the positions)',
    });

interface DbArgs {
  db?: string;
  json?: boolean;
}
interface FilterArgs extends DbArgs {
  ply?: string;
  class?: ProblemClass;
}

const listCommand = {
  command: 'list',
  describe: 'one line per instance: id, ply, class, belief size, rules, game and the ply it was cut at',
  builder: (y: Argv) =>
    withFilter(withDbOption(y))
      .option('limit', { type: 'string', describe: 'list only the first N' })
      .option('json', { type: 'boolean', default: false, describe: 'print a JSON array instead' })
      .example('$0 db list --ply 5 --class mate --limit 20', 'the first 20 guaranteed mates within 5 ply'),
  handler: (argv: FilterArgs & { limit?: string }) =>
    runCommand(async () => {
      const filter = filterOf(argv);
      const limit = argv.limit === undefined ? Infinity : parseCount('limit', argv.limit, 1, Number.MAX_SAFE_INTEGER);
      const all = await withDb(dbPath(argv.db), (db) => db.summaries(filter));
      const shown = all.slice(0, limit);
      if (argv.json) {
        console.log(JSON.stringify(shown.map(({ cls, ...s }) => ({ ...s, class: cls }))));
        return;
      }
      const header = ['id', 'ply', 'class', 'belief', 'rules', 'game', 'cut ply'];
      if (shown.length)
        process.stdout.write(
          table([header, ...shown.map((s) => [s.id, s.ply, s.cls, s.beliefSize, s.rules, s.game, s.cutPly])]),
        );
      console.log(
        shown.length < all.length
          ? `${shown.length} of ${all.length} instances`
          : `${all.length} instance${all.length === 1 ? '' : 's'}`,
      );
    }),
};

const showCommand = {
  command: 'show <id>',
  describe:
    "everything about one instance: positions, the witness strategy, White's view, the work and benchmark results",
  builder: (y: Argv) =>
    withDbOption(y)
      .positional('id', { type: 'string', describe: 'the instance id (krieg db list shows them)' })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print one JSON object instead (view and strategy as JSON)',
      })
      .example('$0 db show 12', 'instance 12 of the shipped database'),
  handler: (argv: DbArgs & { id?: string }) =>
    runCommand(() =>
      withDb(dbPath(argv.db), (db) => {
        const row = instanceById(db, argv.id ?? '');
        const results = db.results(row.id);
        if (argv.json) {
          console.log(JSON.stringify({ ...instanceJson(db, row), results }));
          return;
        }
        const n = row.positions.length;
        const all = row.covered.length === n;
        const out = [
          `instance ${row.id} of ${db.path}`,
          `ply ${row.ply}, ${row.cls}, ${row.rules} rules, ${n} position${n === 1 ? '' : 's'}, ${row.positions[0].split(' ')[1] === 'b' ? 'Black' : 'White'} to move`,
          `from game ${row.game} (generator seed ${row.seed}), cut after ${row.cutPly} plies${row.sourceId === null ? '' : `; a re-analysis of instance ${row.sourceId}`}`,
          `key ${row.key}`,
          '',
          all
            ? `positions (the witness strategy mates in all ${n}):`
            : `positions (* the witness strategy mates there: ${row.covered.length} of ${n}):`,
          ...row.positions.map(
            (fen, i) => `${String(i + 1).padStart(4)} ${all || !row.covered.includes(i) ? ' ' : '*'} ${fen}`,
          ),
          '',
          'witness strategy:',
          strategyText(strategyOf(db, row)).trimEnd(),
          '',
          `work when classified (nodes): ${
            Object.entries(row.work)
              .map(([algo, nodes]) => `${algo} ${nodes}`)
              .join(', ') || 'none recorded'
          }`,
          '',
          "White's view (KPGN):",
          row.viewKpgn.trimEnd(),
          '',
        ];
        process.stdout.write(out.join('\n') + '\n');
        if (!results.length) {
          console.log('benchmark results: none');
          return;
        }
        console.log('benchmark results:');
        process.stdout.write(
          table([
            ['algorithm', 'backend', 'answer', 'nodes', 'positions', 'ms', 'limit ms', 'machine', 'commit', 'run at'],
            ...results.map((r) => [
              r.algorithm,
              r.backend,
              r.answer,
              r.nodes,
              r.positions,
              Number(r.ms.toFixed(1)),
              r.limitMs ?? '',
              r.machine,
              r.gitCommit?.slice(0, 10) ?? '',
              r.runAt,
            ]),
          ]),
        );
      }),
    ),
};

/** True when `a` and `b` are the same file (same path, or a link to it). */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  if (!existsSync(a) || !existsSync(b)) return false;
  const [sa, sb] = [statSync(a), statSync(b)];
  return sa.dev === sb.dev && sa.ino === sb.ino;
}

function exportText(db: ProblemDb, rows: InstanceRow[], format: Exclude<ExportFormat, 'sqlite'>): string {
  if (format === 'problems') return formatProblems(rows.map((row) => problemOfInstance(db, row)));
  if (format === 'json')
    return (
      JSON.stringify(
        { format: 'krieg-problem-export', version: 1, instances: rows.map((row) => instanceJson(db, row)) },
        null,
        2,
      ) + '\n'
    );
  const views = rows.map((row) => {
    const view = viewOfInstance(db, row);
    return {
      ...view,
      tags: {
        ...view.tags,
        Instance: String(row.id),
        Ply: String(row.ply),
        Class: row.cls,
        BeliefSize: String(row.beliefSize),
      },
    };
  });
  return formatGames(views, 'kpgn');
}

const exportCommand = {
  command: 'export',
  describe:
    "write instances to a file: White's views (KPGN), the rows (JSON), a problems file for krieg solve, or a copy of the database",
  builder: (y: Argv) =>
    withFilter(withDbOption(y))
      .option('format', {
        choices: EXPORT_FORMATS,
        demandOption: true,
        describe:
          'kpgn: White\'s view of each instance, tagged Instance, Ply, Class and BeliefSize; json: one document {format: "krieg-problem-export", version: 1, instances: [rows]}; problems: a krieg-problems file (ids db:ID) every command reads; sqlite: a byte copy of the whole database',
      })
      .option('out', {
        type: 'string',
        demandOption: true,
        describe: 'the file to write (atomically; never the database itself)',
      })
      .example(
        '$0 db export --format problems --class mate --out mates.json',
        'the guaranteed mates as a problems file',
      )
      .example('$0 solve mates.json --problem db:12', 'then solve one of them'),
  handler: (argv: FilterArgs & { format: ExportFormat; out: string }) =>
    runCommand(async () => {
      const path = dbPath(argv.db);
      if (argv.format === 'sqlite' && (argv.ply !== undefined || argv.class !== undefined)) {
        throw new KriegError(
          'bad-arguments',
          'export --format sqlite copies the whole database; --ply and --class select for kpgn, json and problems only',
        );
      }
      if (sameFile(argv.out, path))
        throw new KriegError('bad-out', `--out ${argv.out} is the database itself; export to another file`);
      const filter = filterOf(argv);
      const written = await withDb(path, (db) => {
        if (argv.format === 'sqlite') return { content: readFileSync(path), what: `a copy of ${path}` };
        const rows = db.instances(filter);
        if (!rows.length)
          throw new KriegError(
            'no-instances',
            `${path}: no instances${filter.ply === undefined ? '' : ` of ply ${filter.ply}`}${filter.cls ? ` of class ${filter.cls}` : ''}; nothing written`,
          );
        return {
          content: exportText(db, rows, argv.format),
          what: `${rows.length} instance${rows.length === 1 ? '' : 's'} (${argv.format})`,
        };
      });
      writeAtomically(argv.out, written.content);
      console.log(`wrote ${written.what} to ${argv.out}`);
    }),
};

interface SizeStats {
  instances: number;
  mean: number;
  median: number;
  max: number;
}

function sizeStats(sizes: number[]): SizeStats {
  const sorted = [...sizes].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0;
  return {
    instances: sorted.length,
    mean: Math.round(mean * 10) / 10,
    median,
    max: sorted.length ? sorted[sorted.length - 1] : 0,
  };
}

function statsOf(db: ProblemDb, path: string) {
  const summaries = db.summaries();
  const games = db.gameTally();
  const rules: Record<string, number> = {};
  for (const s of summaries) rules[s.rules] = (rules[s.rules] ?? 0) + 1;
  let params: Record<string, unknown>;
  try {
    params = db.params();
  } catch (error) {
    throw new KriegError('db-corrupt', `${path}: meta 'params': ${(error as Error).message}`);
  }
  const groups = db.counts().map(({ ply, cls }) => ({
    ply,
    class: cls,
    beliefSize: sizeStats(summaries.filter((s) => s.ply === ply && s.cls === cls).map((s) => s.beliefSize)),
  }));
  return {
    database: path,
    schemaVersion: SCHEMA_VERSION,
    bytes: statSync(path).size,
    rules,
    games: { ...games, instancesPerGame: games.played ? Math.round((summaries.length / games.played) * 100) / 100 : 0 },
    instances: groups,
    all: sizeStats(summaries.map((s) => s.beliefSize)),
    params,
  };
}

const statsCommand = {
  command: 'stats',
  describe:
    'what the database holds: rule sets, games played and dropped, instances and belief sizes per ply and class, the generation parameters',
  builder: (y: Argv) =>
    withDbOption(y).option('json', { type: 'boolean', default: false, describe: 'print one JSON object instead' }),
  handler: (argv: DbArgs) =>
    runCommand(async () => {
      const path = dbPath(argv.db);
      const stats = await withDb(path, (db) => statsOf(db, path));
      if (argv.json) {
        console.log(JSON.stringify(stats));
        return;
      }
      const g = stats.games;
      const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
      console.log(`database  ${path} (schema ${stats.schemaVersion}, ${(stats.bytes / 1024).toFixed(0)} KiB)`);
      console.log(
        `rules     ${
          Object.entries(stats.rules)
            .map(([name, n]) => `${name} (${n})`)
            .join(', ') || 'none'
        }`,
      );
      console.log(
        `games     ${g.played} played, ${g.dropped} dropped (White's belief too large); ${g.instancesPerGame} instances per game played`,
      );
      console.log(
        `params    ${
          Object.entries(stats.params)
            .map(([k, v]) => `${k}=${value(v)}`)
            .join(' ') || 'none'
        }`,
      );
      console.log('');
      const row = (ply: string | number, cls: string, s: SizeStats) => [
        ply,
        cls,
        s.instances,
        s.mean.toFixed(1),
        s.median,
        s.max,
      ];
      process.stdout.write(
        table([
          ['ply', 'class', 'instances', 'belief mean', 'median', 'max'],
          ...stats.instances.map((c) => row(c.ply, c.class, c.beliefSize)),
          row('', 'all', stats.all),
        ]),
      );
    }),
};

const DB_DESCRIBE =
  'the checkmate problem database: generate it by self-play, list, show, export and summarise its instances, benchmark solvers on them';

export const dbCommand = {
  command: 'db',
  describe: DB_DESCRIBE,
  builder: (y: Argv) =>
    y
      .usage(`$0 db <command> [--db FILE] [options]\n\n${DB_DESCRIBE}`)
      .command(generateCommand)
      .command(listCommand)
      .command(showCommand)
      .command(exportCommand)
      .command(statsCommand)
      .command(benchCommand)
      .command(reanalyseCommand)
      .demandCommand(1, 'name a db command: generate, reanalyse, list, show, export, stats or bench')
      .epilogue(
        `Every command reads ${DEFAULT_DB} of the krieg package unless --db FILE names another. An instance is also a problem for other commands: krieg solve db:ID, krieg verify db:ID STRATEGY. Exit codes: 0 success, 2 bad input (a missing, foreign or damaged database, an unknown id; one line on stderr), 1 internal error.`,
      ),
  handler: () => {},
};

// krieg db generate|list|show|export|stats|bench [--db FILE]
// The checkmate problem database (host/db/): listing, showing, exporting and summarising it. Only
// `generate` (./dbGenerate), `reanalyse`, `bench` (./dbBench, its results table) and `upgrade` write to it.
import type { Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { withDbOption, runCommand, say, io } from './common';
import { parseCount } from '../io/args';
import { sameFile, writeAtomically } from '../io/files';
import { generateCommand } from './dbGenerate';
import { benchCommand } from './dbBench';
import { reanalyseCommand } from './dbReanalyse';
import { upgradeCommand } from './dbUpgrade';
import type { InstanceFilter } from '../db/database.node';
import { DEFAULT_DB } from '../db/paths.node';
import { dbPath, withDb, instanceById, instanceJson, strategyOf } from '../db/instances.node';
import { exportText, EXPORT_FORMATS, type ExportFormat } from '../db/export.node';
import { statsOf, type SizeStats } from '../db/stats.node';
import type { ProblemClass } from '../solver/problemFile';
import { strategyText } from '../solver/strategy';
import { fail } from '../errors';

const CLASSES: ProblemClass[] = ['mate', 'near-miss'];

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
  y.option('ply', { type: 'string', describe: 'only instances of this depth (3, 5 …)' }).option('class', {
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
        say(JSON.stringify(shown.map(({ cls, ...s }) => ({ ...s, class: cls }))));
        return;
      }
      const header = ['id', 'ply', 'class', 'belief', 'rules', 'game', 'cut ply'];
      if (shown.length)
        io.out(table([header, ...shown.map((s) => [s.id, s.ply, s.cls, s.beliefSize, s.rules, s.game, s.cutPly])]));
      say(
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
          say(JSON.stringify({ ...instanceJson(db, row), results }));
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
        io.out(out.join('\n') + '\n');
        if (!results.length) {
          say('benchmark results: none');
          return;
        }
        say('benchmark results:');
        io.out(
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
      .example(
        '$0 solve mates.json --problem db:14',
        'then solve one of them (instance 14 is a mate: krieg db list --class mate)',
      ),
  handler: (argv: FilterArgs & { format: ExportFormat; out: string }) =>
    runCommand(async () => {
      const path = dbPath(argv.db);
      if (argv.format === 'sqlite' && (argv.ply !== undefined || argv.class !== undefined)) {
        throw fail('bad-arguments', {
          text: 'export --format sqlite copies the whole database; --ply and --class select for kpgn, json and problems only',
        });
      }
      if (sameFile(argv.out, path))
        throw fail('bad-out', { text: `--out ${argv.out} is the database itself; export to another file` });
      const filter = filterOf(argv);
      const written = await withDb(path, (db) => {
        if (argv.format === 'sqlite') return { content: readFileSync(path), what: `a copy of ${path}` };
        const rows = db.instances(filter);
        if (!rows.length)
          throw fail('no-instances', {
            text: `${path}: no instances${filter.ply === undefined ? '' : ` of ply ${filter.ply}`}${filter.cls ? ` of class ${filter.cls}` : ''}; nothing written`,
          });
        return {
          content: exportText(db, rows, argv.format),
          what: `${rows.length} instance${rows.length === 1 ? '' : 's'} (${argv.format})`,
        };
      });
      writeAtomically(argv.out, written.content);
      say(`wrote ${written.what} to ${argv.out}`);
    }),
};

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
        say(JSON.stringify(stats));
        return;
      }
      const g = stats.games;
      const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
      say(`database  ${path} (schema ${stats.schemaVersion}, ${(stats.bytes / 1024).toFixed(0)} KiB)`);
      say(
        `rules     ${
          Object.entries(stats.rules)
            .map(([name, n]) => `${name} (${n})`)
            .join(', ') || 'none'
        }`,
      );
      say(
        `games     ${g.played} played, ${g.dropped} dropped (White's belief too large); ${g.instancesPerGame} instances per game played`,
      );
      say(
        `params    ${
          Object.entries(stats.params)
            .map(([k, v]) => `${k}=${value(v)}`)
            .join(' ') || 'none'
        }`,
      );
      say('');
      const row = (ply: string | number, cls: string, s: SizeStats) => [
        ply,
        cls,
        s.instances,
        s.mean.toFixed(1),
        s.median,
        s.max,
      ];
      io.out(
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
      .command(upgradeCommand)
      .demandCommand(1, 'name a db command: generate, reanalyse, list, show, export, stats, bench or upgrade')
      .epilogue(
        `Every command reads ${DEFAULT_DB} of the krieg package unless --db FILE names another. An instance is also a problem for other commands: krieg solve db:ID, krieg verify db:ID STRATEGY. Exit codes: 0 success, 2 bad input (a missing, foreign or damaged database — its schema and every row (against its checksum) are checked on opening —, an unknown id; one line on stderr), 1 internal error.`,
      ),
  handler: () => {},
};

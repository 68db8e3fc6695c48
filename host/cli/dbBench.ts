// krieg db bench [--db FILE] [--algo A …] [--ply N] [--class C] [--limit N] [--limit-time S] [--backend wasm|js]
// Runs solvers on the database's instances and records each run in its results table
// (host/db/bench.ts); krieg db show ID lists them.
import type { Argv } from 'yargs';
import cliProgress from 'cli-progress';
import { createEngine } from '../node';
import { withBackend, withDbOption, runCommand, say } from './common';
import { parseCount, parseSeconds } from '../io/args';
import { dbPath, withDb } from '../db/instances';
import { benchInstances } from '../db/bench';
import { algorithmByName, ALGORITHMS, type Algorithm } from '../solver/solve';
import type { ProblemClass } from '../solver/problemFile';
import type { BackendName } from '../backends/node';
import { fail } from '../errors';

const DEFAULT_ALGORITHMS: Algorithm[] = ['gl-dbu', 'ipns', 'le-dfs', 'e-pns'];

interface BenchArgs {
  db?: string;
  algo?: string[];
  ply?: string;
  class?: ProblemClass;
  limit?: string;
  limitTime?: string;
  backend: BackendName;
}

export const benchCommand = {
  command: 'bench',
  describe: "run solvers on instances and record every run in the database's results table",
  builder: (y: Argv) =>
    withBackend(
      withDbOption(y, 'the database to read instances from and write results to')
        .option('algo', {
          type: 'string',
          array: true,
          describe: `algorithms to run (${ALGORITHMS.join(', ')})`,
          defaultDescription: DEFAULT_ALGORITHMS.join(' '),
        })
        .option('ply', { type: 'string', describe: 'only instances of this depth' })
        .option('class', { choices: ['mate', 'near-miss'] as const, describe: 'only this class' })
        .option('limit', { type: 'string', describe: 'only the first N instances (in id order)' })
        .option('limit-time', {
          type: 'string',
          default: '10',
          describe: 'seconds per solve; a solve that reaches it is recorded as unknown',
        })
        .example(
          '$0 db bench --db my.sqlite --ply 5 --class near-miss --algo gl-dbu pns',
          'two algorithms on the 5-ply near-misses',
        )
        .epilogue(
          'Results are appended (earlier runs are kept); krieg db show ID lists them. Exit codes: 0 done, 2 bad input.',
        ),
    ),
  handler: (argv: BenchArgs) =>
    runCommand(async () => {
      const algorithms = (argv.algo ?? DEFAULT_ALGORITHMS).map(algorithmByName);
      const ply = argv.ply === undefined ? undefined : parseCount('ply', argv.ply, 1, 99);
      const limit = argv.limit === undefined ? Infinity : parseCount('limit', argv.limit, 1, Number.MAX_SAFE_INTEGER);
      const limitMs = parseSeconds('limit-time', argv.limitTime)!;
      const path = dbPath(argv.db);
      const engine = createEngine(argv.backend);
      await withDb(path, (db) => {
        const rows = db.instances({ ply, cls: argv.class }).slice(0, limit);
        if (!rows.length) throw fail('no-instances', { text: `${path}: no instances selected; nothing run` });
        const bar = new cliProgress.SingleBar(
          {
            format: 'benchmarking {bar} {value}/{total} instances | eta {eta}s',
            stream: process.stderr,
            noTTYOutput: Boolean(process.env.KRIEG_PROGRESS),
            notTTYSchedule: 1000,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(rows.length, 0);
        const tally = benchInstances(db, engine, rows, algorithms, limitMs, (done) => bar.update(done));
        bar.stop();
        say(`${rows.length} instances, limit ${limitMs / 1000} s, ${argv.backend}; results recorded in ${path}`);
        for (const algorithm of algorithms) {
          const t = tally[algorithm] ?? { solved: 0, ms: 0 };
          say(`  ${algorithm.padEnd(7)} solved ${t.solved} of ${rows.length}, ${(t.ms / 1000).toFixed(2)} s in all`);
        }
      });
    }),
};

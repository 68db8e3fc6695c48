// krieg db bench [--db FILE] [--algo A …] [--ply N] [--class C] [--limit N] [--limit-time S] [--backend wasm|js] [--jobs N]
// Runs solvers on the database's instances and records each run in its results table
// (host/db/bench.node.ts); krieg db show ID lists them.
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, withDbOption, jobsSpec, jobsOption, runCommand, say, progressBar } from './common';
import { parseCount, parseSeconds } from '../io/args';
import { dbPathToWrite, withDb } from '../db/instances.node';
import { benchInstances, benchInstancesOnPool } from '../db/bench.node';
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
  jobs?: string;
}

export const benchCommand = {
  command: 'bench',
  describe: "run solvers on instances and record every run in the database's results table",
  builder: (y: Argv) =>
    withBackend(
      withDbOption(y, 'the database to read instances from and write results to', true)
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
        .option('jobs', {
          ...jobsSpec('instances solved at once, on worker threads (results recorded in instance order)'),
          defaultDescription: '1: solves side by side share the machine, so their times are not one solve alone',
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
      const jobs = argv.jobs === undefined ? 1 : jobsOption(argv.jobs);
      const path = dbPathToWrite(argv.db, 'db bench');
      const engine = createEngine(argv.backend);
      await withDb(path, async (db) => {
        const rows = db.instances({ ply, cls: argv.class }).slice(0, limit);
        if (!rows.length) throw fail('no-instances', { text: `${path}: no instances selected; nothing run` });
        const bar = progressBar('db bench', 'benchmarking {bar} {value}/{total} instances | eta {eta}s');
        bar.start(rows.length, 0);
        const onInstance = (done: number) => bar.update(done);
        const tally =
          jobs > 1
            ? await benchInstancesOnPool(db, rows, algorithms, limitMs, { backend: argv.backend, jobs }, onInstance)
            : benchInstances(db, engine, rows, algorithms, limitMs, onInstance);
        bar.stop();
        say(
          `${rows.length} instances, limit ${limitMs / 1000} s, ${argv.backend}${jobs > 1 ? `, ${jobs} at once` : ''}; results recorded in ${path}`,
        );
        for (const algorithm of algorithms) {
          const t = tally[algorithm] ?? { solved: 0, ms: 0 };
          say(`  ${algorithm.padEnd(7)} solved ${t.solved} of ${rows.length}, ${(t.ms / 1000).toFixed(2)} s in all`);
        }
      });
    }),
};

// krieg db reanalyse [--db FILE] [--from 5] [--ply 7] [--max N] [--nodes N] [--backend wasm|js]
// Re-analyses the database's near-misses at a deeper ply and stores what is found as deeper
// instances (host/db/reanalyse.node.ts): the 7-ply extension of the 5-ply set, as Russell & Wolfe made
// their 5-ply set from their 3-ply near-misses. Resumable; progress on stderr.
import type { Argv } from 'yargs';
import cliProgress from 'cli-progress';
import { createEngine } from '../node';
import { withBackend, withDbOption, runCommand, say } from './common';
import { parseCount } from '../io/args';
import { dbPathToWrite, withDb } from '../db/instances.node';
import type { BackendName } from '../backends/node';
import { reanalyse } from '../db/reanalyse.node';
import { CLASSIFY_LIMITS } from '../db/classify';

interface ReanalyseArgs {
  db?: string;
  from: string;
  ply: string;
  max?: string;
  nodes?: string;
  backend: BackendName;
}

export const reanalyseCommand = {
  command: 'reanalyse',
  describe: 're-analyse the near-misses at a deeper ply; store the mates and near-misses found there (resumable)',
  builder: (y: Argv) =>
    withBackend(withDbOption(y, 'the database to extend'))
      .option('from', { type: 'string', default: '5', describe: 'the near-misses of this ply are re-analysed' })
      .option('ply', { type: 'string', default: '7', describe: 'at this ply (odd, deeper than --from)' })
      .option('max', { type: 'string', describe: 'stop once this many new instances are stored' })
      .option('nodes', {
        type: 'string',
        describe: 'node limit of each classifying search (a search that runs out leaves the instance out)',
        defaultDescription: String(CLASSIFY_LIMITS.nodes),
      })
      .example('$0 db reanalyse --db my.sqlite --from 5 --ply 7 --max 100', 'a 7-ply set from the 5-ply near-misses')
      .epilogue(
        'The stored instances depend only on the database and the limits: a run killed and resumed (with the same --nodes) ends with the same database. Exit codes: 0 done, 2 bad input.',
      ),
  handler: (argv: ReanalyseArgs) =>
    runCommand(async () => {
      const from = parseCount('from', argv.from, 1, 15);
      const to = parseCount('ply', argv.ply, 1, 15);
      const max = argv.max === undefined ? Infinity : parseCount('max', argv.max, 1, 1_000_000);
      const nodes =
        argv.nodes === undefined ? CLASSIFY_LIMITS.nodes : parseCount('nodes', argv.nodes, 1, 1_000_000_000);
      const limits = { nodes, greedyNodes: Math.min(CLASSIFY_LIMITS.greedyNodes, nodes) };
      const path = dbPathToWrite(argv.db, 'db reanalyse');
      const solver = createEngine(argv.backend);
      const started = performance.now();
      await withDb(path, (db) => {
        const bar = new cliProgress.SingleBar(
          {
            format: `re-analysing at ${to} ply {bar} {value}/{total} near-misses | {mates} mates, {nearMisses} near-misses stored`,
            stream: process.stderr,
            noTTYOutput: Boolean(process.env.KRIEG_PROGRESS),
            notTTYSchedule: 1000,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(db.instances({ ply: from, cls: 'near-miss' }).length, 0, { mates: '-', nearMisses: '-' });
        const end = reanalyse(db, solver, from, to, limits, max, (p) => bar.update(p.done, p));
        bar.stop();
        say(
          `${path}: ${end.done} of ${end.total} ${from}-ply near-misses re-analysed; ${end.mates} mates and ${end.nearMisses} near-misses at ${to} ply (${((performance.now() - started) / 60_000).toFixed(1)} min this run)`,
        );
      });
    }),
};

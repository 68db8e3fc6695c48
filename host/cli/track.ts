// krieg track FILE --as white|black [--game N] [--budget-ms M] [--budget-work W] [--exact-max N]
//   [--pool-max N] [--seed S] [--json] [--out track.svg] [--backend wasm|js]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, withGameSelection, runCommand, finishWith, seconds, EXIT_CODES_TEXT, say } from './common';
import { parseCount } from '../io/args';
import { writeAtomically } from '../io/files';
import { viewInFile } from '../sources/problems.node';
import type { Side } from '../record/record';
import type { BackendName } from '../backends/node';
import { trackView, trackSvg, type PlyRow } from '../belief/track';
import { poolSized, type TrackerOptions } from '../belief/tracker';
import { fail, EXIT } from '../errors';

const MAX = 0x7fffffff;

interface TrackArgs {
  file?: string;
  as?: Side;
  game?: string;
  budgetMs: string;
  budgetWork?: string;
  exactMax?: string;
  poolMax?: string;
  seed: string;
  json: boolean;
  out?: string;
  backend: BackendName;
}

/** Tracker options from the command line: poolMax N cuts to N/2 (Parker's 20,000 → 10,000). */
export function trackerOptionsOf(args: { exactMax?: string; poolMax?: string; seed: string }): TrackerOptions {
  const options: TrackerOptions = { seed: parseCount('seed', args.seed, 0, MAX) };
  if (args.exactMax !== undefined) options.exactMax = parseCount('exact-max', args.exactMax, 1, 4_000_000);
  if (args.poolMax === undefined) return options;
  return { ...options, ...poolSized(parseCount('pool-max', args.poolMax, 4, 4_000_000)) };
}

function rowText(r: PlyRow): string {
  return [
    `ply ${String(r.ply).padStart(3)}`,
    r.mode.padEnd(5),
    `size ${String(r.size).padStart(6)}`,
    `top-ups ${String(r.added).padStart(5)}`,
    `${r.ms.toFixed(1).padStart(7)} ms`,
    ...(r.recounted ? ['recounted'] : []),
    ...(r.rescued ? ['rescued'] : []),
    ...(r.stopped ? ['(budget)'] : []),
  ].join('  ');
}

export const trackCommand = {
  command: 'track <file>',
  describe:
    "a player's belief followed through a whole game, ply by ply: the exact belief while it is small, a pool of consistent positions (Parker's AOSP) past it",
  builder: (y: Argv) =>
    withBackend(
      withGameSelection(y)
        .option('budget-ms', {
          type: 'string',
          default: '1000',
          describe: 'time budget per event in milliseconds (an update returns within it with what it has)',
        })
        .option('budget-work', {
          type: 'string',
          describe: 'work budget per event (positions generated and tested): reproducible, unlike time',
        })
        .option('exact-max', {
          type: 'string',
          describe: 'keep the exact belief while it holds at most this many positions',
          defaultDescription: '100000',
        })
        .option('pool-max', {
          type: 'string',
          describe: 'past the exact belief, cut a pool above this many positions to half of it at random',
          defaultDescription: '20000',
        })
        .option('seed', { type: 'string', default: '1', describe: "the tracker's random stream (cuts, sampler)" })
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'print one JSON object (the plies, each with mode, size, top-ups, work, ms)',
        })
        .option('out', { type: 'string', describe: 'also draw the size per ply into this SVG file (atomically)' })
        .example('$0 track games.kpgn --as white --game 2', "White's belief through game 2, one line per ply")
        .example('$0 track games.kpgn --as black --budget-ms 200 --out track.svg', 'with 200 ms per event, drawn')
        .epilogue(EXIT_CODES_TEXT),
    ),
  handler: (argv: TrackArgs) =>
    runCommand(() => {
      const file = argv.file ?? '';
      const timeMs = parseCount('budget-ms', argv.budgetMs, 1, MAX);
      const work = argv.budgetWork === undefined ? undefined : parseCount('budget-work', argv.budgetWork, 1, MAX);
      const options = trackerOptionsOf(argv);
      if (argv.out !== undefined && !/\.svg$/i.test(argv.out))
        throw fail('bad-out', { text: `out must name a .svg file, got '${argv.out}'` });
      const engine = createEngine(argv.backend, 64);
      const { view, game } = viewInFile(engine, file, argv.as, argv.game);
      const run = trackView(engine, view, options, { timeMs, work }, argv.json ? undefined : (r) => say(rowText(r)));
      run.tracker.free();
      const { rows, bad } = run;
      const ms = rows.reduce((sum, r) => sum + r.ms, 0);
      if (argv.out !== undefined) {
        const title = `${view.as === 'white' ? 'White' : 'Black'}'s belief, tracked: ${view.white} vs ${view.black}, game ${game}`;
        writeAtomically(argv.out, trackSvg([{ label: `${file} game ${game} as ${view.as}`, rows }], title));
      }
      if (argv.json) {
        const doc: Record<string, unknown> = {
          file,
          game,
          as: view.as,
          options,
          budget: { ms: timeMs, ...(work === undefined ? {} : { work }) },
          complete: bad === undefined,
          plies: rows,
          ms: Math.round(ms * 1000) / 1000,
        };
        if (bad) Object.assign(doc, { failedEvent: bad.event, failedPly: bad.ply, message: bad.message });
        if (argv.out !== undefined) doc.svg = argv.out;
        say(JSON.stringify(doc));
      } else {
        const pooled = rows.filter((r) => r.mode === 'pool').length;
        say(`plies: ${rows.length} (${rows.length - pooled} exact, ${pooled} pool), ${seconds(ms)}`);
        if (argv.out !== undefined) say(`chart written to ${argv.out}`);
      }
      if (bad) finishWith(EXIT.inconsistent, bad.message);
    }),
};

// krieg infoset FILE [--as white|black] [--game N] (--count | --list) [--limit-histories N]
//   [--limit-time S] [--limit-work N] [--json] [--backend wasm|js] [--jobs N]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import {
  withBackend,
  withGameSelection,
  jobsSpec,
  jobsOption,
  runCommand,
  finishWith,
  seconds,
  progressLine,
  EXIT_CODES_TEXT,
  say,
} from './common';
import { parseCount, parseTimeLimit, timeLimitText, DEFAULT_LIMIT_SECONDS } from '../io/args';
import { viewInFile } from '../sources/problems.node';
import { informationSet } from '../belief/estimate';
import { informationSetParallel } from '../belief/parallel.node';
import { inconsistentMessage } from '../belief/describe';
import type { Side } from '../record/record';
import type { BackendName } from '../backends/node';
import { fail, EXIT } from '../errors';

const DEFAULT_LIST_LIMIT = 100_000; // listed histories are held in memory; counting needs none
const MAX_LIMIT = Number.MAX_SAFE_INTEGER - 1;

interface InfosetArgs {
  file?: string;
  as?: Side;
  game?: string;
  count?: boolean;
  list?: boolean;
  limitHistories?: string;
  limitTime?: string;
  limitWork?: string;
  json: boolean;
  backend: BackendName;
  jobs?: string;
}

export const infosetCommand = {
  command: 'infoset <file>',
  describe:
    "the information set of a player: every move history (both sides' moves) consistent with his view of a game, counted or listed",
  builder: (y: Argv) =>
    withBackend(
      withGameSelection(y)
        .option('count', { type: 'boolean', describe: 'print the number of histories' })
        .option('list', { type: 'boolean', describe: 'also print each history, one line of UCI moves from the start' })
        .conflicts('count', 'list')
        .option('limit-histories', {
          type: 'string',
          describe: `stop after this many histories (default: none with --count, ${DEFAULT_LIST_LIMIT} with --list)`,
        })
        .option('limit-time', {
          type: 'string',
          describe: 'stop after this many seconds (exit 4); 0 for no limit',
          defaultDescription: String(DEFAULT_LIMIT_SECONDS),
        })
        .option(
          'jobs',
          jobsSpec(
            'worker threads listing the histories (--list; --count counts with multiplicities on one, and --limit-work runs on one: a work budget is a prefix of the sequential walk)',
          ),
        )
        .option('limit-work', {
          type: 'string',
          describe: 'stop after this much work (positions generated and tested)',
        })
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'print one JSON object (outcome, count, work, ms, histories with --list)',
        })
        .example(
          '$0 infoset short.kpgn --as black --game 2 --count',
          'how many ways the game could have gone, as Black knows it',
        )
        .epilogue(EXIT_CODES_TEXT),
    ),
  handler: (argv: InfosetArgs) =>
    runCommand(async () => {
      const file = argv.file ?? '';
      if (!argv.count && !argv.list) throw fail('bad-arguments', { text: 'say --count or --list' });
      const list = Boolean(argv.list);
      const limit =
        argv.limitHistories === undefined
          ? list
            ? DEFAULT_LIST_LIMIT
            : undefined
          : parseCount('limit-histories', argv.limitHistories, 1, MAX_LIMIT);
      const time = parseTimeLimit('limit-time', argv.limitTime);
      const timeMs = time.ms;
      const work = argv.limitWork === undefined ? undefined : parseCount('limit-work', argv.limitWork, 1, MAX_LIMIT);
      const jobs = jobsOption(argv.jobs);
      const engine = createEngine(argv.backend, 2); // histories are counted, not stored: informationSet sizes the arena
      // the time limit covers reading the file too: the count has what is left of it
      const started = performance.now();
      const deadline =
        timeMs === undefined ? undefined : { at: started + timeMs, text: timeLimitText(timeMs, time.isDefault) };
      const { view, game } = viewInFile(engine, file, argv.as, argv.game, deadline);
      const timeLeft = timeMs === undefined ? undefined : Math.max(1, timeMs - (performance.now() - started));
      const progress = progressLine('infoset');
      const result =
        // a count is made with multiplicities (the breadth-first belief's work) on one thread; the split
        // walks listed histories (or counts past the memory budget: informationSet falls back to the walk)
        jobs > 1 && work === undefined && list
          ? await informationSetParallel(engine, view, list, {
              backend: argv.backend,
              jobs,
              limits: { positions: limit, timeMs: timeLeft },
            })
          : informationSet(engine, view, list, { positions: limit, timeMs: timeLeft, work }, (found, w) =>
              progress.update(`${found} histories, work ${w}`),
            );
      progress.done();
      const { outcome, count, failedEvent } = result;
      const histories = result.histories ?? [];
      const shown = outcome === 'limit-positions' ? 'limit-histories' : outcome;
      const message =
        outcome === 'complete'
          ? undefined
          : outcome === 'inconsistent'
            ? inconsistentMessage(view, failedEvent, result.failedPly)
            : outcome === 'limit-positions'
              ? `limit reached: more than ${limit} histories (--limit-histories ${limit}); the count is partial`
              : outcome === 'limit-time'
                ? `limit reached: ${timeLimitText(timeMs ?? 0, time.isDefault)}; the count is partial; to go faster try a shorter view (an earlier --game, or the record cut at an earlier ply)`
                : outcome === 'limit-work'
                  ? `limit reached: work limit of ${work} (--limit-work); the count is partial`
                  : 'limit reached: the view has more opponent turns than the estimator follows; the count is partial';

      if (argv.json) {
        const doc: Record<string, unknown> = {
          file,
          game,
          as: view.as,
          outcome: shown,
          complete: outcome === 'complete',
          count,
          work: result.work,
          ms: Math.round(result.ms * 1000) / 1000,
        };
        if (outcome === 'inconsistent') Object.assign(doc, { failedEvent, failedPly: result.failedPly });
        if (message !== undefined) doc.message = message;
        if (list) doc.histories = histories.map((h) => h.join(' '));
        say(JSON.stringify(doc));
      } else {
        say(`histories: ${count}${outcome !== 'complete' && outcome !== 'inconsistent' ? ' (partial)' : ''}`);
        say(`outcome: ${shown} (work ${result.work}, ${seconds(result.ms)})`);
        if (list) for (const h of histories) say(h.join(' '));
      }
      if (message !== undefined) finishWith(outcome === 'inconsistent' ? EXIT.inconsistent : EXIT.limit, message);
    }),
};

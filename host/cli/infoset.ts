// krieg infoset FILE [--as white|black] [--game N] (--count | --list) [--limit-histories N]
//   [--limit-time S] [--limit-work N] [--json] [--backend wasm|js]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, runCommand, parseCount } from './common';
import { loadView, type Outcome } from '../belief/estimate';
import type { Engine } from '../engine';
import { moveToUci } from '../notation/move';
import type { Side, View } from '../referee/record';
import type { BackendName } from '../backends/node';
import { KriegError } from '../status';
import { readView, parseSeconds, plyBefore, progressLine, inconsistentMessage, finishWith, seconds, EXIT_INCONSISTENT, EXIT_LIMIT, EXIT_CODES_TEXT } from './belief';

const DEFAULT_LIST_LIMIT = 100_000; // listed histories are held in memory; counting needs none
const MAX_LIMIT = Number.MAX_SAFE_INTEGER - 1;

// core statuses (assembly/belief/estimate.ts ESTIMATE_*) and depth-first modes
const STATUS = { more: 1, limit: 2, tooDeep: 3, inconsistent: 4, found: 5, exhausted: 6 } as const;
const MODE_HISTORIES = 1;
const ROOT = 0; // loadView puts the start position here
const STEP = 20_000; // work units per core call

interface Histories { outcome: Outcome; count: number; histories: string[][]; failedEvent?: number; failedPly?: number; work: number; ms: number }

/**
 * Counts (and with `list`, lists) the histories consistent with `view`. The same walk as
 * informationSet of host/belief/estimate.ts, driven here because that one checks the time and work
 * limits only between histories that take a whole budget step to find: a view with many
 * histories found quickly would never stop on --limit-time. This loop checks after each one.
 */
function countHistories(engine: Engine, view: View, list: boolean, limits: { limit?: number; timeMs?: number; work?: number },
  onProgress: (histories: number, work: number) => void): Histories {
  loadView(engine, view);
  const x = engine.core.exports;
  const started = performance.now();
  const isMove = (e: View['events'][number]) => (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept !== undefined);
  const ownMoves = view.events.filter((e) => e.type === 'attempt' && e.side === view.as && e.percept.answer === 'legal').map((e) => (e as { attempt: string }).attempt);
  const first = view.events.find(isMove);
  const firstIsOwn = first !== undefined && first.type === 'attempt';
  const histories: string[][] = [];
  const done = (outcome: Outcome, count = x.dfsHistories()): Histories => {
    const r: Histories = { outcome, count, histories, work: x.estimateWork(), ms: performance.now() - started };
    if (outcome === 'inconsistent') { r.failedEvent = x.estimateFailedAt(); r.failedPly = plyBefore(view, r.failedEvent); }
    return r;
  };
  const stopped = (): Outcome | undefined => {
    if (limits.timeMs !== undefined && performance.now() - started > limits.timeMs) return 'limit-time';
    if (limits.work !== undefined && x.estimateWork() > limits.work) return 'limit-work';
    return undefined;
  };
  x.dfsStart(ROOT, MODE_HISTORIES, 0);
  for (;;) {
    const status = x.dfsNext(STEP);
    if (status === STATUS.found) {
      const count = x.dfsHistories();
      if (limits.limit !== undefined && count > limits.limit) return done('limit-positions', limits.limit); // one past the limit: there are more
      if (list) {
        const theirs = Array.from({ length: x.dfsDepth() }, (_, level) => moveToUci(x.dfsChosenMove(level)));
        const moves: string[] = [];
        for (let i = 0, own = 0, opp = 0; own < ownMoves.length || opp < theirs.length; i++) {
          const ownTurn = (i % 2 === 0) === firstIsOwn;
          if (ownTurn && own < ownMoves.length) moves.push(ownMoves[own++]);
          else if (!ownTurn && opp < theirs.length) moves.push(theirs[opp++]);
          else break;
        }
        histories.push(moves);
      }
      if (count % 1024 === 0) onProgress(count, x.estimateWork());
      const stop = stopped();
      if (stop) return done(stop);
      continue;
    }
    if (status === STATUS.more) {
      onProgress(x.dfsHistories(), x.estimateWork());
      const stop = stopped();
      if (stop) return done(stop);
      continue;
    }
    if (status === STATUS.exhausted) return done('complete');
    if (status === STATUS.inconsistent) return done('inconsistent', 0);
    return done(status === STATUS.tooDeep ? 'too-deep' : 'limit-positions');
  }
}

interface InfosetArgs {
  file?: string; as?: Side; game?: string; count?: boolean; list?: boolean;
  limitHistories?: string; limitTime?: string; limitWork?: string; json: boolean; backend: BackendName;
}

export const infosetCommand = {
  command: 'infoset <file>',
  describe: 'the information set of a player: every move history (both sides\' moves) consistent with his view of a game, counted or listed',
  builder: (y: Argv) => withBackend(y
    .positional('file', { type: 'string', describe: 'a KPGN or JSON file of records or views' })
    .option('as', { choices: ['white', 'black'] as const, describe: 'whose view (required for a record; a view file is its own side\'s)' })
    .option('game', { type: 'string', describe: 'game N of the file (1-based)', defaultDescription: '1' })
    .option('count', { type: 'boolean', describe: 'print the number of histories' })
    .option('list', { type: 'boolean', describe: 'also print each history, one line of UCI moves from the start' })
    .conflicts('count', 'list')
    .option('limit-histories', { type: 'string', describe: `stop after this many histories (default: none with --count, ${DEFAULT_LIST_LIMIT} with --list)` })
    .option('limit-time', { type: 'string', describe: 'stop after this many seconds' })
    .option('limit-work', { type: 'string', describe: 'stop after this much work (positions generated and tested)' })
    .option('json', { type: 'boolean', default: false, describe: 'print one JSON object (outcome, count, work, ms, histories with --list)' })
    .example('$0 infoset games.kpgn --as black --game 2 --count', 'how many ways the game could have gone, as Black knows it')
    .epilogue(EXIT_CODES_TEXT)),
  handler: (argv: InfosetArgs) => runCommand(() => {
    const file = argv.file ?? '';
    if (!argv.count && !argv.list) throw new KriegError('bad-arguments', 'say --count or --list');
    const list = Boolean(argv.list);
    const limit = argv.limitHistories === undefined ? (list ? DEFAULT_LIST_LIMIT : undefined) : parseCount('limit-histories', argv.limitHistories, 1, MAX_LIMIT);
    const timeMs = parseSeconds('limit-time', argv.limitTime);
    const work = argv.limitWork === undefined ? undefined : parseCount('limit-work', argv.limitWork, 1, MAX_LIMIT);
    const { view, game } = readView(file, argv.as, argv.game, argv.backend);

    // histories are counted, not stored: the arena needs the estimator's stack and one spare record
    const engine = createEngine(argv.backend, 2);
    engine.resize(engine.core.exports.storeBase() + 2);
    const progress = progressLine('infoset');
    const result = countHistories(engine, view, list, { limit, timeMs, work }, (n, w) => progress.update(`${n} histories, work ${w}`));
    progress.done();
    const { outcome, count, histories } = result;
    const shown = outcome === 'limit-positions' ? 'limit-histories' : outcome;
    const message = outcome === 'complete' ? undefined
      : outcome === 'inconsistent' ? inconsistentMessage(view, result.failedEvent, result.failedPly)
        : outcome === 'limit-positions' ? `limit reached: more than ${limit} histories (--limit-histories ${limit}); the count is partial`
          : outcome === 'limit-time' ? `limit reached: time limit of ${seconds(timeMs ?? 0)} (--limit-time); the count is partial`
            : outcome === 'limit-work' ? `limit reached: work limit of ${work} (--limit-work); the count is partial`
              : 'limit reached: the view has more opponent turns than the estimator follows; the count is partial';

    if (argv.json) {
      const doc: Record<string, unknown> = {
        file, game, as: view.as, outcome: shown, complete: outcome === 'complete', count, work: result.work, ms: Math.round(result.ms * 1000) / 1000,
      };
      if (outcome === 'inconsistent') Object.assign(doc, { failedEvent: result.failedEvent, failedPly: result.failedPly });
      if (message !== undefined) doc.message = message;
      if (list) doc.histories = histories.map((h) => h.join(' '));
      console.log(JSON.stringify(doc));
    } else {
      console.log(`histories: ${count}${outcome !== 'complete' && outcome !== 'inconsistent' ? ' (partial)' : ''}`);
      console.log(`outcome: ${shown} (work ${result.work}, ${seconds(result.ms)})`);
      if (list) for (const h of histories) console.log(h.join(' '));
    }
    if (message !== undefined) finishWith(outcome === 'inconsistent' ? EXIT_INCONSISTENT : EXIT_LIMIT, message);
  }),
};

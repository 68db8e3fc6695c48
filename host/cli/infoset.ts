// krieg infoset FILE [--as white|black] [--game N] (--count | --list) [--limit-histories N]
//   [--limit-time S] [--limit-work N] [--json] [--backend wasm|js]
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, runCommand, parseCount } from './common';
import { informationSet, countHistories, type InformationSet, type Limits } from '../belief/estimate';
import type { Engine } from '../engine';
import type { Side, View } from '../referee/record';
import type { BackendName } from '../backends/node';
import { KriegError } from '../status';
import { readView, withGameSelection, parseSeconds, inconsistentMessage, finishWith, seconds, EXIT_INCONSISTENT, EXIT_LIMIT, EXIT_CODES_TEXT } from './belief';

const DEFAULT_LIST_LIMIT = 100_000; // listed histories are held in memory
// counting keeps two breadth-first layers: a store of 2^16 positions first, 8 times larger while a layer does not fit
const FIRST_STORE = 1 << 16;
const MAX_STORE = 1 << 22;
const MAX_LIMIT = Number.MAX_SAFE_INTEGER - 1;

interface InfosetArgs {
  file?: string; as?: Side; game?: string; count?: boolean; list?: boolean;
  limitHistories?: string; limitTime?: string; limitWork?: string; json: boolean; backend: BackendName;
}

export const infosetCommand = {
  command: 'infoset <file>',
  describe: 'the information set of a player: every move history (both sides\' moves) consistent with his view of a game, counted or listed',
  builder: (y: Argv) => withBackend(withGameSelection(y)
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

    // one history past the limit tells "exactly the limit" (complete) from "more" (partial)
    const limits = { positions: limit === undefined ? undefined : limit + 1, timeMs, work };
    const { engine, result } = list ? listed(argv.backend, view, limits) : counted(argv.backend, view, limits);
    let { outcome, count } = result;
    const histories = result.histories ?? [];
    if (limit !== undefined && count > limit) {
      count = limit;
      histories.length = Math.min(histories.length, limit);
      outcome = 'limit-positions';
    }
    const failedEvent = outcome === 'inconsistent' ? engine.core.exports.estimateFailedAt() : undefined;
    const shown = outcome === 'limit-positions' ? 'limit-histories' : outcome;
    const message = outcome === 'complete' ? undefined
      : outcome === 'inconsistent' ? inconsistentMessage(view, failedEvent, result.failedPly)
        : outcome === 'limit-positions' ? `limit reached: more than ${limit} histories (--limit-histories ${limit}); the count is partial`
          : outcome === 'limit-time' ? `limit reached: time limit of ${seconds(timeMs ?? 0)} (--limit-time); the count is partial`
            : outcome === 'limit-work' ? `limit reached: work limit of ${work} (--limit-work); the count is partial`
              : 'limit reached: the view has more opponent turns than the estimator follows; the count is partial';

    if (argv.json) {
      const doc: Record<string, unknown> = {
        file, game, as: view.as, outcome: shown, complete: outcome === 'complete', count, work: result.work, ms: Math.round(result.ms * 1000) / 1000,
      };
      if (outcome === 'inconsistent') Object.assign(doc, { failedEvent, failedPly: result.failedPly });
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

/** Histories listed one by one (depth-first): the arena needs only the estimator's stack. */
function listed(backend: BackendName, view: View, limits: Limits): { engine: Engine; result: InformationSet } {
  const engine = createEngine(backend, 2);
  engine.resize(engine.core.exports.storeBase() + 2);
  return { engine, result: informationSet(engine, view, true, limits) };
}

/**
 * Histories counted with multiplicities (breadth-first, as much work as the belief) in a store
 * that grows while a layer does not fit; past the largest, counted one by one (depth-first).
 */
function counted(backend: BackendName, view: View, limits: Limits): { engine: Engine; result: InformationSet } {
  const started = performance.now();
  let engine = createEngine(backend, 2);
  const base = engine.core.exports.storeBase();
  for (let store = FIRST_STORE; store <= MAX_STORE; store *= 8) {
    if (store > FIRST_STORE) engine = createEngine(backend, 2); // a fresh core: the old arena is freed with it
    engine.resize(base + 2 * store);
    const timeMs = limits.timeMs === undefined ? undefined : Math.max(1, limits.timeMs - (performance.now() - started));
    const result = countHistories(engine, view, { ...limits, timeMs });
    if (result) return { engine, result };
  }
  engine.resize(base + 2);
  return { engine, result: informationSet(engine, view, false, limits) };
}

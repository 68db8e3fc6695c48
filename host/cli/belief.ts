// krieg belief FILE [--as white|black] [--game N] [--mode bfs|dfs|sample] [-k N] [--seed S]
//   [--limit-positions N] [--limit-time S] [--limit-work N] [--show count|fens|boards|heatmap]
//   [--out FILE.svg|FILE.png] [--json] [--backend wasm|js]
// Also the pieces `krieg infoset` shares: reading one view from a file, limits, outcome reporting.
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import type { Engine } from '../engine';
import { withBackend, runCommand, parseCount, finishWith, EXIT_CODES_TEXT } from './common';
import { readGames, writeAtomically, viewOfGame } from '../io/gamesFile';
import type { Side, View } from '../record/record';
import { estimateBelief, sampleBelief, pliesBefore, type EstimateResult, type Outcome } from '../belief/estimate';
import { storeBase, breadthFirstLayer } from '../core/estimator';
import { pieceHeatmap, heatmapText, heatmapSvg, heatmapPng, type Heatmap } from '../belief/heatmap';
import { makePerceptKpgn, makePawnTriesKpgn } from '../notation/kpgn';
import { pieceLetter } from '../notation/fen';
import type { BackendName } from '../backends/node';
import { fail, optionError, EXIT } from '../errors';


const DEFAULT_LIMIT_POSITIONS = 2_000_000;
// breadth-first keeps two layers: 8 M records of 128 bytes, just under the core's 1 GiB array limit
const MAX_LIMIT_POSITIONS = 4_000_000;
const FIRST_STORE = 1 << 16; // positions; the arena grows (the run restarts) only when a run fills it

// ---- reading the view ----

/** The view of `as` in game `game` (1-based) of `file`: a record replayed by the referee first, or a view as written. */
export function readView(file: string, as: Side | undefined, game: string | undefined, backend: BackendName): { view: View; game: number } {
  const parsed = readGames(file);
  const n = game === undefined ? 1 : parseCount('game', game, 1, parsed.length);
  return { view: viewOfGame(createEngine(backend), file, parsed[n - 1], n, as), game: n };
}

/** The options naming one player's view of one game of a file (belief, infoset). */
export function withGameSelection<T>(y: Argv<T>) {
  return y
    .positional('file', { type: 'string', describe: 'a KPGN or JSON file of records or views' })
    .option('as', { choices: ['white', 'black'] as const, describe: 'whose view (required for a record; a view file is its own side\'s)' })
    .option('game', { type: 'string', describe: 'game N of the file (1-based)', defaultDescription: '1' });
}

/** A positive number of seconds, as milliseconds. */
export function parseSeconds(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!(value > 0) || value > 1e7) throw optionError(name, 0, 1e7, text, 'seconds');
  return value * 1000;
}

// ---- describing outcomes ----


/** View event `i` (0-based), as a reader of the view would name it. */
export function describeEvent(view: View, i: number): string {
  const e = view.events[i];
  if (!e) return `event ${i + 1}: the end of the view`;
  const who = e.side === 'white' ? 'White' : 'Black';
  const what = e.type === 'attempt' ? `${who}'s ${e.attempt} ${makePerceptKpgn(e.percept)}`
    : e.type === 'opponent-move' ? `${who}'s move, heard as ${e.percept ? makePerceptKpgn(e.percept) : 'not yet made'}${e.illegal !== undefined ? ` after ${e.illegal} Illegal` : ''}`
      : e.type === 'pawn-tries' ? `pawn tries ${makePawnTriesKpgn(e)} before ${who}'s turn`
        : `${who}'s "Any?" answered ${e.yes ? 'yes' : 'no'}`;
  return `event ${i + 1}: ${what}`;
}

export function inconsistentMessage(view: View, failedEvent: number | undefined, failedPly: number | undefined): string {
  const event = failedEvent ?? -1;
  // failedPly counts the plies played before the failing event: that event belongs to ply failedPly + 1
  return `the view is inconsistent: no position survives ply ${(failedPly ?? 0) + 1} (${event >= 0 ? describeEvent(view, event) : 'event unknown'})`;
}

export function seconds(ms: number): string { return `${(ms / 1000).toFixed(3)} s`; }

/** A throttled progress line on stderr, when stderr is a terminal (or KRIEG_PROGRESS is set). */
export function progressLine(what: string): { update: (text: string) => void; done: () => void } {
  const tty = Boolean(process.stderr.isTTY);
  if (!tty && !process.env.KRIEG_PROGRESS) return { update: () => {}, done: () => {} };
  const started = performance.now();
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const now = performance.now();
      if (now - last < (tty ? 200 : 1000) || now - started < 500) return;
      last = now;
      shown = true;
      const line = `${what}: ${text}, ${((now - started) / 1000).toFixed(1)} s`;
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
    done() { if (shown && tty) process.stderr.write('\r\x1b[K'); },
  };
}

// ---- estimating with a growing arena ----

type Mode = 'bfs' | 'dfs' | 'sample';

interface Request { mode: Mode; limit: number; k: number; seed: number; work?: number; timeMs?: number }

/**
 * Runs the estimator in an arena just big enough: a first run in a small store, and, only when a
 * run fills its store before reaching the requested limit, a new run in a store 8 times bigger,
 * up to what the limit needs (breadth-first: two layers of limit + 1; depth-first: limit + 1; a
 * sample: k). The time limit covers all runs; `work` is the last run's.
 */
function estimate(backend: BackendName, view: View, request: Request, onProgress: (found: number, work: number) => void): { engine: Engine; result: EstimateResult; ms: number } {
  const { mode, limit, k } = request;
  const need = mode === 'bfs' ? 2 * (limit + 1) : mode === 'dfs' ? limit + 1 : k;
  let first: Engine | undefined = createEngine(backend, 2); // resized for the first run
  const base = storeBase(first);
  const started = performance.now();
  let store = Math.min(need, FIRST_STORE);
  for (;;) {
    const engine = first ?? createEngine(backend, base + store); // a fresh core: the old arena is freed with it
    if (first) { first.resize(base + store); first = undefined; }
    const timeMs = request.timeMs === undefined ? undefined : Math.max(1, request.timeMs - (performance.now() - started));
    const limits = { positions: mode === 'bfs' ? limit : limit + 1, work: request.work, timeMs };
    const result = mode === 'sample' ? sampleBelief(engine, view, k, request.seed, limits) : estimateBelief(engine, view, mode, limits, onProgress);
    const wanted = mode === 'dfs' ? limit + 1 : k;
    const storeFull = result.outcome === 'limit-positions' && store < need && (mode === 'bfs' || result.handles.length < wanted);
    if (storeFull) { store = Math.min(need, store * 8); continue; }
    if (mode === 'dfs' && result.handles.length > limit) { result.handles.length = limit; result.outcome = 'limit-positions'; }
    return { engine, result, ms: performance.now() - started };
  }
}

function limitMessage(outcome: Outcome, mode: Mode, request: Request, engine: Engine, view: View): string {
  switch (outcome) {
    case 'limit-positions': {
      if (mode !== 'bfs') return `limit reached: more than ${request.limit} positions (--limit-positions ${request.limit}); the count is partial`;
      const event = breadthFirstLayer(engine).eventsDone;
      if (event >= view.events.length) return `limit reached: the belief has more than ${request.limit} positions (--limit-positions ${request.limit}); breadth-first keeps no partial result`;
      return `limit reached: a breadth-first layer grew past ${request.limit} positions at ply ${pliesBefore(view, event) + 1} (${describeEvent(view, event)}; --limit-positions ${request.limit}); breadth-first keeps no partial result`;
    }
    case 'limit-time': return `limit reached: time limit of ${seconds(request.timeMs ?? 0)} (--limit-time); the ${mode === 'bfs' ? 'run stopped with no partial result' : 'count is partial'}`;
    case 'limit-work': return `limit reached: work limit of ${request.work} (--limit-work); the ${mode === 'bfs' ? 'run stopped with no partial result' : 'count is partial'}`;
    default: return 'limit reached: the view has more opponent turns than the depth-first estimator follows; try --mode bfs';
  }
}

// ---- output ----

/** A board as text: rank 8 at the top, White's pieces in capitals, '.' empty. */
function boardText(board: ArrayLike<number>): string {
  const lines: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    const row: string[] = [];
    for (let file = 0; file < 8; file++) row.push(pieceLetter(board[rank * 8 + file]) || '.');
    lines.push(`  ${rank + 1}  ${row.join(' ')}`);
  }
  lines.push('     a b c d e f g h');
  return lines.join('\n');
}

// ---- the heatmap image ----

const IMAGE_FORMATS = ['svg', 'png'] as const;
type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The image format `--out` names by its extension (.svg or .png, any case). */
export function imageFormat(path: string): ImageFormat {
  const ext = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase();
  const format = IMAGE_FORMATS.find((f) => f === ext);
  if (format === undefined) throw fail('bad-out', { text: `out must name a .svg or .png file, got '${path}'` });
  return format;
}

const SHOW = ['count', 'fens', 'boards', 'heatmap'] as const;
type Show = (typeof SHOW)[number];

interface BeliefArgs {
  file?: string; as?: Side; game?: string; mode: Mode; k: string; seed: string;
  limitPositions: string; limitTime?: string; limitWork?: string;
  show: Show; out?: string; json: boolean; backend: BackendName;
}

export const beliefCommand = {
  command: 'belief <file>',
  describe: 'the belief state of a player: every position consistent with his view of a game (counted, listed, drawn, or summed per square as a heatmap)',
  builder: (y: Argv) => withBackend(withGameSelection(y)
    .option('mode', { choices: ['bfs', 'dfs', 'sample'] as const, default: 'dfs' as Mode, describe: 'breadth-first (layer by layer), depth-first (streaming; keeps a partial result on a limit), or a seeded random sample of k positions' })
    .option('k', { type: 'string', default: '10', describe: 'sample size (--mode sample)' })
    .option('seed', { type: 'string', default: '1', describe: 'sampler seed (--mode sample)' })
    .option('limit-positions', { type: 'string', default: String(DEFAULT_LIMIT_POSITIONS), describe: `stop after this many positions (breadth-first: in any layer); at most ${MAX_LIMIT_POSITIONS}` })
    .option('limit-time', { type: 'string', describe: 'stop after this many seconds' })
    .option('limit-work', { type: 'string', describe: 'stop after this much work (positions generated and tested)' })
    .option('show', { choices: SHOW, default: 'count' as Show, describe: 'count only; every FEN; every board; or per square, how many positions have an opponent piece there' })
    .option('out', { type: 'string', describe: 'also write the opponent-piece heatmap as an image to this file (atomically): SVG for FILE.svg, PNG for FILE.png' })
    .option('json', { type: 'boolean', default: false, describe: 'print one JSON object (outcome, count, work, ms, fens when shown, heatmap counts)' })
    .example('$0 belief games.kpgn --as white --game 3 --show heatmap --out belief.svg', 'where Black\'s pieces may be, as White knows game 3')
    .example('$0 belief games.kpgn --as black --out belief.png', 'the same for White\'s pieces as Black knows game 1, as a PNG image')
    .example('$0 belief view.kpgn --mode sample -k 5 --seed 7 --show fens', 'five random positions White cannot rule out')
    .epilogue(EXIT_CODES_TEXT)),
  handler: (argv: BeliefArgs) => runCommand(() => {
    const file = argv.file ?? '';
    const limit = parseCount('limit-positions', argv.limitPositions, 1, MAX_LIMIT_POSITIONS);
    const k = parseCount('k', argv.k, 1, MAX_LIMIT_POSITIONS);
    const seed = parseCount('seed', argv.seed, 0, 0x7fffffff);
    const timeMs = parseSeconds('limit-time', argv.limitTime);
    const work = argv.limitWork === undefined ? undefined : parseCount('limit-work', argv.limitWork, 1, Number.MAX_SAFE_INTEGER);
    const format = argv.out === undefined ? undefined : imageFormat(argv.out);
    const { view, game } = readView(file, argv.as, argv.game, argv.backend);
    const request: Request = { mode: argv.mode, limit, k, seed, work, timeMs };

    const progress = progressLine(`belief (${argv.mode})`);
    const { engine, result, ms } = estimate(argv.backend, view, request, (found, w) => progress.update(`${found} positions${argv.mode === 'bfs' ? ' in the layer' : ''}, work ${w}`));
    progress.done();

    const { outcome, handles } = result;
    const partial = outcome !== 'complete';
    const countKnown = outcome === 'complete' || outcome === 'inconsistent' || argv.mode !== 'bfs'; // breadth-first stopped early has no partial result
    const enemy: 0 | 1 = view.as === 'white' ? 1 : 0;
    const wantHeatmap = argv.show === 'heatmap' || argv.out !== undefined || argv.json;
    const heatmap: Heatmap | undefined = wantHeatmap ? pieceHeatmap((function* () { for (const h of handles) yield engine.setup(h).board; })(), enemy) : undefined;
    const wantFens = argv.show === 'fens' || argv.show === 'boards';
    const positions = wantFens ? handles.map((h) => ({ fen: engine.fen(h), board: engine.setup(h).board })).sort((a, b) => (a.fen < b.fen ? -1 : a.fen > b.fen ? 1 : 0)) : [];
    const message = outcome === 'complete' ? undefined
      : outcome === 'inconsistent' ? inconsistentMessage(view, result.failedEvent, result.failedPly)
        : limitMessage(outcome, argv.mode, request, engine, view);

    if (argv.out !== undefined && heatmap) {
      const title = `${view.as === 'white' ? 'White' : 'Black'}'s belief: ${view.white} vs ${view.black}, game ${game}, after ${pliesBefore(view, view.events.length)} plies${partial ? ` (${outcome})` : ''}`;
      writeAtomically(argv.out, format === 'png' ? heatmapPng(heatmap, title) : heatmapSvg(heatmap, title));
    }

    if (argv.json) {
      const doc: Record<string, unknown> = {
        file, game, as: view.as, mode: argv.mode, outcome, complete: !partial,
        count: countKnown ? handles.length : null, work: result.work, ms: Math.round(ms * 1000) / 1000,
      };
      if (argv.mode === 'sample') Object.assign(doc, { k, seed });
      if (outcome === 'inconsistent') Object.assign(doc, { failedEvent: result.failedEvent, failedPly: result.failedPly });
      if (message !== undefined) doc.message = message;
      if (wantFens) doc.fens = positions.map((p) => p.fen);
      if (heatmap) doc.heatmap = { color: enemy === 0 ? 'white' : 'black', total: heatmap.total, counts: heatmap.counts };
      if (argv.out !== undefined) doc[format!] = argv.out;
      console.log(JSON.stringify(doc));
    } else {
      const what = argv.mode === 'sample' ? `sample of ${k}, seed ${seed}` : argv.mode;
      console.log(`positions: ${countKnown ? handles.length : 'unknown'}${partial && countKnown && outcome !== 'inconsistent' ? ' (partial)' : ''}`);
      console.log(`outcome: ${outcome} (${what}; work ${result.work}, ${seconds(ms)})`);
      if (argv.show === 'fens') for (const p of positions) console.log(p.fen);
      if (argv.show === 'boards') positions.forEach((p, i) => console.log(`\n${i + 1}. ${p.fen}\n${boardText(p.board)}`));
      if (argv.show === 'heatmap' && heatmap) {
        console.log(`\n${enemy === 0 ? 'White' : 'Black'} pieces: positions (of ${heatmap.total}) with one on each square`);
        process.stdout.write(heatmapText(heatmap));
      }
      if (argv.out !== undefined) console.log(`heatmap written to ${argv.out}`);
    }
    if (message !== undefined) finishWith(outcome === 'inconsistent' ? EXIT.inconsistent : EXIT.limit, message);
  }),
};

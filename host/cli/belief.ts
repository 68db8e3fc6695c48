// krieg belief FILE [--as white|black] [--game N] [--mode auto|bfs|dfs|sample|track] [-k N] [--seed S]
//   [--limit-positions N] [--limit-time S] [--limit-work N] [--show count|fens|boards|heatmap]
//   [--out FILE.svg|FILE.png] [--json] [--backend wasm|js] [--jobs N]
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
  io,
} from './common';
import { parseCount, parseTimeLimit, timeLimitText, DEFAULT_LIMIT_SECONDS } from '../io/args';
import { existsSync } from 'node:fs';
import { writeAtomically, sameFile } from '../io/files';
import { viewInFile } from '../sources/problems.node';
import type { Side, View } from '../record/record';
import { DEFAULT_LIMIT_POSITIONS, MAX_LIMIT_POSITIONS, type EstimateResult } from '../belief/estimate';
import { estimateBeliefParallel } from '../belief/parallel.node';
import { pliesBefore, describeEvent, inconsistentMessage } from '../belief/describe';
import { pieceHeatmap, heatmapText, heatmapSvg, type Heatmap } from '../belief/heatmap';
import { heatmapPng } from '../belief/heatmapPng.node';
import { pieceLetter } from '../notation/fen';
import type { BackendName } from '../backends/node';
import { fail, EXIT } from '../errors';
import { beliefOf, type Belief, type BeliefMode } from '../belief/request';

/** The modes the command offers (not exact-or-track, whose pool is an answer where the command's would be a limit). */
type Mode = Exclude<BeliefMode, 'exact-or-track'>;

/** The worker threads' depth-first walk as a belief request's answer. */
const parallelBelief = (result: EstimateResult): Belief => ({
  result,
  mode: 'dfs',
  exact: result.outcome === 'complete',
});

interface Request {
  mode: Mode;
  limit: number;
  k: number;
  seed: number;
  work?: number;
  timeMs?: number;
  timeIsDefault: boolean;
}

/** What to try when an exact estimation runs out of time (a depth-first run: the layered one; any: less of the game). */
export function slowHint(mode: string): string {
  return `${mode === 'dfs' ? '--mode bfs (far less work on long views), or ' : ''}a shorter view (an earlier --game, or the record cut at an earlier ply)`;
}

function limitMessage(result: EstimateResult, mode: Mode, request: Request, view: View): string {
  switch (result.outcome) {
    case 'limit-positions': {
      if (mode !== 'bfs')
        return `limit reached: more than ${request.limit} positions (--limit-positions ${request.limit}); the count is partial`;
      const event = result.eventsDone ?? view.events.length;
      if (event >= view.events.length)
        return `limit reached: the belief has more than ${request.limit} positions (--limit-positions ${request.limit}); breadth-first keeps no partial result`;
      return `limit reached: a breadth-first layer grew past ${request.limit} positions at ply ${pliesBefore(view, event) + 1} (${describeEvent(view, event)}; --limit-positions ${request.limit}); breadth-first keeps no partial result`;
    }
    case 'limit-time':
      return `limit reached: ${timeLimitText(request.timeMs ?? 0, request.timeIsDefault)}; the ${mode === 'bfs' ? 'run stopped with no partial result' : 'count is partial'}; to go faster try ${slowHint(request.mode)}`;
    case 'limit-work':
      return `limit reached: work limit of ${request.work} (--limit-work); the ${mode === 'bfs' ? 'run stopped with no partial result' : 'count is partial'}`;
    default:
      return 'limit reached: the view has more opponent turns than the depth-first estimator follows; try --mode bfs';
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
function imageFormat(path: string): ImageFormat {
  const ext = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase();
  const format = IMAGE_FORMATS.find((f) => f === ext);
  if (format === undefined) throw fail('bad-out', { text: `out must name a .svg or .png file, got '${path}'` });
  return format;
}

const SHOW = ['count', 'fens', 'boards', 'heatmap'] as const;
type Show = (typeof SHOW)[number];

interface BeliefArgs {
  file?: string;
  as?: Side;
  game?: string;
  mode: Mode;
  k: string;
  seed: string;
  limitPositions: string;
  limitTime?: string;
  limitWork?: string;
  show: Show;
  out?: string;
  json: boolean;
  backend: BackendName;
  jobs?: string;
}

export const beliefCommand = {
  command: 'belief <file>',
  describe:
    'the belief state of a player: every position consistent with his view of a game (counted, listed, drawn, or summed per square as a heatmap)',
  builder: (y: Argv) =>
    withBackend(
      withGameSelection(y)
        .option('mode', {
          choices: ['auto', 'bfs', 'dfs', 'sample', 'track'] as const,
          default: 'auto' as Mode,
          describe:
            "bfs: layer by layer, merging equal positions at every ply (far less work on long views; memory for the largest layer; nothing kept when stopped); dfs: streaming (memory for its stack only; a partial count when stopped); auto: bfs, then dfs in the time left if a layer outgrows --limit-positions or memory; sample: a seeded random sample of k positions; track: the belief tracker's positions after the view's last event (fed event by event, --limit-work per event, default 5000000; the exact belief while it has at most 100000 positions, else a pool of consistent ones; --seed its random stream)",
        })
        .option('k', { type: 'string', default: '10', describe: 'sample size (--mode sample)' })
        .option('seed', { type: 'string', default: '1', describe: 'sampler seed (--mode sample)' })
        .option('limit-positions', {
          type: 'string',
          default: String(DEFAULT_LIMIT_POSITIONS),
          describe: `stop after this many positions (breadth-first: in any layer); at most ${MAX_LIMIT_POSITIONS}`,
        })
        .option('limit-time', {
          type: 'string',
          describe: 'stop after this many seconds (exit 4); 0 for no limit',
          defaultDescription: String(DEFAULT_LIMIT_SECONDS),
        })
        .option('jobs', {
          ...jobsSpec(
            'worker threads walking the belief with --mode dfs (auto, bfs, sample and --limit-work run on one)',
          ),
          // split tasks cannot share the positions they reach, so a split belief does more work (docs/scaling.md)
          defaultDescription: '1, since the split repeats the positions two tasks reach',
        })
        .option('limit-work', {
          type: 'string',
          describe: 'stop after this much work (positions generated and tested)',
        })
        .option('show', {
          choices: SHOW,
          default: 'count' as Show,
          describe:
            'count only; every FEN; every board; or per square, how many positions have an opponent piece there',
        })
        .option('out', {
          type: 'string',
          describe:
            'also write the opponent-piece heatmap as an image to this file (atomically): SVG for FILE.svg, PNG for FILE.png',
        })
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'print one JSON object (outcome, count, work, ms, fens when shown, heatmap counts)',
        })
        .example(
          '$0 play --games 10 --seed 7 --max-plies 8 --out short.kpgn',
          'ten games cut after 8 plies: beliefs of hundreds to tens of thousands of positions (exact estimation reaches about ply 10-14; see docs/belief.md)',
        )
        .example(
          '$0 belief short.kpgn --as white --game 3 --show heatmap --out belief.svg',
          "where Black's pieces may be, as White knows game 3",
        )
        .example(
          '$0 belief short.kpgn --as black --out belief.png',
          "the same for White's pieces as Black knows game 1, as a PNG image",
        )
        .example('$0 view short.kpgn --as white --game 3 > view.kpgn', "White's view alone, as a file")
        .example(
          '$0 belief view.kpgn --mode sample -k 5 --seed 7 --show fens',
          'five random positions White cannot rule out',
        )
        .epilogue(EXIT_CODES_TEXT),
    ),
  handler: (argv: BeliefArgs) =>
    runCommand(async () => {
      const file = argv.file ?? '';
      const limit = parseCount('limit-positions', argv.limitPositions, 1, MAX_LIMIT_POSITIONS);
      const k = parseCount('k', argv.k, 1, MAX_LIMIT_POSITIONS);
      const seed = parseCount('seed', argv.seed, 0, 0x7fffffff);
      const time = parseTimeLimit('limit-time', argv.limitTime);
      const timeMs = time.ms;
      const work =
        argv.limitWork === undefined ? undefined : parseCount('limit-work', argv.limitWork, 1, Number.MAX_SAFE_INTEGER);
      const jobs = argv.jobs === undefined ? 1 : jobsOption(argv.jobs);
      const format = argv.out === undefined ? undefined : imageFormat(argv.out);
      if (argv.out !== undefined && existsSync(file) && sameFile(argv.out, file))
        throw fail('bad-out', { text: `--out ${argv.out} is the game file itself; write the image to another file` });
      const engine = createEngine(argv.backend, 2); // the estimators grow its arena as the run needs
      // the time limit covers reading the file too: the estimation has what is left of it
      const started = performance.now();
      const deadline =
        timeMs === undefined ? undefined : { at: started + timeMs, text: timeLimitText(timeMs, time.isDefault) };
      const { view, game } = viewInFile(engine, file, argv.as, argv.game, deadline);
      const timeLeft = timeMs === undefined ? undefined : Math.max(1, timeMs - (performance.now() - started));
      const request: Request = { mode: argv.mode, limit, k, seed, work, timeMs, timeIsDefault: time.isDefault };

      const progress = progressLine(`belief (${argv.mode})`);
      const limits = { positions: limit, work, timeMs: timeLeft };
      // the worker threads' walk is the Node edge's alternative to one thread's depth-first one
      const belief: Belief =
        argv.mode === 'dfs' && jobs > 1 && work === undefined
          ? parallelBelief(
              await estimateBeliefParallel(engine, view, {
                backend: argv.backend,
                jobs,
                limits: { positions: limit, timeMs: timeLeft },
              }),
            )
          : beliefOf(engine, view, {
              mode: argv.mode,
              limits,
              k,
              seed,
              onProgress: (found, w) =>
                progress.update(`${found} positions${argv.mode === 'bfs' ? ' in the layer' : ''}, work ${w}`),
            });
      const { result, mode, tracker: trackMode } = belief;
      const ms = result.ms;
      progress.done();

      const { outcome, handles } = result;
      const partial = outcome !== 'complete';
      const countKnown = outcome === 'complete' || outcome === 'inconsistent' || mode !== 'bfs'; // breadth-first stopped early has no partial result
      const enemy: 0 | 1 = view.as === 'white' ? 1 : 0;
      const wantHeatmap = argv.show === 'heatmap' || argv.out !== undefined || argv.json;
      const heatmap: Heatmap | undefined = wantHeatmap
        ? pieceHeatmap(
            (function* () {
              for (const h of handles) yield engine.setup(h).board;
            })(),
            enemy,
          )
        : undefined;
      const wantFens = argv.show === 'fens' || argv.show === 'boards';
      const positions = wantFens
        ? handles
            .map((h) => ({ fen: engine.fen(h), board: engine.setup(h).board }))
            .sort((a, b) => (a.fen < b.fen ? -1 : a.fen > b.fen ? 1 : 0))
        : [];
      const message =
        outcome === 'complete'
          ? undefined
          : outcome === 'inconsistent'
            ? inconsistentMessage(view, result.failedEvent, result.failedPly)
            : limitMessage(result, mode, request, view);

      if (argv.out !== undefined && heatmap) {
        const title = `${view.as === 'white' ? 'White' : 'Black'}'s belief: ${view.white} vs ${view.black}, game ${game}, after ${pliesBefore(view, view.events.length)} plies${partial ? ` (${outcome})` : ''}`;
        writeAtomically(argv.out, format === 'png' ? heatmapPng(heatmap, title) : heatmapSvg(heatmap, title));
      }

      if (argv.json) {
        const doc: Record<string, unknown> = {
          file,
          game,
          as: view.as,
          mode,
          outcome,
          complete: !partial,
          count: countKnown ? handles.length : null,
          work: result.work,
          ms: Math.round(ms * 1000) / 1000,
        };
        if (mode === 'sample') Object.assign(doc, { k, seed, ...result.sampler });
        if (mode === 'track') Object.assign(doc, { seed, tracker: trackMode });
        if (outcome === 'inconsistent')
          Object.assign(doc, { failedEvent: result.failedEvent, failedPly: result.failedPly });
        if (message !== undefined) doc.message = message;
        if (wantFens) doc.fens = positions.map((p) => p.fen);
        if (heatmap)
          doc.heatmap = { color: enemy === 0 ? 'white' : 'black', total: heatmap.total, counts: heatmap.counts };
        if (argv.out !== undefined) doc[format!] = argv.out;
        say(JSON.stringify(doc));
      } else {
        const what =
          mode === 'sample'
            ? `sample of ${k}, seed ${seed}; ${result.sampler?.descents ?? 0} descents, ${result.sampler?.restarts ?? 0} abandoned at their Luby cutoff`
            : mode === 'track'
              ? `track, ${trackMode === 'exact' ? 'the exact belief' : 'a pool of consistent positions, part of the belief'}`
              : mode;
        say(
          `positions: ${countKnown ? handles.length : 'unknown'}${partial && countKnown && outcome !== 'inconsistent' ? ' (partial)' : ''}`,
        );
        say(`outcome: ${outcome} (${what}; work ${result.work}, ${seconds(ms)})`);
        if (argv.show === 'fens') for (const p of positions) say(p.fen);
        if (argv.show === 'boards') positions.forEach((p, i) => say(`\n${i + 1}. ${p.fen}\n${boardText(p.board)}`));
        if (argv.show === 'heatmap' && heatmap) {
          say(`\n${enemy === 0 ? 'White' : 'Black'} pieces: positions (of ${heatmap.total}) with one on each square`);
          io.out(heatmapText(heatmap));
        }
        if (argv.out !== undefined) say(`heatmap written to ${argv.out}`);
      }
      if (message !== undefined) finishWith(outcome === 'inconsistent' ? EXIT.inconsistent : EXIT.limit, message);
    }),
};

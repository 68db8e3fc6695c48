// krieg solve [FILE | db:ID] --ply N [--algo NAME] [--positions FEN…] [--problem ID] [--as white|black]
//   [--game N] [--material-wins] [--limit-nodes N] [--limit-time S] [--memory MB]
//   [--strategy text|json] [--out FILE] [--json] [--backend wasm|js]
// krieg verify FILE STRATEGY [same problem options] [--json]
// The problem is a problems file (JSON, format krieg-problems), an instance of the problem
// database (db:ID, from --db FILE or the shipped one), a game file (a view, or a record and --as:
// the belief state at its end is estimated first), or FENs given with --positions.
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, withDbOption, runCommand, finishWith, progressLine, seconds, say, io } from './common';
import { parseCount, parseTimeLimit, timeLimitText, DEFAULT_LIMIT_SECONDS } from '../io/args';
import { existsSync } from 'node:fs';
import { readTextFile, writeAtomically, sameFile } from '../io/files';
import { withRuleOptions, rulesFromOptions } from './ruleOptions';
import {
  ALGORITHMS,
  ALGORITHM_ALIASES,
  DEFAULT_BELIEF_LIMIT,
  DEFAULT_MEMORY_BYTES,
  type Problem,
  type SolveResult,
} from '../solver/solve';
import { solveRequest, type ViewProblem } from '../solver/request';
import { loadProblem, loadProblemView, type ProblemRequest } from '../sources/problems.node';
import { scheduleText, algorithmChoice, AUTO, type AutoResult } from '../solver/auto';
import { strategyText, strategyToJson, strategyFromJson } from '../solver/strategy';
import { verifyStrategy, verdictText } from '../verify/verify';
import { tooDeep } from '../notation/recordJson';
import type { Side } from '../record/record';
import type { BackendName } from '../backends/node';
import { KriegError, fail, EXIT } from '../errors';

const DEFAULT_ALGORITHM = AUTO;
/** The most --memory: the core's arenas are typed arrays of at most 1 GiB each, and the largest takes half the budget. */
const MAX_MEMORY_MIB = 2048;

const EXIT_TEXT = `Exit codes: ${EXIT.ok} answered (proven or disproven: see the output), ${EXIT.limit} unknown (a node, time or memory limit was reached; statistics are printed), ${EXIT.inconsistent} the view is inconsistent, ${EXIT.badInput} bad input, ${EXIT.internal} internal error.`;

interface ProblemArgs {
  file?: string;
  positions?: string[];
  problem?: string;
  as?: Side;
  game?: string;
  ply?: string;
  materialWins?: boolean;
  limitBelief: string;
  backend: BackendName;
  db?: string;
  [rule: string]: unknown;
}

function withProblemOptions<T>(y: Argv<T>) {
  return withRuleOptions(
    withDbOption(y, 'for db:ID: the problem database file')
      .option('positions', {
        type: 'string',
        array: true,
        describe: 'the belief state as FENs (quote each), instead of a file; rules from --variant and the rule options',
      })
      .option('problem', {
        type: 'string',
        describe: 'in a problems file: the problem with this id (default: the first)',
      })
      .option('as', {
        choices: ['white', 'black'] as const,
        describe: 'in a game record: whose view (the belief at the end of the record is the problem)',
      })
      .option('game', { type: 'string', describe: 'in a game file: game N (1-based)', defaultDescription: '1' })
      .option('material-wins', {
        type: 'boolean',
        describe:
          "count Berkeley's known material wins against a bare king (Q, R, non-edge pawn, BB, BN guarded by the king) as mate",
      })
      .option('limit-belief', {
        type: 'string',
        default: String(DEFAULT_BELIEF_LIMIT),
        describe: 'for a game file: the most belief positions to accept',
      }),
  );
}

/** The problem request the options make (ply and limits parsed; rules only for --positions). */
function requestOf(argv: ProblemArgs, defaultPly: number | undefined): ProblemRequest {
  return {
    file: argv.file,
    positions: argv.positions,
    rules: argv.positions === undefined ? undefined : rulesFromOptions(argv),
    problem: argv.problem,
    as: argv.as,
    game: argv.game,
    ply: argv.ply === undefined ? undefined : parseCount('ply', argv.ply, 1, 99),
    defaultPly,
    materialWins: argv.materialWins,
    beliefLimit: parseCount('limit-belief', argv.limitBelief, 1, 1_000_000),
    db: argv.db,
  };
}

function statsText(r: SolveResult): string {
  const s = r.stats;
  const hits =
    (s.tableHits ? `, ${s.tableHits} position-table hits` : '') +
    (s.beliefTableHits ? `, ${s.beliefTableHits} belief-table hits` : '');
  return `${s.nodes} belief nodes, ${s.positions} positions generated${hits}, peak ${(s.peakBytes / 2 ** 20).toFixed(2)} MiB, ${seconds(s.ms)}`;
}

interface SolveArgs extends ProblemArgs {
  algo: string;
  limitNodes?: string;
  limitTime?: string;
  memory?: string;
  strategy: 'text' | 'json';
  out?: string;
  json: boolean;
  orderAttempts?: boolean;
  orderPositions?: boolean;
  positionTable?: boolean;
  beliefTable?: boolean;
  deepen?: boolean;
  interleave?: boolean;
}

export const solveCommand = {
  command: 'solve [file]',
  describe:
    'guaranteed checkmate: can the player to move force mate within N ply in every position he cannot rule out, whatever the opponent does?',
  builder: (y: Argv) =>
    withBackend(
      withProblemOptions(
        y
          .positional('file', {
            type: 'string',
            describe:
              'a problems file (JSON), db:ID (instance ID of the problem database, see --db), or a game file (KPGN/JSON view or record, or a ks-game save)',
          })
          .option('ply', {
            type: 'string',
            describe:
              "mate within this many plies of actual moves (both sides; Illegal retries do not count): 1, 3, 5 …; default: the problem's, else 3",
          })
          .option('algo', {
            type: 'string',
            default: DEFAULT_ALGORITHM,
            describe: `search algorithm: ${AUTO} (chosen from the problem's plies, belief size and material by a policy learned on the problem database; with --interleave, gl-dbu) or one of ${ALGORITHMS.join(', ')} (${Object.entries(
              ALGORITHM_ALIASES,
            )
              .map(([a, b]) => `${a} = ${b}`)
              .join(', ')})`,
          })
          .option('limit-nodes', {
            type: 'string',
            describe: `stop (answer unknown, exit ${EXIT.limit}) after this many belief-state nodes; for a game file the belief's estimation also stops after this much work (positions generated and tested)`,
          })
          .option('limit-time', {
            type: 'string',
            describe: `stop (answer unknown, exit ${EXIT.limit}) after this many seconds, the belief's estimation from a game file included; 0 for no limit`,
            defaultDescription: `${DEFAULT_LIMIT_SECONDS} for a game file, else none`,
          })
          .option('memory', {
            type: 'string',
            describe: `memory for the core's arenas, in MiB, 1 to ${MAX_MEMORY_MIB}: the search's and the belief's estimation from a game file (answer unknown when full)`,
            defaultDescription: String(DEFAULT_MEMORY_BYTES / 2 ** 20),
          })
          .option('strategy', {
            choices: ['text', 'json'] as const,
            default: 'text' as const,
            describe: "how to print a proof's strategy",
          })
          .option('out', {
            type: 'string',
            describe: 'write the strategy (JSON, for krieg verify) to this file, atomically',
          })
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print one JSON object: answer, statistics, strategy',
          })
          .option('interleave', {
            type: 'boolean',
            describe:
              "for a game file or db:ID (its stored view): stream the depth-first estimator's positions straight into the search (l-dub, l-dbu, gl-dbu), which may disprove before the belief state is complete",
          })
          .option('order-attempts', {
            type: 'boolean',
            group: 'Beyond the paper (never change an answer):',
            describe: 'try attempts that give check, then captures, first',
          })
          .option('order-positions', {
            type: 'boolean',
            group: 'Beyond the paper (never change an answer):',
            describe: 'incremental searches: take the position whose opponent king has most flight squares first',
          })
          .option('position-table', {
            type: 'boolean',
            group: 'Beyond the paper (never change an answer):',
            describe:
              'incremental searches: remember single positions with no mate within d plies; a node meeting one is disproved',
          })
          .option('belief-table', {
            type: 'boolean',
            group: 'Beyond the paper (never change an answer):',
            describe:
              'every search: remember belief states (position sets) with no mate within d plies; an OR node with the same set is disproved',
          })
          .option('deepen', {
            type: 'boolean',
            group: 'Beyond the paper (never change an answer):',
            describe: 'iterative deepening: 1, 3, 5 … plies up to --ply, stopping at the first proof',
          })
          .example(
            '$0 solve test/data/problems/hand.json --problem m3-rook-king-probe',
            'a problem from the shipped suite',
          )
          .example(
            '$0 solve --positions "7k/8/6K1/8/8/8/8/R7 w - - 0 1" "5k2/8/6K1/8/8/8/8/R7 w - - 0 1" --ply 3 --out s.json',
            'a belief state of two positions; the strategy saved for krieg verify',
          )
          .example(
            '$0 solve short.kpgn --as white --game 3 --ply 3 --algo pns',
            "White's belief at the end of game 3 (short.kpgn: see krieg belief --help)",
          )
          .example('$0 solve db:12 --algo gl-dbu', 'instance 12 of the problem database (krieg db list)')
          .epilogue(EXIT_TEXT),
      ),
    ),
  handler: (argv: SolveArgs) =>
    runCommand(async () => {
      const choice = algorithmChoice(argv.algo); // a bad name is refused before the problem is read
      if (argv.out !== undefined && argv.file !== undefined && existsSync(argv.file) && sameFile(argv.out, argv.file))
        throw fail('bad-out', {
          text: `--out ${argv.out} is the problem file itself; write the strategy to another file`,
        });
      const nodes =
        argv.limitNodes === undefined
          ? undefined
          : parseCount('limit-nodes', argv.limitNodes, 1, Number.MAX_SAFE_INTEGER);
      const started = performance.now();
      const time = parseTimeLimit('limit-time', argv.limitTime);
      const memoryBytes =
        argv.memory === undefined ? undefined : parseCount('memory', argv.memory, 1, MAX_MEMORY_MIB) * 2 ** 20;
      const switches = {
        orderAttempts: argv.orderAttempts,
        orderPositions: argv.orderPositions,
        positionTable: argv.positionTable,
        beliefTable: argv.beliefTable,
        deepen: argv.deepen,
      };
      const engine = createEngine(argv.backend, 2);
      const estimation = progressLine('solve: estimating the belief');
      const request: ProblemRequest = {
        ...requestOf(argv, 3),
        timeMs: time.ms,
        timeText: time.ms === undefined ? undefined : timeLimitText(time.ms, time.isDefault),
        work: nodes,
        memoryBytes: memoryBytes ?? DEFAULT_MEMORY_BYTES,
        onProgress: (found, work) => estimation.update(`${found} positions, work ${work}`),
      };
      // the limit covers the whole command; the default one only a game file's (estimated, then searched)
      let timeMs = time.ms;
      let target: Problem | ViewProblem;
      let source: string;
      if (argv.interleave) {
        const game = await loadProblemView(engine, request);
        target = { view: game.view, ply: request.ply ?? game.ply ?? 3, materialWins: argv.materialWins === true };
        source = game.source;
      } else {
        const loaded = await loadProblem(engine, request);
        estimation.done();
        ({ problem: target, source } = loaded);
        if (time.isDefault && !loaded.estimated) timeMs = undefined;
      }
      const progress = progressLine(`solve (${choice === AUTO && argv.interleave ? 'gl-dbu' : choice})`);
      const result = solveRequest(engine, target, {
        algorithm: argv.algo,
        interleave: argv.interleave,
        limits: { nodes, timeMs, memoryBytes },
        since: started,
        belief: { limit: request.beliefLimit },
        switches,
        onProgress: (s) => progress.update(`${s.nodes} nodes, ${s.positions} positions`),
      });
      progress.done();
      const { problem } = result;
      if ('view' in target)
        source = `${source}, ${target.view.as}'s belief streamed from the estimator (${result.positions} positions before the answer)`;
      const limitMessage =
        result.limit === 'nodes'
          ? `node limit of ${nodes} (--limit-nodes)`
          : result.limit === 'belief'
            ? `estimator's room (--limit-belief ${argv.limitBelief}, within --memory ${(memoryBytes ?? DEFAULT_MEMORY_BYTES) / 2 ** 20} MiB)`
            : result.limit === 'time'
              ? timeLimitText(timeMs ?? 0, time.isDefault)
              : `memory limit (--memory ${(memoryBytes ?? DEFAULT_MEMORY_BYTES) / 2 ** 20} MiB)`;
      const strategyDoc = result.strategy ? strategyToJson(result.strategy) : undefined;
      const chosen = (result as Partial<AutoResult>).auto;
      const searchText = chosen
        ? `${AUTO} (${scheduleText(chosen.schedule)}${chosen.probe ? `; the probe stopped after ${chosen.probe.nodes} nodes` : ''}), answered by ${result.algorithm}`
        : result.algorithm;
      if (argv.out !== undefined && strategyDoc) writeAtomically(argv.out, JSON.stringify(strategyDoc, null, 2) + '\n');
      if (argv.json) {
        say(
          JSON.stringify({
            source,
            ply: problem.ply,
            positions: result.positions,
            algorithm: result.algorithm,
            answer: result.answer,
            ...(chosen ? { auto: chosen } : {}),
            ...(result.limit ? { limit: result.limit } : {}),
            stats: { ...result.stats, ms: Math.round(result.stats.ms * 1000) / 1000 },
            ...(strategyDoc ? { strategy: strategyDoc } : {}),
          }),
        );
      } else {
        const side = result.strategy
          ? result.strategy.side === 'white'
            ? 'White'
            : 'Black'
          : 'view' in target
            ? target.view.as === 'black'
              ? 'Black'
              : 'White'
            : problem.positions[0].split(' ')[1] === 'b'
              ? 'Black'
              : 'White';
        const verdict =
          result.answer === 'proven'
            ? `${side} can force mate within ${problem.ply} ply`
            : result.answer === 'disproven'
              ? `${side} cannot force mate within ${problem.ply} ply`
              : `stopped by ${result.limit === 'time' ? '' : 'the '}${limitMessage}`;
        say(
          argv.interleave
            ? `problem: ${source}`
            : `problem: ${source}, ${problem.positions.length} positions, ${side} to move`,
        );
        say(`answer: ${result.answer} — ${verdict}`);
        say(`search: ${searchText}, ${statsText(result)}`);
        if (result.strategy) {
          if (argv.strategy === 'json') say(JSON.stringify(strategyDoc, null, 2));
          else io.out(`\n${strategyText(result.strategy)}`);
        }
        if (argv.out !== undefined && strategyDoc) say(`strategy written to ${argv.out}`);
      }
      if (result.answer === 'unknown') finishWith(EXIT.limit, `limit reached: ${limitMessage}; the answer is unknown`);
    }),
};

interface VerifyArgs extends ProblemArgs {
  strategyFile?: string;
  limitTime?: string;
  limitNodes?: string;
  json: boolean;
}

export const verifyCommand = {
  command: 'verify <file> <strategy-file>',
  describe:
    'check a strategy (JSON from krieg solve --out) against every position of a problem and every opponent reply, independently of the solver',
  builder: (y: Argv) =>
    withBackend(
      withProblemOptions(
        y
          .positional('file', {
            type: 'string',
            describe: 'the problem: a problems file, db:ID or a game file (as for solve); with --positions, give "-"',
          })
          .positional('strategy-file', { type: 'string', describe: 'the strategy, JSON' })
          .option('ply', { type: 'string', describe: "the ply limit to check against (default: the strategy's)" })
          .option('limit-time', {
            type: 'string',
            describe: `for a game file: stop estimating the belief after this many seconds (exit ${EXIT.limit}); 0 for no limit`,
            defaultDescription: String(DEFAULT_LIMIT_SECONDS),
          })
          .option('limit-nodes', {
            type: 'string',
            describe: `for a game file: stop estimating the belief after this much work, positions generated and tested (exit ${EXIT.limit})`,
          })
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print one JSON object: ok, and where it fails',
          })
          .example(
            '$0 verify - s.json --positions "7k/8/6K1/8/8/8/8/R7 w - - 0 1" "5k2/8/6K1/8/8/8/8/R7 w - - 0 1"',
            'the strategy krieg solve --positions … --out s.json wrote (see krieg solve --help)',
          )
          .epilogue(
            `Exit codes: ${EXIT.ok} the strategy mates everywhere within the limit, ${EXIT.verifyFailed} it fails somewhere (the first failing line is printed), ${EXIT.limit} the belief's estimation reached its time or node limit, ${EXIT.badInput} bad input, ${EXIT.internal} internal error.`,
          ),
      ),
    ),
  handler: (argv: VerifyArgs) =>
    runCommand(async () => {
      const strategyPath = argv.strategyFile ?? '';
      const text = readTextFile(strategyPath);
      let doc: unknown;
      // a strategy nests a few levels per ply (at most 99 plies): far deeper is damage, refused before parsing
      if (tooDeep(text, 1000) >= 0)
        throw fail('bad-strategy', { text: `${strategyPath}: nested deeper than 1000 levels; not a strategy` });
      try {
        doc = JSON.parse(text);
      } catch (error) {
        throw fail('bad-strategy', { text: `${strategyPath}: not JSON (${(error as Error).message})` });
      }
      let strategy;
      try {
        strategy = strategyFromJson(doc);
      } catch (error) {
        if (error instanceof KriegError) throw error.within(strategyPath);
        throw error;
      }
      const time = parseTimeLimit('limit-time', argv.limitTime);
      const work =
        argv.limitNodes === undefined
          ? undefined
          : parseCount('limit-nodes', argv.limitNodes, 1, Number.MAX_SAFE_INTEGER);
      const estimation = progressLine('verify: estimating the belief');
      const engine = createEngine(argv.backend, 2);
      const { problem, source } = await loadProblem(engine, {
        ...requestOf(argv, strategy.ply),
        timeMs: time.ms,
        timeText: time.ms === undefined ? undefined : timeLimitText(time.ms, time.isDefault),
        work,
        onProgress: (found, work) => estimation.update(`${found} positions, work ${work}`),
      });
      estimation.done();
      // every position as the engine (and so solve) reads it first: a refusal names the position
      problem.positions.forEach((fen, i) => {
        try {
          engine.setFen(0, fen);
        } catch (error) {
          if (error instanceof KriegError) throw error.within(`${source}: position ${i + 1}`);
          throw error;
        }
      });
      const verdict = verifyStrategy(problem, strategy);
      if (argv.json) say(JSON.stringify({ source, ply: problem.ply, positions: problem.positions.length, ...verdict }));
      else io.out(`problem: ${source}, ${problem.ply} ply\n${verdictText(verdict)}`);
      if (!verdict.ok) process.exitCode = EXIT.verifyFailed;
    }),
};

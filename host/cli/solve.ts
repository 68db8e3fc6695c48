// krieg solve [FILE | db:ID] --ply N [--algo NAME] [--positions FEN…] [--problem ID] [--as white|black]
//   [--game N] [--material-wins] [--limit-nodes N] [--limit-time S] [--memory MB]
//   [--strategy text|json] [--out FILE] [--json] [--backend wasm|js]
// krieg verify FILE STRATEGY [same problem options] [--json]
// The problem is a problems file (JSON, format krieg-problems), an instance of the problem
// database (db:ID, from --db FILE or the shipped one), a game file (a view, or a record and --as:
// the belief state at its end is estimated first), or FENs given with --positions.
import type { Argv } from 'yargs';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { createEngine } from '../node';
import type { Engine } from '../engine';
import { withBackend, runCommand, parseCount } from './common';
import { withRuleOptions, rulesFromOptions } from './ruleOptions';
import { readGames, viewOfGame, writeAtomically } from './gamesFile';
import {
  parseSeconds,
  progressLine,
  finishWith,
  seconds,
  inconsistentMessage,
  EXIT_INCONSISTENT,
  EXIT_LIMIT,
} from './belief';
import { estimateBelief } from '../belief/estimate';
import {
  solve,
  solveView,
  algorithmByName,
  ALGORITHMS,
  ALGORITHM_ALIASES,
  DEFAULT_MEMORY_BYTES,
  type Problem,
  type SolveResult,
  type ViewSolveResult,
} from '../solver/solve';
import { parseProblems, PROBLEMS_FORMAT } from '../solver/problemFile';
import { solveAuto, scheduleText, AUTO, type AutoResult } from '../solver/auto';
import { strategyText, strategyToJson, strategyFromJson } from '../solver/strategy';
import { DB_PREFIX, withDbOption, dbPath, withDb, instanceById, problemOfInstance, viewOfInstance } from './db';
import { verifyStrategy, verdictText } from '../verify/verify';
import type { Side, View } from '../referee/record';
import type { BackendName } from '../backends/node';
import { KriegError } from '../status';

export const EXIT_VERIFY_FAILED = 5;
const DEFAULT_ALGORITHM = AUTO;
const DEFAULT_BELIEF_LIMIT = 10_000;

const EXIT_TEXT =
  'Exit codes: 0 answered (proven or disproven: see the output), 4 unknown (a node, time or memory limit was reached; statistics are printed), 3 the view is inconsistent, 2 bad input, 1 internal error.';

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

function readProblemsFile(file: string): string | undefined {
  if (!existsSync(file) || !statSync(file).isFile()) throw new KriegError('no-file', `${file}: no such file`);
  const text = readFileSync(file, 'utf8');
  return new RegExp(`"format"\\s*:\\s*"${PROBLEMS_FORMAT}"`).test(text) ? text : undefined;
}

/** The problem the options name (ply: --ply, else the file's, else `defaultPly`). */
export async function problemFromArgs(
  argv: ProblemArgs,
  defaultPly: number | undefined,
  engine = createEngine(argv.backend, 2),
): Promise<{ problem: Problem; source: string }> {
  const ply = argv.ply === undefined ? undefined : parseCount('ply', argv.ply, 1, 99);
  const materialWins = argv.materialWins === true;
  const file = argv.file === '-' || argv.file === '' ? undefined : argv.file; // "-": the problem is given by --positions
  const need = (p: number | undefined) =>
    p ??
    defaultPly ??
    (() => {
      throw new KriegError('missing-ply', 'say --ply N (plies of actual moves: 3 = mate in 2 moves)');
    })();
  if (argv.positions !== undefined) {
    if (file !== undefined) throw new KriegError('bad-arguments', 'give either a FILE or --positions, not both');
    if (argv.positions.length === 0) throw new KriegError('empty-problem', '--positions needs at least one FEN');
    return {
      problem: { rules: rulesFromOptions(argv), positions: argv.positions, ply: need(ply), materialWins },
      source: '--positions',
    };
  }
  if (file === undefined)
    throw new KriegError(
      'missing-problem',
      'give a problem FILE (problems, view or record), db:ID or --positions FEN…',
    );
  // an instance of the database is a problems file of one problem
  const path = file.startsWith(DB_PREFIX) ? dbPath(argv.db) : undefined;
  const instance =
    path === undefined
      ? undefined
      : await withDb(path, (db) => problemOfInstance(db, instanceById(db, file.slice(DB_PREFIX.length))));
  const problemsText = instance ? undefined : readProblemsFile(file);
  if (instance || problemsText !== undefined) {
    const problems = instance ? [instance] : parseProblems(problemsText!, file);
    const chosen = argv.problem === undefined ? problems[0] : problems.find((p) => p.id === argv.problem);
    if (!chosen)
      throw new KriegError(
        'no-problem',
        `${file}: no problem with id '${argv.problem}' (ids: ${problems
          .slice(0, 10)
          .map((p) => p.id)
          .join(', ')}${problems.length > 10 ? ', …' : ''})`,
      );
    const source = instance
      ? `${path}, instance ${chosen.id.slice(DB_PREFIX.length)} (${chosen.class})`
      : `${file}, problem ${chosen.id}`;
    return {
      problem: {
        rules: chosen.rules,
        positions: chosen.positions,
        ply: ply ?? chosen.ply,
        materialWins: materialWins || chosen.materialWins === true,
      },
      source,
    };
  }
  if (argv.problem !== undefined)
    throw new KriegError('bad-arguments', `${file} is a game file; --problem is for problems files`);
  const { view, source } = gameView(argv, file, engine);
  const limit = parseCount('limit-belief', argv.limitBelief, 1, 1_000_000);
  engine.resize(engine.core.exports.storeBase() + limit + 2);
  const result = estimateBelief(engine, view, 'dfs', { positions: limit + 1 });
  if (result.outcome === 'inconsistent') {
    const error = new KriegError('inconsistent', inconsistentMessage(view, result.failedEvent, result.failedPly));
    (error as KriegError & { exitCode?: number }).exitCode = EXIT_INCONSISTENT;
    throw error;
  }
  if (result.outcome !== 'complete')
    throw new KriegError(
      'belief-too-large',
      `${file}: ${view.as}'s belief has more than ${limit} positions (--limit-belief)`,
    );
  const positions = result.handles.map((h) => engine.fen(h));
  const toMove = positions.length && engine.setup(result.handles[0]).side === 0 ? 'white' : 'black';
  if (toMove !== view.as)
    throw new KriegError(
      'not-to-move',
      `${file}: the view ends with ${toMove} to move; a problem is asked when ${view.as} is to move`,
    );
  return {
    problem: { rules: view.rules, positions, ply: need(ply), materialWins },
    source: `${source}, ${view.as}'s belief (${positions.length} positions)`,
  };
}

/** The view in game --game of a game file (a record is replayed and viewed --as). */
function gameView(argv: ProblemArgs, file: string, engine: Engine): { view: View; source: string } {
  const games = readGames(file);
  const n = argv.game === undefined ? 1 : parseCount('game', argv.game, 1, games.length);
  return { view: viewOfGame(engine, file, games[n - 1], n, argv.as), source: `${file}, game ${n}` };
}

/** The view for --interleave: of a game file, or the stored view of a database instance (with its ply). */
async function interleavedView(
  argv: ProblemArgs,
  engine: Engine,
): Promise<{ view: View; source: string; ply?: number }> {
  const file = argv.file === '-' || argv.file === '' ? undefined : argv.file;
  if (file?.startsWith(DB_PREFIX)) {
    const path = dbPath(argv.db);
    return withDb(path, (db) => {
      const row = instanceById(db, file.slice(DB_PREFIX.length));
      return { view: viewOfInstance(db, row), source: `${path}, instance ${row.id} (${row.cls})`, ply: row.ply };
    });
  }
  if (file === undefined || argv.positions !== undefined || readProblemsFile(file) !== undefined)
    throw new KriegError('bad-arguments', '--interleave needs a game file (a view, or a record and --as) or db:ID');
  return gameView(argv, file, engine);
}

/** Runs a body whose errors may carry their own exit code (an inconsistent view). */
function run(body: () => void | Promise<void>): Promise<void> {
  return runCommand(async () => {
    try {
      await body();
    } catch (error) {
      const code = (error as { exitCode?: number }).exitCode;
      if (error instanceof KriegError && code !== undefined) {
        finishWith(code, error.message);
        return;
      }
      throw error;
    }
  });
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
            describe: 'stop (answer unknown) after this many belief-state nodes',
          })
          .option('limit-time', { type: 'string', describe: 'stop (answer unknown) after this many seconds' })
          .option('memory', {
            type: 'string',
            describe: `memory for the search's arenas, in MiB (answer unknown when full)`,
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
          .example('$0 solve games.kpgn --as white --game 2 --ply 3 --algo pns', "White's belief at the end of game 2")
          .example('$0 solve db:12 --algo gl-dbu', 'instance 12 of the problem database (krieg db list)')
          .epilogue(EXIT_TEXT),
      ),
    ),
  handler: (argv: SolveArgs) =>
    run(async () => {
      const auto = argv.algo === AUTO;
      // interleaving streams the estimator into a directional incremental search: gl-dbu, the paper's
      const algorithm = auto ? (argv.interleave ? 'gl-dbu' : undefined) : algorithmByName(argv.algo);
      const nodes =
        argv.limitNodes === undefined
          ? undefined
          : parseCount('limit-nodes', argv.limitNodes, 1, Number.MAX_SAFE_INTEGER);
      const timeMs = parseSeconds('limit-time', argv.limitTime);
      const memoryBytes = argv.memory === undefined ? undefined : parseCount('memory', argv.memory, 1, 3072) * 2 ** 20;
      const switches = {
        orderAttempts: argv.orderAttempts,
        orderPositions: argv.orderPositions,
        positionTable: argv.positionTable,
        beliefTable: argv.beliefTable,
        deepen: argv.deepen,
      };
      const engine = createEngine(argv.backend, 2);
      let problem: Problem;
      let source: string;
      let result: SolveResult;
      if (argv.interleave) {
        const game = await interleavedView(argv, engine);
        problem = {
          rules: game.view.rules,
          positions: [],
          ply: argv.ply === undefined ? (game.ply ?? 3) : parseCount('ply', argv.ply, 1, 99),
          materialWins: argv.materialWins === true,
        };
        const solved = solveView(
          engine,
          game.view,
          problem.ply,
          algorithm!,
          {
            interleave: true,
            materialWins: problem.materialWins,
            beliefLimit: parseCount('limit-belief', argv.limitBelief, 1, 1_000_000),
          },
          { nodes, timeMs, memoryBytes },
          switches,
        );
        source = `${game.source}, ${game.view.as}'s belief streamed from the estimator (${solved.beliefPositions} positions before the answer)`;
        result = solved;
      } else {
        ({ problem, source } = await problemFromArgs(argv, 3, engine));
        const progress = progressLine(`solve (${algorithm ?? AUTO})`);
        const onProgress = (s: SolveResult['stats']) => progress.update(`${s.nodes} nodes, ${s.positions} positions`);
        result =
          algorithm === undefined
            ? solveAuto(engine, problem, { nodes, timeMs, memoryBytes }, onProgress, switches)
            : solve(engine, problem, algorithm, { nodes, timeMs, memoryBytes }, onProgress, switches);
        progress.done();
      }
      const limitMessage =
        result.limit === 'nodes'
          ? `node limit of ${nodes} (--limit-nodes)`
          : result.limit === 'belief'
            ? "estimator's room (--limit-belief)"
            : result.limit === 'time'
              ? `time limit of ${seconds(timeMs ?? 0)} (--limit-time)`
              : `memory limit (--memory ${(memoryBytes ?? DEFAULT_MEMORY_BYTES) / 2 ** 20} MiB)`;
      const strategyDoc = result.strategy ? strategyToJson(result.strategy) : undefined;
      const chosen = (result as Partial<AutoResult>).auto;
      const searchText = chosen
        ? `${AUTO} (${scheduleText(chosen.schedule)}${chosen.probe ? `; the probe stopped after ${chosen.probe.nodes} nodes` : ''}), answered by ${result.algorithm}`
        : result.algorithm;
      if (argv.out !== undefined && strategyDoc) writeAtomically(argv.out, JSON.stringify(strategyDoc, null, 2) + '\n');
      if (argv.json) {
        console.log(
          JSON.stringify({
            source,
            ply: problem.ply,
            positions: argv.interleave ? (result as ViewSolveResult).beliefPositions : problem.positions.length,
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
          : argv.interleave
            ? argv.as === 'black'
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
              : `stopped by the ${limitMessage}`;
        console.log(
          argv.interleave
            ? `problem: ${source}`
            : `problem: ${source}, ${problem.positions.length} positions, ${side} to move`,
        );
        console.log(`answer: ${result.answer} — ${verdict}`);
        console.log(`search: ${searchText}, ${statsText(result)}`);
        if (result.strategy) {
          if (argv.strategy === 'json') console.log(JSON.stringify(strategyDoc, null, 2));
          else process.stdout.write(`\n${strategyText(result.strategy)}`);
        }
        if (argv.out !== undefined && strategyDoc) console.log(`strategy written to ${argv.out}`);
      }
      if (result.answer === 'unknown') finishWith(EXIT_LIMIT, `limit reached: ${limitMessage}; the answer is unknown`);
    }),
};

interface VerifyArgs extends ProblemArgs {
  strategyFile?: string;
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
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print one JSON object: ok, and where it fails',
          })
          .epilogue(
            `Exit codes: 0 the strategy mates everywhere within the limit, ${EXIT_VERIFY_FAILED} it fails somewhere (the first failing line is printed), 2 bad input, 1 internal error.`,
          ),
      ),
    ),
  handler: (argv: VerifyArgs) =>
    run(async () => {
      const strategyPath = argv.strategyFile ?? '';
      if (!existsSync(strategyPath) || !statSync(strategyPath).isFile())
        throw new KriegError('no-file', `${strategyPath}: no such file`);
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(strategyPath, 'utf8'));
      } catch (error) {
        throw new KriegError('bad-strategy', `${strategyPath}: not JSON (${(error as Error).message})`);
      }
      let strategy;
      try {
        strategy = strategyFromJson(doc);
      } catch (error) {
        if (error instanceof KriegError) throw new KriegError(error.code, `${strategyPath}: ${error.message}`);
        throw error;
      }
      const { problem, source } = await problemFromArgs(argv, strategy.ply);
      const verdict = verifyStrategy(problem, strategy);
      if (argv.json)
        console.log(JSON.stringify({ source, ply: problem.ply, positions: problem.positions.length, ...verdict }));
      else process.stdout.write(`problem: ${source}, ${problem.ply} ply\n${verdictText(verdict)}`);
      if (!verdict.ok) process.exitCode = EXIT_VERIFY_FAILED;
    }),
};

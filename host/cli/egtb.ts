// krieg egtb build|probe|stats ENDING: Kriegspiel endgame tablebases (issue #35; docs/egtb.md).
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { runCommand, say, io, progressLine, showProgress, withBackend, seconds } from './common';
import { withRuleOptions, rulesFromOptions } from './ruleOptions';
import { parseCount } from '../io/args';
import { EXIT, fail } from '../errors';
import { makeUci } from '../notation/move';
import { MAX_JOBS } from '../pool/pool';
import { EGTB_ENDINGS, graphLog2Of, egtbProbe, type EgtbEnding } from '../core/egtb';
import { EGTB_TABLES, egtbStats, egtbTableName, egtbTableRules } from '../players/egtb';
import { egtbDir, egtbPath, loadTable, readTable } from '../players/egtbFile.node';
import { buildTables, checkRequest, DEFAULT_LOG2, type TableBuilt, type TableRequest } from '../players/egtbBuild.node';
import type { BackendName } from '../backends/node';
import { egtbStrategy } from '../players/egtbStrategy';
import { strategyToJson } from '../solver/strategy';
import { writeAtomically } from '../io/files';
import { viewInFile } from '../sources/problems.node';
import { beliefOf } from '../belief/request';
import { DEFAULT_LIMIT_POSITIONS } from '../belief/estimate';
import type { Side } from '../record/record';

interface EgtbArgs {
  action?: string;
  ending?: string;
  dir?: string;
  log2?: string;
  graphLog2?: string;
  fen?: string;
  squares?: string;
  strategy?: string;
  view?: string;
  as?: Side;
  game?: string;
  tables?: string;
  jobs?: string;
  restart: boolean;
  checkpoint?: string;
  json: boolean;
  backend: BackendName;
  [flag: string]: unknown;
}

function endingOf(name: string | undefined): EgtbEnding {
  const key = (name ?? '').toLowerCase();
  if (!(key in EGTB_ENDINGS)) throw fail('bad-egtb-ending', { name: name ?? '' });
  return key as EgtbEnding;
}

const square = (name: string): number => {
  const m = /^([a-h])([1-8])$/.exec(name.trim());
  if (!m) throw fail('bad-arguments', { text: `--squares: not a square: '${name}'` });
  return m[1].charCodeAt(0) - 97 + 8 * (Number(m[2]) - 1);
};

/** build's endings: `all` (the largest first, for --jobs) or a comma-separated list. */
function endingsOf(name: string | undefined): EgtbEnding[] {
  if ((name ?? '').toLowerCase() === 'all') return ['kbnk', 'kbbk', 'kqk', 'krk'];
  return [...new Set((name ?? '').split(',').map(endingOf))];
}

/** build's tables: `all`, a comma-separated list, or (none given) the one the rules use. */
function tablesOf(names: string | undefined, rulesTable: string): string[] {
  if (names === undefined) return [rulesTable];
  if (names === 'all') return [...EGTB_TABLES];
  return [...new Set(names.split(',').map((name) => (egtbTableRules(name), name)))];
}

/** One line on a table built. */
function builtLine(built: TableBuilt): string {
  const resumed = built.resumed
    ? `, resumed from ${built.resumed.at.level === 0 ? 'the enumeration' : `mate in ${built.resumed.at.level}`} (${built.seconds} s in all)`
    : '';
  return `${built.ending} (${built.table}): ${built.states} states, ${built.starts} starts, longest mate ${built.longest} moves, built in ${seconds(built.ms)}${resumed} (the graph held ${built.graphStates} states in ${built.edges} words)`;
}

export const egtbCommand = {
  command: 'egtb <action> <ending>',
  describe: 'Kriegspiel endgame tablebases against a lone king: build, probe, stats (docs/egtb.md)',
  builder: (y: Argv) =>
    withRuleOptions(
      withBackend(
        y
          .positional('action', { choices: ['build', 'probe', 'stats'], describe: 'what to do' })
          .positional('ending', {
            type: 'string',
            describe: 'krk, kqk, kbbk or kbnk (build: also a comma-separated list, or all)',
          })
          .option('dir', {
            type: 'string',
            describe: 'the tablebase directory',
            defaultDescription: '$KRIEG_EGTB_DIR or .cache/egtb',
          })
          .option('log2', {
            type: 'string',
            describe: 'build: room for 2^N states',
          })
          .option('graph-log2', {
            type: 'string',
            describe:
              "build: room for 2^N words of the build's graph (0: none), the first states' attempts; each sweep recomputes the others'",
            defaultDescription: 'log2 + 5, at most 28 (1 GB)',
          })
          .option('tables', {
            type: 'string',
            describe:
              "build: these tables (dirs-draw, dirs-loss, plain-draw, plain-loss, comma-separated, or all) instead of the rules' one",
          })
          .option('jobs', {
            type: 'string',
            describe: `build: tables built at once, each on a worker thread with its own core (1 to ${MAX_JOBS}; each takes its table's memory: up to 2.7 GB)`,
            defaultDescription: '1',
          })
          .option('restart', {
            type: 'boolean',
            default: false,
            describe:
              "build: start afresh, removing a table's checkpoint (D/ENDING-TABLE.partial) instead of resuming it",
          })
          .option('checkpoint', {
            type: 'string',
            describe:
              "build: seconds at least between checkpoints (and 20 times the last one's writing time; one is also written at the enumeration's end), or off",
            defaultDescription: '60',
          })
          .option('fen', {
            type: 'string',
            describe:
              "probe: the attacker's men, the attacker to move (the lone king's square is ignored with --squares)",
          })
          .option('squares', {
            type: 'string',
            describe:
              "probe: the lone king's possible squares, comma-separated, or 'anywhere' (default: the FEN's square)",
          })
          .option('view', {
            type: 'string',
            describe:
              "probe: a KPGN game file instead of --fen: the king's squares from the exact belief at the end of the attacker's view (the attacker to move)",
          })
          .option('as', {
            choices: ['white', 'black'] as const,
            describe: 'probe --view: whose view (a full game record)',
          })
          .option('game', { type: 'string', describe: 'probe --view: which game of the file (default: the first)' })
          .option('strategy', {
            type: 'string',
            describe:
              "probe: write the table's strategy from the state to FILE as krieg-strategy JSON (krieg verify reads it; small states: one node per line)",
          })
          .option('json', { type: 'boolean', default: false, describe: 'print JSON' })
          .example(
            '$0 egtb build krk',
            'build the K+R v K table of the Berkeley rules (about a minute; run again after a kill, it resumes)',
          )
          .example('$0 egtb build all --tables all --jobs 2', 'every table of every ending, two at a time')
          .example(
            '$0 egtb probe krk --fen "8/8/1K6/8/7k/8/8/3R4 w - - 0 1" --squares a8,c8',
            'mate in 2: the value and an attempt',
          )
          .example(
            '$0 egtb probe krk --fen "8/8/1K6/8/7k/8/8/3R4 w - - 0 1" --squares a8,c8 --strategy s.json',
            'and its strategy as a tree, for krieg verify',
          )
          .example('$0 egtb stats krk', 'states by value, the longest mate and its starts')
          .epilogue(
            `Rule sets that announce the same to the attacker share a table (docs/egtb.md): every preset but rand shares one. Exit codes: ${EXIT.ok} done, ${EXIT.badInput} bad input (or no table built), ${EXIT.internal} internal error.`,
          ),
      ),
    ),
  handler: (argv: EgtbArgs) =>
    runCommand(async () => {
      const rules = rulesFromOptions(argv);
      const table = egtbTableName(rules);
      if (argv.action === 'build') {
        const dir = argv.dir ?? egtbDir();
        const checkpointSeconds =
          argv.checkpoint === 'off' ? -1 : parseCount('checkpoint', argv.checkpoint ?? 60, 1, 86_400);
        const jobs = parseCount('jobs', argv.jobs ?? 1, 1, MAX_JOBS);
        const requests: TableRequest[] = [];
        for (const ending of endingsOf(argv.ending))
          for (const name of tablesOf(argv.tables, table)) {
            const log2 = parseCount('log2', argv.log2 ?? DEFAULT_LOG2[ending], 8, 25);
            const graphLog2 = parseCount('graph-log2', argv.graphLog2 ?? graphLog2Of(log2), 0, 28);
            const request = { ending, table: name, dir, backend: argv.backend, log2, graphLog2, checkpointSeconds };
            requests.push({ ...request, restart: argv.restart });
            if (!argv.restart) checkRequest(request); // a checkpoint of another build: refused before any work
          }
        const progress = progressLine('egtb build');
        const latest = new Map<string, string>();
        await buildTables(
          requests,
          jobs,
          (built) => {
            say(builtLine(built));
            say(`written ${built.path} (${(built.bytes / 1e6).toFixed(2)} MB)`);
          },
          {
            progress: (key, text) => {
              latest.set(key, text);
              progress.update([...latest].map(([k, t]) => `${k}: ${t}`).join('; '));
            },
            note: (text) => {
              if (showProgress()) io.err(`${process.stderr.isTTY ? '\r\x1b[K' : ''}krieg egtb build: ${text}\n`);
            },
          },
        );
        progress.done();
        return;
      }
      const ending = endingOf(argv.ending);
      const path = egtbPath(argv.dir ?? egtbDir(), ending, table);
      if (argv.action === 'stats') {
        const { header, entries } = readTable(path, ending, table);
        const stats = egtbStats(header, entries);
        if (argv.json) {
          say(JSON.stringify(stats, null, 2));
          return;
        }
        say(
          `${ending} (${table}): ${stats.states} states, ${stats.byValue[0]} with no forced mate; longest mate ${stats.longest} moves`,
        );
        say(`value  states  starts`);
        for (let n = 1; n < stats.byValue.length; n++)
          say(
            `${String(n).padStart(5)}  ${String(stats.byValue[n]).padStart(6)}  ${String(stats.startsByValue[n] ?? 0).padStart(6)}`,
          );
        say(`  none  ${String(stats.byValue[0]).padStart(6)}  ${String(stats.startsByValue[0] ?? 0).padStart(6)}`);
        for (const start of stats.longestStarts)
          say(`longest from a start: mate in ${start.value}: ${start.state} (${start.fen})`);
        return;
      }
      // probe
      const engine = createEngine(argv.backend, 16);
      let probeRules = rules;
      let squares: number[] | 'anywhere';
      if (argv.view !== undefined) {
        // the belief first: the estimators grow the arena, whose top records the table then takes
        const { view } = viewInFile(engine, argv.view, argv.as, argv.game);
        probeRules = view.rules;
        const belief = beliefOf(engine, view, {
          mode: 'exact-or-track',
          limits: { positions: DEFAULT_LIMIT_POSITIONS },
        });
        const handles = belief.result.handles;
        if (!belief.exact || handles.length === 0)
          throw fail('bad-arguments', {
            text: `--view: the attacker's belief is not known exactly (${belief.result.outcome}, ${handles.length} positions)`,
          });
        const setup = engine.setup(handles[0]);
        const king = setup.side === 0 ? 14 : 6;
        squares = [...new Set(handles.map((h) => engine.setup(h).board.indexOf(king)))].sort((a, b) => a - b);
        engine.setSetup(0, setup);
      } else {
        if (!argv.fen) throw fail('bad-arguments', { text: 'egtb probe needs --fen or --view' });
        engine.setFen(0, argv.fen);
        if (argv.squares === 'anywhere') squares = 'anywhere';
        else if (argv.squares) squares = argv.squares.split(',').map(square);
        else {
          const setup = engine.setup(0);
          squares = [setup.board.indexOf(setup.side === 0 ? 14 : 6)];
        }
      }
      engine.setRules(probeRules);
      const probeTable = egtbTableName(probeRules);
      loadTable(engine, egtbPath(argv.dir ?? egtbDir(), ending, probeTable), ending, probeTable);
      const probe = egtbProbe(engine, 0, squares);
      if (argv.strategy !== undefined) {
        if (squares === 'anywhere') throw fail('bad-arguments', { text: "--strategy needs the king's squares" });
        const referee = createEngine(argv.backend, 16);
        referee.setRules(probeRules);
        const strategy = egtbStrategy(engine, referee, probeRules, 0, squares, 1);
        writeAtomically(argv.strategy, `${JSON.stringify(strategyToJson(strategy))}\n`);
      }
      const result = {
        value: probe.value,
        attempt: probe.attempt < 0 ? null : makeUci(probe.attempt),
        inTable: probe.stored >= 0,
        bound: probe.bound,
      };
      if (argv.json) say(JSON.stringify(result));
      else if (probe.value === 0)
        say(result.inTable ? 'no forced mate' : 'no forced mate known (the state is not in the table)');
      else
        say(
          `mate in ${probe.bound ? 'at most ' : ''}${probe.value} (attacker moves, the mating move included): ${result.attempt}${
            probe.bound ? " (the state is not in the table: the king-anywhere state's strategy)" : ''
          }`,
        );
    }),
};

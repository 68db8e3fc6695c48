// krieg play --white random --black random --games N --seed S --variant V --out FILE
import type { Argv } from 'yargs';
import { createEngine } from '../node';
import { withBackend, runCommand, say, io, progressBar, finishWith } from './common';
import { parseCount } from '../io/args';
import { withRuleOptions, rulesFromOptions } from './ruleOptions';
import { FORMATS, formatOf, type Format } from '../io/gamesFile';
import { GamesLog } from '../io/gamesLog';
import { randomGame, seededRandom } from '../referee/game';
import { GameSession } from '../referee/session';
import { runGame } from '../players/game';
import { randomPlayerOn } from '../players/random';
import type { BackendName } from '../backends/node';
import type { Engine } from '../engine';
import { KriegError, fail, EXIT } from '../errors';
import { parsePlayerSpec } from '../players/registry';
import { withBudgetOptions, budgetFromOptions, playersDescription } from './playerOptions';
import { playWithPlayers } from '../players/play.node';
import { terminalLines } from '../players/human.node';
import { matchKey } from '../players/match.node';

export const playCommand = {
  command: 'play',
  describe:
    'play games through the referee between two programs, or yourself against one (human: you type the moves), and save their full records',
  builder: (y: Argv) =>
    withRuleOptions(
      withBackend(
        withBudgetOptions(
          y
            .usage(`$0 play [options]\n\nPlayers (name, or name:option=value,…):\n${playersDescription(true)}`)
            .option('white', { type: 'string', default: 'random', describe: "White's player (see the list above)" })
            .option('black', { type: 'string', default: 'random', describe: "Black's player" })
            .option('games', { type: 'string', default: '1', describe: 'number of games' })
            .option('seed', {
              type: 'string',
              default: '1',
              describe: 'seed of game 1; game i uses seed + i - 1, so any game can be replayed alone',
            })
            .option('max-plies', {
              type: 'string',
              default: '400',
              describe: 'stop a game unfinished (*) after this many plies',
            })
            .option('fen', { type: 'string', describe: 'start position (default: the initial position)' })
            .option('out', {
              type: 'string',
              // required, but checked in the handler after every other option (one round trip)
              describe:
                'file to write, game by game (.json for JSON, otherwise KPGN); an existing file of the same run (players and options) is resumed [required]',
            })
            .option('format', { choices: FORMATS, describe: 'output notation (default: from the file name)' })
            .option('host-players', {
              type: 'boolean',
              default: false,
              describe:
                "random against random: run the core's random players on the host instead of in the core (same rules, different random stream)",
            })
            .example(
              '$0 play --games 100 --seed 7 --variant wild16 --out games.kpgn',
              '100 random games under ICC wild 16 rules',
            )
            .example(
              '$0 play --white human --black aosp --out mine.kpgn',
              "you against Parker et al.'s AOSP, at the terminal",
            )
            .epilogue(
              `At the terminal (human): type attempts in UCI (e2e4); help lists the commands: moves, board, belief (where the opponent's men may stand), any, resign (a loss), quit. quit, Ctrl-D (end of input) and Ctrl-C stop the game: it is saved unfinished ([Result "*"]) with the games before it. Exit codes: ${EXIT.ok} complete, ${EXIT.stopped} a person stopped the game (saved unfinished), ${EXIT.badInput} bad input, ${EXIT.internal} internal error.`,
            )
            .example(
              '$0 play --variant berkeley --no-castling --pawn-tries squares --out g.json',
              'a rule set adjusted flag by flag',
            ),
        ),
      ),
    ),
  handler: (argv: Record<string, unknown> & { backend: BackendName; out?: string; format?: Format }) =>
    runCommand(async () => {
      const games = parseCount('games', argv.games as string, 1, 1_000_000);
      const seed = parseCount('seed', argv.seed as string, 0, 0x7fffffff);
      const maxPlies = parseCount('max-plies', argv.maxPlies as string, 1, 4000);
      const rules = rulesFromOptions(argv);
      const white = parsePlayerSpec(String(argv.white));
      const black = parsePlayerSpec(String(argv.black));
      const budget = budgetFromOptions(argv);
      const engine = createEngine(argv.backend);
      engine.setRules(rules);
      const start = argv.fen as string | undefined;
      if (start) {
        // validated before any game is played
        try {
          engine.setFen(0, start);
        } catch (error) {
          if (error instanceof KriegError) throw error.within('--fen');
          throw error;
        }
      }
      // every other option checked first: one run says all that is wrong with them
      if (argv.out === undefined || argv.out === '') throw fail('missing-option', { command: 'play', option: 'out' });
      const out = argv.out;
      const programs = white.name !== 'random' || black.name !== 'random';
      // the games go to the file one by one and a run stopped at any moment resumes (host/io/gamesLog.ts, as
      // krieg match): each carries the run's key in [Play], with everything that decides the games but their number
      const key =
        matchKey({ players: [white, black], games, seed, rules, maxPlies, backend: argv.backend, ...budget, start }) +
        (programs ? '' : argv.hostPlayers ? '; random players on the host' : '; random players in the core');
      const log = new GamesLog(
        out,
        { key, tag: 'Play', noun: 'run of krieg play' },
        games,
        formatOf(out, argv.format),
        (record) => (record.tags.Termination ?? '').startsWith('unfinished: the game was stopped'), // played again
      );
      const first = log.resumed + 1;
      if (programs) {
        // programs or a person: the players of host/players, each on an engine of its own
        // a person reads the referee's answers where the command writes, and types on standard input
        const human = white.name === 'human' || black.name === 'human';
        const lines = human ? terminalLines() : undefined;
        try {
          const run = await playWithPlayers(
            { white, black },
            {
              games,
              seed,
              maxPlies,
              rules,
              budget,
              backend: argv.backend,
              start,
              tags: { Play: key },
              first,
              onGame: (record) => log.append(record),
              ...(lines ? { io: { readLine: () => lines.readLine(), write: (text: string) => io.out(text) } } : {}),
            },
          );
          if (run.stopped) {
            log.append(run.stopped.record);
            log.flush();
            const finished = run.stopped.game - 1;
            finishWith(
              EXIT.stopped,
              `game ${run.stopped.game} stopped (${STOPPED_HOW[run.stopped.how]}): saved unfinished ([Result "*"]) to ${out}${finished ? ` after the ${finished} game${finished === 1 ? '' : 's'} before it` : ''}; the same command plays it again from its start`,
            );
            return;
          }
        } finally {
          lines?.close();
        }
      } else {
        const bar = progressBar('play', 'playing {bar} {value}/{total} games | {rate} games/s | eta {eta}s');
        bar.start(games, first - 1, { rate: '0' });
        const started = performance.now();
        for (let i = first - 1; i < games; i++) {
          const options = { maxPlies, start, tags: { Event: 'krieg play', Round: String(i + 1), Play: key } };
          const record = argv.hostPlayers
            ? hostRandomGame(engine, seed + i, options)
            : randomGame(engine, seed + i, options);
          log.append(record);
          bar.update(i + 1, { rate: ((i + 2 - first) / ((performance.now() - started) / 1000)).toFixed(0) });
        }
        bar.stop();
      }
      log.flush();
      if (log.records.length === 0) throw fail('no-games');
      const tally: Record<string, number> = {};
      for (const record of log.records) tally[record.result] = (tally[record.result] ?? 0) + 1;
      say(
        `${games} game${games === 1 ? '' : 's'} written to ${out}${log.resumed ? ` (${log.resumed} resumed from the file)` : ''}: ${Object.entries(
          tally,
        )
          .map(([r, n]) => `${r} ×${n}`)
          .join(', ')}`,
      );
    }),
};

/**
 * Random against random on the host (--host-players): the blind random player on both sides, both
 * drawing from the game's one stream; the record as randomGame makes it (Seed first).
 */
function hostRandomGame(
  engine: Engine,
  seed: number,
  options: { maxPlies: number; start?: string; tags: Record<string, string> },
) {
  const names = { white: 'random', black: 'random' };
  const session = new GameSession(engine, { ...options, names, tags: { Seed: String(seed), ...options.tags } });
  const player = randomPlayerOn(seededRandom(seed));
  return runGame(session, { white: player, black: player });
}

const STOPPED_HOW = { quit: 'quit', eof: 'the input ended', interrupt: 'Ctrl-C', resign: 'resigned' } as const;

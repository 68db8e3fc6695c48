// krieg play --white random --black random --games N --seed S --variant V --out FILE
import type { Argv } from 'yargs';
import cliProgress from 'cli-progress';
import { createEngine } from '../node';
import { withBackend, runCommand, say, io } from './common';
import { parseCount } from '../io/args';
import { withRuleOptions, rulesFromOptions } from './ruleOptions';
import { FORMATS, formatOf, formatGames, type Format } from '../io/gamesFile';
import { writeAtomically } from '../io/files';
import { randomGame, playGame, randomPlayer } from '../referee/game';
import type { GameRecord } from '../record/record';
import type { BackendName } from '../backends/node';
import { KriegError, fail } from '../errors';
import { parsePlayerSpec } from '../players/registry';
import { withBudgetOptions, budgetFromOptions, playersDescription } from './playerOptions';
import { playWithPlayers } from '../players/play';
import { stdinLines } from '../players/human';

export const playCommand = {
  command: 'play',
  describe: 'play games between two programs through the referee and save their full records',
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
              demandOption: true,
              describe: 'file to write (.json for JSON, otherwise KPGN)',
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
            .example(
              '$0 play --variant berkeley --no-castling --pawn-tries squares --out g.json',
              'a rule set adjusted flag by flag',
            ),
        ),
      ),
    ),
  handler: (argv: Record<string, unknown> & { backend: BackendName; out: string; format?: Format }) =>
    runCommand(() => {
      const games = parseCount('games', argv.games as string, 1, 1_000_000);
      const seed = parseCount('seed', argv.seed as string, 0, 0x7fffffff);
      const maxPlies = parseCount('max-plies', argv.maxPlies as string, 1, 4000);
      const rules = rulesFromOptions(argv);
      const white = parsePlayerSpec(String(argv.white));
      const black = parsePlayerSpec(String(argv.black));
      const budget = budgetFromOptions(argv);
      const engine = createEngine(argv.backend);
      engine.setRules(rules);
      if (argv.fen) {
        // validated before any game is played
        try {
          engine.setFen(0, argv.fen as string);
        } catch (error) {
          if (error instanceof KriegError) throw error.within('--fen');
          throw error;
        }
      }
      if (white.name !== 'random' || black.name !== 'random') {
        // programs or a person: the players of host/players, each on an engine of its own
        // a person reads the referee's answers where the command writes, and types on standard input
        const terminal = { readLine: stdinLines(), write: (text: string) => io.out(text) };
        const { records, tally } = playWithPlayers(
          { white, black },
          {
            games,
            seed,
            maxPlies,
            rules,
            budget,
            backend: argv.backend,
            start: argv.fen as string | undefined,
            io: terminal,
          },
        );
        writeAtomically(argv.out, formatGames(records, formatOf(argv.out, argv.format)));
        say(
          `${games} game${games === 1 ? '' : 's'} written to ${argv.out}: ${Object.entries(tally)
            .map(([r, n]) => `${r} ×${n}`)
            .join(', ')}`,
        );
        return;
      }
      const bar = new cliProgress.SingleBar(
        {
          format: 'playing {bar} {value}/{total} games | {rate} games/s | eta {eta}s',
          stream: process.stderr,
          noTTYOutput: Boolean(process.env.KRIEG_PROGRESS),
          notTTYSchedule: 1000,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(games, 0, { rate: '0' });
      const started = performance.now();
      const records: GameRecord[] = [];
      const tally: Record<string, number> = {};
      for (let i = 0; i < games; i++) {
        const options = {
          maxPlies,
          start: argv.fen as string | undefined,
          tags: { Event: 'krieg play', Round: String(i + 1) },
        };
        const record = argv.hostPlayers
          ? playGame(engine, randomPlayer, randomPlayer, seed + i, options)
          : randomGame(engine, seed + i, options);
        records.push(record);
        tally[record.result] = (tally[record.result] ?? 0) + 1;
        bar.update(i + 1, { rate: ((i + 1) / ((performance.now() - started) / 1000)).toFixed(0) });
      }
      bar.stop();
      if (records.length === 0) throw fail('no-games');
      writeAtomically(argv.out, formatGames(records, formatOf(argv.out, argv.format)));
      say(
        `${games} games written to ${argv.out}: ${Object.entries(tally)
          .map(([r, n]) => `${r} ×${n}`)
          .join(', ')}`,
      );
    }),
};

// krieg match P Q --games N [--time-per-move S | --nodes N] --variant V --seed S --jobs J --out games.kpgn
// Options in, the table out: the match itself (games, files, worker threads, statistics) is
// host/players/match.node.ts.
import type { Argv } from 'yargs';
import cliProgress from 'cli-progress';
import { withBackend, jobsOption, runCommand, io, showProgress } from './common';
import { withRuleOptions, rulesFromOptions } from './ruleOptions';
import { withBudgetOptions, budgetFromOptions, playersDescription } from './playerOptions';
import { parseCount } from '../io/args';
import { writeAtomically } from '../io/files';
import { createEngine } from '../node';
import type { BackendName } from '../backends/node';
import type { GameRecord } from '../record/record';
import { KriegError, fail } from '../errors';
import { parsePlayerSpec } from '../players/registry';
import { runMatch, matchReport, firstIsWhite, type MatchParams } from '../players/match.node';
import { summaryTable } from '../players/matchStats';
import { materialSvg } from '../players/plot';

/** Seconds between progress lines when stderr is not a terminal. */
const PLAIN_PROGRESS_SECONDS = 5;

export const matchCommand = {
  command: 'match <first> <second>',
  describe:
    'play a match between two players (alternating colours) and report wins, losses and draws with 95% intervals and material per move',
  builder: (y: Argv) =>
    withRuleOptions(
      withBackend(
        withBudgetOptions(
          y
            .usage(
              `$0 match <first> <second> --games N --out FILE [options]\n\nPlayers (name, or name:option=value,…):\n${playersDescription(false)}`,
            )
            .positional('first', { type: 'string', describe: 'the first player (White in odd games)' })
            .positional('second', { type: 'string', describe: 'the second player' })
            .option('games', {
              type: 'string',
              default: '2',
              describe: 'number of games; game i is played from a seed made of --seed and i alone',
            })
            .option('seed', { type: 'string', default: '1', describe: 'match seed' })
            .option('max-plies', {
              type: 'string',
              default: '300',
              describe: 'a game still going after this many plies stops unfinished (*) and counts as a draw',
            })
            .option('jobs', {
              type: 'string',
              describe:
                'games played at once, on worker threads (default: the number of cores); the results do not depend on it',
            })
            .option('fen', { type: 'string', describe: 'start position of every game (default: the initial position)' })
            .option('out', {
              type: 'string',
              demandOption: true,
              describe: 'KPGN file of the games; an existing file of the same match is resumed',
            })
            .option('summary', {
              type: 'string',
              describe: 'also write the JSON summary to this file (written only when asked; the table goes to stdout)',
            })
            .option('svg', {
              type: 'string',
              describe: 'also write the SVG material graph to this file (written only when asked)',
            })
            .example(
              '$0 match aosp random --games 200 --nodes 20000 --jobs 2 --out aosp-random.kpgn',
              "Parker et al.'s AOSP against the random player",
            )
            .example(
              '$0 match hs:sample=64 los --games 100 --time-per-move 1 --out hs-los.kpgn',
              'timed players, one second a move',
            ),
        ),
      ),
    ),
  handler: (argv: Record<string, unknown> & { backend: BackendName; out: string; first?: string; second?: string }) =>
    runCommand(async () => {
      const players: MatchParams['players'] = [
        parsePlayerSpec(String(argv.first)),
        parsePlayerSpec(String(argv.second)),
      ];
      if (players.some((p) => p.name === 'human'))
        throw fail('bad-player', { text: 'a match is between programs: play a human with krieg play --white human' });
      const games = parseCount('games', argv.games as string, 1, 1_000_000);
      const seed = parseCount('seed', argv.seed as string, 0, 0x7fffffff);
      const maxPlies = parseCount('max-plies', argv.maxPlies as string, 1, 4000);
      const jobs = jobsOption(argv.jobs as string | undefined);
      const rules = rulesFromOptions(argv);
      if (argv.fen !== undefined) {
        try {
          createEngine(argv.backend, 4).setFen(0, String(argv.fen));
        } catch (error) {
          if (error instanceof KriegError) throw error.within('--fen');
          throw error;
        }
      }
      const params: MatchParams = {
        players,
        games,
        seed,
        rules,
        maxPlies,
        backend: argv.backend,
        ...budgetFromOptions(argv),
        ...(argv.fen !== undefined ? { start: String(argv.fen) } : {}),
      };
      const names: [string, string] = [players[0].text, players[1].text];
      const progress = new Progress(games, names, maxPlies);
      const started = performance.now();
      const run = await runMatch(
        params,
        argv.out,
        jobs,
        ({ done, record, game }) => progress.update(done, record, game),
        progress.onTerminal ? (game, plies) => progress.ply(game, plies) : undefined,
      );
      progress.stop();
      const { summary, json } = matchReport(params, run);
      const written: string[] = [];
      if (argv.summary !== undefined) {
        writeAtomically(String(argv.summary), JSON.stringify(json, null, 2) + '\n');
        written.push(`summary ${argv.summary}`);
      }
      if (argv.svg !== undefined) {
        writeAtomically(
          String(argv.svg),
          materialSvg(summary, `${names[0]} v ${names[1]} material graph (${games} games)`),
        );
        written.push(`material graph ${argv.svg}`);
      }
      io.out(summaryTable(summary, maxPlies));
      io.out(
        `\n${games} games in ${argv.out}${run.resumed ? ` (${run.resumed} resumed from the file)` : ''}; ${written.map((w) => `${w}; `).join('')}${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
    }),
};

/** Milliseconds between redraws of the terminal bar for plies (a finished game redraws at once). */
const TTY_PLY_MS = 250;
/** Games in progress named on the bar; more are counted. */
const SHOWN_GAMES = 4;

/**
 * The games in progress on the terminal bar, with the plies each has played: `game 3/20 (ply 57)`,
 * `games 3 (ply 57), 4 (ply 12) of 20`; `starting` before a first ply, `done` after the last game.
 */
export function gamesInProgress(plies: ReadonlyMap<number, number>, total: number, done = 0): string {
  const games = [...plies.keys()].sort((a, b) => a - b);
  if (games.length === 0) return done >= total ? 'done' : 'starting';
  if (games.length === 1) return `game ${games[0]}/${total} (ply ${plies.get(games[0])})`;
  const shown = games.slice(0, SHOWN_GAMES).map((g) => `${g} (ply ${plies.get(g)})`);
  const more = games.length > SHOWN_GAMES ? `, +${games.length - SHOWN_GAMES} more` : '';
  return `games ${shown.join(', ')}${more} of ${total}`;
}

/**
 * The games done, counting each game in progress by its plies against the mean length of the
 * games finished (`meanPlies`; the cap until one is), at most 0.95 of a game: the bar and its eta
 * move within games.
 */
export function gamesDone(done: number, plies: ReadonlyMap<number, number>, meanPlies: number): number {
  let fraction = 0;
  for (const n of plies.values()) fraction += Math.min(n / Math.max(1, meanPlies), 0.95);
  return done + fraction;
}

const pliesOf = (record: GameRecord) =>
  record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length;

/**
 * A bar on a terminal, naming the games in progress with their plies; elsewhere a plain line every
 * few seconds (CI logs, pipes).
 */
class Progress {
  private readonly bar: cliProgress.SingleBar | undefined;
  private lastLine = 0;
  private lastDraw = -Infinity;
  private readonly started = performance.now();
  private score = { wins: 0, losses: 0, draws: 0 };
  private done = 0;
  private readonly playing = new Map<number, number>();
  private finishedPlies = 0;
  private finished = 0;

  constructor(
    private readonly total: number,
    private readonly names: [string, string],
    private readonly maxPlies: number,
  ) {
    if (process.stderr.isTTY && showProgress()) {
      this.bar = new cliProgress.SingleBar(
        {
          format: `match {bar} {games}/{total} games | {playing} | ${names[0]} +{wins} -{losses} ={draws} | eta {eta_formatted}`,
          stream: process.stderr,
          etaBuffer: 40,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(total, 0, this.payload());
    }
  }

  /** Whether the plies of the games in progress are shown (a bar on a terminal). */
  get onTerminal(): boolean {
    return this.bar !== undefined;
  }

  private payload() {
    return { ...this.score, games: this.done, playing: gamesInProgress(this.playing, this.total, this.done) };
  }

  private draw(): void {
    this.lastDraw = performance.now();
    const mean = this.finished ? this.finishedPlies / this.finished : this.maxPlies;
    this.bar?.update(gamesDone(this.done, this.playing, mean), this.payload());
  }

  /** Game `game` has played `plies` plies (terminal only). */
  ply(game: number, plies: number): void {
    this.playing.set(game, plies);
    if (performance.now() - this.lastDraw >= TTY_PLY_MS) this.draw();
  }

  update(done: number, record: GameRecord, game: number): void {
    const result = record.result;
    const firstWhite = firstIsWhite(game);
    if ((result === '1-0' && firstWhite) || (result === '0-1' && !firstWhite)) this.score.wins++;
    else if (result === '1-0' || result === '0-1') this.score.losses++;
    else this.score.draws++;
    this.done = done;
    if (this.bar) {
      this.playing.delete(game);
      this.finishedPlies += pliesOf(record);
      this.finished++;
      this.draw();
      return;
    }
    if (!showProgress()) return;
    const now = performance.now();
    if (now - this.lastLine < PLAIN_PROGRESS_SECONDS * 1000 && done < this.total) return;
    this.lastLine = now;
    const rate = done / ((now - this.started) / 1000);
    const eta = rate > 0 ? (this.total - done) / rate : 0;
    io.err(
      `krieg match: ${done}/${this.total} games, ${this.names[0]} +${this.score.wins} -${this.score.losses} =${this.score.draws}, ${rate.toFixed(2)} games/s, eta ${eta.toFixed(0)} s\n`,
    );
  }

  stop(): void {
    this.bar?.stop();
  }
}

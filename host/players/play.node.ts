// krieg play with the players of host/players (anything but random against random, which the core
// plays by itself): game i is played from seed S + i − 1, as the random games are, each player on
// an engine of its own; a person (`human`) reads the referee's answers on standard output and
// types attempts on standard input: he may resign (a loss) or stop (quit, the end of the input,
// Ctrl-C: PlayRun.stopped holds the game so far, which krieg play saves unfinished).
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { START_FEN } from '../notation/fen';
import type { RuleSet } from '../record/rules';
import type { GameRecord, Side } from '../record/record';
import { gameSeed } from '../referee/seeds';
import { GameSession } from '../referee/session';
import { runGameOrForfeit } from './forfeit';
import { playerOf } from './ext.node';
import { PlayerEngines } from './engines.node';
import { cachedTables } from './egtbFile.node';
import type { PlayerSpec } from './registry';
import { stdinLines, humanPlayer, HumanStop, type HumanIo } from './human.node';
import type { AsyncPlayer, PlayerBudget } from './player';

export interface PlayOptions {
  games: number;
  seed: number;
  maxPlies: number;
  rules: RuleSet;
  budget: PlayerBudget;
  backend: BackendName;
  start?: string;
  /** The terminal (default: standard input and output). */
  io?: HumanIo;
  /** Tags added to every record (krieg play: the run's key, host/io/gamesLog.ts). */
  tags?: Record<string, string>;
  /** The first game to play (those before it are in the output file already); default 1. */
  first?: number;
  /** Each game as it ends, in order. */
  onGame?: (record: GameRecord, game: number) => void;
}

export interface PlayRun {
  /** The games played (from `first` on), a game a person resigned included. */
  records: GameRecord[];
  tally: Record<string, number>;
  /** A person stopped (quit, the end of the input, Ctrl-C): the game so far, unfinished (*), not in `records`. */
  stopped?: { how: HumanStop['how']; game: number; record: GameRecord };
}

const RESULT_TEXT: Record<string, string> = {
  '1-0': 'White wins',
  '0-1': 'Black wins',
  '1/2-1/2': 'Draw',
  '*': 'Unfinished',
};

/** The [Termination] tag of a game a person stopped before its end. */
export const STOPPED_TEXT: Record<HumanStop['how'], string> = {
  resign: 'resigned',
  quit: 'unfinished: the game was stopped (quit)',
  eof: 'unfinished: the game was stopped (the input ended)',
  interrupt: 'unfinished: the game was stopped (Ctrl-C)',
};

export async function playWithPlayers(specs: Record<Side, PlayerSpec>, options: PlayOptions): Promise<PlayRun> {
  const human = specs.white.name === 'human' || specs.black.name === 'human';
  const io: HumanIo | undefined = human
    ? (options.io ?? {
        readLine: stdinLines(),
        write: (text) => {
          process.stdout.write(text);
        },
      })
    : undefined;
  const referee = new Engine(createCore(options.backend), 16);
  referee.setRules(options.rules);
  const engines = new PlayerEngines(options.backend);
  const start = options.start ?? START_FEN;
  const records: GameRecord[] = [];
  const tally: Record<string, number> = {};
  for (let game = options.first ?? 1; game <= options.games; game++) {
    const seed = options.seed + game - 1;
    const make = (side: Side): AsyncPlayer => {
      const setup = {
        side,
        rules: options.rules,
        start,
        seed: gameSeed(seed, side === 'white' ? 1 : 2),
        budget: options.budget,
        options: specs[side].options,
        tables: cachedTables,
      };
      const engine = engines.for(side, options.rules);
      return specs[side].name === 'human' ? humanPlayer(io!)(setup, engine) : playerOf(specs[side])(setup, engine);
    };
    const players = { white: make('white'), black: make('black') };
    if (io) io.write(`Game ${game}: ${specs.white.text} (White) v ${specs.black.text} (Black), seed ${seed}\n`);
    const tags = { Event: 'krieg play', Round: String(game), Seed: String(seed), ...options.tags };
    const names = { white: players.white.name, black: players.black.name };
    const session = new GameSession(referee, { start, maxPlies: options.maxPlies, names, tags });
    let record: GameRecord;
    try {
      record = await runGameOrForfeit(session, players, { timePerMove: options.budget.timePerMove });
    } catch (error) {
      if (!(error instanceof HumanStop)) throw error;
      const sofar = { ...session.record(), white: specs.white.text, black: specs.black.text };
      const loser = session.toMove();
      if (error.how !== 'resign') {
        const partial = { ...sofar, tags: { ...sofar.tags, Termination: STOPPED_TEXT[error.how] } };
        return { records, tally, stopped: { how: error.how, game, record: partial } };
      }
      record = {
        ...sofar,
        result: loser === 'white' ? '0-1' : '1-0',
        tags: { ...sofar.tags, Termination: `${loser === 'white' ? 'White' : 'Black'} resigned` },
      };
      io?.write(`${loser === 'white' ? 'White' : 'Black'} resigns.\n`);
    }
    const named = { ...record, white: specs.white.text, black: specs.black.text };
    if (io) io.write(`${RESULT_TEXT[named.result]} (${named.result}).\n`);
    records.push(named);
    tally[named.result] = (tally[named.result] ?? 0) + 1;
    options.onGame?.(named, game);
  }
  return { records, tally };
}

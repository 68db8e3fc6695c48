// krieg play with the players of host/players (anything but random against random, which the core
// plays by itself): game i is played from seed S + i − 1, as the random games are, each player on
// an engine of its own; a person (`human`) reads the referee's answers on standard output and
// types attempts on standard input.
import { fail } from '../errors';
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { START_FEN } from '../notation/fen';
import type { RuleSet } from '../record/rules';
import type { GameRecord, Side } from '../record/record';
import { gameSeed } from '../db/generate';
import { runGame } from './game';
import { PlayerEngines } from './engines';
import { playerFactory, type PlayerSpec } from './registry';
import { stdinLines, type HumanIo } from './human';
import type { PlayerBudget } from './player';

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
}

const RESULT_TEXT: Record<string, string> = {
  '1-0': 'White wins',
  '0-1': 'Black wins',
  '1/2-1/2': 'Draw',
  '*': 'Unfinished',
};

export function playWithPlayers(
  specs: Record<Side, PlayerSpec>,
  options: PlayOptions,
): { records: GameRecord[]; tally: Record<string, number> } {
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
  for (let i = 0; i < options.games; i++) {
    const seed = options.seed + i;
    const make = (side: Side) =>
      playerFactory(specs[side], io)(
        {
          side,
          rules: options.rules,
          start,
          seed: gameSeed(seed, side === 'white' ? 1 : 2),
          budget: options.budget,
          options: specs[side].options,
        },
        engines.for(side, options.rules),
      );
    const players = { white: make('white'), black: make('black') };
    if (io) io.write(`Game ${i + 1}: ${specs.white.text} (White) v ${specs.black.text} (Black), seed ${seed}\n`);
    const record = runGame(referee, players, {
      start,
      maxPlies: options.maxPlies,
      timePerMove: options.budget.timePerMove,
      tags: { Event: 'krieg play', Round: String(i + 1), Seed: String(seed) },
    });
    const named = { ...record, white: specs.white.text, black: specs.black.text };
    if (io) io.write(`${RESULT_TEXT[named.result]} (${named.result}).\n`);
    records.push(named);
    tally[named.result] = (tally[named.result] ?? 0) + 1;
  }
  if (records.length === 0) throw fail('no-games');
  return { records, tally };
}

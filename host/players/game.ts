// The game runner for Players (player.ts): the referee's engine holds the true board; each player
// is told only the new events of its own view, and when it is to move, a Turn computed from that
// view. The record that comes out is the full KPGN/JSON record every other command reads.
import type { Engine } from '../engine';
import { KriegError } from '../errors';
import { START_FEN } from '../notation/fen';
import { decodePercept } from '../record/percept';
import { gameEvents } from '../core/referee';
import { viewOf, SIDES, type GameRecord, type Result, type Side } from '../record/record';
import { turnOf, type Player } from './player';

// core constants (assembly/referee/game.ts)
const RESULTS: Result[] = ['*', '1-0', '0-1', '1/2-1/2'];
const GAME_STATUS: Record<number, string> = {
  [-1]: 'the game is over', [-2]: 'the game log is full', [-3]: 'no game started',
  [-4]: '"Any?" is not allowed here (rules without it, or after the first attempt of the turn)',
};
/** Parker et al.'s material values (queen 9, rook 5, bishop 3, knight 3, pawn 1) by piece type. */
export const MATERIAL_VALUE = [0, 1, 3, 3, 5, 9, 0];
/** Attempts in one turn after which a player is stuck (every attempt is tried at most once, and there are fewer). */
const MAX_TURN_ATTEMPTS = 1000;

export interface RunOptions {
  start?: string;
  /** Plies after which the game stops unfinished (*): a match adjudicates it as a draw. */
  maxPlies: number;
  tags?: Record<string, string>;
  /** Seconds per move: each player's turn gets a deadline. */
  timePerMove?: number;
  /** Record of the referee engine holding the true board (the next one is its scratch; +2 the own-board scratch). */
  handle?: number;
  /** Called after every ply with the plies played. */
  onPly?: (plies: number) => void;
}

/** Material (Parker's values) of White and Black in the setup's board. */
export function materialOf(board: number[]): [number, number] {
  const material: [number, number] = [0, 0];
  for (const code of board) if (code) material[code >> 3] += MATERIAL_VALUE[code & 7];
  return material;
}

function gameError(status: number): KriegError {
  return new KriegError('game-status', GAME_STATUS[status] ?? `game status ${status}`);
}

/**
 * Plays one game between `players` through the referee of `referee` (its rules are the game's);
 * returns the full record. Players see nothing but their views.
 */
export function runGame(referee: Engine, players: Record<Side, Player>, options: RunOptions): GameRecord {
  const handle = options.handle ?? 0;
  const scratch = handle + 2;
  const start = options.start ?? START_FEN;
  referee.setFen(handle, start);
  const x = referee.core.exports;
  const status = x.gameStart(handle);
  if (status < 0) throw gameError(status);
  const delivered: Record<Side, number> = { white: 0, black: 0 };
  const recordSoFar = (): GameRecord => ({
    rules: referee.rules, start, white: players.white.name, black: players.black.name, result: RESULTS[x.gameResult()],
    tags: { ...options.tags }, events: gameEvents(referee),
  });
  /** Tells `side` the events of its view it has not heard yet; returns the view. */
  const deliver = (side: Side) => {
    const view = viewOf(recordSoFar(), side);
    for (const event of view.events.slice(delivered[side])) players[side].observe(event);
    delivered[side] = view.events.length;
    return view;
  };
  let plies = 0;
  while (x.gameResult() === 0 && plies < options.maxPlies) {
    const side = SIDES[referee.setup(handle).side];
    const player = players[side];
    const deadline = options.timePerMove === undefined ? undefined : performance.now() + options.timePerMove * 1000;
    for (let attempts = 0; ; attempts++) {
      if (attempts >= MAX_TURN_ATTEMPTS) throw new KriegError('player-stuck', `${player.name} made ${MAX_TURN_ATTEMPTS} attempts without a legal move`);
      const turn = turnOf(deliver(side), referee, scratch, deadline);
      const choice = player.choose(turn);
      if (choice === 'any') {
        const answer = x.gameAskAny();
        if (answer < 0) throw gameError(answer);
        continue;
      }
      if (!Number.isInteger(choice) || choice < 0 || choice >= 1 << 15) throw new KriegError('player-bad-attempt', `${player.name} chose ${String(choice)}, not an attempt`);
      const percept = x.gameAttempt(choice);
      if (percept < 0) throw gameError(percept);
      if (decodePercept(percept).answer === 'legal') break;
    }
    plies++;
    options.onPly?.(plies);
  }
  for (const side of SIDES) deliver(side); // the last announcements (the game's end) to both
  return recordSoFar();
}

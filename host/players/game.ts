// The game runner for Players (player.ts): the referee's engine holds the true board; each player
// is told only the new events of its own view, and when it is to move, a Turn computed from that
// view. The record that comes out is the full KPGN/JSON record every other command reads.
import type { Engine } from '../engine';
import { fail } from '../errors';
import { START_FEN } from '../notation/fen';
import { startGame, gameAttempt, gameAskAny, gameResult, gameOver, gameEvents } from '../core/referee';
import { SIDES, type GameRecord, type Side } from '../record/record';
import { turnOf, playerView, type Player, type AsyncPlayer, type Turn } from './player';

/** Parker et al.'s material values (queen 9, rook 5, bishop 3, knight 3, pawn 1) by piece type. */
export const MATERIAL_VALUE = [0, 1, 3, 3, 5, 9, 0];
/** Attempts in one turn after which a player is stuck (every attempt is tried at most once, and there are fewer). */
const MAX_TURN_ATTEMPTS = 1000;

/** How runGame plays a game: the cap on plies, the start, the record's tags, a time per move. */
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

/** The record of the game `referee` holds (handle `handle`), so far: "*" while it goes on. */
export function gameSoFar(
  referee: Engine,
  names: Record<Side, string>,
  options: Pick<RunOptions, 'start' | 'tags'>,
): GameRecord {
  return {
    rules: referee.rules,
    start: options.start ?? START_FEN,
    white: names.white,
    black: names.black,
    result: gameResult(referee),
    tags: { ...options.tags },
    events: gameEvents(referee),
  };
}

/**
 * One game as a sequence of choices: yields each turn to the player to move and takes his choice,
 * returns the full record (runGame and runGameAsync drive it).
 */
function* gameTurns(
  referee: Engine,
  players: Record<Side, AsyncPlayer>,
  options: RunOptions,
): Generator<{ player: AsyncPlayer; turn: Turn }, GameRecord, number | 'any'> {
  const handle = options.handle ?? 0;
  const scratch = handle + 2;
  const start = options.start ?? START_FEN;
  referee.setFen(handle, start);
  startGame(referee, handle);
  const delivered: Record<Side, number> = { white: 0, black: 0 };
  const names = { white: players.white.name, black: players.black.name };
  const recordSoFar = (): GameRecord => gameSoFar(referee, names, options);
  /** Tells `side` the events of its view it has not heard yet; returns the view. */
  const deliver = (side: Side) => {
    const view = playerView(recordSoFar(), side); // no tags: nothing of the game's seed
    for (const event of view.events.slice(delivered[side])) players[side].observe(event);
    delivered[side] = view.events.length;
    return view;
  };
  let plies = 0;
  while (!gameOver(referee) && plies < options.maxPlies) {
    const side = SIDES[referee.setup(handle).side];
    const player = players[side];
    const deadline = options.timePerMove === undefined ? undefined : performance.now() + options.timePerMove * 1000;
    for (let attempts = 0; ; attempts++) {
      if (attempts >= MAX_TURN_ATTEMPTS)
        throw fail('player-stuck', { player: player.name, attempts: MAX_TURN_ATTEMPTS });
      const turn = turnOf(deliver(side), referee, scratch, deadline);
      const choice = yield { player, turn };
      if (choice === 'any') {
        gameAskAny(referee);
        continue;
      }
      if (!Number.isInteger(choice) || choice < 0 || choice >= 1 << 15)
        throw fail('player-bad-attempt', { player: player.name, choice: String(choice) });
      if (gameAttempt(referee, choice).answer === 'legal') break;
    }
    plies++;
    options.onPly?.(plies);
  }
  for (const side of SIDES) deliver(side); // the last announcements (the game's end) to both
  return recordSoFar();
}

/**
 * Plays one game between `players` through the referee of `referee` (its rules are the game's);
 * returns the full record. Players see nothing but their views.
 */
export function runGame(referee: Engine, players: Record<Side, Player>, options: RunOptions): GameRecord {
  const turns = gameTurns(referee, players, options);
  for (let step = turns.next(); ;) {
    if (step.done) return step.value;
    step = turns.next(step.value.player.choose(step.value.turn) as number | 'any'); // a Player's choice is no promise
  }
}

/**
 * runGame for players whose choice may be a promise (a person at the terminal): awaits it. An
 * error a player throws (a person who quits) ends the game there; gameSoFar has its record.
 */
export async function runGameAsync(
  referee: Engine,
  players: Record<Side, AsyncPlayer>,
  options: RunOptions,
): Promise<GameRecord> {
  const turns = gameTurns(referee, players, options);
  for (let step = turns.next(); ;) {
    if (step.done) return step.value;
    step = turns.next(await step.value.player.choose(step.value.turn));
  }
}

// The game runner for Players (player.ts): it drives a GameSession (host/referee/session.ts), which
// holds the true board; each player is told only the new events of its own view, and when it is
// to move, a Turn computed from that view. The record that comes out is the full KPGN/JSON record
// every other command reads.
import { fail } from '../errors';
import { SIDES, type GameRecord, type Side, type View } from '../record/record';
import type { GameSession } from '../referee/session';
import { turnOf, type Player, type AsyncPlayer, type Turn } from './player';

/** Parker et al.'s material values (queen 9, rook 5, bishop 3, knight 3, pawn 1) by piece type. */
export const MATERIAL_VALUE = [0, 1, 3, 3, 5, 9, 0];
/** Attempts in one turn after which a player is stuck (every attempt is tried at most once, and there are fewer). */
const MAX_TURN_ATTEMPTS = 1000;

/** How runGame plays a game: the cap on plies, the start, the record's tags, a time per move. */
export interface RunOptions {
  /** Seconds per move: each player's turn gets a deadline. */
  timePerMove?: number;
  /** Called after every ply with the plies played. */
  onPly?: (plies: number) => void;
}

/** Material (Parker's values) of White and Black in the setup's board. */
export function materialOf(board: number[]): [number, number] {
  const material: [number, number] = [0, 0];
  for (const code of board) if (code) material[code >> 3] += MATERIAL_VALUE[code & 7];
  return material;
}

/** Tells `player` (playing `side`) the events of its view it has not heard yet; returns the view. */
export function deliverTo(session: GameSession, side: Side, player: Pick<Player, 'observe'>): View {
  const { view, events } = session.deliver(side);
  for (const event of events) player.observe(event);
  return view;
}

/**
 * One turn of the side to move, `player`, as a sequence of choices: yields each Turn and takes his
 * choice, until his legal move (or the end of the game).
 */
function* turnSteps(
  session: GameSession,
  player: AsyncPlayer,
  timePerMove: number | undefined,
): Generator<Turn, void, number | 'any'> {
  const side = session.toMove();
  const deadline = timePerMove === undefined ? undefined : performance.now() + timePerMove * 1000;
  for (let attempts = 0; ; attempts++) {
    if (attempts >= MAX_TURN_ATTEMPTS) throw fail('player-stuck', { player: player.name, attempts: MAX_TURN_ATTEMPTS });
    const turn = turnOf(deliverTo(session, side, player), session.referee, session.scratch, deadline);
    const choice = yield turn;
    if (choice === 'any') {
      session.askAny();
      continue;
    }
    if (!Number.isInteger(choice) || choice < 0 || choice >= 1 << 15)
      throw fail('player-bad-attempt', { player: player.name, choice: String(choice) });
    if (session.attempt(choice).answer === 'legal') return;
  }
}

/**
 * The whole turn of the side to move, `player` (a synchronous one: the web page's opponent), with
 * `timePerMove` seconds; the events of it are told to him at his next choice (or by deliverTo).
 */
export function playTurn(session: GameSession, player: Player, timePerMove?: number): void {
  const steps = turnSteps(session, player, timePerMove);
  for (let step = steps.next(); !step.done;) step = steps.next(player.choose(step.value));
}

/**
 * One game as a sequence of choices: yields each turn to the player to move and takes his choice,
 * returns the full record (runGame and runGameAsync drive it).
 */
function* gameTurns(
  session: GameSession,
  players: Record<Side, AsyncPlayer>,
  options: RunOptions,
): Generator<{ player: AsyncPlayer; turn: Turn }, GameRecord, number | 'any'> {
  while (!session.over()) {
    const player = players[session.toMove()];
    const steps = turnSteps(session, player, options.timePerMove);
    for (let step = steps.next(); !step.done;) step = steps.next(yield { player, turn: step.value });
    options.onPly?.(session.plies);
  }
  for (const side of SIDES) deliverTo(session, side, players[side]); // the last announcements (the game's end) to both
  return session.record();
}

/**
 * Plays the game of `session` (just started: its setup, rules, ply cap and tags are the game's)
 * between `players`; returns the full record. Players see nothing but their views.
 */
export function runGame(session: GameSession, players: Record<Side, Player>, options: RunOptions = {}): GameRecord {
  const turns = gameTurns(session, players, options);
  for (let step = turns.next(); ;) {
    if (step.done) return step.value;
    step = turns.next(step.value.player.choose(step.value.turn) as number | 'any'); // a Player's choice is no promise
  }
}

/**
 * runGame for players whose choice may be a promise (a person at the terminal): awaits it. An
 * error a player throws (a person who quits) ends the game there; session.record() has its record.
 */
export async function runGameAsync(
  session: GameSession,
  players: Record<Side, AsyncPlayer>,
  options: RunOptions = {},
): Promise<GameRecord> {
  const turns = gameTurns(session, players, options);
  for (let step = turns.next(); ;) {
    if (step.done) return step.value;
    step = turns.next(await step.value.player.choose(step.value.turn));
  }
}

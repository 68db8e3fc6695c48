// The referee's part of the core's ABI (assembly/referee/) as host values: attempts and answers on
// one position, a game in progress (its statuses become errors here, once), the event log read as
// record events, and the core's own random self-play. With host/engine.ts and the other files of
// host/core/, the only host code that calls the core's exports.
import type { Engine } from '../engine';
import { fail, type KriegError } from '../errors';
import {
  EVENT_WORDS,
  EVENT_ATTEMPT,
  EVENT_PAWN_TRIES,
  EVENT_ANY,
  EVENT_SIDE_SHIFT,
  EVENT_TYPE_FIELD,
  GAME_OVER,
  GAME_LOG_FULL,
  GAME_NOT_STARTED,
  GAME_NO_ANY,
  RESULT_ONGOING,
  RESULT_WHITE_WINS,
  RESULT_BLACK_WINS,
  RESULT_DRAW,
} from '../constants';
import { makeUci } from '../notation/move';
import { squaresOf } from '../notation/square';
import { decodePercept, type Percept } from '../record/percept';
import { SIDES, type PawnTriesEvent, type RecordEvent, type Result, type Side } from '../record/record';
import type { RuleSet } from '../record/rules';

const RESULTS: Record<number, Result> = {
  [RESULT_ONGOING]: '*',
  [RESULT_WHITE_WINS]: '1-0',
  [RESULT_BLACK_WINS]: '0-1',
  [RESULT_DRAW]: '1/2-1/2',
};
const GAME_STATUS: Record<number, string> = {
  [GAME_OVER]: 'the game is over',
  [GAME_LOG_FULL]: 'the game log is full',
  [GAME_NOT_STARTED]: 'no game started',
  [GAME_NO_ANY]: '"Any?" is not allowed here (rules without it, or asked already this turn)',
};

function gameError(status: number): KriegError {
  return fail('game-status', { text: GAME_STATUS[status] ?? `game status ${status}` });
}

// ---- one position ----

/** The attempt codes of the side to move of `handle`: moves of his own-pieces board and pawn capture attempts. */
export function attemptsOf(engine: Engine, handle: number): number[] {
  const n = engine.core.exports.generateAttempts(handle);
  return Array.from(engine.view('attempts').subarray(0, n));
}

/** The referee's answer to `attempt` in `handle` (no turn memory), playing it into `dst` when legal. */
export function answerAttempt(engine: Engine, handle: number, attempt: number, dst: number): Percept {
  return decodePercept(engine.core.exports.answerAttempt(handle, attempt, dst));
}

/** The legal pawn captures of the side to move: how many, and the squares they land on. */
export function legalPawnCaptures(engine: Engine, handle: number): { count: number; squares: number[] } {
  const count = engine.core.exports.legalPawnCaptures(handle);
  const words = engine.view('pawnTries');
  return { count, squares: squaresOf(words[0], words[1]) };
}

// ---- a game in progress ----

/** Starts a game from position `handle` (handle + 1 is the referee's scratch). */
export function startGame(engine: Engine, handle: number): void {
  const status = engine.core.exports.gameStart(handle);
  if (status < 0) throw gameError(status);
}

/** The side to move attempts `attempt`: the referee's answer (a legal one is played). */
export function gameAttempt(engine: Engine, attempt: number): Percept {
  const percept = engine.core.exports.gameAttempt(attempt);
  if (percept < 0) throw gameError(percept);
  return decodePercept(percept);
}

/** The side to move asks "Any?": is there a legal pawn capture? */
export function gameAskAny(engine: Engine): boolean {
  const answer = engine.core.exports.gameAskAny();
  if (answer < 0) throw gameError(answer);
  return answer === 1;
}

export function gameResult(engine: Engine): Result {
  return RESULTS[engine.core.exports.gameResult()];
}
export function gameOver(engine: Engine): boolean {
  return engine.core.exports.gameResult() !== RESULT_ONGOING;
}
export function gamePlies(engine: Engine): number {
  return engine.core.exports.gamePlies();
}
export function gameEventCount(engine: Engine): number {
  return engine.core.exports.gameEventCount();
}

/** Random self-play in the core from `handle` (no boundary crossing per attempt): the result. */
export function playRandomGame(engine: Engine, handle: number, seed: number, maxPlies: number): Result {
  const status = engine.core.exports.playRandomGame(handle, seed | 0, maxPlies);
  if (status < 0) throw gameError(status);
  return RESULTS[status];
}

/** The game's event log (from event `from` on) as record events. */
export function gameEvents(engine: Engine, from = 0): RecordEvent[] {
  const count = engine.core.exports.gameEventCount();
  const log = engine.view('events');
  const events: RecordEvent[] = [];
  for (let i = from; i < count; i++) {
    const e = i * EVENT_WORDS;
    const type = log[e] & EVENT_TYPE_FIELD;
    const side = SIDES[log[e] >> EVENT_SIDE_SHIFT];
    if (type === EVENT_ATTEMPT)
      events.push({ type: 'attempt', side, attempt: makeUci(log[e + 1]), percept: decodePercept(log[e + 2]) });
    else if (type === EVENT_PAWN_TRIES)
      events.push(announcedPawnTries(engine.rules, side, log[e + 1], squaresOf(log[e + 2], log[e + 3])));
    else if (type === EVENT_ANY) events.push({ type: 'any', side, yes: log[e + 1] === 1 });
    else throw fail('bad-event', { text: `unknown event type ${type} at event ${i}` });
  }
  return events;
}

/** The part of the pawn-try information the rules announce. */
function announcedPawnTries(rules: RuleSet, side: Side, count: number, squares: number[]): PawnTriesEvent {
  if (rules.pawnTries === 'count') return { type: 'pawn-tries', side, count };
  if (rules.pawnTries === 'exists') return { type: 'pawn-tries', side, exists: count > 0 };
  if (rules.pawnTries === 'squares' || rules.pawnTries === 'pawn-squares') return { type: 'pawn-tries', side, squares };
  throw fail('bad-event', { text: `pawn tries are not announced under pawnTries=${rules.pawnTries}` });
}

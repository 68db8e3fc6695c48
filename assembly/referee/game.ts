// A game in progress: the true position, the referee's memory of the current turn, and the event
// log from which records and both players' views are derived (host/record/record.ts).
// Players drive it one attempt at a time (gameAttempt), from the host or from the core
// (the random player below, used for self-play and the referee benchmark).
//
// Event (EVENT_WORDS = 4 Int32 words in EVENTS):
// | word | EVENT_ATTEMPT            | EVENT_PAWN_TRIES                | EVENT_ANY                      |
// |------|--------------------------|---------------------------------|--------------------------------|
// | 0    | type | side << 4         | type | side << 4                | type | side << 4               |
// | 1    | attempt code             | number of legal pawn captures   | 1 "Try"/"Yes", 0 "No"         |
// | 2    | percept (referee.ts)     | announced squares, lo word      | 0                              |
// | 3    | 0                        | announced squares, hi word      | 0                              |
// `side` is the side the event belongs to: the attempter, the side about to move, the asker. The
// announced squares are where the captures land, or where the capturing pawns stand
// (PAWN_TRIES_PAWN_SQUARES); they are 0 under rules that announce none.

import { POSITIONS, POSITION_SHIFT, W_SIDE, W_HALFMOVE, W_KEY_LO, W_KEY_HI, copyPosition } from '../chess/position';
import { seedRandom, randomBelow } from '../chess/random';
import { newArena } from '../chess/arena';
import {
  rule,
  pawnTriesAnnounced,
  RULE_REPEAT_IS_NONSENSE,
  RULE_PAWN_TRIES,
  RULE_REPETITION,
  RULE_STALEMATE_LOSES,
  PAWN_TRIES_ANY_SECRET,
  PAWN_TRIES_ANY_OPEN,
} from './rules';
import {
  ANSWER_LEGAL,
  ANSWER_ILLEGAL,
  ANSWER_NONSENSE,
  PERCEPT_END_SHIFT,
  END_NONE,
  END_CHECKMATE,
  END_STALEMATE,
  END_DRAW_REPETITION,
  answerAttempt,
  legalPawnCaptures,
  PAWN_TRY_SQUARES,
  perceptEnd,
  announcedSquaresWord,
} from './referee';
import { ATTEMPTS, generateAttempts, isPawnCaptureAttempt } from './attempts';

export const EVENT_WORDS: i32 = 4;
/** Word 0 = type | side << EVENT_SIDE_SHIFT (type in the low EVENT_TYPE_FIELD bits). */
export const EVENT_SIDE_SHIFT: i32 = 4;
export const EVENT_TYPE_FIELD: i32 = 15;
export const EVENT_ATTEMPT: i32 = 1;
export const EVENT_PAWN_TRIES: i32 = 2;
export const EVENT_ANY: i32 = 3;

// gameAttempt statuses beyond percepts (negative, so never a percept)
export const GAME_OVER: i32 = -1;
export const GAME_LOG_FULL: i32 = -2;
export const GAME_NOT_STARTED: i32 = -3;
export const GAME_NO_ANY: i32 = -4; // "Any?" not part of the rules, or asked already this turn

// results
export const RESULT_ONGOING: i32 = 0;
export const RESULT_WHITE_WINS: i32 = 1;
export const RESULT_BLACK_WINS: i32 = 2;
export const RESULT_DRAW: i32 = 3;

// Obligations after an "Any?" answered yes.
const OBLIGE_NONE: i32 = 0;
const OBLIGE_UNTIL_LEGAL: i32 = 1; // secret Any: pawn captures until one is legal
const OBLIGE_ONE: i32 = 2; // open Any: at least one pawn capture

export let EVENTS: Int32Array = new Int32Array(0);
let eventCount: i32 = 0;
/**
 * Keys (lo, hi) of the position after each ply, for repetition. Every ply logs an event, so a
 * history as long as the event log covers every game the log can hold, however far back a
 * repetition reaches.
 */
let KEY_HISTORY: Int32Array = new Int32Array(0);
let plies: i32 = 0;

let gameHandle: i32 = -1;
let result: i32 = RESULT_ONGOING;
let endReason: i32 = END_NONE;
/**
 * Attempts rejected this turn: REJECTED_TURN[attempt code] == turnStamp. Every code (15 bits) has
 * its slot, so no number of attempts overflows it, and a new turn needs no clearing.
 */
const REJECTED_TURN = newArena(1 << 15);
let turnStamp: i32 = 0;
let attemptsThisTurn: i32 = 0;
let askedThisTurn: bool = false;
let obligation: i32 = OBLIGE_NONE;

export function initGame(maxEvents: i32): void {
  if (EVENTS.length < maxEvents * EVENT_WORDS) EVENTS = newArena(maxEvents * EVENT_WORDS);
  if (KEY_HISTORY.length < (maxEvents + 2) * 2) KEY_HISTORY = newArena((maxEvents + 2) * 2);
  gameHandle = -1;
}

function isRejected(attempt: i32): bool {
  return attempt >= 0 && attempt < 1 << 15 && unchecked(REJECTED_TURN[attempt]) == turnStamp;
}

export function gameEventCount(): i32 {
  return eventCount;
}
export function gameResult(): i32 {
  return result;
}
export function gameEndReason(): i32 {
  return endReason;
}
export function gamePlies(): i32 {
  return plies;
}

function logEvent(type: i32, side: i32, a: i32, b: i32, c: i32): bool {
  if ((eventCount + 1) * EVENT_WORDS > EVENTS.length) return false;
  const e = eventCount * EVENT_WORDS;
  EVENTS[e] = type | (side << EVENT_SIDE_SHIFT);
  EVENTS[e + 1] = a;
  EVENTS[e + 2] = b;
  EVENTS[e + 3] = c;
  eventCount++;
  return true;
}

function sideToMove(): i32 {
  return unchecked(POSITIONS[(gameHandle << POSITION_SHIFT) + W_SIDE]);
}

function recordKey(): void {
  const base = gameHandle << POSITION_SHIFT;
  KEY_HISTORY[plies * 2] = unchecked(POSITIONS[base + W_KEY_LO]);
  KEY_HISTORY[plies * 2 + 1] = unchecked(POSITIONS[base + W_KEY_HI]);
}

/** Has the current position occurred twice before (since the last capture or pawn move)? */
function thirdRepetition(): bool {
  const base = gameHandle << POSITION_SHIFT;
  const lo = unchecked(POSITIONS[base + W_KEY_LO]);
  const hi = unchecked(POSITIONS[base + W_KEY_HI]);
  const reach = unchecked(POSITIONS[base + W_HALFMOVE]);
  let seen = 0;
  for (let back = 2; back <= reach && back <= plies; back += 2) {
    const p = plies - back;
    if (unchecked(KEY_HISTORY[p * 2]) == lo && unchecked(KEY_HISTORY[p * 2 + 1]) == hi) seen++;
  }
  return seen >= 2;
}

function beginTurn(): bool {
  turnStamp++;
  attemptsThisTurn = 0;
  askedThisTurn = false;
  obligation = OBLIGE_NONE;
  if (result != RESULT_ONGOING || !pawnTriesAnnounced()) return true;
  const count = legalPawnCaptures(gameHandle);
  const word = announcedSquaresWord();
  return logEvent(EVENT_PAWN_TRIES, sideToMove(), count, PAWN_TRY_SQUARES[word], PAWN_TRY_SQUARES[word + 1]);
}

/**
 * Starts a game from position `handle` (the next record, handle + 1, is the referee's scratch).
 * Returns 0, or GAME_LOG_FULL.
 */
export function gameStart(handle: i32): i32 {
  gameHandle = handle;
  eventCount = 0;
  plies = 0;
  result = RESULT_ONGOING;
  endReason = END_NONE;
  recordKey();
  return beginTurn() ? 0 : GAME_LOG_FULL;
}

/**
 * The side to move asks "Any?" (pawn-try rules with a question). Returns 1 yes, 0 no, or a status.
 * It may be asked at any point of the turn (Berkeley: "during her turn"; English rule 11: "when
 * it is a player's turn to move"), once: a second answer could tell nothing new.
 */
export function gameAskAny(): i32 {
  if (gameHandle < 0) return GAME_NOT_STARTED;
  if (result != RESULT_ONGOING) return GAME_OVER;
  const mode = rule(RULE_PAWN_TRIES);
  if ((mode != PAWN_TRIES_ANY_SECRET && mode != PAWN_TRIES_ANY_OPEN) || askedThisTurn) return GAME_NO_ANY;
  const yes = legalPawnCaptures(gameHandle) > 0 ? 1 : 0;
  if (!logEvent(EVENT_ANY, sideToMove(), yes, 0, 0)) return GAME_LOG_FULL;
  askedThisTurn = true;
  if (yes != 0) obligation = mode == PAWN_TRIES_ANY_SECRET ? OBLIGE_UNTIL_LEGAL : OBLIGE_ONE;
  return yes;
}

/**
 * The side to move attempts `attempt`: returns the percept (also logged), or a negative status.
 * An attempt already rejected this turn is Nonsense when the rules say so, otherwise answered
 * again; an attempt that breaks an "Any?" obligation (not a pawn capture) is Nonsense. That
 * refusal is not a rejection of the move itself: once the obligation is spent, the same attempt
 * is answered as any other (English rule 11: "if the move be illegal he is at liberty to make a
 * legal move with any man").
 */
export function gameAttempt(attempt: i32): i32 {
  if (gameHandle < 0) return GAME_NOT_STARTED;
  if (result != RESULT_ONGOING) return GAME_OVER;
  const side = sideToMove();
  const repeated = isRejected(attempt);
  let percept: i32;
  let obliged = false;
  if (repeated && rule(RULE_REPEAT_IS_NONSENSE) != 0) percept = ANSWER_NONSENSE;
  else if (obligation != OBLIGE_NONE && !isPawnCaptureAttempt(gameHandle, attempt)) {
    percept = ANSWER_NONSENSE;
    obliged = true;
  } else percept = answerAttempt(gameHandle, attempt, gameHandle + 1);
  attemptsThisTurn++;
  const answer = percept & 3;
  if (answer != ANSWER_LEGAL) {
    if (!obliged && attempt >= 0 && attempt < 1 << 15) REJECTED_TURN[attempt] = turnStamp;
    if (answer == ANSWER_ILLEGAL && obligation == OBLIGE_ONE) obligation = OBLIGE_NONE;
    return logEvent(EVENT_ATTEMPT, side, attempt, percept, 0) ? percept : GAME_LOG_FULL;
  }
  copyPosition(gameHandle + 1, gameHandle);
  plies++;
  recordKey();
  let end = perceptEnd(percept);
  if (end == END_NONE && rule(RULE_REPETITION) != 0 && thirdRepetition()) {
    end = END_DRAW_REPETITION;
    percept |= end << PERCEPT_END_SHIFT;
  }
  if (end == END_CHECKMATE) result = side == 0 ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
  else if (end == END_STALEMATE && rule(RULE_STALEMATE_LOSES) != 0)
    result = side == 0 ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
  else if (end != END_NONE) result = RESULT_DRAW;
  endReason = end;
  if (!logEvent(EVENT_ATTEMPT, side, attempt, percept, 0)) return GAME_LOG_FULL;
  return beginTurn() ? percept : GAME_LOG_FULL;
}

// ---- the random player ----

/**
 * The random player's next attempt: uniform over the attempts not yet rejected this turn (pawn
 * capture attempts only while an "Any?" obligation holds). -1 if none is left.
 */
function randomAttempt(): i32 {
  const n = generateAttempts(gameHandle);
  let candidates = 0;
  for (let i = 0; i < n; i++) {
    const attempt = unchecked(ATTEMPTS[i]);
    if (isRejected(attempt)) continue;
    if (obligation != OBLIGE_NONE && !isPawnCaptureAttempt(gameHandle, attempt)) continue;
    ATTEMPTS[candidates++] = attempt;
  }
  if (candidates == 0) return -1;
  return unchecked(ATTEMPTS[randomBelow(candidates)]);
}

/**
 * Random self-play from position `handle` for at most `maxPlies` plies. Where the rules let a
 * player ask "Any?", he asks at the start of a turn with probability 1/2. Returns the result.
 */
export function playRandomGame(handle: i32, seed: i32, maxPlies: i32): i32 {
  seedRandom(seed);
  if (gameStart(handle) != 0) return GAME_LOG_FULL;
  const mode = rule(RULE_PAWN_TRIES);
  const asks = mode == PAWN_TRIES_ANY_SECRET || mode == PAWN_TRIES_ANY_OPEN;
  while (result == RESULT_ONGOING && plies < maxPlies) {
    if (asks && attemptsThisTurn == 0 && randomBelow(2) == 0) {
      if (gameAskAny() < 0) return GAME_LOG_FULL;
    }
    const attempt = randomAttempt();
    if (attempt < 0) {
      // every attempt rejected while obliged to try pawn captures: the obligation is spent
      obligation = OBLIGE_NONE;
      continue;
    }
    if (gameAttempt(attempt) < 0) return GAME_LOG_FULL;
  }
  return result;
}

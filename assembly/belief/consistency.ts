// What a candidate position must satisfy to stay in a belief state (Russell & Wolfe 2005, section
// 2): each event of the view replayed on it with the referee's own functions (assembly/referee/),
// so what a player hears and what the estimators expect cannot drift apart. Used by both
// estimators (bfs.ts, stream.ts).

import { POSITIONS, POSITION_SHIFT, W_COLOR, W_TYPE, W_SIDE, W_CASTLING, makeMove } from '../chess/position';
import { MOVES, generateMoves, listOffset, REFEREE_LIST, checkDirections } from '../chess/moveGen';
import {
  ANSWER_NONSENSE,
  END_NONE,
  END_DRAW_REPETITION,
  PERCEPT_END_SHIFT,
  ANSWER_LEGAL,
  legalMoveFor,
  playAndAnnounce,
  legalPawnCaptures,
  PAWN_TRY_SQUARES,
  pawnTryRuledOut,
  pawnTriesRuleOut,
  ruledOutBy,
  announcedSquaresWord,
  announcedBeforePlay,
  checkPercept,
  gameEnd,
  PERCEPT_BEFORE_PLAY,
  PERCEPT_CHECK_FIELDS,
} from '../referee/referee';
import { ATTEMPTS, generateAttempts, isPawnCaptureAttempt, isAttemptable, attemptOf } from '../referee/attempts';
import {
  viewLength,
  eventType,
  eventWord,
  V_OWN_ATTEMPT,
  V_OPPONENT,
  V_PAWN_TRIES,
  V_ANY,
  TRIES_COUNT,
  TRIES_EXISTS,
  V_TRIES_SHIFT,
  V_TRIES_FIELD,
} from './view';

// ---- consistency of one position with one event ----

/** Does a computed percept match the view's? A repetition draw depends on the game's history, not on the position: accepted where the position itself announces nothing. */
function perceptsMatch(view: i32, computed: i32): bool {
  if (view == computed) return true;
  const endMask = 7 << PERCEPT_END_SHIFT;
  return (
    ((view >> PERCEPT_END_SHIFT) & 7) == END_DRAW_REPETITION &&
    ((computed >> PERCEPT_END_SHIFT) & 7) == END_NONE &&
    (view & ~endMask) == (computed & ~endMask)
  );
}

/**
 * Plays the opponent's legal `move` of `h` into `dst`: does it make the announcements `percept`
 * (the view's)? The percept is computed in the referee's three parts (referee.ts), each compared
 * as soon as it is known: what is heard before the move is played (a capture and its square,
 * which rule out every move but those landing there, or none, which rules out every capture;
 * promotion, en passant) rejects most candidates without playing them, and the check most of the
 * rest before their game end is looked for.
 */
export function opponentMoveMatches(h: i32, move: i32, dst: i32, percept: i32): bool {
  const before = announcedBeforePlay(h, move);
  if (before != (percept & PERCEPT_BEFORE_PLAY)) return false;
  makeMove(h, move, dst);
  const directions = checkDirections(dst);
  const check = checkPercept(directions);
  if (check != (percept & PERCEPT_CHECK_FIELDS)) return false;
  return perceptsMatch(percept, before | check | (gameEnd(dst, directions) << PERCEPT_END_SHIFT));
}

/**
 * Attempts of the side to move of `h` that the referee would answer Illegal (the opponent's
 * possible Illegal attempts), given the number of its legal moves. Every legal move names its own
 * attempt (a move legal on the full board is legal on the board of the mover's own pieces, and
 * distinct legal moves have distinct attempt codes: only promotions share a from-to pair, and they
 * keep their piece), so the Illegal attempts are the attempts less the legal moves, less the pawn
 * capture attempts the pawn-try announcement rules out where the rules make them Nonsense (none
 * of them is legal: every legal capture is announced).
 */
function illegalOptionsGiven(h: i32, legal: i32): i32 {
  const n = generateAttempts(h);
  let count = n - legal;
  if (pawnTriesRuleOut()) {
    const tries = legalPawnCaptures(h); // generates moves, not attempts: ATTEMPTS stays intact
    for (let i = 0; i < n; i++) {
      const attempt = unchecked(ATTEMPTS[i]);
      if (isPawnCaptureAttempt(h, attempt) && ruledOutBy(attempt, tries)) count--;
    }
  }
  return count;
}

/** Attempts of the side to move that the referee would answer Illegal (the opponent's possible Illegal attempts). */
function illegalOptions(h: i32): i32 {
  return illegalOptionsGiven(h, generateMoves(h, listOffset(REFEREE_LIST)));
}

/**
 * Applies non-branching event `e` to position `h`: returns `h` (kept), `dst` (an own legal move
 * played into it), or -1 (inconsistent).
 */
export function applyEvent(h: i32, e: i32, dst: i32, list: i32): i32 {
  const type = eventType(e);
  if (type == V_OWN_ATTEMPT) {
    const percept = eventWord(e, 2);
    const answer = percept & 3;
    if (answer == ANSWER_NONSENSE) return h; // decided on the own board: says nothing of the rest
    const attempt = eventWord(e, 1);
    const move = legalMoveNamed(h, attempt, list);
    if (answer == ANSWER_LEGAL) return move >= 0 && perceptsMatch(percept, playAndAnnounce(h, move, dst)) ? dst : -1;
    return move < 0 && !isNonsense(h, e, attempt) ? h : -1; // Illegal
  }
  if (type == V_PAWN_TRIES) {
    const count = legalPawnCaptures(h);
    const kind = (unchecked(eventWord(e, 0)) >> V_TRIES_SHIFT) & V_TRIES_FIELD;
    if (kind == TRIES_COUNT) return count == eventWord(e, 1) ? h : -1;
    if (kind == TRIES_EXISTS) return (count > 0 ? 1 : 0) == eventWord(e, 1) ? h : -1;
    const word = announcedSquaresWord();
    return unchecked(PAWN_TRY_SQUARES[word]) == eventWord(e, 2) &&
      unchecked(PAWN_TRY_SQUARES[word + 1]) == eventWord(e, 3)
      ? h
      : -1;
  }
  if (type == V_ANY) return (legalPawnCaptures(h) > 0 ? 1 : 0) == eventWord(e, 1) ? h : -1;
  if (type == V_OPPONENT) return illegalCountPossible(h, e) ? h : -1; // a turn still in progress
  return -1;
}

// ---- own attempts ----
// The referee's answer to an attempt (answerAttempt, referee.ts) is Nonsense when the attempt is
// not attemptable on the mover's own board or is a pawn try the rules call Nonsense, else Illegal
// when it names no legal move, else Legal. A legal move is always attemptable (legal on the full
// board, it is legal on the own board) and never a Nonsense pawn try (it is itself a legal pawn
// capture), so the estimator asks in the other order: Legal exactly when the attempt names a legal
// move; Illegal when it names none and is not Nonsense. Attemptability depends only on the mover's
// own pieces and castling rights, the same in every candidate: it is computed once per own board.

// Per event of the view: the own board attemptability was computed for (OWN_WORDS words: the run
// stamp << 1 | attemptable, then the mover's pieces by colour and type and his castling rights).
const OWN_WORDS: i32 = 16;
let OWN_CACHE = new Int32Array(0);
let ownStamp: i32 = 0;

/** Forgets every own board (the rules, which shape attempts, may have changed since the last run). */
export function resetOwnAttempts(): void {
  ownStamp++;
  if (OWN_CACHE.length < viewLength() * OWN_WORDS) OWN_CACHE = new Int32Array(viewLength() * OWN_WORDS);
  ownListHandle = -1;
}

/** Would the referee call own attempt `attempt` (event `e`) Nonsense in `h`? */
function isNonsense(h: i32, e: i32, attempt: i32): bool {
  const base = h << POSITION_SHIFT;
  const c = e * OWN_WORDS;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const ownLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  const ownHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  const state = us | (unchecked(POSITIONS[base + W_CASTLING]) << 1);
  let same =
    unchecked(OWN_CACHE[c]) >> 1 == ownStamp &&
    unchecked(OWN_CACHE[c + 1]) == ownLo &&
    unchecked(OWN_CACHE[c + 2]) == ownHi &&
    unchecked(OWN_CACHE[c + 3]) == state;
  for (let i = 0; same && i < 12; i += 2) {
    same =
      unchecked(OWN_CACHE[c + 4 + i]) == (unchecked(POSITIONS[base + W_TYPE + 2 + i]) & ownLo) &&
      unchecked(OWN_CACHE[c + 5 + i]) == (unchecked(POSITIONS[base + W_TYPE + 3 + i]) & ownHi);
  }
  if (!same) {
    unchecked((OWN_CACHE[c] = (ownStamp << 1) | (isAttemptable(h, attempt) ? 1 : 0)));
    unchecked((OWN_CACHE[c + 1] = ownLo));
    unchecked((OWN_CACHE[c + 2] = ownHi));
    unchecked((OWN_CACHE[c + 3] = state));
    for (let i = 0; i < 12; i += 2) {
      unchecked((OWN_CACHE[c + 4 + i] = unchecked(POSITIONS[base + W_TYPE + 2 + i]) & ownLo));
      unchecked((OWN_CACHE[c + 5 + i] = unchecked(POSITIONS[base + W_TYPE + 3 + i]) & ownHi));
    }
  }
  if ((unchecked(OWN_CACHE[c]) & 1) == 0) return true;
  return pawnTryRuledOut(h, attempt);
}

// An own turn is often several attempts on one position (Illegal ones, then a legal one): its
// legal moves are generated once, into the move list the caller lends, while the position stays.
let ownListHandle: i32 = -1; // the position whose legal moves the lent list holds (-1: none)
let ownListCount: i32 = 0;
/** The lent list no longer holds the moves of the position being followed. */
export function forgetOwnList(): void {
  ownListHandle = -1;
}

/** The legal move of `h` that `attempt` names, or -1 (as legalMoveFor), generated into `list` unless it holds h's moves already. */
function legalMoveNamed(h: i32, attempt: i32, list: i32): i32 {
  if (list < 0) return legalMoveFor(h, attempt); // no list to lend (the deepest level)
  if (ownListHandle != h) {
    ownListCount = generateMoves(h, list);
    ownListHandle = h;
  }
  for (let i = 0; i < ownListCount; i++) {
    const move = unchecked(MOVES[list + i]);
    if (attemptOf(move) == attempt) return move;
  }
  return -1;
}

export function illegalCountPossible(h: i32, e: i32): bool {
  const heard = eventWord(e, 1);
  return heard <= 0 || illegalOptions(h) >= heard;
}

/** illegalCountPossible for a position whose `legal` moves have been generated. */
export function illegalCountPossibleGiven(h: i32, e: i32, legal: i32): bool {
  const heard = eventWord(e, 1);
  return heard <= 0 || illegalOptionsGiven(h, legal) >= heard;
}

// The referee: answers one attempt on the true position under the rule set in RULES, and
// computes the announcements of a legal move. State estimation replays these same functions on
// every candidate position, so what a player hears and what the estimator expects agree by
// construction.
//
// Percept (the referee's answer to one attempt, an i32):
// | bits   | field          | meaning                                                             |
// |--------|----------------|---------------------------------------------------------------------|
// | 0..1   | answer         | ANSWER_LEGAL 0, ANSWER_ILLEGAL 1, ANSWER_NONSENSE 2                 |
// | 2..8   | capture        | captured square + 1 (0: no capture); for en passant the square the  |
// |        |                | rules name (captured pawn's, or landing square)                     |
// | 9      | captured pawn  | only when the rules announce pawn-or-piece                         |
// | 10     | captured piece | only when the rules announce pawn-or-piece                         |
// | 11     | en passant     | only when the rules announce en passant                              |
// | 12..16 | directions     | CHECK_* bits of the check on the side now to move (direction rules) |
// | 17     | check          | the side now to move is in check (every rule set)                    |
// | 18..20 | end            | END_* below                                                          |
// | 21     | promotion      | only when the rules announce promotions (never the piece)            |
// Illegal and Nonsense answers carry only the answer field.

import { popcount64 } from '../chess/bitboard';
import {
  POSITIONS,
  POSITION_SHIFT,
  W_HALFMOVE,
  W_TYPE,
  W_COLOR,
  W_SIDE,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  MOVE_EN_PASSANT,
  MOVE_PROMOTION,
  makeMove,
  pieceAt,
} from '../chess/position';
import { MOVES, REFEREE_LIST, listOffset, generateMoves, checkDirections, kingCanStep } from '../chess/moveGen';
import {
  rule,
  RULE_CAPTURE_KIND,
  RULE_EP_LANDING_SQUARE,
  RULE_EP_ANNOUNCED,
  RULE_CHECK_DIRECTIONS,
  RULE_PROMOTION_ANNOUNCED,
  RULE_FIFTY_MOVES,
  RULE_MATERIAL_DRAW,
  RULE_PAWN_TRY_NONSENSE,
  RULE_PAWN_TRIES,
  MATERIAL_DRAW_NONE,
  MATERIAL_DRAW_BERKELEY,
  PAWN_TRIES_COUNT,
  PAWN_TRIES_EXISTS,
  PAWN_TRIES_SQUARES,
  PAWN_TRIES_PAWN_SQUARES,
} from './rules';
import { isAttemptable, isPawnCaptureAttempt, attemptOf } from './attempts';

export const ANSWER_LEGAL: i32 = 0;
export const ANSWER_ILLEGAL: i32 = 1;
export const ANSWER_NONSENSE: i32 = 2;

/** Field widths (as masks after the shift): answer, capture square + 1, directions, end. */
export const PERCEPT_ANSWER_FIELD: i32 = 3;
export const PERCEPT_SQUARE_FIELD: i32 = 127;
export const PERCEPT_DIRECTIONS_FIELD: i32 = 31;
export const PERCEPT_END_FIELD: i32 = 7;
export const PERCEPT_CAPTURE_SHIFT: i32 = 2;
export const PERCEPT_CAPTURED_PAWN: i32 = 1 << 9;
export const PERCEPT_CAPTURED_PIECE: i32 = 1 << 10;
export const PERCEPT_EN_PASSANT: i32 = 1 << 11;
export const PERCEPT_DIRECTIONS_SHIFT: i32 = 12;
export const PERCEPT_CHECK: i32 = 1 << 17;
export const PERCEPT_END_SHIFT: i32 = 18;
export const PERCEPT_PROMOTION: i32 = 1 << 21;

export const END_NONE: i32 = 0;
export const END_CHECKMATE: i32 = 1;
export const END_STALEMATE: i32 = 2;
export const END_DRAW_MATERIAL: i32 = 3;
export const END_DRAW_FIFTY: i32 = 4;
export const END_DRAW_REPETITION: i32 = 5;

export function perceptEnd(percept: i32): i32 {
  return (percept >> PERCEPT_END_SHIFT) & PERCEPT_END_FIELD;
}

/** The move list the referee generates into (its own list of the pool). */
const refereeMovesOut: i32 = listOffset(REFEREE_LIST);

/** The legal move of `handle` that `attempt` names, or -1 if the attempt is not legal. */
export function legalMoveFor(handle: i32, attempt: i32): i32 {
  const n = generateMoves(handle, refereeMovesOut);
  for (let i = 0; i < n; i++) {
    const move = unchecked(MOVES[refereeMovesOut + i]);
    if (attemptOf(move) == attempt) return move;
  }
  return -1;
}

// Light squares (b1, a2, …: file + rank odd), for bishops of one colour.
const LIGHT_LO: i32 = 0x55aa55aa;
const LIGHT_HI: i32 = 0x55aa55aa;

/** Does the material of `handle` end the game under the rules' material draw (MATERIAL_DRAW_*)? */
export function insufficientMaterial(handle: i32): bool {
  const kind = rule(RULE_MATERIAL_DRAW);
  if (kind == MATERIAL_DRAW_NONE) return false;
  const base = handle << POSITION_SHIFT;
  const t = base + W_TYPE;
  // pawns, rooks and queens can always mate (or promote)
  if (
    (unchecked(POSITIONS[t + (PAWN << 1)]) |
      unchecked(POSITIONS[t + (ROOK << 1)]) |
      unchecked(POSITIONS[t + (QUEEN << 1)]) |
      unchecked(POSITIONS[t + (PAWN << 1) + 1]) |
      unchecked(POSITIONS[t + (ROOK << 1) + 1]) |
      unchecked(POSITIONS[t + (QUEEN << 1) + 1])) !=
    0
  )
    return false;
  const knightsLo = unchecked(POSITIONS[t + (KNIGHT << 1)]);
  const knightsHi = unchecked(POSITIONS[t + (KNIGHT << 1) + 1]);
  const bishopsLo = unchecked(POSITIONS[t + (BISHOP << 1)]);
  const bishopsHi = unchecked(POSITIONS[t + (BISHOP << 1) + 1]);
  const minorLo = knightsLo | bishopsLo;
  const minorHi = knightsHi | bishopsHi;
  if (kind == MATERIAL_DRAW_BERKELEY) {
    // "when both players have no pieces or only a single knight or bishop"
    const white = popcount64(
      minorLo & unchecked(POSITIONS[base + W_COLOR]),
      minorHi & unchecked(POSITIONS[base + W_COLOR + 1]),
    );
    const black = popcount64(
      minorLo & unchecked(POSITIONS[base + W_COLOR + 2]),
      minorHi & unchecked(POSITIONS[base + W_COLOR + 3]),
    );
    return white <= 1 && black <= 1;
  }
  // dead: a lone knight, or bishops on one colour only (no knight)
  const knights = popcount64(knightsLo, knightsHi);
  if (knights > 0) return knights == 1 && (bishopsLo | bishopsHi) == 0;
  const onLight = ((bishopsLo & LIGHT_LO) | (bishopsHi & LIGHT_HI)) != 0;
  const onDark = ((bishopsLo & ~LIGHT_LO) | (bishopsHi & ~LIGHT_HI)) != 0;
  return !(onLight && onDark);
}

/**
 * Plays legal `move` of `src` into `dst` and returns its percept (what both players hear).
 * Repetition is a property of the game, not of one position: game.ts adds END_DRAW_REPETITION.
 */
export function playAndAnnounce(src: i32, move: i32, dst: i32): i32 {
  const before = announcedBeforePlay(src, move);
  makeMove(src, move, dst);
  const directions = checkDirections(dst);
  return before | checkPercept(directions) | (gameEnd(dst, directions) << PERCEPT_END_SHIFT);
}

// A percept in three parts, so that a state estimator can reject a candidate move at the first
// part that differs from what was heard (the common case), before the move is played or its end
// looked for: playAndAnnounce is their union, so the two cannot drift apart.

/** The fields of a percept known before the move is played (PERCEPT_BEFORE_PLAY): capture square and kind, en passant, promotion. */
export const PERCEPT_BEFORE_PLAY: i32 =
  PERCEPT_ANSWER_FIELD |
  (PERCEPT_SQUARE_FIELD << PERCEPT_CAPTURE_SHIFT) |
  PERCEPT_CAPTURED_PAWN |
  PERCEPT_CAPTURED_PIECE |
  PERCEPT_EN_PASSANT |
  PERCEPT_PROMOTION;
/** The check fields: check, and its directions where the rules announce them. */
export const PERCEPT_CHECK_FIELDS: i32 = PERCEPT_CHECK | (PERCEPT_DIRECTIONS_FIELD << PERCEPT_DIRECTIONS_SHIFT);

/** The PERCEPT_BEFORE_PLAY fields of legal `move` of `src` (ANSWER_LEGAL). */
export function announcedBeforePlay(src: i32, move: i32): i32 {
  const base = src << POSITION_SHIFT;
  const to = (move >> 6) & 63;
  const kind = move >> 12;
  let percept = ANSWER_LEGAL;
  let capturedSquare = -1;
  let captured = 0;
  if (kind == MOVE_EN_PASSANT) {
    capturedSquare = rule(RULE_EP_LANDING_SQUARE) != 0 ? to : to ^ 8;
    captured = PAWN;
    if (rule(RULE_EP_ANNOUNCED) != 0) percept |= PERCEPT_EN_PASSANT;
  } else {
    captured = pieceAt(base, to) & 7;
    if (captured != 0) capturedSquare = to;
  }
  if (capturedSquare >= 0) {
    percept |= (capturedSquare + 1) << PERCEPT_CAPTURE_SHIFT;
    if (rule(RULE_CAPTURE_KIND) != 0) percept |= captured == PAWN ? PERCEPT_CAPTURED_PAWN : PERCEPT_CAPTURED_PIECE;
  }
  if (kind >= MOVE_PROMOTION && rule(RULE_PROMOTION_ANNOUNCED) != 0) percept |= PERCEPT_PROMOTION;
  return percept;
}

/** The PERCEPT_CHECK_FIELDS of a position whose side to move is checked from `directions` (checkDirections). */
export function checkPercept(directions: i32): i32 {
  if (directions == 0) return 0;
  return rule(RULE_CHECK_DIRECTIONS) != 0 ? PERCEPT_CHECK | (directions << PERCEPT_DIRECTIONS_SHIFT) : PERCEPT_CHECK;
}

/** How the game stands after a move played into `dst` (END_*, repetition aside), its side to move checked from `directions`. */
export function gameEnd(dst: i32, directions: i32): i32 {
  // no legal move: mate or stalemate (a king step, the usual case, settles it without a full generation)
  if (!kingCanStep(dst) && generateMoves(dst, refereeMovesOut) == 0)
    return directions != 0 ? END_CHECKMATE : END_STALEMATE;
  if (insufficientMaterial(dst)) return END_DRAW_MATERIAL;
  if (rule(RULE_FIFTY_MOVES) != 0 && unchecked(POSITIONS[(dst << POSITION_SHIFT) + W_HALFMOVE]) >= 100)
    return END_DRAW_FIFTY;
  return END_NONE;
}

// Legal pawn captures of the side to move (pawn tries): their number, counting a capture that
// promotes once, the set of squares they land on (PAWN_TRY_SQUARES words 0, 1: lo, hi) and the set
// of squares of the pawns that make them (words 2, 3).
export const PAWN_TRY_SQUARES = new Int32Array(4);

export function legalPawnCaptures(handle: i32): i32 {
  const base = handle << POSITION_SHIFT;
  const n = generateMoves(handle, refereeMovesOut);
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const themLo = unchecked(POSITIONS[base + W_COLOR + ((us ^ 1) << 1)]);
  const themHi = unchecked(POSITIONS[base + W_COLOR + ((us ^ 1) << 1) + 1]);
  let count = 0;
  let lo = 0;
  let hi = 0;
  let pawnsLo = 0;
  let pawnsHi = 0;
  let previous = -1;
  for (let i = 0; i < n; i++) {
    const move = unchecked(MOVES[refereeMovesOut + i]);
    const from = move & 63;
    const to = (move >> 6) & 63;
    if ((pieceAt(base, from) & 7) != PAWN || ((from ^ to) & 7) == 0) continue;
    // a diagonal pawn move is a capture (onto an enemy piece, or en passant)
    const target = to < 32 ? (themLo >>> to) & 1 : (themHi >>> (to - 32)) & 1;
    if (target == 0 && move >> 12 != MOVE_EN_PASSANT) continue;
    if ((move & 0xfff) == previous) continue; // the other promotion pieces of one capture
    previous = move & 0xfff;
    count++;
    if (to < 32) lo |= 1 << to;
    else hi |= 1 << (to - 32);
    if (from < 32) pawnsLo |= 1 << from;
    else pawnsHi |= 1 << (from - 32);
  }
  PAWN_TRY_SQUARES[0] = lo;
  PAWN_TRY_SQUARES[1] = hi;
  PAWN_TRY_SQUARES[2] = pawnsLo;
  PAWN_TRY_SQUARES[3] = pawnsHi;
  return count;
}

/** The word of PAWN_TRY_SQUARES where the squares the rules announce begin (landing squares, or the pawns' squares). */
export function announcedSquaresWord(): i32 {
  return rule(RULE_PAWN_TRIES) == PAWN_TRIES_PAWN_SQUARES ? 2 : 0;
}

/** Do the rules make pawn capture attempts that the pawn-try announcement rules out Nonsense? */
export function pawnTriesRuleOut(): bool {
  return rule(RULE_PAWN_TRY_NONSENSE) != 0 && rule(RULE_PAWN_TRIES) >= PAWN_TRIES_COUNT;
}

/**
 * Is pawn capture attempt `attempt` ruled out by the pawn-try announcement, just computed by
 * legalPawnCaptures (which returned `count`)? A count of 0 or "no" rules out every pawn capture;
 * squares rule out a capture landing on (or made by a pawn standing on) a square not announced.
 * Never true of a legal move: every legal capture is announced.
 */
export function ruledOutBy(attempt: i32, count: i32): bool {
  const mode = rule(RULE_PAWN_TRIES);
  if (mode == PAWN_TRIES_COUNT || mode == PAWN_TRIES_EXISTS) return count == 0;
  const landing = mode == PAWN_TRIES_SQUARES;
  const sq = landing ? (attempt >> 6) & 63 : attempt & 63;
  const word = unchecked(PAWN_TRY_SQUARES[(landing ? 0 : 2) + (sq >> 5)]);
  return ((word >>> (sq & 31)) & 1) == 0;
}

/**
 * Is `attempt` of `handle` a pawn capture attempt that the rules make Nonsense because the
 * pawn-try announcement rules it out (RAND rules 7 and 10: an attempt incompatible with the
 * referee's announcement; Cincinnati: a pawn try when no pawn capture was announced)? Rules that
 * announce no pawn tries rule nothing out.
 */
export function pawnTryRuledOut(handle: i32, attempt: i32): bool {
  if (!pawnTriesRuleOut() || !isPawnCaptureAttempt(handle, attempt)) return false;
  return ruledOutBy(attempt, legalPawnCaptures(handle));
}

/**
 * The referee's answer to `attempt` in `handle`, playing it into `dst` when legal. Does not know
 * the turn's history: game.ts handles attempts repeated within a turn.
 */
export function answerAttempt(handle: i32, attempt: i32, dst: i32): i32 {
  if (!isAttemptable(handle, attempt)) return ANSWER_NONSENSE;
  if (pawnTryRuledOut(handle, attempt)) return ANSWER_NONSENSE;
  const move = legalMoveFor(handle, attempt);
  if (move < 0) return ANSWER_ILLEGAL;
  return playAndAnnounce(handle, move, dst);
}

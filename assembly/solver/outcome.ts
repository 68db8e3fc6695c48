// How the solver judges single positions, and what it hears besides the referee's percept.
//
// After our legal move (depth = plies left before it):
// - WON: the opponent is checkmated; or stalemated where the rules make stalemate a loss; or,
//   with the material-win option, the opponent has a bare king and we hold a known forced win
//   guarded by our king (see materialWin);
// - FAILED: stalemate (as a draw), a draw by material or the fifty-move rule, or no win with fewer
//   than 3 plies left (their move and another of ours);
// - OPEN: the search goes on.
// After their move, any end of the game (we are mated or stalemated, or a draw) fails.
// Draws by repetition depend on the game's history, which a belief state does not carry: the
// solver does not model them (documented in docs/solver.md).

import {
  POSITIONS,
  POSITION_SHIFT,
  W_COLOR,
  W_TYPE,
  W_SIDE,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  KING,
} from '../chess/position';
import { KING_ATTACKS } from '../chess/attacks';
import { popcount64, lowestSquare } from '../chess/bitboard';
import {
  rule,
  pawnTriesAnnounced,
  RULES,
  RULE_PAWN_TRIES,
  RULE_STALEMATE_LOSES,
  PAWN_TRIES_COUNT,
  PAWN_TRIES_EXISTS,
} from '../referee/rules';
import {
  END_NONE,
  END_CHECKMATE,
  END_STALEMATE,
  perceptEnd,
  legalPawnCaptures,
  PAWN_TRY_SQUARES,
  announcedSquaresWord,
} from '../referee/referee';

export const OPEN: i32 = 0;
export const WON: i32 = 1;
export const FAILED: i32 = 2;

/** Count Berkeley's known material wins against a bare king as won leaves. */
export let materialWins: bool = false;
export function setMaterialWins(on: bool): void {
  materialWins = on;
}

/** Judges the position `h` reached by our legal move with `percept`, `depth` plies left before that move. */
export function afterOwnMove(h: i32, percept: i32, depth: i32): i32 {
  const end = perceptEnd(percept);
  if (end == END_CHECKMATE) return WON;
  if (end == END_STALEMATE && rule(RULE_STALEMATE_LOSES) != 0) return WON;
  if (end != END_NONE) return FAILED;
  if (materialWins && materialWin(h)) return WON;
  return depth < 3 ? FAILED : OPEN;
}

/**
 * Berkeley's list of wins that need no search: the side to move (them) has a bare king, and we have
 * besides our king exactly a queen, a rook, a pawn off the a- and h-files, two bishops on squares
 * of different colours, or a bishop and a knight — each piece next to our king (so the bare king
 * can never take it).
 */
export function materialWin(h: i32): bool {
  const base = h << POSITION_SHIFT;
  const them = unchecked(POSITIONS[base + W_SIDE]);
  const us = them ^ 1;
  if (
    popcount64(
      unchecked(POSITIONS[base + W_COLOR + (them << 1)]),
      unchecked(POSITIONS[base + W_COLOR + (them << 1) + 1]),
    ) != 1
  )
    return false;
  const usLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  const usHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  const kingLo = usLo & unchecked(POSITIONS[base + W_TYPE + (KING << 1)]);
  const kingHi = usHi & unchecked(POSITIONS[base + W_TYPE + (KING << 1) + 1]);
  const restLo = usLo & ~kingLo;
  const restHi = usHi & ~kingHi;
  const k = lowestSquare(kingLo, kingHi);
  // every other piece of ours stands next to our king
  if ((restLo & ~unchecked(KING_ATTACKS[k << 1])) != 0 || (restHi & ~unchecked(KING_ATTACKS[(k << 1) + 1])) != 0)
    return false;
  const pieces = popcount64(restLo, restHi);
  if (pieces == 1) {
    if (count(base, us, QUEEN) == 1 || count(base, us, ROOK) == 1) return true;
    if (count(base, us, PAWN) == 1) {
      const file = lowestSquare(restLo, restHi) & 7;
      return file != 0 && file != 7;
    }
    return false;
  }
  if (pieces != 2) return false;
  if (count(base, us, BISHOP) == 1 && count(base, us, KNIGHT) == 1) return true;
  if (count(base, us, BISHOP) != 2) return false;
  // two bishops: one on a light square, one on a dark one
  const first = lowestSquare(restLo, restHi);
  const second = first < 32 ? lowestSquare(restLo & (restLo - 1), restHi) : lowestSquare(0, restHi & (restHi - 1));
  return (((first >> 3) + first) & 1) != (((second >> 3) + second) & 1);
}

function count(base: i32, color: i32, type: i32): i32 {
  return popcount64(
    unchecked(POSITIONS[base + W_COLOR + (color << 1)]) & unchecked(POSITIONS[base + W_TYPE + (type << 1)]),
    unchecked(POSITIONS[base + W_COLOR + (color << 1) + 1]) & unchecked(POSITIONS[base + W_TYPE + (type << 1) + 1]),
  );
}

// What the rules announce about pawn tries before the turn of the side to move in `h` (both
// players hear it): two words, kept in globals because functions cannot return pairs.
export let triesLo: i32 = 0;
export let triesHi: i32 = 0;

export function announceTries(h: i32): void {
  triesLo = 0;
  triesHi = 0;
  if (!pawnTriesAnnounced()) return;
  const n = legalPawnCaptures(h);
  const mode = unchecked(RULES[RULE_PAWN_TRIES]);
  if (mode == PAWN_TRIES_COUNT) triesLo = n;
  else if (mode == PAWN_TRIES_EXISTS) triesLo = n > 0 ? 1 : 0;
  else {
    const word = announcedSquaresWord();
    triesLo = unchecked(PAWN_TRY_SQUARES[word]);
    triesHi = unchecked(PAWN_TRY_SQUARES[word + 1]);
  }
}

// Attempts: what a player may propose without it being Nonsense. An attempt is a move that is
// legal on a board holding only the mover's own pieces (no enemy piece can block, pin or check
// there), or any pawn diagonal step onto a square without an own piece (a pawn capture attempt).
// Attempts depend only on the mover's own pieces and castling rights, which every position of
// his belief state shares.
//
// Attempt code: from | to << 6 | promotion << 12, promotion 0 or MOVE_PROMOTION + 0..3 (N, B, R,
// Q) as in move codes; castling is the king's two-square step. A legal move's attempt code is its
// move code with the kind cleared unless it promotes (attemptOf).

import { WHITE, lowestSquare } from '../chess/bitboard';
import {
  POSITIONS,
  POSITION_SHIFT,
  W_COLOR,
  W_TYPE,
  W_SIDE,
  W_CASTLING,
  PAWN,
  KING,
  MOVE_PROMOTION,
  CASTLING_ALLOWED,
  PROMOTION_TYPES,
  pieceAt,
  pieceAttacks,
  PIECE_ATTACKS,
} from '../chess/position';

/** Scratch list for attempt generation (at most 8 pawns x 3 targets x 4 promotions + pieces < 256). */
export const ATTEMPTS = new Int32Array(256);

export function attemptOf(move: i32): i32 {
  return move >> 12 >= MOVE_PROMOTION ? move : move & 0xfff;
}

/** Does one of `us`'s pieces stand on `sq`? (Enemy pieces do not exist on the own board.) */
function ownPieceOn(base: i32, sq: i32, us: i32): bool {
  const code = pieceAt(base, sq);
  return code != 0 && code >> 3 == us;
}

function addTargets(n: i32, from: i32, lo: i32, hi: i32): i32 {
  while ((lo | hi) != 0) {
    const to = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    unchecked((ATTEMPTS[n++] = from | (to << 6)));
  }
  return n;
}

function addPawnAttempt(n: i32, from: i32, to: i32): i32 {
  if (to < 8 || to >= 56) {
    for (let piece = 3; piece >= 0; piece--) {
      if (((PROMOTION_TYPES >> piece) & 1) != 0)
        unchecked((ATTEMPTS[n++] = from | (to << 6) | ((MOVE_PROMOTION + piece) << 12)));
    }
    return n;
  }
  unchecked((ATTEMPTS[n++] = from | (to << 6)));
  return n;
}

/** Every attempt of the side to move in `handle` into ATTEMPTS; returns how many. */
export function generateAttempts(handle: i32): i32 {
  const base = handle << POSITION_SHIFT;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const ownLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  const ownHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  let n = 0;
  for (let type = PAWN; type <= KING; type++) {
    let lo = unchecked(POSITIONS[base + W_TYPE + (type << 1)]) & ownLo;
    let hi = unchecked(POSITIONS[base + W_TYPE + (type << 1) + 1]) & ownHi;
    while ((lo | hi) != 0) {
      const from = lowestSquare(lo, hi);
      if (lo != 0) lo &= lo - 1;
      else hi &= hi - 1;
      if (type == PAWN) {
        const up = us == WHITE ? 8 : -8;
        const one = from + up;
        if (!ownPieceOn(base, one, us)) {
          n = addPawnAttempt(n, from, one);
          const startRank = us == WHITE ? 1 : 6;
          const two = one + up;
          if (from >> 3 == startRank && !ownPieceOn(base, two, us)) n = addPawnAttempt(n, from, two);
        }
        pieceAttacks(PAWN, us, from, ownLo, ownHi);
        let dLo = unchecked(PIECE_ATTACKS[0]) & ~ownLo;
        let dHi = unchecked(PIECE_ATTACKS[1]) & ~ownHi;
        while ((dLo | dHi) != 0) {
          const to = lowestSquare(dLo, dHi);
          if (dLo != 0) dLo &= dLo - 1;
          else dHi &= dHi - 1;
          n = addPawnAttempt(n, from, to);
        }
      } else {
        pieceAttacks(type, us, from, ownLo, ownHi);
        const tLo = unchecked(PIECE_ATTACKS[0]);
        const tHi = unchecked(PIECE_ATTACKS[1]);
        n = addTargets(n, from, tLo & ~ownLo, tHi & ~ownHi);
      }
    }
  }
  // castling on the own board: the right, and no own piece between king and rook
  if (CASTLING_ALLOWED) {
    const rights = unchecked(POSITIONS[base + W_CASTLING]) >> (us << 1);
    const home = us == WHITE ? 0 : 56;
    if ((rights & 1) != 0 && !ownPieceOn(base, home + 5, us) && !ownPieceOn(base, home + 6, us)) {
      ATTEMPTS[n++] = (home + 4) | ((home + 6) << 6);
    }
    if (
      (rights & 2) != 0 &&
      !ownPieceOn(base, home + 1, us) &&
      !ownPieceOn(base, home + 2, us) &&
      !ownPieceOn(base, home + 3, us)
    ) {
      ATTEMPTS[n++] = (home + 4) | ((home + 2) << 6);
    }
  }
  return n;
}

/** Is `attempt` among the attempts of the side to move (is it not Nonsense on the own board)? */
export function isAttemptable(handle: i32, attempt: i32): bool {
  const n = generateAttempts(handle);
  for (let i = 0; i < n; i++) if (unchecked(ATTEMPTS[i]) == attempt) return true;
  return false;
}

/** Is `attempt` a pawn diagonal step (a pawn capture attempt) in `handle`? */
export function isPawnCaptureAttempt(handle: i32, attempt: i32): bool {
  const from = attempt & 63;
  const to = (attempt >> 6) & 63;
  const piece = pieceAt(handle << POSITION_SHIFT, from);
  return (piece & 7) == PAWN && ((from ^ to) & 7) != 0;
}

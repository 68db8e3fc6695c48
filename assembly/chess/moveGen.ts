// Fully legal move generation (no make-and-test): checkers and pins are found first, then every
// piece's targets are masked by the check mask and, for a pinned piece, by its pin line.
// Moves go to the caller's list in MOVES (a fixed pool of MOVE_LISTS lists, see position.ts for the
// 16-bit move layout). Also the check announcement: which directions the king is checked from.

import { WHITE, NO_SQUARE, lowestSquare, popcount64 } from './bitboard';
import { newArena } from './arena';
import {
  KNIGHT_ATTACKS,
  KING_ATTACKS,
  PAWN_ATTACKS,
  BETWEEN,
  LINE,
  rookIndex,
  bishopIndex,
  rookTableWord,
  bishopTableWord,
} from './attacks';
import {
  POSITIONS,
  POSITION_SHIFT,
  W_COLOR,
  W_TYPE,
  W_SIDE,
  W_CASTLING,
  W_EN_PASSANT,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  MOVE_NORMAL,
  MOVE_DOUBLE_PUSH,
  MOVE_CASTLE,
  MOVE_EN_PASSANT,
  MOVE_PROMOTION,
  CASTLE_WHITE_KING,
  CASTLE_WHITE_QUEEN,
  CASTLING_ALLOWED,
  PROMOTION_TYPES,
  kingSquare,
  pieceAt,
  isAttackedWith,
  enPassantLegal,
} from './position';

/** Longest legal move list is 218; lists are MAX_MOVES apart. */
export const MAX_MOVES: i32 = 256;

// The pool of move lists (independent of the position arena, which may hold millions of positions):
// | lists        | owner                                                        |
// |--------------|--------------------------------------------------------------|
// | 0 … 63       | perft (list d at remaining depth d) and searches             |
// | 64 … 509     | the belief-state estimator, one per opponent turn (LEVEL_LISTS)|
// | 510          | the host (Engine.moves)                                      |
// | 511          | the referee's scratch                                        |
export const MOVE_LISTS: i32 = 512;
export const SEARCH_LISTS: i32 = 64;
export const LEVEL_LIST_BASE: i32 = 64;
export const LEVEL_LISTS: i32 = 446;
export const HOST_LIST: i32 = 510;
export const REFEREE_LIST: i32 = 511;
export const MOVES = newArena(MOVE_LISTS * MAX_MOVES);

/** Offset in MOVES of move list `list`. */
export function listOffset(list: i32): i32 {
  return list * MAX_MOVES;
}

// Results of findCheckers (a bitboard pair), kept in globals: functions cannot return pairs.
let checkersLo: i32 = 0;
let checkersHi: i32 = 0;

/** Pieces of the side not to move that give check to the king on `ksq`. */
function findCheckers(base: i32, ksq: i32, us: i32, occLo: i32, occHi: i32): void {
  const t = base + W_COLOR + ((us ^ 1) << 1);
  const themLo = unchecked(POSITIONS[t]);
  const themHi = unchecked(POSITIONS[t + 1]);
  const k2 = ksq << 1;
  const p = (us * 64 + ksq) << 1;
  const r = rookIndex(ksq, occLo, occHi);
  const b = bishopIndex(ksq, occLo, occHi);
  const qLo = unchecked(POSITIONS[base + W_TYPE + (QUEEN << 1)]);
  const qHi = unchecked(POSITIONS[base + W_TYPE + (QUEEN << 1) + 1]);
  checkersLo =
    themLo &
    ((unchecked(KNIGHT_ATTACKS[k2]) & unchecked(POSITIONS[base + W_TYPE + (KNIGHT << 1)])) |
      (unchecked(PAWN_ATTACKS[p]) & unchecked(POSITIONS[base + W_TYPE + (PAWN << 1)])) |
      (rookTableWord(r) & (unchecked(POSITIONS[base + W_TYPE + (ROOK << 1)]) | qLo)) |
      (bishopTableWord(b) & (unchecked(POSITIONS[base + W_TYPE + (BISHOP << 1)]) | qLo)));
  checkersHi =
    themHi &
    ((unchecked(KNIGHT_ATTACKS[k2 + 1]) & unchecked(POSITIONS[base + W_TYPE + (KNIGHT << 1) + 1])) |
      (unchecked(PAWN_ATTACKS[p + 1]) & unchecked(POSITIONS[base + W_TYPE + (PAWN << 1) + 1])) |
      (rookTableWord(r + 1) & (unchecked(POSITIONS[base + W_TYPE + (ROOK << 1) + 1]) | qHi)) |
      (bishopTableWord(b + 1) & (unchecked(POSITIONS[base + W_TYPE + (BISHOP << 1) + 1]) | qHi)));
}

/** Writes a move from `from` to every square of (lo, hi); returns the next free index. */
function emitTargets(n: i32, from: i32, lo: i32, hi: i32): i32 {
  while (lo != 0) {
    unchecked((MOVES[n++] = from | (i32(ctz<i32>(lo)) << 6)));
    lo &= lo - 1;
  }
  while (hi != 0) {
    unchecked((MOVES[n++] = from | ((32 + i32(ctz<i32>(hi))) << 6)));
    hi &= hi - 1;
  }
  return n;
}

function emitPawnMove(n: i32, from: i32, to: i32): i32 {
  if (to < 8 || to >= 56) {
    const move = from | (to << 6);
    if (PROMOTION_TYPES == 15) {
      unchecked((MOVES[n++] = move | ((MOVE_PROMOTION + 3) << 12))); // queen first
      unchecked((MOVES[n++] = move | ((MOVE_PROMOTION + 0) << 12)));
      unchecked((MOVES[n++] = move | ((MOVE_PROMOTION + 2) << 12)));
      unchecked((MOVES[n++] = move | ((MOVE_PROMOTION + 1) << 12)));
      return n;
    }
    for (let piece = 3; piece >= 0; piece--) {
      if (((PROMOTION_TYPES >> piece) & 1) != 0) unchecked((MOVES[n++] = move | ((MOVE_PROMOTION + piece) << 12)));
    }
    return n;
  }
  unchecked((MOVES[n++] = from | (to << 6)));
  return n;
}

/** Pawn moves to every square of (lo, hi), each from `to - delta`; promotions expand to four moves. */
function emitPawnSet(n: i32, lo: i32, hi: i32, delta: i32, kind: i32): i32 {
  while (lo != 0) {
    const to = i32(ctz<i32>(lo));
    lo &= lo - 1;
    if (kind == MOVE_NORMAL) n = emitPawnMove(n, to - delta, to);
    else unchecked((MOVES[n++] = (to - delta) | (to << 6) | (kind << 12)));
  }
  while (hi != 0) {
    const to = 32 + i32(ctz<i32>(hi));
    hi &= hi - 1;
    if (kind == MOVE_NORMAL) n = emitPawnMove(n, to - delta, to);
    else unchecked((MOVES[n++] = (to - delta) | (to << 6) | (kind << 12)));
  }
  return n;
}

// Shift a pair by `delta` squares (positive: towards h8), for set-wise pawn moves.
function shiftedLo(lo: i32, hi: i32, delta: i32): i32 {
  return delta > 0 ? lo << delta : i32(lo >>> -delta) | (hi << (32 + delta));
}
function shiftedHi(lo: i32, hi: i32, delta: i32): i32 {
  return delta > 0 ? (hi << delta) | i32(lo >>> (32 - delta)) : i32(hi >>> -delta);
}

const FILE_A: i32 = 0x01010101;
const FILE_H: i32 = 0x80808080;

/**
 * Pushes and captures of the pawns (pLo, pHi), moving `up` (+8 White, -8 Black), landing only on
 * (mLo, mHi): the check mask, narrowed to the pin line for a pinned pawn.
 */
function pawnMoves(
  n: i32,
  pLo: i32,
  pHi: i32,
  mLo: i32,
  mHi: i32,
  up: i32,
  themLo: i32,
  themHi: i32,
  occLo: i32,
  occHi: i32,
): i32 {
  const oneLo = shiftedLo(pLo, pHi, up) & ~occLo;
  const oneHi = shiftedHi(pLo, pHi, up) & ~occHi;
  // a single push that lands on the relative third rank may go on to the fourth
  const thirdLo = up > 0 ? 0x00ff0000 : 0;
  const thirdHi = up > 0 ? 0 : 0x0000ff00;
  const twoLo = shiftedLo(oneLo & thirdLo, oneHi & thirdHi, up) & ~occLo;
  const twoHi = shiftedHi(oneLo & thirdLo, oneHi & thirdHi, up) & ~occHi;
  n = emitPawnSet(n, oneLo & mLo, oneHi & mHi, up, MOVE_NORMAL);
  n = emitPawnSet(n, twoLo & mLo, twoHi & mHi, up + up, MOVE_DOUBLE_PUSH);
  // captures towards the a-file (up - 1) and towards the h-file (up + 1)
  const aLo = pLo & ~FILE_A;
  const aHi = pHi & ~FILE_A;
  const hLo = pLo & ~FILE_H;
  const hHi = pHi & ~FILE_H;
  n = emitPawnSet(
    n,
    shiftedLo(aLo, aHi, up - 1) & themLo & mLo,
    shiftedHi(aLo, aHi, up - 1) & themHi & mHi,
    up - 1,
    MOVE_NORMAL,
  );
  return emitPawnSet(
    n,
    shiftedLo(hLo, hHi, up + 1) & themLo & mLo,
    shiftedHi(hLo, hHi, up + 1) & themHi & mHi,
    up + 1,
    MOVE_NORMAL,
  );
}

/** Can the side to move's king step somewhere (a cheap first test for "has a legal move")? */
export function kingCanStep(handle: i32): bool {
  const base = handle << POSITION_SHIFT;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const ksq = kingSquare(base, us);
  const occLo = unchecked(POSITIONS[base]) | unchecked(POSITIONS[base + 2]);
  const occHi = unchecked(POSITIONS[base + 1]) | unchecked(POSITIONS[base + 3]);
  const kLo = ksq < 32 ? 1 << ksq : 0;
  const kHi = ksq < 32 ? 0 : 1 << (ksq - 32);
  let lo = unchecked(KING_ATTACKS[ksq << 1]) & ~unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  let hi = unchecked(KING_ATTACKS[(ksq << 1) + 1]) & ~unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  while ((lo | hi) != 0) {
    const to = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    if (!isAttackedWith(base, to, us ^ 1, occLo & ~kLo, occHi & ~kHi, 0, 0)) return true;
  }
  return false;
}

/** The king's steps to squares not attacked once it has left its own: the king is removed from the occupancy so it cannot hide behind itself. */
function kingSteps(n: i32, base: i32, ksq: i32, them: i32, usLo: i32, usHi: i32, occLo: i32, occHi: i32): i32 {
  const kLo = ksq < 32 ? 1 << ksq : 0;
  const kHi = ksq < 32 ? 0 : 1 << (ksq - 32);
  let lo = unchecked(KING_ATTACKS[ksq << 1]) & ~usLo;
  let hi = unchecked(KING_ATTACKS[(ksq << 1) + 1]) & ~usHi;
  while (lo != 0) {
    const to = i32(ctz<i32>(lo));
    lo &= lo - 1;
    if (!isAttackedWith(base, to, them, occLo & ~kLo, occHi & ~kHi, 0, 0)) unchecked((MOVES[n++] = ksq | (to << 6)));
  }
  while (hi != 0) {
    const to = 32 + i32(ctz<i32>(hi));
    hi &= hi - 1;
    if (!isAttackedWith(base, to, them, occLo & ~kLo, occHi & ~kHi, 0, 0)) unchecked((MOVES[n++] = ksq | (to << 6)));
  }
  return n;
}

/** Castling, out of check: rights imply king and rook on their home squares (position.ts invariant). */
function castlingMoves(n: i32, base: i32, us: i32, them: i32, ksq: i32, occLo: i32, occHi: i32): i32 {
  const rights = unchecked(POSITIONS[base + W_CASTLING]) >> (us << 1);
  if ((rights & (CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN)) == 0 || !CASTLING_ALLOWED) return n;
  const home = us == WHITE ? 0 : 56; // a1 / a8
  const occRank = us == WHITE ? occLo & 0xff : i32(occHi >>> 24); // the home rank, a-file in bit 0
  if (
    (rights & CASTLE_WHITE_KING) != 0 &&
    (occRank & 0x60) == 0 &&
    !isAttackedWith(base, home + 5, them, occLo, occHi, 0, 0) &&
    !isAttackedWith(base, home + 6, them, occLo, occHi, 0, 0)
  ) {
    unchecked((MOVES[n++] = ksq | ((home + 6) << 6) | (MOVE_CASTLE << 12)));
  }
  if (
    (rights & CASTLE_WHITE_QUEEN) != 0 &&
    (occRank & 0x0e) == 0 &&
    !isAttackedWith(base, home + 3, them, occLo, occHi, 0, 0) &&
    !isAttackedWith(base, home + 2, them, occLo, occHi, 0, 0)
  ) {
    unchecked((MOVES[n++] = ksq | ((home + 2) << 6) | (MOVE_CASTLE << 12)));
  }
  return n;
}

/** The pawns (pawnsLo, pawnsHi), landing on the mask: unpinned ones set-wise, pinned ones one by one along their pin line. */
function allPawnMoves(
  n: i32,
  ksq: i32,
  us: i32,
  pawnsLo: i32,
  pawnsHi: i32,
  mLo: i32,
  mHi: i32,
  themLo: i32,
  themHi: i32,
  occLo: i32,
  occHi: i32,
  pinLo: i32,
  pinHi: i32,
): i32 {
  const up = us == WHITE ? 8 : -8;
  n = pawnMoves(n, pawnsLo & ~pinLo, pawnsHi & ~pinHi, mLo, mHi, up, themLo, themHi, occLo, occHi);
  let pLo = pawnsLo & pinLo;
  let pHi = pawnsHi & pinHi;
  while ((pLo | pHi) != 0) {
    const from = lowestSquare(pLo, pHi);
    if (pLo != 0) pLo &= pLo - 1;
    else pHi &= pHi - 1;
    const e = (ksq * 64 + from) << 1;
    n = pawnMoves(
      n,
      from < 32 ? 1 << from : 0,
      from < 32 ? 0 : 1 << (from - 32),
      mLo & unchecked(LINE[e]),
      mHi & unchecked(LINE[e + 1]),
      up,
      themLo,
      themHi,
      occLo,
      occHi,
    );
  }
  return n;
}

/** En passant: rare, so each capture is checked by replaying its occupancy change. */
function enPassantMoves(n: i32, base: i32, them: i32, pawnsLo: i32, pawnsHi: i32): i32 {
  const ep = unchecked(POSITIONS[base + W_EN_PASSANT]);
  if (ep == NO_SQUARE) return n;
  const p = (them * 64 + ep) << 1;
  let cLo = unchecked(PAWN_ATTACKS[p]) & pawnsLo;
  let cHi = unchecked(PAWN_ATTACKS[p + 1]) & pawnsHi;
  while ((cLo | cHi) != 0) {
    const from = lowestSquare(cLo, cHi);
    if (cLo != 0) cLo &= cLo - 1;
    else cHi &= cHi - 1;
    if (enPassantLegal(base, from, ep)) unchecked((MOVES[n++] = from | (ep << 6) | (MOVE_EN_PASSANT << 12)));
  }
  return n;
}

/**
 * Generates every legal move of the side to move in position `handle` into MOVES[out …].
 * Returns the number of moves (0: checkmate or stalemate).
 */
export function generateMoves(handle: i32, out: i32): i32 {
  const base = handle << POSITION_SHIFT;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const them = us ^ 1;
  const usLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  const usHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  const themLo = unchecked(POSITIONS[base + W_COLOR + (them << 1)]);
  const themHi = unchecked(POSITIONS[base + W_COLOR + (them << 1) + 1]);
  const occLo = usLo | themLo;
  const occHi = usHi | themHi;
  const ksq = kingSquare(base, us);
  let n = kingSteps(out, base, ksq, them, usLo, usHi, occLo, occHi);

  findCheckers(base, ksq, us, occLo, occHi);
  const checkerCount = popcount64(checkersLo, checkersHi);
  if (checkerCount > 1) return n - out; // double check: only the king may move

  // Squares a non-king move must land on: anywhere, or (in check) on the checker or between.
  let maskLo: i32 = -1;
  let maskHi: i32 = -1;
  if (checkerCount == 1) {
    const e = (ksq * 64 + lowestSquare(checkersLo, checkersHi)) << 1;
    maskLo = unchecked(BETWEEN[e]) | checkersLo;
    maskHi = unchecked(BETWEEN[e + 1]) | checkersHi;
  } else {
    n = castlingMoves(n, base, us, them, ksq, occLo, occHi);
  }

  // Pinned pieces: an enemy slider on a line with the king, exactly one piece between, ours.
  let pinLo = 0;
  let pinHi = 0;
  const qLo = unchecked(POSITIONS[base + W_TYPE + (QUEEN << 1)]);
  const qHi = unchecked(POSITIONS[base + W_TYPE + (QUEEN << 1) + 1]);
  const r0 = rookIndex(ksq, 0, 0);
  const b0 = bishopIndex(ksq, 0, 0);
  let sLo =
    themLo &
    ((rookTableWord(r0) & (unchecked(POSITIONS[base + W_TYPE + (ROOK << 1)]) | qLo)) |
      (bishopTableWord(b0) & (unchecked(POSITIONS[base + W_TYPE + (BISHOP << 1)]) | qLo)));
  let sHi =
    themHi &
    ((rookTableWord(r0 + 1) & (unchecked(POSITIONS[base + W_TYPE + (ROOK << 1) + 1]) | qHi)) |
      (bishopTableWord(b0 + 1) & (unchecked(POSITIONS[base + W_TYPE + (BISHOP << 1) + 1]) | qHi)));
  while ((sLo | sHi) != 0) {
    const sniper = lowestSquare(sLo, sHi);
    if (sLo != 0) sLo &= sLo - 1;
    else sHi &= sHi - 1;
    const e = (ksq * 64 + sniper) << 1;
    const bLo = unchecked(BETWEEN[e]) & occLo;
    const bHi = unchecked(BETWEEN[e + 1]) & occHi;
    if (popcount64(bLo, bHi) == 1 && ((bLo & usLo) | (bHi & usHi)) != 0) {
      pinLo |= bLo;
      pinHi |= bHi;
    }
  }

  // Knights, bishops, rooks, queens (kept in this function, the hot path: as a function of its own
  // it is not inlined, and perft slows by a few per cent). A pinned knight never moves.
  for (let type = KNIGHT; type <= QUEEN; type++) {
    const w = base + W_TYPE + (type << 1);
    let pLo = unchecked(POSITIONS[w]) & usLo;
    let pHi = unchecked(POSITIONS[w + 1]) & usHi;
    if (type == KNIGHT) {
      pLo &= ~pinLo;
      pHi &= ~pinHi;
    }
    while ((pLo | pHi) != 0) {
      const from = lowestSquare(pLo, pHi);
      if (pLo != 0) pLo &= pLo - 1;
      else pHi &= pHi - 1;
      let tLo: i32 = 0;
      let tHi: i32 = 0;
      if (type == KNIGHT) {
        tLo = unchecked(KNIGHT_ATTACKS[from << 1]);
        tHi = unchecked(KNIGHT_ATTACKS[(from << 1) + 1]);
      } else {
        if (type != ROOK) {
          const b = bishopIndex(from, occLo, occHi);
          tLo = bishopTableWord(b);
          tHi = bishopTableWord(b + 1);
        }
        if (type != BISHOP) {
          const r = rookIndex(from, occLo, occHi);
          tLo |= rookTableWord(r);
          tHi |= rookTableWord(r + 1);
        }
      }
      tLo &= ~usLo & maskLo;
      tHi &= ~usHi & maskHi;
      if (((from < 32 ? pinLo >>> from : pinHi >>> (from - 32)) & 1) != 0) {
        const e = (ksq * 64 + from) << 1;
        tLo &= unchecked(LINE[e]);
        tHi &= unchecked(LINE[e + 1]);
      }
      n = emitTargets(n, from, tLo, tHi);
    }
  }
  const pw = base + W_TYPE + (PAWN << 1);
  const pawnsLo = unchecked(POSITIONS[pw]) & usLo;
  const pawnsHi = unchecked(POSITIONS[pw + 1]) & usHi;
  n = allPawnMoves(n, ksq, us, pawnsLo, pawnsHi, maskLo, maskHi, themLo, themHi, occLo, occHi, pinLo, pinHi);
  return enPassantMoves(n, base, them, pawnsLo, pawnsHi) - out;
}

// ---- check announcements ----

export const CHECK_KNIGHT: i32 = 1;
export const CHECK_RANK: i32 = 2;
export const CHECK_FILE: i32 = 4;
export const CHECK_LONG_DIAGONAL: i32 = 8;
export const CHECK_SHORT_DIAGONAL: i32 = 16;

function abs32(x: i32): i32 {
  return x < 0 ? -x : x;
}

/**
 * The directions from which the side to move's king is checked, as CHECK_* bits (0: not in check;
 * two bits for a double check). A pawn checks along a diagonal. Of the two diagonals through the
 * king's square the long one has more squares; their lengths differ in parity, so they never tie.
 */
export function checkDirections(handle: i32): i32 {
  const base = handle << POSITION_SHIFT;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const ksq = kingSquare(base, us);
  findCheckers(
    base,
    ksq,
    us,
    unchecked(POSITIONS[base]) | unchecked(POSITIONS[base + 2]),
    unchecked(POSITIONS[base + 1]) | unchecked(POSITIONS[base + 3]),
  );
  let lo = checkersLo;
  let hi = checkersHi;
  const kf = ksq & 7;
  const kr = ksq >> 3;
  const mainLength = 8 - abs32(kf - kr); // the a1-h8 direction diagonal through the king
  const antiLength = 8 - abs32(kf + kr - 7); // the a8-h1 direction diagonal
  let directions = 0;
  while ((lo | hi) != 0) {
    const sq = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    const f = sq & 7;
    const r = sq >> 3;
    const type = pieceAt(base, sq) & 7;
    if (type == KNIGHT) directions |= CHECK_KNIGHT;
    else if (r == kr) directions |= CHECK_RANK;
    else if (f == kf) directions |= CHECK_FILE;
    else {
      const onMain = f - kf == r - kr;
      const long = onMain ? mainLength > antiLength : antiLength > mainLength;
      directions |= long ? CHECK_LONG_DIAGONAL : CHECK_SHORT_DIAGONAL;
    }
  }
  return directions;
}

/** Number of pieces giving check to the side to move. */
export function checkerCount(handle: i32): i32 {
  const base = handle << POSITION_SHIFT;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  findCheckers(
    base,
    kingSquare(base, us),
    us,
    unchecked(POSITIONS[base]) | unchecked(POSITIONS[base + 2]),
    unchecked(POSITIONS[base + 1]) | unchecked(POSITIONS[base + 3]),
  );
  return popcount64(checkersLo, checkersHi);
}

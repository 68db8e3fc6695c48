// Positions live in one flat arena, POSITIONS, as fixed-size records addressed by handle
// (record index). Moves are made by copy-make: makeMove(src, move, dst) copies the record and
// updates the copy, so a parent stays intact for the belief-state searches that keep both.
//
// Position record (POSITION_WORDS = 32 Int32 words, base = handle << 5):
// | word   | field        | meaning / invariant                                                  |
// |--------|--------------|----------------------------------------------------------------------|
// | 0..1   | white        | bitboard (lo, hi) of White's pieces                                   |
// | 2..3   | black        | bitboard of Black's pieces                                            |
// | 4..15  | by type      | bitboards of pawns, knights, bishops, rooks, queens, kings (both sides)|
// | 16..23 | mailbox      | piece code per square, 4 bits each, 8 squares per word (a1 = word 16 bits 0..3) |
// | 24     | side         | side to move: 0 White, 1 Black                                         |
// | 25     | castling     | rights: 1 White O-O, 2 White O-O-O, 4 Black O-O, 8 Black O-O-O; only set when king and rook stand on their home squares |
// | 26     | en passant   | target square, or -1; set only when an en-passant capture is legal   |
// | 27     | halfmove     | plies since the last capture or pawn move                             |
// | 28     | fullmove     | move number, starts at 1, incremented after Black moves               |
// | 29..30 | key          | Zobrist key (lo, hi), always equal to computeKey() of the record      |
// | 31     | reserved     |                                                                        |
//
// Piece code (4 bits): type | color << 3, types PAWN = 1 … KING = 6; 0 = empty square.

import { WHITE, BLACK, NO_SQUARE, popcount64, lowestSquare } from './bitboard';
import {
  KNIGHT_ATTACKS,
  KING_ATTACKS,
  PAWN_ATTACKS,
  rookIndex,
  bishopIndex,
  rookTableWord,
  bishopTableWord,
  initAttacks,
} from './attacks';
import { PIECE_KEYS, CASTLING_KEYS, EN_PASSANT_KEYS, SIDE_KEYS, initZobrist } from './zobrist';
import { newArena } from './arena';

/** Piece code = type | color << PIECE_COLOR_SHIFT (type in the low PIECE_TYPE_FIELD bits). */
export const PIECE_COLOR_SHIFT: i32 = 3;
export const PIECE_TYPE_FIELD: i32 = 7;
export const PAWN: i32 = 1;
export const KNIGHT: i32 = 2;
export const BISHOP: i32 = 3;
export const ROOK: i32 = 4;
export const QUEEN: i32 = 5;
export const KING: i32 = 6;

export const POSITION_WORDS: i32 = 32;
export const POSITION_SHIFT: i32 = 5;
export const W_COLOR: i32 = 0; // + 2 * color
export const W_TYPE: i32 = 2; // + 2 * type  (pawns at 4 … kings at 14)
export const W_MAILBOX: i32 = 16;
export const W_SIDE: i32 = 24;
export const W_CASTLING: i32 = 25;
export const W_EN_PASSANT: i32 = 26;
export const W_HALFMOVE: i32 = 27;
export const W_FULLMOVE: i32 = 28;
export const W_KEY_LO: i32 = 29;
export const W_KEY_HI: i32 = 30;

export const CASTLE_WHITE_KING: i32 = 1;
export const CASTLE_WHITE_QUEEN: i32 = 2;
export const CASTLE_BLACK_KING: i32 = 4;
export const CASTLE_BLACK_QUEEN: i32 = 8;

// Move (16 bits used, stored in an i32): from (bits 0..5) | to (6..11) | kind (12..15).
export const MOVE_SQUARE_FIELD: i32 = 63;
export const MOVE_TO_SHIFT: i32 = 6;
export const MOVE_KIND_SHIFT: i32 = 12;
export const MOVE_NORMAL: i32 = 0;
export const MOVE_DOUBLE_PUSH: i32 = 1;
export const MOVE_CASTLE: i32 = 2; // `to` is the king's destination (g1, c1, g8, c8)
export const MOVE_EN_PASSANT: i32 = 3;
export const MOVE_PROMOTION: i32 = 4; // kinds 4..7 promote to KNIGHT..QUEEN: type = kind - 2

export function moveFrom(move: i32): i32 {
  return move & MOVE_SQUARE_FIELD;
}
export function moveTo(move: i32): i32 {
  return (move >> MOVE_TO_SHIFT) & MOVE_SQUARE_FIELD;
}
export function moveKind(move: i32): i32 {
  return move >> MOVE_KIND_SHIFT;
}

export let POSITIONS: Int32Array = new Int32Array(0);

// Setup exchange buffer (host ⇄ core), SETUP_WORDS Int32 words:
// | word   | field      | meaning                                                     |
// |--------|------------|-------------------------------------------------------------|
// | 0..63  | board      | piece code per square (a1 = 0 … h8 = 63), 0 empty           |
// | 64     | side       | 0 White, 1 Black to move                                    |
// | 65     | castling   | rights, CASTLE_* bits                                       |
// | 66     | en passant | target square, or -1                                        |
// | 67, 68 | clocks     | halfmove clock, fullmove number                             |
export const SETUP_SIDE: i32 = 64;
export const SETUP_CASTLING: i32 = 65;
export const SETUP_EN_PASSANT: i32 = 66;
export const SETUP_HALFMOVE: i32 = 67;
export const SETUP_FULLMOVE: i32 = 68;
export const SETUP_WORDS: i32 = 69;
export const SETUP = new Int32Array(SETUP_WORDS);

// loadSetup statuses (host/errors.ts maps them to messages).
export const SETUP_OK: i32 = 0;
export const SETUP_BAD_PIECE: i32 = 1;
export const SETUP_KING_COUNT: i32 = 2;
export const SETUP_PAWN_ON_BACK_RANK: i32 = 3;
export const SETUP_TOO_MANY_PIECES: i32 = 4;
export const SETUP_OPPONENT_IN_CHECK: i32 = 5;
export const SETUP_BAD_SIDE: i32 = 6;
export const SETUP_BAD_CLOCK: i32 = 7;
export const SETUP_BAD_HANDLE: i32 = 8;

// Chess rules a Kriegspiel rule set may switch off (set through setChessRules; all on by default).
// They hold for every position of the arena: the referee's rule set is one per engine.
export let CASTLING_ALLOWED: bool = true;
export let EN_PASSANT_ALLOWED: bool = true;
/** Promotion pieces allowed: bit (type - KNIGHT) for KNIGHT..QUEEN; 15 = all four. */
export let PROMOTION_TYPES: i32 = 15;

export function setChessRules(castling: bool, enPassant: bool, promotionTypes: i32): void {
  CASTLING_ALLOWED = castling;
  EN_PASSANT_ALLOWED = enPassant;
  PROMOTION_TYPES = promotionTypes & 15;
}

/** Castling rights kept after a move touches a square (king and rook home squares clear rights). */
const CASTLING_MASK = new Int32Array(64);
/** loadSetup's piece counts per code, and the record it restores on rejection (module-level so
 * that nothing allocates after init). */
const SETUP_COUNTS = new Int32Array(16);
const SETUP_SAVED = new Int32Array(POSITION_WORDS);

/** Allocates the position arena (capacity records) and builds every table. Call before anything else. */
export function initPositions(capacity: i32): void {
  initAttacks();
  initZobrist();
  for (let sq = 0; sq < 64; sq++) CASTLING_MASK[sq] = 15;
  CASTLING_MASK[0] = 15 & ~CASTLE_WHITE_QUEEN;
  CASTLING_MASK[4] = 15 & ~(CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN);
  CASTLING_MASK[7] = 15 & ~CASTLE_WHITE_KING;
  CASTLING_MASK[56] = 15 & ~CASTLE_BLACK_QUEEN;
  CASTLING_MASK[60] = 15 & ~(CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN);
  CASTLING_MASK[63] = 15 & ~CASTLE_BLACK_KING;
  // The WASM build uses the stub runtime (no GC, nothing is ever freed): keep an arena that is
  // already large enough and only allocate when growing.
  if (POSITIONS.length < capacity << POSITION_SHIFT) POSITIONS = newArena(capacity << POSITION_SHIFT);
  else POSITIONS.fill(0);
  capacityInRecords = capacity;
}

let capacityInRecords: i32 = 0;
export function positionCapacity(): i32 {
  return capacityInRecords;
}

// ---- field access (base = handle << POSITION_SHIFT) ----

export function pieceAt(base: i32, sq: i32): i32 {
  return (unchecked(POSITIONS[base + W_MAILBOX + (sq >> 3)]) >>> ((sq & 7) << 2)) & 15;
}

function xorSquare(word: i32, sq: i32): void {
  const w = word + (sq >> 5);
  unchecked((POSITIONS[w] = unchecked(POSITIONS[w]) ^ (1 << (sq & 31))));
}

function xorKey(base: i32, lo: i32, hi: i32): void {
  unchecked((POSITIONS[base + W_KEY_LO] = unchecked(POSITIONS[base + W_KEY_LO]) ^ lo));
  unchecked((POSITIONS[base + W_KEY_HI] = unchecked(POSITIONS[base + W_KEY_HI]) ^ hi));
}

/** Toggles `code` on `sq` in the bitboards and the key (adds if absent, removes if present). */
function togglePiece(base: i32, sq: i32, code: i32): void {
  xorSquare(base + W_COLOR + ((code >> 3) << 1), sq);
  xorSquare(base + W_TYPE + ((code & 7) << 1), sq);
  const k = (code * 64 + sq) << 1;
  xorKey(base, unchecked(PIECE_KEYS[k]), unchecked(PIECE_KEYS[k + 1]));
}

function setMailbox(base: i32, sq: i32, code: i32): void {
  const w = base + W_MAILBOX + (sq >> 3);
  const shift = (sq & 7) << 2;
  unchecked((POSITIONS[w] = (unchecked(POSITIONS[w]) & ~(15 << shift)) | (code << shift)));
}

/** Puts `code` on empty `sq` (bitboards, mailbox, key). */
export function putPiece(base: i32, sq: i32, code: i32): void {
  togglePiece(base, sq, code);
  setMailbox(base, sq, code);
}
/** Removes `code` from `sq` (bitboards, mailbox, key). */
export function removePiece(base: i32, sq: i32, code: i32): void {
  togglePiece(base, sq, code);
  setMailbox(base, sq, 0);
}

export function kingSquare(base: i32, color: i32): i32 {
  const w = base + W_TYPE + (KING << 1);
  const c = base + W_COLOR + (color << 1);
  return lowestSquare(
    unchecked(POSITIONS[w]) & unchecked(POSITIONS[c]),
    unchecked(POSITIONS[w + 1]) & unchecked(POSITIONS[c + 1]),
  );
}

// ---- attacks on a position ----

/** The squares of the last pieceAttacks (lo, hi): a function cannot return a pair. */
export const PIECE_ATTACKS = new Int32Array(2);

/**
 * The squares a man of `type` (and `color`: a pawn's captures) on `sq` attacks, sliders stopped by
 * the squares of (occLo, occHi), into PIECE_ATTACKS. The one definition of a man's reach: the
 * attempts of a board of one's own men (referee/attempts.ts) and the metapositions' attacked
 * squares (players/endgame.ts) both read it.
 */
export function pieceAttacks(type: i32, color: i32, sq: i32, occLo: i32, occHi: i32): void {
  const s2 = sq << 1;
  let lo = 0;
  let hi = 0;
  if (type == KING) {
    lo = unchecked(KING_ATTACKS[s2]);
    hi = unchecked(KING_ATTACKS[s2 + 1]);
  } else if (type == KNIGHT) {
    lo = unchecked(KNIGHT_ATTACKS[s2]);
    hi = unchecked(KNIGHT_ATTACKS[s2 + 1]);
  } else if (type == PAWN) {
    const p = (color * 64 + sq) << 1;
    lo = unchecked(PAWN_ATTACKS[p]);
    hi = unchecked(PAWN_ATTACKS[p + 1]);
  } else {
    if (type == ROOK || type == QUEEN) {
      const r = rookIndex(sq, occLo, occHi);
      lo |= rookTableWord(r);
      hi |= rookTableWord(r + 1);
    }
    if (type == BISHOP || type == QUEEN) {
      const b = bishopIndex(sq, occLo, occHi);
      lo |= bishopTableWord(b);
      hi |= bishopTableWord(b + 1);
    }
  }
  unchecked((PIECE_ATTACKS[0] = lo));
  unchecked((PIECE_ATTACKS[1] = hi));
}

/**
 * The squares `color`'s men attack on a board of its men only (another side's men, unknown to a
 * blind player, block nothing), into PIECE_ATTACKS: a square of one of its men counts where
 * another defends it.
 */
export function menAttacks(base: i32, color: i32): void {
  menAttacksOver(
    base,
    color,
    unchecked(POSITIONS[base + W_COLOR + (color << 1)]),
    unchecked(POSITIONS[base + W_COLOR + (color << 1) + 1]),
  );
}

/** The squares `color`'s men attack with the lines stopped at the squares of occLo/occHi, into PIECE_ATTACKS. */
export function menAttacksOver(base: i32, color: i32, occLo: i32, occHi: i32): void {
  let lo = 0;
  let hi = 0;
  let mLo = unchecked(POSITIONS[base + W_COLOR + (color << 1)]);
  let mHi = unchecked(POSITIONS[base + W_COLOR + (color << 1) + 1]);
  while ((mLo | mHi) != 0) {
    const sq = lowestSquare(mLo, mHi);
    if (mLo != 0) mLo &= mLo - 1;
    else mHi &= mHi - 1;
    pieceAttacks(pieceAt(base, sq) & PIECE_TYPE_FIELD, color, sq, occLo, occHi);
    lo |= unchecked(PIECE_ATTACKS[0]);
    hi |= unchecked(PIECE_ATTACKS[1]);
  }
  unchecked((PIECE_ATTACKS[0] = lo));
  unchecked((PIECE_ATTACKS[1] = hi));
}

/**
 * Is `sq` attacked by `by`, with the given occupancy? `excludeLo/Hi` removes attackers (used for an
 * en-passant capture, whose captured pawn leaves a square other than the destination).
 */
export function isAttackedWith(
  base: i32,
  sq: i32,
  by: i32,
  occLo: i32,
  occHi: i32,
  excludeLo: i32,
  excludeHi: i32,
): bool {
  const c = base + W_COLOR + (by << 1);
  const themLo = unchecked(POSITIONS[c]) & ~excludeLo;
  const themHi = unchecked(POSITIONS[c + 1]) & ~excludeHi;
  const s2 = sq << 1;
  // knights
  let w = base + W_TYPE + (KNIGHT << 1);
  if (
    (unchecked(KNIGHT_ATTACKS[s2]) & unchecked(POSITIONS[w]) & themLo) != 0 ||
    (unchecked(KNIGHT_ATTACKS[s2 + 1]) & unchecked(POSITIONS[w + 1]) & themHi) != 0
  )
    return true;
  // pawns of `by` attack sq if a pawn of the other colour on sq would attack them
  w = base + W_TYPE + (PAWN << 1);
  const p = ((by ^ 1) * 64 + sq) << 1;
  if (
    (unchecked(PAWN_ATTACKS[p]) & unchecked(POSITIONS[w]) & themLo) != 0 ||
    (unchecked(PAWN_ATTACKS[p + 1]) & unchecked(POSITIONS[w + 1]) & themHi) != 0
  )
    return true;
  w = base + W_TYPE + (KING << 1);
  if (
    (unchecked(KING_ATTACKS[s2]) & unchecked(POSITIONS[w]) & themLo) != 0 ||
    (unchecked(KING_ATTACKS[s2 + 1]) & unchecked(POSITIONS[w + 1]) & themHi) != 0
  )
    return true;
  const q = base + W_TYPE + (QUEEN << 1);
  const qLo = unchecked(POSITIONS[q]);
  const qHi = unchecked(POSITIONS[q + 1]);
  w = base + W_TYPE + (ROOK << 1);
  let sLo = (unchecked(POSITIONS[w]) | qLo) & themLo;
  let sHi = (unchecked(POSITIONS[w + 1]) | qHi) & themHi;
  if ((sLo | sHi) != 0) {
    const r = rookIndex(sq, occLo, occHi);
    if ((rookTableWord(r) & sLo) != 0 || (rookTableWord(r + 1) & sHi) != 0) return true;
  }
  w = base + W_TYPE + (BISHOP << 1);
  sLo = (unchecked(POSITIONS[w]) | qLo) & themLo;
  sHi = (unchecked(POSITIONS[w + 1]) | qHi) & themHi;
  if ((sLo | sHi) != 0) {
    const b = bishopIndex(sq, occLo, occHi);
    if ((bishopTableWord(b) & sLo) != 0 || (bishopTableWord(b + 1) & sHi) != 0) return true;
  }
  return false;
}

export function isAttacked(base: i32, sq: i32, by: i32): bool {
  return isAttackedWith(
    base,
    sq,
    by,
    unchecked(POSITIONS[base]) | unchecked(POSITIONS[base + 2]),
    unchecked(POSITIONS[base + 1]) | unchecked(POSITIONS[base + 3]),
    0,
    0,
  );
}

/** Is the side to move in check? */
export function inCheck(base: i32): bool {
  const us = unchecked(POSITIONS[base + W_SIDE]);
  return isAttacked(base, kingSquare(base, us), us ^ 1);
}

/**
 * Would the side to move's pawn on `from` capturing en passant onto `epSquare` leave its king safe?
 * Tested by replaying the capture's occupancy change, which also covers the horizontal pin of both
 * pawns on one rank and a check the capture does or does not resolve.
 */
export function enPassantLegal(base: i32, from: i32, epSquare: i32): bool {
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const captured = epSquare ^ 8; // the pawn that just moved two squares stands behind the target
  let occLo = unchecked(POSITIONS[base]) | unchecked(POSITIONS[base + 2]);
  let occHi = unchecked(POSITIONS[base + 1]) | unchecked(POSITIONS[base + 3]);
  let exLo = 0;
  let exHi = 0;
  if (captured < 32) exLo = 1 << captured;
  else exHi = 1 << (captured - 32);
  if (from < 32) occLo ^= 1 << from;
  else occHi ^= 1 << (from - 32);
  occLo &= ~exLo;
  occHi &= ~exHi;
  if (epSquare < 32) occLo |= 1 << epSquare;
  else occHi |= 1 << (epSquare - 32);
  return !isAttackedWith(base, kingSquare(base, us), us ^ 1, occLo, occHi, exLo, exHi);
}

/** Keeps the en-passant square only if some pawn of the side to move can legally capture there. */
function normaliseEnPassant(base: i32, epSquare: i32): void {
  unchecked((POSITIONS[base + W_EN_PASSANT] = NO_SQUARE));
  if (epSquare == NO_SQUARE || !EN_PASSANT_ALLOWED) return;
  const us = unchecked(POSITIONS[base + W_SIDE]);
  const p = ((us ^ 1) * 64 + epSquare) << 1; // squares from which a pawn of `us` attacks epSquare
  const w = base + W_TYPE + (PAWN << 1);
  const c = base + W_COLOR + (us << 1);
  let lo = unchecked(PAWN_ATTACKS[p]) & unchecked(POSITIONS[w]) & unchecked(POSITIONS[c]);
  let hi = unchecked(PAWN_ATTACKS[p + 1]) & unchecked(POSITIONS[w + 1]) & unchecked(POSITIONS[c + 1]);
  while ((lo | hi) != 0) {
    const from = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    if (enPassantLegal(base, from, epSquare)) {
      unchecked((POSITIONS[base + W_EN_PASSANT] = epSquare));
      const k = (epSquare & 7) << 1;
      xorKey(base, unchecked(EN_PASSANT_KEYS[k]), unchecked(EN_PASSANT_KEYS[k + 1]));
      return;
    }
  }
}

// ---- making moves ----

/** Copies record `src` to `dst` and plays `move` (which must be legal in `src`) on the copy. */
export function makeMove(src: i32, move: i32, dst: i32): void {
  const s = src << POSITION_SHIFT;
  const d = dst << POSITION_SHIFT;
  for (let i = 0; i < POSITION_WORDS; i++) unchecked((POSITIONS[d + i] = unchecked(POSITIONS[s + i])));
  const us = unchecked(POSITIONS[d + W_SIDE]);
  const from = move & 63;
  const to = (move >> 6) & 63;
  const kind = move >> 12;
  const piece = pieceAt(d, from);
  let halfmove = unchecked(POSITIONS[d + W_HALFMOVE]) + 1;

  const oldEp = unchecked(POSITIONS[d + W_EN_PASSANT]);
  if (oldEp != NO_SQUARE) {
    const k = (oldEp & 7) << 1;
    xorKey(d, unchecked(EN_PASSANT_KEYS[k]), unchecked(EN_PASSANT_KEYS[k + 1]));
  }

  if (kind == MOVE_EN_PASSANT) {
    removePiece(d, to ^ 8, pieceAt(d, to ^ 8));
  } else {
    const captured = pieceAt(d, to);
    if (captured != 0) {
      removePiece(d, to, captured);
      halfmove = 0;
    }
  }
  removePiece(d, from, piece);
  if (kind >= MOVE_PROMOTION) putPiece(d, to, (kind - 2) | (us << 3));
  else putPiece(d, to, piece);
  if (kind == MOVE_CASTLE) {
    // king went to g/c; the rook jumps from the corner to f/d
    const rookFrom = (to & 7) == 6 ? to + 1 : to - 2;
    const rookTo = (to & 7) == 6 ? to - 1 : to + 1;
    const rook = pieceAt(d, rookFrom);
    removePiece(d, rookFrom, rook);
    putPiece(d, rookTo, rook);
  }
  if ((piece & 7) == PAWN) halfmove = 0;

  const oldRights = unchecked(POSITIONS[d + W_CASTLING]);
  const rights = oldRights & unchecked(CASTLING_MASK[from]) & unchecked(CASTLING_MASK[to]);
  if (rights != oldRights) {
    unchecked((POSITIONS[d + W_CASTLING] = rights));
    xorKey(
      d,
      unchecked(CASTLING_KEYS[oldRights << 1]) ^ unchecked(CASTLING_KEYS[rights << 1]),
      unchecked(CASTLING_KEYS[(oldRights << 1) + 1]) ^ unchecked(CASTLING_KEYS[(rights << 1) + 1]),
    );
  }
  unchecked((POSITIONS[d + W_HALFMOVE] = halfmove));
  if (us == BLACK) unchecked((POSITIONS[d + W_FULLMOVE] = unchecked(POSITIONS[d + W_FULLMOVE]) + 1));
  unchecked((POSITIONS[d + W_SIDE] = us ^ 1));
  xorKey(d, unchecked(SIDE_KEYS[0]), unchecked(SIDE_KEYS[1]));
  if (kind == MOVE_DOUBLE_PUSH) normaliseEnPassant(d, (from + to) >> 1);
  else unchecked((POSITIONS[d + W_EN_PASSANT] = NO_SQUARE));
}

/** Same position: pieces, side, castling, en passant, and with `compareClock` the halfmove clock (where a 50-move rule makes it matter). */
export function samePosition(a: i32, b: i32, compareClock: bool): bool {
  return sameRecord(POSITIONS, a, b, compareClock);
}

/** samePosition of record `a` of another arena laid out as POSITIONS (a belief tracker's) and record `b` of POSITIONS. */
export function sameRecord(records: Int32Array, a: i32, b: i32, compareClock: bool): bool {
  const x = a << POSITION_SHIFT;
  const y = b << POSITION_SHIFT;
  for (let i = 0; i < W_HALFMOVE; i++) if (unchecked(records[x + i]) != unchecked(POSITIONS[y + i])) return false;
  return !compareClock || unchecked(records[x + W_HALFMOVE]) == unchecked(POSITIONS[y + W_HALFMOVE]);
}

export function copyPosition(src: i32, dst: i32): void {
  const s = src << POSITION_SHIFT;
  const d = dst << POSITION_SHIFT;
  for (let i = 0; i < POSITION_WORDS; i++) unchecked((POSITIONS[d + i] = unchecked(POSITIONS[s + i])));
}

// ---- keys ----

/** The key recomputed from scratch (the incremental key must always equal it). Written to KEY_OUT. */
export const KEY_OUT = new Int32Array(2);
export function computeKey(handle: i32): void {
  const base = handle << POSITION_SHIFT;
  let lo = 0;
  let hi = 0;
  for (let sq = 0; sq < 64; sq++) {
    const code = pieceAt(base, sq);
    if (code != 0) {
      lo ^= PIECE_KEYS[(code * 64 + sq) << 1];
      hi ^= PIECE_KEYS[((code * 64 + sq) << 1) + 1];
    }
  }
  const rights = POSITIONS[base + W_CASTLING];
  lo ^= CASTLING_KEYS[rights << 1];
  hi ^= CASTLING_KEYS[(rights << 1) + 1];
  const ep = POSITIONS[base + W_EN_PASSANT];
  if (ep != NO_SQUARE) {
    lo ^= EN_PASSANT_KEYS[(ep & 7) << 1];
    hi ^= EN_PASSANT_KEYS[((ep & 7) << 1) + 1];
  }
  if (POSITIONS[base + W_SIDE] == BLACK) {
    lo ^= SIDE_KEYS[0];
    hi ^= SIDE_KEYS[1];
  }
  KEY_OUT[0] = lo;
  KEY_OUT[1] = hi;
}

// ---- setups (host <-> core) ----

function isPieceCode(code: i32): bool {
  const type = code & 7;
  return code >= 0 && code < 16 && (code == 0 || (type >= PAWN && type <= KING));
}

/**
 * Validates SETUP and stores it as position `handle`. Rejects what no legal game reaches in a way
 * the move generator cannot handle (see SETUP_* statuses). Normalises, without error:
 * castling rights whose king or rook is not on its home square are dropped; an en-passant square
 * is kept only when a legal en-passant capture onto it exists (the FIDE repetition convention), so
 * positions with the same moves available have the same key.
 */
export function loadSetup(handle: i32): i32 {
  if (handle < 0 || handle >= positionCapacity()) return SETUP_BAD_HANDLE;
  const side = SETUP[SETUP_SIDE];
  if (side != WHITE && side != BLACK) return SETUP_BAD_SIDE;
  if (SETUP[SETUP_HALFMOVE] < 0 || SETUP[SETUP_FULLMOVE] < 1) return SETUP_BAD_CLOCK;
  const counts = SETUP_COUNTS;
  counts.fill(0);
  for (let sq = 0; sq < 64; sq++) {
    const code = SETUP[sq];
    if (!isPieceCode(code)) return SETUP_BAD_PIECE;
    counts[code]++;
    if ((code & 7) == PAWN && (sq < 8 || sq >= 56)) return SETUP_PAWN_ON_BACK_RANK;
  }
  for (let color = 0; color < 2; color++) {
    const c = color << 3;
    if (counts[c | KING] != 1) return SETUP_KING_COUNT;
    // every piece beyond the initial set must come from a promoted pawn
    let promoted = 0;
    if (counts[c | QUEEN] > 1) promoted += counts[c | QUEEN] - 1;
    if (counts[c | ROOK] > 2) promoted += counts[c | ROOK] - 2;
    if (counts[c | BISHOP] > 2) promoted += counts[c | BISHOP] - 2;
    if (counts[c | KNIGHT] > 2) promoted += counts[c | KNIGHT] - 2;
    if (counts[c | PAWN] + promoted > 8) return SETUP_TOO_MANY_PIECES;
  }
  const base = handle << POSITION_SHIFT;
  for (let i = 0; i < POSITION_WORDS; i++) {
    SETUP_SAVED[i] = POSITIONS[base + i];
    POSITIONS[base + i] = 0;
  }
  for (let sq = 0; sq < 64; sq++) if (SETUP[sq] != 0) putPiece(base, sq, SETUP[sq]);
  POSITIONS[base + W_SIDE] = side;
  if (side == BLACK) xorKey(base, SIDE_KEYS[0], SIDE_KEYS[1]);
  POSITIONS[base + W_HALFMOVE] = SETUP[SETUP_HALFMOVE];
  POSITIONS[base + W_FULLMOVE] = SETUP[SETUP_FULLMOVE];
  if (isAttacked(base, kingSquare(base, side ^ 1), side)) {
    // rejected: leave the record as it was
    for (let i = 0; i < POSITION_WORDS; i++) POSITIONS[base + i] = SETUP_SAVED[i];
    return SETUP_OPPONENT_IN_CHECK;
  }

  let rights = CASTLING_ALLOWED ? SETUP[SETUP_CASTLING] & 15 : 0;
  const whiteKingHome = SETUP[4] == KING;
  const blackKingHome = SETUP[60] == (KING | 8);
  if (!whiteKingHome || SETUP[7] != ROOK) rights &= ~CASTLE_WHITE_KING;
  if (!whiteKingHome || SETUP[0] != ROOK) rights &= ~CASTLE_WHITE_QUEEN;
  if (!blackKingHome || SETUP[63] != (ROOK | 8)) rights &= ~CASTLE_BLACK_KING;
  if (!blackKingHome || SETUP[56] != (ROOK | 8)) rights &= ~CASTLE_BLACK_QUEEN;
  POSITIONS[base + W_CASTLING] = rights;
  xorKey(base, CASTLING_KEYS[rights << 1], CASTLING_KEYS[(rights << 1) + 1]);

  // an en-passant target needs: the right rank, itself and the square the pawn came from empty,
  // and the opponent's pawn on the square in front of it
  let ep = SETUP[SETUP_EN_PASSANT];
  if (ep < 0 || ep > 63) ep = NO_SQUARE;
  else {
    const targetRank = side == WHITE ? 5 : 2;
    const pushed = ep ^ 8;
    const origin = side == WHITE ? ep + 8 : ep - 8;
    if (ep >> 3 != targetRank || SETUP[ep] != 0 || SETUP[origin] != 0 || SETUP[pushed] != (PAWN | ((side ^ 1) << 3)))
      ep = NO_SQUARE;
  }
  normaliseEnPassant(base, ep);
  return SETUP_OK;
}

/** Writes position `handle` into SETUP (inverse of loadSetup for any stored position). */
export function storeSetup(handle: i32): void {
  const base = handle << POSITION_SHIFT;
  for (let sq = 0; sq < 64; sq++) SETUP[sq] = pieceAt(base, sq);
  SETUP[SETUP_SIDE] = POSITIONS[base + W_SIDE];
  SETUP[SETUP_CASTLING] = POSITIONS[base + W_CASTLING];
  SETUP[SETUP_EN_PASSANT] = POSITIONS[base + W_EN_PASSANT];
  SETUP[SETUP_HALFMOVE] = POSITIONS[base + W_HALFMOVE];
  SETUP[SETUP_FULLMOVE] = POSITIONS[base + W_FULLMOVE];
}

/** Total pieces of both sides, for quick checks by the host. */
export function pieceCount(handle: i32): i32 {
  const base = handle << POSITION_SHIFT;
  return popcount64(POSITIONS[base] | POSITIONS[base + 2], POSITIONS[base + 1] | POSITIONS[base + 3]);
}

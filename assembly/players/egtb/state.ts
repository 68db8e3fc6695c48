// The tablebases' states (egtb.ts): men keys, the records they make, and the canonical form under
// the board's 8 symmetries (the least men key, then the least set among the symmetries that give
// it). The ending in force is set by egtbInit (setEnding).

import { WHITE, BLACK, NO_SQUARE, lowestSquare, popcount64 } from '../../chess/bitboard';
import {
  POSITIONS,
  POSITION_SHIFT,
  POSITION_WORDS,
  W_COLOR,
  W_TYPE,
  W_SIDE,
  W_EN_PASSANT,
  W_FULLMOVE,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  KING,
  PIECE_COLOR_SHIFT,
  kingSquare,
  putPiece,
} from '../../chess/position';

export const EGTB_KRK: i32 = 0;
export const EGTB_KQK: i32 = 1;
export const EGTB_KBBK: i32 = 2;
export const EGTB_KBNK: i32 = 3;
export const EGTB_ENDINGS: i32 = 4;

export let ending: i32 = 0;

export function setEnding(theEnding: i32): void {
  ending = theEnding;
}

// square maps of the 8 symmetries: bit 0 mirrors files, bit 1 ranks, bit 2 transposes
export const SYM = new Int32Array(8 * 64);
let symReady: bool = false;

export function initSymmetries(): void {
  if (symReady) return;
  for (let s = 0; s < 8; s++)
    for (let sq = 0; sq < 64; sq++) {
      let f = sq & 7;
      let r = sq >> 3;
      if (s & 1) f = 7 - f;
      if (s & 2) r = 7 - r;
      if (s & 4) {
        const t = f;
        f = r;
        r = t;
      }
      unchecked((SYM[s * 64 + sq] = r * 8 + f));
    }
  symReady = true;
}

export function typeA(): i32 {
  return ending == EGTB_KRK ? ROOK : ending == EGTB_KQK ? QUEEN : BISHOP;
}
export function typeB(): i32 {
  return ending == EGTB_KBBK ? BISHOP : ending == EGTB_KBNK ? KNIGHT : 0;
}

export function menKey(king: i32, a: i32, b: i32): i32 {
  if (ending == EGTB_KBBK && b < a) return king | (b << 6) | (a << 12);
  return king | (a << 6) | (typeB() != 0 ? b << 12 : 0);
}

// ---- canonical form ----

export let canonMen: i32 = 0;
export let canonLo: i32 = 0;
export let canonHi: i32 = 0;

export function mapSet(s: i32, lo: i32, hi: i32): void {
  let rLo = 0;
  let rHi = 0;
  const m = s * 64;
  while ((lo | hi) != 0) {
    const sq = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    const t = unchecked(SYM[m + sq]);
    if (t < 32) rLo |= 1 << t;
    else rHi |= 1 << (t - 32);
  }
  canonLo = rLo;
  canonHi = rHi;
}

/** Unsigned comparison of two words. */
function below(a: i32, b: i32): bool {
  return u32(a) < u32(b);
}

/** The canonical form of (men, S) (canonMen, canonLo, canonHi). */
export function canonical(men: i32, lo: i32, hi: i32): void {
  const king = men & 63;
  const a = (men >> 6) & 63;
  const b = (men >> 12) & 63;
  let best = 0x7fffffff;
  let syms = 0; // the symmetries that give the least key, as bits
  for (let s = 0; s < 8; s++) {
    const m = s * 64;
    const key = menKey(unchecked(SYM[m + king]), unchecked(SYM[m + a]), unchecked(SYM[m + b]));
    if (key < best) {
      best = key;
      syms = 1 << s;
    } else if (key == best) syms |= 1 << s;
  }
  let bestLo = 0;
  let bestHi = 0;
  let first = true;
  while (syms != 0) {
    const s = ctz<i32>(syms);
    syms &= syms - 1;
    mapSet(s, lo, hi);
    if (first || below(canonHi, bestHi) || (canonHi == bestHi && below(canonLo, bestLo))) {
      bestLo = canonLo;
      bestHi = canonHi;
      first = false;
    }
  }
  canonMen = best;
  canonLo = bestLo;
  canonHi = bestHi;
}

// ---- records ----

/** Record `handle`: White's men of key `men`, Black's king on `king`, White to move. */
export function setRecord(handle: i32, men: i32, king: i32): void {
  const base = handle << POSITION_SHIFT;
  for (let i = 0; i < POSITION_WORDS; i++) unchecked((POSITIONS[base + i] = 0));
  putPiece(base, men & 63, KING);
  putPiece(base, (men >> 6) & 63, typeA());
  const b = typeB();
  if (b != 0) putPiece(base, (men >> 12) & 63, b);
  putPiece(base, king, KING | (BLACK << PIECE_COLOR_SHIFT));
  unchecked((POSITIONS[base + W_SIDE] = WHITE));
  unchecked((POSITIONS[base + W_EN_PASSANT] = NO_SQUARE));
  unchecked((POSITIONS[base + W_FULLMOVE] = 1));
}

/** The men key of White's men in record base, or −1 when they are not the ending's. */
export function menKeyOfRecord(base: i32, color: i32): i32 {
  const cLo = unchecked(POSITIONS[base + W_COLOR + (color << 1)]);
  const cHi = unchecked(POSITIONS[base + W_COLOR + (color << 1) + 1]);
  const men = typeB() != 0 ? 3 : 2;
  if (popcount64(cLo, cHi) != men) return -1;
  const ta = typeA();
  const tb = typeB();
  let aLo = cLo & unchecked(POSITIONS[base + W_TYPE + (ta << 1)]);
  let aHi = cHi & unchecked(POSITIONS[base + W_TYPE + (ta << 1) + 1]);
  if (popcount64(aLo, aHi) < 1) return -1;
  const a = lowestSquare(aLo, aHi);
  let b = 0;
  if (tb == ta) {
    if (popcount64(aLo, aHi) != 2) return -1;
    if (aLo != 0) aLo &= aLo - 1;
    else aHi &= aHi - 1;
    b = lowestSquare(aLo, aHi);
  } else if (tb != 0) {
    const bLo = cLo & unchecked(POSITIONS[base + W_TYPE + (tb << 1)]);
    const bHi = cHi & unchecked(POSITIONS[base + W_TYPE + (tb << 1) + 1]);
    if (popcount64(bLo, bHi) != 1) return -1;
    b = lowestSquare(bLo, bHi);
  }
  return menKey(kingSquare(base, color), a, b);
}

/** A square no man of key `men` stands on (for Black's king while only the men's attacks matter). */
export function spareSquare(men: i32): i32 {
  const two = typeB() != 0;
  let spare = 0;
  while (spare == (men & 63) || spare == ((men >> 6) & 63) || (two && spare == ((men >> 12) & 63))) spare++;
  return spare;
}

// Bitboard primitives for a core that has no 64-bit integers.
// A bitboard is a pair of 32-bit words: `lo` holds squares a1..h4 (0..31), `hi` holds a5..h8
// (32..63), bit n of a word = square n (+32 for hi). Squares are numbered a1 = 0, b1 = 1 … h8 = 63.
// Pairs live in locals or in Int32Array slots, never in objects.

export const WHITE: i32 = 0;
export const BLACK: i32 = 1;

export const NO_SQUARE: i32 = -1;

/** 32-bit wrapping multiply: native i32.mul in WASM, Math.imul in the portable JS build. */
export function mul32(a: i32, b: i32): i32 {
  if (ASC_TARGET == 0) return i32(Math.imul(a, b));
  return a * b;
}

/** Number of set bits in a bitboard pair. */
export function popcount64(lo: i32, hi: i32): i32 {
  return i32(popcnt<i32>(lo)) + i32(popcnt<i32>(hi));
}

/** Lowest set square of a non-empty pair. */
export function lowestSquare(lo: i32, hi: i32): i32 {
  return lo != 0 ? i32(ctz<i32>(lo)) : 32 + i32(ctz<i32>(hi));
}

export function fileOf(sq: i32): i32 {
  return sq & 7;
}

// Zobrist keys: 64-bit position hashes kept as two 32-bit words (lo, hi).
// A position's key is the XOR of: the key of every (piece, square), the side key when Black is to
// move, the key of the castling-rights set, and the en-passant file key when an en-passant
// capture is legal (positions.ts clears unusable en-passant squares, so equal positions hash equal).
// Keys come from a fixed-seed xorshift32, identical in WASM and JS.

/** PIECE_KEYS[(pieceCode * 64 + sq) * 2]; piece codes 0..15 (see position.ts; code 0 is never used). */
export const PIECE_KEYS = new Int32Array(16 * 64 * 2);
/** CASTLING_KEYS[rights * 2] for each of the 16 castling-right sets. */
export const CASTLING_KEYS = new Int32Array(16 * 2);
/** EN_PASSANT_KEYS[file * 2]. */
export const EN_PASSANT_KEYS = new Int32Array(8 * 2);
export const SIDE_KEYS = new Int32Array(2);

let seed: i32 = 0x2545f491;
function nextRandom(): i32 {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed;
}

let zobristReady = false;

export function initZobrist(): void {
  if (zobristReady) return;
  zobristReady = true;
  for (let i = 0; i < PIECE_KEYS.length; i++) PIECE_KEYS[i] = nextRandom();
  // one key per right; a set's key is the XOR of its rights' keys
  const rightLo = new Int32Array(4);
  const rightHi = new Int32Array(4);
  for (let i = 0; i < 4; i++) {
    rightLo[i] = nextRandom();
    rightHi[i] = nextRandom();
  }
  for (let rights = 0; rights < 16; rights++) {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 4; i++) {
      if ((rights >> i) & 1) {
        lo ^= rightLo[i];
        hi ^= rightHi[i];
      }
    }
    CASTLING_KEYS[rights * 2] = lo;
    CASTLING_KEYS[rights * 2 + 1] = hi;
  }
  for (let i = 0; i < EN_PASSANT_KEYS.length; i++) EN_PASSANT_KEYS[i] = nextRandom();
  SIDE_KEYS[0] = nextRandom();
  SIDE_KEYS[1] = nextRandom();
}

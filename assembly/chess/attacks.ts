// Attack tables: leapers (knight, king, pawn captures), sliding pieces through 32-bit split magics,
// and the geometry tables (squares between two squares, the full line through them).
// Every table stores bitboards as interleaved (lo, hi) word pairs: entry i is at [2i], [2i+1].
// Built once by initAttacks(); read-only afterwards.

import { mul32 } from './bitboard';
import { ROOK_MAGICS, BISHOP_MAGICS } from './magics';
import { newArena } from './arena';

export const KNIGHT_ATTACKS = new Int32Array(64 * 2);
export const KING_ATTACKS = new Int32Array(64 * 2);
/** PAWN_ATTACKS[(color * 64 + sq) * 2]: squares a pawn of `color` on `sq` attacks. */
export const PAWN_ATTACKS = new Int32Array(2 * 64 * 2);
/** BETWEEN[(a * 64 + b) * 2]: squares strictly between a and b on a rank, file or diagonal; empty otherwise. */
export const BETWEEN = newArena(64 * 64 * 2);
/** LINE[(a * 64 + b) * 2]: the whole line (edge to edge) through a and b, both included; empty if not aligned. */
export const LINE = newArena(64 * 64 * 2);

// Magic records, per square: [maskLo, maskHi, magicLo, magicHi, shift, tableOffset] (6 words).
const MAGIC_WORDS = 6;
const ROOK_MAGIC = new Int32Array(64 * MAGIC_WORDS);
const BISHOP_MAGIC = new Int32Array(64 * MAGIC_WORDS);
const ROOK_TABLE_ENTRIES = 102400; // sum over squares of 2^bits for the rook masks
const BISHOP_TABLE_ENTRIES = 5248;
const ROOK_TABLE = newArena(ROOK_TABLE_ENTRIES * 2);
const BISHOP_TABLE = newArena(BISHOP_TABLE_ENTRIES * 2);

/** Word index (into ROOK_TABLE) of the rook attack set from `sq` with occupancy (occLo, occHi). */
export function rookIndex(sq: i32, occLo: i32, occHi: i32): i32 {
  const m = sq * MAGIC_WORDS;
  const index =
    (mul32(occLo & unchecked(ROOK_MAGIC[m]), unchecked(ROOK_MAGIC[m + 2])) ^
      mul32(occHi & unchecked(ROOK_MAGIC[m + 1]), unchecked(ROOK_MAGIC[m + 3]))) >>>
    unchecked(ROOK_MAGIC[m + 4]);
  return (unchecked(ROOK_MAGIC[m + 5]) + index) << 1;
}

export function bishopIndex(sq: i32, occLo: i32, occHi: i32): i32 {
  const m = sq * MAGIC_WORDS;
  const index =
    (mul32(occLo & unchecked(BISHOP_MAGIC[m]), unchecked(BISHOP_MAGIC[m + 2])) ^
      mul32(occHi & unchecked(BISHOP_MAGIC[m + 1]), unchecked(BISHOP_MAGIC[m + 3]))) >>>
    unchecked(BISHOP_MAGIC[m + 4]);
  return (unchecked(BISHOP_MAGIC[m + 5]) + index) << 1;
}

/** Direct table access for callers that computed an index once and need both halves. */
export function rookTableWord(wordIndex: i32): i32 {
  return unchecked(ROOK_TABLE[wordIndex]);
}
export function bishopTableWord(wordIndex: i32): i32 {
  return unchecked(BISHOP_TABLE[wordIndex]);
}

// ---- construction (slow, runs once) ----

function onBoard(file: i32, rank: i32): bool {
  return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

function setBit(table: Int32Array, entry: i32, sq: i32): void {
  const w = entry * 2 + (sq >> 5);
  table[w] = table[w] | (1 << (sq & 31));
}

function setLeaper(table: Int32Array, entry: i32, sq: i32, df: i32, dr: i32): void {
  const f = (sq & 7) + df;
  const r = (sq >> 3) + dr;
  if (onBoard(f, r)) setBit(table, entry, r * 8 + f);
}

// lineRay's answer: the squares along a line from a square, to the first blocker on each side
let rayLo: i32 = 0;
let rayHi: i32 = 0;

/** The squares along the line (df, dr) through `sq`, both ways, each way up to its first square in (blockLo, blockHi), into rayLo, rayHi. */
function lineRay(sq: i32, df: i32, dr: i32, blockLo: i32, blockHi: i32): void {
  let lo = 0;
  let hi = 0;
  for (let s = -1; s <= 1; s += 2) {
    let f = (sq & 7) + s * df;
    let r = (sq >> 3) + s * dr;
    while (onBoard(f, r)) {
      const q = r * 8 + f;
      if (q < 32) lo |= 1 << q;
      else hi |= 1 << (q - 32);
      if (((q < 32 ? blockLo >>> q : blockHi >>> (q - 32)) & 1) != 0) break;
      f += s * df;
      r += s * dr;
    }
  }
  rayLo = lo;
  rayHi = hi;
}

/**
 * The subsets of one line's relevant squares through `sq` (the mask's squares in directions
 * (df, dr) and (-df, -dr)), each with the attacks along that line from `sq` (lineRay), into
 * LINE_SETS from `base` (4 words a subset: squares lo, hi, attacks lo, hi); returns their count.
 * Used only to fill the magic tables.
 */
function lineSets(base: i32, sq: i32, maskLo: i32, maskHi: i32, df: i32, dr: i32): i32 {
  lineRay(sq, df, dr, 0, 0);
  const lineLo = rayLo & maskLo;
  const lineHi = rayHi & maskHi;
  let n = 0;
  let subLo = 0;
  let subHi = 0;
  do {
    lineRay(sq, df, dr, subLo, subHi);
    const w = base + n * 4;
    unchecked((LINE_SETS[w] = subLo));
    unchecked((LINE_SETS[w + 1] = subHi));
    unchecked((LINE_SETS[w + 2] = rayLo));
    unchecked((LINE_SETS[w + 3] = rayHi));
    n++;
    subLo = (subLo - lineLo) & lineLo;
    if (subLo == 0) subHi = (subHi - lineHi) & lineHi;
  } while (subLo != 0 || subHi != 0);
  return n;
}

/** lineSets' subsets of the two lines through a square (at most 6 relevant squares, 64 subsets, each). */
const LINE_SETS = new Int32Array(2 * 64 * 4);

/**
 * The magic table of one piece: a slider's attacks are those along its two lines, each set by the
 * occupancy of that line only, so every entry (a subset of the square's mask) is the union of one
 * subset's attacks on each line, walked once per line subset rather than once per entry (the
 * rook's 102,400 entries were most of a core's making).
 */
function buildMagic(magic: Int32Array, table: Int32Array, source: i32[], bishop: bool): void {
  let offset = 0;
  for (let sq = 0; sq < 64; sq++) {
    const maskLo = source[sq * 5];
    const maskHi = source[sq * 5 + 1];
    const bits = source[sq * 5 + 4];
    const m = sq * MAGIC_WORDS;
    magic[m] = maskLo;
    magic[m + 1] = maskHi;
    magic[m + 2] = source[sq * 5 + 2];
    magic[m + 3] = source[sq * 5 + 3];
    magic[m + 4] = 32 - bits;
    magic[m + 5] = offset;
    // the rook's rank and file, the bishop's two diagonals
    const a = lineSets(0, sq, maskLo, maskHi, 1, bishop ? 1 : 0);
    const b = lineSets(256, sq, maskLo, maskHi, bishop ? 1 : 0, bishop ? -1 : 1);
    for (let i = 0; i < a; i++) {
      const x = i * 4;
      for (let j = 0; j < b; j++) {
        const y = 256 + j * 4;
        const occLo = unchecked(LINE_SETS[x]) | unchecked(LINE_SETS[y]);
        const occHi = unchecked(LINE_SETS[x + 1]) | unchecked(LINE_SETS[y + 1]);
        const w = bishop ? bishopIndex(sq, occLo, occHi) : rookIndex(sq, occLo, occHi);
        unchecked((table[w] = unchecked(LINE_SETS[x + 2]) | unchecked(LINE_SETS[y + 2])));
        unchecked((table[w + 1] = unchecked(LINE_SETS[x + 3]) | unchecked(LINE_SETS[y + 3])));
      }
    }
    offset += 1 << bits;
  }
}

let attacksReady = false;

export function initAttacks(): void {
  if (attacksReady) return;
  attacksReady = true;
  for (let sq = 0; sq < 64; sq++) {
    setLeaper(KNIGHT_ATTACKS, sq, sq, 1, 2);
    setLeaper(KNIGHT_ATTACKS, sq, sq, 2, 1);
    setLeaper(KNIGHT_ATTACKS, sq, sq, 2, -1);
    setLeaper(KNIGHT_ATTACKS, sq, sq, 1, -2);
    setLeaper(KNIGHT_ATTACKS, sq, sq, -1, -2);
    setLeaper(KNIGHT_ATTACKS, sq, sq, -2, -1);
    setLeaper(KNIGHT_ATTACKS, sq, sq, -2, 1);
    setLeaper(KNIGHT_ATTACKS, sq, sq, -1, 2);
    for (let df = -1; df <= 1; df++) {
      for (let dr = -1; dr <= 1; dr++) if (df != 0 || dr != 0) setLeaper(KING_ATTACKS, sq, sq, df, dr);
    }
    setLeaper(PAWN_ATTACKS, sq, sq, -1, 1);
    setLeaper(PAWN_ATTACKS, sq, sq, 1, 1);
    setLeaper(PAWN_ATTACKS, 64 + sq, sq, -1, -1);
    setLeaper(PAWN_ATTACKS, 64 + sq, sq, 1, -1);
  }
  buildMagic(ROOK_MAGIC, ROOK_TABLE, ROOK_MAGICS, false);
  buildMagic(BISHOP_MAGIC, BISHOP_TABLE, BISHOP_MAGICS, true);
  // geometry: for aligned a, b: LINE = (attacks(a, empty) & attacks(b, empty)) | a | b on the shared
  // line; BETWEEN = attacks(a, {b}) & attacks(b, {a}).
  for (let a = 0; a < 64; a++) {
    for (let b = 0; b < 64; b++) {
      if (a == b) continue;
      const fa = a & 7,
        ra = a >> 3,
        fb = b & 7,
        rb = b >> 3;
      const straight = fa == fb || ra == rb;
      const diagonal = fa - fb == ra - rb || fa - fb == rb - ra;
      if (!straight && !diagonal) continue;
      const e = a * 64 + b;
      const df: i32 = fb > fa ? 1 : fb < fa ? -1 : 0;
      const dr: i32 = rb > ra ? 1 : rb < ra ? -1 : 0;
      // walk from a towards b for BETWEEN
      let f = fa + df;
      let r = ra + dr;
      while (f != fb || r != rb) {
        setBit(BETWEEN, e, r * 8 + f);
        f += df;
        r += dr;
      }
      // walk the full line in both directions from a for LINE
      setBit(LINE, e, a);
      f = fa + df;
      r = ra + dr;
      while (onBoard(f, r)) {
        setBit(LINE, e, r * 8 + f);
        f += df;
        r += dr;
      }
      f = fa - df;
      r = ra - dr;
      while (onBoard(f, r)) {
        setBit(LINE, e, r * 8 + f);
        f -= df;
        r -= dr;
      }
    }
  }
}

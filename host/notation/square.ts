// Square names: a1 = 0 … h8 = 63, as in the core.
export const FILES = 'abcdefgh';

export function makeSquare(sq: number): string {
  return FILES[sq & 7] + String((sq >> 3) + 1);
}

/** The squares of a 64-bit set given as the core's (lo, hi) words (lo: a1 … h4). */
export function squaresOf(lo: number, hi: number): number[] {
  const squares: number[] = [];
  for (let sq = 0; sq < 64; sq++) if (((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) !== 0) squares.push(sq);
  return squares;
}

/** Square index of a name like "e4", or -1. */
export function parseSquare(name: string): number {
  if (name.length !== 2) return -1;
  const file = FILES.indexOf(name[0]);
  const rank = name.charCodeAt(1) - 49;
  return file < 0 || rank < 0 || rank > 7 ? -1 : rank * 8 + file;
}

/** The squares strictly between two squares on a line (rank, file or diagonal), else none. */
export function between(from: number, to: number): number[] {
  const df = Math.sign((to & 7) - (from & 7));
  const dr = Math.sign((to >> 3) - (from >> 3));
  const aligned =
    (to & 7) === (from & 7) ||
    to >> 3 === from >> 3 ||
    Math.abs((to & 7) - (from & 7)) === Math.abs((to >> 3) - (from >> 3));
  if (!aligned) return [];
  const squares: number[] = [];
  for (let sq = from + dr * 8 + df; sq !== to; sq += dr * 8 + df) squares.push(sq);
  return squares;
}

/** Chebyshev distance of two squares (king steps). */
export function kingDistance(a: number, b: number): number {
  return Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));
}

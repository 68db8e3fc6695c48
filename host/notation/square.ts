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

// A big belief state for the tests of limits (issue 38, G3): White Kg6 Qb1, White to move, Black's
// king, knight and bishop placed at random (seeded) on squares that make a legal position in which
// neither king is in check: about 108,000 such positions exist, so 100,000 drawn repeat many (the
// search ignores a repeated position), as a krieg-problems document.

const square = (file: number, rank: number) => rank * 8 + file;
const fileOf = (sq: number) => sq % 8;
const rankOf = (sq: number) => sq >> 3;
const WHITE_KING = square(6, 5);
const WHITE_QUEEN = square(1, 0);
const ROOK_LINES = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
const BISHOP_LINES = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const QUEEN_LINES = [...ROOK_LINES, ...BISHOP_LINES];

/** Does a slider on `from` along `lines` reach `target`, stopped by the squares of `blockers`? */
function reaches(from: number, lines: number[][], blockers: number[], target: number): boolean {
  for (const [df, dr] of lines) {
    for (let f = fileOf(from) + df, r = rankOf(from) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      const sq = square(f, r);
      if (sq === target) return true;
      if (blockers.includes(sq)) break;
    }
  }
  return false;
}

function fen(pieces: (string | undefined)[]): string {
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const piece = pieces[square(f, r)];
      if (piece === undefined) empty++;
      else {
        row += (empty || '') + piece;
        empty = 0;
      }
    }
    rows.push(row + (empty || ''));
  }
  return `${rows.join('/')} w - - 0 1`;
}

/** `count` positions drawn at random (some repeated), the same for the same `seed`. */
export function bigBelief(count: number, seed = 1): string[] {
  let state = seed >>> 0 || 1;
  const random = (n: number) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
  const found: string[] = [];
  while (found.length < count) {
    const [king, knight, bishop] = [random(64), random(64), random(64)];
    const squares = [WHITE_KING, WHITE_QUEEN, king, knight, bishop];
    if (squares.some((sq, i) => squares.indexOf(sq) !== i)) continue;
    if (Math.max(Math.abs(fileOf(king) - fileOf(WHITE_KING)), Math.abs(rankOf(king) - rankOf(WHITE_KING))) <= 1)
      continue;
    // Black's king in check with White to move: not a legal position
    if (reaches(WHITE_QUEEN, QUEEN_LINES, [WHITE_KING, knight, bishop], king)) continue;
    // White's king in check: legal, but left out
    const df = Math.abs(fileOf(knight) - fileOf(WHITE_KING));
    const dr = Math.abs(rankOf(knight) - rankOf(WHITE_KING));
    if (df * dr === 2 || reaches(bishop, BISHOP_LINES, [WHITE_QUEEN, king, knight], WHITE_KING)) continue;
    const pieces: (string | undefined)[] = [];
    squares.forEach((sq, i) => (pieces[sq] = 'KQknb'[i]));
    found.push(fen(pieces));
  }
  return found;
}

/** A problems file (the format of test/data/problems/hand.json) of one problem, id `id`, of `count` positions. */
export function bigProblemsFile(count: number, id = 'big', seed = 1): string {
  const problem = { id, rules: 'berkeley', ply: 3, positions: bigBelief(count, seed) };
  return JSON.stringify({ format: 'krieg-problems', version: 1, problems: [problem] });
}

// A big belief state for the tests of limits (issue 38, G3): White Kg6 Qb1, White to move, Black's
// king, knight and bishop placed at random (seeded) on squares that make a legal position in which
// neither king is in check: about 108,000 such positions exist, so 100,000 drawn repeat many (the
// search ignores a repeated position), as a krieg-problems document.

import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeFenOfPieces } from '../../host/notation/fen';
import { seededRandom } from '../../host/referee/game';

/** White's men, fixed: Kg6, Qb1. */
const WHITE: [number, string][] = [
  [46, 'K'],
  [1, 'Q'],
];

/** `count` positions drawn at random (some repeated), the same for the same `seed`. */
export function bigBelief(count: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const square = () => Math.floor(random() * 64);
  const found: string[] = [];
  while (found.length < count) {
    const men: [number, string][] = [...WHITE, [square(), 'k'], [square(), 'n'], [square(), 'b']];
    if (new Set(men.map(([sq]) => sq)).size < men.length) continue;
    const fen = makeFenOfPieces(men);
    // a legal position (chessops: Black's king not in check with White to move, kings apart), and
    // White's king not in check either (legal, but left out)
    const position = Chess.fromSetup(parseFen(fen).unwrap());
    if (position.isErr || position.value.isCheck()) continue;
    found.push(fen);
  }
  return found;
}

/** A problems file (the format of test/data/problems/hand.json) of one problem, id `id`, of `count` positions. */
export function bigProblemsFile(count: number, id = 'big', seed = 1): string {
  const problem = { id, rules: 'berkeley', ply: 3, positions: bigBelief(count, seed) };
  return JSON.stringify({ format: 'krieg-problems', version: 1, problems: [problem] });
}

// Move codes (see assembly/chess/position.ts) ⇄ UCI text ("e2e4", "e7e8q", castling as the king's
// two-square step "e1g1").
import { squareName } from './square';

export const MOVE_KIND = { normal: 0, doublePush: 1, castle: 2, enPassant: 3, promotion: 4 } as const;
const PROMOTION_LETTERS = 'nbrq'; // kinds 4..7

export const moveFrom = (move: number) => move & 63;
export const moveTo = (move: number) => (move >> 6) & 63;
export const moveKind = (move: number) => move >> 12;

export function moveToUci(move: number): string {
  const kind = moveKind(move);
  const promotion = kind >= MOVE_KIND.promotion ? PROMOTION_LETTERS[kind - MOVE_KIND.promotion] : '';
  return squareName(moveFrom(move)) + squareName(moveTo(move)) + promotion;
}

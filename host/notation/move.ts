// Move and attempt codes (see assembly/chess/position.ts, assembly/referee/attempts.ts) ⇄ UCI text
// ("e2e4", "e7e8q", castling as the king's two-square step "e1g1").
import { makeSquare } from './square';

export const MOVE_KIND = { normal: 0, doublePush: 1, castle: 2, enPassant: 3, promotion: 4 } as const;
const PROMOTION_LETTERS = 'nbrq'; // kinds 4..7

export const moveFrom = (move: number) => move & 63;
export const moveTo = (move: number) => (move >> 6) & 63;
export const moveKind = (move: number) => move >> 12;

export function makeUci(move: number): string {
  const kind = moveKind(move);
  const promotion = kind >= MOVE_KIND.promotion ? PROMOTION_LETTERS[kind - MOVE_KIND.promotion] : '';
  return makeSquare(moveFrom(move)) + makeSquare(moveTo(move)) + promotion;
}

/** The attempt code of a UCI string (castling as the king's step), or undefined if not UCI. */
export function parseUci(text: string): number | undefined {
  const m = /^([a-h])([1-8])([a-h])([1-8])([nbrq])?$/.exec(text);
  if (!m) return undefined;
  const from = (Number(m[2]) - 1) * 8 + m[1].charCodeAt(0) - 97;
  const to = (Number(m[4]) - 1) * 8 + m[3].charCodeAt(0) - 97;
  return from | (to << 6) | (m[5] ? (4 + 'nbrq'.indexOf(m[5])) << 12 : 0);
}

/** A legal move's attempt code (kind cleared unless it promotes). */
export function attemptCode(move: number): number {
  return move >> 12 >= 4 ? move : move & 0xfff;
}

// Move and attempt codes (layout in assembly/chess/position.ts; attempts in assembly/referee/attempts.ts)
// ⇄ UCI text ("e2e4", "e7e8q", castling as the king's two-square step "e1g1").
import {
  KNIGHT,
  MOVE_SQUARE_FIELD,
  MOVE_TO_SHIFT,
  MOVE_KIND_SHIFT,
  MOVE_NORMAL,
  MOVE_DOUBLE_PUSH,
  MOVE_CASTLE,
  MOVE_EN_PASSANT,
  MOVE_PROMOTION,
} from '../constants';
import { makeSquare, parseSquare } from './square';

export const MOVE_KIND = {
  normal: MOVE_NORMAL,
  doublePush: MOVE_DOUBLE_PUSH,
  castle: MOVE_CASTLE,
  enPassant: MOVE_EN_PASSANT,
  promotion: MOVE_PROMOTION,
} as const;
/** Promotion kinds MOVE_PROMOTION … + 3 make a knight, bishop, rook, queen. */
const PROMOTION_LETTERS = 'nbrq';

export const moveFrom = (move: number) => move & MOVE_SQUARE_FIELD;
export const moveTo = (move: number) => (move >> MOVE_TO_SHIFT) & MOVE_SQUARE_FIELD;
export const moveKind = (move: number) => move >> MOVE_KIND_SHIFT;
const moveCode = (from: number, to: number, kind: number) => from | (to << MOVE_TO_SHIFT) | (kind << MOVE_KIND_SHIFT);

export function makeUci(move: number): string {
  const kind = moveKind(move);
  const promotion = kind >= MOVE_PROMOTION ? PROMOTION_LETTERS[kind - MOVE_PROMOTION] : '';
  return makeSquare(moveFrom(move)) + makeSquare(moveTo(move)) + promotion;
}

/** The attempt code of a UCI string (castling as the king's step), or undefined if not UCI. */
export function parseUci(text: string): number | undefined {
  const m = /^([a-h][1-8])([a-h][1-8])([nbrq])?$/.exec(text);
  if (!m) return undefined;
  return moveCode(
    parseSquare(m[1]),
    parseSquare(m[2]),
    m[3] ? MOVE_PROMOTION + PROMOTION_LETTERS.indexOf(m[3]) : MOVE_NORMAL,
  );
}

/** The piece type a promotion makes (kinds MOVE_PROMOTION … + 3: KNIGHT … QUEEN), 0 for other moves. */
export function promotionType(move: number): number {
  return moveKind(move) >= MOVE_PROMOTION ? KNIGHT + moveKind(move) - MOVE_PROMOTION : 0;
}

/** A legal move's attempt code: the kind cleared unless it promotes. */
export function attemptCode(move: number): number {
  return moveKind(move) >= MOVE_PROMOTION ? move : moveCode(moveFrom(move), moveTo(move), MOVE_NORMAL);
}

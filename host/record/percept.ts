// Percepts (the referee's answers) between the core's i32 form (layout in
// assembly/referee/referee.ts) and the host's objects.
import { fail } from '../errors';
import {
  ANSWER_LEGAL,
  ANSWER_ILLEGAL,
  ANSWER_NONSENSE,
  PERCEPT_ANSWER_FIELD,
  PERCEPT_SQUARE_FIELD,
  PERCEPT_DIRECTIONS_FIELD,
  PERCEPT_END_FIELD,
  PERCEPT_CAPTURE_SHIFT,
  PERCEPT_CAPTURED_PAWN,
  PERCEPT_CAPTURED_PIECE,
  PERCEPT_EN_PASSANT,
  PERCEPT_DIRECTIONS_SHIFT,
  PERCEPT_CHECK,
  PERCEPT_END_SHIFT,
  PERCEPT_PROMOTION,
  END_CHECKMATE,
  END_STALEMATE,
  END_DRAW_MATERIAL,
  END_DRAW_FIFTY,
  END_DRAW_REPETITION,
  CHECK_KNIGHT,
  CHECK_RANK,
  CHECK_FILE,
  CHECK_LONG_DIAGONAL,
  CHECK_SHORT_DIAGONAL,
} from '../constants';

export type Answer = 'legal' | 'illegal' | 'nonsense';
export type End = 'checkmate' | 'stalemate' | 'draw-material' | 'draw-fifty' | 'draw-repetition';
/** The core's code of each answer and game end. */
const ANSWER_CODES: Record<Answer, number> = {
  legal: ANSWER_LEGAL,
  illegal: ANSWER_ILLEGAL,
  nonsense: ANSWER_NONSENSE,
};
const END_CODES: Record<End, number> = {
  checkmate: END_CHECKMATE,
  stalemate: END_STALEMATE,
  'draw-material': END_DRAW_MATERIAL,
  'draw-fifty': END_DRAW_FIFTY,
  'draw-repetition': END_DRAW_REPETITION,
};
export const ANSWERS = Object.keys(ANSWER_CODES) as Answer[];
export const ENDS = Object.keys(END_CODES) as End[];
const ANSWER_OF: (Answer | undefined)[] = [];
for (const a of ANSWERS) ANSWER_OF[ANSWER_CODES[a]] = a;
const END_OF: (End | undefined)[] = [];
for (const e of ENDS) END_OF[END_CODES[e]] = e;

/** Check directions in announcement order (CHECK_* bits of assembly/chess/moveGen.ts), with their one-letter codes in records. */
export const DIRECTIONS = [
  { bit: CHECK_KNIGHT, name: 'Knight', code: 'N' },
  { bit: CHECK_RANK, name: 'Rank', code: 'R' },
  { bit: CHECK_FILE, name: 'File', code: 'F' },
  { bit: CHECK_LONG_DIAGONAL, name: 'Long diagonal', code: 'L' },
  { bit: CHECK_SHORT_DIAGONAL, name: 'Short diagonal', code: 'S' },
] as const;

export interface Percept {
  answer: Answer;
  /** Square of the capture (0..63), when there was one. */
  capture?: number;
  /** Under capture-detail rules: what was captured. */
  captured?: 'pawn' | 'piece';
  enPassant?: boolean;
  /** The side now to move is in check. */
  check?: boolean;
  /** Under direction rules: CHECK_* bits (1 Knight, 2 Rank, 4 File, 8 Long, 16 Short). */
  directions?: number;
  end?: End;
  promotion?: boolean;
}

export function decodePercept(code: number): Percept {
  const answer = ANSWER_OF[code & PERCEPT_ANSWER_FIELD];
  if (answer === undefined || code < 0) throw fail('bad-percept', { text: `not a percept code: ${code}` });
  const p: Percept = { answer };
  if (answer !== 'legal') return p;
  const capture = ((code >> PERCEPT_CAPTURE_SHIFT) & PERCEPT_SQUARE_FIELD) - 1;
  if (capture >= 0) p.capture = capture;
  if (code & PERCEPT_CAPTURED_PAWN) p.captured = 'pawn';
  if (code & PERCEPT_CAPTURED_PIECE) p.captured = 'piece';
  if (code & PERCEPT_EN_PASSANT) p.enPassant = true;
  if (code & PERCEPT_CHECK) p.check = true;
  const directions = (code >> PERCEPT_DIRECTIONS_SHIFT) & PERCEPT_DIRECTIONS_FIELD;
  if (directions) p.directions = directions;
  const end = END_OF[(code >> PERCEPT_END_SHIFT) & PERCEPT_END_FIELD];
  if (end) p.end = end;
  if (code & PERCEPT_PROMOTION) p.promotion = true;
  return p;
}

export function encodePercept(p: Percept): number {
  let code = ANSWER_CODES[p.answer];
  if (code === undefined) throw fail('bad-percept', { text: `unknown answer '${p.answer}'` });
  if (p.answer !== 'legal') return code;
  if (p.capture !== undefined) code |= (p.capture + 1) << PERCEPT_CAPTURE_SHIFT;
  if (p.captured === 'pawn') code |= PERCEPT_CAPTURED_PAWN;
  if (p.captured === 'piece') code |= PERCEPT_CAPTURED_PIECE;
  if (p.enPassant) code |= PERCEPT_EN_PASSANT;
  if (p.check || p.directions) code |= PERCEPT_CHECK;
  if (p.directions) code |= p.directions << PERCEPT_DIRECTIONS_SHIFT;
  if (p.end) code |= END_CODES[p.end] << PERCEPT_END_SHIFT;
  if (p.promotion) code |= PERCEPT_PROMOTION;
  return code;
}

/** The names of CHECK_* direction bits, in announcement order. */
export function directionNames(bits: number): string[] {
  return DIRECTIONS.filter((d) => bits & d.bit).map((d) => d.name);
}

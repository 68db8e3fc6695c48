// Percepts (the referee's answers) between the core's i32 form (layout in
// assembly/referee/referee.ts) and the host's objects.
import { fail } from '../errors';

export type Answer = 'legal' | 'illegal' | 'nonsense';
export type End = 'checkmate' | 'stalemate' | 'draw-material' | 'draw-fifty' | 'draw-repetition';
export const ANSWERS: Answer[] = ['legal', 'illegal', 'nonsense'];
export const ENDS: End[] = ['checkmate', 'stalemate', 'draw-material', 'draw-fifty', 'draw-repetition'];

/** Check directions in announcement order, with their one-letter codes in records. */
export const DIRECTIONS = [
  { bit: 1, name: 'Knight', code: 'N' },
  { bit: 2, name: 'Rank', code: 'R' },
  { bit: 4, name: 'File', code: 'F' },
  { bit: 8, name: 'Long diagonal', code: 'L' },
  { bit: 16, name: 'Short diagonal', code: 'S' },
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
  const answer = ANSWERS[code & 3];
  if (answer === undefined || code < 0) throw fail('bad-percept', { text: `not a percept code: ${code}` });
  const p: Percept = { answer };
  if (answer !== 'legal') return p;
  const capture = ((code >> 2) & 127) - 1;
  if (capture >= 0) p.capture = capture;
  if (code & (1 << 9)) p.captured = 'pawn';
  if (code & (1 << 10)) p.captured = 'piece';
  if (code & (1 << 11)) p.enPassant = true;
  if (code & (1 << 17)) p.check = true;
  const directions = (code >> 12) & 31;
  if (directions) p.directions = directions;
  const end = (code >> 18) & 7;
  if (end) p.end = ENDS[end - 1];
  if (code & (1 << 21)) p.promotion = true;
  return p;
}

export function encodePercept(p: Percept): number {
  let code = ANSWERS.indexOf(p.answer);
  if (code < 0) throw fail('bad-percept', { text: `unknown answer '${p.answer}'` });
  if (p.answer !== 'legal') return code;
  if (p.capture !== undefined) code |= (p.capture + 1) << 2;
  if (p.captured === 'pawn') code |= 1 << 9;
  if (p.captured === 'piece') code |= 1 << 10;
  if (p.enPassant) code |= 1 << 11;
  if (p.check || p.directions) code |= 1 << 17;
  if (p.directions) code |= p.directions << 12;
  if (p.end) code |= (ENDS.indexOf(p.end) + 1) << 18;
  if (p.promotion) code |= 1 << 21;
  return code;
}

export function directionNames(bits: number): string[] {
  return DIRECTIONS.filter((d) => bits & d.bit).map((d) => d.name);
}

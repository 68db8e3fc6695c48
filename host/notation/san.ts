// Standard algebraic notation for the legal moves of a position: written for display, read for
// records written by people (resolved against the legal moves, so ambiguity is an error). The
// caller supplies the position's board (piece codes by square) and its legal moves.
import { PAWN, MOVE_CASTLE, MOVE_EN_PASSANT, MOVE_PROMOTION } from '../constants';
import { pieceType, pieceLetter } from './fen';
import { moveFrom, moveTo, moveKind, makeUci } from './move';
import { makeSquare } from './square';

const PROMOTION_PIECES = 'NBRQ';
const file = (sq: number) => sq & 7;
const rank = (sq: number) => sq >> 3;

/** The SAN of legal move `move` of the position whose board and legal moves are given (no check marks). */
export function makeSan(board: ArrayLike<number>, legalMoves: readonly number[], move: number): string {
  const from = moveFrom(move);
  const to = moveTo(move);
  const kind = moveKind(move);
  if (kind === MOVE_CASTLE) return file(to) === 6 ? 'O-O' : 'O-O-O';
  const type = pieceType(board[from]);
  const capture = board[to] !== 0 || kind === MOVE_EN_PASSANT;
  let san = '';
  if (type === PAWN) {
    if (capture) san += makeSquare(from)[0] + 'x';
    san += makeSquare(to);
    if (kind >= MOVE_PROMOTION) san += '=' + PROMOTION_PIECES[kind - MOVE_PROMOTION];
  } else {
    san += pieceLetter(type); // a White piece's letter: upper case
    const rivals = legalMoves.filter((m) => m !== move && moveTo(m) === to && pieceType(board[moveFrom(m)]) === type);
    if (rivals.length) {
      const sameFile = rivals.some((m) => file(moveFrom(m)) === file(from));
      const sameRank = rivals.some((m) => rank(moveFrom(m)) === rank(from));
      if (!sameFile) san += makeSquare(from)[0];
      else if (!sameRank) san += makeSquare(from)[1];
      else san += makeSquare(from);
    }
    if (capture) san += 'x';
    san += makeSquare(to);
  }
  return san;
}

/** The legal move `text` names (SAN, with or without check marks, or UCI), or undefined. */
export function parseSan(board: ArrayLike<number>, legalMoves: readonly number[], text: string): number | undefined {
  const clean = text.replace(/[+#!?]+$/, '').replace(/^0-0(-0)?$/, (m) => m.replace(/0/g, 'O'));
  const byUci = legalMoves.find((m) => makeUci(m) === clean);
  if (byUci !== undefined) return byUci;
  const matches = legalMoves.filter((m) => makeSan(board, legalMoves, m) === clean);
  return matches.length === 1 ? matches[0] : undefined;
}

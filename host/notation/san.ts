// Standard algebraic notation for legal moves of a position: written for display, read for
// records written by people (resolved against the legal moves, so ambiguity is an error).
import type { Engine } from '../engine';
import { moveFrom, moveTo, moveKind, MOVE_KIND, makeUci } from './move';
import { makeSquare } from './square';

const LETTERS = ' PNBRQK';

export function makeSan(engine: Engine, handle: number, move: number): string {
  const board = engine.setup(handle).board;
  const from = moveFrom(move);
  const to = moveTo(move);
  const kind = moveKind(move);
  if (kind === MOVE_KIND.castle) return (to & 7) === 6 ? 'O-O' : 'O-O-O';
  const type = board[from] & 7;
  const capture = board[to] !== 0 || kind === MOVE_KIND.enPassant;
  let san = '';
  if (type === 1) {
    if (capture) san += makeSquare(from)[0] + 'x';
    san += makeSquare(to);
    if (kind >= MOVE_KIND.promotion) san += '=' + 'NBRQ'[kind - MOVE_KIND.promotion];
  } else {
    san += LETTERS[type];
    const rivals = engine.moves(handle).filter((m) => m !== move && moveTo(m) === to && (board[moveFrom(m)] & 7) === type);
    if (rivals.length) {
      const sameFile = rivals.some((m) => (moveFrom(m) & 7) === (from & 7));
      const sameRank = rivals.some((m) => (moveFrom(m) >> 3) === (from >> 3));
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
export function parseSan(engine: Engine, handle: number, text: string): number | undefined {
  const clean = text.replace(/[+#!?]+$/, '').replace(/^0-0(-0)?$/, (m) => m.replace(/0/g, 'O'));
  const moves = engine.moves(handle);
  const byUci = moves.find((m) => makeUci(m) === clean);
  if (byUci !== undefined) return byUci;
  const matches = moves.filter((m) => makeSan(engine, handle, m) === clean);
  return matches.length === 1 ? matches[0] : undefined;
}

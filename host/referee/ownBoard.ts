// A player's own board, rebuilt from his view alone: his pieces after his own moves, less those
// the referee announced captured, and his castling rights. From it the core lists his attempts
// (what is not Nonsense), the same for every position he cannot rule out.
import type { Engine } from '../engine';
import { fail } from '../errors';
import {
  WHITE,
  BLACK,
  KING,
  PAWN,
  BISHOP,
  QUEEN,
  ROOK,
  CASTLE_WHITE_KING,
  CASTLE_WHITE_QUEEN,
  CASTLE_BLACK_KING,
  CASTLE_BLACK_QUEEN,
} from '../constants';
import { parseFen, pieceCode, pieceColor, pieceType, type Setup } from '../notation/fen';
import { parseSquare, makeSquare } from '../notation/square';
import { parseUci, promotionType } from '../notation/move';
import type { Side, View } from '../record/record';
import { attemptsOf } from '../core/referee';

// the castling right of a rook's home square (h1, a1, h8, a8), and each colour's rights
const ROOK_HOME_RIGHT: Record<number, number> = {
  7: CASTLE_WHITE_KING,
  0: CASTLE_WHITE_QUEEN,
  63: CASTLE_BLACK_KING,
  56: CASTLE_BLACK_QUEEN,
};
const RIGHTS = [CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN, CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN];

export interface OwnBoard {
  side: Side;
  /** Own piece codes by square (enemy squares are 0: he cannot see them). */
  board: number[];
  castling: number;
  /** Whose turn it is after the view's last event. */
  toMove: Side;
}

export function ownBoard(view: View): OwnBoard {
  const start = parseFen(view.start);
  const color = view.as === 'white' ? WHITE : BLACK;
  const board = start.board.map((code) => (code !== 0 && pieceColor(code) === color ? code : 0));
  let castling = start.castling & RIGHTS[color];
  let toMove: Side = start.side === WHITE ? 'white' : 'black';
  const loseRook = (sq: number) => {
    if (ROOK_HOME_RIGHT[sq] !== undefined) castling &= ~ROOK_HOME_RIGHT[sq];
  };
  for (const event of view.events) {
    if (event.type === 'attempt' && event.side === view.as && event.percept.answer === 'legal') {
      const from = parseSquare(event.attempt.slice(0, 2));
      const to = parseSquare(event.attempt.slice(2, 4));
      let piece = board[from];
      if (piece === 0)
        throw fail('bad-view', { text: `${event.attempt}: no own piece on ${event.attempt.slice(0, 2)}` });
      if (pieceType(piece) === KING) {
        castling &= ~RIGHTS[color];
        if (Math.abs(to - from) === 2) {
          // castling: the rook jumps over
          const rookFrom = to > from ? to + 1 : to - 2;
          board[to > from ? to - 1 : to + 1] = board[rookFrom];
          board[rookFrom] = 0;
        }
      }
      if (pieceType(piece) === ROOK) loseRook(from);
      const promoted = promotionType(parseUci(event.attempt) ?? 0);
      if (promoted) piece = pieceCode(promoted, color);
      board[from] = 0;
      board[to] = piece;
      toMove = view.as === 'white' ? 'black' : 'white';
    } else if (event.type === 'opponent-move' && event.percept) {
      const capture = event.percept.capture;
      if (capture !== undefined) {
        // an en-passant capture announced on the landing square took the pawn behind it
        const square = event.percept.enPassant && view.rules.enPassantSquare === 'landing' ? capture ^ 8 : capture;
        if (board[square] === 0)
          throw fail('bad-view', { text: `a capture on ${makeSquare(square)} where the view has no own piece` });
        if (pieceType(board[square]) === KING) throw fail('bad-view', { text: 'a capture of the own king' });
        loseRook(square);
        board[square] = 0;
      }
      toMove = view.as;
    }
  }
  return { side: view.as, board, castling, toMove };
}

/**
 * The attempt codes of the view's owner at the end of the view (he must be to move): moves of his
 * own-pieces board and pawn capture attempts. Uses record `handle` of the engine.
 */
export function viewAttempts(engine: Engine, view: View, handle = 0): number[] {
  const own = ownBoard(view);
  if (own.toMove !== view.as)
    throw fail('bad-view', { text: `the view ends with ${own.toMove} to move, not ${view.as}` });
  const color = view.as === 'white' ? WHITE : BLACK;
  const ownKing = own.board.findIndex((code) => code === pieceCode(KING, color));
  // The core's positions need both kings: the enemy king goes on the first square where it is
  // legal (not attacked, not beside the own king). Attempts read only the own pieces, so where it
  // stands changes nothing.
  // Where every free square is attacked (lines through his unseen men: english v random, seed 1,
  // game 25), his king goes where lines alone attack it, a pawn of his beside it on each: they too
  // change no attempt (test/referee/ownBoard.test.ts), and the turn goes on.
  for (const blockLines of [false, true]) {
    for (let sq = 0; sq < 64; sq++) {
      if (own.board[sq] !== 0 || (Math.abs((sq & 7) - (ownKing & 7)) <= 1 && Math.abs((sq >> 3) - (ownKing >> 3)) <= 1))
        continue;
      const board = [...own.board];
      board[sq] = pieceCode(KING, 1 - color);
      if (blockLines) blockAttacks(board, sq, color);
      const setup: Setup = { board, side: color, castling: own.castling, epSquare: -1, halfmove: 0, fullmove: 1 };
      try {
        engine.setSetup(handle, setup);
      } catch {
        continue;
      }
      return attemptsOf(engine, handle);
    }
  }
  throw fail('bad-view', { text: 'no square for the enemy king: the own board is impossible' });
}

/** Puts a pawn of the other side beside `square` on each line along which a queen, rook or bishop of `color` attacks it. */
function blockAttacks(board: number[], square: number, color: number): void {
  for (const [df, dr] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ]) {
    const slider = df === 0 || dr === 0 ? ROOK : BISHOP;
    let [f, r] = [(square & 7) + df, (square >> 3) + dr];
    const beside = r * 8 + f;
    for (; f >= 0 && f < 8 && r >= 0 && r < 8 && board[r * 8 + f] === 0; f += df, r += dr);
    if (f < 0 || f > 7 || r < 0 || r > 7 || r * 8 + f === beside) continue; // off the board, or a man beside it
    const code = board[r * 8 + f];
    const type = pieceType(code);
    if (pieceColor(code) === color && (type === QUEEN || type === slider)) board[beside] = pieceCode(PAWN, 1 - color);
  }
}

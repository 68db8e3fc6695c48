// FEN ⇄ Setup. Parsing is purely syntactic; chess validity (kings, checks, pawns on back ranks)
// is judged by the core's loadSetup, which also normalises castling rights and en passant.
import { fail, type KriegError } from '../errors';
import {
  WHITE,
  BLACK,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  KING,
  PIECE_COLOR_SHIFT,
  PIECE_TYPE_FIELD,
  CASTLE_WHITE_KING,
  CASTLE_WHITE_QUEEN,
  CASTLE_BLACK_KING,
  CASTLE_BLACK_QUEEN,
} from '../constants';
import { parseSquare, makeSquare } from './square';

/** A position as the host exchanges it with the core (mirror of the core's SETUP buffer). */
export interface Setup {
  /** Piece code per square, a1 = 0 … h8 = 63: type (1 pawn … 6 king) | colour << 3; 0 empty. */
  board: number[];
  side: 0 | 1;
  /** 1 White O-O, 2 White O-O-O, 4 Black O-O, 8 Black O-O-O. */
  castling: number;
  epSquare: number;
  halfmove: number;
  fullmove: number;
}

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** Piece codes (assembly/chess/position.ts): type | color << PIECE_COLOR_SHIFT; 0 is an empty square. */
export const pieceCode = (type: number, color: number) => type | (color << PIECE_COLOR_SHIFT);
export const pieceType = (code: number) => code & PIECE_TYPE_FIELD;
export const pieceColor = (code: number) => code >> PIECE_COLOR_SHIFT;
const TYPE_LETTERS: Record<number, string> = {
  [PAWN]: 'p',
  [KNIGHT]: 'n',
  [BISHOP]: 'b',
  [ROOK]: 'r',
  [QUEEN]: 'q',
  [KING]: 'k',
};
const LETTER_TYPES: Record<string, number> = Object.fromEntries(
  Object.entries(TYPE_LETTERS).map(([type, letter]) => [letter, Number(type)]),
);
/** A piece code's FEN letter (White upper case), '' for an empty square. */
export function pieceLetter(code: number): string {
  const letter = TYPE_LETTERS[pieceType(code)] ?? '';
  return pieceColor(code) === WHITE ? letter.toUpperCase() : letter;
}
/** The piece code of a FEN letter, or 0. */
function pieceOf(letter: string): number {
  const type = LETTER_TYPES[letter.toLowerCase()];
  return type === undefined ? 0 : pieceCode(type, letter === letter.toLowerCase() ? BLACK : WHITE);
}
/** Castling rights in FEN order, with their CASTLE_* bits. */
const CASTLING = [
  ['K', CASTLE_WHITE_KING],
  ['Q', CASTLE_WHITE_QUEEN],
  ['k', CASTLE_BLACK_KING],
  ['q', CASTLE_BLACK_QUEEN],
] as const;

function fenError(what: string, column: number, fen: string): KriegError {
  const lead = fen.length - fen.trimStart().length; // columns count in the text as given
  return fail('bad-fen', { what, column: lead + column + 1, fen });
}

export function parseFen(fen: string): Setup {
  const text = fen.trim();
  const fields = text.split(/\s+/);
  if (text === '' || fields.length < 4 || fields.length > 6) {
    throw fail('bad-fen', {
      what: `expected 4 to 6 space-separated fields, found ${text === '' ? 0 : fields.length}`,
      fen,
    });
  }
  const columnOf = (field: number) => {
    let at = text.indexOf(fields[0]);
    for (let i = 1; i <= field; i++) at = text.indexOf(fields[i], at + fields[i - 1].length);
    return at;
  };
  const board = new Array<number>(64).fill(0);
  const ranks = fields[0].split('/');
  if (ranks.length !== 8) throw fenError(`the board has ${ranks.length} ranks, expected 8`, 0, fen);
  let column = 0;
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const ch of ranks[r]) {
      if (ch >= '1' && ch <= '8') file += Number(ch);
      else {
        const code = pieceOf(ch);
        if (code === 0) throw fenError(`unknown piece letter '${ch}'`, column, fen);
        if (file > 7) throw fenError(`rank ${8 - r} has more than 8 squares`, column, fen);
        board[(7 - r) * 8 + file] = code;
        file++;
      }
      if (file > 8) throw fenError(`rank ${8 - r} has more than 8 squares`, column, fen);
      column++;
    }
    if (file !== 8) throw fenError(`rank ${8 - r} has ${file} squares, expected 8`, column, fen);
    column++;
  }
  const sideText = fields[1];
  if (sideText !== 'w' && sideText !== 'b')
    throw fenError(`side to move must be 'w' or 'b', found '${sideText}'`, columnOf(1), fen);
  let castling = 0;
  if (fields[2] !== '-') {
    for (let i = 0; i < fields[2].length; i++) {
      const bit = CASTLING.find(([letter]) => letter === fields[2][i])?.[1];
      if (bit === undefined || castling & bit)
        throw fenError(`bad castling field '${fields[2]}'`, columnOf(2) + i, fen);
      castling |= bit;
    }
  }
  let epSquare = -1;
  if (fields[3] !== '-') {
    epSquare = parseSquare(fields[3]);
    if (epSquare < 0) throw fenError(`bad en-passant square '${fields[3]}'`, columnOf(3), fen);
  }
  const clock = (index: number, fallback: number, min: number) => {
    if (fields.length <= index) return fallback;
    const value = fields[index];
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > 0x7fffffff) {
      throw fenError(
        `${index === 4 ? 'halfmove clock' : 'fullmove number'} must be an integer >= ${min}, found '${value}'`,
        columnOf(index),
        fen,
      );
    }
    return Number(value);
  };
  return {
    board,
    side: sideText === 'w' ? WHITE : BLACK,
    castling,
    epSquare,
    halfmove: clock(4, 0, 0),
    fullmove: clock(5, 1, 1),
  };
}

/** The FEN of pieces given as (square, letter: PNBRQK White, pnbrqk Black), no castling or en passant. */
export function makeFenOfPieces(pieces: Iterable<readonly [number, string]>, side: 0 | 1 = 0): string {
  const board: number[] = Array(64).fill(0);
  for (const [sq, letter] of pieces) {
    const code = pieceOf(letter);
    if (code === 0) throw fail('bad-piece', { letter });
    board[sq] = code;
  }
  return makeFen({ board, side, castling: 0, epSquare: -1, halfmove: 0, fullmove: 1 });
}

export function makeFen(setup: Setup): string {
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const code = setup.board[r * 8 + f];
      if (code === 0) {
        empty++;
        continue;
      }
      if (empty) {
        row += empty;
        empty = 0;
      }
      row += pieceLetter(code);
    }
    if (empty) row += empty;
    rows.push(row);
  }
  let castling = '';
  for (const [letter, bit] of CASTLING) if (setup.castling & bit) castling += letter;
  return [
    rows.join('/'),
    setup.side === BLACK ? 'b' : 'w',
    castling || '-',
    setup.epSquare < 0 ? '-' : makeSquare(setup.epSquare),
    setup.halfmove,
    setup.fullmove,
  ].join(' ');
}

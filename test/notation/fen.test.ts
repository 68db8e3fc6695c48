// FEN in and out of the engine: round trips, syntax errors (KriegError 'bad-fen' naming the column
// or field), illegal setups (KriegError 'setup-…' codes of host/errors.ts) and the documented
// normalisation of loadSetup (assembly/chess/position.ts): castling rights whose king or rook is
// not at home are dropped, and an en-passant square is kept only when a legal en-passant capture
// onto it exists.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { createEngine, KriegError, START_FEN, type Setup } from '../../host/node';

const SUITE = readFileSync(fileURLToPath(new URL('../data/perftsuite.epd', import.meta.url)), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '')
  .map((line) => line.split(';')[0].trim());

/**
 * The input FEN as the engine should give it back, worked out without the engine: castling letters
 * kept only with king and rook on their home squares (read from the board field), the en-passant
 * square as chessops' toSetup() gives it (chessops keeps it exactly when a pawn of the side to move
 * can legally capture onto it), clocks defaulting to "0 1".
 */
function normalised(fen: string): string {
  const fields = fen.trim().split(/\s+/);
  const board = fields[0];
  const rows = board.split('/').map((row) => row.replace(/\d/g, (n) => '.'.repeat(Number(n))));
  const at = (square: string) => rows[8 - Number(square[1])]['abcdefgh'.indexOf(square[0])];
  const home: Record<string, [string, string, string, string]> = {
    K: ['e1', 'K', 'h1', 'R'],
    Q: ['e1', 'K', 'a1', 'R'],
    k: ['e8', 'k', 'h8', 'r'],
    q: ['e8', 'k', 'a8', 'r'],
  };
  const castling =
    [...'KQkq']
      .filter((c) => fields[2].includes(c))
      .filter((c) => at(home[c][0]) === home[c][1] && at(home[c][2]) === home[c][3])
      .join('') || '-';
  const ep = Chess.fromSetup(opsParseFen(fen).unwrap()).unwrap().toSetup().epSquare;
  return [board, fields[1], castling, ep === undefined ? '-' : makeSquare(ep), fields[4] ?? '0', fields[5] ?? '1'].join(
    ' ',
  );
}

/** Extra round-trip inputs for what the suite lacks: en-passant squares, rights to drop, short FENs. */
const EXTRA = [
  'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', // no black pawn can take: dropped
  'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', // e5xf6 possible: kept
  'rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2', // e4xd3 possible: kept
  '8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1', // pinned capturer: dropped
  '4k3/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1', // capture along the pin line: kept
  'r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1', // the h1 rook is missing: K dropped
  'r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 3 20', // the king is not on e1: K and Q dropped
  '4k3/8/8/8/8/8/8/4K3 w - -', // four fields: clocks default to 0 1
  '4k3/8/8/8/8/8/8/4K3 b - - 7', // five fields
];

const expectKriegError = (run: () => void, code: string, message?: RegExp | string) => {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(KriegError);
  expect((thrown as KriegError).code).toBe(code);
  if (message !== undefined) expect((thrown as KriegError).message).toMatch(message);
};

/** "at column N", N the 1-based position of `part` in `fen` (its `nth` occurrence). */
const columnOf = (fen: string, part: string, nth = 1) => {
  let at = -1;
  for (let i = 0; i < nth; i++) at = fen.indexOf(part, at + 1);
  expect(at).toBeGreaterThanOrEqual(0);
  return new RegExp(`at column ${at + 1}:`);
};

const S = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';

describe('normalised() (the expectation helper)', () => {
  it('is not the identity', () => {
    expect(normalised(START_FEN)).toBe(START_FEN);
    expect(normalised(EXTRA[0])).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
    expect(normalised(EXTRA[5])).toBe('r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1');
    expect(normalised(EXTRA[7])).toBe('4k3/8/8/8/8/8/8/4K3 w - - 0 1');
  });
});

describe.each(['wasm', 'js'] as const)('%s core', (backend) => {
  const engine = createEngine(backend);
  const roundTrip = (fen: string) => {
    engine.setFen(0, fen);
    return engine.fen(0);
  };

  describe('round trips', () => {
    it.each(SUITE)('%s', (fen) => {
      expect(roundTrip(fen)).toBe(normalised(fen));
      // and the output is a fixed point, also through the Setup form
      expect(roundTrip(engine.fen(0))).toBe(normalised(fen));
      engine.setSetup(1, engine.setup(0));
      expect(engine.fen(1)).toBe(normalised(fen));
      expect(engine.key(1)).toBe(engine.key(0));
      expect(engine.key(0)).toBe(engine.recomputedKey(0));
    });

    it.each(EXTRA)('%s', (fen) => {
      expect(roundTrip(fen)).toBe(normalised(fen));
      expect(roundTrip(engine.fen(0))).toBe(normalised(fen));
    });

    it('reads "startpos" and surrounding spaces', () => {
      expect(roundTrip('startpos')).toBe(START_FEN);
      expect(roundTrip(`  ${S}   w  KQkq -  0 1 `)).toBe(START_FEN);
      expect(roundTrip('4k3/8/8/8/8/8/8/4K3 w - - 99 250')).toBe('4k3/8/8/8/8/8/8/4K3 w - - 99 250');
    });
  });

  describe('malformed FEN', () => {
    it('wrong number of fields', () => {
      expectKriegError(() => engine.setFen(0, ''), 'bad-fen', /expected 4 to 6 space-separated fields, found 0/);
      expectKriegError(() => engine.setFen(0, `${S} w KQkq`), 'bad-fen', /4 to 6 .*fields, found 3/);
      expectKriegError(() => engine.setFen(0, `${S} w`), 'bad-fen', /fields, found 2/);
      expectKriegError(() => engine.setFen(0, `${S} w KQkq - 0 1 x`), 'bad-fen', /fields, found 7/);
    });

    it('bad piece letter', () => {
      const fen = 'rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
      expectKriegError(() => engine.setFen(0, fen), 'bad-fen', columnOf(fen, 'X'));
      expectKriegError(() => engine.setFen(0, fen), 'bad-fen', /unknown piece letter 'X'/);
      const last = `${S.slice(0, -1)}x w KQkq - 0 1`;
      expectKriegError(() => engine.setFen(0, last), 'bad-fen', columnOf(last, 'x'));
      expectKriegError(
        () => engine.setFen(0, '4k3/8/8/8/0/8/8/4K3 w - - 0 1'),
        'bad-fen',
        /column 11: unknown piece letter '0'/,
      );
    });

    it('7 or 9 ranks', () => {
      expectKriegError(
        () => engine.setFen(0, '4k3/8/8/8/8/8/4K3 w - - 0 1'),
        'bad-fen',
        /column 1: the board has 7 ranks, expected 8/,
      );
      expectKriegError(
        () => engine.setFen(0, '4k3/8/8/8/8/8/8/8/4K3 w - - 0 1'),
        'bad-fen',
        /column 1: the board has 9 ranks, expected 8/,
      );
    });

    it('a rank with 9 squares, or 7', () => {
      const pieces = 'rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
      expectKriegError(() => engine.setFen(0, pieces), 'bad-fen', columnOf(pieces, 'p', 9));
      expectKriegError(() => engine.setFen(0, pieces), 'bad-fen', /rank 7 has more than 8 squares/);
      const digits = 'rnbqkbnr/pppppppp/8/8/8/44p/PPPPPPPP/RNBQKBNR w KQkq - 0 1'; // the p is the ninth square
      expectKriegError(() => engine.setFen(0, digits), 'bad-fen', `at column ${digits.indexOf('44p') + 3}:`);
      expectKriegError(() => engine.setFen(0, digits), 'bad-fen', /rank 3 has more than 8 squares/);
      const sum = 'rnbqkbnr/pppppppp/8/8/54/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'; // 5 + 4 overflows at the 4
      expectKriegError(() => engine.setFen(0, sum), 'bad-fen', columnOf(sum, '4/'));
      expectKriegError(() => engine.setFen(0, sum), 'bad-fen', /rank 4 has more than 8 squares/);
      const short = 'rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'; // reported where the rank ends
      expectKriegError(() => engine.setFen(0, short), 'bad-fen', columnOf(short, '/8/PPP'));
      expectKriegError(() => engine.setFen(0, short), 'bad-fen', /rank 4 has 7 squares, expected 8/);
    });

    it('bad side to move', () => {
      for (const side of ['x', 'W', 'white', '-']) {
        const fen = `${S} ${side} KQkq - 0 1`;
        expectKriegError(() => engine.setFen(0, fen), 'bad-fen', columnOf(fen, `${side} KQkq`));
        expectKriegError(() => engine.setFen(0, fen), 'bad-fen', `side to move must be 'w' or 'b', found '${side}'`);
      }
    });

    it('bad castling letters', () => {
      // [field, offset of the offending letter in it]: an unknown letter, or the repeat of one
      for (const [field, offset] of [
        ['KQkx', 3],
        ['KKq', 1],
        ['A', 0],
        ['KQ-', 2],
        ['kqkq', 2],
        ['KQkq1', 4],
      ] as const) {
        const fen = `${S} w ${field} - 0 1`;
        const column = fen.indexOf(` ${field} `) + 2 + offset;
        expectKriegError(() => engine.setFen(0, fen), 'bad-fen', `at column ${column}: bad castling field '${field}'`);
      }
    });

    it('bad en-passant square', () => {
      for (const ep of ['e9', 'i3', 'e', 'e33', 'E3', '3e', 'e0']) {
        const fen = `${S} w KQkq ${ep} 0 1`;
        expectKriegError(() => engine.setFen(0, fen), 'bad-fen', columnOf(fen, `${ep} 0 1`));
        expectKriegError(() => engine.setFen(0, fen), 'bad-fen', `bad en-passant square '${ep}'`);
      }
    });

    it('negative or non-numeric clocks', () => {
      for (const half of ['-1', 'x', '1.5', '+3']) {
        const fen = `${S} w KQkq - ${half} 1`;
        expectKriegError(() => engine.setFen(0, fen), 'bad-fen', columnOf(fen, `${half} 1`));
        expectKriegError(
          () => engine.setFen(0, fen),
          'bad-fen',
          `halfmove clock must be an integer >= 0, found '${half}'`,
        );
      }
      for (const full of ['0', '-3', 'one', '99999999999', '2e3']) {
        const fen = `${S} w KQkq - 0 ${full}`;
        expectKriegError(
          () => engine.setFen(0, fen),
          'bad-fen',
          new RegExp(`at column ${fen.lastIndexOf(full) + 1}: `),
        );
        expectKriegError(
          () => engine.setFen(0, fen),
          'bad-fen',
          `fullmove number must be an integer >= 1, found '${full}'`,
        );
      }
    });
  });

  describe('illegal setups', () => {
    it.each([
      ['no black king', '8/8/8/8/8/8/8/4K3 w - - 0 1', 'setup-king-count'],
      ['no kings at all', '8/8/8/8/8/8/8/8 w - - 0 1', 'setup-king-count'],
      ['two white kings', '4k3/8/8/8/8/8/8/3KK3 w - - 0 1', 'setup-king-count'],
      ['two black kings', 'k3k3/8/8/8/8/8/8/4K3 w - - 0 1', 'setup-king-count'],
      ['white pawn on rank 1', '4k3/8/8/8/8/8/8/P3K3 w - - 0 1', 'setup-pawn-on-back-rank'],
      ['white pawn on rank 8', 'P3k3/8/8/8/8/8/8/4K3 w - - 0 1', 'setup-pawn-on-back-rank'],
      ['black pawn on rank 1', '4k3/8/8/8/8/8/8/p3K3 b - - 0 1', 'setup-pawn-on-back-rank'],
      ['black pawn on rank 8', 'p3k3/8/8/8/8/8/8/4K3 b - - 0 1', 'setup-pawn-on-back-rank'],
      ['side not to move in check (rook)', '4k3/8/8/8/8/8/8/4RK2 w - - 0 1', 'setup-opponent-in-check'],
      ['side not to move in check (pawn)', '4k3/8/8/8/8/8/3p4/4K3 b - - 0 1', 'setup-opponent-in-check'],
      ['kings touching', '8/8/8/8/8/8/3k4/4K3 w - - 0 1', 'setup-opponent-in-check'],
      ['9 white pawns', 'rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'setup-too-many-pieces'],
      ['9 black pawns', 'rnbqkbnr/pppppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'setup-too-many-pieces'],
      ['10 queens and 8 pawns', '4k3/8/8/8/QQQQQQQQ/PPPPPPPP/QQ6/4K3 b - - 0 1', 'setup-too-many-pieces'],
      [
        '8 pawns and a third knight',
        'rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
        'setup-too-many-pieces',
      ],
      ['9 queens and a pawn', '4k3/8/8/QQQQQQQQ/P7/8/Q7/4K3 b - - 0 1', 'setup-too-many-pieces'],
    ])('%s', (_, fen, code) => {
      expectKriegError(() => engine.setFen(0, fen), code);
    });

    it('a rejected setup leaves the position it would have replaced untouched', () => {
      for (const bad of [
        '4k3/8/8/8/8/8/8/4RK2 w - - 0 1',
        '8/8/8/8/8/8/8/4K3 w - - 0 1',
        'P3k3/8/8/8/8/8/8/4K3 w - - 0 1',
      ]) {
        engine.setFen(0, START_FEN);
        const key = engine.key(0);
        expect(() => engine.setFen(0, bad)).toThrow(KriegError);
        expect(engine.fen(0)).toBe(START_FEN);
        expect(engine.key(0)).toBe(key);
        expect(engine.recomputedKey(0)).toBe(key);
        expect(engine.moves(0)).toHaveLength(20);
      }
    });

    it('counts error columns in the text as given, leading spaces included', () => {
      const fen = `   ${S} x KQkq - 0 1`;
      expectKriegError(() => engine.setFen(0, fen), 'bad-fen', new RegExp(`at column ${fen.indexOf(' x ') + 2}: `));
    });

    it('accepts the limits: 9 queens, no pawns; 8 pawns and the initial pieces', () => {
      expect(roundTrip('4k3/8/8/QQQQQQQQ/8/8/Q7/4K3 b - - 0 1')).toBe('4k3/8/8/QQQQQQQQ/8/8/Q7/4K3 b - - 0 1');
      expect(roundTrip('4k3/8/8/8/2NNN3/8/PPPPPPP1/4K3 w - - 0 1')).toBe('4k3/8/8/8/2NNN3/8/PPPPPPP1/4K3 w - - 0 1');
      expect(roundTrip('4k3/8/8/8/8/8/3p4/6K1 b - - 0 1')).toBe('4k3/8/8/8/8/8/3p4/6K1 b - - 0 1');
    });

    it('rejects bad Setup values that no FEN can express', () => {
      engine.setFen(0, START_FEN);
      const good = engine.setup(0);
      const variant = (change: Partial<Setup>): Setup => ({ ...good, board: [...good.board], ...change });
      const badPiece = variant({});
      badPiece.board[20] = 7; // type 7 does not exist
      expectKriegError(() => engine.setSetup(1, badPiece), 'setup-bad-piece');
      const badCode = variant({});
      badCode.board[20] = 16;
      expectKriegError(() => engine.setSetup(1, badCode), 'setup-bad-piece');
      expectKriegError(() => engine.setSetup(1, variant({ side: 2 as 0 })), 'setup-bad-side');
      expectKriegError(() => engine.setSetup(1, variant({ halfmove: -1 })), 'setup-bad-clock');
      expectKriegError(() => engine.setSetup(1, variant({ fullmove: 0 })), 'setup-bad-clock');
      expectKriegError(() => engine.setFen(-1, START_FEN), 'bad-handle');
      expectKriegError(() => engine.setFen(engine.capacity, START_FEN), 'bad-handle');
      engine.setSetup(1, variant({}));
      expect(engine.fen(1)).toBe(START_FEN);
    });
  });

  describe('normalisation', () => {
    const check = (fen: string, expected: string) => {
      expect(roundTrip(fen)).toBe(expected);
      // a normalised-away field leaves no trace in the key either
      const key = engine.key(0);
      expect(key).toBe(engine.recomputedKey(0));
      engine.setFen(1, expected);
      expect(engine.key(1)).toBe(key);
    };

    it('drops castling rights whose king or rook is not at home', () => {
      check('r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1');
      check('r3k2r/8/8/8/8/8/8/4K2R w KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/4K2R w Kkq - 0 1');
      check('r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1');
      check('1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1', '1r2k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1');
      check('r2k3r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', 'r2k3r/8/8/8/8/8/8/R3K2R b KQ - 0 1');
      // a piece of the wrong colour or kind in the corner does not count
      check('r3k2B/8/8/8/8/8/8/R3K2n w KQkq - 0 1', 'r3k2B/8/8/8/8/8/8/R3K2n w Qq - 0 1');
      check('r3k2r/8/8/8/8/8/8/Q3K2R w KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/Q3K2R w Kkq - 0 1');
    });

    it('drops an en-passant square nobody can capture onto', () => {
      // no pawn next to the pushed one
      check(
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
      );
      // no pushed pawn in front of the square, or the square it came from is occupied
      check('4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1', '4k3/8/8/4P3/8/8/8/4K3 w - - 0 1');
      check('4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1', '4k3/3p4/8/3pP3/8/8/8/4K3 w - - 0 1');
      // the square is on the wrong rank for the side to move
      check('4k3/8/8/3pP3/8/8/8/4K3 b - d6 0 1', '4k3/8/8/3pP3/8/8/8/4K3 b - - 0 1');
    });

    it('drops an en-passant square whose capturer is pinned or cannot resolve a check', () => {
      // both pawns leave the fifth rank: the rook would see the king
      check('8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1', '8/8/8/KPp4r/8/8/8/4k3 w - - 0 1');
      check('8/8/8/8/R2Pp2k/8/8/4K3 b - d3 0 1', '8/8/8/8/R2Pp2k/8/8/4K3 b - - 0 1');
      // the capturer leaves the c3-g7 diagonal
      check('4k3/6b1/8/3pP3/8/2K5/8/8 w - d6 0 1', '4k3/6b1/8/3pP3/8/2K5/8/8 w - - 0 1');
      // the king is in check from a rook that the capture does not touch
      check('4k3/8/8/3pP3/8/8/8/r3K3 w - d6 0 1', '4k3/8/8/3pP3/8/8/8/r3K3 w - - 0 1');
    });

    it('keeps a legitimate en-passant square', () => {
      check(
        'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
        'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
      );
      check(
        'rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2',
        'rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2',
      );
      // of two capturers e5 is pinned (c3-g7), c5 can still take
      check('4k3/6b1/8/2PpP3/8/2K5/8/8 w - d6 0 1', '4k3/6b1/8/2PpP3/8/2K5/8/8 w - d6 0 1');
      // pinned capturer moving along its pin line
      check('4k3/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1', '4k3/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1');
      // the pushed pawn gives check and the capture removes it
      check('8/8/8/3pP3/4K3/8/8/k7 w - d6 0 1', '8/8/8/3pP3/4K3/8/8/k7 w - d6 0 1');
      // and the square differs from "-" in the key
      engine.setFen(0, '8/8/8/3pP3/4K3/8/8/k7 w - d6 0 1');
      engine.setFen(1, '8/8/8/3pP3/4K3/8/8/k7 w - - 0 1');
      expect(engine.key(0)).not.toBe(engine.key(1));
    });
  });
});

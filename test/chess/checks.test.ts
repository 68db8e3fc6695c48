// Hand-worked check announcements: engine.checkDirections / checkNames / checkerCount / inCheck.
//
// Directions (CHECK_* bits): 1 Knight, 2 Rank, 4 File, 8 Long diagonal, 16 Short diagonal. A pawn
// checks along a diagonal. Of the two diagonals through the king's square, the long one is the
// one with more squares. For a square on file f, rank r (0-based, a1 = (0,0)):
//   the a1-h8-direction diagonal ("/") has 8 - |f - r| squares,
//   the a8-h1-direction diagonal ("\") has 8 - |f + r - 7| squares.
// The two lengths always differ in parity, so there is never a tie. Each case below works the
// lengths out for its king square. Every FEN is a legal position (the side not to move is not in
// check); the first test has chessops confirm that, and that the check is not an impossible one.
import { describe, it, expect } from 'vitest';
import { Chess, isImpossibleCheck } from 'chessops/chess';
import { parseFen as opsParseFen } from 'chessops/fen';
import { createEngine } from '../../host/node';
import { directionNames as checkNames, DIRECTIONS as CHECK_DIRECTIONS } from '../../host/record/percept';

type Name = 'Knight' | 'Rank' | 'File' | 'Long diagonal' | 'Short diagonal';
/** Written out here rather than taken from CHECK_DIRECTIONS, so the table itself is under test. */
const BIT: Record<Name, number> = { Knight: 1, Rank: 2, File: 4, 'Long diagonal': 8, 'Short diagonal': 16 };

interface Case {
  fen: string;
  names: Name[];
  checkers: number;
  why: string;
}

const SINGLE: Case[] = [
  // ---- knight, rank, file ----
  { fen: '4k3/8/8/8/8/5n2/8/4K3 w - - 0 1', names: ['Knight'], checkers: 1, why: 'Nf3 checks Ke1' },
  { fen: '4k3/2N5/8/8/8/8/8/4K3 b - - 0 1', names: ['Knight'], checkers: 1, why: 'Nc7 checks Ke8' },
  { fen: '4k3/8/8/8/8/8/8/r3K3 w - - 0 1', names: ['Rank'], checkers: 1, why: 'Ra1 along the first rank' },
  { fen: '4k2Q/8/8/8/8/8/8/4K3 b - - 0 1', names: ['Rank'], checkers: 1, why: 'Qh8 along the eighth rank' },
  { fen: '8/8/8/8/k6R/8/8/4K3 b - - 0 1', names: ['Rank'], checkers: 1, why: 'Rh4 across the whole fourth rank' },
  { fen: '4k3/8/8/8/4q3/8/8/4K3 w - - 0 1', names: ['File'], checkers: 1, why: 'Qe4 down the e-file' },
  { fen: '4k3/8/8/8/8/8/8/3KR3 b - - 0 1', names: ['File'], checkers: 1, why: 'Re1 up the e-file' },
  { fen: 'K7/8/8/8/8/8/8/r3k3 w - - 0 1', names: ['File'], checkers: 1, why: 'Ra1 up the a-file to Ka8 (corner)' },

  // ---- Ke1 / Ke8: e1 = (4,0): "/" 8-4 = 4 (e1 f2 g3 h4), "\" 8-|4-7| = 5 (a5 b4 c3 d2 e1) ----
  {
    fen: '4k3/8/8/b7/8/8/8/4K3 w - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'Ba5-e1 is the 5-square diagonal',
  },
  {
    fen: '4k3/8/8/8/7b/8/8/4K3 w - - 0 1',
    names: ['Short diagonal'],
    checkers: 1,
    why: 'Bh4-e1 is the 4-square diagonal',
  },
  // e8 = (4,7): "/" 8-3 = 5 (a4 b5 c6 d7 e8), "\" 8-|4+7-7| = 4 (e8 f7 g6 h5)
  { fen: '4k3/8/8/1Q6/8/8/8/4K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Qb5-e8, 5 squares' },
  { fen: '4k3/8/8/7Q/8/8/8/4K3 b - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Qh5-e8, 4 squares' },
  { fen: '4k3/8/8/8/B7/8/8/4K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Ba4-e8, 5 squares' },
  { fen: '4k3/8/6B1/8/8/8/8/4K3 b - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Bg6-e8, 4 squares' },

  // ---- pawns: Ke4 = (4,3): "/" 8-1 = 7 (b1 … h7), "\" 8-|0| = 8 (a8 … h1) ----
  {
    fen: '4k3/8/8/3p4/4K3/8/8/8 w - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'pawn d5 is on the 8-square a8-h1 diagonal',
  },
  {
    fen: '4k3/8/8/5p2/4K3/8/8/8 w - - 0 1',
    names: ['Short diagonal'],
    checkers: 1,
    why: 'pawn f5 is on the 7-square b1-h7 diagonal',
  },
  // Ke5 = (4,4): "/" 8 (a1 … h8), "\" 8-|1| = 7 (b8 … h2)
  { fen: '8/8/8/4k3/3P4/8/8/4K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'pawn d4 is on a1-h8' },
  { fen: '8/8/8/4k3/5P2/8/8/4K3 b - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'pawn f4 is on b8-h2' },

  // ---- corners: one diagonal has 8 squares, the other only the corner itself: always long ----
  // a1 = (0,0): "/" 8, "\" 8-|0-7| = 1
  { fen: '6kb/8/8/8/8/8/8/K7 w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Bh8-a1' },
  { fen: 'k7/8/8/8/8/8/1p6/K7 w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'pawn b2 checks Ka1' },
  {
    fen: '4K3/8/8/4Q3/8/8/8/k7 b - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'Qe5-a1, Black king in the corner',
  },
  // h8 = (7,7): "/" 8, "\" 8-|7+7-7| = 1
  { fen: '7k/8/8/8/8/8/8/B3K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Ba1-h8' },
  { fen: '7k/6P1/8/8/8/8/8/4K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'pawn g7 checks Kh8' },
  // a8 = (0,7): "/" 8-|0-7| = 1, "\" 8
  { fen: 'k7/8/8/8/8/8/8/4K2B b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Bh1-a8' },
  { fen: 'k7/1P6/8/8/8/8/8/4K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'pawn b7 checks Ka8' },
  {
    fen: 'K7/8/8/3q4/8/8/8/4k3 w - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'Qd5-a8, White king in the corner',
  },
  // h1 = (7,0): "/" 8-7 = 1, "\" 8
  { fen: 'q3k3/8/8/8/8/8/8/7K w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Qa8-h1' },
  { fen: '4k3/8/8/8/8/8/6p1/7K w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'pawn g2 checks Kh1' },

  // ---- next to corners, where the short diagonal has just 2 squares ----
  // b1 = (1,0): "/" 8-1 = 7 (b1 … h7), "\" 8-|1-7| = 2 (a2 b1)
  { fen: '4k3/8/8/8/8/8/b7/1K6 w - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Ba2-b1, 2 squares' },
  { fen: '4k3/7b/8/8/8/8/8/1K6 w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Bh7-b1, 7 squares' },
  {
    fen: '4k3/8/8/8/8/8/p7/1K6 w - - 0 1',
    names: ['Short diagonal'],
    checkers: 1,
    why: 'pawn a2 checks Kb1 on the short one',
  },
  {
    fen: '4k3/8/8/8/8/8/2p5/1K6 w - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'pawn c2 checks Kb1 on the long one',
  },
  // g8 = (6,7): "/" 8-1 = 7 (a2 … g8), "\" 8-|6+7-7| = 2 (g8 h7)
  {
    fen: '6k1/7P/8/8/8/8/8/4K3 b - - 0 1',
    names: ['Short diagonal'],
    checkers: 1,
    why: 'pawn h7 checks Kg8, 2 squares',
  },
  {
    fen: '6k1/5P2/8/8/8/8/8/4K3 b - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'pawn f7 checks Kg8, 7 squares',
  },
  { fen: '6k1/8/8/8/8/8/B7/4K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Ba2-g8' },
  // h2 = (7,1): "/" 8-6 = 2 (g1 h2), "\" 8-|7+1-7| = 7 (b8 … h2)
  {
    fen: '4k3/8/8/8/8/6p1/7K/8 w - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'pawn g3 checks Kh2 along b8-h2',
  },
  { fen: '4k3/8/8/8/8/8/7K/6b1 w - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Bg1-h2, 2 squares' },

  // ---- other edge squares ----
  // d1 = (3,0): "/" 8-3 = 5 (d1 e2 f3 g4 h5), "\" 8-|3-7| = 4 (a4 b3 c2 d1)
  { fen: '4k3/8/8/8/q7/8/8/3K4 w - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Qa4-d1, 4 squares' },
  { fen: '4k3/8/8/7b/8/8/8/3K4 w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Bh5-d1, 5 squares' },
  // a4 = (0,3): "/" 8-3 = 5 (a4 b5 c6 d7 e8), "\" 8-|0+3-7| = 4 (a4 b3 c2 d1)
  { fen: '8/8/8/8/k7/8/8/3B1K2 b - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Bd1-a4, 4 squares' },
  { fen: '4B3/8/8/8/k7/8/8/5K2 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Be8-a4, 5 squares' },
  // h5 = (7,4): "/" 8-3 = 5 (d1 e2 f3 g4 h5), "\" 8-|7+4-7| = 4 (e8 f7 g6 h5)
  { fen: '4b2k/8/8/7K/8/8/8/8 w - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Be8-h5, 4 squares' },
  { fen: '7k/8/8/7K/8/8/8/3b4 w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Bd1-h5, 5 squares' },

  // ---- central squares ----
  // d4 = (3,3): "/" 8 (a1 … h8), "\" 8-|3+3-7| = 7 (a7 … g1)
  { fen: '8/B7/8/8/3k4/8/8/4K3 b - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Ba7-d4, 7 squares' },
  { fen: '7Q/8/8/8/3k4/8/8/4K3 b - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Qh8-d4, 8 squares' },
  {
    fen: '8/8/8/8/3k4/2P5/8/4K3 b - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'pawn c3 checks Kd4 along a1-h8',
  },
  {
    fen: '8/8/8/8/3k4/4P3/8/4K3 b - - 0 1',
    names: ['Short diagonal'],
    checkers: 1,
    why: 'pawn e3 checks Kd4 along a7-g1',
  },
  // c6 = (2,5): "/" 8-3 = 5 (a4 b5 c6 d7 e8), "\" 8-|2+5-7| = 8 (a8 … h1)
  { fen: '4b3/8/2K5/8/8/8/8/7k w - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Be8-c6, 5 squares' },
  { fen: '8/8/2K5/8/8/8/8/k6b w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Bh1-c6, 8 squares' },
  {
    fen: '4k3/1p6/2K5/8/8/8/8/8 w - - 0 1',
    names: ['Long diagonal'],
    checkers: 1,
    why: 'pawn b7 checks Kc6 along a8-h1',
  },
  {
    fen: '4k3/3p4/2K5/8/8/8/8/8 w - - 0 1',
    names: ['Short diagonal'],
    checkers: 1,
    why: 'pawn d7 checks Kc6 along a4-e8',
  },
  // f3 = (5,2): "/" 8-3 = 5 (d1 … h5), "\" 8-|5+2-7| = 8 (a8 … h1)
  { fen: '4k3/8/8/8/8/5K2/8/3b4 w - - 0 1', names: ['Short diagonal'], checkers: 1, why: 'Bd1-f3, 5 squares' },
  { fen: '4k3/8/8/8/8/5K2/8/7b w - - 0 1', names: ['Long diagonal'], checkers: 1, why: 'Bh1-f3, 8 squares' },
];

const DOUBLE: Case[] = [
  { fen: '4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1', names: ['Knight', 'File'], checkers: 2, why: 'Ne4-d6 uncovered Re1' },
  { fen: '4k3/8/8/8/8/3n4/8/r3K3 w - - 0 1', names: ['Knight', 'Rank'], checkers: 2, why: 'Nc1-d3 uncovered Ra1' },
  {
    fen: 'k7/8/1N6/8/8/8/8/4K2B b - - 0 1',
    names: ['Knight', 'Long diagonal'],
    checkers: 2,
    why: 'Nd5-b6 uncovered Bh1 (a8 corner)',
  },
  { fen: '3Rk3/8/8/8/8/8/8/4RK2 b - - 0 1', names: ['Rank', 'File'], checkers: 2, why: 'e7xd8=R uncovered Re1' },
  {
    fen: '4kR2/8/6B1/8/8/8/8/4K3 b - - 0 1',
    names: ['Rank', 'Short diagonal'],
    checkers: 2,
    why: 'Rf7-f8 uncovered Bg6 (e8 "\\": 4 squares)',
  },
  // e7 = (4,6): "/" 8-2 = 6 (a3 … f8), "\" 8-|4+6-7| = 5 (d8 e7 f6 g5 h4)
  {
    fen: '8/4k3/3P4/8/8/8/8/4RK2 b - - 0 1',
    names: ['File', 'Long diagonal'],
    checkers: 2,
    why: 'e5xd6 e.p. uncovered Re1',
  },
  {
    fen: '4r1k1/8/8/8/7b/8/8/4K3 w - - 0 1',
    names: ['File', 'Short diagonal'],
    checkers: 2,
    why: 'Be7-h4 uncovered Re8',
  },
  // c7 = (2,6): "/" 8-4 = 4 (a5 b6 c7 d8), "\" 8-|2+6-7| = 7 (b8 … h2)
  {
    fen: '3B4/2k4R/8/8/8/8/8/4K3 b - - 0 1',
    names: ['Rank', 'Short diagonal'],
    checkers: 2,
    why: 'e7xd8=B uncovered Rh7',
  },
];

const NONE: Case[] = [
  { fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', names: [], checkers: 0, why: 'start position' },
  { fen: '4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1', names: [], checkers: 0, why: 'rook blocked by a pawn' },
  { fen: '4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1', names: [], checkers: 0, why: 'bishop blocked by a pinned knight' },
  { fen: '4k3/8/8/8/8/4n3/8/4K3 w - - 0 1', names: [], checkers: 0, why: 'knight one square off' },
  { fen: '4k3/8/8/8/8/8/4p3/4K3 w - - 0 1', names: [], checkers: 0, why: 'a pawn does not check straight ahead' },
  { fen: '8/8/3P4/4k3/8/8/8/4K3 b - - 0 1', names: [], checkers: 0, why: 'a pawn does not check backwards' },
  {
    fen: '4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1',
    names: [],
    checkers: 0,
    why: 'rooks on the first rank, king not on their files',
  },
];

const ALL = [...SINGLE, ...DOUBLE, ...NONE];

const bitsOf = (names: Name[]) => names.reduce((bits, name) => bits | BIT[name], 0);

describe('the hand-worked positions', () => {
  it.each(ALL)('$fen is legal and chessops counts $checkers checker(s) ($why)', ({ fen, checkers }) => {
    const pos = Chess.fromSetup(opsParseFen(fen).unwrap());
    expect(pos.isOk).toBe(true);
    expect(isImpossibleCheck(pos.unwrap())).toBe(false);
    expect(pos.unwrap().ctx().checkers.size()).toBe(checkers);
  });

  it('cover every direction, for both colours', () => {
    for (const side of ['w', 'b']) {
      for (const name of Object.keys(BIT) as Name[]) {
        expect(
          SINGLE.some((c) => c.fen.split(' ')[1] === side && c.names[0] === name),
          `${name} for ${side}`,
        ).toBe(true);
      }
    }
  });
});

describe('checkNames', () => {
  it('names each bit, in announcement order', () => {
    expect(checkNames(0)).toEqual([]);
    for (const name of Object.keys(BIT) as Name[]) expect(checkNames(BIT[name])).toEqual([name]);
    expect(checkNames(BIT.File | BIT.Knight)).toEqual(['Knight', 'File']);
    expect(checkNames(BIT['Short diagonal'] | BIT.Rank)).toEqual(['Rank', 'Short diagonal']);
    expect(checkNames(31)).toEqual(['Knight', 'Rank', 'File', 'Long diagonal', 'Short diagonal']);
    expect(CHECK_DIRECTIONS.map((d) => d.bit)).toEqual([1, 2, 4, 8, 16]);
  });
});

describe.each(['wasm', 'js'] as const)('%s core', (backend) => {
  const engine = createEngine(backend);

  it.each(ALL)('$fen: $names ($why)', ({ fen, names, checkers }) => {
    engine.setFen(0, fen);
    const bits = engine.checkDirections(0);
    expect(bits).toBe(bitsOf(names));
    expect(checkNames(bits)).toEqual(names);
    expect(engine.checkerCount(0)).toBe(checkers);
    expect(engine.inCheck(0)).toBe(checkers > 0);
  });

  // the same checks arising from moves, including double checks that only a move can give
  it.each([
    { fen: 'k7/8/8/3N4/8/8/8/4K2B w - - 0 1', move: 'd5b6', names: ['Knight', 'Long diagonal'] },
    { fen: 'k7/8/8/3N4/8/8/8/4K2B w - - 0 1', move: 'd5c7', names: ['Knight', 'Long diagonal'] },
    { fen: 'k7/8/8/3N4/8/8/8/4K2B w - - 0 1', move: 'd5f6', names: ['Long diagonal'] },
    { fen: 'r3k3/8/8/8/8/n7/8/K7 b - - 0 1', move: 'a3c2', names: ['Knight', 'File'] },
    { fen: 'r3k3/8/8/8/8/n7/8/K7 b - - 0 1', move: 'a3b5', names: ['File'] },
    // promotions: e7xd8 uncovers Re1; the new piece may add a rank check
    { fen: '3rk3/4P3/8/8/8/8/8/4RK2 w - - 0 1', move: 'e7d8r', names: ['Rank', 'File'] },
    { fen: '3rk3/4P3/8/8/8/8/8/4RK2 w - - 0 1', move: 'e7d8q', names: ['Rank', 'File'] },
    { fen: '3rk3/4P3/8/8/8/8/8/4RK2 w - - 0 1', move: 'e7d8b', names: ['File'] },
    { fen: '3rk3/4P3/8/8/8/8/8/4RK2 w - - 0 1', move: 'e7d8n', names: ['File'] },
    // e8=N uncovers Rh7 along the seventh rank and checks c7 itself
    { fen: '8/2k1P2R/8/8/8/8/8/4K3 w - - 0 1', move: 'e7e8n', names: ['Knight', 'Rank'] },
    { fen: '8/2k1P2R/8/8/8/8/8/4K3 w - - 0 1', move: 'e7e8q', names: ['Rank'] },
    { fen: '3r4/2k1P2R/8/8/8/8/8/4K3 w - - 0 1', move: 'e7d8b', names: ['Rank', 'Short diagonal'] },
    { fen: '3r4/2k1P2R/8/8/8/8/8/4K3 w - - 0 1', move: 'e7d8q', names: ['Rank', 'Short diagonal'] },
    // en passant uncovers the e-file, and the capturing pawn checks e7 on its 6-square diagonal
    { fen: '8/4k3/8/3pP3/8/8/8/4RK2 w - d6 0 1', move: 'e5d6', names: ['File', 'Long diagonal'] },
    // castling: the rook gives the check
    { fen: '5k2/8/8/8/8/8/8/4K2R w K - 0 1', move: 'e1g1', names: ['File'] },
    { fen: '3k4/8/8/8/8/8/8/R3K3 w Q - 0 1', move: 'e1c1', names: ['File'] },
    { fen: '8/8/8/8/8/8/8/R3K1k1 w Q - 0 1', move: 'e1c1', names: ['Rank'] }, // Rd1 sees g1 once the king left e1
    // Black promotes with check on the first rank: d1 = (3,0)
    { fen: '4k3/8/8/8/8/8/3p4/6K1 b - - 0 1', move: 'd2d1q', names: ['Rank'] },
    { fen: '4k3/8/8/8/8/8/3p4/5K2 b - - 0 1', move: 'd2d1n', names: [] },
  ] as { fen: string; move: string; names: Name[] }[])('$fen, $move: $names', ({ fen, move, names }) => {
    engine.setFen(0, fen);
    expect(engine.inCheck(0)).toBe(false);
    engine.playUci(0, move, 1);
    const bits = engine.checkDirections(1);
    expect(checkNames(bits)).toEqual(names);
    expect(bits).toBe(bitsOf(names));
    expect(engine.inCheck(1)).toBe(names.length > 0);
    expect(engine.checkerCount(1)).toBe(names.length);
  });
});

// The box check of the endgame technique against his men unknown (host/players/endgame.ts
// mayStalemate): an attempt that leaves his king's last steps on squares where a pawn of his would be
// frozen may stalemate him. Read over the whole board it vetoed the technique's sure mates for the
// rest of a game (krieg v random at 8617677, game 64: Rb2 then Rc1 mated his king on the first rank
// in every position of the set, but a pawn of his "might" stand on a4's or b5's last step; a queen
// and two rooks shuffled to the cap); now, given the squares a man of his stands on in the pool's
// positions, it counts only those. A pawn of his is frozen by any man of krieg's in front of it, not
// only by a pawn (game 173 v random, seed 1: Rb1 left his king on c6 the one step d6, where his pawn
// stood blocked by krieg's knight on d5: stalemate). Hand-built boxes, checked against the true position.
// And the turn after the technique loses its set (an answer his unseen men gave, which his bare king
// could not: game 100, Ra8 "mated" his king on a2 behind his a7 pawn, then the sampling's Rd1
// stalemated him there), the box check still reads that set, widened by his king's step.
// A check of the metaposition through a square a man of his may stand on may be a pin in the true
// position: with his king boxed and the pinned man blocked, a stalemate (game 100 v random, seed 1:
// Rb8 through his b7 pawn, his king on b3).
// A piece of his read on such a line (an Illegal slide, or a check he answered without his king leaving)
// may stand there pinned on any rank, a knight with no move (seed 2, game 82: c2 boxed his king on c1,
// his knight e1 pinned by Rh1; game 151: Qd6 boxed him on a5, his rook d2 pinned by Be1, where a pawn
// would take the bishop); and given the pool's squares, the check reads his king a step from the set too
// where a line through such a square checks him (seed 1, game 50: the set on f2 and g2, his king on h2
// behind his h4 pawn, and Qf1 stalemated him).
// While the set against unknown men stays wide, a safe step of krieg's pawn comes first (game 40 v
// random, seed 1: Q+R+B against K+B+2P shuffled 60 plies with three free pawns unmoved): the pawn
// nearest to a queen, onto a square neither his king nor a man of the pool's can take unguarded.
// A pawn on the seventh whose square his king may stand on or next to waits for a man to guard that
// square, then promotes there (game 167 v random, seed 1: pawns on c7 and g7 for 60 plies, the set
// over ranks 7 and 8, to the cap).
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { parseFen } from '../../host/notation/fen';
import { makeUci, parseUci } from '../../host/notation/move';
import {
  bestUnvetoed,
  EndgameTechnique,
  hangsOften,
  interposingSquares,
  leastHanging,
  mayStalemate,
  pawnStep,
  promotionGuards,
  shieldedBy,
} from '../../host/players/endgame';
import { PlayerEngines } from '../../host/players/engines.node';
import { ENDGAME_WIN } from '../../host/core/endgame';
import { trackerSource } from '../../host/players/sources';
import { WORK_PER_NODE } from '../../host/players/sampling';
import { viewAttempts } from '../../host/referee/ownBoard';
import { seededRandom } from '../../host/referee/game';
import type { View } from '../../host/record/record';

const square = (name: string) => (Number(name[1]) - 1) * 8 + (name.charCodeAt(0) - 97);

/** `uci` from `fen` leaves him to move, not in check and without a move: a stalemate in the true position. */
function expectStalemate(engine: ReturnType<PlayerEngines['for']>, fen: string, uci: string): void {
  engine.setFen(1, fen);
  engine.playUci(1, uci, 2);
  expect(engine.inCheck(2)).toBe(false);
  expect(engine.moves(2)).toHaveLength(0);
}

describe.each(BACKENDS)('the box check against his men unknown on %s', (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // his king on h8 and his pawn on h7, blocked by krieg's h6: Rg1 leaves the king no step but h7
  const fen = '7k/7p/7P/8/8/8/8/K2R4 w - - 0 1';
  const own = parseFen(fen);
  const rg1 = parseUci('d1g1')!;

  it('Rg1 stalemates him in the true position', () => expectStalemate(engine, fen, 'd1g1'));

  it('seen where a man of his may stand on the last step, or where nothing says where they stand', () => {
    expect(mayStalemate(engine, own, rg1, [square('h8')], 1)).toBe(true);
    expect(mayStalemate(engine, own, rg1, [square('h8')], 1, new Set([square('h7'), square('a2')]))).toBe(true);
  });

  it('not seen where no position of the pool has a man of his there, nor with no man of his left', () => {
    expect(mayStalemate(engine, own, rg1, [square('h8')], 1, new Set([square('a7'), square('b5')]))).toBe(false);
    expect(mayStalemate(engine, own, rg1, [square('h8')], 0)).toBe(false);
  });
});

describe.each(BACKENDS)('a pawn of his blocked by a piece of krieg on %s', (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // game 173's position: his king on c6 and his pawn on d6 in front of krieg's knight on d5
  const fen = '8/8/2kp4/R2N4/4K1Q1/2B4P/8/5R2 w - - 0 1';
  const own = parseFen(fen);
  const rb1 = parseUci('f1b1')!;

  it('Rb1 stalemates him in the true position', () => expectStalemate(engine, fen, 'f1b1'));

  it('seen: the knight freezes the pawn on the last step as a pawn would', () => {
    expect(mayStalemate(engine, own, rb1, [square('c6')], 1, new Set([square('d6')]))).toBe(true);
  });

  it('not seen where the pool has no man of his on d6, nor where the pawn could take', () => {
    expect(mayStalemate(engine, own, rb1, [square('c6')], 1, new Set([square('h2')]))).toBe(false);
    // a rook of krieg's on e5 too: the king keeps its one step d6, but a pawn there could take on e5
    const takes = parseFen('8/8/2kp4/R2NR3/4K1Q1/2B4P/8/5R2 w - - 0 1');
    expect(mayStalemate(engine, takes, rb1, [square('c6')], 1, new Set([square('d6')]))).toBe(false);
    engine.setFen(1, '8/8/2k5/R2NR3/4K1Q1/2B4P/8/1R6 b - - 0 1'); // his bare king there keeps d6
    expect(engine.moves(1).map((m) => (m >> 6) & 63)).toEqual([square('d6')]);
  });
});

describe.each(BACKENDS)('a check through a square a man of his may stand on on %s', (backend) => {
  const engine = new PlayerEngines(backend).for('black', preset('berkeley'));
  // game 100 v random, seed 1: his king on b3 without a step, his pawn on b7 blocked by nothing yet;
  // Rb8 "checks" the king of the metaposition through b7, and in the true position pins the pawn,
  // now blocked by the rook: stalemate
  const fen = 'r2r4/1P2np2/6k1/2p3p1/2n3P1/1K1b2P1/1b6/8 b - - 0 55';
  const own = parseFen(fen);
  const rb8 = parseUci('d8b8')!;

  it('Rb8 stalemates him in the true position', () => expectStalemate(engine, fen, 'd8b8'));

  it('seen: a man of his on b7, pinned and blocked, leaves him no move', () => {
    expect(mayStalemate(engine, own, rb8, [square('b3')], 3)).toBe(true);
    expect(mayStalemate(engine, own, rb8, [square('b3')], 3, new Set([square('b7'), square('g3')]))).toBe(true);
    // the game's pool had its man on b6, a step behind (its squares lag his last move)
    expect(mayStalemate(engine, own, rb8, [square('b3')], 3, new Set([square('b6'), square('g3')]))).toBe(true);
  });

  it('not seen where no man of his may stand on the line, nor where the pinned man could still move', () => {
    expect(mayStalemate(engine, own, rb8, [square('b3')], 3, new Set([square('g3'), square('g4')]))).toBe(false);
    // his king on h1 without a step, Rh8 "checks" it up the h-file: a pawn of his pinned on h7 is blocked
    // by the rook (stalemate), one on h2 to h6 still steps along the file
    const file = 'r7/8/8/8/6n1/8/5k2/7K b - - 0 1';
    const rh8 = parseUci('a8h8')!;
    expectStalemate(engine, 'r7/7P/8/8/6n1/8/5k2/7K b - - 0 1', 'a8h8');
    expect(mayStalemate(engine, parseFen(file), rh8, [square('h1')], 1, new Set([square('h7')]))).toBe(true);
    expect(mayStalemate(engine, parseFen(file), rh8, [square('h1')], 1, new Set([square('h4')]))).toBe(false);
    expect(mayStalemate(engine, parseFen(file), rh8, [square('h1')], 1)).toBe(true);
  });
});

describe.each(BACKENDS)('the box check of a sure mate on %s', (backend) => {
  // krieg v random, seed 1, game 100: Rh2 "mated" his king on c2 on every square of the set, and the box
  // check vetoed it: in one of the pool's positions a man of his stood on the second rank, where, pinned,
  // it would have left him stalemated. Here his king on a7, Rh1-h7 mates him bare; a pawn of his on e7,
  // blocked by e6 and pinned, would make it a stalemate. Rh1-a1 mates up the a-file, past no e7.
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  const fen = '3R4/k3p3/2K1P3/8/1QB2Q2/8/6R1/7R w - - 0 1';
  const own = parseFen(fen);
  const [rh7, ra1] = [parseUci('h1h7')!, parseUci('h1a1')!];
  const box = (likely: string[]) => ({
    squares: [square('a7')],
    men: 1,
    where: new Set([square('e7'), square('h5')]), // a man of his on e7 in one position of the pool
    likely: new Set(likely.map(square)),
  });

  it('Rh7 stalemates him with his pawn on e7', () => expectStalemate(engine, fen, 'h1h7'));

  it('a sure mate is vetoed only where his man is likely, any other attempt where he may stand', () => {
    const mates = [
      { attempt: rh7, v: ENDGAME_WIN },
      { attempt: ra1, v: ENDGAME_WIN - 1 },
    ];
    expect(bestUnvetoed(engine, own, mates, box(['h5']))).toEqual({ attempts: [rh7], value: ENDGAME_WIN });
    // e7 in MATE_RISK_SHARE of the pool: Rh7 vetoed, the mate up the a-file next
    expect(bestUnvetoed(engine, own, mates, box(['e7', 'h5']))).toEqual({ attempts: [ra1], value: ENDGAME_WIN - 1 });
    // no sure mate: every square a man of his may stand on counts
    const quiet = [{ attempt: rh7, v: 120 }];
    expect(bestUnvetoed(engine, own, quiet, box(['h5'])).attempts).toEqual([]);
    // a repetition stops an attempt before the box check
    expect(bestUnvetoed(engine, own, mates, box(['h5']), (a) => a === rh7).attempts).toEqual([ra1]);
  });
});

describe.each(BACKENDS)("a check along another man's line through a man of his on %s", (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // game 153 v random, seed 1: his king on a5 behind his b4 pawn (blocked by krieg's b3), shielded
  // from Be1; Rc7 moves off the line and leaves the king no step: stalemate
  const fen = '8/4P3/6N1/k3P3/1pR3K1/1P3N2/8/1R2BQQ1 w - - 0 1';
  const own = parseFen(fen);
  const rc7 = parseUci('c4c7')!;

  it('Rc7 stalemates him in the true position', () => expectStalemate(engine, fen, 'c4c7'));

  it("seen: the bishop's check through b4, where a man of his may stand, is a pin", () => {
    expect(mayStalemate(engine, own, rc7, [square('a5')], 1, new Set([square('b4')]))).toBe(true);
    expect(mayStalemate(engine, own, rc7, [square('a5')], 1)).toBe(true);
  });

  it('not seen where no man of his may stand on the line', () => {
    expect(mayStalemate(engine, own, rc7, [square('a5')], 1, new Set([square('h2')]))).toBe(false);
  });
});

describe.each(BACKENDS)('a piece of his pinned where one was read on %s', (backend) => {
  const black = new PlayerEngines(backend).for('black', preset('berkeley'));
  const white = new PlayerEngines(backend).for('white', preset('berkeley'));
  const at = (...names: string[]) => new Set(names.map(square));

  // each a stalemate in truth, seen with the piece read on the line, not with a pawn alone there
  it.each([
    // seed 2, game 82 v random: krieg (black) plays c3-c2; a pawn cannot stand on the first rank
    [
      'his knight on the first rank, pinned by the rook: c2 boxes his king on c1',
      'black',
      '8/6b1/3pk3/3b2p1/8/2p2p2/4q3/2K1N2r b - - 0 71',
      'c3c2',
      'c1',
      'e1',
    ],
    // seed 2, game 151 v random: krieg (white) plays Qd4-d6; a pawn on d2 would take the bishop
    [
      'his rook pinned on the diagonal, where a pawn would take the bishop: Qd6 boxes his king on a5',
      'white',
      '8/3B4/P7/kP6/3Q4/3R4/2Qr4/4B2K w - - 11 87',
      'd4d6',
      'a5',
      'd2',
    ],
  ] as const)('%s', (_, side, fen, uci, king, read) => {
    const engine = side === 'black' ? black : white;
    expectStalemate(engine, fen, uci);
    const own = parseFen(fen);
    const attempt = parseUci(uci)!;
    expect(mayStalemate(engine, own, attempt, [square(king)], 1, at(read), at(read))).toBe(true);
    expect(mayStalemate(engine, own, attempt, [square(king)], 1, at(read))).toBe(false);
  });

  it("his king a step from the set, behind his man on the rook's file: Qf1 boxes him on h2", () => {
    // seed 1, game 50 v random: the set on f2 and g2, his king on h2, his h4 pawn blocked by krieg's h5 rook
    const fen = 'r1q1k3/p1p4p/p7/7r/4pp1P/bn1b4/7K/2q5 b - - 3 44';
    const qf1 = parseUci('c1f1')!;
    expectStalemate(black, fen, 'c1f1');
    const own = parseFen(fen);
    const set = [square('f2'), square('g2')];
    expect(mayStalemate(black, own, qf1, set, 1, at('h4', 'b7'))).toBe(true);
    // no man of the pool's on the file, or no pool's squares at all: the set's squares only
    expect(mayStalemate(black, own, qf1, set, 1, at('a5', 'b7'))).toBe(false);
    expect(mayStalemate(black, own, qf1, set, 1)).toBe(false);
  });
});

describe.each(BACKENDS)('the squares where a man of his breaks a check on %s', (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // seed 1, game 182 v random: Qa5+ checks his king on h5 along the fifth rank (his knight stepped to c5)
  const line = (fen: string, uci: string) =>
    interposingSquares(engine, parseFen(fen), parseUci(uci)!, square('h5')).map(
      (sq) => 'abcdefgh'[sq & 7] + ((sq >> 3) + 1),
    );

  it('every square of the checking line', () => {
    expect(line('8/6K1/2P5/7k/4Q3/2B2P2/8/QQ6 w - - 0 1', 'a1a5')).toEqual(['b5', 'c5', 'd5', 'e5', 'f5', 'g5']);
  });

  it('none where a knight checks too, or the checker stands next to the king', () => {
    expect(line('8/6K1/2P5/Q2N3k/4Q3/2B2P2/8/1Q6 w - - 0 1', 'd5f6')).toEqual([]);
    expect(line('8/6K1/2P5/7k/4Q3/2B2P2/8/QQ6 w - - 0 1', 'e4g4')).toEqual([]);
  });
});

describe.each(BACKENDS)('the squares a man of his may shield on %s', (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // game 145 v random, seed 1, after Qd3: his king on g6 behind his f5 pawn, which few of the pool's
  // positions put there; the set read g6 attacked and lost his king
  const own = parseFen('8/8/2Q2Bk1/3N1pP1/3P1P2/p1pQ3K/2R5/R7 b - - 0 1');
  const names = (squares: number[]) => squares.map((sq) => 'abcdefgh'[sq & 7] + ((sq >> 3) + 1));

  it('a square checked along one line through a square of his men is shielded', () => {
    expect(names(shieldedBy(engine, { ...own, side: 0 }, new Set([square('f5')])))).toContain('g6');
  });

  it('not through squares where no man of his stands, nor where another man checks it too', () => {
    expect(names(shieldedBy(engine, { ...own, side: 0 }, new Set([square('a5')])))).not.toContain('g6');
    // h7 too, on Qd3's diagonal beyond g6; with a rook of krieg's on b7 checking it along the rank, not
    expect(names(shieldedBy(engine, { ...own, side: 0 }, new Set([square('f5')])))).toContain('h7');
    const rook = parseFen('8/1R6/2Q2Bk1/3N1pP1/3P1P2/p1pQ3K/2R5/R7 b - - 0 1');
    expect(names(shieldedBy(engine, { ...rook, side: 0 }, new Set([square('f5')])))).not.toContain('h7');
  });
});

describe.each(BACKENDS)("the technique's best that hang least on %s", (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // krieg's king on a1, queen on d1, knight on f3 and pawn on e4; the pool's positions: his king on h8
  // and a bishop on b7 (the long diagonal) or on a6
  const own = parseFen('8/8/8/8/4P3/5N2/8/K2Q4 w - - 0 1');
  const board = (fen: string) => parseFen(fen).board;
  const onB7 = board('7k/1b6/8/8/8/8/8/K7 w - - 0 1');
  const onA6 = board('7k/8/b7/8/8/8/8/K7 w - - 0 1');
  const uci = (names: string[]) => names.map((n) => parseUci(n)!);
  const names = (attempts: number[]) => attempts.map((a) => makeUci(a)).sort();

  it('a queen is kept off the squares his bishop takes on', () => {
    // Qd5 is taken from b7, Qd3 from a6 (cheaper than the queen, though the knight on f3 does not
    // guard either); Qd2 is taken in neither
    const attempts = uci(['d1d5', 'd1d3', 'd1d2']);
    expect(names(leastHanging(engine, own, attempts, [onB7, onA6]))).toEqual(['d1d2']);
    expect(names(leastHanging(engine, own, uci(['d1d5', 'd1d3']), [onB7, onB7, onA6]))).toEqual(['d1d3']);
  });

  it('a knight taken by a bishop is not hanging where a man of krieg guards its square', () => {
    // Nd5: the bishop on b7 takes it, but the e4 pawn retakes; Ne5: the bishop on b8 takes it, unguarded
    const onB8 = board('1b5k/8/8/8/8/8/8/K7 w - - 0 1');
    const knight = uci(['f3d5', 'f3e5']);
    expect(names(leastHanging(engine, own, knight, [onB7]))).toEqual(['f3d5', 'f3e5']);
    expect(names(leastHanging(engine, own, knight, [onB7, onB8]))).toEqual(['f3d5']);
  });

  it("without the pool's positions, all of them", () => {
    expect(names(leastHanging(engine, own, uci(['d1d5', 'd1d3']), []))).toEqual(['d1d3', 'd1d5']);
  });
});

describe.each(BACKENDS)('a sure mate that hangs the mating man on %s', (backend) => {
  // krieg v random, seed 2, game 164: Qf2 "mated" his king on h2 in the metaposition, and his knight
  // on d1, there in a fifth of the pool's positions, took the queen. Here his king on h1, Qg2 mates
  // it bare (Kf3 guards g2), and his knight on f4 takes the queen for a knight; Rb7 is a quiet move
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  const own = parseFen('1R6/6Q1/8/8/8/5K2/8/8 w - - 0 1');
  const [qg2, rb7] = [parseUci('g7g2')!, parseUci('b8b7')!];
  const bare = parseFen('8/8/8/8/8/8/8/7k w - - 0 1').board;
  const knight = parseFen('8/8/8/8/5n2/8/8/7k w - - 0 1').board;
  const ranked = [
    { attempt: qg2, v: ENDGAME_WIN },
    { attempt: rb7, v: -300 },
  ];
  const box = (boards: number[][]) => ({ squares: [square('h1')], men: 0, hangs: hangsOften(engine, own, boards) });

  it('Qg2 mates his bare king, and his knight on f4 takes it', () => {
    engine.setFen(1, '1R6/6Q1/8/8/5n2/5K2/8/7k w - - 0 1');
    engine.playUci(1, 'g7g2', 2);
    expect(engine.moves(2).map(makeUci)).toEqual(['f4g2']);
    engine.setFen(1, '1R6/6Q1/8/8/8/5K2/8/7k w - - 0 1');
    engine.playUci(1, 'g7g2', 2);
    expect(engine.moves(2)).toHaveLength(0);
    expect(engine.inCheck(2)).toBe(true);
  });

  it("a sure mate vetoed where an eighth of the pool's positions have the knight, played where fewer do", () => {
    const pool = (knights: number, others: number) => [...Array(knights).fill(knight), ...Array(others).fill(bare)];
    expect(bestUnvetoed(engine, own, ranked, box(pool(1, 7)))).toEqual({ attempts: [rb7], value: -300 });
    expect(bestUnvetoed(engine, own, ranked, box(pool(1, 8)))).toEqual({ attempts: [qg2], value: ENDGAME_WIN });
    expect(bestUnvetoed(engine, own, ranked, box([]))).toEqual({ attempts: [qg2], value: ENDGAME_WIN });
    // an attempt that is no sure mate is not vetoed by it (of equal ones leastHanging keeps the safest)
    const quiet = [{ attempt: qg2, v: 200 }, ranked[1]];
    expect(bestUnvetoed(engine, own, quiet, box(pool(1, 7)))).toEqual({ attempts: [qg2], value: 200 });
  });
});

describe.each(BACKENDS)('the squares the box check reads on %s', (backend) => {
  it("the technique's set, and the turn after it is lost that set widened by a step", () => {
    const rules = preset('berkeley');
    const start = '8/8/8/4k3/8/8/8/R3K3 w - - 0 1';
    const engine = new PlayerEngines(backend).for('white', rules);
    const source = trackerSource(engine, { side: 'white', rules, start, seed: 1 });
    const technique = new EndgameTechnique(engine, source, 2, seededRandom(1), 'white');
    const view: View = {
      rules,
      start,
      as: 'white',
      white: 'krieg',
      black: 'random',
      result: '*',
      tags: {},
      events: [],
    };
    const turn = { view, attempts: viewAttempts(engine, view, 1), tried: [], canAskAny: false };
    const names = (squares: readonly number[] | undefined) => [...(squares ?? [])].sort((a, b) => a - b);
    expect(technique.recentSquares).toBeUndefined();
    expect(technique.choose(turn, { nodes: 300 }, WORK_PER_NODE)).toBeDefined();
    expect(names(technique.recentSquares)).toEqual([square('e5')]); // the exact belief's
    technique.drop(); // the set lost
    expect(technique.squares).toBeUndefined();
    const around = ['d4', 'e4', 'f4', 'd5', 'e5', 'f5', 'd6', 'e6', 'f6'].map(square);
    expect(names(technique.recentSquares)).toEqual(around.sort((a, b) => a - b));
  });
});

describe.each(BACKENDS)("a pawn's step against his men unknown on %s", (backend) => {
  const engine = new PlayerEngines(backend).for('white', preset('berkeley'));
  // krieg's king, queen and pawns on a3, g5 and b7; his king and men somewhere
  const attempts = ['a3a4', 'g5g6', 'b7b8n', 'b7b8q', 'd1d5', 'd3d5'].map((uci) => parseUci(uci)!);
  const step = (fen: string, squares: string[], where?: string[]) => {
    const own = parseFen(fen);
    const open = attempts.filter((a) => own.board[a & 63] !== 0);
    const found = pawnStep(engine, own, open, squares.map(square), 1, where && new Set(where.map(square)));
    return found === undefined ? undefined : makeUci(found);
  };
  const queenD1 = '8/1P6/8/6P1/8/P7/8/K2Q4 w - - 0 1';
  const queenD3 = '8/1P6/8/6P1/8/P2Q4/8/K7 w - - 0 1';

  it('the pawn nearest to a queen, promoting to one', () => {
    expect(step(queenD1, ['h1', 'h2', 'h3'])).toBe('b7b8q');
  });

  it('none onto a square of the set, or next to one unguarded', () => {
    expect(step(queenD1, ['c8', 'h1'])).toBe('g5g6');
    expect(step(queenD1, ['b8', 'h1'])).toBe('g5g6');
    expect(step(queenD1, ['c8', 'h7'])).toBe('a3a4');
    expect(step(queenD3, ['c8', 'h7'])).toBe('g5g6'); // the queen guards g6
    expect(step(queenD1, ['c8', 'h7', 'b5'])).toBe('a3a4'); // the queen guards a4
    expect(step(queenD3, ['b8', 'g6', 'b5'])).toBeUndefined();
  });

  it('none where a man of the pool may take it unguarded', () => {
    expect(step(queenD1, ['c8'], ['h7'])).toBe('a3a4');
    expect(step(queenD1, ['c8'], ['f7', 'a1'])).toBe('a3a4');
    expect(step(queenD3, ['c8'], ['h7'])).toBe('g5g6');
  });

  it('a queen the men guard onto a square of the set (his king there: the step Illegal), not one unguarded', () => {
    const g7 = [parseUci('g7g8q')!];
    // the rook on g6 guards g8 once the pawn has left g7
    expect(pawnStep(engine, parseFen('8/6P1/6R1/8/8/8/8/K7 w - - 0 1'), g7, [square('g8'), square('f7')], 1)).toBe(
      g7[0],
    );
    expect(
      pawnStep(engine, parseFen('8/6P1/R7/8/8/8/8/K7 w - - 0 1'), g7, [square('g8'), square('f7')], 1),
    ).toBeUndefined();
    expect(pawnStep(engine, parseFen('8/6P1/R7/8/8/8/8/K7 w - - 0 1'), g7, [square('f7')], 1)).toBeUndefined();
  });

  it("the moves that guard an unguarded promotion's square, none of a pawn, none once it is guarded", () => {
    const candidates = ['a6g6', 'a6a8', 'a6a7', 'a6b6', 'e4f6', 'e4g5', 'b1c2', 'g7g8q', 'g7g8r', 'c2c3'];
    const guards = (fen: string) => {
      const own = parseFen(fen);
      const open = candidates.map((uci) => parseUci(uci)!).filter((a) => own.board[a & 63] !== 0);
      return promotionGuards(engine, own, open).map(makeUci).sort();
    };
    // Ra6 to g6 (behind the pawn: g8 once it has left) or a8 (along the last rank), Ne4 to f6; not Ra7 (the
    // pawn's own square), not the king on b1, far, nor the pawn's c2-c3
    expect(guards('8/6P1/R7/8/4N3/8/2P5/1K6 w - - 0 1')).toEqual(['a6a8', 'a6g6', 'e4f6']);
    // the knight on f6 guards g8 already: no move is a guard
    expect(guards('8/6P1/R4N2/8/8/8/2P5/1K6 w - - 0 1')).toEqual([]);
  });

  it('none that boxes his king beside a piece of his pinned where a man was read to block', () => {
    // krieg v HS, seed 1, game 145 at a0fcbbc: c6-c7 stalemated his king on c8, his bishop on d8 pinned
    // by Rf8 (a pawn of his is not read on the back rank)
    const fen = '2kb1R2/8/2PK4/3B4/8/8/5Q2/4N3 w - - 0 1';
    const own = parseFen(fen);
    const c7 = [parseUci('c6c7')!];
    expectStalemate(engine, fen, 'c6c7');
    expect(pawnStep(engine, own, c7, [square('c8')], 1)).toBe(c7[0]);
    expect(pawnStep(engine, own, c7, [square('c8')], 1, undefined, new Set([square('d8')]))).toBeUndefined();
  });
});

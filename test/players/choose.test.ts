// Choose-move (assembly/players/choose.ts; Parker, Nau & Subrahmanian 2005 Fig. 1): the average,
// per attempt, over the positions of S where it is legal, of the value after it. A hand-worked set
// of three positions that share White's own board (Ke1, Ra1) and differ in Black's pieces:
//   P1  6k1/5ppp/8/8/8/8/8/R3K3  back rank shut: Ra8 mates
//   P2  6k1/5ppp/8/p7/8/8/8/R3K3  a black pawn on a5 blocks the a-file: Ra8 is not legal, Rxa5 captures
//   P3  6k1/6pp/8/1b6/8/8/8/R3K3  a black bishop on b5 watches e2 and f1: Ke2 and Kf1 are not legal;
//                                 Ra8 is check but no mate (Be8 blocks, Kf7 escapes)
// At depth 0 (quiescence only) a quiet king move after which Black can capture nothing and is not
// in check is worth exactly minus the static evaluation of the position after it.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import {
  ChooseRun,
  NOT_LEGAL,
  MATE,
  countMates,
  countThreats,
  evaluatePosition,
  resetSearch,
  type AttemptValue,
} from '../../host/core/players';
import { parseUci } from '../../host/notation/move';

const P = [
  '6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1',
  '6k1/5ppp/8/p7/8/8/8/R3K3 w - - 0 1',
  '6k1/6pp/8/1b6/8/8/8/R3K3 w - - 0 1',
];
const STACK = 100;
const a = (uci: string) => parseUci(uci)!;

describe.each(BACKENDS)('choose-move on %s', (backend) => {
  const engine = createEngine(backend, 256);
  P.forEach((fen, i) => engine.setFen(10 + i, fen));
  const handles = [10, 11, 12];
  const run = new ChooseRun(engine, 10, { depth: 0 }, STACK);
  run.add(handles);
  const rows = run.rows();
  const row = (uci: string): AttemptValue => rows.find((r) => r.attempt === a(uci))!;
  const value = (position: number, uci: string) => run.positions[position].values[run.rowOf(a(uci))!];

  /** Minus the static evaluation after `uci` in position i, where Black can then capture nothing and is not in check. */
  const quietValue = (i: number, uci: string) => {
    engine.playUci(10 + i, uci, 50);
    const replies = engine.moves(50);
    expect(engine.inCheck(50)).toBe(false);
    const board = engine.setup(50).board;
    expect(replies.every((m) => board[(m >> 6) & 63] === 0)).toBe(true); // no capture
    return -evaluatePosition(engine, 50) | 0;
  };

  it('lists the attempts of the own board (the same for the three positions)', () => {
    for (const uci of ['a1a8', 'a1a5', 'a1b1', 'a1d1', 'e1e2', 'e1f1', 'e1d1', 'e1d2', 'e1f2'])
      expect(row(uci), uci).toBeDefined();
    expect(rows).toHaveLength(7 + 3 + 5); // the rook's file, its rank up to the king, the king's five steps (no castling right)
  });

  it('counts where each attempt is legal', () => {
    expect(row('a1a8').legal).toBe(2); // P1, P3
    expect(row('a1a5').legal).toBe(3);
    expect(row('a1a5').captures).toBe(1); // P2
    expect(row('a1a6').legal).toBe(2); // not through a5 in P2
    expect(row('e1e2').legal).toBe(2); // not into the bishop's line in P3
    expect(row('e1f1').legal).toBe(2);
    expect(row('e1d1').legal).toBe(3);
    expect(row('e1d2').legal).toBe(3);
    expect(value(1, 'a1a8')).toBe(NOT_LEGAL);
    expect(value(2, 'e1e2')).toBe(NOT_LEGAL);
  });

  it('averages the values over exactly the positions where the attempt is legal', () => {
    // Ra8 mates in P1: MATE − 1 there; in P3 it is a check, valued by the quiescence search
    expect(value(0, 'a1a8')).toBe(MATE - 1);
    expect(row('a1a8').mates).toBe(1);
    const v3 = value(2, 'a1a8');
    expect(v3).toBeLessThan(MATE - 1000);
    expect(row('a1a8').sum).toBe(MATE - 1 + v3);
    expect(row('a1a8').mean).toBe((MATE - 1 + v3) / 2);
    // quiet king moves: minus the static evaluation after them, averaged by hand
    for (const uci of ['e1d1', 'e1d2']) {
      const vs = [0, 1, 2].map((i) => quietValue(i, uci));
      expect(
        [0, 1, 2].map((i) => value(i, uci)),
        uci,
      ).toEqual(vs);
      expect(row(uci).sum).toBe(vs[0] + vs[1] + vs[2]);
      expect(row(uci).mean).toBe((vs[0] + vs[1] + vs[2]) / 3);
      expect(row(uci).min).toBe(Math.min(...vs));
      expect(row(uci).max).toBe(Math.max(...vs));
    }
    for (const uci of ['e1e2', 'e1f1']) {
      const vs = [0, 1].map((i) => quietValue(i, uci));
      expect(row(uci).sum).toBe(vs[0] + vs[1]);
      expect(row(uci).mean).toBe((vs[0] + vs[1]) / 2);
    }
    // and in general: every row is the sum over its legal positions' values
    for (const r of rows) {
      const legal = run.positions.map((p) => p.values[run.rowOf(r.attempt)!]).filter((v) => v !== NOT_LEGAL);
      expect(r.legal).toBe(legal.length);
      expect(r.sum).toBe(legal.reduce((s, v) => s + v, 0));
    }
  });

  it("the best average is the mate (Ra8), Parker's choice here", () => {
    const best = [...rows].sort((x, y) => y.mean - x.mean)[0];
    expect(best.attempt).toBe(a('a1a8'));
  });

  it('after an Illegal Ra8 the next choice is made on the positions where it is illegal (P2): called again, or averaged again', () => {
    const again = new ChooseRun(engine, 11, { depth: 0 }, STACK);
    again.add([11]);
    const filtered = run.over((values) => values[run.rowOf(a('a1a8'))!] === NOT_LEGAL);
    const strip = (r: AttemptValue) => [r.attempt, r.legal, r.sum, r.mates, r.mated];
    expect(filtered.map(strip)).toEqual(again.rows().map(strip));
    expect(filtered.find((r) => r.attempt === a('a1a8'))!.legal).toBe(0);
    expect(filtered.find((r) => r.attempt === a('e1e2'))!.legal).toBe(1);
  });

  it('statuses, not traps: a position inside the stack, another own board, too many positions', () => {
    expect(() => new ChooseRun(engine, 10, { depth: 0 }, STACK).add([STACK + 3])).toThrow(/overlap/);
    engine.setFen(13, '6k1/5ppp/8/8/8/8/8/1R2K3 w - - 0 1'); // the rook elsewhere
    expect(() => new ChooseRun(engine, 10, { depth: 0 }, STACK).add([13])).toThrow(/own pieces/);
    engine.setFen(14, '6k1/5ppp/8/8/8/8/8/R3K3 b - - 0 1');
    expect(() => new ChooseRun(engine, 10, { depth: 0 }, STACK).add([14])).toThrow(/side to move/);
    expect(() => new ChooseRun(engine, 10, { depth: 41 }, STACK).add([10])).toThrow(/depth/);
  });
});

describe('choose-move with a deeper search: WASM and JS alike', () => {
  it('the same values and node counts at depth 2 within a node budget', () => {
    const results = BACKENDS.map((backend) => {
      const engine = createEngine(backend, 256);
      P.forEach((fen, i) => engine.setFen(10 + i, fen));
      resetSearch(engine, 12);
      const run = new ChooseRun(engine, 10, { depth: 2, nodes: 400 }, STACK);
      run.add([10, 11, 12]);
      return { rows: run.rows(), values: run.positions.map((p) => Array.from(p.values)), nodes: run.nodes };
    });
    expect(results[1]).toEqual(results[0]);
    expect(results[0].nodes).toBeGreaterThan(1000);
  });
});

// The threat screen (choose.ts chooseThreats; krieg's king safety): a hand-worked back rank. White
// Kg1, pawns f2 g2 h2, Nb1; in T1 a black rook on e8 (Re1+ mates unless f1 can be blocked or the
// king has luft), in T2 a black bishop on a6 instead (no mate in one: Black has a bishop alone).
//   b1a3, b1c3  T1: Re1 mates (from a3 or c3 the knight reaches neither f1 nor e1)  → legal 2, mated 1
//   b1d2        T1: Re1+ Nf1 blocks                                               → legal 2, mated 0
//   h2h3        T1: Re1+ Kh2                                                      → legal 2, mated 0
//   g1f1        T1: Re1+ Kxe1 (the rook unguarded); T2: f1 is on the bishop's line → legal 1, mated 0
describe.each(BACKENDS)('the threat screen on %s', (backend) => {
  const engine = createEngine(backend, 256);
  engine.setFen(10, '4r3/2k5/8/8/8/8/5PPP/1N4K1 w - - 0 1');
  engine.setFen(11, '8/2k5/b7/8/8/8/5PPP/1N4K1 w - - 0 1');
  const threats = (uci: string) => countThreats(engine, [10, 11], a(uci), STACK);

  it('counts the positions where an attempt leaves the opponent a mate in one', () => {
    expect(threats('b1a3')).toMatchObject({ legal: 2, mated: 1 });
    expect(threats('b1c3')).toMatchObject({ legal: 2, mated: 1 });
    expect(threats('b1d2')).toMatchObject({ legal: 2, mated: 0 });
    expect(threats('h2h3')).toMatchObject({ legal: 2, mated: 0 });
    expect(threats('g1f1')).toMatchObject({ legal: 1, mated: 0 });
    expect(threats('c7c6')).toMatchObject({ legal: 0, mated: 0, replies: 0, loss: 0 }); // not White's
  });

  it('makes every reply where none mates, and stops at the first that does', () => {
    engine.playUci(11, 'h2h3', 60);
    expect(countThreats(engine, [11], a('h2h3'), STACK)).toMatchObject({
      legal: 1,
      mated: 0,
      replies: engine.moves(60).length,
    });
    engine.playUci(10, 'b1a3', 61);
    const mated = countThreats(engine, [10], a('b1a3'), STACK);
    expect(mated.mated).toBe(1);
    expect(mated.replies).toBeGreaterThan(0);
    expect(mated.replies).toBeLessThanOrEqual(engine.moves(61).length);
  });

  it('statuses, not traps: a position on the stack', () => {
    expect(() => countThreats(engine, [STACK], a('b1a3'), STACK)).toThrow(/overlap/);
  });
});

describe.each(BACKENDS)("the threat screen's promotions on %s", (backend) => {
  // White: Kh1, Rd4; Black: Kh8 and a pawn on b2 (a step from b1) or on b3 (two steps)
  const engine = createEngine(backend, 256);
  engine.setFen(10, '7k/8/8/8/3R4/8/1p6/7K w - - 0 1');
  engine.setFen(11, '7k/8/8/8/3R4/1p6/8/7K w - - 0 1');
  const queenOverPawn = 900 - 100;

  it('counts a promotion as the material he wins, nothing where the new queen is taken back', () => {
    expect(countThreats(engine, [10], a('h1g2'), STACK)).toMatchObject({ legal: 1, loss: queenOverPawn });
    expect(countThreats(engine, [10], a('d4d1'), STACK)).toMatchObject({ legal: 1, loss: 0 }); // b1 guarded
    expect(countThreats(engine, [10], a('d4b4'), STACK)).toMatchObject({ legal: 1, loss: 0 }); // behind the pawn
  });

  it('counts a pawn two steps from promoting on a free, unguarded path as half a promotion', () => {
    expect(countThreats(engine, [11], a('h1g2'), STACK)).toMatchObject({ legal: 1, loss: queenOverPawn / 2 });
    expect(countThreats(engine, [11], a('d4d2'), STACK)).toMatchObject({ legal: 1, loss: 0 }); // b2 guarded
    expect(countThreats(engine, [11], a('d4d1'), STACK)).toMatchObject({ legal: 1, loss: 0 }); // b1 guarded
    // summed over positions: both together
    expect(countThreats(engine, [10, 11], a('h1g2'), STACK).loss).toBe(queenOverPawn + queenOverPawn / 2);
  });
});

describe.each(BACKENDS)("the screen's mates on %s", (backend) => {
  it('counts per attempt the positions where it is legal and where it mates (promotions apart)', () => {
    const engine = createEngine(backend, 256);
    P.forEach((fen, i) => engine.setFen(10 + i, fen));
    // Ra8 mates in P1, is check only in P3 (Be8), is not legal in P2; Rxa5 legal everywhere; Ke2 not in P3
    const counts = countMates(engine, [10, 11, 12], [a('a1a8'), a('a1a5'), a('e1e2'), a('h7h8')], STACK);
    expect(Object.fromEntries([...counts].map(([attempt, c]) => [attempt, c]))).toEqual({
      [a('a1a8')]: { legal: 2, mates: 1, matesInTwo: 0 },
      [a('a1a5')]: { legal: 3, mates: 0, matesInTwo: 0 },
      [a('e1e2')]: { legal: 2, mates: 0, matesInTwo: 0 },
      [a('h7h8')]: { legal: 0, mates: 0, matesInTwo: 0 },
    });
    // a promotion on e8 against Kg8 behind its pawns: to a queen or a rook mates, to a knight does not
    engine.setFen(13, '6k1/4Pppp/8/8/8/8/8/4K3 w - - 0 1');
    const promotions = countMates(engine, [13], [a('e7e8q'), a('e7e8r'), a('e7e8n'), a('e1d2')], STACK);
    expect([...promotions.values()].map((c) => c.mates)).toEqual([1, 1, 0, 0]);
    expect([...promotions.values()].map((c) => c.legal)).toEqual([1, 1, 1, 1]);
    expect(() => countMates(engine, [STACK], [a('a1a8')], STACK)).toThrow(/overlap/);
  });

  it('with inTwo, counts the checks after which each reply leaves a mate in one', () => {
    const engine = createEngine(backend, 256);
    // doubled rooks against a back rank: Re8+ Rxe8 (his only reply) Rxe8 mate; without the h7 pawn
    // his king steps to h7 and no mate in one follows
    engine.setFen(10, 'r5k1/5ppp/8/8/8/8/4R3/4R1K1 w - - 0 1');
    engine.setFen(11, 'r5k1/5pp1/8/8/8/8/4R3/4R1K1 w - - 0 1');
    const attempts = [a('e2e8'), a('e2e7'), a('g1h2'), a('e1e8')];
    const counts = countMates(engine, [10, 11], attempts, STACK, true);
    expect(attempts.map((x) => counts.get(x)!.matesInTwo)).toEqual([1, 0, 0, 0]);
    expect(attempts.map((x) => counts.get(x)!.legal)).toEqual([2, 2, 2, 0]); // Re1 stands behind Re2
    // not asked for: not counted
    expect(countMates(engine, [10], attempts, STACK).get(a('e2e8'))!.matesInTwo).toBe(0);
    // a mate in one is a mate, not a mate in two: Rxa8 takes his rook with mate behind his pawns
    engine.setFen(12, 'r5k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1');
    expect(countMates(engine, [12], [a('a1a8')], STACK, true).get(a('a1a8'))).toEqual({
      legal: 1,
      mates: 1,
      matesInTwo: 0,
    });
  });

  it('agrees with a mate in two worked out move by move over the legal moves', () => {
    const engine = createEngine(backend, 256);
    const fens = [
      '6k1/5ppp/8/8/8/8/1Q6/R3K3 w - - 0 1', // mates in one only
      '7k/8/6K1/8/8/8/8/3Q4 w - - 0 1', // Qa1+, Qh1+, Qd4+ (Qd8 mates)
      '7k/8/5K2/8/8/8/8/3Q4 w - - 0 1',
      'k7/8/1K6/8/8/8/8/6Q1 w - - 0 1',
      '2kr4/ppp5/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1',
      'r5k1/5ppp/8/8/8/8/4R3/4R1K1 w - - 0 1',
    ];
    let found = 0;
    for (const fen of fens) {
      engine.setFen(10, fen);
      const moves = engine.moves(10);
      const attempts = [...new Set(moves.map((m) => m & 0xfff))]; // no promotion in these positions
      const counts = countMates(engine, [10], attempts, STACK, true);
      const matesNow = (h: number) => engine.moves(h).length === 0 && engine.inCheck(h);
      for (const attempt of attempts) {
        const move = moves.find((m) => (m & 0xfff) === attempt)!;
        engine.play(10, move, 20);
        let inTwo = 0;
        if (!matesNow(20) && engine.inCheck(20)) {
          const replies = engine.moves(20);
          inTwo = replies.every((r) => {
            engine.play(20, r, 21);
            return engine.moves(21).some((f) => (engine.play(21, f, 22), matesNow(22)));
          })
            ? 1
            : 0;
        }
        expect([fen, attempt, counts.get(attempt)!.matesInTwo]).toEqual([fen, attempt, inTwo]);
        found += inTwo;
      }
    }
    expect(found).toBe(7);
  });
});

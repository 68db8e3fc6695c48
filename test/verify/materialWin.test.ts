// Known material wins (issue 5, the `materialWins` option): the core's rule
// (assembly/solver/outcome.ts, materialWin) and the verifier's isMaterialWin
// (host/verify/verify.ts) are written separately and must agree. Berkeley's list: against a bare
// king, exactly a queen, a rook, a pawn off the a- and h-files, two bishops on different colours,
// or bishop and knight — every piece next to its own king.
//
// The verifier's function is checked on hand-worked positions directly; the core's only through
// the search, so it is checked with 1-ply problems whose answer depends on the option: White has
// no mate in 1, and one move (or none) leaves a known win.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { solve, ALGORITHMS } from '../../host/solver/solve';
import { verifyStrategy, isMaterialWin, verdictText } from '../../host/verify/verify';
import { positionFromFen, analyse, playLegal } from '../../host/verify/independentReferee';

const berkeley = preset('berkeley');
const MEMORY = 1 << 23;

// Squares: a1, c1, e1 … are dark ((rank + file) even), b1, c2, e2 … light.
const DIRECT: [fen: string, win: boolean, why: string][] = [
  ['7k/8/8/8/8/8/8/KQ6 b - - 0 1', true, 'queen b1 next to king a1'],
  ['7k/8/8/8/8/8/1Q6/K7 b - - 0 1', true, 'queen b2 next to king a1 (and giving check)'],
  ['7k/8/8/8/8/8/8/K1Q5 b - - 0 1', false, 'queen c1 two squares from king a1'],
  ['7k/8/8/8/8/8/8/KR6 b - - 0 1', true, 'rook b1 next to king a1'],
  ['7k/8/8/8/8/8/8/K1R5 b - - 0 1', false, 'rook c1 not next to king a1'],
  ['7k/8/8/8/8/8/1P6/K7 b - - 0 1', true, 'b-pawn next to its king'],
  ['k7/8/8/8/8/8/6P1/6K1 b - - 0 1', true, 'g-pawn next to its king'],
  ['7k/8/8/8/8/8/P7/1K6 b - - 0 1', false, 'a-pawn (edge file)'],
  ['k7/8/8/8/8/8/7P/6K1 b - - 0 1', false, 'h-pawn (edge file)'],
  ['7k/8/8/8/8/8/2B5/2BK4 b - - 0 1', true, 'bishops c1 (dark) and c2 (light)'],
  ['7k/8/8/8/8/8/2B1B3/3K4 b - - 0 1', false, 'bishops c2 and e2, both light'],
  ['7k/8/8/8/8/8/2BN4/3K4 b - - 0 1', true, 'bishop c2 and knight d2'],
  ['7k/8/8/8/8/8/2B5/3K1N2 b - - 0 1', false, 'bishop and knight, the knight on f1 not next to king d1'],
  ['7k/8/8/8/8/8/2NN4/3K4 b - - 0 1', false, 'two knights'],
  ['7k/8/8/8/8/8/3N4/3K4 b - - 0 1', false, 'a lone knight'],
  ['7k/8/8/8/8/8/3B4/3K4 b - - 0 1', false, 'a lone bishop'],
  ['7k/8/8/8/8/8/1R6/KQ6 b - - 0 1', false, 'queen and rook: not on the list'],
  ['7k/7p/8/8/8/8/8/KQ6 b - - 0 1', false, 'Black has a pawn besides the king'],
  ['7k/8/8/8/8/8/8/KQ5n b - - 0 1', false, 'Black has a knight besides the king'],
  ['7k/8/8/8/8/8/8/KQ6 w - - 0 1', false, 'White to move: the side to move is not the bare king'],
  ['6qk/8/8/8/8/8/8/K7 w - - 0 1', true, 'colours reversed: Black queen g8 next to king h8, White bare'],
  ['6rk/8/8/8/8/8/8/K7 w - - 0 1', true, 'colours reversed: Black rook'],
  ['7k/7p/8/8/8/8/8/K7 w - - 0 1', false, 'colours reversed: Black h-pawn'],
];

describe("the verifier's isMaterialWin on hand-worked positions", () => {
  it.each(DIRECT)('%s: %s (%s)', (fen, win) => {
    expect(isMaterialWin(positionFromFen(fen))).toBe(win);
  });
});

// 1-ply problems, White to move, no mate in 1 anywhere (a lone piece or two far from the black
// king, or White's own king far away). `win` is whether some White move leaves a known win.
const ONE_PLY: [fen: string, win: boolean, why: string][] = [
  ['7k/8/8/8/8/8/8/K1Q5 w - - 0 1', true, 'Qb1/Qb2 or Kb1/Kb2 put queen and king side by side'],
  [
    '7k/8/8/8/6Q1/8/8/K7 w - - 0 1',
    false,
    'queen g4: no move brings queen and king together (Qc8+, Qd7 … leave them apart)',
  ],
  ['7k/8/8/8/8/8/8/K1R5 w - - 0 1', true, 'Rb1 or Kb1/Kb2'],
  ['7k/8/8/8/6R1/8/8/K7 w - - 0 1', false, 'rook g4 cannot reach a2/b1/b2, the king cannot reach the rook'],
  ['7k/8/8/8/8/8/1P6/3K4 w - - 0 1', true, 'Kc2 or Kc3 next to the b-pawn (Kc1 too)'],
  ['7k/8/8/8/8/8/P7/2K5 w - - 0 1', false, 'Kb1/Kb2 reach only an a-pawn'],
  ['k7/8/8/8/8/8/7P/5K2 w - - 0 1', false, 'Kg1/Kg2 reach only an h-pawn'],
  ['7k/8/8/8/2B1B3/4K3/8/8 w - - 0 1', false, 'Kd3/Kd4/… next to both bishops, but both are light-squared'],
  ['7k/8/8/2B5/2B5/4K3/8/8 w - - 0 1', true, 'Kd4 next to bishops c4 (light) and c5 (dark)'],
  ['7k/8/8/2N5/2B5/4K3/8/8 w - - 0 1', true, 'Kd4 next to bishop c4 and knight c5'],
  ['7k/8/8/2N5/2N5/4K3/8/8 w - - 0 1', false, 'two knights never count'],
  ['7k/p7/8/8/8/8/8/K1Q5 w - - 0 1', false, 'as the first, but Black keeps a pawn on a7 that the queen cannot take'],
  [
    '7k/8/8/8/8/8/1p6/K1Q5 w - - 0 1',
    true,
    "Black's last pawn (b2, checking) taken by Kxb2 or Qxb2 leaves a bare king",
  ],
];

/** Does some legal White move mate, or (with the option) leave a known win? Worked out with chessops. */
function oneMoveWins(fen: string, materialWins: boolean): string[] {
  const a = analyse(positionFromFen(fen), berkeley);
  const out: string[] = [];
  for (const [uci, move] of a.legal) {
    const played = playLegal(a, move, berkeley, []);
    const end = played.percept.end;
    if (end === 'checkmate' || (!end && materialWins && isMaterialWin(played.after.pos))) out.push(uci);
  }
  return out;
}

describe('1-ply problems decided by the material-win rule: the oracle as worked out by hand', () => {
  it.each(ONE_PLY)('%s: %s (%s)', (fen, win) => {
    expect(oneMoveWins(fen, false)).toEqual([]);
    expect(oneMoveWins(fen, true).length > 0).toBe(win);
  });
});

describe.each(BACKENDS)("the core's rule agrees with the verifier's on %s", (backend) => {
  const engine = createEngine(backend);
  const run = (positions: string[], materialWins: boolean, algo: (typeof ALGORITHMS)[number] = 'pns') =>
    solve(engine, { rules: berkeley, positions, ply: 1, materialWins }, algo, { memoryBytes: MEMORY });

  it.each(ONE_PLY)('%s: %s with the option, never without (%s)', (fen, win) => {
    for (const algo of ALGORITHMS) {
      expect(run([fen], false, algo).answer, `${algo} without`).toBe('disproven');
      const on = run([fen], true, algo);
      expect(on.answer, `${algo} with`).toBe(win ? 'proven' : 'disproven');
      if (!on.strategy) continue;
      // the attempt chosen is one the verifier's rule calls a win, and the strategy verifies with
      // the option on; without the option the same strategy is no mate
      expect(oneMoveWins(fen, true)).toContain(on.strategy.root.attempt);
      expect(on.strategy.materialWins).toBe(true);
      const problem = { rules: berkeley, positions: [fen], ply: 1 };
      const v = verifyStrategy({ ...problem, materialWins: true }, on.strategy);
      expect(v.ok, verdictText(v)).toBe(true);
      expect(verifyStrategy(problem, on.strategy)).toMatchObject({
        ok: false,
        reason: `no mate within 1 ply: ${on.strategy.root.attempt} does not mate and no ply is left for another move`,
      });
    }
  });

  it('a belief state: every position must end in a known win', () => {
    // White Ka1, Qc1 in every position (a belief state: the mover knows his own pieces); Black's
    // king on h8, or on b3 where it makes Kb2 Illegal (next to it) but Qb2+, Qb1 and Kb1 still
    // bring queen and king together; a third position where Black also has a pawn on h7 is no
    // known win whatever White does
    const h8 = '7k/8/8/8/8/8/8/K1Q5 w - - 0 1';
    const b3 = '8/8/8/8/8/1k6/8/K1Q5 w - - 0 1';
    const pawn = '7k/7p/8/8/8/8/8/K1Q5 w - - 0 1';
    expect(oneMoveWins(b3, true)).not.toContain('a1b2');
    expect(oneMoveWins(b3, true)).toEqual(expect.arrayContaining(['c1b2', 'c1b1', 'a1b1']));
    expect(oneMoveWins(pawn, true)).toEqual([]);
    for (const algo of ALGORITHMS) {
      const r = run([h8, b3], true, algo);
      expect(r.answer, algo).toBe('proven');
      const v = verifyStrategy({ rules: berkeley, positions: [h8, b3], ply: 1, materialWins: true }, r.strategy!);
      expect(v.ok, verdictText(v)).toBe(true);
      expect(run([h8, b3, pawn], true, algo).answer, algo).toBe('disproven');
      expect(run([h8, b3], false, algo).answer, algo).toBe('disproven');
    }
  });

  it("seeded positions: the core proves a 1-ply problem exactly when the verifier's rule finds a winning move", () => {
    // White king and one or two pieces near it, Black's king (sometimes with a pawn) anywhere
    let seed = 20050731;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const tested = { positions: 0, wins: 0 };
    for (let tries = 0; tested.positions < 120 && tries < 5000; tries++) {
      const board = new Map<number, string>();
      const wk = rnd(64);
      board.set(wk, 'K');
      const near = () => {
        for (;;) {
          const sq = wk + (rnd(5) - 2) * 8 + rnd(5) - 2;
          if (sq >= 0 && sq < 64 && Math.abs((sq & 7) - (wk & 7)) <= 2 && !board.has(sq)) return sq;
        }
      };
      const pieces = rnd(3) === 0 ? 2 : 1;
      for (let i = 0; i < pieces; i++) {
        const role = 'QRBNP'[rnd(5)];
        const sq = near();
        if (role === 'P' && (sq < 8 || sq >= 56)) continue;
        board.set(sq, role);
      }
      let bk = rnd(64);
      while (board.has(bk)) bk = rnd(64);
      board.set(bk, 'k');
      if (rnd(4) === 0) {
        const p = 8 + rnd(48);
        if (!board.has(p)) board.set(p, 'p');
      }
      const rows: string[] = [];
      for (let r = 7; r >= 0; r--) {
        let row = '';
        let empty = 0;
        for (let f = 0; f < 8; f++) {
          const p = board.get(r * 8 + f);
          if (!p) {
            empty++;
            continue;
          }
          if (empty) row += empty;
          empty = 0;
          row += p;
        }
        rows.push(row + (empty ? empty : ''));
      }
      const fen = `${rows.join('/')} w - - 0 1`;
      try {
        positionFromFen(fen);
      } catch {
        continue;
      }
      tested.positions++;
      for (const materialWins of [false, true]) {
        const wins = oneMoveWins(fen, materialWins);
        const r = run([fen], materialWins, tested.positions % 2 ? 'pns' : 'gl-dfs');
        expect(
          r.answer,
          `${fen} materialWins ${materialWins}: verifier's winning moves ${wins.join(' ') || 'none'}`,
        ).toBe(wins.length ? 'proven' : 'disproven');
        if (r.strategy) expect(wins).toContain(r.strategy.root.attempt);
        if (materialWins && wins.length) tested.wins++;
      }
    }
    expect(tested.positions).toBe(120);
    expect(tested.wins).toBeGreaterThan(20);
  });
});

// Evaluate-board (assembly/players/search.ts, issue 14): the fully observable alpha-beta search of
// the sampling players. Hand-worked positions whose answers chess.js confirms independently by
// brute force (mates in 1 and 2), a hanging piece taken, mate and stalemate scores under the
// rules' stalemate flag, quiescence against a horizon blunder, budgets as statuses; WASM and JS
// count the same nodes, and a search repeated after a reset repeats exactly.
import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { searchPosition, resetSearch, mateIn, MATE } from '../../host/core/players';
import { KriegError, EXIT } from '../../host/errors';

/** Moves (from-to) of the side to move that force mate within `n` of its moves, by brute force in chess.js. */
function forcedMates(fen: string, n: number): string[] {
  const game = new Chess(fen);
  const wins = (g: Chess, k: number): boolean =>
    g.moves().some((m) => {
      g.move(m);
      const won =
        g.isCheckmate() ||
        (k > 1 &&
          !g.isGameOver() &&
          g.moves().every((r) => {
            g.move(r);
            const w = wins(g, k - 1);
            g.undo();
            return w;
          }));
      g.undo();
      return won;
    });
  return game
    .moves({ verbose: true })
    .filter((m) => {
      game.move(m.san);
      const won =
        game.isCheckmate() ||
        (n > 1 &&
          !game.isGameOver() &&
          game.moves().every((r) => {
            game.move(r);
            const w = wins(game, n - 1);
            game.undo();
            return w;
          }));
      game.undo();
      return won;
    })
    .map((m) => m.from + m.to);
}

const MATE_IN_1 = '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'; // back-rank mate: Ra8#
/** Mates in 2 (3 plies) with their one mating first move (confirmed below by brute force). */
const MATE_IN_2: [string, string][] = [
  ['r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1', 'd5f6'], // Legal's mate: Nf6+ gxf6 Bxf7#
  ['r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1', 'd5d8'], // Qd8+ Bxd8 Re8#
];

describe('independent truth for the hand-worked positions (chess.js brute force)', () => {
  it('the mate in 1 and the mates in 2 are what they are said to be, each with one mating move', () => {
    expect(forcedMates(MATE_IN_1, 1)).toEqual(['a1a8']);
    for (const [fen, move] of MATE_IN_2) {
      expect(forcedMates(fen, 1)).toEqual([]);
      expect(forcedMates(fen, 2)).toEqual([move]);
    }
  });
});

describe.each(BACKENDS)('evaluate-board search on %s', (backend) => {
  const engine = createEngine(backend, 256);
  const search = (fen: string, depth: number, nodes = 0) => {
    engine.setFen(0, fen);
    resetSearch(engine, 14);
    return searchPosition(engine, 0, { depth, nodes });
  };

  it('finds the mate in 1 (value MATE − 1) and stops deepening there', () => {
    const r = search(MATE_IN_1, 5);
    expect(r.uci).toBe('a1a8');
    expect(r.value).toBe(MATE - 1);
    expect(mateIn(r.value)).toBe(1);
    expect(r.depth).toBe(1);
  });

  it.each(MATE_IN_2)('finds the mate in 2 of %s (3 plies): %s', (fen, move) => {
    const r = search(fen, 4);
    expect(r.uci).toBe(move);
    expect(r.value).toBe(MATE - 3);
    expect(r.depth).toBeLessThanOrEqual(3); // check extensions may see it at a shallower iteration
  });

  it('takes a hanging queen, and sees that it wins about a queen', () => {
    const r = search('4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1', 4);
    expect(r.uci).toBe('d2d5');
    expect(r.value).toBeGreaterThan(400);
  });

  it('scores the side to move mated as −MATE and stalemate as a draw, or a loss where stalemate loses', () => {
    const mated = search('R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1', 3);
    expect(mated.value).toBe(-MATE);
    expect(mated.move).toBe(0);
    const stalemate = '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1';
    expect(search(stalemate, 3).value).toBe(0);
    engine.setRules(preset('rand')); // RAND rules: the stalemated side loses
    expect(search(stalemate, 3).value).toBe(-MATE);
    engine.setRules(preset('berkeley'));
    // a move into stalemate is worth a draw even a queen up
    const r = search('7k/8/6K1/8/8/8/8/5Q2 w - - 0 1', 2);
    expect(r.uci).not.toBe('f1f7');
    expect(r.value).toBeGreaterThan(500);
  });

  it('a draw by material is worth 0: taking the rook leaves bare kings, anything else loses', () => {
    const r = search('7k/8/8/8/8/3r4/3K4/8 w - - 0 1', 3);
    expect(r.uci).toBe('d2d3');
    expect(r.value).toBe(0);
  });

  it('quiescence stops the horizon blunder: at depth 1 the queen does not take a defended knight', () => {
    // Qxd5 wins a knight at depth 1 without quiescence, and loses the queen to exd5
    const fen = '4k3/8/4p3/3n4/8/8/8/3QK3 w - - 0 1';
    const r = search(fen, 1);
    expect(r.uci).not.toBe('d1d5');
    expect(r.value).toBeGreaterThan(300); // a queen against a knight and a pawn
    expect(r.value).toBeLessThan(700); // not the queen against a pawn that Qxd5 seems to win
    engine.setFen(1, fen);
    engine.playUci(1, 'd1d5', 2);
    expect(-search(engine.fen(2), 1).value).toBeLessThan(0); // … exd5 and White is behind
  });

  it('a node budget stops a deeper iteration: the status says so and the last completed depth answers', () => {
    const kiwipete = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
    const full = search(kiwipete, 3);
    expect(full.status).toBe('ok');
    const cut = search(kiwipete, 8, full.nodes + 10);
    expect(cut.status).toBe('node-limit');
    expect(cut.depth).toBe(3);
    expect(cut.value).toBe(full.value);
    expect(cut.uci).toBe(full.uci);
    // the first iteration always completes
    const tiny = search(kiwipete, 8, 5);
    expect(tiny.depth).toBe(1);
    expect(tiny.uci).not.toBe('');
  });

  it('bad handles and depths are statuses, not traps (errors of the caller: exit 1)', () => {
    const error = (handle: number, depth: number, stack?: number) => {
      try {
        searchPosition(engine, handle, { depth }, stack);
      } catch (e) {
        return e instanceof KriegError ? [e.code, e.exitCode] : e;
      }
      return 'no error';
    };
    expect(error(0, 3, engine.capacity - 10)).toEqual(['search-bad-handle', EXIT.internal]); // the stack does not fit
    expect(error(-1, 3, 100)).toEqual(['search-bad-handle', EXIT.internal]);
    expect(error(0, 0, 100)).toEqual(['search-bad-depth', EXIT.internal]);
    expect(error(0, 41, 100)).toEqual(['search-bad-depth', EXIT.internal]);
    expect(() => searchPosition(engine, 0, { depth: 99 })).toThrow(/search depth must be 1 to 40, got 99/);
  });
});

describe('WASM and JS search alike', () => {
  const positions = [
    'startpos',
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
    ...MATE_IN_2.map(([fen]) => fen),
  ];
  const run = (backend: 'wasm' | 'js') => {
    const engine = createEngine(backend, 256);
    resetSearch(engine, 12); // a small table, so replacement happens
    // one table across the positions: the sequence matters, and must be the same
    return positions.map((fen) => {
      engine.setFen(0, fen);
      const r = searchPosition(engine, 0, { depth: 5, nodes: 60_000 });
      return [r.value, r.uci, r.depth, r.nodes, r.status];
    });
  };

  it('the same values, moves, depths and node counts (a sequence sharing the table)', () => {
    const wasm = run('wasm');
    expect(run('js')).toEqual(wasm);
    expect(wasm.reduce((n, r) => n + (r[3] as number), 0)).toBeGreaterThan(100_000);
  });

  it('is deterministic: after a reset the same sequence repeats exactly', () => {
    expect(run('wasm')).toEqual(run('wasm'));
  });
});

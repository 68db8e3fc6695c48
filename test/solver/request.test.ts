// The one belief request (host/belief/request.ts) and the one solve request
// (host/solver/request.ts), which the CLI, the web worker and the library share: every mode of
// beliefOf answers from the same belief state (exact modes the same set; a sample, a pool and a
// partial count inside it), and solveRequest gives the same answer for a view as for its belief
// state given as positions, sequential or interleaved, with a strategy the verifier accepts.
import { describe, it, expect } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { parseKpgnGames } from '../../host/notation/kpgn';
import { validateRecord } from '../../host/referee/validate';
import { viewOf, type View } from '../../host/record/record';
import { beliefOf, type BeliefMode } from '../../host/belief/request';
import { solveRequest } from '../../host/solver/request';
import { verifyStrategy } from '../../host/verify/verify';
import type { Engine } from '../../host/engine';

const header = (fen?: string) =>
  `[White "a"]\n[Black "b"]\n[Result "*"]\n[Variant "berkeley"]\n[Filtered "no"]\n${fen ? `[FEN "${fen}"]\n` : ''}\n`;

function viewOfText(engine: Engine, text: string, side: 'white' | 'black'): View {
  const [game] = parseKpgnGames(text);
  if (game.kind !== 'record') throw new Error('expected a record');
  return viewOf(validateRecord(engine, game.record, game.positions, game.startAt), side);
}

// After 1. e4 e5 2. Nf3: Black's view, Black to move; White's second move is any of his 30 after
// e4 e5 that Black cannot rule out (hand count: 29 quiet moves + Qh5/Bb5… all silent): many positions.
const OPENING = `${header()}1. e2e4 {,:}\n1... e7e5 {,:}\n2. g1f3 {,:}\n*\n`;
// K+R v K, Black Kh8 (White Kg6, Ra1) plays Kg8, its only move: one position, Ra8 mates.
const ROOK_ONE = `${header('7k/8/6K1/8/8/8/8/R7 b - - 0 1')}1... h8g8 {,:}\n*\n`;
// After 1. e4 e5, White's view: Black's 20 first moves, no mate in 3.
const OPENING_WHITE = `${header()}1. e2e4 {,:}\n1... e7e5 {,:}\n*\n`;

/**
 * The positions as FENs without the move counters: estimators merge positions that differ only in
 * the halfmove clock (no draw rule of these games reads it), each keeping the first it meets.
 */
const fensOf = (engine: Engine, handles: number[]) =>
  handles.map((h) => engine.fen(h).split(' ').slice(0, 4).join(' ')).sort();

describe.each(BACKENDS)('the belief request on %s', (backend) => {
  const engine = createEngine(backend, 2);

  it('bfs, dfs, auto, track and exact-or-track give the same exact belief; a sample lies inside it', () => {
    const view = viewOfText(engine, OPENING, 'black');
    const truth = fensOf(engine, beliefOf(engine, view, { mode: 'bfs', limits: {} }).result.handles);
    expect(truth.length).toBeGreaterThan(20);
    for (const mode of ['dfs', 'auto', 'track', 'exact-or-track'] as BeliefMode[]) {
      const belief = beliefOf(engine, view, { mode, limits: {} });
      expect(belief.exact, mode).toBe(true);
      expect(fensOf(engine, belief.result.handles), mode).toEqual(truth);
    }
    const sample = beliefOf(engine, view, { mode: 'sample', limits: {}, k: 5, seed: 3 });
    expect(sample.exact).toBe(false);
    const drawn = fensOf(engine, sample.result.handles);
    expect(drawn).toHaveLength(5);
    for (const fen of drawn) expect(truth).toContain(fen);
  });

  it('exact-or-track past its limit answers with the tracker: consistent positions, not the whole belief', () => {
    const view = viewOfText(engine, OPENING, 'black');
    const truth = fensOf(engine, beliefOf(engine, view, { mode: 'dfs', limits: {} }).result.handles);
    const belief = beliefOf(engine, view, { mode: 'exact-or-track', limits: { positions: 5 } });
    expect(belief.mode).toBe('track');
    // the tracker itself is exact on so small a belief: it holds it all, whatever the bfs limit
    expect(fensOf(engine, belief.result.handles)).toEqual(truth);
    const partial = beliefOf(engine, view, { mode: 'dfs', limits: { positions: 5 } });
    expect(partial.exact).toBe(false);
    expect(partial.result.outcome).toBe('limit-positions');
    for (const fen of fensOf(engine, partial.result.handles)) expect(truth).toContain(fen);
  });
});

describe.each(BACKENDS)('the solve request on %s', (backend) => {
  const engine = createEngine(backend, 2);

  it('a view and its belief state as positions: the same answer and search; interleaved agrees; the strategy verifies', () => {
    const view = viewOfText(engine, ROOK_ONE, 'white');
    const byView = solveRequest(engine, { view, ply: 1 }, { algorithm: 'gl-dbu', limits: {} });
    expect(byView.answer).toBe('proven');
    const positions = byView.problem.positions;
    expect(positions).toEqual(['6k1/8/6K1/8/8/8/8/R7 w - - 1 2']);
    const byPositions = solveRequest(
      engine,
      { rules: view.rules, positions, ply: 1 },
      { algorithm: 'gl-dbu', limits: {} },
    );
    expect(byPositions.answer).toBe('proven');
    expect(byPositions.stats.nodes).toBe(byView.stats.nodes);
    const verdict = verifyStrategy({ rules: view.rules, positions, ply: 1 }, byView.strategy!);
    expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
    const interleaved = solveRequest(engine, { view, ply: 1 }, { algorithm: 'auto', interleave: true, limits: {} });
    expect(interleaved.answer).toBe('proven');
    expect(interleaved.algorithm).toBe('gl-dbu');
    const opening = viewOfText(engine, OPENING_WHITE, 'white');
    const none = solveRequest(engine, { view: opening, ply: 3 }, { algorithm: 'auto', limits: {} });
    expect(none.answer).toBe('disproven');
    expect(none.positions).toBe(20);
    expect(
      solveRequest(engine, { view: opening, ply: 3 }, { algorithm: 'auto', interleave: true, limits: {} }).answer,
    ).toBe('disproven');
  });

  it('refuses a view whose belief is over the limit, or whose owner is not to move, naming why', () => {
    const black = viewOfText(engine, OPENING, 'black');
    expect(() =>
      solveRequest(engine, { view: black, ply: 3 }, { algorithm: 'auto', limits: {}, belief: { limit: 5 } }),
    ).toThrow(/^the view: black's belief has more than 5 positions$/);
    const white = viewOfText(engine, OPENING, 'white'); // after White's second move: Black to move
    expect(() => solveRequest(engine, { view: white, ply: 3 }, { algorithm: 'auto', limits: {} })).toThrow(/black/);
  });
});

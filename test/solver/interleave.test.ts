// Interleaved estimation and search (Russell & Wolfe 2005, section 7): the answer must be the one
// sequential estimation-then-search gives, on both backends and for every incremental directional
// algorithm; a proof's strategy must verify on the whole belief state (estimated separately); a
// disproof may come after fewer positions than the belief holds, never after more.
import { describe, it, expect } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { parseKpgnGames } from '../../host/notation/kpgn';
import { validateRecord } from '../../host/referee/validate';
import { viewOf, type View } from '../../host/record/record';
import { estimateBelief } from '../../host/belief/estimate';
import { solveView, type Algorithm } from '../../host/solver/solve';
import { verifyStrategy } from '../../host/verify/verify';
import type { Engine } from '../../host/engine';

const header = (fen?: string) =>
  `[White "a"]\n[Black "b"]\n[Result "*"]\n[Variant "berkeley"]\n[Filtered "no"]\n${fen ? `[FEN "${fen}"]\n` : ''}\n`;

// Full records; White's view at the end (White to move) is the problem. Beliefs worked out:
// - after 1. e4 e5: Black's 20 first moves, no mate in 3;
// - K+R v K, Black Kh8 (White Kg6, Ra1) plays Kg8, its only move: one position, Ra8 mates;
// - K+R v K, Black Kf8 (White Kf6, Rh1) plays Ke8 or Kg8 (e7, f7, g7 are covered): two positions;
// - K+Q v K, Black Ka8 (White Kc7, Qh1) with a few more quiet White moves first.
const RECORDS: { name: string; text: string; ply: number }[] = [
  { name: 'opening', text: `${header()}1. e2e4 {,:}\n1... e7e5 {,:}\n*\n`, ply: 3 },
  { name: 'rook-one', text: `${header('7k/8/6K1/8/8/8/8/R7 b - - 0 1')}1... h8g8 {,:}\n*\n`, ply: 3 },
  { name: 'rook-two', text: `${header('5k2/8/5K2/8/8/8/8/7R b - - 0 1')}1... f8e8 {,:}\n*\n`, ply: 3 },
  { name: 'rook-two-deep', text: `${header('5k2/8/5K2/8/8/8/8/7R b - - 0 1')}1... f8g8 {,:}\n*\n`, ply: 5 },
  {
    name: 'queen',
    text: `${header('k7/2K5/8/8/8/8/8/7Q b - - 0 1')}1... a8a7 {,:}\n2. h1h2 {,:}\n2... a7a8 {,:}\n*\n`,
    ply: 3,
  },
];

function whiteView(engine: Engine, text: string): View {
  const [game] = parseKpgnGames(text);
  if (game.kind !== 'record') throw new Error('expected a record');
  return viewOf(validateRecord(engine, game.record, game.positions, game.startAt), 'white');
}

describe.each(BACKENDS)('interleaved estimation and search on %s', (backend) => {
  const engine = createEngine(backend, 1 << 16);
  for (const { name, text, ply } of RECORDS) {
    it(`${name}: the same answer as sequential search, for l-dub, l-dbu and gl-dbu`, () => {
      const view = whiteView(engine, text);
      const belief = estimateBelief(engine, view, 'dfs').handles.map((h) => engine.fen(h));
      expect(belief.length).toBeGreaterThan(0);
      for (const algorithm of ['l-dub', 'l-dbu', 'gl-dbu'] as Algorithm[]) {
        const sequential = solveView(engine, view, ply, algorithm);
        const interleaved = solveView(engine, view, ply, algorithm, { interleave: true });
        expect(interleaved.answer, algorithm).toBe(sequential.answer);
        expect(sequential.beliefPositions).toBe(belief.length);
        expect(interleaved.beliefPositions).toBeLessThanOrEqual(belief.length);
        if (interleaved.answer === 'proven') {
          expect(interleaved.beliefPositions, 'a proof needs every position').toBe(belief.length);
          const verdict = verifyStrategy({ rules: view.rules, positions: belief, ply }, interleaved.strategy!);
          expect(verdict.ok, JSON.stringify(verdict)).toBe(true);
        }
      }
    });
  }

  it('the answers worked out by hand: no mate in the opening, Ra8 mates the lone king on g8', () => {
    expect(solveView(engine, whiteView(engine, RECORDS[0].text), 3, 'gl-dbu', { interleave: true }).answer).toBe(
      'disproven',
    );
    const rook = solveView(engine, whiteView(engine, RECORDS[1].text), 3, 'gl-dbu', { interleave: true });
    expect(rook.answer).toBe('proven');
    expect(rook.beliefPositions).toBe(1);
  });

  it('a disproof of the opening position comes before the belief is complete', () => {
    const view = whiteView(engine, RECORDS[0].text);
    const interleaved = solveView(engine, view, 3, 'gl-dbu', { interleave: true });
    expect(interleaved.answer).toBe('disproven');
    expect(interleaved.beliefPositions).toBeLessThan(20);
  });

  it('only the incremental directional algorithms interleave', () => {
    const view = whiteView(engine, RECORDS[1].text);
    expect(() => solveView(engine, view, 3, 'le-dfs', { interleave: true })).toThrow(
      /interleaving needs an incremental directional algorithm/,
    );
  });
});

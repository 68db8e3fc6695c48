// krieg's fallback source (host/players/guesses.ts): when the position source comes back empty,
// the opponent's men of its last positions over the player's own board, patched by what happened
// since. Hand-worked: after 1. e4 d5 the source sees Black's d-pawn on d5; 2. exd5 takes it, and
// Black recaptures on d5 (heard: a capture on d5). The source then finds nothing: the guess has
// White's e-pawn gone, Black's d5 pawn gone, and on d5 the nearest of Black's men that reach it in
// one move on an empty board — the queen from d8 (no pawn of his stands diagonally behind d5; the
// rook on a8 is as near but does not reach it). A man of his on a square the player's man passed
// without a capture was not there: it moves to the nearest free square, and he keeps his men.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { START_FEN } from '../../host/notation/fen';
import { parseSquare } from '../../host/notation/square';
import type { ViewEvent } from '../../host/record/record';
import { createPlayerEngine } from '../../host/players/engines.node';
import { StaleGuessSource } from '../../host/players/guesses';
import { SAMPLE_BASE, type PositionSource, type SourcePositions } from '../../host/players/sources';

/** A source that returns `fen` once, at its first request, and nothing after. */
function onceSource(engine: ReturnType<typeof createPlayerEngine>, fen: string): PositionSource {
  let calls = 0;
  const answer = (): SourcePositions => {
    if (calls++ > 0) return { handles: [], exact: false };
    engine.setFen(SAMPLE_BASE, fen);
    return { handles: [SAMPLE_BASE], exact: false };
  };
  return { name: 'once', observe() {}, positions: answer, lastObservation: answer };
}

const legal = (attempt: string, capture?: string): ViewEvent => ({
  type: 'attempt',
  side: 'white',
  attempt,
  percept: capture ? { answer: 'legal', capture: parseSquare(capture) } : { answer: 'legal' },
});
const reply = (capture?: string): ViewEvent => ({
  type: 'opponent-move',
  side: 'black',
  percept: capture ? { answer: 'legal', capture: parseSquare(capture) } : { answer: 'legal' },
});

describe.each(BACKENDS)('StaleGuessSource (%s)', (backend) => {
  const setup = { side: 'white' as const, rules: preset('berkeley'), start: START_FEN, seed: 1 };

  it('passes the source through while it finds positions, then patches its last ones', () => {
    const engine = createPlayerEngine(backend, 1 << 10);
    const after = 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
    const source = new StaleGuessSource(onceSource(engine, after), engine, setup);
    for (const event of [legal('e2e4'), reply()]) source.observe(event);
    const first = source.positions(4, {});
    expect(first.handles).toEqual([SAMPLE_BASE]);
    expect(source.guessed).toBe(0);
    for (const event of [legal('e4d5', 'd5'), reply('d5')]) source.observe(event);
    const second = source.positions(4, {});
    expect(second).toEqual({ handles: [SAMPLE_BASE], exact: false });
    expect(source.guessed).toBe(1);
    expect(engine.fen(SAMPLE_BASE).split(' ').slice(0, 2).join(' ')).toBe(
      'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR w',
    );
  });

  it("keeps his man that stood on a square the player's man passed without a capture: it stands nearby", () => {
    const engine = createPlayerEngine(backend, 1 << 10);
    // the source saw Black's knight on g4; White's queen goes d1-h5 through g4 and nothing is taken
    const after = 'rnbqkb1r/pppppppp/8/8/4P1n1/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2';
    const source = new StaleGuessSource(onceSource(engine, after), engine, setup);
    source.observe(legal('e2e4'));
    source.observe(reply());
    expect(source.positions(1, {}).handles).toEqual([SAMPLE_BASE]);
    source.observe(legal('d1h5'));
    source.observe(reply());
    expect(source.positions(1, {}).handles).toEqual([SAMPLE_BASE]);
    const board = engine.setup(SAMPLE_BASE).board;
    const black = board.filter((code) => code >> 3 === 1);
    expect(black).toHaveLength(16); // none captured: his men all there
    expect(board[parseSquare('g4')]).toBe(0);
    expect(board[parseSquare('h5')]).toBe(5); // White's queen
    expect(board.filter((code) => code === 10)).toHaveLength(2); // both black knights (2 | 1 << 3)
  });

  it("moves his king off a square the player's men attack (no check was announced)", () => {
    const engine = createPlayerEngine(backend, 1 << 10);
    // the source saw Black's king on e7 (after 1. e4 e5 2. Qh5 Ke7); White's 3. Qxe5 is no check
    // heard, so the king cannot still stand on e7, attacked by the queen: the nearest safe square
    const after = 'rnbq1bnr/ppppkppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQ - 2 3';
    const source = new StaleGuessSource(onceSource(engine, after), engine, setup);
    source.observe(legal('e2e4'));
    source.observe(reply());
    source.observe(legal('d1h5'));
    source.observe(reply());
    expect(source.positions(1, {}).handles).toEqual([SAMPLE_BASE]);
    source.observe(legal('h5e5', 'e5'));
    source.observe(reply());
    const guessed = source.positions(1, {});
    expect(guessed.handles).toEqual([SAMPLE_BASE]);
    const board = engine.setup(SAMPLE_BASE).board;
    const king = board.findIndex((code) => code === 14); // black king: 6 | 1 << 3
    expect(king).not.toBe(parseSquare('e7'));
    expect(engine.inCheck(SAMPLE_BASE)).toBe(false);
  });
});

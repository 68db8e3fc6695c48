// Hand-worked referee cases: the traps issue #3 lists, each position worked out by hand in its
// comment. Both backends.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, type Engine } from '../../host/node';
import { preset, withOverrides, type RuleSet } from '../../host/record/rules';
import type { Percept } from '../../host/record/percept';
import { answerAttempt, legalPawnCaptures, startGame, gameAttempt } from '../../host/core/referee';
import { parseUci } from '../../host/notation/move';
import { parseSquare } from '../../host/notation/square';

describe.each(BACKENDS)('referee traps on %s', (backend) => {
  const engine: Engine = createEngine(backend, 16);

  /** The referee's answer to one attempt (no turn memory). */
  function answer(fen: string, uci: string, rules: RuleSet = preset('berkeley')): Percept {
    engine.setRules(rules);
    engine.setFen(0, fen);
    return answerAttempt(engine, 0, parseUci(uci)!, 1);
  }
  function pawnTries(fen: string): { count: number; squares: number[] } {
    engine.setRules(preset('berkeley'));
    engine.setFen(0, fen);
    return legalPawnCaptures(engine, 0);
  }
  const sq = parseSquare;

  it('castling out of check is Illegal, not Nonsense (the own board shows no check)', () => {
    // Black rook e8 checks the White king e1 along the e-file; f1, g1 are empty; Black king a8.
    expect(answer('k3r3/8/8/8/8/8/8/4K2R w K - 0 1', 'e1g1').answer).toBe('illegal');
  });

  it('castling through an attacked square is Illegal; with an own piece in the way it is Nonsense', () => {
    // Black rook f8 attacks f1, the square the king crosses (Black king a8, out of the h1 rook's reach).
    expect(answer('k4r2/8/8/8/8/8/8/4K2R w K - 0 1', 'e1g1').answer).toBe('illegal');
    // a Black knight on g1 (invisible to White) blocks: Illegal, not Nonsense
    expect(answer('k7/8/8/8/8/8/8/4K1nR w K - 0 1', 'e1g1').answer).toBe('illegal');
    // a White bishop on f1 blocks on White's own board: Nonsense
    expect(answer('k7/8/8/8/8/8/8/4KB1R w K - 0 1', 'e1g1').answer).toBe('nonsense');
    // without the right, castling is not a move even on the own board
    expect(answer('k7/8/8/8/8/8/8/4K2R w - - 0 1', 'e1g1').answer).toBe('nonsense');
    // queen-side: the rook b8 attacks b1, which the king never crosses (it crosses d1 and lands on c1)
    expect(answer('1r5k/8/8/8/8/8/8/R3K3 w Q - 0 1', 'e1c1')).toEqual({ answer: 'legal' });
    // … but one on d8 attacks d1: Illegal
    expect(answer('3r3k/8/8/8/8/8/8/R3K3 w Q - 0 1', 'e1c1').answer).toBe('illegal');
  });

  it('a pawn capture attempted on move 1 is Illegal under berkeley (never Nonsense)', () => {
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    expect(answer(start, 'e2d3').answer).toBe('illegal');
    expect(answer(start, 'e2f3').answer).toBe('illegal');
    // a diagonal step onto an own piece is Nonsense; a straight push onto an own piece too
    expect(answer('4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1', 'e2d3').answer).toBe('nonsense');
    // a push onto an enemy piece is Illegal (the own board shows it free)
    expect(answer('4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1', 'e2e3').answer).toBe('illegal');
  });

  it("en passant: the announced square is the captured pawn's, or the landing square under english", () => {
    // Black has just played d7d5; White's e5 pawn takes en passant on d6; the captured pawn stood on d5.
    const fen = '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2';
    expect(answer(fen, 'e5d6')).toEqual({ answer: 'legal', capture: sq('d5') });
    expect(answer(fen, 'e5d6', preset('english'))).toEqual({ answer: 'legal', capture: sq('d6'), enPassant: true });
    expect(answer(fen, 'e5d6', preset('wild16'))).toEqual({ answer: 'legal', capture: sq('d5'), captured: 'pawn' });
    // without en passant in the rules the same attempt is Illegal (a pawn capture attempt on an empty square)
    expect(
      answer('4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2', 'e5d6', withOverrides(preset('berkeley'), { enPassant: false }))
        .answer,
    ).toBe('illegal');
  });

  it('pawn tries count a capture-promotion once, and exclude pinned pawns', () => {
    // b7 can take a8 or c8 (each with four promotion pieces): two pawn tries, landing a8 and c8.
    expect(pawnTries('r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1')).toEqual({ count: 2, squares: [sq('a8'), sq('c8')] });
    // the e4 pawn is pinned on the e-file by the rook e8: its capture d5 is not legal, not counted
    expect(pawnTries('4r2k/8/8/3p4/4P3/8/8/4K3 w - - 0 1')).toEqual({ count: 0, squares: [] });
    // en passant counts (d6, landing square)
    expect(pawnTries('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2')).toEqual({ count: 1, squares: [sq('d6')] });
    // in check, only captures resolving it count: the knight f3 checks g1; g2xf3 resolves it,
    // d4xe5 (taking a rook) does not
    expect(pawnTries('4k3/8/8/4r3/3P4/5n2/6P1/6K1 w - - 0 1')).toEqual({ count: 1, squares: [sq('f3')] });
  });

  it('a double check announces both directions', () => {
    // White rook e1, bishop e4; Black king e8. Be4-c6+ opens the e-file (File) and checks on the
    // diagonal c6-e8: from e8 the a4-e8 diagonal has 5 squares, the e8-h5 one 4, so it is the Long one.
    expect(answer('4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1', 'e4c6')).toEqual({
      answer: 'legal',
      check: true,
      directions: 4 | 8,
    });
    // White rook a8, knight d8, Black king h8: Nd8-f7+ checks h8 from the knight and opens the 8th rank.
    expect(answer('R2N3k/8/8/8/8/8/8/K7 w - - 0 1', 'd8f7')).toEqual({
      answer: 'legal',
      check: true,
      directions: 1 | 2,
    });
  });

  it('long vs short diagonal seen from every corner, and from e8', () => {
    // Through a corner the long diagonal has 8 squares, the other 1 (the corner alone): a diagonal
    // check on a cornered king is always Long. The queen keeps mating material on the board.
    const long = { answer: 'legal', check: true, directions: 8 };
    expect(answer('K7/8/8/8/8/8/4Q3/k7 w - - 0 1', 'e2e5')).toEqual(long); // a1 from e5
    expect(answer('7k/8/8/8/8/8/4Q3/K7 w - - 0 1', 'e2e5')).toEqual(long); // h8 from e5
    expect(answer('k7/8/8/8/8/8/4Q3/7K w - - 0 1', 'e2e4')).toEqual(long); // a8 from e4
    expect(answer('7K/8/8/8/8/8/4Q3/7k w - - 0 1', 'e2e4')).toEqual(long); // h1 from e4
    // e8: a4-e8 has 5 squares (Long), e8-h5 has 4 (Short)
    expect(answer('4k3/8/8/8/8/8/8/K2Q4 w - - 0 1', 'd1h5')).toEqual({ answer: 'legal', check: true, directions: 16 });
    expect(answer('4k3/8/8/8/8/8/8/K2Q4 w - - 0 1', 'd1a4')).toEqual(long);
    // a pawn checks along a diagonal: d7 is on e8's long diagonal, f7 on its short one
    expect(answer('4k3/8/3P4/8/8/8/8/K7 w - - 0 1', 'd6d7')).toEqual(long);
    expect(answer('4k3/8/5P2/8/8/8/8/K7 w - - 0 1', 'f6f7')).toEqual({ answer: 'legal', check: true, directions: 16 });
  });

  it('plain-check rules announce "check" without directions', () => {
    const rules = withOverrides(preset('berkeley'), { checkDetail: 'plain' });
    expect(answer('4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1', 'e4c6', rules)).toEqual({ answer: 'legal', check: true });
  });

  it('an attempt repeated in the same turn is Nonsense under berkeley, Illegal again under wild16', () => {
    for (const [name, repeat] of [
      ['berkeley', 'nonsense'],
      ['wild16', 'illegal'],
    ] as const) {
      engine.setRules(preset(name));
      engine.setFen(0, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      startGame(engine, 0);
      expect(gameAttempt(engine, parseUci('e2d3')!).answer).toBe('illegal');
      expect(gameAttempt(engine, parseUci('e2d3')!).answer).toBe(repeat);
      expect(gameAttempt(engine, parseUci('e2e4')!).answer).toBe('legal');
    }
  });
});

// Answers to a named check (host/players/check.ts): in check along a direction the referee names, krieg's
// attempts are its king's steps and moves onto that line (a knight's check: taking the knight; a double
// check: the king's alone). Truth is the core's move generator: over random games every legal move of a
// side in check passes the filter, and the filter drops most of the other moves of its men; hand-built
// checks name each direction (the core's long and short diagonals too) and an en passant capture of
// the checking pawn. Where its belief has lost his men, the technique and the sampling tried up to
// fifteen Illegal moves before a king step (krieg v random, seed 1, game 91).
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../host/node';
import { viewAttempts } from '../../host/referee/ownBoard';
import { makeUci, parseUci } from '../../host/notation/move';
import { checkDirections, mayMeetCheck } from '../../host/players/check';
import { seededRandom } from '../../host/referee/game';
import { preset } from '../../host/record/rules';
import { CHECK_FILE, CHECK_KNIGHT, CHECK_LONG_DIAGONAL, CHECK_RANK, CHECK_SHORT_DIAGONAL } from '../../host/constants';
import type { View } from '../../host/record/record';

const engine = createEngine('wasm', 16);

/** The view of the side to move from `fen` on, nothing heard yet. */
function viewFrom(fen: string, events: View['events'] = []): View {
  const as = fen.split(' ')[1] === 'w' ? 'white' : 'black';
  return { rules: preset('berkeley'), start: fen, as, white: 'a', black: 'b', result: '*', tags: {}, events };
}

/** The attempts of the side to move in `fen` on a board of its men alone (what a blind player may try). */
const ownMoves = (fen: string) => viewAttempts(engine, viewFrom(fen), 2);

/** The moves that meet the check of `fen` by the filter, and the legal ones, as sorted UCI. */
function meeting(fen: string): { filtered: string[]; legal: string[]; directions: number } {
  engine.setFen(1, fen);
  const setup = engine.setup(1);
  const directions = engine.checkDirections(1);
  const filtered = ownMoves(fen).filter((m) => mayMeetCheck(setup.board, m, directions));
  return { filtered: filtered.map(makeUci).sort(), legal: engine.moves(1).map(makeUci).sort(), directions };
}

describe('answers to a named check', () => {
  it('every legal move of a side in check passes, over random games; most others do not', () => {
    engine.setRules(preset('berkeley'));
    const random = seededRandom(34);
    let checks = 0;
    let dropped = 0;
    let kept = 0;
    for (let game = 0; game < 60; game++) {
      engine.setFen(0, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      for (let ply = 0; ply < 160; ply++) {
        const moves = engine.moves(0);
        if (!moves.length) break;
        const directions = engine.checkDirections(0);
        if (directions) {
          checks++;
          const setup = engine.setup(0);
          for (const move of moves) expect(mayMeetCheck(setup.board, move, directions), makeUci(move)).toBe(true);
          for (const move of ownMoves(engine.fen(0))) mayMeetCheck(setup.board, move, directions) ? kept++ : dropped++;
        }
        engine.play(0, moves[Math.floor(random() * moves.length)], 1);
        engine.setFen(0, engine.fen(1));
      }
    }
    expect(checks).toBeGreaterThan(100);
    expect(dropped).toBeGreaterThan(kept);
  });

  it('a file: king steps and moves onto the file; a knight: its capture; a double check: the king', () => {
    // his rook on e1 checks Ke4 up the file: Qe7, Qe6 and Rxe1 between or onto it
    const file = meeting('k7/5Q2/8/8/4K3/8/8/4r2R w - - 0 1');
    expect(file.directions).toBe(CHECK_FILE);
    expect(file.filtered.filter((m) => !m.startsWith('e4'))).toEqual(['f7e6', 'f7e7', 'f7e8', 'h1e1']);
    expect(file.legal.every((m) => file.filtered.includes(m))).toBe(true);
    // his knight on c3: besides the king only the bishop's moves to a square a knight checks from (Bxc3, Bg5)
    const knight = meeting('4k3/8/8/8/4K3/2n5/3B4/8 w - - 0 1');
    expect(knight.directions).toBe(CHECK_KNIGHT);
    expect(knight.filtered.filter((m) => !m.startsWith('e4'))).toEqual(['d2c3', 'd2g5']);
    expect(knight.legal.filter((m) => !m.startsWith('e4'))).toEqual(['d2c3']);
    // his rook on a4 and knight on d2 (Rook and Knight): the king alone
    const double = meeting('4k3/8/8/8/r3K3/8/3n4/2B5 w - - 0 1');
    expect(double.directions).toBe(CHECK_RANK | CHECK_KNIGHT);
    expect(double.filtered.every((m) => m.startsWith('e4'))).toBe(true);
    expect(double.legal.every((m) => double.filtered.includes(m))).toBe(true);
  });

  it('the long and the short diagonal as the core names them, and en passant of the checking pawn', () => {
    // Ke1: a5-e1 is its long diagonal (five squares), e1-h4 its short one
    const long = meeting('4k3/8/8/8/1b6/8/8/3QK3 w - - 0 1');
    expect(long.directions).toBe(CHECK_LONG_DIAGONAL);
    expect(long.filtered.filter((m) => !m.startsWith('e1'))).toEqual(['d1d2']);
    const short = meeting('k7/5R2/8/8/7b/8/8/3QK3 w - - 0 1');
    expect(short.directions).toBe(CHECK_SHORT_DIAGONAL);
    expect(short.filtered.filter((m) => !m.startsWith('e1'))).toEqual(['f7f2']);
    engine.setFen(1, '7k/5R2/8/8/7b/8/8/R3K3 w Q - 0 1');
    expect(mayMeetCheck(engine.setup(1).board, parseUci('e1c1')!, CHECK_SHORT_DIAGONAL)).toBe(false); // no castling out of check
    // ...d7-d5+ against Ke4: e5xd6 en passant takes the pawn that checks
    const passant = meeting('4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 1');
    expect(passant.legal).toContain('e5d6');
    engine.setFen(1, '4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 1');
    expect(
      mayMeetCheck(
        engine.setup(1).board,
        engine.moves(1).find((m) => makeUci(m) === 'e5d6')!,
        passant.directions,
      ),
    ).toBe(true);
  });

  it("reads the check of his last move from the view, through this turn's Illegal answers", () => {
    const view = (events: View['events']) => viewFrom('4k3/8/8/8/8/8/8/4K3 w - - 0 1', events);
    const checked = {
      type: 'opponent-move',
      side: 'black',
      percept: { answer: 'legal', check: true, directions: CHECK_FILE },
    } as const;
    const illegal = { type: 'attempt', side: 'white', attempt: 'e1d1', percept: { answer: 'illegal' } } as const;
    const quiet = { type: 'opponent-move', side: 'black', percept: { answer: 'legal' } } as const;
    expect(checkDirections(view([checked]))).toBe(CHECK_FILE);
    expect(checkDirections(view([checked, illegal]))).toBe(CHECK_FILE);
    expect(checkDirections(view([checked, quiet]))).toBe(0);
    expect(checkDirections(view([]))).toBe(0);
  });
});

// krieg's values over a belief (issue #34; host/players/values.ts), on hand-built beliefs given
// directly to choose-move and the screen, where Parker's mean of centipawns picks the wrong move:
//   rook    White Kb6, Rc1; Black's king on a8 (Rc8 mates), b8, d8 or d7 (Kxc8), g5, h4 or f3 (Rc8 safe):
//           the mean of Rc8 (a mate 30,000 in 1 of 7) beats every safe rook move; its expected score does not.
//   queen   White Kf6, Qd1; S = {Kf8 (Qd8 mates), Kh8 (Qd8+ safe)}, the screen also Ke8, Kc8, Kc7 (Qd8+?? Kxd8):
//           the best of S by any measure is Qd8; the screen's possible loss of the queen rules it out.
//   stalemate White Kc6, Qd4; S = {Ka6 (Qb6 mates)}, the screen also Ka8 (Qb6 stalemates) and Kb8:
//           with a queen up, Qb6 is not chosen while an attempt that stalemates nowhere is open (Qa4,
//           Qa1 mate there too, and stalemate nowhere); with a black pawn on g7 instead, Qb6 leaves
//           only the pawn to move, a stalemate if it were blocked: counted too.
//   boxed    White Kf3, Ra8, Re1, Qh1, Bb6, Nc7, pawns a2 c5 f4 h6; Black Kg6, pawns a3 f5 (blocked), from
//           a krieg v random game: Rg1 checks the king on g6 of the screen, and stalemated the true one
//           on h7 (g6, g7, g8, h8 covered, h6 guarded): a stuck square next to the screened king counts.
//   phantom  White Kc1, Qf3, Rd1, Re1, Be3, pawns d5 e5 h6; Black Kh8, pawns f7 h7 (h7 blocked), and in
//           every screened position a rook on a2 or a bishop on a6 (the tracker's pool past its exact
//           layer: pieces he lost long ago): Qxf7 wins a pawn and boxes his king (g8, g7 covered), a
//           stalemate where the piece is not there — counted 15 ahead (BOXED_AHEAD), so
//           another move is chosen; a check is never counted: with d5, e5 gone Rd8 and Re8 mate, one is chosen.
//   mates    White Kf6, Qd1, Rb2 against his king and a7 pawn, S = {Kh4}, the screen also Kf8 (Qd8 and Rb8 mate)
//           and Kh8: the screen's share of mates joins S's values, so far ahead the mate is played.
//   progress far ahead every expected score is 1 to five decimals: the mean clipped value breaks the
//           tie (a promotion over a null move), and K+Q+P v K+P (his pawn blocked) is won against random.
//   far     a queen and a pawn ahead, his pieces on the board: a capture in the positions searched taken
//           in 2 of 64 screened ones is played (not 9 ahead), and a pawn's safe step gains.
//   silence Bb5 where a pawn on a6 takes it in three positions of four, his knight taking the boxed-in
//           queen in the same three: the bishop's risk counts beside the queen's (the greater alone hid it);
//           Bxf6 wins a knight in the one position searched and trades in three: its gain trusted a quarter.
// And the exact-belief rule, and past it the pool's distinct positions (smallBelief): krieg's positions, while the tracker's belief is exact, are all in it
// (HS tops S up with last-observation boards, outside it); and K+R v K against random mates.
import { kriegAgainstRandom } from '../lib/kriegGame';
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { START_FEN } from '../../host/notation/fen';
import { parseUci } from '../../host/notation/move';
import {
  ChooseRun,
  countMates,
  countThreats,
  expectedScore,
  MATE,
  PROGRESS_CLIP,
  type AttemptValue,
} from '../../host/core/players';
import {
  BACK_COST,
  bestByWorth,
  edgeOf,
  FAR_AHEAD,
  FAR_LOSS,
  FAR_MATE_GAIN,
  mateGain,
  PUSH_GAIN,
  pushGain,
  stalemates,
  trustedScore,
  withScreenMates,
  worthOf,
  PROGRESS_WEIGHT,
} from '../../host/players/values';
import { KriegPlayer } from '../../host/players/krieg';
import { SamplingPlayer } from '../../host/players/sampling';
import { smallBelief, trackerSource, type PositionSource } from '../../host/players/sources';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec } from '../../host/players/registry';
import { turnOf, type PlayerSetup } from '../../host/players/player';
import { seededRandom } from '../../host/referee/game';
import type { View } from '../../host/record/record';
import type { Engine } from '../../host/engine';

const STACK = 100;
const a = (uci: string) => parseUci(uci)!;

/** The belief's positions into records 10 …; a depth-0 run over `s` of them; the screen over `screen`. */
function belief(backend: 'wasm' | 'js', fens: string[], s: number[], screen: number[]) {
  const engine = createEngine(backend, 256);
  fens.forEach((fen, i) => engine.setFen(10 + i, fen));
  const run = new ChooseRun(engine, 10 + s[0], { depth: 0 }, STACK);
  run.add(s.map((i) => 10 + i));
  const handles = screen.map((i) => 10 + i);
  // as krieg's pick: the screen's mates joined to the values over S
  const searched = run.over(() => true).filter((r) => r.legal > 0);
  const mates = countMates(
    engine,
    handles,
    searched.map((r) => r.attempt),
    STACK,
  );
  const scores = searched.map((r) => withScreenMates(r, mates.get(r.attempt)));
  const threat = (attempt: number) => countThreats(engine, handles, attempt, STACK);
  const edge = edgeOf(engine, 10);
  const byMean = scores.reduce((x, y) => (y.mean > x.mean ? y : x));
  const chosen = bestByWorth(scores, threat, edge, seededRandom(1))!;
  const row = (uci: string): AttemptValue => scores.find((r) => r.attempt === a(uci))!;
  return { engine, searched, scores, threat, edge, byMean, chosen, row };
}

describe('expected scores', () => {
  it('a mate is 1, being mated 0, a draw ½, and centipawns in between in order', () => {
    expect(expectedScore(MATE - 3)).toBe(1);
    expect(expectedScore(-MATE + 2)).toBe(0);
    expect(expectedScore(0)).toBe(0.5);
    expect(expectedScore(500)).toBeGreaterThan(expectedScore(100));
    expect(expectedScore(500)).toBeLessThan(1);
    expect(expectedScore(-500)).toBeCloseTo(1 - expectedScore(500), 12);
  });
});

/** A row far ahead: expected score 1 (every value clipped alike), `progress` the mean clipped value over 3 positions. */
const farRow = (uci: string, progress: number): AttemptValue => ({
  attempt: a(uci),
  legal: 3,
  sum: 3 * progress,
  mean: progress,
  mates: 0,
  mated: 0,
  tactical: 0,
  captures: 0,
  min: progress,
  max: progress,
  score: 1,
  progress,
});

describe('progress far ahead', () => {
  it('equal expected scores: the attempt of the greater mean clipped value is chosen, whatever the tie order', () => {
    const rows = [farRow('e1e2', 2400), farRow('g7g8q', 3200), farRow('d1d2', 2390)];
    for (let seed = 1; seed <= 8; seed++)
      expect(bestByWorth(rows, undefined, undefined, seededRandom(seed))!.best.attempt).toBe(a('g7g8q'));
    // a promotion is worth four squares of a bare king's region; a rook hung in one position of ten far more
    expect(800 * PROGRESS_WEIGHT).toBeCloseTo(0.008, 12);
  });
});

describe('far ahead, whatever men he keeps', () => {
  // krieg v random, seed 1, game 4: a queen, two rooks and a bishop more, the queen and a rook
  // unmoved on the back rank for 40 plies while his men stood around: the possible loss of a man
  // (LOSS_COST a centipawn over the screen's share) weighed a hundred times the progress of a
  // capture in the positions searched (PROGRESS_WEIGHT a centipawn), so only risk-free moves were played.
  // Qd7 takes a rook in the positions searched (500 more) and is taken in 2 of the 64 screened
  const rows = [farRow('d1d7', 2500), farRow('h2h3', 2000)];
  const safe = { legal: 64, mated: 0, replies: 900, stalemated: 0, loss: 0, regionLow: 0, regionHigh: 0 };
  const risk = { ...safe, loss: 2 * 900 };
  const threat = (attempt: number) => (attempt === a('d1d7') ? risk : safe);
  const edge = (ahead: number) => ({ decisive: true, bareKing: false, king: 4, ahead });

  it('a queen and a pawn ahead the gain weighs more and the possible loss less: Qd7 chosen, not 9 ahead', () => {
    expect(FAR_AHEAD).toBe(10);
    expect(bestByWorth(rows, threat, edge(9), seededRandom(1))!.best.attempt).toBe(a('h2h3'));
    expect(bestByWorth(rows, threat, edge(10), seededRandom(1))!.best.attempt).toBe(a('d1d7'));
    expect(1 - worthOf(1, risk, edge(12))).toBeCloseTo(FAR_LOSS * (1 - worthOf(1, risk, edge(9))), 12);
  });

  it("a pawn's step gains with his pieces on the board, from a queen and a pawn ahead", () => {
    const engine = createEngine('wasm', 64);
    engine.setFen(1, 'r3k3/8/8/8/8/8/P7/QQ2K3 w - - 0 1'); // 13 ahead: two queens and a pawn against a rook
    expect(edgeOf(engine, 1).pawns?.squares.has(8)).toBe(true);
    expect(pushGain(a('a2a3'), edgeOf(engine, 1))).toBeGreaterThan(0);
    engine.setFen(1, 'r3k3/8/8/8/8/8/P7/Q3K3 w - - 0 1'); // 5 ahead: decisive, but his rook
    expect(edgeOf(engine, 1)).toMatchObject({ decisive: true, bareKing: false });
    expect(pushGain(a('a2a3'), edgeOf(engine, 1))).toBe(0);
  });
});

describe('progress against a bare king', () => {
  const threat = (low: number, high: number) => ({
    legal: 4,
    mated: 0,
    replies: 20,
    stalemated: 0,
    loss: 0,
    regionLow: low,
    regionHigh: high,
  });
  const corner = 1 << (63 - 32); // h8
  const box = corner | (1 << (62 - 32)) | (1 << (55 - 32)) | (1 << (54 - 32)); // g7, g8, h7, h8
  const edge = { decisive: true, bareKing: true, king: 45 }; // our king on f6
  it('fewer squares for the bare king, and our king nearer them, are worth more; a take-back costs a little', () => {
    expect(worthOf(0.99, threat(0, corner), edge)).toBeGreaterThan(worthOf(0.99, threat(0, box), edge));
    // the king's own step (f6-g6) shortens the distance to the box; a rook move (a1-a2) does not
    expect(worthOf(0.99, threat(0, box), edge, a('f6g6'))).toBeGreaterThan(
      worthOf(0.99, threat(0, box), edge, a('a1a2')),
    );
    const back = { ...edge, back: a('a2a1') };
    expect(worthOf(0.99, threat(0, box), back, a('a2a1'))).toBeCloseTo(
      worthOf(0.99, threat(0, box), back, a('a2b2')) - BACK_COST,
      12,
    );
    // without a bare king (or with no screen) the score is the worth
    expect(worthOf(0.99, threat(0, box), { decisive: true, bareKing: false, king: 45 })).toBe(0.99);
    expect(worthOf(0.99, undefined, edge)).toBe(0.99);
  });
});

describe.each(BACKENDS)('values over a belief on %s', (backend) => {
  it('mate in 1 of 7 positions, the rook hung in 3: a safe rook move, not the mate', () => {
    const fens = ['k7/8', '1k6/8', '3k4/8', '8/3k4', '8/8/1K6/6k1', '8/8/1K6/8/7k', '8/8/1K6/8/8/5k2'].map((black) => {
      const rows = black.split('/');
      if (rows.length === 2) rows.push('1K6');
      while (rows.length < 7) rows.push('8');
      return `${rows.join('/')}/2R5 w - - 0 1`;
    });
    expect(fens[0]).toBe('k7/8/1K6/8/8/8/8/2R5 w - - 0 1');
    expect(fens[6]).toBe('8/8/1K6/8/8/5k2/8/2R5 w - - 0 1');
    const all = [0, 1, 2, 3, 4, 5, 6];
    const { byMean, chosen, row, threat } = belief(backend, fens, all, all);
    const rc8 = row('c1c8');
    expect(rc8).toMatchObject({ legal: 7, mates: 1 });
    expect(byMean.attempt).toBe(a('c1c8')); // Parker's mean: the mate's 30,000 outweighs the rook
    expect(threat(a('c1c8'))).toMatchObject({ legal: 7, mated: 0, loss: 3 * 500 });
    expect(chosen.best.attempt).not.toBe(a('c1c8'));
    expect(threat(chosen.best.attempt).loss).toBe(0);
    expect(chosen.best.score!).toBeGreaterThan(rc8.score!); // the expected score alone already says so
    expect(chosen.best.mean).toBeGreaterThan(500); // a rook up
  });

  it("the screen's mates: a mate in one screened position of three, none searched, is played far ahead", () => {
    // Kf6, Qd1, Rb2 against his king and a7 pawn: on f8 (screened) Qd8 and Rb8 mate; on h8 (screened) they
    // check, on h4 (searched) they do nothing
    const fens = [
      '7k/p7/5K2/8/8/8/1R6/3Q4 w - - 0 1',
      '5k2/p7/5K2/8/8/8/1R6/3Q4 w - - 0 1',
      '8/p7/5K2/8/7k/8/1R6/3Q4 w - - 0 1',
    ];
    const { searched, scores, threat, edge, chosen } = belief(backend, fens, [2], [0, 1, 2]);
    const mating = [a('d1d8'), a('b2b8')];
    expect(searched.filter((r) => mating.includes(r.attempt)).every((r) => r.mates === 0)).toBe(true);
    const unjoined = bestByWorth(searched, threat, edge, seededRandom(1))!;
    expect(mating).not.toContain(unjoined.best.attempt);
    expect(mating).toContain(chosen.best.attempt);
    const qd8 = scores.find((r) => r.attempt === a('d1d8'))!;
    const before = searched.find((r) => r.attempt === a('d1d8'))!;
    // a third of the way to a mate's score and progress
    expect(qd8.score!).toBeCloseTo(before.score! + (1 - before.score!) / 3, 12);
    expect(qd8.progress!).toBeCloseTo(before.progress! + (PROGRESS_CLIP - before.progress!) / 3, 9);
    expect(withScreenMates(before, { legal: 3, mates: 0, matesInTwo: 0 })).toBe(before);
    expect(withScreenMates(before, undefined)).toBe(before);
  });

  it('Qd8+?? Kxd8: the check next to a possibly unguarded square is not chosen for a mate in the positions searched', () => {
    const fens = [
      '5k2/8/5K2/8/8/8/8/3Q4 w - - 0 1', // Kf8: Qd8 mates
      '7k/8/5K2/8/8/8/8/3Q4 w - - 0 1', // Kh8: Qd8+ Kh7
      '4k3/8/5K2/8/8/8/8/3Q4 w - - 0 1', // Ke8: Qd8+ Kxd8
      '2k5/8/5K2/8/8/8/8/3Q4 w - - 0 1', // Kc8: Qd8+ Kxd8
      '8/2k5/5K2/8/8/8/8/3Q4 w - - 0 1', // Kc7: Qd8+ Kxd8
    ];
    const { scores, byMean, chosen, row, threat, edge } = belief(backend, fens, [0, 1], [0, 1, 2, 3, 4]);
    const qd8 = row('d1d8');
    expect(byMean.attempt).toBe(a('d1d8'));
    expect(qd8.score).toBe(Math.max(...scores.map((r) => r.score!))); // the best of S by its expected score too
    const t = threat(a('d1d8'));
    expect(t).toMatchObject({ legal: 5, mated: 0, loss: 3 * 900, stalemated: 0 });
    expect(chosen.best.attempt).not.toBe(a('d1d8'));
    expect(worthOf(qd8.score!, t, edge, a('d1d8'))).toBeLessThan(chosen.worth);
    expect(threat(chosen.best.attempt).loss).toBe(0);
  });

  it('a stalemate trap with a queen up: Qb6 mates in the position searched and stalemates in another; not chosen', () => {
    const fens = [
      '8/8/k1K5/8/3Q4/8/8/8 w - - 0 1', // Ka6: Qb6 mates
      'k7/8/2K5/8/3Q4/8/8/8 w - - 0 1', // Ka8: Qb6 stalemates
      '1k6/8/2K5/8/3Q4/8/8/8 w - - 0 1', // Kb8: Qb6+ Ka8 / Kc8
      'k7/6p1/2K5/8/3Q4/8/8/8 w - - 0 1', // Ka8, a pawn on g7: after Qb6 only the pawn moves (stalemate if it were blocked)
    ];
    const { engine, byMean, chosen, row, threat, edge } = belief(backend, fens, [0], [0, 1, 2]);
    expect(edge).toMatchObject({ decisive: true, bareKing: true });
    expect(row('d4b6')).toMatchObject({ legal: 1, mates: 1, score: 1 });
    expect(row('d4b6').mean).toBe(byMean.mean); // one of the best means (Qa4 and Qa1 mate there too)
    // Ka8 stalemated; Kb8 checked, with a8 next to him stuck (a stalemate had he been there)
    expect(threat(a('d4b6'))).toMatchObject({ legal: 3, stalemated: 2, mated: 0, loss: 0 });
    expect(chosen.best.attempt).not.toBe(a('d4b6'));
    expect(threat(chosen.best.attempt).stalemated).toBe(0);
    expect(countThreats(engine, [13], a('d4b6'), STACK)).toMatchObject({ legal: 1, stalemated: 1 });
    expect(countThreats(engine, [13], a('d4d5'), STACK)).toMatchObject({ legal: 1, stalemated: 0 });
    // every attempt that stalemates somewhere is passed over, even at a worth above the chosen one's
    const stalemating = bestByWorth([row('d4b6')], threat, edge, seededRandom(2))!;
    expect(stalemating.best.attempt).toBe(a('d4b6')); // but with nothing else open it is played
  });
});

describe.each(BACKENDS)('stalemates one step from the screen on %s', (backend) => {
  it('Rg1 checks the screened king on g6 and would stalemate him on h7: counted; a quiet rook move is not', () => {
    const { threat } = belief(backend, ['R7/2N5/1B4kP/2P2p2/5P2/p4K2/P7/4R2Q w - - 0 1'], [0], [0]);
    expect(threat(a('e1g1'))).toMatchObject({ legal: 1, stalemated: 1, mated: 0 });
    expect(threat(a('e1e2'))).toMatchObject({ legal: 1, stalemated: 0 });
  });
});

describe.each(BACKENDS)('far ahead, a mate in a few screened positions on %s', (backend) => {
  // krieg: Kg6, Qd2, Ra1, c2 (12 ahead of his knight on h3); his king on h8 in one screened position
  // of eleven, where Ra8 mates; elsewhere Ra8 is a safe quiet move, and c2-c3 a safe pawn's step
  const kings = ['h8', 'c6', 'b6', 'c5', 'f3', 'g3', 'c7', 'g4', 'b5', 'h4', 'c4'];
  const fens = kings.map((king) => {
    const board = Array.from({ length: 8 }, () => Array<string>(8).fill(''));
    const put = (sq: string, man: string) => (board[8 - Number(sq[1])][sq.charCodeAt(0) - 97] = man);
    put('g6', 'K');
    put('d2', 'Q');
    put('a1', 'R');
    put('c2', 'P');
    put('h3', 'n');
    put(king, 'k');
    const rows = board.map((row) =>
      row
        .map((man) => man || '1')
        .join('')
        .replace(/1+/g, (ones) => String(ones.length)),
    );
    return `${rows.join('/')} w - - 0 1`;
  });
  it('Ra8 mating in one of eleven is chosen over the pawn step; without the far mate gain the step was', () => {
    const { scores, chosen, row, threat, edge } = belief(
      backend,
      fens,
      [1],
      kings.map((_, i) => i),
    );
    expect(edge.ahead).toBe(12);
    expect(edge.ahead!).toBeGreaterThanOrEqual(FAR_AHEAD);
    expect(row('a1a8').mateShare).toBeCloseTo(1 / 11, 12);
    expect(threat(a('a1a8'))).toMatchObject({ legal: 11, mated: 0, loss: 0 });
    expect(pushGain(a('c2c3'), edge)).toBe(PUSH_GAIN);
    expect(threat(a('c2c3'))).toMatchObject({ legal: 11, mated: 0, loss: 0 });
    expect(chosen.best.attempt).toBe(a('a1a8'));
    // the same values with the share counted through the score and progress alone: the step wins
    const unjoined = scores.map(({ mateShare, ...value }) => value);
    expect(bestByWorth(unjoined, threat, edge, seededRandom(1))!.best.attempt).toBe(a('c2c3'));
    // the gain joins the key whatever the screen finds (the mate is the game's; a man lost beside it costs its loss)
    expect(mateGain(row('a1a8'), edge)).toBeCloseTo(FAR_MATE_GAIN / 11, 12);
    expect(mateGain(row('a1a8'), { ...edge, ahead: 9 })).toBe(0);
    expect(mateGain(row('c2c3'), edge)).toBe(0);
    // the gain is kept in the share of the screened positions where the moved man survives: with the rook
    // taken in every one Ra8 weighs as without its gain (another attempt's mates then win); taken in one, Ra8 holds
    const hung = (lost: number) => (t: number) => (t === a('a1a8') ? { ...threat(t), lost } : threat(t));
    const ra8Unjoined = scores.map((value) =>
      value.attempt === a('a1a8') ? { ...value, mateShare: undefined } : value,
    );
    const gone = bestByWorth(scores, hung(11), edge, seededRandom(1))!;
    const unjoined1 = bestByWorth(ra8Unjoined, threat, edge, seededRandom(1))!;
    expect(gone.best.attempt).toBe(unjoined1.best.attempt);
    expect(gone.worth).toBeCloseTo(unjoined1.worth, 12);
    expect(gone.best.attempt).not.toBe(a('a1a8'));
    const once = bestByWorth(scores, hung(1), edge, seededRandom(1))!;
    expect(once.best.attempt).toBe(a('a1a8'));
    expect(once.worth).toBeCloseTo(chosen.worth - FAR_MATE_GAIN / 11 / 11, 12);
    // 9 ahead (not far): the gain is not counted
    const near = bestByWorth(scores, threat, { ...edge, ahead: 9 }, seededRandom(1))!;
    expect(near.worth).toBeLessThan(chosen.worth - FAR_MATE_GAIN / 11 / 2);
  });
});

describe.each(BACKENDS)("stalemates beside the belief's phantom pieces on %s", (backend) => {
  // his pieces a rook on a2 or a bishop on a6: both can move, so no screened position is a stalemate
  const phantoms = (men: string) => [
    `7k/5p1p/7P/${men}/8/4BQ2/r7/2KRR3 w - - 0 1`,
    `7k/5p1p/b6P/${men}/8/4BQ2/8/2KRR3 w - - 0 1`,
  ];
  it('Qxf7 boxes his king: a stalemate in the true position, boxed in the screened ones; not chosen 15 ahead', () => {
    const { engine, scores, chosen, row, threat, edge } = belief(backend, phantoms('3PP3'), [0], [0, 1]);
    expect(edge).toMatchObject({ decisive: true, boxedStalemates: true, ahead: 18, bareKing: false });
    // the true position (his pawns alone): Qxf7 stalemates
    engine.setFen(20, '7k/5p1p/7P/3PP3/8/4BQ2/8/2KRR3 w - - 0 1');
    expect(countThreats(engine, [20], a('f3f7'), STACK)).toMatchObject({ legal: 1, stalemated: 1, boxed: 0 });
    // the screened ones: his piece moves, his king is boxed (g8 by the queen, g7 by the queen and h6)
    expect(threat(a('f3f7'))).toMatchObject({ legal: 2, stalemated: 0, boxed: 2, mated: 0, loss: 0 });
    expect(stalemates(threat(a('f3f7')), edge)).toBe(2);
    expect(stalemates(threat(a('f3f7')), { ...edge, boxedStalemates: false })).toBe(0);
    // the pawn won makes it the best by score; counted as a stalemate it is passed over
    expect(row('f3f7').score).toBe(Math.max(...scores.map((r) => r.score!)));
    expect(chosen.best.attempt).not.toBe(a('f3f7'));
    expect(stalemates(threat(chosen.best.attempt), edge)).toBe(0);
    // short of a crushing edge (his pieces may be real) the box is no stalemate: Qxf7 chosen, as before
    // (and no pawn's step gaining: far ahead d5-d6 would be taken first, FAR_AHEAD)
    const notCrushing = bestByWorth(
      scores,
      threat,
      { ...edge, boxedStalemates: false, pawns: undefined },
      seededRandom(1),
    )!;
    expect(notCrushing.best.attempt).toBe(a('f3f7'));
    // a check is never a box: Qf6+ (g7 covered, g8 free), with the rook or the bishop to move
    expect(threat(a('f3f6'))).toMatchObject({ legal: 2, stalemated: 0, boxed: 0 });
  });

  it('with the d- and e-files open Rd8 and Re8 mate in the position searched: one is chosen, a check never a box', () => {
    const { chosen, row, threat, edge } = belief(backend, phantoms('8'), [0], [0, 1]);
    expect(edge.boxedStalemates).toBe(true);
    expect(row('d1d8')).toMatchObject({ legal: 1, mates: 1 });
    expect(chosen.best.mates).toBe(1);
    expect(['d1d8', 'e1e8'].map(a)).toContain(chosen.best.attempt);
    expect(threat(chosen.best.attempt)).toMatchObject({ stalemated: 0, boxed: 0, mated: 0 });
    expect(threat(a('f3f7')).boxed).toBe(2); // the box is there still
  });
});

describe.each(BACKENDS)('men hung to men moved in silence on %s', (backend) => {
  // krieg v HS: Bb5 where a pawn on a6 took it, Rd4 where a queen took it — the positions put a man
  // of his where he takes a queen, and that greater capture hid the moved man's own risk.
  it("the moved man's risk counts beside a greater capture elsewhere: Bb5 costs its bishop where a6 takes it", () => {
    const fens = [
      '2q4k/p6p/3b4/1n6/8/3B4/5PPP/6KQ w - - 0 1', // Bxb5 takes a knight, safe
      '2q4k/7p/p2b4/8/8/3B2n1/5PPP/6KQ w - - 0 1', // Bb5 axb5; Ng3xh1 (the queen boxed in) Kxh1 anyway
      '2q4k/1p5p/p2b4/8/8/3B2n1/5PPP/6KQ w - - 0 1',
      '2q4k/6pp/p2b4/8/8/3B2n1/5PPP/6KQ w - - 0 1',
    ];
    const { threat, edge } = belief(backend, fens, [0], [0, 1, 2, 3]);
    const queen = 900 - 320; // Nxh1, Kxh1
    const bishop = 330; // axb5, unguarded
    // the greater capture alone (loss, still counted far ahead): Bb5 and h3 both 3 × 580, alike
    expect(threat(a('d3b5'))).toMatchObject({ legal: 4, mated: 0, loss: 3 * queen, lossBoth: 3 * (queen + bishop) });
    expect(threat(a('d3b5')).lost).toBe(3);
    expect(threat(a('h2h3'))).toMatchObject({ legal: 4, mated: 0, loss: 3 * queen, lossBoth: 3 * queen, lost: 0 });
    expect(edge.decisive).toBe(false);
    const worth = (uci: string) => worthOf(0.6, threat(a(uci)), edge, a(uci));
    expect(worth('h2h3') - worth('d3b5')).toBeCloseTo((3 * bishop) / 4 / 1000, 12); // ¾ of a bishop
    // with a decisive edge the greater alone counts (the sum drew won endings): alike again
    const far = (uci: string) => worthOf(0.6, threat(a(uci)), { ...edge, decisive: true }, a(uci));
    expect(far('h2h3')).toBeCloseTo(far('d3b5'), 12);
  });

  // the Bxf6 belief below, White's material even (his pawns on a5 and b5) or two pawns up
  const bxf6Fens = (even: boolean) => {
    const fifth = even ? 'pp4B1' : '6B1';
    return [
      `6k1/ppq4p/5n2/${fifth}/8/8/PPP2PPP/RN4K1 w - - 0 1`, // the knight unguarded
      `6k1/ppq3pp/5n2/${fifth}/8/8/PPP2PPP/RN4K1 w - - 0 1`, // gxf6
      `6k1/ppq1p2p/5n2/${fifth}/8/8/PPP2PPP/RN4K1 w - - 0 1`, // exf6
      `5rk1/ppq4p/5n2/${fifth}/8/8/PPP2PPP/RN4K1 w - - 0 1`, // Rxf6
    ];
  };

  it('Bxf6 wins a knight in the one position searched and trades in the three others: its gain trusted a quarter', () => {
    const { scores, chosen, row, threat, edge } = belief(backend, bxf6Fens(true), [0], [0, 1, 2, 3]);
    const bxf6 = row('g5f6');
    expect(bxf6.score).toBe(Math.max(...scores.map((r) => r.score!))); // the best of S
    // the bishop taken back (330) for the knight (320) in three; Qxc2 (100) in each
    const t = threat(a('g5f6'));
    expect(t).toMatchObject({ legal: 4, mated: 0, lost: 3, lossBoth: 3 * (330 + 100 - 320) });
    expect(edge).toMatchObject({ decisive: false, ahead: 0 });
    expect(chosen.best.attempt).not.toBe(a('g5f6'));
    const key = bxf6.score! + PROGRESS_WEIGHT * bxf6.progress!;
    expect(worthOf(key, t, edge, a('g5f6'))).toBeGreaterThan(chosen.worth); // trusted whole, it was chosen
    const median = [...scores.map((r) => r.score! + PROGRESS_WEIGHT * r.progress!)].sort((x, y) => x - y)[
      (scores.length - 1) >> 1
    ];
    expect(trustedScore(key, t, median)).toBeCloseTo(median + (key - median) / 4, 12);
    expect(trustedScore(median - 0.1, t, median)).toBe(median - 0.1); // below the median: untouched
  });

  // krieg v random (issue #34): with the trust and the own risk counted whenever the edge was short of
  // decisive, krieg a piece or two up closed on nothing and drew won games at the ply cap (match seed 1,
  // games 1-20: 14 / 0 / 6, against 17 / 0 / 3 before them). Ahead in material the worth is the one
  // before them: the greater capture alone, the score trusted whole.
  it('two pawns up, the same belief: Bxf6 is trusted whole and only the greater capture counts, so it is chosen', () => {
    const { scores, chosen, row, threat, edge } = belief(backend, bxf6Fens(false), [0], [0, 1, 2, 3]);
    expect(edge).toMatchObject({ decisive: false, ahead: 2 });
    const bxf6 = row('g5f6');
    expect(bxf6.score).toBe(Math.max(...scores.map((r) => r.score!)));
    const t = threat(a('g5f6'));
    expect(t).toMatchObject({ legal: 4, mated: 0, lost: 3, loss: 3 * (330 - 320) }); // the bishop taken back in three
    const key = bxf6.score! + PROGRESS_WEIGHT * bxf6.progress!;
    const median = [...scores.map((r) => r.score! + PROGRESS_WEIGHT * r.progress!)].sort((x, y) => x - y)[
      (scores.length - 1) >> 1
    ];
    // the score whatever the median, less the greater capture of each position (not the sum)
    expect(worthOf(key, t, edge, a('g5f6'), median)).toBe(worthOf(key, t, edge, a('g5f6')));
    expect(worthOf(key, t, edge, a('g5f6'), median)).toBeGreaterThan(
      worthOf(key, t, { ...edge, ahead: 0 }, a('g5f6'), median),
    );
    expect(chosen.best.attempt).toBe(a('g5f6'));
  });
});

/** A source that notes the positions it returns (as FENs) and whether the last request was exact. */
function recording(inner: PositionSource, engine: Engine) {
  const log: { kind: 'positions' | 'lastObservation'; exact: boolean; fens: string[] }[] = [];
  const source: PositionSource = {
    name: 'recording',
    observe: (event) => inner.observe(event),
    positions: (k, limits) => {
      const found = inner.positions(k, limits);
      log.push({ kind: 'positions', exact: found.exact, fens: found.handles.map((h) => engine.fen(h)) });
      return found;
    },
    lastObservation: (k, limits) => {
      const found = inner.lastObservation(k, limits);
      log.push({ kind: 'lastObservation', exact: false, fens: found.handles.map((h) => engine.fen(h)) });
      return found;
    },
    refine: (limits) => inner.refine?.(limits),
  };
  return { source, log };
}

describe.each(BACKENDS)('sound position sources on %s', (backend) => {
  it("while the belief is exact krieg evaluates only its positions; HS's top-up adds impossible ones", () => {
    const rules = preset('berkeley');
    const setup: PlayerSetup = {
      side: 'white',
      rules,
      start: START_FEN,
      seed: 5,
      budget: { nodes: 1000 },
      options: parsePlayerSpec('krieg').options,
    };
    const view: View = {
      rules,
      start: START_FEN,
      as: 'white',
      white: '',
      black: '',
      result: '*',
      tags: {},
      events: [],
    };
    const first = (make: (engine: Engine, source: PositionSource) => SamplingPlayer) => {
      const engine = new PlayerEngines(backend).for('white', rules);
      const { source, log } = recording(trackerSource(engine, setup), engine);
      const player = make(engine, source);
      const scratch = createEngine(backend, 8);
      scratch.setFen(1, START_FEN);
      const choice = player.choose(turnOf(view, scratch, 1));
      return { choice, log, stats: player.stats() };
    };
    // the belief before White's first move: the start position alone
    const krieg = first((engine, source) => new KriegPlayer(setup, engine, source));
    expect(krieg.log.length).toBeGreaterThan(0);
    for (const call of krieg.log) {
      expect(call).toMatchObject({ kind: 'positions', exact: true });
      expect(new Set(call.fens)).toEqual(new Set([START_FEN]));
    }
    expect(krieg.stats).toMatchObject({ positions: 1, lastObservation: 0 });
    const hs = first(
      (engine, source) => new SamplingPlayer('hs', setup, engine, source, 'hs', { sample: 16, depth: 0 }),
    );
    const topUp = hs.log.filter((c) => c.kind === 'lastObservation').flatMap((c) => c.fens);
    expect(topUp.some((fen) => fen !== START_FEN)).toBe(true); // outside the exact belief
    expect(hs.stats.lastObservation).toBeGreaterThan(0);
  });
});

describe.each(BACKENDS)('a small belief past the exact layer on %s', (backend) => {
  it("the pool's distinct positions stand in for it: repeats dropped, none past the limit", () => {
    const engine = createEngine(backend, 64);
    const kings = ['8/8/8/8/8/2k5/8/R3K3', '8/8/8/8/8/3k4/8/R3K3', '8/8/8/8/3k4/8/8/R3K3'];
    const fens = [0, 1, 0, 2, 1, 0].map((i, n) => `${kings[i]} w - - ${n} 40`); // clocks differ, boards repeat
    fens.forEach((fen, i) => engine.setFen(20 + i, fen));
    const pool = (exact: boolean): PositionSource => ({
      name: 'pool',
      observe: () => {},
      positions: (k) => ({ handles: fens.slice(0, k).map((_, i) => 20 + i), exact: exact && k >= fens.length }),
      lastObservation: () => ({ handles: [], exact: false }),
    });
    const found = smallBelief(engine, pool(false), {}, 64)!;
    expect(found.exact).toBe(false);
    expect(found.handles.map((h) => engine.fen(h).split(' ')[0])).toEqual(kings);
    expect(smallBelief(engine, pool(false), {}, 2)).toBeUndefined(); // three kings' squares: more than 2
    expect(smallBelief(engine, pool(true), {}, 64)).toMatchObject({ exact: true, handles: [20, 21, 22, 23, 24, 25] });
  });
});

describe.each(BACKENDS)('won endings against random on %s (300 nodes a move, fixed seeds)', (backend) => {
  it.each([
    ['K+Q+P v K+P: krieg promotes and mates (his pawn blocked)', '4k3/8/2P5/8/p7/P7/8/3QK3 w - - 0 1', 21, 120],
    ['K+R v K: krieg mates', '8/8/8/4k3/8/8/8/R3K3 w - - 0 1', 11, 200],
  ] as const)('%s', (_, start, seed, maxPlies) => {
    const { record } = kriegAgainstRandom(backend, {
      rules: preset('berkeley'),
      start,
      seeds: [seed, seed + 1],
      maxPlies,
      engines: new PlayerEngines(backend),
    });
    expect(record.result).toBe('1-0');
  });
});

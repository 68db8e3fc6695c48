// Match statistics (host/players/matchStats.ts) against hand computations: the Wilson score
// interval of a proportion and of the score (wins + ½ draws) as one, the tally from the first
// player's side with alternating colours, the material traced through a record.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../host/node';
import { preset } from '../../host/record/rules';
import { START_FEN } from '../../host/notation/fen';
import type { GameRecord, Result } from '../../host/record/record';
import { wilson, summarize, summaryTable, materialTrace, Z95, type MatchGame } from '../../host/players/matchStats';

describe('confidence intervals', () => {
  it('Wilson, 3 successes in 10: centre (0.3 + z²/20)/(1 + z²/10), half-width z·√(0.021 + z²/400)/(1 + z²/10)', () => {
    // by hand with z = 1.959964: z² = 3.841459; denominator 1.384146; centre 0.492073 / 1.384146 = 0.355507;
    // half-width 1.959964 × √0.030604 / 1.384146 = 0.247718: [0.107789, 0.603225] (the textbook 0.1078 – 0.6032)
    const i = wilson(3, 10);
    expect(i.value).toBe(0.3);
    expect(i.low).toBeCloseTo(0.107789, 5);
    expect(i.high).toBeCloseTo(0.603225, 5);
    expect(Z95).toBeCloseTo(1.959964, 6);
  });

  it('Wilson at the edges stays in [0, 1]: none in 200 is [0, z²/n / (1 + z²/n)] = [0, 1.88%]', () => {
    const none = wilson(0, 200);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.019207 / 1.019207, 5);
    const all = wilson(200, 200);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(1 - 0.019207 / 1.019207, 5);
  });

  it("the score's interval is Wilson's on wins + ½ draws of n: 20 wins in 20 is [83.9%, 100%], not a point", () => {
    // the normal interval of the mean said [100, 100] here (no spread); Wilson at k = n:
    // low = 1 / (1 + z²/n) = 1 / (1 + 3.841459 / 20) = 0.838875
    const twenty = (wins: number, draws: number, losses: number): MatchGame[] =>
      [...Array(wins).fill('1-0'), ...Array(draws).fill('1/2-1/2'), ...Array(losses).fill('0-1')].map(
        (result: Result) => ({
          firstIsWhite: true,
          record: { rules: preset('berkeley'), start: START_FEN, white: '', black: '', result, tags: {}, events: [] },
          material: [],
        }),
      );
    const allSummary = summarize(['P', 'Q'], twenty(20, 0, 0));
    expect(summaryTable(allSummary, 300)).toMatch(/score of P: 100\.0 \[83\.9, 100\.0\]/);
    const all = allSummary.score;
    expect(all.value).toBe(1);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(0.838875, 5);
    const none = summarize(['P', 'Q'], twenty(0, 0, 20)).score;
    expect([none.value, none.low]).toEqual([0, 0]);
    expect(none.high).toBeCloseTo(1 - 0.838875, 5);
    // 15 wins, 5 draws: score 17.5 / 20 = 0.875; z²/n = 0.192073, denominator 1.192073,
    // centre (0.875 + 0.096036) / 1.192073 = 0.814578, half-width
    // 1.959964 × √(0.875 × 0.125 / 20 + 3.841459 / 1600) / 1.192073 = 0.145856: [0.668722, 0.960434]
    const most = summarize(['P', 'Q'], twenty(15, 5, 0)).score;
    expect(most.value).toBe(0.875);
    expect(most.low).toBeCloseTo(0.668722, 5);
    expect(most.high).toBeCloseTo(0.960434, 5);
  });
});

describe('a match summary', () => {
  const record = (result: Result): GameRecord => ({
    rules: preset('berkeley'),
    start: START_FEN,
    white: '',
    black: '',
    result,
    tags: {},
    events: [],
  });
  // games 1, 3 the first player has White; 2, 4, 5… alternate as the match does
  const games: MatchGame[] = [
    {
      firstIsWhite: true,
      record: record('1-0'),
      material: [
        [39, 39],
        [39, 38],
      ],
    }, // first wins as White
    { firstIsWhite: false, record: record('1-0'), material: [[39, 39]] }, // first loses as Black
    {
      firstIsWhite: true,
      record: record('0-1'),
      material: [
        [37, 39],
        [37, 35],
        [30, 35],
      ],
    }, // first loses as White
    {
      firstIsWhite: false,
      record: record('0-1'),
      material: [
        [39, 39],
        [39, 36],
      ],
    }, // first wins as Black
    { firstIsWhite: true, record: record('*'), material: [[39, 39]] }, // stopped at the cap: a draw
    { firstIsWhite: false, record: record('1/2-1/2'), material: [[39, 39]] },
  ];
  const s = summarize(['P', 'Q'], games);

  it("counts wins, losses and draws from the first player's side, the cap games among the draws", () => {
    expect([s.wins, s.losses, s.draws, s.adjudicated, s.games]).toEqual([2, 2, 2, 1, 6]);
    expect(s.winRate.value).toBeCloseTo(2 / 6);
    expect(s.score.value).toBeCloseTo((1 + 0 + 0 + 1 + 0.5 + 0.5) / 6);
    // Wilson on a score of 3 in 6: z²/n = 0.640243, centre (0.5 + 0.320122) / 1.640243 = 0.5,
    // half-width 1.959964 × √(0.25 / 6 + 3.841459 / 144) / 1.640243 = 0.312384
    expect(s.score.low).toBeCloseTo(0.187616, 5);
    expect(s.score.high).toBeCloseTo(0.812384, 5);
  });

  it('averages material by ply over the games still going, by colour, and over all moves', () => {
    // P as White: games 1, 3, 5 → ply 1: (39 + 37 + 39) / 3; ply 2: (39 + 37) / 2; ply 3: 30
    expect(s.players[0].asWhite).toEqual([(39 + 37 + 39) / 3, (39 + 37) / 2, 30]);
    // Q as Black in the same games: ply 1: (39 + 39 + 39) / 3, ply 2: (38 + 35) / 2, ply 3: 35
    expect(s.players[1].asBlack).toEqual([39, (38 + 35) / 2, 35]);
    // P as Black: games 2, 4, 6 → ply 1: 39, ply 2: 36
    expect(s.players[0].asBlack).toEqual([39, 36]);
    const pMoves = [39, 39, 37, 37, 30, 39, 39, 39, 36, 39];
    expect(s.players[0].meanMaterial).toBeCloseTo(pMoves.reduce((a, b) => a + b) / pMoves.length);
  });
});

describe('material traced through a record', () => {
  it('drops by the value of each piece taken (Parker: Q9 R5 B3 N3 P1), promotions included', () => {
    const engine = createEngine('wasm', 8);
    const attempt = (side: 'white' | 'black', uci: string, capture?: number) => ({
      type: 'attempt' as const,
      side,
      attempt: uci,
      percept: { answer: 'legal' as const, ...(capture !== undefined ? { capture } : {}) },
    });
    const rec: GameRecord = {
      rules: preset('berkeley'),
      start: '4k3/1P6/8/3p4/8/4N3/8/4K3 w - - 0 1',
      white: '',
      black: '',
      result: '*',
      tags: {},
      events: [
        attempt('white', 'e3d5', 35),
        attempt('black', 'e8d7'),
        attempt('white', 'b7b8q'),
        attempt('black', 'd7e6'),
      ],
    };
    // White N3 + P1 = 4, Black P1; the knight takes the pawn; the pawn becomes a queen: 3 + 9
    expect(materialTrace(engine, rec)).toEqual([
      [4, 0],
      [4, 0],
      [12, 0],
      [12, 0],
    ]);
  });
});

// A match's statistics, as Parker, Nau & Subrahmanian (2005, Figs. 2–3) report theirs: wins,
// losses and draws of the first player with 95% confidence intervals, and each player's material
// (queen 9, rook 5, bishop 3, knight 3, pawn 1) after every move.
//
// Intervals: each of the win, loss and draw rates is a binomial proportion, given with its Wilson
// score interval (it stays inside [0, 1] and keeps its coverage near 0 and 1, where Parker's
// 0 ± 0.3% losses sit); the score (a win 1, a draw ½) gets the same Wilson interval, of the score
// as a proportion: (wins + ½ draws) out of n. It never collapses to a point at 0% or 100% (the
// normal interval mean ± 1.96 s/√n said [100, 100] at 20 wins in 20 games: s = 0), and it is
// conservative: a score in [0, 1] of mean p has a variance of at most p(1 − p), less with draws.
import type { Engine } from '../engine';
import type { GameRecord, Side } from '../record/record';
import { materialOf } from './game';
import { replaySetups } from '../referee/replay';

/** The 97.5% quantile of the standard normal distribution. */
export const Z95 = 1.959963984540054;

/** A rate and its 95% confidence interval. */
export interface Interval {
  value: number;
  low: number;
  high: number;
}

/** The Wilson score interval (95%) of `k` successes in `n` trials (`k` may be a score: wins + ½ draws). */
export function wilson(k: number, n: number, z = Z95): Interval {
  if (n === 0) return { value: 0, low: 0, high: 1 };
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  // at k = 0 and k = n one end is exactly 0 or 1 (the formula's rounding leaves ~1e-18)
  return { value: p, low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}

/** One game of a match as the statistics see it. */
export interface MatchGame {
  /** Which of the two players had White: 0 the first, 1 the second. */
  firstIsWhite: boolean;
  record: GameRecord;
  /** Material of White and Black after each ply (index 0: after the first move). */
  material: [number, number][];
}

export interface PlayerSummary {
  name: string;
  /** Mean material after a move, over every move of every game (both colours). */
  meanMaterial: number;
  /** Mean material after ply t (index t − 1) over the games still going then, as White and as Black. */
  asWhite: number[];
  asBlack: number[];
}

export interface MatchSummary {
  games: number;
  /** Of the first player. */
  wins: number;
  losses: number;
  draws: number;
  /** Games stopped at the ply cap (counted as draws). */
  adjudicated: number;
  winRate: Interval;
  lossRate: Interval;
  drawRate: Interval;
  /** The first player's score per game (win 1, draw ½, loss 0). */
  score: Interval;
  players: [PlayerSummary, PlayerSummary];
}

/** Material of both sides after each ply, replaying the record's legal moves (records `scratch`, `scratch + 1`). */
export function materialTrace(engine: Engine, record: GameRecord, scratch = 0): [number, number][] {
  return replaySetups(engine, record, scratch)
    .slice(1)
    .map((setup) => materialOf(setup.board));
}

function curve(games: MatchGame[], side: (g: MatchGame) => Side | undefined): number[] {
  const sums: number[] = [];
  const counts: number[] = [];
  for (const g of games) {
    const s = side(g);
    if (!s) continue;
    g.material.forEach((m, t) => {
      sums[t] = (sums[t] ?? 0) + m[s === 'white' ? 0 : 1];
      counts[t] = (counts[t] ?? 0) + 1;
    });
  }
  return sums.map((sum, t) => sum / counts[t]);
}

export function summarize(names: [string, string], games: MatchGame[]): MatchSummary {
  let wins = 0;
  let losses = 0;
  let draws = 0;
  let adjudicated = 0;
  for (const g of games) {
    const result = g.record.result;
    const firstWon = (result === '1-0' && g.firstIsWhite) || (result === '0-1' && !g.firstIsWhite);
    const firstLost = (result === '0-1' && g.firstIsWhite) || (result === '1-0' && !g.firstIsWhite);
    if (firstWon) wins++;
    else if (firstLost) losses++;
    else {
      draws++;
      if (result === '*') adjudicated++;
    }
  }
  const n = games.length;
  const player = (index: 0 | 1): PlayerSummary => {
    const colour = (g: MatchGame): Side => ((g.firstIsWhite ? 0 : 1) === index ? 'white' : 'black');
    let sum = 0;
    let count = 0;
    for (const g of games)
      for (const m of g.material) {
        sum += m[colour(g) === 'white' ? 0 : 1];
        count++;
      }
    return {
      name: names[index],
      meanMaterial: count ? sum / count : 0,
      asWhite: curve(games, (g) => (colour(g) === 'white' ? 'white' : undefined)),
      asBlack: curve(games, (g) => (colour(g) === 'black' ? 'black' : undefined)),
    };
  };
  return {
    games: n,
    wins,
    losses,
    draws,
    adjudicated,
    winRate: wilson(wins, n),
    lossRate: wilson(losses, n),
    drawRate: wilson(draws, n),
    score: wilson(wins + draws / 2, n),
    players: [player(0), player(1)],
  };
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const interval = (i: Interval) => `${percent(i.value)} [${percent(i.low)}, ${percent(i.high)}]`;

/** The summary as a text table. */
export function summaryTable(s: MatchSummary, maxPlies: number): string {
  const [p, q] = s.players;
  const rows = [
    `${p.name} v ${q.name}: ${s.games} games (alternating colours)`,
    '',
    `| ${p.name} | games | rate | 95% interval (Wilson) |`,
    '|---|---:|---:|---|',
    `| wins | ${s.wins} | ${percent(s.winRate.value)} | ${percent(s.winRate.low)} – ${percent(s.winRate.high)} |`,
    `| losses | ${s.losses} | ${percent(s.lossRate.value)} | ${percent(s.lossRate.low)} – ${percent(s.lossRate.high)} |`,
    `| draws | ${s.draws} | ${percent(s.drawRate.value)} | ${percent(s.drawRate.low)} – ${percent(s.drawRate.high)} |`,
    '',
    `score of ${p.name}: ${interval(s.score).replace(/%/g, '')} (win 1, draw ½; 95% Wilson interval of the score as a proportion, ×100)`,
    `draws include ${s.adjudicated} game${s.adjudicated === 1 ? '' : 's'} stopped at the ${maxPlies}-ply cap and adjudicated drawn`,
    '',
    '| player | mean material per move (Q9 R5 B3 N3 P1) |',
    '|---|---:|',
    `| ${p.name} | ${p.meanMaterial.toFixed(2)} |`,
    `| ${q.name} | ${q.meanMaterial.toFixed(2)} |`,
  ];
  return rows.join('\n') + '\n';
}

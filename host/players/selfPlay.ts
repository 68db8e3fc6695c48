// The two self-play programs that make the checkmate problem database (issue 7; SPEC §7; Russell &
// Wolfe 2005 §3), as blind Players (player.ts) of the game runner. The per-position work (legality, the
// 2-ply evaluation, captures and checks) is the core's scoreAttempts (assembly/players/score.ts);
// here are only the choices.
//
// White: exact state estimation (breadth-first, from its view, before every attempt) and the core's
// evaluation with 2-ply lookahead averaged over its belief (a seeded sample of SAMPLE positions when
// larger). In order of preference, among attempts not yet tried this turn:
//   1. an attempt that mates in every position where it is legal (if Illegal, White learns);
//   2. a hint: an attempt legal in at most HINT_SHARE of the belief, nearly as good as the best
//      move where it is legal (at most HINT_MARGIN worse) — likely Illegal, which shrinks the belief
//      (at most MAX_HINTS a turn);
//   3. the best average evaluation among attempts legal in at least half the belief (else among all
//      attempts legal somewhere); with probability EXPLORE a random attempt instead, so that games
//      from one setup differ.
// With `oracleHints` (the database generator only: R&W footnote 6, "we add extra illegal move
// attempts to White's move history as hints"), before 2 and 3, up to that many attempts a turn that
// are Illegal on the true board and legal in the most positions of White's sample, so each Illegal
// answer cuts the belief as much as one can. The true board comes in through the `Oracle` the
// generator hands White's program (its one window on the board, which no other player has).
// Such a history is an ordinary game (White attempted moves the referee refused); only the choice
// of those attempts saw the board.
// White's belief above `dropBelief` positions throws BeliefTooLarge (the game is dropped).
//
// Black: much weaker. It tracks a bounded part of its belief: at most TRACKED positions sampled
// depth-first (seeded, work-limited) at the start of each turn, and attempts first the moves that
// capture or check in most of them, the rest at random.
import type { Engine } from '../engine';
import { fail } from '../errors';
import { scoreAttempts } from '../core/scorer';
import { POSITION_WORDS } from '../constants';
import type { View } from '../record/record';
import type { Player } from './player';
import { estimateBelief, sampleBelief } from '../belief/estimate';

export const SAMPLE = 48;
const HINT_SHARE = 0.25;
const HINT_MARGIN = 60;
const MAX_HINTS = 3;
const EXPLORE = 0.1;
const TRACKED = 8;
const BLACK_WORK = 200_000;
/** Work limit of White's estimation (positions generated and tested), against pathological views. */
const WHITE_WORK = 50_000_000;

export class BeliefTooLarge extends Error {
  constructor(readonly size: string) {
    super(`White's belief exceeds ${size} positions`);
  }
}

/** What the scorer says of one attempt over a set of positions. */
interface AttemptScore {
  attempt: number;
  legal: number;
  tactical: number;
  mean: number;
  mates: number;
}

/** The engines the programs compute in, their own (never the referee's). */
export interface SelfPlayEngines {
  /** Estimation and scoring (its arena is overwritten at every choice). */
  work: Engine;
  /** Positions copied here are scored (SAMPLE + 2 records at least). */
  scorer: Engine;
}

/**
 * The database generator's window on the true board (R&W footnote 6: "we add extra illegal move
 * attempts to White's move history as hints"): the generator makes it from its game's session and
 * hands it to White's program for its oracle hints. Only the generator has one; a Player is
 * otherwise blind.
 */
export interface Oracle {
  /** Whether `attempt` of the side to move is legal on the true board now. */
  legalOnBoard(attempt: number): boolean;
}

/** Scores every attempt over positions `handles` of the work engine (copied into the scorer). */
function scoreOver(
  engines: Pick<SelfPlayEngines, 'work' | 'scorer'>,
  handles: number[],
  lookahead: boolean,
): AttemptScore[] {
  const { work, scorer } = engines;
  const from = work.positions;
  const to = scorer.positions;
  handles.forEach((h, k) => to.set(from.subarray(h * POSITION_WORDS, (h + 1) * POSITION_WORDS), k * POSITION_WORDS));
  return scoreAttempts(scorer, 0, handles.length, handles.length, lookahead).map((s) => ({
    attempt: s.attempt,
    legal: s.legal,
    tactical: s.tactical,
    mean: s.legal ? s.evalSum / s.legal : -Infinity,
    mates: s.mates,
  }));
}

/** `k` of `items` chosen without replacement (seeded), in their original order. */
function sample<T>(items: T[], k: number, random: () => number): T[] {
  if (items.length <= k) return items;
  const picked = new Set<number>();
  while (picked.size < k) picked.add(Math.floor(random() * items.length));
  return [...picked].sort((a, b) => a - b).map((i) => items[i]);
}

/** The best of `candidates` by `key` (higher is better), ties broken at random. */
function best<T>(candidates: T[], key: (t: T) => number, random: () => number): T | undefined {
  let top: T[] = [];
  let topKey = -Infinity;
  for (const c of candidates) {
    const k = key(c);
    if (k > topKey) {
      top = [c];
      topKey = k;
    } else if (k === topKey) top.push(c);
  }
  return top.length ? top[Math.floor(random() * top.length)] : undefined;
}

/** What White saw at the start of one of its turns: its view then and its exact belief. */
export interface WhiteTurn {
  view: View;
  positions: string[] | undefined;
  size: number;
}

export interface WhiteOptions {
  start: string;
  /** A belief larger than this throws BeliefTooLarge. */
  dropBelief: number;
  /** At each turn's start, the belief is reported, with its positions when at most this many. */
  reportBelief: number;
  onTurn?: (turn: WhiteTurn) => void;
  /** Hints: at most `max` a turn (default MAX_HINTS), each legal in at most `share` of the belief (default HINT_SHARE). */
  hints?: { max: number; share: number };
  /** Attack: added to an attempt's mean evaluation per unit of the share of positions where it captures or checks (default 0). */
  attack?: number;
  /** Oracle hints a turn (the file comment; absent: none), read from `oracle`. */
  oracleHints?: number;
  /** The generator's window on the true board (the oracle hints' only source). */
  oracle?: Oracle;
}

/** What White's program keeps from one attempt of a turn to the next. */
export interface WhiteState {
  hints: number;
  oracleHints?: number;
}

/**
 * One choice of White's program (the file comment), from its view alone: `attempts` are those not
 * yet rejected this turn, `tried` those rejected. With `sampleWhenLarge`, a belief over
 * `dropBelief` positions (or past the work limit) is replaced by a sample of SAMPLE positions
 * (krieg's `rw` player, host/players/rw.ts); otherwise it throws BeliefTooLarge (the database).
 */
export function whiteChoice(
  engines: Pick<SelfPlayEngines, 'work' | 'scorer'>,
  view: View,
  attempts: number[],
  tried: number[],
  random: () => number,
  state: WhiteState,
  options: WhiteOptions & { sampleWhenLarge?: boolean; work?: number },
): number {
  const belief = estimateBelief(engines.work, view, 'bfs', {
    positions: options.dropBelief,
    work: options.work ?? WHITE_WORK,
  });
  let handles = belief.handles;
  let size = handles.length;
  if (belief.outcome === 'limit-positions' || belief.outcome === 'limit-work') {
    if (!options.sampleWhenLarge) throw new BeliefTooLarge(String(options.dropBelief));
    const sampled = sampleBelief(engines.work, view, SAMPLE, Math.floor(random() * 2 ** 31), {
      work: options.work ?? WHITE_WORK,
    });
    if (sampled.outcome === 'inconsistent') throw fail('self-play', { side: view.as, outcome: sampled.outcome });
    handles = sampled.handles;
    size = Math.max(options.dropBelief + 1, handles.length);
  } else if (belief.outcome !== 'complete') throw fail('self-play', { side: view.as, outcome: belief.outcome });
  if (tried.length === 0) {
    state.hints = 0;
    state.oracleHints = 0;
    const positions = size <= options.reportBelief ? handles.map((h) => engines.work.fen(h)) : undefined;
    options.onTurn?.({ view, positions, size });
  }
  const triedSet = new Set(tried);
  const scores = handles.length
    ? scoreOver(engines, sample(handles, SAMPLE, random), true).filter((s) => !triedSet.has(s.attempt) && s.legal > 0)
    : [];
  const n = Math.min(size, SAMPLE, Math.max(1, handles.length));
  const attack = options.attack ?? 0;
  const value = (s: AttemptScore) => s.mean + (attack && s.legal ? (attack * s.tactical) / s.legal : 0);
  const mating = best(
    scores.filter((s) => s.mates === s.legal),
    (s) => s.legal,
    random,
  );
  if (mating) return mating.attempt;
  if (options.oracleHints && options.oracle && size > 1 && (state.oracleHints ?? 0) < options.oracleHints) {
    const oracle = options.oracle;
    const cut = best(
      scores.filter((s) => !oracle.legalOnBoard(s.attempt)),
      (s) => s.legal,
      random,
    );
    if (cut) {
      state.oracleHints = (state.oracleHints ?? 0) + 1;
      return cut.attempt;
    }
  }
  if (random() < EXPLORE) return attempts[Math.floor(random() * attempts.length)];
  const likely = scores.filter((s) => s.legal * 2 >= n);
  const main = best(likely.length ? likely : scores, value, random);
  if (!main) return attempts[0];
  if (state.hints < (options.hints?.max ?? MAX_HINTS)) {
    const share = options.hints?.share ?? HINT_SHARE;
    const hint = best(
      scores.filter((s) => s.legal <= share * n && value(s) >= value(main) - HINT_MARGIN),
      value,
      random,
    );
    if (hint) {
      state.hints++;
      return hint.attempt;
    }
  }
  return main.attempt;
}

/**
 * White: exact belief, 2-ply evaluation, hints (see the file comment). `random` is the game's one
 * stream, which White and Black draw from in turn (the generator's games were made so).
 */
export function whitePlayer(engines: SelfPlayEngines, random: () => number, options: WhiteOptions): Player {
  const state: WhiteState = { hints: 0 };
  return {
    name: 'krieg-white',
    observe() {
      /* White estimates from the whole view at each choice */
    },
    choose: (turn) => whiteChoice(engines, turn.view, turn.attempts, turn.tried, random, state, options),
  };
}

/** Black: a bounded tracked belief, captures and checks first (see the file comment); `random` as White's. */
export function blackPlayer(engines: SelfPlayEngines, random: () => number): Player {
  let order: number[] = [];
  return {
    name: 'krieg-black',
    observe() {
      /* Black samples from the whole view at each turn's start */
    },
    choose(turn) {
      if (turn.tried.length === 0) {
        const tracked = sampleBelief(engines.work, turn.view, TRACKED, Math.floor(random() * 2 ** 31), {
          work: BLACK_WORK,
        });
        const scores = tracked.handles.length ? scoreOver(engines, tracked.handles, false) : [];
        const tactical = new Map(scores.map((s) => [s.attempt, s.tactical]));
        // shuffled, then (a stable sort) the most often tactical first
        order = turn.attempts
          .map((a) => ({ a, key: random() }))
          .sort((p, q) => p.key - q.key)
          .map(({ a }) => a)
          .sort((a, b) => (tactical.get(b) ?? 0) - (tactical.get(a) ?? 0));
      }
      const tried = new Set(turn.tried);
      return order.find((a) => !tried.has(a)) ?? turn.attempts[0];
    },
  };
}

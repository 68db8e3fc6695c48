// The players' part of the core's ABI (assembly/players/search.ts, choose.ts) as host values: the
// fully observable search and choose-move (Parker et al. Fig. 1), budgets in, values out, statuses
// as errors (here, once). With host/engine.ts and the other files of host/core/, the only host
// code that calls the core's exports.
import { hex64, type Engine } from '../engine';
import { fail } from '../errors';
import { makeUci } from '../notation/move';
import {
  SEARCH_OK,
  SEARCH_NODE_LIMIT,
  SEARCH_BAD_HANDLE,
  SEARCH_BAD_DEPTH,
  MAX_DEPTH,
  MATE,
  MATE_BOUND,
  CHOOSE_OK,
  CHOOSE_BAD_HANDLE,
  CHOOSE_BAD_DEPTH,
  CHOOSE_TOO_MANY,
  CHOOSE_OTHER_BOARD,
  CHOOSE_NOT_BEGUN,
  CHOOSE_MAX_POSITIONS,
  MAX_MOVES,
  MAX_RUN_POSITIONS,
  CHOICE_WORDS,
  C_LEGAL,
  C_SUM,
  C_MATES,
  C_MATED,
  C_TACTICAL,
  C_CAPTURES,
  C_MIN,
  C_MAX,
  NOT_LEGAL,
} from '../constants';

export { MATE, MATE_BOUND, NOT_LEGAL } from '../constants';

/** The error of each CHOOSE_* status (every one a caller's bug). */
const CHOOSE_ERRORS = {
  [CHOOSE_BAD_HANDLE]: {
    id: 'choose-bad-handle',
    text: 'a position or the search stack lies outside the arena, or they overlap',
  },
  [CHOOSE_BAD_DEPTH]: {
    id: 'choose-bad-depth',
    text: `the depth must be 0 to ${MAX_DEPTH} and the node budget non-negative`,
  },
  [CHOOSE_TOO_MANY]: {
    id: 'choose-too-many',
    text: `more positions than one call (${CHOOSE_MAX_POSITIONS}) or one run (${MAX_RUN_POSITIONS}) takes`,
  },
  [CHOOSE_OTHER_BOARD]: {
    id: 'choose-other-board',
    text: "a position whose own pieces or side to move differ from the run's",
  },
  [CHOOSE_NOT_BEGUN]: { id: 'choose-not-begun', text: 'chooseAdd before chooseBegin' },
} as const;

function chooseError(status: number) {
  const error = CHOOSE_ERRORS[status as keyof typeof CHOOSE_ERRORS];
  return error ? fail(error.id, { text: `choose-move: ${error.text}` }) : fail('choose-status', { status });
}

/** The static evaluation of `handle` (centipawns for the side to move). */
export function evaluatePosition(engine: Engine, handle: number): number {
  return engine.core.exports.evaluatePosition(handle) | 0;
}

/** Clears the search's transposition table (2^bits entries), killers and history. */
export function resetSearch(engine: Engine, bits: number): void {
  engine.core.exports.searchReset(bits);
}

export interface SearchBudget {
  /** Plies of the main search (iterative deepening up to it). */
  depth: number;
  /** Nodes per search (0 or absent: no limit); past it the last completed depth answers. */
  nodes?: number;
}

export interface SearchResult {
  /** node-limit: the budget stopped a deeper iteration; the result is the last depth completed. */
  status: 'ok' | 'node-limit';
  /** Centipawns for the side to move; ±(MATE − plies) for a forced mate. */
  value: number;
  move: number;
  uci: string;
  depth: number;
  nodes: number;
}

/** Plies to a forced mate (positive: the side to move mates), or undefined. */
export function mateIn(value: number): number | undefined {
  if (value > MATE_BOUND) return MATE - value;
  if (value < -MATE_BOUND) return -(MATE + value);
  return undefined;
}

/** Records a search stack uses (the caller keeps them free of positions it needs). */
export function stackRecords(engine: Engine): number {
  return engine.core.exports.searchStackRecords();
}

/** Alpha-beta search of position `handle`, with its stack at records `stack` … (default: the arena's top). */
export function searchPosition(
  engine: Engine,
  handle: number,
  budget: SearchBudget,
  stack = engine.capacity - stackRecords(engine),
): SearchResult {
  const x = engine.core.exports;
  const status = x.searchPosition(handle, stack, budget.depth, budget.nodes ?? 0);
  if (status === SEARCH_BAD_DEPTH) throw fail('search-bad-depth', { depth: budget.depth, max: MAX_DEPTH });
  if (status === SEARCH_BAD_HANDLE) throw fail('search-bad-handle', { handle, stack });
  if (status !== SEARCH_OK && status !== SEARCH_NODE_LIMIT) throw fail('search-status', { status });
  const move = x.searchBestMove();
  return {
    status: status === SEARCH_OK ? 'ok' : 'node-limit',
    value: x.searchValue() | 0,
    move,
    uci: move ? makeUci(move) : '',
    depth: x.searchDepth(),
    nodes: x.searchNodes(),
  };
}

/** What choose-move found for one attempt over the positions added so far. */
export interface AttemptValue {
  attempt: number;
  /** Positions where it is legal, and the sum of the values after it there (for the mover). */
  legal: number;
  sum: number;
  /** sum / legal (−Infinity where never legal). */
  mean: number;
  /** Positions where it leads to a forced mate for the mover / against him. */
  mates: number;
  mated: number;
  /** Positions where it captures or gives check; where it captures. */
  tactical: number;
  captures: number;
  min: number;
  max: number;
  /**
   * The mean over those positions of each value's expected score (expectedScore: a mate 1, being
   * mated 0, a centipawn value through a logistic curve); from `over` only.
   */
  score?: number;
  /**
   * The mean over those positions of each value clipped to ±PROGRESS_CLIP (a forced mate counts
   * +PROGRESS_CLIP, being mated −PROGRESS_CLIP): what a won game's score, near 1 everywhere, no
   * longer tells apart (a promotion, a pawn taken, a mate in some positions); from `over` only.
   */
  progress?: number;
  /** The share of the threat screen's positions where it mates, a mate in two counted in part (krieg's values.ts withScreenMates). */
  mateShare?: number;
}

/** Centipawns over which the expected score moves from ½ to 1 / (1 + 10^-1) ≈ 0.91. */
export const SCORE_SCALE = 400;

/** Centipawns a value is clipped to in AttemptValue.progress (a mate counts this much). */
export const PROGRESS_CLIP = 10_000;

/** A value clipped to ±PROGRESS_CLIP (mates to the bound). */
export function progressOf(value: number): number {
  return Math.max(-PROGRESS_CLIP, Math.min(PROGRESS_CLIP, value));
}

/**
 * A value (for the mover) as an expected score in [0, 1] (issue #34): a forced mate for him 1,
 * against him 0, otherwise 1 / (1 + 10^(−v / SCORE_SCALE)) — bounded, so that a mate in some
 * positions counts as a win there and no more, and a lost rook costs most where the game was won.
 */
export function expectedScore(value: number): number {
  if (value > MATE_BOUND) return 1;
  if (value < -MATE_BOUND) return 0;
  return 1 / (1 + Math.pow(10, -value / SCORE_SCALE));
}

/**
 * One choose-move run (Parker et al. Fig. 1) in the core: begin on a position of the player's own
 * board, add positions (handles) in as many calls as wanted, read the rows. `values` keeps, per
 * position added, its value row (NOT_LEGAL where an attempt is illegal), so the host can average
 * again over a subset — after an Illegal answer — without searching again.
 */
export class ChooseRun {
  readonly attempts: number[];
  /** Per position added: its handle and its values by attempt row. */
  readonly positions: { handle: number; values: Int32Array }[] = [];
  nodes = 0;

  constructor(
    private readonly engine: Engine,
    handle: number,
    private readonly budget: SearchBudget,
    private readonly stack: number,
  ) {
    const x = engine.core.exports;
    const n = x.chooseBegin(handle);
    if (n < 0) throw fail('choose-bad-handle', { text: `choose-move: position ${handle} outside the arena` });
    this.attempts = Array.from(engine.core.view(x.chooseAttemptBuffer()).subarray(0, n));
  }

  /** Searches after every legal move of the positions `handles` and adds them to the run. */
  add(handles: number[]): void {
    const x = this.engine.core.exports;
    for (let from = 0; from < handles.length; from += CHOOSE_MAX_POSITIONS) {
      const part = handles.slice(from, from + CHOOSE_MAX_POSITIONS);
      this.engine.core.view(x.chooseHandleBuffer()).set(part);
      const status = x.chooseAdd(part.length, this.stack, this.budget.depth, this.budget.nodes ?? 0);
      if (status !== CHOOSE_OK) throw chooseError(status);
      this.nodes += x.searchNodes();
      const values = this.engine.core.view(x.chooseValueBuffer());
      const n = this.attempts.length;
      const stride = this.engine.maxMoves;
      part.forEach((handle, i) => this.positions.push({ handle, values: values.slice(i * stride, i * stride + n) }));
    }
  }

  /** The core's rows: every attempt over every position added. */
  rows(): AttemptValue[] {
    const rows = this.engine.core.view(this.engine.core.exports.chooseBuffer());
    return this.attempts.map((attempt, i) => {
      const r = i * CHOICE_WORDS;
      const legal = rows[r + C_LEGAL];
      return {
        attempt,
        legal,
        sum: rows[r + C_SUM],
        mean: legal ? rows[r + C_SUM] / legal : -Infinity,
        mates: rows[r + C_MATES],
        mated: rows[r + C_MATED],
        tactical: rows[r + C_TACTICAL],
        captures: rows[r + C_CAPTURES],
        min: rows[r + C_MIN],
        max: rows[r + C_MAX],
      };
    });
  }

  /**
   * Averages again over the positions added that `keep` accepts (from the stored values): legal,
   * sum, mean, min and max per attempt (mates and mated from the values; tactical and captures
   * are not kept per position and read 0), the mean expected score and the mean clipped value.
   */
  over(keep: (values: Int32Array, index: number) => boolean): AttemptValue[] {
    const out: AttemptValue[] = this.attempts.map((attempt) => ({
      attempt,
      legal: 0,
      sum: 0,
      mean: -Infinity,
      mates: 0,
      mated: 0,
      tactical: 0,
      captures: 0,
      min: MATE + 1,
      max: -MATE - 1,
      score: 0,
      progress: 0,
    }));
    this.positions.forEach(({ values }, index) => {
      if (!keep(values, index)) return;
      for (let i = 0; i < out.length; i++) {
        const v = values[i];
        if (v === NOT_LEGAL) continue;
        const a = out[i];
        a.legal++;
        a.sum += v;
        a.score! += expectedScore(v);
        a.progress! += progressOf(v);
        if (v > MATE_BOUND) a.mates++;
        if (v < -MATE_BOUND) a.mated++;
        if (v < a.min) a.min = v;
        if (v > a.max) a.max = v;
      }
    });
    for (const a of out)
      if (a.legal) [a.mean, a.score, a.progress] = [a.sum / a.legal, a.score! / a.legal, a.progress! / a.legal];
    return out;
  }

  /** The row of `attempt` (undefined: not an attempt of this board). */
  rowOf(attempt: number): number | undefined {
    const i = this.attempts.indexOf(attempt);
    return i < 0 ? undefined : i;
  }
}

/** What the threat screen found for one attempt (chooseThreats). */
export interface ThreatCount {
  /** Positions where the attempt is a legal move; those where the opponent then has a mating reply. */
  legal: number;
  mated: number;
  /** Replies made (the screen's work). */
  replies: number;
  /** Positions where it stalemates the opponent (where stalemate is a draw). */
  stalemated: number;
  /** The material (centipawns) the opponent's best capture or promotion wins, summed over the positions (not mated; choose.ts chooseThreats). */
  loss: number;
  /**
   * The same with per position his best capture of the moved man plus his best capture of another,
   * less what the attempt took (a one-step exchange each): the greater alone hides the moved man's
   * risk where another man of the mover's hangs.
   */
  lossBoth?: number;
  /**
   * Positions (not counted in `stalemated`) where he has a piece and the attempt, not a check,
   * leaves his king boxed by the mover's men and his pawns, his pieces left off: a stalemate if the
   * piece is one the belief gives him but he no longer has (values.ts counts them with a crushing edge).
   */
  boxed?: number;
  /** Positions (not mated) where the moved man can be taken at a loss: his best capture of it wins more than the attempt took. */
  lost?: number;
  /** The squares his king may stand on after his reply, over the positions (bit s: square s; a BigInt-free pair). */
  regionLow: number;
  regionHigh: number;
  /** Positions where the attempt ends the game drawn (the material left, fifty moves); where he then has a reply that does. */
  drawnNow?: number;
  drawnReply?: number;
  /** Against king and pawns: his king's room after the attempt (the squares it reaches through squares the mover does not attack), summed over the positions. */
  room?: number;
  /** Per position where the attempt is legal: the key after it (16 hex digits) and the halfmove clock. */
  after?: { key: string; clock: number }[];
}

/** countMates' counts for one attempt over the screened positions. */
export interface MateCount {
  /** Positions where the attempt is a legal move. */
  legal: number;
  /** ... where it then mates the opponent. */
  mates: number;
  /** ... where it checks and each of his replies leaves a mate in one (counted with `inTwo` only). */
  matesInTwo: number;
}

/**
 * The screen's mates (assembly/players/choose.ts chooseMates): over positions `handles`, per attempt
 * of `attempts`, the positions where it is a legal move and those where it then mates the opponent;
 * with `inTwo` also those where it checks and each of his replies leaves a mate in one.
 * Records `stack` … `stack` + 2 are scratch (default: the top of the arena, the search stack's).
 */
export function countMates(
  engine: Engine,
  handles: number[],
  attempts: number[],
  stack = engine.capacity - stackRecords(engine),
  inTwo = false,
): Map<number, MateCount> {
  const x = engine.core.exports;
  const counts = new Map(attempts.map((attempt) => [attempt, { legal: 0, mates: 0, matesInTwo: 0 }]));
  const list = [...counts.keys()].slice(0, MAX_MOVES);
  engine.core.view(x.mateAttemptBuffer()).set(list);
  for (let from = 0; from < handles.length; from += CHOOSE_MAX_POSITIONS) {
    const part = handles.slice(from, from + CHOOSE_MAX_POSITIONS);
    engine.core.view(x.chooseHandleBuffer()).set(part);
    const status = x.chooseMates(part.length, list.length, stack, inTwo ? 1 : 0);
    if (status !== CHOOSE_OK) throw chooseError(status);
    const out = engine.core.view(x.mateCountBuffer());
    list.forEach((attempt, i) => {
      const c = counts.get(attempt)!;
      c.legal += out[3 * i];
      c.mates += out[3 * i + 1];
      c.matesInTwo += out[3 * i + 2];
    });
  }
  return counts;
}

/**
 * The threat screen (assembly/players/choose.ts chooseThreats): over positions `handles`, in how
 * many `attempt` is legal and leaves the opponent a reply that mates the mover; where it
 * stalemates him, what his best capture wins, where his king may then be; where it draws or lets
 * him draw at once, and the key and clock after it in each position. Records `stack`
 * and `stack` + 1 are scratch (default: the top of the arena, the search stack's).
 */
export function countThreats(
  engine: Engine,
  handles: number[],
  attempt: number,
  stack = engine.capacity - stackRecords(engine),
): ThreatCount {
  const x = engine.core.exports;
  const count = {
    legal: 0,
    mated: 0,
    replies: 0,
    stalemated: 0,
    loss: 0,
    regionLow: 0,
    regionHigh: 0,
    drawnNow: 0,
    drawnReply: 0,
    room: 0,
    lost: 0,
    lossBoth: 0,
    boxed: 0,
    after: [] as { key: string; clock: number }[],
  };
  for (let from = 0; from < handles.length; from += CHOOSE_MAX_POSITIONS) {
    const part = handles.slice(from, from + CHOOSE_MAX_POSITIONS);
    engine.core.view(x.chooseHandleBuffer()).set(part);
    const status = x.chooseThreats(part.length, stack, attempt);
    if (status !== CHOOSE_OK) throw chooseError(status);
    count.legal += x.threatLegalCount();
    count.mated += x.threatMatedCount();
    count.replies += x.threatReplyCount();
    count.stalemated += x.threatStalematedCount();
    count.loss += x.threatLoss();
    count.regionLow |= x.threatRegionLow();
    count.regionHigh |= x.threatRegionHigh();
    count.drawnNow += x.threatDrawnNowCount();
    count.drawnReply += x.threatDrawnReplyCount();
    count.room += x.threatRoom();
    count.lost += x.threatLost();
    count.lossBoth += x.threatLossBoth();
    count.boxed += x.threatBoxedCount();
    const after = engine.core.view(x.threatAfterBuffer());
    for (let i = 0; i < part.length; i++) {
      const clock = after[i * 3 + 2];
      if (clock >= 0) count.after.push({ key: hex64(after[i * 3 + 1], after[i * 3]), clock });
    }
  }
  return count;
}

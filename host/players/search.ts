// The host side of the players' fully observable search and of choose-move (the core's
// assembly/players/search.ts and choose.ts): budgets in, values out, statuses as KriegErrors.
import type { Engine } from '../engine';
import { KriegError } from '../errors';
import { makeUci } from '../notation/move';

// core constants (assembly/players/search.ts, choose.ts)
export const MATE = 30000;
export const MATE_BOUND = MATE - 1000;
const SEARCH_STATUS = ['ok', 'node-limit', 'bad-handle', 'bad-depth'] as const;
const CHOOSE_STATUS = ['ok', 'bad-handle', 'bad-depth', 'too-many', 'other-board', 'not-begun'] as const;
const CHOOSE_MESSAGES: Record<string, string> = {
  'bad-handle': 'a position or the search stack lies outside the arena, or they overlap',
  'bad-depth': 'the depth must be 0 to 40 and the node budget non-negative',
  'too-many': 'more positions than one call (1,024) or one run (65,536) takes',
  'other-board': 'a position whose own pieces or side to move differ from the run\'s',
  'not-begun': 'chooseAdd before chooseBegin',
};
export const CHOICE_WORDS = 8;
export const CHOOSE_MAX_POSITIONS = 1024;
export const NOT_LEGAL = -(1 << 30);

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
export function stackRecords(engine: Engine): number { return engine.core.exports.searchStackRecords(); }

/** Alpha-beta search of position `handle`, with its stack at records `stack` … (default: the arena's top). */
export function searchPosition(engine: Engine, handle: number, budget: SearchBudget, stack = engine.capacity - stackRecords(engine)): SearchResult {
  const x = engine.core.exports;
  const status = SEARCH_STATUS[x.searchPosition(handle, stack, budget.depth, budget.nodes ?? 0)];
  if (status !== 'ok' && status !== 'node-limit') throw new KriegError(`search-${status}`, status === 'bad-depth' ? `search depth must be 1 to 40, got ${budget.depth}` : `position ${handle} or stack ${stack} outside the arena`);
  const move = x.searchBestMove();
  return { status, value: x.searchValue() | 0, move, uci: move ? makeUci(move) : '', depth: x.searchDepth(), nodes: x.searchNodes() };
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

  constructor(private readonly engine: Engine, handle: number, private readonly budget: SearchBudget, private readonly stack: number) {
    const x = engine.core.exports;
    const n = x.chooseBegin(handle);
    if (n < 0) throw new KriegError('choose-bad-handle', `position ${handle} outside the arena`);
    this.attempts = Array.from(engine.core.view(x.chooseAttemptBuffer()).subarray(0, n));
  }

  /** Searches after every legal move of the positions `handles` and adds them to the run. */
  add(handles: number[]): void {
    const x = this.engine.core.exports;
    for (let from = 0; from < handles.length; from += CHOOSE_MAX_POSITIONS) {
      const part = handles.slice(from, from + CHOOSE_MAX_POSITIONS);
      this.engine.core.view(x.chooseHandleBuffer()).set(part);
      const status = CHOOSE_STATUS[x.chooseAdd(part.length, this.stack, this.budget.depth, this.budget.nodes ?? 0)] ?? 'unknown';
      if (status !== 'ok') throw new KriegError(`choose-${status}`, `choose-move: ${CHOOSE_MESSAGES[status] ?? status}`);
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
      const legal = rows[r];
      return {
        attempt, legal, sum: rows[r + 1], mean: legal ? rows[r + 1] / legal : -Infinity, mates: rows[r + 2], mated: rows[r + 3],
        tactical: rows[r + 4], captures: rows[r + 5], min: rows[r + 6], max: rows[r + 7],
      };
    });
  }

  /**
   * Averages again over the positions added that `keep` accepts (from the stored values): legal,
   * sum, mean, min and max per attempt (mates and mated from the values; tactical and captures
   * are not kept per position and read 0).
   */
  over(keep: (values: Int32Array, index: number) => boolean): AttemptValue[] {
    const out: AttemptValue[] = this.attempts.map((attempt) => ({
      attempt, legal: 0, sum: 0, mean: -Infinity, mates: 0, mated: 0, tactical: 0, captures: 0, min: MATE + 1, max: -MATE - 1,
    }));
    this.positions.forEach(({ values }, index) => {
      if (!keep(values, index)) return;
      for (let i = 0; i < out.length; i++) {
        const v = values[i];
        if (v === NOT_LEGAL) continue;
        const a = out[i];
        a.legal++;
        a.sum += v;
        if (v > MATE_BOUND) a.mates++;
        if (v < -MATE_BOUND) a.mated++;
        if (v < a.min) a.min = v;
        if (v > a.max) a.max = v;
      }
    });
    for (const a of out) if (a.legal) a.mean = a.sum / a.legal;
    return out;
  }

  /** The row of `attempt` (undefined: not an attempt of this board). */
  rowOf(attempt: number): number | undefined {
    const i = this.attempts.indexOf(attempt);
    return i < 0 ? undefined : i;
  }
}

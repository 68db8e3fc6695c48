// What the page shows of a player's knowledge: the belief state of a view as a size (exact or a
// pool), a heatmap of the opponent's pieces (all, and per piece type) and a few sample positions.
//
// The page's positions for a view come from the one belief request (belief/request.ts), mode
// exact-or-track: the exact breadth-first estimator while the belief holds at most `cap` positions
// (found within the time), else the belief tracker (issue #13) fed the view event by event: its
// exact layer or Parker's pool of positions consistent with every observation. The page, the
// worker and the tests read only BeliefSummary.
import type { Engine } from '../engine';
import type { Outcome } from '../belief/estimate';
import { beliefOf, TRACKED_SAMPLE } from '../belief/request';
import { pieceHeatmap } from '../belief/heatmap';
import type { View } from '../record/record';

/** Piece types of the core (assembly/chess/position.ts): pawn 1 … king 6; index 0 is "all". */
export const PIECE_TYPES = ['all', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const;
export type PieceFilter = (typeof PIECE_TYPES)[number];

export interface BeliefOptions {
  /** The most positions kept exact; past it (or past the time) the tracker's positions (DEFAULT_SAMPLE of them) are counted. */
  cap?: number;
  /** Sample positions listed. */
  samples?: number;
  seed?: number;
  timeMs?: number;
}

export interface BeliefSummary {
  /** The opponent whose pieces are counted. */
  enemy: 'white' | 'black';
  /** The positions counted are the whole belief state. */
  exact: boolean;
  /** Positions counted (the belief size when exact). */
  positions: number;
  outcome: Outcome;
  /** Per piece filter (PIECE_TYPES), per square a1 = 0 … h8 = 63: positions with such an enemy piece there. */
  heatmaps: Record<PieceFilter, number[]>;
  /** A few of the positions, as FENs. */
  samples: string[];
  work: number;
  ms: number;
}

export const DEFAULT_CAP = 20_000;
/** Positions of the tracker's counted when the belief is larger than the cap. */
export const DEFAULT_SAMPLE = TRACKED_SAMPLE;
/** Work the tracker may spend on each event of the view (deterministic, about a tenth of a second). */
export const TRACK_EVENT_WORK = 500_000;
/** Milliseconds for each of the exact estimate and the sample, so the page's answer comes soon. */
export const DEFAULT_TIME_MS = 2000;

export function beliefSummary(engine: Engine, view: View, options: BeliefOptions = {}): BeliefSummary {
  const { result, exact } = beliefOf(engine, view, {
    mode: 'exact-or-track',
    limits: { positions: options.cap ?? DEFAULT_CAP, timeMs: options.timeMs ?? DEFAULT_TIME_MS },
    seed: options.seed,
    trackWork: TRACK_EVENT_WORK,
  });
  const enemyColor: 0 | 1 = view.as === 'white' ? 1 : 0;
  const boards = result.handles.map((h) => engine.setup(h).board);
  // what `krieg belief --show heatmap` counts, and the same per piece type
  const heatmaps = Object.fromEntries(
    PIECE_TYPES.map((t, type) => [t, pieceHeatmap(boards, enemyColor, type === 0 ? undefined : type).counts]),
  ) as Record<PieceFilter, number[]>;
  const samples = result.handles.slice(0, options.samples ?? 8).map((h) => engine.fen(h));
  return {
    enemy: enemyColor === 1 ? 'black' : 'white',
    exact,
    positions: result.handles.length,
    outcome: result.outcome,
    heatmaps,
    samples,
    work: result.work,
    ms: result.ms,
  };
}

// THE ONE belief request: a view, a mode and limits in; the positions of the view's belief (or a
// part of it) out, in the engine's arena. `krieg belief`, `krieg solve`'s game files and the library
// ask through here, so every front end has the same modes with the same meaning (docs/belief.md);
// the web page's Know tab, which follows a game as it goes, keeps a Tracker per side instead
// (host/web/belief.ts). Browser-safe: the multi-threaded depth-first walk (belief/parallel.ts,
// worker threads) is the Node edge's alternative to mode 'dfs', not a mode of its own.
import type { Engine } from '../engine';
import type { View } from '../record/record';
import { estimateBelief, sampleBelief, type EstimateResult, type Limits } from './estimate';
import { trackedBelief } from './track';
import { DEFAULT_BUDGET, TRACKER_RECORDS, type TrackerMode } from './tracker';

export const BELIEF_MODES = ['auto', 'bfs', 'dfs', 'sample', 'track', 'exact-or-track'] as const;
/**
 * bfs: layer by layer; dfs: streaming; auto: bfs, then dfs in the time left when a layer outgrows
 * the positions limit; sample: k random consistent positions; track: the belief tracker fed the
 * view event by event (exact while small, else a pool of consistent positions); exact-or-track:
 * bfs while the belief fits the positions limit, else the tracker's positions (the web page's).
 */
export type BeliefMode = (typeof BELIEF_MODES)[number];

/**
 * The sampler's restart unit (work): a descent with no position after unit × luby(i) is begun
 * afresh, cutting the heavy tail of single descents (issue #13). The problem databases' Black
 * samples without restarts, so that the shipped databases regenerate as they were made.
 */
export const SAMPLE_RESTART_UNIT = 4096;
/** Tracker positions an exact-or-track request counts when the belief outgrows its limit. */
export const TRACKED_SAMPLE = 1000;

export interface BeliefRequest {
  mode: BeliefMode;
  /** positions: the most kept (a bfs layer's, a dfs count's, the tracker's positions copied out); work: per event when tracking. */
  limits: Limits;
  /** sample: positions drawn (default 10). */
  k?: number;
  /** sample, track: the random stream (default 1). */
  seed?: number;
  /** exact-or-track: the tracker's work per event (default: limits.work, else the tracker's default). */
  trackWork?: number;
  onProgress?: (found: number, work: number) => void;
}

export interface Belief {
  result: EstimateResult;
  /** The estimator that answered: auto's bfs or dfs, else the mode asked for ('track' for an exact-or-track request's tracker). */
  mode: Exclude<BeliefMode, 'auto' | 'exact-or-track'>;
  /** The positions are the whole belief state (complete and not a sample or a pool). */
  exact: boolean;
  /** The tracker's state after the view, when it answered. */
  tracker?: TrackerMode;
}

/** The positions of `view`'s belief that `request` asks for, in `engine`'s arena (see the file comment). */
export function beliefOf(engine: Engine, view: View, request: BeliefRequest): Belief {
  const { limits, seed = 1 } = request;
  const tracked = (work: number | undefined, limit: number): Belief => {
    if (engine.capacity < TRACKER_RECORDS.end) engine.resize(TRACKER_RECORDS.end);
    const run = trackedBelief(engine, view, { seed }, work === undefined ? DEFAULT_BUDGET : { work }, limit);
    const exact = run.mode === 'exact' && run.result.outcome === 'complete';
    return { result: run.result, mode: 'track', exact, tracker: run.mode };
  };
  switch (request.mode) {
    case 'track':
      return tracked(limits.work, limits.positions ?? TRACKED_SAMPLE);
    case 'sample': {
      const result = sampleBelief(engine, view, request.k ?? 10, seed, limits, SAMPLE_RESTART_UNIT);
      return { result, mode: 'sample', exact: false };
    }
    case 'exact-or-track': {
      const result = estimateBelief(engine, view, 'bfs', limits, request.onProgress);
      if (result.outcome === 'complete' || result.outcome === 'inconsistent')
        return { result, mode: 'bfs', exact: result.outcome === 'complete' };
      return tracked(request.trackWork ?? limits.work, TRACKED_SAMPLE);
    }
    default: {
      const result = estimateBelief(engine, view, request.mode, limits, request.onProgress);
      return { result, mode: result.mode, exact: result.outcome === 'complete' };
    }
  }
}

// Position sources: where the sampling players (sampling.ts) get the positions they evaluate. A
// source follows the player's view event by event (observe) and hands out, on request, positions
// consistent with every observation so far (AOS, AOSP, HS; Parker et al. 2005 §2) or with the last
// observation only (LOS). The belief tracker of issue #13 (exact belief while small, Parker's AOSP
// pool past a cap, LOS positions on request) is meant to be such a source; until it lands,
// `trackerSource` stands in for it over what exists: the exact breadth-first estimator while the
// belief is small, and the seeded depth-first sampler beyond (both re-estimate from the whole
// view at every request, where the tracker will update incrementally).
//
// Records of a player's engine (capacity C; S = the search stack's records, search.ts stackRecords):
// | records          | use                                                                          |
// |------------------|------------------------------------------------------------------------------|
// | 0 … 15           | the host's (the estimators' root is 0, the own-board scratch 1)             |
// | 16 … 16 + k − 1  | SAMPLE_BASE: the positions a request returns (copied there from the store)   |
// | … C − S − 1      | the source's own (the estimators' stack and store; the tracker's pool)       |
// | C − S … C − 1    | the player's search stack: scratch, which a source may overwrite while it    |
// |                  | works but must not keep anything in                                         |
// A source's returned handles stay valid until its next observe or request.
import type { Engine } from '../engine';
import { fail } from '../errors';
import { POSITION_WORDS } from '../constants';
import { estimateBelief, sampleBelief, type EstimateResult } from '../belief/estimate';
import { seededRandom } from '../referee/game';
import type { Side, View, ViewEvent } from '../record/record';
import type { RuleSet } from '../record/rules';

export const SAMPLE_BASE = 16;
/** The most positions one request returns (what fits below the estimators' store). */
export const MAX_REQUEST = 1024;

export interface SourceLimits {
  /** Units of estimation work (positions generated and tested). */
  work?: number;
  /** performance.now() (ms) by which to stop. */
  deadline?: number;
}

export interface SourcePositions {
  /** Handles in the player's engine (SAMPLE_BASE …), valid until the source's next call. */
  handles: number[];
  /** The handles are the whole belief state. */
  exact: boolean;
  /** How many consistent positions the source knows to exist, when it knows (the exact belief, a pool). */
  total?: number;
}

export interface PositionSource {
  readonly name: string;
  /** Each new event of the player's view, in order (the same events the player observes). */
  observe(event: ViewEvent): void;
  /** Up to `k` positions consistent with every observation so far, chosen at random when there are more. */
  positions(k: number, limits: SourceLimits): SourcePositions;
  /** Up to `k` positions consistent with the last observation (a superset of the above; Parker's LOS boards). */
  lastObservation(k: number, limits: SourceLimits): SourcePositions;
  /**
   * Optional: spend what is left of a turn's budget improving the source — Parker's timed AOSP
   * grows its pool with the time choose-move leaves (§4.1). Called after a turn's first choice.
   */
  refine?(limits: SourceLimits): void;
}

export interface SourceSetup {
  side: Side;
  rules: RuleSet;
  start: string;
  seed: number;
}

/** Copies records `handles` to SAMPLE_BASE …, in order; returns the new handles. */
function compact(engine: Engine, handles: number[]): number[] {
  if (handles.length > MAX_REQUEST) throw fail('source-too-many', { max: MAX_REQUEST });
  const arena = engine.positions;
  const copies = handles.map((h) => arena.slice(h * POSITION_WORDS, (h + 1) * POSITION_WORDS));
  copies.forEach((words, i) => arena.set(words, (SAMPLE_BASE + i) * POSITION_WORDS));
  return handles.map((_, i) => SAMPLE_BASE + i);
}

/** `k` of `items` chosen at random without replacement, in their original order. */
function choose<T>(items: T[], k: number, random: () => number): T[] {
  if (items.length <= k) return items;
  const picked = new Set<number>();
  while (picked.size < k) picked.add(Math.floor(random() * items.length));
  return [...picked].sort((a, b) => a - b).map((i) => items[i]);
}

function timeLeft(limits: SourceLimits): number | undefined {
  return limits.deadline === undefined ? undefined : Math.max(1, limits.deadline - performance.now());
}

/** A source that keeps the player's view and estimates from it. */
abstract class ViewSource implements PositionSource {
  abstract readonly name: string;
  protected readonly view: View;
  protected readonly random: () => number;

  constructor(
    protected readonly engine: Engine,
    setup: SourceSetup,
  ) {
    this.view = {
      rules: setup.rules,
      start: setup.start,
      as: setup.side,
      white: '',
      black: '',
      result: '*',
      tags: {},
      events: [],
    };
    this.random = seededRandom(setup.seed);
  }

  observe(event: ViewEvent): void {
    this.view.events.push(event);
  }

  abstract positions(k: number, limits: SourceLimits): SourcePositions;

  /**
   * Stand-in until #13: every position consistent with all observations is consistent with the
   * last one, so these are last-observation-consistent boards — though not drawn from all of
   * them, as Parker's LOS draws.
   */
  lastObservation(k: number, limits: SourceLimits): SourcePositions {
    return this.positions(k, limits);
  }

  /** Up to `k` positions from the seeded depth-first sampler (random histories, Parker §4.2). */
  protected sample(k: number, limits: SourceLimits): SourcePositions {
    const result = sampleBelief(this.engine, this.view, Math.min(k, MAX_REQUEST), Math.floor(this.random() * 2 ** 31), {
      work: limits.work,
      timeMs: timeLeft(limits),
    });
    this.check(result);
    return { handles: compact(this.engine, result.handles), exact: false };
  }

  protected check(result: EstimateResult): void {
    if (result.outcome === 'inconsistent')
      throw fail('source-inconsistent', { side: this.view.as, ply: (result.failedPly ?? 0) + 1 });
  }
}

/** AOS: positions at the end of random histories consistent with the view (the depth-first sampler). */
export class SamplerSource extends ViewSource {
  readonly name = 'sampler';
  positions(k: number, limits: SourceLimits): SourcePositions {
    return this.sample(k, limits);
  }
}

/**
 * The tracker's stand-in: the exact belief (breadth-first) while it holds at most `exactCap`
 * positions, a random `k` of them; past the cap, or past the work or time limit, the sampler.
 */
export class BeliefSource extends ViewSource {
  readonly name = 'belief';
  constructor(
    engine: Engine,
    setup: SourceSetup,
    private readonly exactCap = 10_000,
  ) {
    super(engine, setup);
  }

  positions(k: number, limits: SourceLimits): SourcePositions {
    const belief = estimateBelief(this.engine, this.view, 'bfs', {
      positions: this.exactCap,
      work: limits.work,
      timeMs: timeLeft(limits),
    });
    this.check(belief);
    if (belief.outcome !== 'complete') return this.sample(k, limits);
    const handles = choose(belief.handles, Math.min(k, MAX_REQUEST), this.random);
    return {
      handles: compact(this.engine, handles),
      exact: handles.length === belief.handles.length,
      total: belief.handles.length,
    };
  }
}

/** The source the AOSP, HS, LOS and krieg players use: #13's belief tracker once it lands. */
export function trackerSource(engine: Engine, setup: SourceSetup): PositionSource {
  return new BeliefSource(engine, setup);
}

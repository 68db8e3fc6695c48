// Position sources: where the sampling players (sampling.ts) get the positions they evaluate. A
// source follows the player's view event by event (observe) and hands out, on request, positions
// consistent with every observation so far (AOS, AOSP, HS; Parker et al. 2005 §2) or with the last
// observation only (LOS). The belief tracker of issue #13 (exact belief while small, Parker's AOSP
// pool past a cap, LOS positions on request) is the players' source (`trackerSource`); AOS keeps
// the depth-first sampler, which re-samples the whole view at every request.
//
// Records of a player's engine (capacity C; S = the search stack's records, search.ts stackRecords):
// | records          | use                                                                          |
// |------------------|------------------------------------------------------------------------------|
// | 0 … 15           | the host's (the estimators' root is 0, the own-board scratch 1; the tracker  |
// |                  | borrows 12 … 15 during its calls)                                            |
// | 16 … 16 + k − 1  | SAMPLE_BASE: the positions a request returns (copied there from the store)   |
// | … C − S − 1      | the source's own (the estimators' stack and store; the tracker's pool)       |
// | C − S … C − 1    | the player's search stack: scratch, which a source may overwrite while it    |
// |                  | works but must not keep anything in                                         |
// A source's returned handles stay valid until its next observe or request.
import type { Engine } from '../engine';
import { fail } from '../errors';
import { KING, POSITION_WORDS } from '../constants';
import { sampleBelief, type EstimateResult } from '../belief/estimate';
import { Tracker } from '../belief/tracker';
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
  /**
   * Each new event of the player's view, in order (the same events the player observes); `limits`
   * bound the estimation it sets off (a timed player's share of its turn; absent: the source's own).
   */
  observe(event: ViewEvent, limits?: SourceLimits): void;
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

/** A player's view before the game's first event. */
export function emptyView(setup: SourceSetup): View {
  return {
    rules: setup.rules,
    start: setup.start,
    as: setup.side,
    white: '',
    black: '',
    result: '*',
    tags: {},
    events: [],
  };
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
    this.view = emptyView(setup);
    this.random = seededRandom(setup.seed);
  }

  observe(event: ViewEvent): void {
    this.view.events.push(event);
  }

  abstract positions(k: number, limits: SourceLimits): SourcePositions;

  /**
   * Every position consistent with all observations is consistent with the last one, so these are
   * last-observation-consistent boards — though not drawn from all of them, as Parker's LOS draws.
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

/** Work a tracker's update of one event may take (deterministic: work, not time). */
export const TRACKER_EVENT_WORK = 1_000_000;
/** The tracker's exact belief is kept up to this many positions in a player (the pool beyond). */
export const TRACKER_EXACT_MAX = 10_000;

/**
 * The belief tracker (host/belief/tracker.ts, issue #13) as a source: updated event by event
 * (the exact belief while small, Parker's AOSP pool beyond), positions drawn from what it holds,
 * LOS positions from its last-observation generator; the pool topped up with what a turn leaves.
 */
export class TrackerSource implements PositionSource {
  readonly name = 'tracker';
  private readonly tracker: Tracker;

  constructor(
    private readonly engine: Engine,
    setup: SourceSetup,
  ) {
    this.tracker = Tracker.create(
      engine,
      { rules: setup.rules, as: setup.side, start: setup.start },
      { seed: setup.seed & 0x7fffffff, exactMax: TRACKER_EXACT_MAX },
    );
  }

  observe(event: ViewEvent, limits?: SourceLimits): void {
    const timeMs = limits && timeLeft(limits);
    const seen = this.tracker.observe(event, { work: TRACKER_EVENT_WORK, ...(timeMs === undefined ? {} : { timeMs }) });
    if (seen.status === 'inconsistent') throw fail('source-inconsistent', { side: this.tracker.as, ply: seen.ply });
  }

  positions(k: number, limits: SourceLimits): SourcePositions {
    if (this.tracker.size() === 0) this.tracker.topUp(Math.min(k, MAX_REQUEST), budgetOf(limits));
    const n = this.tracker.copyPositions(Math.min(k, MAX_REQUEST), SAMPLE_BASE);
    const exact = this.tracker.mode === 'exact';
    return {
      handles: Array.from({ length: n }, (_, i) => SAMPLE_BASE + i),
      exact: exact && n === this.tracker.size(),
      ...(exact ? { total: this.tracker.size() } : {}),
    };
  }

  lastObservation(k: number): SourcePositions {
    const n = this.tracker.losPositions(Math.min(k, MAX_REQUEST), SAMPLE_BASE);
    return { handles: Array.from({ length: n }, (_, i) => SAMPLE_BASE + i), exact: false };
  }

  refine(limits: SourceLimits): void {
    if (this.tracker.mode === 'pool') this.tracker.topUp(this.tracker.options.poolMax, budgetOf(limits));
  }
}

function budgetOf(limits: SourceLimits): { work?: number; timeMs?: number } {
  return { work: limits.work ?? TRACKER_EVENT_WORK, timeMs: timeLeft(limits) };
}

/** The source the AOSP, HS, LOS and krieg players use: #13's belief tracker. */
export function trackerSource(engine: Engine, setup: SourceSetup): PositionSource {
  return new TrackerSource(engine, setup);
}

/**
 * The tracker with its pool lost (tests and bench:endgames `--wide`): one position, not exact, his
 * king moved to the first square from the far corner where it stands legally and he is not — as the
 * pool of krieg v random, seed 1, game 38, which kept one line that was not his. A player given it
 * does not know where his king stands; krieg's endgame technique then starts from every square his
 * king may stand on (endgame.ts), as a long game past the tracker's exact layer leaves it.
 */
export function lostKingSource(engine: Engine, setup: SourceSetup): PositionSource {
  const inner = trackerSource(engine, setup);
  const his = setup.side === 'white' ? 1 : 0;
  const king = KING | (his << 3);
  const lose = (limits: SourceLimits): SourcePositions => {
    const found = inner.positions(1, limits);
    if (!found.handles.length) return found;
    const h = found.handles[0];
    const position = engine.setup(h);
    const truth = position.board.indexOf(king);
    const order = his === 1 ? [...Array(64).keys()] : [...Array(64).keys()].reverse();
    for (const sq of order) {
      if (sq === truth || position.board[sq] !== 0) continue;
      const board = position.board.slice();
      board[truth] = 0;
      board[sq] = king;
      try {
        engine.setSetup(h, { ...position, board });
        return { handles: [h], exact: false, total: 1 };
      } catch {
        // his king in check there, or next to ours: the next square
      }
    }
    engine.setSetup(h, position);
    return { handles: [h], exact: false, total: 1 };
  };
  return {
    name: 'lost',
    observe: (event, limits) => inner.observe(event, limits),
    positions: (_k, limits) => lose(limits),
    lastObservation: (_k, limits) => lose(limits),
  };
}

/** Pool positions looked at for the distinct positions of a small belief past the exact layer. */
export const POOL_LOOK = 1024;

/**
 * A small belief the tracker no longer counts exactly: past its exact layer (a long game's tracker
 * seldom returns to it) the distinct positions (placement, side to move) of up to POOL_LOOK of its
 * pool, each consistent with every observation — a bare king's few squares, or a king's and a
 * blocked pawn's, are mostly all there. The exact belief itself while it holds. Undefined when
 * there are none or more than `max`.
 */
export function smallBelief(
  engine: Engine,
  source: PositionSource,
  limits: SourceLimits,
  max: number,
): { handles: number[]; exact: boolean } | undefined {
  const found = source.positions(max + 1, limits);
  if (found.exact)
    return found.handles.length > 0 && found.handles.length <= max
      ? { handles: found.handles, exact: true }
      : undefined;
  const pool = source.positions(POOL_LOOK, limits);
  const seen = new Set<string>();
  const handles = pool.handles.filter((h) => {
    const key = engine.fen(h).split(' ').slice(0, 2).join(' ');
    return !seen.has(key) && !!seen.add(key);
  });
  return handles.length > 0 && handles.length <= max ? { handles, exact: false } : undefined;
}

// Parker, Nau & Subrahmanian's (2005) sampling players: each turn a set S of positions from a
// position source (sources.ts), choose-move over it (the core's choose.ts, Fig. 1: per attempt the
// average over the positions where it is legal of the value after it), the best average attempted.
//   LOS   positions consistent with the last observation;
//   AOS   random histories consistent with all observations (the depth-first sampler);
//   AOSP  the pool of all-observation-consistent positions (the tracker source);
//   HS    AOSP, topped up with LOS positions when the pool holds fewer than wanted.
// After an Illegal answer the next choice is made on the positions of S where that attempt is
// illegal (their values are kept, so nothing is searched again); when none is left, a new S is
// drawn (the source has heard the answer). An attempt rejected this turn is never repeated.
//
// Budgets (a turn, Illegal retries included): with a node budget N, the source may spend
// N × WORK_PER_NODE units of estimation work, and positions are evaluated one at a time while the
// turn has searched fewer than N nodes, each search of an attempt limited to N / (k × 30) nodes —
// deterministic; with a time budget (Parker's timed players), one at a time
// while the time left exceeds the last position's evaluation time; without either, k positions.
// A time budget is the whole turn's (issue #34): the events heard are fed to the source at the
// start of the next choice, within a share of the turn's time (the tracker's update of an Illegal
// answer or of the opponent's move counts against the reply, not before it), and every stage
// stops TURN_MARGIN short of the turn's deadline.
import type { Engine } from '../engine';
import type { ViewEvent } from '../record/record';
import { seededRandom } from '../referee/game';
import { ChooseRun, NOT_LEGAL, stackRecords, type AttemptValue } from '../core/players';
import type { Player, PlayerSetup, Turn } from './player';
import type { PositionSource, SourceLimits, SourcePositions } from './sources';

export type SamplingKind = 'los' | 'aos' | 'aosp' | 'hs';

export interface SamplingOptions {
  /** k: positions wanted per choice. */
  sample: number;
  /** Plies searched after each attempt (0: captures only). */
  depth: number;
}

export const SAMPLING_DEFAULTS: SamplingOptions = { sample: 16, depth: 1 };
/** Per-search nodes without a node budget; estimation work without a budget. */
const UNBUDGETED_SEARCH_NODES = 2000;
const UNBUDGETED_WORK = 2_000_000;
/** A time budget's share for finding positions (the rest evaluates them). */
const SOURCE_SHARE = 0.4;
/** Units of estimation work per node of a node budget (a sample of 16 positions 20 plies into a game takes ~200,000). */
export const WORK_PER_NODE = 10;
/** Per position and attempt: moves a budget is divided over. */
const TYPICAL_ATTEMPTS = 30;
const MIN_SEARCH_NODES = 50;
/** The share of a turn's budget left after choose-move that the source may spend improving itself. */
const REFINE_SHARE = 0.5;
/** Milliseconds kept in hand under a time budget. */
const TIME_MARGIN = 5;
/** The share of a turn's time kept back for the runner and the referee (every stage stops short of it). */
export const TURN_MARGIN = 0.03;
/** The share of a turn's time left that the source's updates for the events heard since the last choice may take. */
const TRACK_SHARE = 0.3;
/**
 * With less than this share of the time per move left, events wait for the next choice (the
 * tracker's least update, a step of its work, would overrun): choose-move's filtering by the
 * Illegal answers of the turn does not need them.
 */
const TRACK_FLOOR = 0.08;

export class SamplingPlayer implements Player {
  private run: ChooseRun | undefined;
  private turnNodes = 0;
  /** The longest a position took to evaluate this turn (a time budget stops before one more would overrun). */
  private lastPositionMs = 0;
  protected readonly random: () => number;
  /**
   * HS's top-up with last-observation positions only while the source's positions are not the
   * whole exact belief (krieg, issue #34: an exact belief is complete, and a last-observation
   * board outside it is an impossible position); Parker's HS tops up whenever S is short.
   */
  protected exactOnly = false;
  private readonly counters = { choices: 0, positions: 0, lastObservation: 0, nodes: 0, fallbacks: 0 };
  /** Events heard and not yet given to the source (budgeted: within the next choice's time). */
  private pending: ViewEvent[] = [];
  /** How long the source's last update under a time budget took (its least step can overrun the share given). */
  private lastTrackMs = 0;
  /** The last turn `budgeted` returned (it is called again on it by a subclass's choose). */
  private lastBudgeted: Turn | undefined;

  constructor(
    readonly name: string,
    protected readonly setup: PlayerSetup,
    protected readonly engine: Engine,
    protected readonly source: PositionSource,
    private readonly kind: SamplingKind,
    protected readonly options: SamplingOptions,
  ) {
    this.random = seededRandom(setup.seed ^ 0x2f6b1c3d);
  }

  observe(event: ViewEvent): void {
    this.pending.push(event);
  }

  /**
   * The turn as the player's stages see it: its deadline TURN_MARGIN of the time per move early,
   * and the source told the events heard since the last choice, together within TRACK_SHARE of
   * the time left (this turn's Illegal answers only while more than TRACK_FLOOR of the time per
   * move, and twice what the last update took, is left: else they wait for the next choice; the
   * choice's S is filtered by them anyway); under a node budget each with the source's own work
   * budget, as before (deterministic). Called first by every choose (idempotent).
   */
  protected budgeted(turn: Turn): Turn {
    if (turn === this.lastBudgeted) return turn;
    const ms = 1000 * (this.setup.budget.timePerMove ?? 0);
    const deadline = turn.deadline === undefined ? undefined : turn.deadline - TURN_MARGIN * ms;
    // only this turn's Illegal answers (and "Any?") may wait: the others change the board or the side to move
    const side = this.setup.side;
    const mayWait = this.pending.every(
      (e) => (e.type === 'attempt' && e.side === side && e.percept.answer !== 'legal') || e.type === 'any',
    );
    while (this.pending.length) {
      if (deadline === undefined) this.source.observe(this.pending.shift()!);
      else {
        const left = deadline - performance.now();
        if (mayWait && left < Math.max(TRACK_FLOOR * ms, 2 * this.lastTrackMs)) break;
        const event = this.pending.shift()!;
        const started = performance.now();
        this.source.observe(event, { deadline: started + (TRACK_SHARE * left) / (this.pending.length + 1) });
        this.lastTrackMs = performance.now() - started;
      }
    }
    this.lastBudgeted = this.narrowed(deadline === undefined ? turn : { ...turn, deadline });
    return this.lastBudgeted;
  }

  /** The budgeted turn with the attempts a subclass leaves out (krieg: in a check named, those that cannot meet it); here all. */
  protected narrowed(turn: Turn): Turn {
    return turn;
  }

  choose(turn: Turn): number | 'any' {
    turn = this.budgeted(turn);
    this.counters.choices++;
    if (turn.tried.length === 0) {
      this.turnNodes = 0;
      this.lastPositionMs = 0;
      this.run = this.evaluate(turn);
    } else if (!this.run || !this.run.positions.some((p) => this.survives(p.values, turn.tried))) {
      this.run = this.evaluate(turn); // S exhausted by Illegal answers: a new S, drawn after them
    }
    const open = new Set(turn.attempts);
    const scores = this.run
      ? this.run.over((values) => this.survives(values, turn.tried)).filter((s) => open.has(s.attempt) && s.legal > 0)
      : [];
    const best = this.pick(turn, scores);
    if (turn.tried.length === 0) this.refine(turn);
    if (best !== undefined) return best.attempt;
    this.counters.fallbacks++;
    return this.fallback(turn, this.run);
  }

  /** The attempt chosen from the open attempts' values over S (Parker: the best mean). */
  protected pick(_turn: Turn, scores: AttemptValue[]): AttemptValue | undefined {
    return this.best(scores);
  }

  /** The attempt when no position of S is left that an open attempt is legal in: at random. */
  protected fallback(turn: Turn, _run: ChooseRun | undefined): number {
    return turn.attempts[Math.floor(this.random() * turn.attempts.length)];
  }

  /** Half of what the turn's budget has left goes to the source (the rest is kept for Illegal retries). */
  private refine(turn: Turn): void {
    if (!this.source.refine) return;
    const { nodes } = this.setup.budget;
    const work =
      nodes === undefined ? undefined : Math.floor(Math.max(0, nodes - this.turnNodes) * WORK_PER_NODE * REFINE_SHARE);
    const deadline =
      turn.deadline === undefined
        ? undefined
        : performance.now() + REFINE_SHARE * Math.max(0, turn.deadline - performance.now());
    if (work === undefined && deadline === undefined) return; // no budget: nothing to share
    if ((work ?? 1) > 0)
      this.source.refine({ ...(work !== undefined ? { work } : {}), ...(deadline !== undefined ? { deadline } : {}) });
  }

  stats(): Record<string, number> {
    return { ...this.counters };
  }

  /** Is a position still possible after the attempts rejected this turn (each illegal there)? */
  private survives(values: Int32Array, tried: number[]): boolean {
    return tried.every((attempt) => {
      const row = this.run!.rowOf(attempt);
      return row === undefined || values[row] === NOT_LEGAL;
    });
  }

  /** The best mean; ties broken at random. */
  protected best(scores: AttemptValue[]): AttemptValue | undefined {
    let top: AttemptValue[] = [];
    for (const s of scores) {
      if (!top.length || s.mean > top[0].mean) top = [s];
      else if (s.mean === top[0].mean) top.push(s);
    }
    return top.length ? top[Math.floor(this.random() * top.length)] : undefined;
  }

  /** Limits for the source's part of the turn's budget. */
  private sourceLimits(turn: Turn): SourceLimits {
    const { nodes } = this.setup.budget;
    const work = nodes === undefined ? UNBUDGETED_WORK : nodes * WORK_PER_NODE;
    if (turn.deadline !== undefined)
      return { deadline: performance.now() + SOURCE_SHARE * Math.max(0, turn.deadline - performance.now()), work };
    return { work };
  }

  /** Draws S (by the player's kind) and evaluates it within the turn's budget. */
  private evaluate(turn: Turn): ChooseRun | undefined {
    const k = this.options.sample;
    const limits = this.sourceLimits(turn);
    let run: ChooseRun | undefined;
    const add = (found: SourcePositions, fromLast: boolean): number => {
      let added = 0;
      for (const handle of found.handles) {
        if (!this.hasBudget(turn, run)) break;
        run ??= new ChooseRun(
          this.engine,
          handle,
          { depth: this.options.depth, nodes: this.searchNodes() },
          this.engine.capacity - stackRecords(this.engine),
        );
        const before = run.nodes;
        const started = performance.now();
        run.add([handle]);
        this.lastPositionMs = Math.max(this.lastPositionMs, performance.now() - started);
        this.turnNodes += run.nodes - before;
        this.counters.nodes += run.nodes - before;
        this.counters.positions++;
        if (fromLast) this.counters.lastObservation++;
        added++;
      }
      return added;
    };
    if (this.kind === 'los') add(this.source.lastObservation(k, limits), true);
    else {
      const found = this.source.positions(k, limits);
      const added = add(found, false);
      if (this.kind === 'hs' && added < k && !(this.exactOnly && found.exact) && this.hasBudget(turn, run))
        add(this.source.lastObservation(k - added, limits), true);
    }
    return run;
  }

  /** Is there budget left this turn for one more position? (The first of a turn always is.) */
  private hasBudget(turn: Turn, run: ChooseRun | undefined): boolean {
    if (!run || run.positions.length === 0) return true;
    if (this.setup.budget.nodes !== undefined && this.turnNodes >= this.setup.budget.nodes) return false;
    if (turn.deadline !== undefined && performance.now() + this.lastPositionMs + TIME_MARGIN > turn.deadline)
      return false;
    return true;
  }

  /** Nodes per search of one attempt. */
  private searchNodes(): number {
    const { nodes, timePerMove } = this.setup.budget;
    if (nodes !== undefined)
      return Math.max(MIN_SEARCH_NODES, Math.floor(nodes / (this.options.sample * TYPICAL_ATTEMPTS)));
    return timePerMove !== undefined ? 0 : UNBUDGETED_SEARCH_NODES;
  }
}

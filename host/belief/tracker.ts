// The belief tracker on the host (issue 13; the core is assembly/belief/tracker.ts, where exact and
// pool modes, the sampler, checkpoints and recounts are described): one Tracker per player of a
// game, fed the events of his view as they happen.
//
//   const tracker = Tracker.create(engine, { rules, as: 'white' });
//   tracker.observe({ type: 'attempt', side: 'white', attempt: 'e2e4', percept: { answer: 'legal' } }, { work: 2e6 });
//   tracker.observe({ type: 'opponent-move', side: 'black', illegal: 0, percept: { answer: 'legal' } }, { timeMs: 1000 });
//   tracker.size(); tracker.mode; tracker.positions(48); tracker.save();
//
// Every observation takes a budget (work units, milliseconds or both) and returns within it with
// what it has. The tracker's state lives in the core, in arrays of its own: any other use of the
// engine between two observations (searches, estimators, other trackers) leaves it intact, except
// POSITIONS records 12 … 15 and the host's move list, which a tracker borrows during its calls.
import type { Engine } from '../engine';
import { fail } from '../errors';
import {
  TRACK_EXACT,
  TRACK_SET_LAYER,
  TRACK_SET_BASE,
  TRACK_SET_CHECKPOINTS,
  TRACK_SET_GUIDES,
  TRACK_STATE_WORDS,
  TRACK_STATE_MODE,
  TRACK_STATE_PLIES,
  TRACK_STATE_WORK,
  TRACK_STATE_ADDED,
  TRACK_STATE_DESCENTS,
  TRACK_STATE_RESTARTS,
  TRACK_STATE_RECOUNTS,
  TRACK_STATE_RECOUNTED,
  TRACK_STATE_ESTIMATE,
  TRACK_STATE_EVENTS,
  TRACK_STATE_CUTS,
  TRACK_OPTION_EXACT_MAX,
  TRACK_OPTION_POOL_MAX,
  TRACK_OPTION_POOL_CUT,
  TRACK_OPTION_POOL_MIN,
  TRACK_OPTION_CHECKPOINT_SIZE,
  TRACK_OPTION_RESTART_UNIT,
  TRACK_OPTION_RECOUNT_TURNS,
  TRACK_OPTION_RECOUNT_WORK,
  TRACK_OPTION_SEED,
  TRACK_OPTION_SIDE,
  TRACK_OPTION_COVERAGE,
} from '../constants';
import { START_FEN } from '../notation/fen';
import { makeUci } from '../notation/move';
import { other, type Side, type ViewEvent } from '../record/record';
import type { RuleSet } from '../record/rules';
import * as core from '../core/tracker';
import { TRACKER_RECORDS, TRACKER_SCRATCH as SCRATCH, type TrackerStep } from '../core/tracker';

export { TRACKER_RECORDS } from '../core/tracker';
const STEP = 20_000; // work units per core call: the time limit is checked between calls
/** While the pool is dead, the part of a budget its own sampler gets (the rest goes to the standbys). */
const DEAD_SHARE = 0.25;
/** Standbys kept in pool mode: all but the last have caught up with the view; the last may be replaying it. */
const STANDBYS = 2;
/** The most of a budget the standbys spend on one event: a replayed one, or (shared among them) a new one. */
const STANDBY_EVENT_SHARE = 0.5;
/** Standbys begun in one call at most (a budget without limits could otherwise go on forever). */
const STANDBYS_PER_CALL = 4;
/** The k-th standby's seed is the tracker's seed + k × this. */
const STANDBY_SEED_STEP = 7919;

export interface TrackerOptions {
  /** The exact belief is kept while it holds at most this many positions (default 100,000). */
  exactMax?: number;
  /** A pool above this many positions … (default 20,000) */
  poolMax?: number;
  /** … is cut to this many, chosen at random (default 10,000). */
  poolCut?: number;
  /** Below this many positions the pool is topped up by the sampler, within the budget (default 1,000). */
  poolMin?: number;
  /** Positions kept of the layer before each opponent turn, for the sampler to start from (default 256). */
  checkpointSize?: number;
  /** Work of the sampler's shortest descent; the i-th is abandoned after restartUnit × luby(i) (default 2,048). */
  restartUnit?: number;
  /** A recount (back to exact mode) may span this many opponent turns after the last exact layer (default 1). */
  recountTurns?: number;
  /** Work one recount may take (default 4,000,000). */
  recountWork?: number;
  /** The tracker's random stream (default 1). */
  seed?: number;
  /** A pool cut keeps first the positions that put an opponent man where fewer than this many others have one of that kind (default 3; 0: a plain random cut). */
  coverage?: number;
}
const OPTION_INDEX: Record<keyof TrackerOptions, number> = {
  exactMax: TRACK_OPTION_EXACT_MAX,
  poolMax: TRACK_OPTION_POOL_MAX,
  poolCut: TRACK_OPTION_POOL_CUT,
  poolMin: TRACK_OPTION_POOL_MIN,
  checkpointSize: TRACK_OPTION_CHECKPOINT_SIZE,
  restartUnit: TRACK_OPTION_RESTART_UNIT,
  recountTurns: TRACK_OPTION_RECOUNT_TURNS,
  recountWork: TRACK_OPTION_RECOUNT_WORK,
  seed: TRACK_OPTION_SEED,
  coverage: TRACK_OPTION_COVERAGE,
};
export const TRACKER_OPTION_NAMES = Object.keys(OPTION_INDEX) as (keyof TrackerOptions)[];

/** A pool of at most `poolMax` positions, cut to half of it (Parker's 20,000 → 10,000) and topped up below a twentieth (at most 1,000). */
export function poolSized(poolMax: number): Pick<Required<TrackerOptions>, 'poolMax' | 'poolCut' | 'poolMin'> {
  return { poolMax, poolCut: Math.floor(poolMax / 2), poolMin: Math.min(1_000, Math.floor(poolMax / 20) || 1) };
}

/** An observation's budget: it returns after about this much work or time, whichever comes first. */
export interface Budget {
  work?: number;
  timeMs?: number;
}
/** The budget when none is given: deterministic (work, not time). */
export const DEFAULT_BUDGET: Budget = { work: 5_000_000 };

export type TrackerMode = 'exact' | 'pool';

export interface Observation {
  /** ok: the event is applied; inconsistent: no position fits the view with it (rejected: the tracker is as before it). */
  status: 'ok' | 'inconsistent';
  /** The event's index in the view, and the ply it belongs to (1-based: moves before it + 1). */
  event: number;
  ply: number;
  mode: TrackerMode;
  /** Positions held after it. */
  size: number;
  /** What stopped it: complete (nothing left to do), or the budget. */
  stopped: 'complete' | 'limit-work' | 'limit-time';
  /** Work units and milliseconds spent. */
  work: number;
  ms: number;
  /** Positions the sampler added, its descents and the descents it abandoned at their cutoff (this observation). */
  added: number;
  descents: number;
  restarts: number;
  /** Whether a recount ran, and whether it made the layer exact again. */
  recount: boolean;
  recounted: boolean;
  /** Whether a standby (a tracker with another seed that replayed the view) took over from a dead pool. */
  rescued: boolean;
}

/**
 * What a tracker has done (TrackerStats): sums over the core trackers that held the positions,
 * their standbys and the standbys dropped, except plies (the view's) and rescued (standbys that
 * took over from a dead pool).
 */
const COUNTER_NAMES = ['work', 'added', 'descents', 'restarts', 'recounts', 'recounted', 'plies', 'rescued'] as const;
export type Counters = Record<(typeof COUNTER_NAMES)[number], number>;
const addCounters = (a: Counters, b: Counters) =>
  Object.fromEntries(COUNTER_NAMES.map((k) => [k, a[k] + b[k]])) as Counters;
const NO_COUNTERS = Object.fromEntries(COUNTER_NAMES.map((k) => [k, 0])) as Counters;

/** `fraction` of `of`, within `budget`. */
function share(budget: Budget, fraction: number, of: Budget = budget): Budget {
  const part = (x: number | undefined, y: number | undefined) =>
    y === undefined ? x : Math.min(x ?? Infinity, Math.max(1, Math.floor(y * fraction)));
  return { work: part(budget.work, of.work), timeMs: part(budget.timeMs, of.timeMs) };
}

/** What is left of `budget` after `spentWork` and the time since `started` (a limit used up is 0). */
function remaining(budget: Budget, started: number, spentWork: number): Budget {
  const work = budget.work === undefined ? undefined : Math.max(0, budget.work - spentWork);
  const timeMs = budget.timeMs === undefined ? undefined : Math.max(0, budget.timeMs - (performance.now() - started));
  return { work, timeMs };
}
const usedUp = (b: Budget) => b.work === 0 || b.timeMs === 0;

export interface TrackerStats extends Counters {
  mode: TrackerMode;
  size: number;
  /** The belief's size: exact in exact mode, estimated in pool mode (see assembly/belief/tracker.ts). */
  estimate: number;
  events: number;
  cuts: number;
  checkpoints: number;
  witnessNodes?: number;
}

/** A position the tracker holds and the opponent's moves of one history leading to it (UCI). */
export interface TrackedPosition {
  fen: string;
  witness: string[];
}

/** A saved tracker (JSON): everything needed to go on exactly as the tracker it was saved from would. */
export interface TrackerSave {
  format: 'krieg-tracker';
  version: 1;
  as: Side;
  rules: RuleSet;
  start: string;
  options: Required<TrackerOptions>;
  events: ViewEvent[];
  /** The core's state words (assembly/belief/tracker/layout.ts). */
  state: number[];
  /** The witness tree: node i + 1 extends node parent[i] by the opponent's move code move[i] (node 0: no move). */
  witness: { parent: number[]; move: number[] };
  layer: [string, number][];
  base: [string, number][];
  guides: [string, number][];
  checkpoints: { event: number; positions: [string, number][] }[];
  /** The standbys (each has taken the view's first events), standbys begun, counters of replaced trackers. */
  standbys?: TrackerSave[];
  begun?: number;
  noStandby?: boolean;
  retired?: Counters;
}

/** One player's belief followed through a game, event by event, each within a budget (the header above has an example). */
export class Tracker {
  /** The events observed (the player's view so far). */
  readonly events: ViewEvent[] = [];
  private freed = false;
  /** Pool mode: standby trackers with other seeds, one of which takes over if the pool dies (see afterward); each has taken the view's first standby.events.length events. */
  private standbys: Tracker[] = [];
  /** Standbys begun (their seeds follow from it); a standby itself never begins one. */
  private begun = 0;
  private noStandby = false;
  /** The opponent's prescribed pawn decisions by view event (prescribePawns), its standbys' too; not saved. */
  private pawnPlan: number[] = [];
  /** Counters of the core trackers this one replaced and of dropped standbys. */
  private retired: Counters = NO_COUNTERS;

  private constructor(
    readonly engine: Engine,
    private coreId: number,
    readonly as: Side,
    readonly rules: RuleSet,
    readonly start: string,
    readonly options: Required<TrackerOptions>,
  ) {}

  /** A tracker of player `as`'s belief in a game from `start` (default: the initial position) under `rules`. */
  static create(
    engine: Engine,
    game: { rules: RuleSet; as: Side; start?: string },
    options: TrackerOptions = {},
  ): Tracker {
    if (engine.capacity < TRACKER_RECORDS.end)
      throw fail('tracker-no-room', {
        text: `a tracker needs an engine of at least ${TRACKER_RECORDS.end} records (it has ${engine.capacity})`,
      });
    const start = game.start ?? START_FEN;
    const outer = engine.rules;
    engine.setRules(game.rules); // the tracker keeps its own copy of the rules
    try {
      engine.setFen(SCRATCH, start);
      const buffer = core.trackerDefaults(engine);
      const resolved = {} as Required<TrackerOptions>;
      for (const name of TRACKER_OPTION_NAMES) {
        const value = options[name];
        if (value !== undefined) {
          if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff)
            throw fail('bad-tracker-option', {
              text: `tracker option ${name} must be a non-negative integer, got ${value}`,
            });
          buffer[OPTION_INDEX[name]] = value;
        }
        resolved[name] = buffer[OPTION_INDEX[name]];
      }
      buffer[TRACK_OPTION_SIDE] = game.as === 'white' ? 0 : 1;
      const id = core.createTracker(engine, SCRATCH, buffer);
      return new Tracker(engine, id, game.as, game.rules, start, resolved);
    } finally {
      engine.setRules(outer);
    }
  }

  /** Follows only histories where the opponent's pawns do what `plan` says (core/tracker.ts prescribePawns; issue 36). */
  prescribePawns(plan: number[]): void {
    this.pawnPlan = plan;
    core.prescribePawns(this.live(), this.coreId, plan);
    for (const s of this.standbys) s.prescribePawns(plan);
  }

  /** The core tracker holding the positions (a standby that caught up replaces it when the pool dies: see afterward). */
  get id(): number {
    return this.coreId;
  }

  private live(): Engine {
    if (this.freed) throw fail('tracker-freed');
    return this.engine;
  }

  /** Exact (the layer is the belief state) or pool (a part of it). */
  get mode(): TrackerMode {
    return this.word(TRACK_STATE_MODE) === TRACK_EXACT ? 'exact' : 'pool';
  }

  private word(which: number): number {
    return core.stateWord(this.live(), this.coreId, which);
  }

  /** Positions held. */
  size(): number {
    return core.setSize(this.live(), this.coreId, TRACK_SET_LAYER);
  }

  /**
   * Applies one event of the player's view (as host/referee/record.ts writes them), within
   * `budget`. In pool mode the standbys that have caught up take it first, with at most
   * STANDBY_EVENT_SHARE of the budget between them; what the event leaves goes to the standby
   * replaying the view (see afterward), and when the pool has died most of it does.
   */
  observe(event: ViewEvent, budget: Budget = DEFAULT_BUDGET): Observation {
    const engine = this.live();
    const index = this.events.length;
    if (event.type === 'attempt' && event.side !== this.as)
      throw fail('bad-event', {
        text: `event ${index + 1}: an attempt by ${event.side} in ${this.as}'s view (the opponent's turns are 'opponent-move' events)`,
      });
    if (event.type === 'opponent-move' && event.side !== other(this.as))
      throw fail('bad-event', { text: `event ${index + 1}: an opponent move by ${event.side} in ${this.as}'s view` });
    const before = this.counters();
    const own = { id: this.coreId, counters: this.coreCounters() };
    const started = performance.now();
    const first = core.observeEvent(engine, this.coreId, event, index);
    this.events.push(event);
    // the standbys that have caught up take the event first, so that one can take over at once if the event empties the pool
    const following = this.standbys.filter((s) => s.events.length === index);
    for (const s of following) this.replayNext(s, share(budget, STANDBY_EVENT_SHARE / following.length));
    const left = remaining(budget, started, this.counters().work - before.work);
    const stopped = this.run(first, this.dead() ? share(left, DEAD_SHARE, budget) : left, started);
    if (stopped.step === 'inconsistent') {
      this.events.pop();
      for (const s of this.standbys) if (s.events.length > index) this.drop(s); // it took the event the pool proved impossible
    } else this.afterward(budget, started, before.work);
    return this.observation(
      stopped.step === 'inconsistent' ? 'inconsistent' : 'ok',
      index,
      before.plies + 1,
      stopped.why,
      before,
      own,
      started,
    );
  }

  /** Spends up to `budget` adding positions to the pool until it holds `target` (pool mode; idle time), or on the standbys. */
  topUp(target: number, budget: Budget = DEFAULT_BUDGET): Observation {
    const before = this.counters();
    const own = { id: this.coreId, counters: this.coreCounters() };
    const started = performance.now();
    const first = core.beginTopUp(this.live(), this.coreId, Math.max(0, Math.floor(target)));
    const stopped = this.run(first, this.dead() ? share(budget, DEAD_SHARE) : budget, started);
    this.afterward(budget, started, before.work);
    return this.observation('ok', this.events.length - 1, this.counters().plies, stopped.why, before, own, started);
  }

  private observation(
    status: Observation['status'],
    event: number,
    ply: number,
    stopped: Observation['stopped'],
    before: Counters,
    own: { id: number; counters: Counters },
    started: number,
  ): Observation {
    const after = this.counters();
    // a recount is the positions' own (not the standby's); after a take-over they are the standby's
    const ownAfter = own.id === this.coreId ? this.coreCounters() : own.counters;
    return {
      status,
      event,
      ply,
      mode: this.mode,
      size: this.size(),
      stopped,
      work: after.work - before.work,
      ms: performance.now() - started,
      added: after.added - before.added,
      descents: after.descents - before.descents,
      restarts: after.restarts - before.restarts,
      recount: ownAfter.recounts > own.counters.recounts,
      recounted: ownAfter.recounted > own.counters.recounted,
      rescued: after.rescued > before.rescued,
    };
  }

  private run(step: TrackerStep, budget: Budget, started: number): { step: TrackerStep; why: Observation['stopped'] } {
    const engine = this.live();
    const work0 = this.word(TRACK_STATE_WORK);
    let why: Observation['stopped'] = 'complete';
    while (step === 'more') {
      const spent = this.word(TRACK_STATE_WORK) - work0;
      const left = budget.work === undefined ? STEP : Math.min(STEP, budget.work - spent);
      if (left <= 0) why = 'limit-work';
      else if (budget.timeMs !== undefined && performance.now() - started >= budget.timeMs) why = 'limit-time';
      if (why !== 'complete') {
        step = core.stopTracker(engine, this.coreId);
        break;
      }
      step = core.runTracker(engine, this.coreId, left);
    }
    return { step, why };
  }

  // ---- the standbys ----
  //
  // The pool is a particle filter: each opponent turn keeps about one child per parent, each
  // filter kills some lines, so the positions' early histories narrow to a few (measured on a
  // 300-ply berkeley random game: 11,000 distinct first-5-move histories at ply 12, one from ply
  // 81 on). An observation that contradicts what that one early history fixed (here, which man
  // was taken and where a pawn stands) empties the pool, and neither the checkpoints (all on the
  // same line) nor guided descents (a move or two changed) can build a position again. A fresh
  // tracker with another random stream narrows to another line, which often survives that
  // observation (on that game, 2 of 4 other seeds got past it). So in pool mode STANDBYS trackers
  // with other seeds are kept: the newest replays the view from the start with what the budgets
  // leave (each event with at most STANDBY_EVENT_SHARE of a budget), the others follow it, and
  // when the pool dies the oldest takes over. One that dies is dropped and another begins (seeds
  // seed + k × STANDBY_SEED_STEP). On the eight berkeley random views of bench:track whose pools
  // died (scratch runs at 1 s an event), the plies without a position fell from 1,129 of 2,354 to
  // 162 with one tracker begun only once the pool ran low, and to 33 with one standby kept. A
  // second one covers the stretch after a take-over, while the new standby is still replaying.

  /** Pool mode and no position held. */
  private dead(): boolean {
    return this.size() === 0 && this.word(TRACK_STATE_MODE) !== TRACK_EXACT;
  }

  /**
   * After an event or a top-up in pool mode, with what is left of `budget`: a standby that has
   * caught up takes over if the pool is dead, and the newest catches up with the view (one is
   * begun while fewer than STANDBYS are kept). In exact mode there is nothing to stand by for.
   */
  private afterward(budget: Budget, started: number, work0: number): void {
    if (this.noStandby) return;
    if (this.word(TRACK_STATE_MODE) === TRACK_EXACT) {
      for (const s of [...this.standbys]) this.drop(s); // back to exact (a recount): nothing to stand by for
      return;
    }
    for (let begun = 0; ;) {
      const caughtUp = this.standbys.filter((s) => s.events.length === this.events.length);
      if (this.dead() && caughtUp.length > 0) this.adopt(caughtUp[0]);
      const newest = this.standbys.at(-1);
      if (newest && newest.events.length === this.events.length && this.standbys.length === STANDBYS) return;
      const left = remaining(budget, started, this.counters().work - work0);
      if (usedUp(left)) return;
      if (!newest || newest.events.length === this.events.length) {
        if (begun++ === STANDBYS_PER_CALL) return;
        this.begun++;
        const options = { ...this.options, seed: (this.options.seed + this.begun * STANDBY_SEED_STEP) >>> 0 };
        const tracker = Tracker.create(this.engine, { rules: this.rules, as: this.as, start: this.start }, options);
        tracker.noStandby = true;
        if (this.pawnPlan.length > 0) tracker.prescribePawns(this.pawnPlan);
        this.standbys.push(tracker);
      }
      this.replayNext(this.standbys.at(-1)!, share(left, STANDBY_EVENT_SHARE, budget));
    }
  }

  /** Standby `s` takes the next event of the view; it is dropped if it dies. */
  private replayNext(s: Tracker, budget: Budget): void {
    const o = s.observe(this.events[s.events.length], budget);
    if (o.status === 'inconsistent') {
      // an exact layer proved the view inconsistent: the pool let an impossible event through, nothing to stand by for
      for (const t of [...this.standbys]) this.drop(t);
      this.noStandby = true;
      return;
    }
    if (s.dead()) this.drop(s);
  }

  /** A standby no longer wanted: its work is kept in the counters. */
  private drop(s: Tracker): void {
    this.standbys = this.standbys.filter((t) => t !== s);
    this.retire(s);
  }

  /** A standby that has caught up takes over: its core tracker becomes this one's. */
  private adopt(s: Tracker): void {
    this.standbys = this.standbys.filter((t) => t !== s);
    this.retired = addCounters(this.retired, this.coreCounters());
    core.freeTracker(this.engine, this.coreId);
    this.coreId = s.coreId;
    s.freed = true;
    this.retired = { ...this.retired, rescued: this.retired.rescued + 1 };
  }

  /** A tracker no longer wanted: its work is kept in the counters. */
  private retire(tracker: Tracker): void {
    this.retired = addCounters(this.retired, tracker.coreCounters());
    tracker.free();
  }

  private coreCounters(): Counters {
    const s = (w: number) => this.word(w);
    return {
      work: s(TRACK_STATE_WORK),
      added: s(TRACK_STATE_ADDED),
      descents: s(TRACK_STATE_DESCENTS),
      restarts: s(TRACK_STATE_RESTARTS),
      recounts: s(TRACK_STATE_RECOUNTS),
      recounted: s(TRACK_STATE_RECOUNTED),
      plies: s(TRACK_STATE_PLIES),
      rescued: 0,
    };
  }

  /** The core tracker's counters, with those of the trackers it replaced and of its standbys (the plies are its own). */
  private counters(): Counters {
    let sum = addCounters(this.coreCounters(), this.retired);
    for (const s of this.standbys) sum = addCounters(sum, s.coreCounters());
    return { ...sum, plies: this.word(TRACK_STATE_PLIES) };
  }

  stats(): TrackerStats {
    const s = (w: number) => this.word(w);
    return {
      ...this.counters(),
      mode: this.mode,
      size: this.size(),
      estimate: s(TRACK_STATE_ESTIMATE),
      events: s(TRACK_STATE_EVENTS),
      cuts: s(TRACK_STATE_CUTS),
      checkpoints: core.checkpointCount(this.live(), this.coreId),
    };
  }

  /** Indices of `k` positions of the layer chosen at random by the tracker's stream (all when k ≥ size, in random order). */
  private sample(k: number): number[] {
    return core.sampleEntries(this.live(), this.coreId, Math.max(0, Math.floor(Math.min(k, 0x7fffffff))));
  }

  /** Copies entry `index` of set `which` into record `handle`: its witness node. */
  private entry(which: number, index: number, handle: number): number {
    return core.copyEntry(this.live(), this.coreId, which, index, handle);
  }

  /** FENs of `k` positions held, chosen at random (every one, in layer order, when k is omitted). */
  positions(k?: number): string[] {
    const indices = k === undefined ? Array.from({ length: this.size() }, (_, i) => i) : this.sample(k);
    return indices.map((i) => {
      this.entry(TRACK_SET_LAYER, i, SCRATCH);
      return this.engine.fen(SCRATCH);
    });
  }

  /** Positions held with their witnesses (every one, in layer order, when k is omitted; else k at random). */
  entries(k?: number): TrackedPosition[] {
    const indices = k === undefined ? Array.from({ length: this.size() }, (_, i) => i) : this.sample(k);
    return indices.map((i) => {
      const node = this.entry(TRACK_SET_LAYER, i, SCRATCH);
      return { fen: this.engine.fen(SCRATCH), witness: this.witnessMoves(node).map(makeUci) };
    });
  }

  /**
   * Copies `k` positions chosen at random (fewer when fewer are held) into the engine's records
   * first … first + k - 1, for the core to work on (players' searches): how many.
   */
  copyPositions(k: number, first: number): number {
    const indices = this.sample(k);
    this.checkRecords(first, indices.length);
    indices.forEach((index, i) => this.entry(TRACK_SET_LAYER, index, first + i));
    return indices.length;
  }

  /**
   * Up to `k` last-observation-consistent positions (assembly/belief/los.ts), within `tries`
   * random placements, copied into records first …: how many. Not part of the pool.
   */
  losPositions(k: number, first: number, tries = 100 * k): number {
    this.checkRecords(first, k);
    return core.losInto(this.live(), this.coreId, k, first, tries);
  }

  /** FENs of up to `k` last-observation-consistent positions (through records from `first`). */
  los(k: number, first = TRACKER_RECORDS.end, tries = 100 * k): string[] {
    const n = this.losPositions(k, first, tries);
    return Array.from({ length: n }, (_, i) => this.engine.fen(first + i));
  }

  private checkRecords(first: number, k: number): void {
    if (
      !Number.isInteger(first) ||
      first < 0 ||
      first + k > this.engine.capacity ||
      (first < TRACKER_RECORDS.end && first + k > TRACKER_RECORDS.first)
    ) {
      throw fail('tracker-records', {
        text: `records ${first} … ${first + k - 1} are outside the arena or among those trackers borrow (${TRACKER_RECORDS.first} … ${TRACKER_RECORDS.end - 1})`,
      });
    }
  }

  private witnessMoves(node: number): number[] {
    return core.witnessMoves(this.live(), this.coreId, node);
  }

  /** The tracker as JSON (compacting its witness tree first). */
  save(): TrackerSave {
    const engine = this.live();
    const nodes = core.compactWitnesses(engine, this.coreId);
    const witness = { parent: [] as number[], move: [] as number[] };
    for (let node = 1; node < nodes; node++) {
      const { parent, move } = core.witnessNode(engine, this.coreId, node);
      witness.parent.push(parent);
      witness.move.push(move);
    }
    const set = (which: number, from = 0, to = core.setSize(engine, this.coreId, which)): [string, number][] => {
      const list: [string, number][] = [];
      for (let i = from; i < to; i++) {
        const node = this.entry(which, i, SCRATCH);
        list.push([engine.fen(SCRATCH), node]);
      }
      return list;
    };
    const checkpoints = Array.from({ length: core.checkpointCount(engine, this.coreId) }, (_, k) => {
      const { event, from, to } = core.checkpointRange(engine, this.coreId, k);
      return { event, positions: set(TRACK_SET_CHECKPOINTS, from, to) };
    });
    return {
      format: 'krieg-tracker',
      version: 1,
      as: this.as,
      rules: { ...this.rules },
      start: this.start,
      options: { ...this.options },
      events: this.events.map((e) => structuredClone(e)),
      state: Array.from({ length: TRACK_STATE_WORDS }, (_, w) => this.word(w)),
      witness,
      layer: set(TRACK_SET_LAYER),
      base: set(TRACK_SET_BASE),
      guides: set(TRACK_SET_GUIDES),
      checkpoints,
      standbys: this.standbys.map((t) => t.save()),
      begun: this.begun,
      noStandby: this.noStandby,
      retired: { ...this.retired },
    };
  }

  /** A tracker in `engine` going on from `saved` exactly as the saved one would. */
  static restore(engine: Engine, saved: TrackerSave): Tracker {
    if (saved?.format !== 'krieg-tracker' || saved.version !== 1)
      throw fail('bad-tracker-state', { text: 'not a saved krieg tracker (format krieg-tracker, version 1)' });
    const tracker = Tracker.create(engine, { rules: saved.rules, as: saved.as, start: saved.start }, saved.options);
    const id = tracker.id;
    const check = (status: number, what: string) => {
      if (status < 0) {
        tracker.free();
        throw fail('bad-tracker-state', { text: `saved tracker: bad ${what}` });
      }
    };
    const outer = engine.rules;
    engine.setRules(saved.rules); // FENs are read under the tracker's rules (castling, en passant)
    try {
      saved.events.forEach((event, i) => {
        check(core.loadEvent(engine, id, event, i), `event ${i + 1}`);
        tracker.events.push(structuredClone(event));
      });
      if (saved.state.length !== TRACK_STATE_WORDS) check(-1, 'state');
      saved.state.forEach((value, w) => {
        if (w !== TRACK_STATE_EVENTS) check(core.setStateWord(engine, id, w, value), `state word ${w}`);
      });
      saved.witness.parent.forEach((parent, i) => {
        if (core.loadNode(engine, id, parent, saved.witness.move[i]) !== i + 1) check(-1, `witness node ${i + 1}`);
      });
      const load = (which: number, [fen, node]: [string, number]) => {
        engine.setFen(SCRATCH, fen);
        check(core.loadEntry(engine, id, which, SCRATCH, node), `position ${fen}`);
      };
      check(core.loadClear(engine, id, TRACK_SET_LAYER), 'layer');
      for (const p of saved.layer) load(TRACK_SET_LAYER, p);
      check(core.loadClear(engine, id, TRACK_SET_BASE), 'base');
      for (const p of saved.base) load(TRACK_SET_BASE, p);
      check(core.loadClear(engine, id, TRACK_SET_GUIDES), 'guides');
      for (const p of saved.guides ?? []) load(TRACK_SET_GUIDES, p);
      check(core.loadClear(engine, id, TRACK_SET_CHECKPOINTS), 'checkpoints');
      for (const c of saved.checkpoints) {
        check(core.loadCheckpoint(engine, id, c.event), `checkpoint at event ${c.event}`);
        for (const p of c.positions) load(TRACK_SET_CHECKPOINTS, p);
      }
      tracker.begun = saved.begun ?? 0;
      tracker.noStandby = saved.noStandby ?? false;
      tracker.retired = { ...NO_COUNTERS, ...saved.retired };
      tracker.standbys = (saved.standbys ?? []).map((t) => Tracker.restore(engine, t));
    } finally {
      engine.setRules(outer);
    }
    return tracker;
  }

  /** Releases the tracker's slot in the core (its arrays are reused by the next tracker made). */
  free(): void {
    if (this.freed) return;
    for (const s of this.standbys) s.free();
    core.freeTracker(this.engine, this.coreId);
    this.freed = true;
  }
}

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
import { KriegError } from '../status';
import { START_FEN } from '../notation/fen';
import { moveToUci } from '../notation/move';
import { other, type Side, type ViewEvent } from '../referee/record';
import type { RuleSet } from '../referee/rules';
import { encodeViewEvent } from './estimate';

// core constants (assembly/belief/tracker.ts, descent.ts)
const TRACK = { done: 0, more: 1, inconsistent: 4, badTracker: -1, badEvent: -2, noRoom: -3, busy: -4 } as const;
const SET = { layer: 0, base: 1, checkpoints: 2, guides: 3 } as const;
const STATE = {
  mode: 0, baseEvent: 1, random: 2, plies: 3, descentIndex: 4, work: 5, added: 6, descents: 7, restarts: 8,
  recounts: 9, recounted: 10, estimate: 11, events: 12, cuts: 13, lastRecount: 14, start: 15, guidesEvent: 16,
} as const;
const STATE_WORDS = 20 + 76;
const SIDE_OPTION = 9;
/** The POSITIONS record the host reads a tracker's positions through (one of the records it borrows). */
const SCRATCH = 15;
/** Records 12 … 15 are borrowed by trackers during their calls. */
export const TRACKER_RECORDS = { first: 12, end: 16 } as const;
const STEP = 20_000; // work units per core call: the time limit is checked between calls

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
  exactMax: 0, poolMax: 1, poolCut: 2, poolMin: 3, checkpointSize: 4, restartUnit: 5, recountTurns: 6, recountWork: 7, seed: 8, coverage: 10,
};
export const TRACKER_OPTION_NAMES = Object.keys(OPTION_INDEX) as (keyof TrackerOptions)[];

/** An observation's budget: it returns after about this much work or time, whichever comes first. */
export interface Budget { work?: number; timeMs?: number }
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
}

export interface TrackerStats {
  mode: TrackerMode;
  size: number;
  /** The belief's size: exact in exact mode, estimated in pool mode (see assembly/belief/tracker.ts). */
  estimate: number;
  events: number;
  plies: number;
  work: number;
  added: number;
  descents: number;
  restarts: number;
  recounts: number;
  recounted: number;
  cuts: number;
  checkpoints: number;
  witnessNodes?: number;
}

/** A position the tracker holds and the opponent's moves of one history leading to it (UCI). */
export interface TrackedPosition { fen: string; witness: string[] }

/** A saved tracker (JSON): everything needed to go on exactly as the tracker it was saved from would. */
export interface TrackerSave {
  format: 'krieg-tracker';
  version: 1;
  as: Side;
  rules: RuleSet;
  start: string;
  options: Required<TrackerOptions>;
  events: ViewEvent[];
  /** The core's state words (assembly/belief/tracker.ts layout). */
  state: number[];
  /** The witness tree: node i + 1 extends node parent[i] by the opponent's move code move[i] (node 0: no move). */
  witness: { parent: number[]; move: number[] };
  layer: [string, number][];
  base: [string, number][];
  guides: [string, number][];
  checkpoints: { event: number; positions: [string, number][] }[];
}

export class Tracker {
  /** The events observed (the player's view so far). */
  readonly events: ViewEvent[] = [];
  private freed = false;

  private constructor(readonly engine: Engine, readonly id: number, readonly as: Side, readonly rules: RuleSet, readonly start: string, readonly options: Required<TrackerOptions>) {}

  /** A tracker of player `as`'s belief in a game from `start` (default: the initial position) under `rules`. */
  static create(engine: Engine, game: { rules: RuleSet; as: Side; start?: string }, options: TrackerOptions = {}): Tracker {
    const x = engine.core.exports;
    if (engine.capacity < TRACKER_RECORDS.end) throw new KriegError('tracker-no-room', `a tracker needs an engine of at least ${TRACKER_RECORDS.end} records (it has ${engine.capacity})`);
    const start = game.start ?? START_FEN;
    const outer = engine.rules;
    engine.setRules(game.rules); // the tracker keeps its own copy of the rules
    try {
      engine.setFen(SCRATCH, start);
      x.trackerDefaults();
      const buffer = engine.core.view(x.trackerOptionBuffer());
      const resolved = {} as Required<TrackerOptions>;
      for (const name of TRACKER_OPTION_NAMES) {
        const value = options[name];
        if (value !== undefined) {
          if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff) throw new KriegError('bad-tracker-option', `tracker option ${name} must be a non-negative integer, got ${value}`);
          buffer[OPTION_INDEX[name]] = value;
        }
        resolved[name] = buffer[OPTION_INDEX[name]];
      }
      buffer[SIDE_OPTION] = game.as === 'white' ? 0 : 1;
      const id = x.trackerCreate(SCRATCH);
      if (id === TRACK.noRoom) throw new KriegError('tracker-no-room', 'the engine is too small for a tracker');
      if (id < 0) throw new KriegError('bad-tracker-option', `tracker options rejected (poolMax must exceed poolCut, poolMin be at most poolMax, the others positive): ${JSON.stringify(resolved)}`);
      return new Tracker(engine, id, game.as, game.rules, start, resolved);
    } finally {
      engine.setRules(outer);
    }
  }

  private get x() {
    if (this.freed) throw new KriegError('tracker-freed', 'this tracker was freed');
    return this.engine.core.exports;
  }

  /** Exact (the layer is the belief state) or pool (a part of it). */
  get mode(): TrackerMode { return this.x.trackerStat(this.id, STATE.mode) === 0 ? 'exact' : 'pool'; }

  /** Positions held. */
  size(): number { return this.x.trackerSize(this.id, SET.layer); }

  /** Applies one event of the player's view (as host/referee/record.ts writes them), within `budget`. */
  observe(event: ViewEvent, budget: Budget = DEFAULT_BUDGET): Observation {
    const x = this.x;
    const index = this.events.length;
    if (event.type === 'attempt' && event.side !== this.as) throw new KriegError('bad-event', `event ${index + 1}: an attempt by ${event.side} in ${this.as}'s view (the opponent's turns are 'opponent-move' events)`);
    if (event.type === 'opponent-move' && event.side !== other(this.as)) throw new KriegError('bad-event', `event ${index + 1}: an opponent move by ${event.side} in ${this.as}'s view`);
    encodeViewEvent(this.engine.core.view(x.trackerEventBuffer()), 0, event, index);
    const before = this.counters();
    const ply = before.plies + 1;
    const started = performance.now();
    let status = x.trackerObserve(this.id);
    if (status === TRACK.badEvent) throw new KriegError('bad-event', `event ${index + 1}: not a view event`);
    if (status < 0) throw new KriegError('tracker-status', `tracker status ${status}`);
    this.events.push(event);
    const stopped = this.run(status, budget, started);
    status = stopped.status;
    if (status === TRACK.inconsistent) this.events.pop();
    const after = this.counters();
    return {
      status: status === TRACK.inconsistent ? 'inconsistent' : 'ok', event: index, ply, mode: this.mode, size: this.size(),
      stopped: stopped.why, work: after.work - before.work, ms: performance.now() - started, added: after.added - before.added,
      descents: after.descents - before.descents, restarts: after.restarts - before.restarts,
      recount: after.recounts > before.recounts, recounted: after.recounted > before.recounted,
    };
  }

  /** Spends up to `budget` adding positions to the pool until it holds `target` (pool mode; idle time). */
  topUp(target: number, budget: Budget = DEFAULT_BUDGET): Observation {
    const x = this.x;
    const before = this.counters();
    const started = performance.now();
    const status = x.trackerTopUp(this.id, Math.max(0, Math.floor(target)));
    if (status < 0) throw new KriegError('tracker-status', `tracker status ${status}`);
    const stopped = this.run(status, budget, started);
    const after = this.counters();
    return {
      status: 'ok', event: this.events.length - 1, ply: after.plies, mode: this.mode, size: this.size(), stopped: stopped.why,
      work: after.work - before.work, ms: performance.now() - started, added: after.added - before.added,
      descents: after.descents - before.descents, restarts: after.restarts - before.restarts, recount: false, recounted: false,
    };
  }

  private run(status: number, budget: Budget, started: number): { status: number; why: Observation['stopped'] } {
    const x = this.x;
    const work0 = x.trackerStat(this.id, STATE.work);
    let why: Observation['stopped'] = 'complete';
    while (status === TRACK.more) {
      const spent = x.trackerStat(this.id, STATE.work) - work0;
      const left = budget.work === undefined ? STEP : Math.min(STEP, budget.work - spent);
      if (left <= 0) why = 'limit-work';
      else if (budget.timeMs !== undefined && performance.now() - started >= budget.timeMs) why = 'limit-time';
      if (why !== 'complete') { status = x.trackerStop(this.id); break; }
      status = x.trackerRun(this.id, left);
    }
    if (status !== TRACK.done && status !== TRACK.inconsistent) throw new KriegError('tracker-status', `tracker status ${status}`);
    return { status, why };
  }

  private counters() {
    const x = this.x;
    const s = (w: number) => x.trackerStat(this.id, w);
    return {
      work: s(STATE.work), added: s(STATE.added), descents: s(STATE.descents), restarts: s(STATE.restarts),
      recounts: s(STATE.recounts), recounted: s(STATE.recounted), plies: s(STATE.plies),
    };
  }

  stats(): TrackerStats {
    const x = this.x;
    const s = (w: number) => x.trackerStat(this.id, w);
    return {
      mode: this.mode, size: this.size(), estimate: s(STATE.estimate), events: s(STATE.events), plies: s(STATE.plies),
      work: s(STATE.work), added: s(STATE.added), descents: s(STATE.descents), restarts: s(STATE.restarts),
      recounts: s(STATE.recounts), recounted: s(STATE.recounted), cuts: s(STATE.cuts), checkpoints: x.trackerCheckpoint(this.id, -1),
    };
  }

  /** Indices of `k` positions of the layer chosen at random by the tracker's stream (all when k ≥ size, in random order). */
  private sample(k: number): number[] {
    const x = this.x;
    const n = x.trackerSample(this.id, Math.max(0, Math.floor(Math.min(k, 0x7fffffff))));
    return Array.from(this.engine.core.view(x.trackerOutBuffer()).subarray(0, n));
  }

  /** Copies entry `index` of set `which` into record `handle`: its witness node. */
  private entry(which: number, index: number, handle: number): number {
    const node = this.x.trackerEntry(this.id, which, index, handle);
    if (node < 0) throw new KriegError('tracker-status', `no entry ${index} in set ${which}`);
    return node;
  }

  /** FENs of `k` positions held, chosen at random (every one, in layer order, when k is omitted). */
  positions(k?: number): string[] {
    const indices = k === undefined ? Array.from({ length: this.size() }, (_, i) => i) : this.sample(k);
    return indices.map((i) => { this.entry(SET.layer, i, SCRATCH); return this.engine.fen(SCRATCH); });
  }

  /** Positions held with their witnesses (every one, in layer order, when k is omitted; else k at random). */
  entries(k?: number): TrackedPosition[] {
    const indices = k === undefined ? Array.from({ length: this.size() }, (_, i) => i) : this.sample(k);
    return indices.map((i) => {
      const node = this.entry(SET.layer, i, SCRATCH);
      return { fen: this.engine.fen(SCRATCH), witness: this.witnessMoves(node).map(moveToUci) };
    });
  }

  /**
   * Copies `k` positions chosen at random (fewer when fewer are held) into the engine's records
   * first … first + k - 1, for the core to work on (players' searches): how many.
   */
  copyPositions(k: number, first: number): number {
    const indices = this.sample(k);
    this.checkRecords(first, indices.length);
    indices.forEach((index, i) => this.entry(SET.layer, index, first + i));
    return indices.length;
  }

  /**
   * Up to `k` last-observation-consistent positions (assembly/belief/los.ts), within `tries`
   * random placements, copied into records first …: how many. Not part of the pool.
   */
  losPositions(k: number, first: number, tries = 100 * k): number {
    this.checkRecords(first, k);
    const n = this.x.trackerLos(this.id, k, first, tries);
    if (n < 0) throw new KriegError('tracker-status', `tracker status ${n}`);
    return n;
  }

  /** FENs of up to `k` last-observation-consistent positions (through records from `first`). */
  los(k: number, first = TRACKER_RECORDS.end, tries = 100 * k): string[] {
    const n = this.losPositions(k, first, tries);
    return Array.from({ length: n }, (_, i) => this.engine.fen(first + i));
  }

  private checkRecords(first: number, k: number): void {
    if (!Number.isInteger(first) || first < 0 || first + k > this.engine.capacity || (first < TRACKER_RECORDS.end && first + k > TRACKER_RECORDS.first)) {
      throw new KriegError('bad-handle', `records ${first} … ${first + k - 1} are outside the arena or among those trackers borrow (${TRACKER_RECORDS.first} … ${TRACKER_RECORDS.end - 1})`);
    }
  }

  private witnessMoves(node: number): number[] {
    const x = this.x;
    const n = x.trackerWitness(this.id, node);
    return Array.from(this.engine.core.view(x.trackerOutBuffer()).subarray(0, n));
  }

  /** The tracker as JSON (compacting its witness tree first). */
  save(): TrackerSave {
    const x = this.x;
    const nodes = x.trackerCompact(this.id);
    if (nodes < 0) throw new KriegError('tracker-status', `tracker status ${nodes}`);
    const out = () => this.engine.core.view(x.trackerOutBuffer());
    const witness = { parent: [] as number[], move: [] as number[] };
    for (let node = 1; node < nodes; node++) {
      witness.parent.push(x.trackerNode(this.id, node));
      witness.move.push(out()[0]);
    }
    const set = (which: number, from = 0, to = x.trackerSize(this.id, which)): [string, number][] => {
      const list: [string, number][] = [];
      for (let i = from; i < to; i++) {
        const node = this.entry(which, i, SCRATCH);
        list.push([this.engine.fen(SCRATCH), node]);
      }
      return list;
    };
    const checkpoints = Array.from({ length: x.trackerCheckpoint(this.id, -1) }, (_, k) => {
      const event = x.trackerCheckpoint(this.id, k);
      const [from, to] = [out()[0], out()[1]];
      return { event, positions: set(SET.checkpoints, from, to) };
    });
    return {
      format: 'krieg-tracker', version: 1, as: this.as, rules: { ...this.rules }, start: this.start, options: { ...this.options },
      events: this.events.map((e) => structuredClone(e)),
      state: Array.from({ length: STATE_WORDS }, (_, w) => x.trackerStat(this.id, w)),
      witness, layer: set(SET.layer), base: set(SET.base), guides: set(SET.guides), checkpoints,
    };
  }

  /** A tracker in `engine` going on from `saved` exactly as the saved one would. */
  static restore(engine: Engine, saved: TrackerSave): Tracker {
    if (saved?.format !== 'krieg-tracker' || saved.version !== 1) throw new KriegError('bad-tracker-state', 'not a saved krieg tracker (format krieg-tracker, version 1)');
    const tracker = Tracker.create(engine, { rules: saved.rules, as: saved.as, start: saved.start }, saved.options);
    const x = engine.core.exports;
    const id = tracker.id;
    const check = (status: number, what: string) => {
      if (status < 0) { tracker.free(); throw new KriegError('bad-tracker-state', `saved tracker: bad ${what}`); }
    };
    const outer = engine.rules;
    engine.setRules(saved.rules); // FENs are read under the tracker's rules (castling, en passant)
    try {
      saved.events.forEach((event, i) => {
        encodeViewEvent(engine.core.view(x.trackerEventBuffer()), 0, event, i);
        check(x.trackerLoadEvent(id), `event ${i + 1}`);
        tracker.events.push(structuredClone(event));
      });
      if (saved.state.length !== STATE_WORDS) check(-1, 'state');
      saved.state.forEach((value, w) => { if (w !== STATE.events) check(x.trackerSetStat(id, w, value), `state word ${w}`); });
      saved.witness.parent.forEach((parent, i) => {
        if (x.trackerLoadNode(id, parent, saved.witness.move[i]) !== i + 1) check(-1, `witness node ${i + 1}`);
      });
      const load = (which: number, [fen, node]: [string, number]) => {
        engine.setFen(SCRATCH, fen);
        check(x.trackerLoadEntry(id, which, SCRATCH, node), `position ${fen}`);
      };
      check(x.trackerLoadClear(id, SET.layer), 'layer');
      for (const p of saved.layer) load(SET.layer, p);
      check(x.trackerLoadClear(id, SET.base), 'base');
      for (const p of saved.base) load(SET.base, p);
      check(x.trackerLoadClear(id, SET.guides), 'guides');
      for (const p of saved.guides ?? []) load(SET.guides, p);
      check(x.trackerLoadClear(id, SET.checkpoints), 'checkpoints');
      for (const c of saved.checkpoints) {
        check(x.trackerLoadCheckpoint(id, c.event), `checkpoint at event ${c.event}`);
        for (const p of c.positions) load(SET.checkpoints, p);
      }
    } finally {
      engine.setRules(outer);
    }
    return tracker;
  }

  /** Releases the tracker's slot in the core (its arrays are reused by the next tracker made). */
  free(): void {
    if (this.freed) return;
    this.engine.core.exports.trackerFree(this.id);
    this.freed = true;
  }
}

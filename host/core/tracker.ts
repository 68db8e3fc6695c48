// The belief tracker's part of the core's ABI (assembly/belief/tracker.ts) as host values: options
// written, events encoded into the tracker's event buffer, its budgeted steps and their statuses
// mapped, once, to what happened; its sets, witnesses, state words and checkpoints read and
// restored. With host/engine.ts and the other files of host/core/, the only host code that calls
// the core's exports; the Tracker class (host/belief/tracker.ts) is built on it.
import type { Engine } from '../engine';
import { fail } from '../errors';
import {
  TRACK_DONE,
  TRACK_MORE,
  TRACK_INCONSISTENT,
  TRACK_BAD_EVENT,
  TRACK_NO_ROOM,
  TRACK_OPTION_WORDS,
  SCRATCH_PARENT,
  SCRATCH_SPARE,
  FIRST_HOST_FREE,
} from '../constants';
import type { ViewEvent } from '../record/record';
import { encodeViewEvent } from './estimator';

/** Records a tracker borrows during its calls (descent.ts): free for anything between them. */
export const TRACKER_RECORDS = { first: SCRATCH_PARENT, end: FIRST_HOST_FREE } as const;
/** The borrowed record the host reads a tracker's positions through. */
export const TRACKER_SCRATCH = SCRATCH_SPARE;

/** What a tracker step ended with: `more` (the budget ran out), `done`, or `inconsistent` (the event was rejected). */
export type TrackerStep = 'done' | 'more' | 'inconsistent';

function stepOf(status: number): TrackerStep {
  if (status === TRACK_DONE) return 'done';
  if (status === TRACK_MORE) return 'more';
  if (status === TRACK_INCONSISTENT) return 'inconsistent';
  throw fail('tracker-status', { text: `tracker status ${status}` }); // a caller's or the core's bug
}

/** The options buffer filled with the defaults (TRACK_OPTION_* indices). */
export function trackerDefaults(engine: Engine): Int32Array {
  const x = engine.core.exports;
  x.trackerDefaults();
  return engine.core.view(x.trackerOptionBuffer()).slice(0, TRACK_OPTION_WORDS);
}

/** A tracker from record `start` under the engine's rules with `options` (TRACK_OPTION_* indices): its id. */
export function createTracker(engine: Engine, start: number, options: Int32Array): number {
  const x = engine.core.exports;
  engine.core.view(x.trackerOptionBuffer()).set(options.subarray(0, TRACK_OPTION_WORDS));
  const id = x.trackerCreate(start);
  if (id === TRACK_NO_ROOM) throw fail('tracker-no-room', { text: 'the engine is too small for a tracker' });
  if (id < 0)
    throw fail('bad-tracker-option', {
      text: 'tracker options rejected (poolMax must exceed poolCut, poolMin be at most poolMax, the others positive)',
    });
  return id;
}

export function freeTracker(engine: Engine, id: number): void {
  engine.core.exports.trackerFree(id);
}

/** Frees every tracker of the engine (a new game on it: the last game's are done); the core's tracker slots. */
export function freeAllTrackers(engine: Engine): number {
  return engine.core.exports.trackerFreeAll();
}

function writeEvent(engine: Engine, event: ViewEvent, index: number): void {
  encodeViewEvent(engine.core.view(engine.core.exports.trackerEventBuffer()), 0, event, index);
}

/** Appends `event` (the view's `index`-th) and begins applying it: `more` (then runTracker). */
export function observeEvent(engine: Engine, id: number, event: ViewEvent, index: number): TrackerStep {
  writeEvent(engine, event, index);
  const status = engine.core.exports.trackerObserve(id);
  if (status === TRACK_BAD_EVENT) throw fail('bad-event', { text: `event ${index + 1}: not a view event` });
  return stepOf(status);
}

/**
 * Prescribes the opponent's pawn decisions (issue 36): `plan[e]` for view event e, as
 * assembly/belief/plan.ts reads it (-1 any move, 0 a move of a man that is not a pawn, 1 + from +
 * 64 × to that pawn move); replaces any plan set before.
 */
export function prescribePawns(engine: Engine, id: number, plan: ArrayLike<number>): void {
  const x = engine.core.exports;
  x.trackerPlan(id, -1, 0);
  for (let e = 0; e < plan.length; e++)
    if (plan[e] !== -1 && x.trackerPlan(id, e, plan[e]) !== TRACK_DONE)
      throw fail('tracker-status', { text: `bad pawn plan word ${plan[e]} at event ${e + 1}` });
}

/** Continues the observation or top-up for about `budget` work units. */
export function runTracker(engine: Engine, id: number, budget: number): TrackerStep {
  return stepOf(engine.core.exports.trackerRun(id, budget));
}

/** Ends the observation now, keeping what was done. */
export function stopTracker(engine: Engine, id: number): TrackerStep {
  return stepOf(engine.core.exports.trackerStop(id));
}

/** Begins topping the pool up to `target` positions. */
export function beginTopUp(engine: Engine, id: number, target: number): TrackerStep {
  return stepOf(engine.core.exports.trackerTopUp(id, target));
}

/** Positions in set `which` (TRACK_SET_*). */
export function setSize(engine: Engine, id: number, which: number): number {
  return engine.core.exports.trackerSize(id, which);
}

/** Copies entry `index` of set `which` into record `handle`: its witness node. */
export function copyEntry(engine: Engine, id: number, which: number, index: number, handle: number): number {
  const node = engine.core.exports.trackerEntry(id, which, index, handle);
  if (node < 0) throw fail('tracker-status', { text: `no entry ${index} in set ${which}` });
  return node;
}

function out(engine: Engine, n: number): number[] {
  return Array.from(engine.core.view(engine.core.exports.trackerOutBuffer()).subarray(0, n));
}

/** The opponent's move codes of witness `node`, first first. */
export function witnessMoves(engine: Engine, id: number, node: number): number[] {
  return out(engine, engine.core.exports.trackerWitness(id, node));
}

/** Indices of `k` layer positions chosen by the tracker's random stream. */
export function sampleEntries(engine: Engine, id: number, k: number): number[] {
  return out(engine, engine.core.exports.trackerSample(id, k));
}

/** Up to `k` last-observation-consistent positions into records first …, within `tries` placements: how many. */
export function losInto(engine: Engine, id: number, k: number, first: number, tries: number): number {
  const n = engine.core.exports.trackerLos(id, k, first, tries);
  if (n < 0) throw fail('tracker-status', { text: `tracker status ${n}` });
  return n;
}

/** State word `which` (TRACK_STATE_*). */
export function stateWord(engine: Engine, id: number, which: number): number {
  return engine.core.exports.trackerStat(id, which);
}

// ---- saving and restoring: a negative status is a saved state the core refuses ----

export function setStateWord(engine: Engine, id: number, which: number, value: number): number {
  return engine.core.exports.trackerSetStat(id, which, value);
}
export function loadEvent(engine: Engine, id: number, event: ViewEvent, index: number): number {
  writeEvent(engine, event, index);
  return engine.core.exports.trackerLoadEvent(id);
}
export function loadNode(engine: Engine, id: number, parent: number, move: number): number {
  return engine.core.exports.trackerLoadNode(id, parent, move);
}
export function loadClear(engine: Engine, id: number, which: number): number {
  return engine.core.exports.trackerLoadClear(id, which);
}
export function loadCheckpoint(engine: Engine, id: number, event: number): number {
  return engine.core.exports.trackerLoadCheckpoint(id, event);
}
export function loadEntry(engine: Engine, id: number, which: number, handle: number, witness: number): number {
  return engine.core.exports.trackerLoadEntry(id, which, handle, witness);
}

export function checkpointCount(engine: Engine, id: number): number {
  return engine.core.exports.trackerCheckpoint(id, -1);
}
/** Checkpoint `k`: the view event it stands before, and its entries' range in the checkpoints set. */
export function checkpointRange(engine: Engine, id: number, k: number): { event: number; from: number; to: number } {
  const event = engine.core.exports.trackerCheckpoint(id, k);
  const [from, to] = out(engine, 2);
  return { event, from, to };
}

/** Collects the witness tree's garbage: the nodes left. */
export function compactWitnesses(engine: Engine, id: number): number {
  const nodes = engine.core.exports.trackerCompact(id);
  if (nodes < 0) throw fail('tracker-status', { text: `tracker status ${nodes}` });
  return nodes;
}
/** Witness node `node`: its parent and move. */
export function witnessNode(engine: Engine, id: number, node: number): { parent: number; move: number } {
  const parent = engine.core.exports.trackerNode(id, node);
  return { parent, move: out(engine, 1)[0] };
}

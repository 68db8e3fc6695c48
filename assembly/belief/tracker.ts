// Belief tracking through a whole game (issue 13): one player's belief state kept up to date as
// each event of his view arrives, within a work budget per event.
//
// - EXACT mode: the layer is the exact belief state (Russell & Wolfe 2005, §2), updated from the
//   previous one by the referee's own consistency functions (estimate.ts): an own attempt or an
//   announcement filters it, an opponent turn replaces each position by every legal move that
//   passes the Illegal count and matches the announcements, duplicates removed. It stays exact
//   while it holds at most exactMax positions.
// - POOL mode (Parker, Nau & Subrahmanian 2005, §2 "AOSP", §4.1): past exactMax the layer is a
//   pool of positions each consistent with every event so far. Events filter and expand it the
//   same way, but an expansion makes only what it keeps: each parent at most poolCut / parents of
//   its matching children, chosen at random (and besides them any that brings a rare placement,
//   layer.ts Coverage), so that it makes about poolCut positions and no line of descent crowds out
//   the others. One that would still pass poolMax keeps each new position with a probability
//   halved each time the layer fills (it is cut to poolCut), so every child is equally likely to
//   stay, as if the whole expansion had been made and then cut (Parker: above 20,000, cut to
//   10,000). When the pool holds fewer than poolMin positions it is topped up by
//   shuffled depth-first descents over the histories the view allows (descent.ts; Parker §4.2),
//   restarted on a Luby schedule (luby.ts): the i-th descent starts from a random position of a
//   checkpoint 2^j - 1 opponent turns back (luby(i) = 2^j: the root, the start position, when
//   there are not that many) and is abandoned after restartUnit × luby(i) work.
// - A checkpoint is a random subset (checkpointSize positions) of the layer as it was before an
//   opponent turn: positions consistent with the view up to that turn, each with its witness.
// - Back to EXACT: the last exact layer (the base) is kept when the tracker leaves exact mode. The
//   pool's own changes estimate the belief's size (the fraction of the pool each filter keeps; the
//   matching moves per position of each expansion); when the estimate falls to exactMax within
//   recountTurns opponent turns of the base, an exhaustive descent from every base position over
//   the rest of the view (at most recountWork work) recounts the belief: if it has at most
//   exactMax positions, it is the exact layer again. An exhaustive recount that finds none proves
//   the view inconsistent.
// Every position held has a witness (witness.ts): the opponent's moves of one history to it.
//
// An event is applied in budgeted steps (trackerRun), so the host can stop on time; whatever the
// budget, the layer is consistent. Stopped during an update, the layer keeps the positions made
// so far (the parents are taken in random order, so they are a random part of it) and exact mode
// becomes pool mode. An event that leaves the exact belief empty, or that an exhaustive recount
// proves inconsistent, is rejected: everything is put back as it was before it.
//
// A tracker's state lives in its own arrays (layers, witness tree, checkpoints, view, descent
// frames), so any other use of the engine between its calls leaves it intact, and an engine holds
// any number of trackers. During a call it borrows POSITIONS records 12 … 15 (descent.ts), the
// host's move list, the view the consistency functions read (view.ts useView), the rule set (its
// own is put in place and the engine's restored) and the random stream (its own state, saved).
//
// This file is the tracker's calls (the ABI's tracker* functions); tracker/ holds its mechanisms:
// layout.ts (statuses, option and state layouts), state.ts (the Tracker, entering and leaving a
// call), observe.ts (an event applied, committed or rolled back), checkpoints.ts, sampler.ts (the
// pool's top-ups) and recount.ts (back to exact mode).

import { ANSWER_LEGAL } from '../referee/referee';
import {
  FIRST_COLLECTION,
  MAX_CHECKPOINTS,
  PHASE_IDLE,
  PHASE_RECOUNT,
  PHASE_TOP_UP,
  PHASE_UPDATE,
  T,
  TRACKERS,
  Tracker,
  clock,
  enter,
  leave,
  option,
} from './tracker/state';
import { FIRST_HOST_FREE } from './descent';
import { Layer } from './layer';
import { OWN_STATE_WORDS, losPositions } from './los';
import { POSITIONS, POSITION_SHIFT, W_FULLMOVE, W_SIDE, positionCapacity } from '../chess/position';
import { RULES, RULE_FIFTY_MOVES, rule } from '../referee/rules';
import {
  TRACKER_EVENT,
  TRACKER_OPTIONS,
  TRACK_BAD_EVENT,
  TRACK_BAD_TRACKER,
  TRACK_BUSY,
  TRACK_DONE,
  TRACK_EXACT,
  TRACK_INCONSISTENT,
  TRACK_MORE,
  TRACK_NO_ROOM,
  TRACK_OPTION_CHECKPOINT_SIZE,
  TRACK_OPTION_COVERAGE,
  TRACK_OPTION_EXACT_MAX,
  TRACK_OPTION_POOL_CUT,
  TRACK_OPTION_POOL_MAX,
  TRACK_OPTION_POOL_MIN,
  TRACK_OPTION_RECOUNT_TURNS,
  TRACK_OPTION_RECOUNT_WORK,
  TRACK_OPTION_RESTART_UNIT,
  TRACK_OPTION_SEED,
  TRACK_OPTION_SIDE,
  TRACK_POOL,
  TRACK_SET_BASE,
  TRACK_SET_CHECKPOINTS,
  TRACK_SET_GUIDES,
  TRACK_STATE_ESTIMATE,
  TRACK_STATE_EVENTS,
  TRACK_STATE_GUIDES_EVENT,
  TRACK_STATE_LAST_RECOUNT,
  TRACK_STATE_MODE,
  TRACK_STATE_OWN,
  TRACK_STATE_PLIES,
  TRACK_STATE_RANDOM,
  TRACK_STATE_START,
  TRACK_STATE_WORDS,
} from './tracker/layout';
import { VIEW_WORDS, V_ANY, V_OWN_ATTEMPT, eventWord, isBranching, useView, viewLength } from './view';
import { beginRecount, recountStep, recountWanted } from './tracker/recount';
import { commit, finish, rollback, update } from './tracker/observe';
import { randomBelow, setRandomState } from '../chess/random';
import { resetOwnAttempts } from './consistency';
import { takeCheckpoint } from './tracker/checkpoints';
import { topUp } from './tracker/sampler';
import { PLAN_FREE, withPlanWord } from './plan';

/** Witness moves out (trackerWitness), one move code per word. */
export let TRACKER_OUT = new Int32Array(1024);

// ---- creation ----

/** Fills TRACKER_OPTIONS with the defaults. */
export function trackerDefaults(): void {
  const o = TRACKER_OPTIONS;
  o.fill(0);
  o[TRACK_OPTION_EXACT_MAX] = 100000;
  o[TRACK_OPTION_POOL_MAX] = 20000;
  o[TRACK_OPTION_POOL_CUT] = 10000;
  o[TRACK_OPTION_POOL_MIN] = 1000;
  o[TRACK_OPTION_CHECKPOINT_SIZE] = 256;
  o[TRACK_OPTION_RESTART_UNIT] = 2048;
  o[TRACK_OPTION_RECOUNT_TURNS] = 1;
  o[TRACK_OPTION_RECOUNT_WORK] = 4000000;
  o[TRACK_OPTION_SEED] = 1;
  o[TRACK_OPTION_COVERAGE] = 3;
}

/**
 * A tracker for the player TRACKER_OPTIONS[9] from POSITIONS record `start` (the game's start),
 * under the engine's current rules, with the options in TRACKER_OPTIONS: its id, or
 * TRACK_BAD_EVENT (bad options) / TRACK_NO_ROOM.
 */
export function trackerCreate(start: i32): i32 {
  const o = TRACKER_OPTIONS;
  if (positionCapacity() < FIRST_HOST_FREE || start < 0 || start >= positionCapacity()) return TRACK_NO_ROOM;
  if (
    o[TRACK_OPTION_EXACT_MAX] < 1 ||
    o[TRACK_OPTION_POOL_CUT] < 1 ||
    o[TRACK_OPTION_POOL_MAX] <= o[TRACK_OPTION_POOL_CUT] ||
    o[TRACK_OPTION_POOL_MIN] < 0 ||
    o[TRACK_OPTION_POOL_MIN] > o[TRACK_OPTION_POOL_MAX] ||
    o[TRACK_OPTION_CHECKPOINT_SIZE] < 1 ||
    o[TRACK_OPTION_RESTART_UNIT] < 1 ||
    o[TRACK_OPTION_RECOUNT_TURNS] < 0 ||
    o[TRACK_OPTION_RECOUNT_WORK] < 0 ||
    (o[TRACK_OPTION_SIDE] != 0 && o[TRACK_OPTION_SIDE] != 1) ||
    o[TRACK_OPTION_COVERAGE] < 0
  ) {
    return TRACK_BAD_EVENT;
  }
  let id = 0;
  while (id < TRACKERS.length && unchecked(TRACKERS[id]).inUse) id++;
  if (id == TRACKERS.length) TRACKERS.push(new Tracker());
  const t = unchecked(TRACKERS[id]);
  t.inUse = true;
  t.options.set(o);
  t.rules.set(RULES);
  t.state.fill(0);
  t.state[TRACK_STATE_RANDOM] = o[TRACK_OPTION_SEED] == 0 ? 0x6d2b79f5 : o[TRACK_OPTION_SEED];
  t.state[TRACK_STATE_MODE] = TRACK_EXACT;
  t.state[TRACK_STATE_ESTIMATE] = 1;
  t.state[TRACK_STATE_LAST_RECOUNT] = -1;
  t.phase = PHASE_IDLE;
  t.tree.reset();
  t.collectAt = FIRST_COLLECTION;
  t.descent.stop();
  t.descentActive = false;
  t.plan = new Int32Array(0);
  t.state[TRACK_STATE_GUIDES_EVENT] = -1;
  const fifty = rule(RULE_FIFTY_MOVES) != 0;
  t.layer.clear(o[TRACK_OPTION_EXACT_MAX], fifty);
  t.layer.add(start, 0);
  t.next.clear(o[TRACK_OPTION_EXACT_MAX], fifty);
  t.base.clear(o[TRACK_OPTION_EXACT_MAX], fifty);
  t.recount.clear(o[TRACK_OPTION_EXACT_MAX], fifty);
  t.guides.clear(o[TRACK_OPTION_CHECKPOINT_SIZE], fifty);
  // the root checkpoint: the start, before any event
  t.checkpoints.clear((MAX_CHECKPOINTS + 1) * o[TRACK_OPTION_CHECKPOINT_SIZE] + 1, fifty);
  t.checkpoints.append(start, 0);
  t.cpCount = 1;
  unchecked((t.cpFirst[0] = 0));
  unchecked((t.cpFirst[1] = 1));
  unchecked((t.cpEvent[0] = 0));
  t.own.init(start, o[TRACK_OPTION_SIDE]);
  t.state[TRACK_STATE_START] =
    POSITIONS[(start << POSITION_SHIFT) + W_FULLMOVE] * 2 + POSITIONS[(start << POSITION_SHIFT) + W_SIDE];
  return id;
}

/** Frees tracker `id` (its arrays are kept for the next tracker made). */
export function trackerFree(id: i32): i32 {
  if (id < 0 || id >= TRACKERS.length || !unchecked(TRACKERS[id]).inUse) return TRACK_BAD_TRACKER;
  unchecked(TRACKERS[id]).inUse = false;
  return TRACK_DONE;
}

/**
 * Frees every tracker of the engine, for a new game on it (the last game's players are done with
 * theirs: a player's trackers are not freed one by one when its game ends, and each new one would
 * otherwise take a slot of its own, its arrays grown by its game, until memory runs out). Their
 * arrays are kept for the trackers made next. Returns the slots there are.
 */
export function trackerFreeAll(): i32 {
  for (let id = 0; id < TRACKERS.length; id++) unchecked(TRACKERS[id]).inUse = false;
  return TRACKERS.length;
}

// ---- observing an event ----

/**
 * Appends the event in TRACKER_EVENT to tracker `id`'s view and starts applying it: TRACK_MORE
 * (continue with trackerRun, finish early with trackerStop), or a negative status.
 */
export function trackerObserve(id: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (T.phase != PHASE_IDLE) return leave(TRACK_BUSY);
  const type = TRACKER_EVENT[0] & 15;
  if (type < V_OWN_ATTEMPT || type > V_ANY) return leave(TRACK_BAD_EVENT);
  collect();
  // what a rejection puts back
  T.saved.set(T.state);
  for (let i = 0; i < OWN_STATE_WORDS; i++) T.saved[TRACK_STATE_OWN + i] = unchecked(T.own.state[i]);
  T.savedNodes = T.tree.count;
  T.savedCheckpoints = T.cpCount;
  T.savedCheckpointEntries = T.checkpoints.count;
  // the view grows by the event
  const e = appendEvent();
  resetOwnAttempts();
  if (type == V_OWN_ATTEMPT && (eventWord(e, 2) & 3) == ANSWER_LEGAL) T.own.ownMove(eventWord(e, 1), eventWord(e, 2));
  if (isBranching(e)) {
    T.own.opponentMove(eventWord(e, 2));
    takeCheckpoint(e);
  }
  // the parents in random order
  const n = T.layer.count;
  if (T.order.length < n) T.order = new Int32Array(max(n, T.order.length * 2));
  for (let i = 0; i < n; i++) unchecked((T.order[i] = i));
  for (let i = n - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    const x = unchecked(T.order[i]);
    unchecked((T.order[i] = unchecked(T.order[j])));
    unchecked((T.order[j] = x));
  }
  T.orderCount = n;
  T.orderNext = 0;
  T.acceptance = 1;
  T.perParent = max(1, i32((<f64>option(TRACK_OPTION_POOL_CUT) + <f64>n - 1) / <f64>max(1, n)));
  T.leftExact = false;
  T.committed = false;
  T.guidesTouched = false;
  T.observeWork = 0;
  T.next.clear(
    i32(T.state[TRACK_STATE_MODE]) == TRACK_EXACT ? option(TRACK_OPTION_EXACT_MAX) : option(TRACK_OPTION_POOL_MAX),
    clock(),
  );
  T.cover.rare = option(TRACK_OPTION_COVERAGE);
  T.cover.clear();
  T.phase = PHASE_UPDATE;
  return leave(TRACK_MORE);
}

/**
 * Continues tracker `id`'s observation for at most about `budget` work units: TRACK_MORE (more
 * to do), TRACK_DONE (the event is applied, the pool topped up, any recount made), or
 * TRACK_INCONSISTENT (the event was rejected and everything is as before it).
 */
export function trackerRun(id: i32, budget: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (T.phase == PHASE_IDLE) return leave(TRACK_DONE);
  const stopAt = T.observeWork + <f64>max(1, budget);
  for (;;) {
    if (T.phase == PHASE_UPDATE) {
      if (!update(stopAt)) return leave(TRACK_MORE);
      if (!commit(false)) return leave(TRACK_INCONSISTENT);
      T.phase = PHASE_TOP_UP;
      T.topUpTarget = option(TRACK_OPTION_POOL_MIN);
    }
    if (T.phase == PHASE_TOP_UP) {
      if (i32(T.state[TRACK_STATE_MODE]) == TRACK_POOL && T.layer.count < T.topUpTarget) {
        if (!topUp(stopAt)) return leave(TRACK_MORE);
      }
      T.phase = recountWanted() ? PHASE_RECOUNT : PHASE_IDLE;
      if (T.phase == PHASE_RECOUNT) beginRecount();
    }
    if (T.phase == PHASE_RECOUNT) {
      const r = recountStep(stopAt);
      if (r == TRACK_MORE) return leave(TRACK_MORE);
      if (r == TRACK_INCONSISTENT) {
        rollback();
        return leave(TRACK_INCONSISTENT);
      }
      T.phase = PHASE_IDLE;
    }
    finish();
    return leave(TRACK_DONE);
  }
}

/** Ends tracker `id`'s observation now (the host's time is up): what was done is kept. TRACK_DONE. */
export function trackerStop(id: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (T.phase == PHASE_UPDATE) commit(true);
  T.phase = PHASE_IDLE;
  finish();
  return leave(TRACK_DONE);
}

/**
 * Starts topping up tracker `id`'s pool (spending idle time) until it holds `target` positions:
 * TRACK_MORE (continue with trackerRun) or TRACK_DONE (nothing to do: exact mode, or enough).
 */
export function trackerTopUp(id: i32, target: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (T.phase != PHASE_IDLE) return leave(TRACK_BUSY);
  if (i32(T.state[TRACK_STATE_MODE]) != TRACK_POOL || T.layer.count >= target) return leave(TRACK_DONE);
  T.observeWork = 0;
  T.committed = false;
  T.topUpTarget = min(target, option(TRACK_OPTION_POOL_MAX));
  T.phase = PHASE_TOP_UP;
  return leave(TRACK_MORE);
}

// ---- witness collection ----

/** At the start of an observation, when the tree has grown enough: keep the nodes of the positions held. */
function collect(): void {
  const tree = T.tree;
  if (tree.count < T.collectAt) return;
  tree.beginMark();
  markLayer(T.layer);
  markLayer(T.base);
  markLayer(T.checkpoints);
  markLayer(T.guides);
  tree.sweep();
  moveLayer(T.layer);
  moveLayer(T.base);
  moveLayer(T.checkpoints);
  moveLayer(T.guides);
  T.collectAt = max(FIRST_COLLECTION, tree.count * 2);
}

function markLayer(layer: Layer): void {
  for (let i = 0; i < layer.count; i++) T.tree.mark(layer.witnessOf(i));
}

function moveLayer(layer: Layer): void {
  for (let i = 0; i < layer.count; i++) layer.setWitness(i, T.tree.moved(layer.witnessOf(i)));
}

// ---- reading a tracker ----

function setOf(which: i32): Layer {
  return which == TRACK_SET_BASE
    ? T.base
    : which == TRACK_SET_CHECKPOINTS
      ? T.checkpoints
      : which == TRACK_SET_GUIDES
        ? T.guides
        : T.layer;
}

/** Positions in set `which` of tracker `id` (SET_*), or a negative status. */
export function trackerSize(id: i32, which: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  return leave(setOf(which).count);
}

/** Copies position `index` of set `which` into POSITIONS record `handle`: its witness node, or a negative status. */
export function trackerEntry(id: i32, which: i32, index: i32, handle: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  const set = setOf(which);
  if (index < 0 || index >= set.count || handle < 0 || handle >= positionCapacity()) return leave(TRACK_BAD_EVENT);
  set.copyOut(index, handle);
  return leave(set.witnessOf(index));
}

/** Writes the witness of node `node` (the opponent's moves, first first) into TRACKER_OUT: how many. */
export function trackerWitness(id: i32, node: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (node < 0 || node >= T.tree.count) return leave(TRACK_BAD_EVENT);
  const n = T.tree.length(node);
  if (TRACKER_OUT.length < n) TRACKER_OUT = new Int32Array(n * 2);
  return leave(T.tree.write(node, TRACKER_OUT));
}

/** Chooses `k` positions of the layer at random (all when fewer, in random order): their indices into TRACKER_OUT, how many. */
export function trackerSample(id: i32, k: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  const layer = T.layer;
  const n = min(max(k, 0), layer.count);
  if (T.order.length < layer.count) T.order = new Int32Array(max(layer.count, T.order.length * 2));
  if (TRACKER_OUT.length < n) TRACKER_OUT = new Int32Array(n);
  for (let i = 0; i < layer.count; i++) unchecked((T.order[i] = i));
  for (let i = 0; i < n; i++) {
    const j = i + randomBelow(layer.count - i);
    const x = unchecked(T.order[j]);
    unchecked((T.order[j] = unchecked(T.order[i])));
    unchecked((T.order[i] = x));
    unchecked((TRACKER_OUT[i] = x));
  }
  return leave(n);
}

/** Up to `k` last-observation-consistent positions (los.ts) into POSITIONS records first …, within `tries` placements: how many. */
export function trackerLos(id: i32, k: i32, first: i32, tries: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (k < 0 || first < 0 || first + k > positionCapacity()) return leave(TRACK_BAD_EVENT);
  const start = i32(T.state[TRACK_STATE_START]);
  const fullmove = (start >> 1) + ((i32(T.state[TRACK_STATE_PLIES]) + (start & 1)) >> 1);
  return leave(losPositions(T.own, T.layer, k, first, tries, fullmove));
}

/** Word `which` of tracker `id`'s state (layout above; the own board from word 16 on), or NaN. */
export function trackerStat(id: i32, which: i32): f64 {
  if (!enter(id)) return NaN;
  if (which < 0 || which >= TRACK_STATE_WORDS) {
    leave(TRACK_DONE);
    return NaN;
  }
  const value =
    which == TRACK_STATE_EVENTS
      ? <f64>viewLength()
      : which >= TRACK_STATE_OWN
        ? <f64>unchecked(T.own.state[which - TRACK_STATE_OWN])
        : T.state[which];
  leave(TRACK_DONE);
  return value;
}

// ---- restoring a saved tracker (made by trackerCreate with the same options, then these) ----

/** Sets word `which` of tracker `id`'s state (restoring; its view, loaded by trackerLoadEvent, first). */
export function trackerSetStat(id: i32, which: i32, value: f64): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (which < 0 || which >= TRACK_STATE_WORDS || which == TRACK_STATE_EVENTS) return leave(TRACK_BAD_EVENT);
  if (which >= TRACK_STATE_OWN) unchecked((T.own.state[which - TRACK_STATE_OWN] = i32(value)));
  else T.state[which] = value;
  if (which == TRACK_STATE_RANDOM) setRandomState(i32(value)); // leave() keeps the stream's state
  return leave(TRACK_DONE);
}

/** Appends TRACKER_EVENT to tracker `id`'s view without applying it (restoring). */
export function trackerLoadEvent(id: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  appendEvent();
  return leave(TRACK_DONE);
}

/** Appends TRACKER_EVENT to the entered tracker's view (grown by doubling); returns its index. */
function appendEvent(): i32 {
  const e = viewLength();
  if ((e + 1) * VIEW_WORDS > T.view.length) {
    const grown = new Int32Array(T.view.length * 2);
    grown.set(T.view);
    T.view = grown;
  }
  for (let w = 0; w < VIEW_WORDS; w++) unchecked((T.view[e * VIEW_WORDS + w] = unchecked(TRACKER_EVENT[w])));
  useView(T.view, e + 1);
  return e;
}

/** Appends a witness node (restoring): its index. Nodes come in order, parents first; node 0 exists. */
export function trackerLoadNode(id: i32, parent: i32, move: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (parent < 0 || parent >= T.tree.count) return leave(TRACK_BAD_EVENT);
  return leave(T.tree.add(parent, move));
}

/** Empties set `which` of tracker `id` (restoring; the checkpoints lose their root too). */
export function trackerLoadClear(id: i32, which: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  const set = setOf(which);
  set.clear(
    which == TRACK_SET_CHECKPOINTS || which == TRACK_SET_GUIDES ? set.limit : option(TRACK_OPTION_EXACT_MAX),
    clock(),
  );
  if (which == TRACK_SET_CHECKPOINTS) {
    T.cpCount = 0;
    unchecked((T.cpFirst[0] = 0));
  }
  return leave(TRACK_DONE);
}

/** Begins a checkpoint at view event `event` (restoring): the following TRACK_SET_CHECKPOINTS entries are its. */
export function trackerLoadCheckpoint(id: i32, event: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (T.cpCount == MAX_CHECKPOINTS) return leave(TRACK_BAD_EVENT);
  unchecked((T.cpEvent[T.cpCount] = event));
  T.cpCount++;
  unchecked((T.cpFirst[T.cpCount] = T.checkpoints.count));
  return leave(TRACK_DONE);
}

/** Adds POSITIONS record `handle` with witness node `witness` to set `which` (restoring). */
export function trackerLoadEntry(id: i32, which: i32, handle: i32, witness: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  const set = setOf(which);
  if (witness < 0 || witness >= T.tree.count || set.full() || handle < 0 || handle >= positionCapacity())
    return leave(TRACK_BAD_EVENT);
  if (which == TRACK_SET_CHECKPOINTS) {
    set.append(handle, witness);
    unchecked((T.cpFirst[T.cpCount] = T.checkpoints.count));
  } else if (!set.insert(handle, witness)) return leave(TRACK_BAD_EVENT);
  return leave(TRACK_DONE);
}

/** Checkpoints of tracker `id`: how many; with `k` ≥ 0, checkpoint k's event, and its first entry into TRACKER_OUT[0], its end into [1]. */
export function trackerCheckpoint(id: i32, k: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (k < 0) return leave(T.cpCount);
  if (k >= T.cpCount) return leave(TRACK_BAD_EVENT);
  TRACKER_OUT[0] = unchecked(T.cpFirst[k]);
  TRACKER_OUT[1] = unchecked(T.cpFirst[k + 1]);
  return leave(unchecked(T.cpEvent[k]));
}

/** Collects tracker `id`'s witness garbage now (before saving): the number of nodes left. */
export function trackerCompact(id: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (T.phase != PHASE_IDLE) return leave(TRACK_BUSY);
  const at = T.collectAt;
  T.collectAt = 0;
  collect();
  T.collectAt = max(at, T.collectAt);
  return leave(T.tree.count);
}

/**
 * Prescribes the opponent's pawn decision at view event `event` (plan.ts: PLAN_FREE, PLAN_PIECE
 * or a pawn move's word) for the tracker's updates and descents from now on; a negative event
 * clears the plan. TRACK_DONE, or TRACK_BAD_EVENT for a word that is none of them.
 */
export function trackerPlan(id: i32, event: i32, word: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (word < PLAN_FREE || word > 64 * 64) return leave(TRACK_BAD_EVENT);
  T.plan = event < 0 ? new Int32Array(0) : withPlanWord(T.plan, event, word);
  return leave(TRACK_DONE);
}

/** Witness node `node`'s parent (its move into TRACKER_OUT[0]), for saving. */
export function trackerNode(id: i32, node: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (node < 0 || node >= T.tree.count) return leave(TRACK_BAD_EVENT);
  TRACKER_OUT[0] = unchecked(T.tree.move[node]);
  return leave(unchecked(T.tree.parent[node]));
}

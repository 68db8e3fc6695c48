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
//   pool.ts Coverage), so that it makes about poolCut positions and no line of descent crowds out
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
// Options (TRACKER_OPTIONS, read by trackerCreate; trackerDefaults fills them):
// | index | option          | default   | meaning                                                |
// |-------|-----------------|-----------|--------------------------------------------------------|
// | 0     | exactMax        | 100,000   | the exact belief is kept while at most this large      |
// | 1     | poolMax         | 20,000    | a pool above this is cut …                             |
// | 2     | poolCut         | 10,000    | … to this many positions (seeded random choice)        |
// | 3     | poolMin         | 1,000     | below this the pool is topped up by the sampler        |
// | 4     | checkpointSize  | 256       | positions kept per checkpoint                          |
// | 5     | restartUnit     | 2,048     | work of the sampler's shortest descent                 |
// | 6     | recountTurns    | 1         | opponent turns after the base a recount may span       |
// | 7     | recountWork     | 4,000,000 | work one recount may take                              |
// | 8     | seed            | 1         | the tracker's random stream                            |
// | 9     | side            | —         | the player's colour: 0 White, 1 Black                   |
// | 10    | coverage        | 3         | a pool cut keeps first the positions that put one of the |
// |       |                 |           | opponent's men where fewer than this many others have one |
// |       |                 |           | of that kind (pool.ts Coverage); 0: a plain random cut   |
//
// State (one f64 per word: trackerStat reads, trackerSetStat writes; saving and statistics):
// | index | field           | meaning                                                        |
// |-------|-----------------|----------------------------------------------------------------|
// | 0     | mode            | TRACK_EXACT or TRACK_POOL                                        |
// | 1     | baseEvent       | the view event the base (last exact layer) stands before       |
// | 2     | random          | the random stream's state                                      |
// | 3     | plies           | moves (of either side) in the view                             |
// | 4     | descentIndex    | the sampler's descents so far (its place in the Luby sequence) |
// | 5     | work            | work units spent since creation                                |
// | 6     | added           | positions the sampler added to the pool                        |
// | 7     | descents        | descents begun by the sampler                                  |
// | 8     | restarts        | descents abandoned at their cutoff                             |
// | 9     | recounts        | recounts begun                                                 |
// | 10    | recounted       | recounts that made the layer exact again                       |
// | 11    | estimate        | the belief's size: exact, or estimated in pool mode            |
// | 12    | events          | events in the view                                             |
// | 13    | cuts            | times a layer was cut                                          |
// | 14    | lastRecount     | view length at the last recount (one recount per event)        |
// | 15    | start           | the start's move number × 2 + its side to move                |
// | 16    | guidesEvent     | the guides fit the events before this one (-1: no guides)      |
// | 17…19 | (reserved)      |                                                                |
// | 20 …  | own board       | OWN_STATE_WORDS words (los.ts)                                 |

import {
  POSITIONS,
  POSITION_SHIFT,
  POSITION_WORDS,
  W_FULLMOVE,
  W_SIDE,
  MOVE_PROMOTION,
  positionCapacity,
  makeMove,
  pieceAt,
  copyPosition,
} from '../chess/position';
import { MOVES, HOST_LIST, listOffset, generateMoves } from '../chess/moveGen';
import { RULES, RULE_COUNT, RULE_FIFTY_MOVES, rule, applyRules } from '../referee/rules';
import { ANSWER_LEGAL, legalMoveFor } from '../referee/referee';
import { randomBelow, currentRandomState, setRandomState } from '../chess/random';
import {
  VIEW,
  VIEW_WORDS,
  viewLength,
  useView,
  eventType,
  eventWord,
  isBranching,
  V_OWN_ATTEMPT,
  V_OPPONENT,
  V_ANY,
} from './view';
import { applyEvent, opponentMoveMatches, illegalCountPossibleGiven, resetOwnAttempts } from './consistency';
import { luby } from './luby';
import { WitnessTree } from './witness';
import { Layer, Coverage, signatureOf } from './pool';
import {
  Descent,
  DESCENT_LEAF,
  DESCENT_MORE,
  SCRATCH_PARENT,
  SCRATCH_A,
  SCRATCH_B,
  SCRATCH_SPARE,
  FIRST_HOST_FREE,
} from './descent';
import { OwnBoard, OWN_STATE_WORDS, losPositions } from './los';

export const TRACK_DONE: i32 = 0;
export const TRACK_MORE: i32 = 1;
export const TRACK_INCONSISTENT: i32 = 4;
export const TRACK_BAD_TRACKER: i32 = -1;
export const TRACK_BAD_EVENT: i32 = -2;
/** The engine's arena is too small for the records a tracker borrows (FIRST_HOST_FREE). */
export const TRACK_NO_ROOM: i32 = -3;
/** trackerObserve while an observation is in progress. */
export const TRACK_BUSY: i32 = -4;

export const TRACK_EXACT: i32 = 0;
export const TRACK_POOL: i32 = 1;

/** trackerSize / trackerEntry: which set of positions. */
export const TRACK_SET_LAYER: i32 = 0;
export const TRACK_SET_BASE: i32 = 1;
export const TRACK_SET_CHECKPOINTS: i32 = 2;
export const TRACK_SET_GUIDES: i32 = 3;

export const TRACK_OPTION_WORDS: i32 = 16;
export const TRACK_OPTION_EXACT_MAX: i32 = 0;
export const TRACK_OPTION_POOL_MAX: i32 = 1;
export const TRACK_OPTION_POOL_CUT: i32 = 2;
export const TRACK_OPTION_POOL_MIN: i32 = 3;
export const TRACK_OPTION_CHECKPOINT_SIZE: i32 = 4;
export const TRACK_OPTION_RESTART_UNIT: i32 = 5;
export const TRACK_OPTION_RECOUNT_TURNS: i32 = 6;
export const TRACK_OPTION_RECOUNT_WORK: i32 = 7;
export const TRACK_OPTION_SEED: i32 = 8;
export const TRACK_OPTION_SIDE: i32 = 9;
export const TRACK_OPTION_COVERAGE: i32 = 10;
export const TRACKER_OPTIONS = new Int32Array(TRACK_OPTION_WORDS);

export const TRACK_STATE_WORDS: i32 = 20 + OWN_STATE_WORDS;
export const TRACK_STATE_MODE: i32 = 0;
export const TRACK_STATE_BASE_EVENT: i32 = 1;
export const TRACK_STATE_RANDOM: i32 = 2;
export const TRACK_STATE_PLIES: i32 = 3;
export const TRACK_STATE_DESCENT_INDEX: i32 = 4;
export const TRACK_STATE_WORK: i32 = 5;
export const TRACK_STATE_ADDED: i32 = 6;
export const TRACK_STATE_DESCENTS: i32 = 7;
export const TRACK_STATE_RESTARTS: i32 = 8;
export const TRACK_STATE_RECOUNTS: i32 = 9;
export const TRACK_STATE_RECOUNTED: i32 = 10;
export const TRACK_STATE_ESTIMATE: i32 = 11;
export const TRACK_STATE_EVENTS: i32 = 12;
export const TRACK_STATE_CUTS: i32 = 13;
export const TRACK_STATE_LAST_RECOUNT: i32 = 14;
export const TRACK_STATE_START: i32 = 15;
export const TRACK_STATE_GUIDES_EVENT: i32 = 16;
export const TRACK_STATE_OWN: i32 = 20;
/** Witness moves out (trackerWitness), one move code per word. */
export let TRACKER_OUT = new Int32Array(1024);
/** The event trackerObserve reads (view.ts layout, VIEW_WORDS words). */
export const TRACKER_EVENT = new Int32Array(VIEW_WORDS);

/** Checkpoints kept: past this many at the end of an observation, every other old one is dropped. */
const MAX_CHECKPOINTS: i32 = 64;
/** Witness nodes beyond which a collection is made at the start of an observation. */
const FIRST_COLLECTION: i32 = 1 << 16;

// phases of an observation
const PHASE_IDLE: i32 = 0;
const PHASE_UPDATE: i32 = 1;
const PHASE_TOP_UP: i32 = 2;
const PHASE_RECOUNT: i32 = 3;

class Tracker {
  inUse: bool = false;
  options: Int32Array = new Int32Array(TRACK_OPTION_WORDS);
  rules: Int32Array = new Int32Array(RULE_COUNT);
  view: Int32Array = new Int32Array(64 * VIEW_WORDS);
  state: Float64Array = new Float64Array(TRACK_STATE_WORDS);
  layer: Layer = new Layer();
  next: Layer = new Layer();
  base: Layer = new Layer();
  recount: Layer = new Layer();
  checkpoints: Layer = new Layer();
  cpFirst: Int32Array = new Int32Array(MAX_CHECKPOINTS + 2);
  cpEvent: Int32Array = new Int32Array(MAX_CHECKPOINTS + 1);
  cpCount: i32 = 0;
  tree: WitnessTree = new WitnessTree();
  collectAt: i32 = FIRST_COLLECTION;
  descent: Descent = new Descent();
  own: OwnBoard = new OwnBoard();
  // the observation in progress
  phase: i32 = PHASE_IDLE;
  order: Int32Array = new Int32Array(0);
  orderCount: i32 = 0;
  orderNext: i32 = 0;
  acceptance: f64 = 1;
  /** Pool mode: children kept at most per parent (poolCut / parents, rounded up), so that no line of descent crowds out the others. */
  perParent: i32 = 0;
  /** Histories guided descents may follow (topUp): guides made when the layer died, consistent with the events before guidesEvent (-1: none). */
  guides: Layer = new Layer();
  /** This top-up's source of histories (the layer or the guides), the events they fit and their opponent turns. */
  guideSource: Layer | null = null;
  guideEvent: i32 = 0;
  guideTurns: i32 = 0;
  guideMoves: Int32Array = new Int32Array(256);
  /** The guides were changed in this observation (a rejection then drops them). */
  guidesTouched: bool = false;
  /** The opponent's men in the next layer, by kind and square (pool.ts Coverage). */
  cover: Coverage = new Coverage();
  leftExact: bool = false;
  committed: bool = false;
  observeWork: f64 = 0;
  /** The sampler's descent in progress: its cutoff (absolute work) and whether one is running. */
  descentActive: bool = false;
  descentCutoff: f64 = 0;
  topUpTarget: i32 = 0;
  recountEntry: i32 = 0;
  // what rollback restores
  saved: Float64Array = new Float64Array(TRACK_STATE_WORDS);
  savedNodes: i32 = 0;
  savedCheckpoints: i32 = 0;
  savedCheckpointEntries: i32 = 0;
}

const TRACKERS: Tracker[] = [];
let T: Tracker = new Tracker(); // the tracker being worked on (set by enter)

// ---- entering and leaving a tracker's call ----

let outerView: Int32Array = new Int32Array(0);
let outerViewLength: i32 = 0;
let outerRandom: i32 = 0;
const OUTER_RULES = new Int32Array(RULE_COUNT);
let rulesSwapped: bool = false;

function enter(id: i32): bool {
  if (id < 0 || id >= TRACKERS.length || !unchecked(TRACKERS[id]).inUse) return false;
  T = unchecked(TRACKERS[id]);
  outerView = VIEW;
  outerViewLength = viewLength();
  useView(T.view, i32(T.state[TRACK_STATE_EVENTS]));
  rulesSwapped = false;
  for (let i = 0; i < RULE_COUNT; i++) {
    if (unchecked(RULES[i]) != unchecked(T.rules[i])) {
      rulesSwapped = true;
      break;
    }
  }
  if (rulesSwapped) {
    OUTER_RULES.set(RULES);
    RULES.set(T.rules);
    applyRules();
  }
  outerRandom = currentRandomState();
  setRandomState(i32(T.state[TRACK_STATE_RANDOM]));
  resetOwnAttempts(); // its caches belong to another view
  return true;
}

function leave(status: i32): i32 {
  T.state[TRACK_STATE_RANDOM] = currentRandomState();
  T.state[TRACK_STATE_EVENTS] = viewLength();
  setRandomState(outerRandom);
  useView(outerView, outerViewLength);
  if (rulesSwapped) {
    RULES.set(OUTER_RULES);
    applyRules();
  }
  resetOwnAttempts();
  return status;
}

function option(which: i32): i32 {
  return unchecked(T.options[which]);
}
function clock(): bool {
  return rule(RULE_FIFTY_MOVES) != 0;
}

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

// ---- observing an event ----

function isMove(e: i32): bool {
  const type = eventType(e);
  return (type == V_OWN_ATTEMPT && (eventWord(e, 2) & 3) == ANSWER_LEGAL) || isBranching(e);
}

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

function spend(units: f64): void {
  T.observeWork += units;
  T.state[TRACK_STATE_WORK] = T.state[TRACK_STATE_WORK] + units;
}

/** Applies the event to the parents from orderNext on, until `stopAt` work: true when every parent is done. */
function update(stopAt: f64): bool {
  const e = viewLength() - 1;
  const branching = isBranching(e);
  const percept = eventWord(e, 2);
  const list = listOffset(HOST_LIST);
  const layer = T.layer;
  const next = T.next;
  const tree = T.tree;
  const cover = T.cover;
  const them = option(TRACK_OPTION_SIDE) ^ 1;
  while (T.orderNext < T.orderCount) {
    if (T.observeWork >= stopAt) return false;
    const i = unchecked(T.order[T.orderNext++]);
    layer.copyOut(i, SCRATCH_PARENT);
    const witness = layer.witnessOf(i);
    if (!branching) {
      const r = applyEvent(SCRATCH_PARENT, e, SCRATCH_A, -1);
      spend(1);
      if (r >= 0) next.insert(r, witness);
      continue;
    }
    const n = generateMoves(SCRATCH_PARENT, list);
    spend(n + 1);
    if (!illegalCountPossibleGiven(SCRATCH_PARENT, e, n)) continue;
    cover.childrenOf(SCRATCH_PARENT, them);
    if (i32(T.state[TRACK_STATE_MODE]) == TRACK_EXACT) {
      for (let k = 0; k < n; k++) {
        const move = unchecked(MOVES[list + k]);
        if (!opponentMoveMatches(SCRATCH_PARENT, move, SCRATCH_A, percept) || next.has(SCRATCH_A)) continue;
        next.add(SCRATCH_A, tree.add(witness, move));
        cover.addChild(move, SCRATCH_A);
        if (next.full()) overflow();
      }
      cover.endChildren(false);
      continue;
    }
    // pool mode: at most perParent children of each parent, chosen at random among its matching
    // moves, and besides them any that puts his man on a square few positions have one of that
    // kind on. The moves are taken in random order (a Fisher-Yates shuffle drawn as it goes) and
    // the first perParent that match are chosen: a uniform choice among the matching moves, made
    // without testing the others, of which only the rare ones are tested at all.
    const parentBase = SCRATCH_PARENT << POSITION_SHIFT;
    const rareMaterial = cover.isRareSignature(signatureOf(POSITIONS, SCRATCH_PARENT, them));
    const perParent = T.perParent;
    let chosen = 0;
    for (let k = 0; k < n; k++) {
      if (chosen < perParent) {
        const j = k + randomBelow(n - k);
        const x = unchecked(MOVES[list + j]);
        unchecked((MOVES[list + j] = unchecked(MOVES[list + k])));
        unchecked((MOVES[list + k] = x));
      }
      const move = unchecked(MOVES[list + k]);
      const kind = move >> 12;
      const type = kind >= MOVE_PROMOTION ? kind - 2 : pieceAt(parentBase, move & 63) & 7;
      const rare = rareMaterial || cover.isRare(type, (move >> 6) & 63) || cover.isRare(0, move & 63);
      if (!rare && chosen >= perParent) continue;
      if (!opponentMoveMatches(SCRATCH_PARENT, move, SCRATCH_A, percept)) continue;
      chosen++; // a move not rare is tested only while fewer than perParent are chosen
      if (!rare && T.acceptance < 1 && <f64>randomBelow(1 << 24) >= T.acceptance * 16777216.0) continue;
      if (next.has(SCRATCH_A)) continue;
      next.add(SCRATCH_A, tree.add(witness, move));
      cover.addChild(move, SCRATCH_A);
      if (next.full()) overflow();
    }
    cover.endChildren(false);
  }
  return true;
}

/** The next layer is full: cut it to poolCut and keep later children with the same chance as those kept (leaving exact mode). */
function overflow(): void {
  const next = T.next;
  const cut = option(TRACK_OPTION_POOL_CUT);
  if (i32(T.state[TRACK_STATE_MODE]) == TRACK_EXACT) {
    T.leftExact = true;
    T.state[TRACK_STATE_MODE] = TRACK_POOL;
  }
  T.acceptance = min(1, (T.acceptance * <f64>cut) / <f64>next.count);
  next.cut(cut, T.cover, option(TRACK_OPTION_SIDE) ^ 1);
  T.cover.endChildren(true); // the counts are the entries kept: the parent's children so far among them
  next.limit = option(TRACK_OPTION_POOL_MAX);
  T.state[TRACK_STATE_CUTS] = T.state[TRACK_STATE_CUTS] + 1;
}

/**
 * Makes the next layer the current one (`partial`: not every parent was done). False when the
 * event is rejected (an exact update left nothing): everything is put back.
 */
function commit(partial: bool): bool {
  const e = viewLength() - 1;
  const wasExact = i32(T.state[TRACK_STATE_MODE]) == TRACK_EXACT;
  if (wasExact && !partial && !T.leftExact && T.next.count == 0) {
    rollback();
    return false;
  }
  // the size estimate: exact, or scaled by what this update did to the pool
  const before = T.layer.count;
  const done = T.orderNext;
  if (wasExact && !partial && !T.leftExact) T.state[TRACK_STATE_ESTIMATE] = T.next.count;
  else if (done > 0) {
    // each parent stands for estimate / before positions of the belief, and each position kept
    // for 1 / acceptance of those made from the `done` parents (duplicates among them merged)
    T.state[TRACK_STATE_ESTIMATE] = max(
      1,
      (((T.state[TRACK_STATE_ESTIMATE] / <f64>before) * <f64>T.next.count) / T.acceptance) * (<f64>before / <f64>done),
    );
  }
  if (wasExact && (partial || T.leftExact)) {
    // leaving exact mode: the previous layer, exact, is the base a recount starts from
    T.state[TRACK_STATE_MODE] = TRACK_POOL;
    T.base.copyFrom(T.layer);
    T.state[TRACK_STATE_BASE_EVENT] = e;
    if (partial)
      T.state[TRACK_STATE_ESTIMATE] = max(T.state[TRACK_STATE_ESTIMATE], <f64>option(TRACK_OPTION_EXACT_MAX) + 1);
  }
  if (i32(T.state[TRACK_STATE_MODE]) == TRACK_POOL && T.next.count > option(TRACK_OPTION_POOL_MAX)) {
    T.next.cut(option(TRACK_OPTION_POOL_CUT), T.cover, option(TRACK_OPTION_SIDE) ^ 1);
    T.state[TRACK_STATE_CUTS] = T.state[TRACK_STATE_CUTS] + 1;
  }
  const t = T.layer;
  T.layer = T.next;
  T.next = t;
  T.committed = true;
  if (isMove(e)) T.state[TRACK_STATE_PLIES] = T.state[TRACK_STATE_PLIES] + 1;
  return true;
}

/** Puts back everything as it was before the observation began (the event is dropped). */
function rollback(): void {
  if (T.committed) {
    const t = T.layer;
    T.layer = T.next;
    T.next = t;
  }
  const work = T.state[TRACK_STATE_WORK];
  T.state.set(T.saved);
  T.state[TRACK_STATE_WORK] = work; // the work was spent all the same
  for (let i = 0; i < OWN_STATE_WORDS; i++) unchecked((T.own.state[i] = i32(T.saved[TRACK_STATE_OWN + i])));
  T.tree.count = T.savedNodes;
  T.cpCount = T.savedCheckpoints;
  T.checkpoints.truncate(T.savedCheckpointEntries);
  useView(T.view, i32(T.saved[TRACK_STATE_EVENTS]));
  setRandomState(i32(T.saved[TRACK_STATE_RANDOM]));
  T.descent.stop();
  T.descentActive = false;
  T.descent.recordPartials(null, T.tree, -1);
  T.phase = PHASE_IDLE;
  T.committed = false;
  T.guideSource = null;
  if (T.guidesTouched) {
    T.guides.clear(option(TRACK_OPTION_CHECKPOINT_SIZE), clock());
    T.state[TRACK_STATE_GUIDES_EVENT] = -1;
  }
}

/** The observation is over: the next layer's room is free, the sampler's descent dropped. */
function finish(): void {
  T.next.clear(option(TRACK_OPTION_EXACT_MAX), clock());
  T.descent.recordPartials(null, T.tree, -1);
  T.guideSource = null;
  if (T.layer.count > 0 && i32(T.state[TRACK_STATE_GUIDES_EVENT]) >= 0) {
    T.guides.clear(option(TRACK_OPTION_CHECKPOINT_SIZE), clock());
    T.state[TRACK_STATE_GUIDES_EVENT] = -1;
  } // alive again
  if (T.cpCount >= MAX_CHECKPOINTS) thinCheckpoints();
  T.descent.stop();
  T.descentActive = false;
  T.phase = PHASE_IDLE;
}

// ---- checkpoints ----

/** Before opponent turn `e`: a random subset of the layer becomes a checkpoint. */
function takeCheckpoint(e: i32): void {
  const layer = T.layer;
  if (layer.count == 0) return;
  const cp = T.checkpoints;
  const k = min(option(TRACK_OPTION_CHECKPOINT_SIZE), layer.count);
  // a partial Fisher-Yates over entry indices (the order array is rebuilt after)
  if (T.order.length < layer.count) T.order = new Int32Array(max(layer.count, T.order.length * 2));
  for (let i = 0; i < layer.count; i++) unchecked((T.order[i] = i));
  for (let i = 0; i < k; i++) {
    const j = i + randomBelow(layer.count - i);
    const x = unchecked(T.order[i]);
    unchecked((T.order[i] = unchecked(T.order[j])));
    unchecked((T.order[j] = x));
    layer.copyOut(unchecked(T.order[i]), SCRATCH_SPARE);
    cp.append(SCRATCH_SPARE, layer.witnessOf(unchecked(T.order[i])));
  }
  unchecked((T.cpEvent[T.cpCount] = e));
  T.cpCount++;
  unchecked((T.cpFirst[T.cpCount] = cp.count));
}

/** Every other checkpoint between the root and the newest is dropped (older ones thin out geometrically). */
function thinCheckpoints(): void {
  const cp = T.checkpoints;
  const records = cp.records;
  let kept = 1;
  let entries = unchecked(T.cpFirst[1]);
  for (let c = 1; c < T.cpCount; c++) {
    if ((c & 1) == 1 && c != T.cpCount - 1) continue;
    const from = unchecked(T.cpFirst[c]);
    const to = unchecked(T.cpFirst[c + 1]);
    unchecked((T.cpEvent[kept] = unchecked(T.cpEvent[c])));
    unchecked((T.cpFirst[kept] = entries));
    for (let i = from; i < to; i++) {
      // entries only move down
      const d = (entries + 1) << POSITION_SHIFT;
      const s = (i + 1) << POSITION_SHIFT;
      for (let w = 0; w < POSITION_WORDS; w++) unchecked((records[d + w] = unchecked(records[s + w])));
      cp.setWitness(entries, cp.witnessOf(i));
      entries++;
    }
    kept++;
  }
  T.cpCount = kept;
  unchecked((T.cpFirst[kept] = entries));
  cp.truncate(entries);
}

// ---- the sampler: topping up the pool ----

/**
 * Descents until the layer holds topUpTarget positions or `stopAt` work: true when the target is
 * met. Even descents are guided, odd ones start from a checkpoint, each kind on its own Luby
 * schedule (span = luby(i / 2)):
 * - a guided descent takes a known consistent history (a position of the layer, or when the layer
 *   is empty, of the guides: positions that were consistent just before the event that emptied
 *   it), goes back `span` opponent turns along it, and searches from there with the history's
 *   own moves tried first at each later turn and last at the first: the nearest variations of a
 *   history that fits, so the first ones found differ from it in a move or two (a rejuvenation of
 *   the pool, and its repair after an announcement it had not foreseen);
 * - a checkpoint descent starts from a random position of the checkpoint `span` - 1 opponent turns
 *   before the newest (the root when there are not that many), all orders random (Parker §4.2).
 */
function topUp(stopAt: f64): bool {
  const layer = T.layer;
  const d = T.descent;
  prepareGuides();
  // with the layer empty, the furthest partial histories become the guides
  if (layer.count == 0 && T.guideSource != null) {
    d.recordPartials(T.guides, T.tree, i32(T.state[TRACK_STATE_GUIDES_EVENT]));
    T.guidesTouched = true;
  }
  while (layer.count < T.topUpTarget) {
    if (T.observeWork >= stopAt) return false;
    let status = DESCENT_MORE;
    if (!T.descentActive) status = beginDescent();
    else {
      const before = d.work;
      status = d.next(min(stopAt - T.observeWork, T.descentCutoff - d.work));
      spend(d.work - before);
    }
    if (d.partialEvent > i32(T.state[TRACK_STATE_GUIDES_EVENT])) {
      // the guides moved forward
      T.state[TRACK_STATE_GUIDES_EVENT] = d.partialEvent;
      T.guideEvent = d.partialEvent;
      let turns = 0;
      for (let e = 0; e < T.guideEvent; e++) if (isBranching(e)) turns++;
      T.guideTurns = turns;
    }
    if (status == DESCENT_LEAF) {
      if (!layer.has(d.leaf)) {
        layer.add(d.leaf, d.leafWitness(T.tree));
        T.state[TRACK_STATE_ADDED] = T.state[TRACK_STATE_ADDED] + 1;
      }
      continue;
    }
    if (status == DESCENT_MORE && d.work < T.descentCutoff) continue; // out of budget: the loop returns
    // exhausted, or at its cutoff: the next descent
    if (status == DESCENT_MORE) T.state[TRACK_STATE_RESTARTS] = T.state[TRACK_STATE_RESTARTS] + 1;
    T.descentActive = false;
    d.stop();
  }
  return true;
}

/**
 * The histories guided descents follow: the layer's, or when it is empty, the guides (made from
 * the layer before the event that emptied it, while the observation that did so is in progress).
 */
function prepareGuides(): void {
  if (T.layer.count > 0) {
    T.guideSource = T.layer;
    T.guideEvent = viewLength();
  } else if (T.committed && T.next.count > 0) {
    // the layer died in this observation: a random part of the one before becomes the guides
    const from = T.next;
    const guides = T.guides;
    guides.clear(option(TRACK_OPTION_CHECKPOINT_SIZE), clock());
    const k = min(option(TRACK_OPTION_CHECKPOINT_SIZE), from.count);
    for (let i = 0; i < k; i++) {
      const j = randomBelow(from.count);
      from.copyOut(j, SCRATCH_SPARE);
      guides.insert(SCRATCH_SPARE, from.witnessOf(j));
    }
    T.guideSource = guides;
    T.guidesTouched = true;
    T.guideEvent = viewLength() - 1;
    T.state[TRACK_STATE_GUIDES_EVENT] = T.guideEvent;
  } else if (i32(T.state[TRACK_STATE_GUIDES_EVENT]) >= 0 && T.guides.count > 0) {
    T.guideSource = T.guides;
    T.guideEvent = i32(T.state[TRACK_STATE_GUIDES_EVENT]);
  } else {
    T.guideSource = null;
    return;
  }
  let turns = 0;
  for (let e = 0; e < T.guideEvent; e++) if (isBranching(e)) turns++;
  T.guideTurns = turns;
}

/** Begins the next descent (see topUp). */
function beginDescent(): i32 {
  const index = i32(T.state[TRACK_STATE_DESCENT_INDEX]);
  T.state[TRACK_STATE_DESCENT_INDEX] = index + 1;
  T.state[TRACK_STATE_DESCENTS] = T.state[TRACK_STATE_DESCENTS] + 1;
  const span = luby(index >> 2);
  const d = T.descent;
  const unit = <f64>option(TRACK_OPTION_RESTART_UNIT);
  T.descentCutoff = d.work + unit * <f64>span;
  const source = T.guideSource;
  const kind = index & 3;
  if (kind != 1 && source != null && source.count > 0 && T.guideTurns > 0) {
    if (kind == 0) return beginGuided(source, span, 2, false); // two changes in the last span turns
    if (kind == 2) {
      // one change in the last 4 × span turns: every one of them, nearest the end first
      T.descentCutoff = d.work + unit * <f64>span * <f64>span;
      return beginGuided(source, 4 * span, 1, false);
    }
    // one change at a random turn, anywhere in the history (deep diversity)
    const back = 1 + randomBelow(T.guideTurns);
    T.descentCutoff = d.work + unit + 64 * <f64>back;
    return beginGuided(source, back, 1, true);
  }
  const c = max(0, T.cpCount - span); // span = 2^j: 2^j - 1 checkpoints back from the newest
  const from = unchecked(T.cpFirst[c]);
  const entry = from + randomBelow(unchecked(T.cpFirst[c + 1]) - from);
  T.checkpoints.copyOut(entry, SCRATCH_SPARE);
  const before = d.work;
  const status = d.begin(SCRATCH_SPARE, unchecked(T.cpEvent[c]), T.checkpoints.witnessOf(entry), true);
  spend(d.work - before);
  T.descentActive = status == DESCENT_MORE;
  return status;
}

/** A guided descent from a random history of `source`, diverging `span` opponent turns before its end. */
function beginGuided(source: Layer, span: i32, discrepancies: i32, diverge: bool): i32 {
  const entry = randomBelow(source.count);
  const node = source.witnessOf(entry);
  const tree = T.tree;
  const turns = tree.length(node);
  if (T.guideMoves.length < turns) T.guideMoves = new Int32Array(turns * 2);
  tree.write(node, T.guideMoves);
  const target = max(0, turns - span);
  // the history's position before opponent turn `target`: replayed from the start
  let ancestor = node;
  for (let i = target; i < turns; i++) ancestor = unchecked(tree.parent[ancestor]);
  T.checkpoints.copyOut(0, SCRATCH_A);
  let h = SCRATCH_A;
  let turn = 0;
  let e = 0;
  for (; e < viewLength(); e++) {
    if (isBranching(e)) {
      if (turn == target) break;
      const dst = h == SCRATCH_A ? SCRATCH_B : SCRATCH_A;
      makeMove(h, unchecked(T.guideMoves[turn++]), dst);
      h = dst;
    } else if (eventType(e) == V_OWN_ATTEMPT && (eventWord(e, 2) & 3) == ANSWER_LEGAL) {
      const dst = h == SCRATCH_A ? SCRATCH_B : SCRATCH_A;
      makeMove(h, legalMoveFor(h, eventWord(e, 1)), dst);
      h = dst;
    }
  }
  spend(<f64>e);
  copyPosition(h, SCRATCH_SPARE);
  const d = T.descent;
  d.setGuide(T.guideMoves, target, turns, discrepancies, diverge);
  const before = d.work;
  const status = d.beginGuided(SCRATCH_SPARE, e, ancestor, true, true);
  spend(d.work - before);
  T.descentActive = status == DESCENT_MORE;
  return status;
}

// ---- recount: back to exact mode ----

function recountWanted(): bool {
  if (i32(T.state[TRACK_STATE_MODE]) != TRACK_POOL) return false;
  if (T.state[TRACK_STATE_LAST_RECOUNT] == <f64>viewLength()) return false; // one recount per event
  if (T.state[TRACK_STATE_ESTIMATE] > <f64>option(TRACK_OPTION_EXACT_MAX) && T.layer.count > 0) return false;
  let turns = 0;
  for (let e = i32(T.state[TRACK_STATE_BASE_EVENT]); e < viewLength(); e++) if (isBranching(e)) turns++;
  return turns <= option(TRACK_OPTION_RECOUNT_TURNS);
}

function beginRecount(): void {
  T.state[TRACK_STATE_RECOUNTS] = T.state[TRACK_STATE_RECOUNTS] + 1;
  T.state[TRACK_STATE_LAST_RECOUNT] = viewLength();
  T.recount.clear(option(TRACK_OPTION_EXACT_MAX), clock());
  T.recountEntry = 0;
  T.descentActive = false;
  T.descentCutoff = T.observeWork + <f64>option(TRACK_OPTION_RECOUNT_WORK); // the recount's own limit (observe work)
}

/**
 * Exhaustive descents from every base position: TRACK_MORE (budget), TRACK_DONE (finished: the
 * layer is exact again, or the recount gave up), TRACK_INCONSISTENT (nothing at all: the view is).
 */
function recountStep(stopAt: f64): i32 {
  const d = T.descent;
  const out = T.recount;
  const base = T.base;
  const e0 = i32(T.state[TRACK_STATE_BASE_EVENT]);
  for (;;) {
    if (T.observeWork >= T.descentCutoff) {
      d.stop();
      return TRACK_DONE;
    } // too much: stay in pool mode
    if (T.observeWork >= stopAt) return TRACK_MORE;
    let status = DESCENT_MORE;
    const before = d.work;
    if (!T.descentActive) {
      if (T.recountEntry >= base.count) break;
      base.copyOut(T.recountEntry, SCRATCH_SPARE);
      status = d.begin(SCRATCH_SPARE, e0, base.witnessOf(T.recountEntry), false);
      T.recountEntry++;
      T.descentActive = status == DESCENT_MORE;
    } else {
      status = d.next(min(stopAt, T.descentCutoff) - T.observeWork);
      // a leaf is one of the subtree's: the descent goes on from it until the subtree is exhausted
      if (status != DESCENT_MORE && status != DESCENT_LEAF) T.descentActive = false;
    }
    spend(d.work - before);
    if (status == DESCENT_LEAF) {
      if (out.full()) {
        d.stop();
        return TRACK_DONE;
      } // more than exactMax: stay in pool mode
      if (!out.has(d.leaf)) out.add(d.leaf, d.leafWitness(T.tree));
    }
  }
  if (out.count == 0) return TRACK_INCONSISTENT;
  const t = T.layer;
  T.layer = out;
  T.recount = t;
  T.recount.clear(option(TRACK_OPTION_EXACT_MAX), clock());
  T.state[TRACK_STATE_MODE] = TRACK_EXACT;
  T.state[TRACK_STATE_ESTIMATE] = T.layer.count;
  T.state[TRACK_STATE_RECOUNTED] = T.state[TRACK_STATE_RECOUNTED] + 1;
  return TRACK_DONE;
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

/** Witness node `node`'s parent (its move into TRACKER_OUT[0]), for saving. */
export function trackerNode(id: i32, node: i32): i32 {
  if (!enter(id)) return TRACK_BAD_TRACKER;
  if (node < 0 || node >= T.tree.count) return leave(TRACK_BAD_EVENT);
  TRACKER_OUT[0] = unchecked(T.tree.move[node]);
  return leave(unchecked(T.tree.parent[node]));
}

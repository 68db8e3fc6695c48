// The belief tracker's state: one Tracker per id, the tracker being worked on (T, set by enter)
// and what every mechanism shares (its options, the work it spends).

import { ANSWER_LEGAL } from '../../referee/referee';
import { Coverage, Layer } from '../layer';
import { Descent } from '../descent';
import { OwnBoard } from '../los';
import { RULES, RULE_COUNT, RULE_FIFTY_MOVES, applyRules, rule } from '../../referee/rules';
import {
  TRACK_OPTION_WORDS,
  TRACK_STATE_EVENTS,
  TRACK_STATE_RANDOM,
  TRACK_STATE_WORDS,
  TRACK_STATE_WORK,
} from './layout';
import { VIEW, VIEW_WORDS, V_OWN_ATTEMPT, eventType, eventWord, isBranching, useView, viewLength } from '../view';
import { WitnessTree } from '../witness';
import { currentRandomState, setRandomState } from '../../chess/random';
import { resetOwnAttempts } from '../consistency';
import { usePlan } from '../plan';

/** Checkpoints kept: past this many at the end of an observation, every other old one is dropped. */
export const MAX_CHECKPOINTS: i32 = 64;
/** Witness nodes beyond which a collection is made at the start of an observation. */
export const FIRST_COLLECTION: i32 = 1 << 16;

// phases of an observation
export const PHASE_IDLE: i32 = 0;
export const PHASE_UPDATE: i32 = 1;
export const PHASE_TOP_UP: i32 = 2;
export const PHASE_RECOUNT: i32 = 3;

export class Tracker {
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
  /** Prescribed pawn decisions by view event (plan.ts; empty: none). */
  plan: Int32Array = new Int32Array(0);
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
  /** The opponent's men in the next layer, by kind and square (layer.ts Coverage). */
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

export const TRACKERS: Tracker[] = [];
export let T: Tracker = new Tracker(); // the tracker being worked on (set by enter)

// ---- entering and leaving a tracker's call ----

export let outerView: Int32Array = new Int32Array(0);
export let outerViewLength: i32 = 0;
export let outerRandom: i32 = 0;
export const OUTER_RULES = new Int32Array(RULE_COUNT);
export let rulesSwapped: bool = false;

export function enter(id: i32): bool {
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
  usePlan(T.plan);
  return true;
}

export function leave(status: i32): i32 {
  T.state[TRACK_STATE_RANDOM] = currentRandomState();
  T.state[TRACK_STATE_EVENTS] = viewLength();
  setRandomState(outerRandom);
  useView(outerView, outerViewLength);
  if (rulesSwapped) {
    RULES.set(OUTER_RULES);
    applyRules();
  }
  resetOwnAttempts();
  usePlan(null);
  return status;
}

export function option(which: i32): i32 {
  return unchecked(T.options[which]);
}
export function clock(): bool {
  return rule(RULE_FIFTY_MOVES) != 0;
}

export function isMove(e: i32): bool {
  const type = eventType(e);
  return (type == V_OWN_ATTEMPT && (eventWord(e, 2) & 3) == ANSWER_LEGAL) || isBranching(e);
}

export function spend(units: f64): void {
  T.observeWork += units;
  T.state[TRACK_STATE_WORK] = T.state[TRACK_STATE_WORK] + units;
}

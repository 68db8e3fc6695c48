// The tracker's recount: back to exact mode by exhaustive descents from the base.

import { DESCENT_LEAF, DESCENT_MORE, SCRATCH_SPARE } from '../descent';
import { T, clock, option, spend } from './state';
import {
  TRACK_DONE,
  TRACK_EXACT,
  TRACK_INCONSISTENT,
  TRACK_MORE,
  TRACK_OPTION_EXACT_MAX,
  TRACK_OPTION_RECOUNT_TURNS,
  TRACK_OPTION_RECOUNT_WORK,
  TRACK_POOL,
  TRACK_STATE_BASE_EVENT,
  TRACK_STATE_ESTIMATE,
  TRACK_STATE_LAST_RECOUNT,
  TRACK_STATE_MODE,
  TRACK_STATE_RECOUNTED,
  TRACK_STATE_RECOUNTS,
} from './layout';
import { isBranching, viewLength } from '../view';

export function recountWanted(): bool {
  if (i32(T.state[TRACK_STATE_MODE]) != TRACK_POOL) return false;
  if (T.state[TRACK_STATE_LAST_RECOUNT] == <f64>viewLength()) return false; // one recount per event
  if (T.state[TRACK_STATE_ESTIMATE] > <f64>option(TRACK_OPTION_EXACT_MAX) && T.layer.count > 0) return false;
  let turns = 0;
  for (let e = i32(T.state[TRACK_STATE_BASE_EVENT]); e < viewLength(); e++) if (isBranching(e)) turns++;
  return turns <= option(TRACK_OPTION_RECOUNT_TURNS);
}

export function beginRecount(): void {
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
export function recountStep(stopAt: f64): i32 {
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

// The tracker's sampler: topping up the pool by descents from checkpoints and guided ones.

import { ANSWER_LEGAL, legalMoveFor } from '../../referee/referee';
import { DESCENT_LEAF, DESCENT_MORE, SCRATCH_A, SCRATCH_B, SCRATCH_SPARE } from '../descent';
import { Layer } from '../layer';
import { T, clock, option, spend } from './state';
import {
  TRACK_OPTION_CHECKPOINT_SIZE,
  TRACK_OPTION_RESTART_UNIT,
  TRACK_STATE_ADDED,
  TRACK_STATE_DESCENTS,
  TRACK_STATE_DESCENT_INDEX,
  TRACK_STATE_GUIDES_EVENT,
  TRACK_STATE_RESTARTS,
} from './layout';
import { V_OWN_ATTEMPT, eventType, eventWord, isBranching, viewLength } from '../view';
import { copyPosition, makeMove } from '../../chess/position';
import { luby } from '../luby';
import { randomBelow } from '../../chess/random';

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
export function topUp(stopAt: f64): bool {
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
export function prepareGuides(): void {
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
export function beginDescent(): i32 {
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
export function beginGuided(source: Layer, span: i32, discrepancies: i32, diverge: bool): i32 {
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

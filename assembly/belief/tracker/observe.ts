// The tracker's update: an event applied to the layer (exact, or the pool and its cuts), committed
// or rolled back.

import { HOST_LIST, MOVES, generateMoves, listOffset } from '../../chess/moveGen';
import { MAX_CHECKPOINTS, PHASE_IDLE, T, clock, isMove, option, spend } from './state';
import { MOVE_PROMOTION, POSITIONS, POSITION_SHIFT, pieceAt } from '../../chess/position';
import { OWN_STATE_WORDS } from '../los';
import { SCRATCH_A, SCRATCH_PARENT } from '../descent';
import {
  TRACK_EXACT,
  TRACK_OPTION_CHECKPOINT_SIZE,
  TRACK_OPTION_EXACT_MAX,
  TRACK_OPTION_POOL_CUT,
  TRACK_OPTION_POOL_MAX,
  TRACK_OPTION_SIDE,
  TRACK_POOL,
  TRACK_STATE_BASE_EVENT,
  TRACK_STATE_CUTS,
  TRACK_STATE_ESTIMATE,
  TRACK_STATE_EVENTS,
  TRACK_STATE_GUIDES_EVENT,
  TRACK_STATE_MODE,
  TRACK_STATE_OWN,
  TRACK_STATE_PLIES,
  TRACK_STATE_RANDOM,
  TRACK_STATE_WORK,
} from './layout';
import { applyEvent, illegalCountPossibleGiven, opponentMoveMatches } from '../consistency';
import { eventWord, isBranching, useView, viewLength } from '../view';
import { randomBelow, setRandomState } from '../../chess/random';
import { signatureOf } from '../layer';
import { thinCheckpoints } from './checkpoints';
import { followsPlan } from '../plan';

/** Applies the event to the parents from orderNext on, until `stopAt` work: true when every parent is done. */
export function update(stopAt: f64): bool {
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
        if (!followsPlan(SCRATCH_PARENT, move, e)) continue;
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
      if (!followsPlan(SCRATCH_PARENT, move, e) || !opponentMoveMatches(SCRATCH_PARENT, move, SCRATCH_A, percept))
        continue;
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
export function overflow(): void {
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
export function commit(partial: bool): bool {
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
export function rollback(): void {
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
export function finish(): void {
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

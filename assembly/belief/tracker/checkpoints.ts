// The tracker's checkpoints: random subsets of the layer before opponent turns, thinned geometrically.

import { POSITION_SHIFT, POSITION_WORDS } from '../../chess/position';
import { SCRATCH_SPARE } from '../descent';
import { T, option } from './state';
import { TRACK_OPTION_CHECKPOINT_SIZE } from './layout';
import { randomBelow } from '../../chess/random';

/** Before opponent turn `e`: a random subset of the layer becomes a checkpoint. */
export function takeCheckpoint(e: i32): void {
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
export function thinCheckpoints(): void {
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

// Interleaved estimation and search: the root of an incremental search is fed by the depth-first
// estimator (assembly/belief/stream.ts) one consistent position at a time. The estimator keeps
// its records below `estimateEnd`; each position it finds is copied into the search's own records
// and added to the root's pending list.

import { copyPosition, POSITIONS, POSITION_SHIFT, W_SIDE } from '../chess/position';
import { ESTIMATE_MORE, ESTIMATE_FOUND, ESTIMATE_EXHAUSTED, ESTIMATE_LIMIT } from '../belief/estimate';
import { dfsStartWithin, dfsNext, dfsLast } from '../belief/stream';
import { addPending, newPosition } from './tree';

let streamRoot: i32 = -1;
let side: i32 = 0;
let status: i32 = ESTIMATE_MORE;
/** Positions received so far. */
export let streamed: i32 = 0;

export const PULL_ADDED: i32 = 0;
export const PULL_MORE: i32 = 1;
export const PULL_DONE: i32 = 2;
export const PULL_FAILED: i32 = 3;
export const PULL_NO_ROOM: i32 = 4;

/** Work units the estimator may spend per pull before the search yields to the host. */
const ESTIMATE_SLICE: i32 = 20_000;

export function streamStop(): void {
  streamRoot = -1;
  streamed = 0;
  status = ESTIMATE_MORE;
}

/** Starts estimating the view from record `viewRoot` into `root`; false when the estimator has no room. */
export function streamInto(root: i32, viewRoot: i32, estimateEnd: i32, player: i32): bool {
  streamRoot = root;
  side = player;
  status = dfsStartWithin(viewRoot, 0, 0, estimateEnd);
  return status != ESTIMATE_LIMIT;
}

/** Is `node` the root that an estimator feeds (and is it still feeding it)? */
export function isStreaming(node: i32): bool {
  return node == streamRoot;
}

/** The estimator's last status (ESTIMATE_*). */
export function streamStatus(): i32 {
  return status;
}

/** Asks the estimator for the next position of the root's belief state. */
export function pull(): i32 {
  status = dfsNext(ESTIMATE_SLICE);
  if (status == ESTIMATE_MORE) return PULL_MORE;
  if (status == ESTIMATE_EXHAUSTED) {
    streamRoot = -1;
    return PULL_DONE;
  }
  if (status != ESTIMATE_FOUND) {
    streamRoot = -1;
    return PULL_FAILED;
  }
  const found = dfsLast();
  if (unchecked(POSITIONS[(found << POSITION_SHIFT) + W_SIDE]) != side) {
    status = ESTIMATE_LIMIT;
    streamRoot = -1;
    return PULL_FAILED;
  }
  const h = newPosition();
  if (h < 0) return PULL_NO_ROOM;
  copyPosition(found, h);
  streamed++;
  return addPending(streamRoot, h) ? PULL_ADDED : PULL_NO_ROOM;
}

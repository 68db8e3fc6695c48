// Perft: the number of leaf nodes of the legal move tree, the standard move-generator check.
// The search uses the position records above `handle` as its stack (one per ply) and move list
// d of the pool at remaining depth d.

import { generateMoves, MOVES, listOffset, SEARCH_LISTS } from './moveGen';
import { makeMove } from './position';

/**
 * Leaf count at `depth` from position `handle`. With `bulk`, the last ply counts the generated
 * moves instead of making each one. Uses records handle+1 … handle+depth (the caller checks room).
 */
export function perft(handle: i32, depth: i32, bulk: bool): f64 {
  if (depth == 0) return 1;
  const out = listOffset(depth);
  const n = generateMoves(handle, out);
  if (depth == 1 && bulk) return <f64>n;
  let total: f64 = 0;
  const child = handle + 1;
  for (let i = 0; i < n; i++) {
    makeMove(handle, unchecked(MOVES[out + i]), child);
    total += perft(child, depth - 1, bulk);
  }
  return total;
}

// ---- the same count as a walk that can stop and resume (limits and progress on long counts) ----
// The plies near the root are walked with an explicit stack, so the host can run the count in
// steps of about N leaves; each subtree of WALK_LEAF_DEPTH plies or fewer is one call of perft()
// above (at most 218^3 leaves: a short call). The walk's move lists are those of its remaining
// depths (above WALK_LEAF_DEPTH, so perft()'s lists never clash with them); one walk at a time.
//
// | array      | index | meaning                                                      |
// |------------|-------|--------------------------------------------------------------|
// | WALK_NEXT  | ply   | index of the next move to make from record root + ply        |
// | WALK_COUNT | ply   | number of legal moves there (list `depth - ply` of MOVES)    |

/** Subtrees this shallow are counted in one recursive call. */
const WALK_LEAF_DEPTH: i32 = 3;
const WALK_NEXT = new Int32Array(SEARCH_LISTS);
const WALK_COUNT = new Int32Array(SEARCH_LISTS);
let walkRoot: i32 = 0;
let walkDepth: i32 = 0;
let walkBulk: bool = false;
/** The ply whose moves are being made; -1 once the walk has ended. */
let walkPly: i32 = -1;
let walkLeaves: f64 = 0;

/** Starts a walk of perft(handle, depth, bulk) (the caller checks room for records handle … handle + depth). */
export function perftWalkStart(handle: i32, depth: i32, bulk: bool): void {
  walkRoot = handle;
  walkDepth = depth;
  walkBulk = bulk;
  walkLeaves = 0;
  walkPly = -1;
  if (depth <= WALK_LEAF_DEPTH) {
    walkLeaves = perft(handle, depth, bulk);
    return;
  }
  walkPly = 0;
  unchecked((WALK_COUNT[0] = generateMoves(handle, listOffset(depth))));
  unchecked((WALK_NEXT[0] = 0));
}

/** Continues the walk until `leaves` more leaves are counted (a subtree at a time) or it ends: true once ended. */
export function perftWalkRun(leaves: f64): bool {
  const stop = walkLeaves + leaves;
  while (walkPly >= 0) {
    if (walkLeaves >= stop) return false;
    const ply = walkPly;
    const i = unchecked(WALK_NEXT[ply]);
    if (i == unchecked(WALK_COUNT[ply])) {
      walkPly = ply - 1;
      continue;
    }
    unchecked((WALK_NEXT[ply] = i + 1));
    const remaining = walkDepth - ply - 1; // plies below the child
    const child = walkRoot + ply + 1;
    makeMove(walkRoot + ply, unchecked(MOVES[listOffset(remaining + 1) + i]), child);
    if (remaining <= WALK_LEAF_DEPTH) walkLeaves += perft(child, remaining, walkBulk);
    else {
      walkPly = ply + 1;
      unchecked((WALK_COUNT[ply + 1] = generateMoves(child, listOffset(remaining))));
      unchecked((WALK_NEXT[ply + 1] = 0));
    }
  }
  return true;
}

/** Leaves the walk has counted so far (all of them once it has ended). */
export function perftWalkLeaves(): f64 {
  return walkLeaves;
}

/** Root moves the walk has started (0 for a walk of WALK_LEAF_DEPTH plies or fewer, counted whole at its start). */
export function perftWalkRootMoves(): i32 {
  return walkDepth <= WALK_LEAF_DEPTH ? 0 : unchecked(WALK_NEXT[0]);
}

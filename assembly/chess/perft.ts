// Perft: the number of leaf nodes of the legal move tree, the standard move-generator check.
// The search uses the position records above `handle` as its stack (one per ply) and move list
// d of the pool at remaining depth d.

import { generateMoves, MOVES, listOffset } from './moveGen';
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

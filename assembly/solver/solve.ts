// Guaranteed-checkmate search (SPEC §5-6): from a belief state (positions of one side to move),
// can that side force mate within `ply` plies of actual moves whatever the truth and whatever the
// opponent does? One entry point for every algorithm, run in budgeted steps like the estimators,
// and the proof written out as a strategy for the host.
//
// Strategy encoding (STRATEGY, Int32 words, preorder), for a proven OR node:
//   attempt, partCount, then per part of that attempt (every child of its ATTEMPT node):
//     key0 key1 key2 (percept, pawn-try words), kind:
//       STRATEGY_REJECTED (the attempt was rejected): the OR node that follows, encoded the same way;
//       STRATEGY_LEGAL: replyCount (0: every position with this answer is won), then per reply
//         key0 key1 key2 (what we hear after their move) and the OR node that follows.

import {
  resetTree,
  newNode,
  addEntry,
  addPending,
  setPositionOrdering,
  get,
  kindOf,
  isProven,
  isDisproven,
  N_FIRST,
  N_NEXT,
  N_ATTEMPT,
  N_KEY,
  KIND_OR,
  nodesMade,
  positionsMade,
  peakNodes,
  peakPositions,
  peakEntries,
  peakAttempts,
  nodeTop,
  positionTop,
  NODE_WORDS,
} from './tree';
import { resetBuilds, setAttemptOrdering, setScratchPosition, dedupeBytes, DEDUPE_SLOT_BYTES } from './build';
import { resetTable, tableHits } from './table';
import { resetBeliefTable, beliefTableHits } from './beliefTable';
import { incrementalBegin, incrementalRun } from './incremental';
import { ipnsBegin, ipnsRun } from './ipns';
import { setMaterialWins } from './outcome';
import { dfsBegin, dfsRun, RUN_DONE, RUN_MORE, RUN_STREAM_FAILED } from './dfs';
import { streamInto, streamStop, streamStatus, streamed } from './interleave';
import { ESTIMATE_INCONSISTENT } from '../belief/estimate';
import { pnsBegin, pnsRun } from './pns';
import {
  algorithmProperties,
  FAMILY_PROOF_NUMBER,
  FAMILY_DIRECTIONAL,
  FAMILY_IPNS,
  FAMILY_MASK,
  ALGO_LEGAL_FIRST,
  ALGO_GREEDY,
  ALGO_EARLY,
  ALGO_INCREMENTAL,
  ALGO_UNBRANCHED,
} from './algorithms';
import { POSITIONS, POSITION_SHIFT, POSITION_WORDS, W_SIDE, W_KEY_LO, W_KEY_HI, samePosition } from '../chess/position';

/** The algorithm's row of the table in algorithms.ts (family | property bits). */
let properties: i32 = 0;
function has(property: i32): bool {
  return (properties & property) != 0;
}
function family(): i32 {
  return properties & FAMILY_MASK;
}

// solveStart / solveRun statuses
export const SOLVE_PROVEN: i32 = 0;
export const SOLVE_DISPROVEN: i32 = 1;
export const SOLVE_MORE: i32 = 2;
/** An arena (nodes, positions, entries) is full: the answer is unknown. */
export const SOLVE_NO_ROOM: i32 = 3;
export const SOLVE_BAD_PROBLEM: i32 = 4;
/** Interleaved: the view is inconsistent (no position fits it). */
export const SOLVE_INCONSISTENT: i32 = 5;
/** Interleaved: the estimator ran out of room (or the view is deeper than it follows). */
export const SOLVE_BELIEF_LIMIT: i32 = 6;

/** Option bits of solveStart. */
export const OPTION_MATERIAL_WINS: i32 = 1;
/** Beyond the paper: attempts giving check, then captures, first (build.ts). */
export const OPTION_ORDER_ATTEMPTS: i32 = 2;
/** Beyond the paper: incremental searches take the hardest-looking pending position first (tree.ts). */
export const OPTION_ORDER_POSITIONS: i32 = 4;
/** Beyond the paper: a table of single positions known to have no mate within d plies (table.ts). */
export const OPTION_POSITION_TABLE: i32 = 8;
/** Beyond the paper: a table of belief states (position sets) known to have no mate within d plies (beliefTable.ts). */
export const OPTION_BELIEF_TABLE: i32 = 16;

const ROOT: i32 = 0;
let firstPosition: i32 = 0;

/**
 * Starts a search from the `count` positions at handles [first, first + count) (one side to
 * move; duplicates are ignored; record first - 1 is the search's scratch), mate within `ply`
 * plies, with arenas of `maxNodes` nodes, `maxEntries` position entries and the position records
 * [first + count, positionEnd).
 */
export function solveStart(
  first: i32,
  count: i32,
  ply: i32,
  algo: i32,
  options: i32,
  maxNodes: i32,
  maxEntries: i32,
  positionEnd: i32,
): i32 {
  if (first < 1 || count < 1 || first + count > positionEnd || maxEntries < count) return SOLVE_BAD_PROBLEM;
  const side = unchecked(POSITIONS[(first << POSITION_SHIFT) + W_SIDE]);
  for (let i = 1; i < count; i++)
    if (unchecked(POSITIONS[((first + i) << POSITION_SHIFT) + W_SIDE]) != side) return SOLVE_BAD_PROBLEM;
  const root = begin(first, first + count, side, ply, algo, options, maxNodes, maxEntries, positionEnd);
  if (root < 0) return SOLVE_BAD_PROBLEM;
  const mask = clearRootSeen(count);
  for (let i = 0; i < count; i++) {
    if (!firstOfItsKind(first + i, mask)) continue;
    if (has(ALGO_INCREMENTAL)) addPending(root, first + i);
    else addEntry(root, first + i);
  }
  startAlgorithm(root);
  return SOLVE_MORE;
}

// The root's duplicates: a hash set of the handles kept so far, on the positions' keys (equal
// positions have equal keys), open addressing at most half full — linear in the root's size, where
// comparing each position with every earlier one was quadratic (minutes for 100,000 positions).
// Grow-only, like the arenas; the first of equal positions is kept, in order, as before.
let ROOT_SEEN = new Int32Array(0);

/** Empties the set for `count` positions; returns its mask. */
function clearRootSeen(count: i32): i32 {
  let size = 16;
  while (size < count * 2) size <<= 1;
  if (ROOT_SEEN.length < size) ROOT_SEEN = new Int32Array(size);
  for (let i = 0; i < size; i++) unchecked((ROOT_SEEN[i] = -1));
  return size - 1;
}

/** Is position `h` unlike every one added before (then it is added)? */
function firstOfItsKind(h: i32, mask: i32): bool {
  const base = h << POSITION_SHIFT;
  let slot = (unchecked(POSITIONS[base + W_KEY_LO]) ^ (unchecked(POSITIONS[base + W_KEY_HI]) >>> 7)) & mask;
  let seen = unchecked(ROOT_SEEN[slot]);
  while (seen >= 0) {
    if (samePosition(seen, h, true)) return false;
    slot = (slot + 1) & mask;
    seen = unchecked(ROOT_SEEN[slot]);
  }
  unchecked((ROOT_SEEN[slot] = h));
  return true;
}

/**
 * Interleaved estimation and search (Russell & Wolfe 2005, section 7): the root's positions come
 * one by one from a depth-first estimation of the view in VIEW from record `viewRoot` (its start
 * position), confined to the records below `estimateEnd`; the search (an incremental directional
 * one: l-dub, l-dbu, gl-dbu) takes the next only when it has extended its proof to the last, so a
 * disproof can come before the belief state is complete. `side` is the player to move at the end
 * of the view (0 White, 1 Black). Record `estimateEnd` is the search's scratch; its positions are
 * [estimateEnd + 1, positionEnd).
 */
export function solveStartInterleaved(
  viewRoot: i32,
  estimateEnd: i32,
  side: i32,
  ply: i32,
  algo: i32,
  options: i32,
  maxNodes: i32,
  maxEntries: i32,
  positionEnd: i32,
): i32 {
  if ((algorithmProperties(algo) & FAMILY_MASK) != FAMILY_DIRECTIONAL || estimateEnd + 1 >= positionEnd)
    return SOLVE_BAD_PROBLEM;
  const root = begin(estimateEnd + 1, estimateEnd + 1, side, ply, algo, options, maxNodes, maxEntries, positionEnd);
  if (root < 0 || !streamInto(root, viewRoot, estimateEnd, side)) return SOLVE_BAD_PROBLEM;
  startAlgorithm(root);
  return SOLVE_MORE;
}

/** Resets everything for a search whose positions start at `first` (record first - 1: scratch); returns the root, -1 if bad. */
function begin(
  first: i32,
  firstFree: i32,
  side: i32,
  ply: i32,
  algo: i32,
  options: i32,
  maxNodes: i32,
  maxEntries: i32,
  positionEnd: i32,
): i32 {
  if (first < 1 || ply < 1 || algorithmProperties(algo) < 0 || firstFree > positionEnd || maxNodes < 1) return -1;
  properties = algorithmProperties(algo);
  resetTree(maxNodes, maxEntries, firstFree, positionEnd);
  resetBuilds(positionEnd - first, has(ALGO_INCREMENTAL));
  setMaterialWins((options & OPTION_MATERIAL_WINS) != 0);
  setAttemptOrdering((options & OPTION_ORDER_ATTEMPTS) != 0);
  setScratchPosition(first - 1);
  setPositionOrdering((options & OPTION_ORDER_POSITIONS) != 0, side);
  resetTable((options & OPTION_POSITION_TABLE) != 0);
  resetBeliefTable((options & OPTION_BELIEF_TABLE) != 0);
  firstPosition = first;
  streamStop();
  return newNode(KIND_OR, -1, ply);
}

function startAlgorithm(root: i32): void {
  const f = family();
  if (f == FAMILY_IPNS) ipnsBegin(root);
  else if (f == FAMILY_DIRECTIONAL) incrementalBegin(root, has(ALGO_UNBRANCHED), has(ALGO_GREEDY));
  else if (f == FAMILY_PROOF_NUMBER) pnsBegin(root, has(ALGO_EARLY));
  else dfsBegin(root, has(ALGO_LEGAL_FIRST), has(ALGO_GREEDY), has(ALGO_EARLY));
}

/** Continues the search for about `budget` more nodes and positions made. */
export function solveRun(budget: f64): i32 {
  const f = family();
  const status =
    f == FAMILY_IPNS
      ? ipnsRun(budget)
      : f == FAMILY_DIRECTIONAL
        ? incrementalRun(budget)
        : f == FAMILY_PROOF_NUMBER
          ? pnsRun(budget)
          : dfsRun(budget);
  if (status == RUN_MORE) return SOLVE_MORE;
  if (status == RUN_STREAM_FAILED)
    return streamStatus() == ESTIMATE_INCONSISTENT ? SOLVE_INCONSISTENT : SOLVE_BELIEF_LIMIT;
  if (status != RUN_DONE) return SOLVE_NO_ROOM;
  return isProven(ROOT) ? SOLVE_PROVEN : SOLVE_DISPROVEN;
}

// ---- statistics ----

export const STAT_NODES: i32 = 0;
export const STAT_POSITIONS: i32 = 1;
export const STAT_PEAK_BYTES: i32 = 2;
export const STAT_LIVE_NODES: i32 = 3;
export const STAT_LIVE_POSITIONS: i32 = 4;
export const STAT_TABLE_HITS: i32 = 5;
/** Interleaved: positions received from the estimator so far. */
export const STAT_STREAMED: i32 = 6;
export const STAT_BELIEF_TABLE_HITS: i32 = 7;

// What each unit of a search's arenas costs, in bytes (the host shares a memory budget between them):
/** A node record. */
export const NODE_BYTES: i32 = NODE_WORDS * 4;
/** A position record, and its share of the duplicate table (at most two slots per position: build.ts). */
export const POSITION_BYTES: i32 = POSITION_WORDS * 4 + 2 * DEDUPE_SLOT_BYTES;
/** A position entry (handle and link). */
export const ENTRY_BYTES: i32 = 8;
/** An attempt-list slot (the entry limit bounds the attempt lists too). */
export const ATTEMPT_BYTES: i32 = 4;

export function solveStat(which: i32): f64 {
  if (which == STAT_NODES) return nodesMade;
  if (which == STAT_POSITIONS) return positionsMade;
  if (which == STAT_PEAK_BYTES) {
    return (
      f64(peakNodes) * f64(NODE_BYTES) +
      f64(peakPositions - firstPosition) * f64(POSITION_WORDS * 4) +
      f64(peakEntries) * f64(ENTRY_BYTES) +
      f64(peakAttempts) * f64(ATTEMPT_BYTES) +
      dedupeBytes()
    );
  }
  if (which == STAT_LIVE_NODES) return f64(nodeTop);
  if (which == STAT_LIVE_POSITIONS) return f64(positionTop - firstPosition);
  if (which == STAT_TABLE_HITS) return tableHits;
  if (which == STAT_STREAMED) return f64(streamed);
  if (which == STAT_BELIEF_TABLE_HITS) return beliefTableHits;
  return -1;
}

// ---- the strategy ----

export const STRATEGY_REJECTED: i32 = 0;
export const STRATEGY_LEGAL: i32 = 1;

export let STRATEGY = new Int32Array(0);
let strategyLength: i32 = 0;

function put(word: i32): void {
  if (strategyLength == STRATEGY.length) {
    const grown = new Int32Array(max(1024, STRATEGY.length * 2));
    grown.set(STRATEGY);
    STRATEGY = grown;
  }
  unchecked((STRATEGY[strategyLength++] = word));
}

function putKey(node: i32): void {
  put(get(node, N_KEY));
  put(get(node, N_KEY + 1));
  put(get(node, N_KEY + 2));
}

function writeOr(node: i32): void {
  let chosen = get(node, N_FIRST);
  while (!isProven(chosen)) chosen = get(chosen, N_NEXT);
  put(get(chosen, N_ATTEMPT));
  let parts = 0;
  for (let c = get(chosen, N_FIRST); c >= 0; c = get(c, N_NEXT)) parts++;
  put(parts);
  for (let c = get(chosen, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
    putKey(c);
    if (kindOf(c) == KIND_OR) {
      put(STRATEGY_REJECTED);
      writeOr(c);
      continue;
    }
    put(STRATEGY_LEGAL);
    let replies = 0;
    for (let r = get(c, N_FIRST); r >= 0; r = get(r, N_NEXT)) replies++;
    put(replies);
    for (let r = get(c, N_FIRST); r >= 0; r = get(r, N_NEXT)) {
      putKey(r);
      writeOr(r);
    }
  }
}

/** Writes the proof of a proven root into STRATEGY; returns its length in words (0 if not proven). */
export function strategyWrite(): i32 {
  strategyLength = 0;
  if (!isProven(ROOT) || isDisproven(ROOT)) return 0;
  writeOr(ROOT);
  return strategyLength;
}

export function strategyBuffer(): Int32Array {
  return STRATEGY;
}

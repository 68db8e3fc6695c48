// The black-box depth-first family (Russell & Wolfe 2005, section 5): DFS and its improvements,
// as switches of one driver.
// - legal-first (L-): at an ATTEMPT node, search the legal-answer parts before the Illegal part;
// - greedy (G-): a disproved Illegal part disproves the OR node above (Theorem 2: the Illegal
//   part's belief is a subset of the OR node's);
// - early (E-): each position is judged as soon as it is made; a failing one stops the build.
// dfs = none; l-dfs = L; gl-dfs = G + L; gx-dfs = G, Illegal part first; le-dfs (udb) = L + E.
//
// The driver is iterative over the node arena (the arena is the stack): it can stop after any
// budget and resume, so the host can apply time limits and show progress. A failed child of an
// OR node is freed at once (every arena truncated back to the child's marks), so the arena holds
// the current path plus the proofs of the AND nodes on it.

import {
  N_PARENT,
  N_FIRST,
  N_NEXT,
  N_DEPTH,
  N_ATTEMPT,
  N_CURSOR,
  N_COUNT,
  KIND_OR,
  KIND_ATTEMPT,
  KIND_EXPAND,
  FLAG_EXPANDED,
  FLAG_ILLEGAL_FAILED,
  get,
  set,
  kindOf,
  hasFlag,
  addFlag,
  isProven,
  isDisproven,
  isSolved,
  prove,
  disprove,
  newNode,
  truncate,
  outOfRoom,
  nodesMade,
  positionsMade,
  knownNoMateSet,
} from './tree';
import { listAttempts, attemptAt, buildAttempt, buildExpand } from './build';

export const RUN_DONE: i32 = 0;
export const RUN_MORE: i32 = 1;
export const RUN_NO_ROOM: i32 = 2;
/** Interleaved estimation stopped without the belief state (inconsistent view, or no room). */
export const RUN_STREAM_FAILED: i32 = 3;

let legalFirst: bool = false;
let greedy: bool = false;
let early: bool = false;
let current: i32 = -1;

export function dfsBegin(root: i32, isLegalFirst: bool, isGreedy: bool, isEarly: bool): void {
  legalFirst = isLegalFirst;
  greedy = isGreedy;
  early = isEarly;
  current = root;
}

/** The first child of `node` of `kind` after `after` (-1: from the start), or -1. */
function nextOfKind(node: i32, after: i32, kind: i32): i32 {
  for (let c = after < 0 ? get(node, N_FIRST) : get(after, N_NEXT); c >= 0; c = get(c, N_NEXT))
    if (kindOf(c) == kind) return c;
  return -1;
}

/**
 * The child of AND node `node` to search after `last` (-1: the first), or -1 when all have been:
 * an EXPAND node's children in order; an ATTEMPT node's rejected parts (OR children: Illegal, and
 * Nonsense should the belief hold positions with different own pieces) first, or last when
 * legal-first, and its legal parts (EXPAND children) in the order met.
 */
export function nextToSearch(node: i32, last: i32, isLegalFirst: bool): i32 {
  if (kindOf(node) == KIND_EXPAND) return last < 0 ? get(node, N_FIRST) : get(last, N_NEXT);
  const firstKind = isLegalFirst ? KIND_EXPAND : KIND_OR;
  const secondKind = isLegalFirst ? KIND_OR : KIND_EXPAND;
  if (last < 0 || kindOf(last) == firstKind) {
    const c = nextOfKind(node, last, firstKind);
    return c >= 0 ? c : nextOfKind(node, -1, secondKind);
  }
  return nextOfKind(node, last, secondKind);
}

/** A child of `parent` is solved: pass the result up. */
function childSolved(parent: i32, child: i32): void {
  if (kindOf(parent) == KIND_OR) {
    if (isProven(child)) {
      prove(parent);
      return;
    }
    const pruned = greedy && hasFlag(child, FLAG_ILLEGAL_FAILED);
    truncate(child);
    if (pruned) disprove(parent);
    return;
  }
  if (isDisproven(child)) {
    disprove(parent);
    if (kindOf(parent) == KIND_ATTEMPT && kindOf(child) == KIND_OR) addFlag(parent, FLAG_ILLEGAL_FAILED);
  }
}

/** Searches for at most about `budget` more nodes and positions made. */
export function dfsRun(budget: f64): i32 {
  const stopAt = nodesMade + positionsMade + budget;
  while (true) {
    if (outOfRoom) return RUN_NO_ROOM;
    if (nodesMade + positionsMade >= stopAt) return RUN_MORE;
    const n = current;
    if (isSolved(n)) {
      const parent = get(n, N_PARENT);
      if (parent < 0) return RUN_DONE;
      childSolved(parent, n);
      current = parent;
      continue;
    }
    const kind = kindOf(n);
    if (kind == KIND_OR) {
      if (!hasFlag(n, FLAG_EXPANDED)) {
        if (knownNoMateSet(n)) {
          disprove(n);
          continue;
        } // the belief table (beliefTable.ts)
        listAttempts(n);
        set(n, N_CURSOR, 0);
        continue;
      }
      const i = get(n, N_CURSOR);
      if (i >= get(n, N_COUNT)) {
        disprove(n);
        continue;
      }
      set(n, N_CURSOR, i + 1);
      const a = newNode(KIND_ATTEMPT, n, get(n, N_DEPTH));
      if (a < 0) continue;
      set(a, N_ATTEMPT, attemptAt(n, i));
      buildAttempt(a, early);
      current = a;
      continue;
    }
    if (kind == KIND_EXPAND && !hasFlag(n, FLAG_EXPANDED)) {
      buildExpand(n, early);
      continue;
    }
    const next = nextToSearch(n, get(n, N_CURSOR), legalFirst);
    if (next < 0) {
      prove(n);
      continue;
    }
    set(n, N_CURSOR, next);
    current = next;
  }
  return RUN_MORE; // not reached
}

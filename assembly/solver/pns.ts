// Proof-number search over belief-state nodes (Allis; Russell & Wolfe 2005, section 5): PNS and,
// with early termination during builds, E-PNS. Every node carries proof and disproof numbers:
// an unexpanded node 1 and 1; an OR node the minimum of its children's proof numbers and the sum
// of their disproof numbers; an AND node (ATTEMPT, EXPAND) the sum of proof numbers and the
// minimum of disproof numbers; proven 0 / infinite, disproven infinite / 0. Each step descends to
// a most-proving node (OR: the child of least proof number; AND: of least disproof number),
// expands it, and updates the numbers on the path back to the root. The whole tree is kept.
//
// Expanding an OR node lists its attempts and builds an ATTEMPT node for each (whose parts become
// the new leaves); expanding an EXPAND node plays their moves. An ATTEMPT node that its build
// disproves is freed at once (it is the newest allocation), as it can never be part of a proof.

import {
  N_PARENT,
  N_FIRST,
  N_NEXT,
  N_PN,
  N_DN,
  N_DEPTH,
  N_ATTEMPT,
  N_COUNT,
  KIND_OR,
  KIND_ATTEMPT,
  FLAG_EXPANDED,
  FLAG_TERMINAL,
  get,
  set,
  kindOf,
  hasFlag,
  isSolved,
  isDisproven,
  disprove,
  newNode,
  truncate,
  outOfRoom,
  nodesMade,
  positionsMade,
  combineChildren,
  childrenPn,
  childrenDn,
  knownNoMateSet,
} from './tree';
import { listAttempts, attemptAt, buildAttempt, buildExpand } from './build';
import { RUN_DONE, RUN_MORE, RUN_NO_ROOM } from './dfs';

let early: bool = false;
let root: i32 = -1;

export function pnsBegin(rootNode: i32, isEarly: bool): void {
  root = rootNode;
  early = isEarly;
}

/**
 * Recomputes `node`'s numbers from its children (a node solved by its own build keeps them); a
 * disproof goes through disprove (tree.ts), which records it in the tables.
 */
function updateNumbers(node: i32): void {
  if (hasFlag(node, FLAG_TERMINAL) || !hasFlag(node, FLAG_EXPANDED)) return;
  combineChildren(node);
  if (childrenDn == 0) {
    disprove(node);
    return;
  } // (childrenPn is then INFINITE)
  set(node, N_PN, childrenPn);
  set(node, N_DN, childrenDn);
}

function expand(node: i32): void {
  if (kindOf(node) != KIND_OR) {
    buildExpand(node, early);
    updateNumbers(node);
    return;
  }
  if (knownNoMateSet(node)) {
    disprove(node);
    return;
  } // the belief table (beliefTable.ts)
  listAttempts(node);
  const count = get(node, N_COUNT);
  for (let i = 0; i < count && !outOfRoom; i++) {
    const a = newNode(KIND_ATTEMPT, node, get(node, N_DEPTH));
    if (a < 0) return;
    set(a, N_ATTEMPT, attemptAt(node, i));
    buildAttempt(a, early);
    if (isDisproven(a)) truncate(a);
    else updateNumbers(a);
  }
  updateNumbers(node);
}

/** Searches for at most about `budget` more nodes and positions made. */
export function pnsRun(budget: f64): i32 {
  const stopAt = nodesMade + positionsMade + budget;
  while (!isSolved(root)) {
    if (outOfRoom) return RUN_NO_ROOM;
    if (nodesMade + positionsMade >= stopAt) return RUN_MORE;
    let n = root;
    while (hasFlag(n, FLAG_EXPANDED)) {
      const or = kindOf(n) == KIND_OR;
      const want = or ? get(n, N_PN) : get(n, N_DN);
      let best = -1;
      for (let c = get(n, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
        if ((or ? get(c, N_PN) : get(c, N_DN)) == want) {
          best = c;
          break;
        }
      }
      n = best;
    }
    expand(n);
    if (outOfRoom) return RUN_NO_ROOM;
    for (let p = get(n, N_PARENT); p >= 0; p = get(p, N_PARENT)) updateNumbers(p);
  }
  return RUN_DONE;
}

// Incremental proof-number search (IPNS, Russell & Wolfe 2005, section 6): proof-number search
// whose unit of expansion is one physical position — integrating one pending position of an OR or
// EXPAND node (build.ts integrate) — so the numbers weigh how many positions a belief node still
// holds unexamined.
//
// The numbers. A node's k pending positions form a set P that must all be integrated to prove the
// node and any one of which may disprove it: pn(P) = k, dn(P) = 1 (k > 0; none: 0 and infinite).
// An OR or EXPAND node is the AND of P and its children C, where C combines the children as an OR
// (OR node: pn = the least child pn, dn = the sum of the children's dn) or an AND (EXPAND node:
// pn = the sum, dn = the least); with no children C is disproved for an OR node and proven for an
// EXPAND node. So
//   pn(node) = pn(P) + pn(C),   dn(node) = min(dn(P), dn(C)),
// except that an OR node all of whose children are disproved is disproved (Theorem 2: its pending
// positions cannot help), and an OR node without children yet has pn = k, dn = 1. An ATTEMPT node
// (no positions of its own) is the AND of its parts. Disproved nodes (a failing position) stay so.
//
// The most-proving position: from the root, at an OR or EXPAND node with pending positions, take
// one of them when dn(P) < dn(C) (ties go to the children, which keeps the search depth-first);
// otherwise go to the child of least pn (OR) or least dn (AND). Numbers are saturated at INFINITE.

import {
  N_PARENT,
  N_FIRST,
  N_NEXT,
  N_PN,
  N_DN,
  N_WAITING,
  KIND_OR,
  KIND_ATTEMPT,
  INFINITE,
  get,
  set,
  kindOf,
  isDisproven,
  isSolved,
  disprove,
  takePending,
  outOfRoom,
  nodesMade,
  positionsMade,
  combineChildren,
  childrenPn,
  childrenDn,
  childCount,
} from './tree';
import { integrate, STEP_NO_ROOM } from './build';
import { RUN_DONE, RUN_MORE, RUN_NO_ROOM } from './dfs';

let root: i32 = -1;

export function ipnsBegin(rootNode: i32): void {
  root = rootNode;
  updateNumbers(root);
}

function updateNumbers(node: i32): void {
  if (isDisproven(node)) return;
  combineChildren(node);
  const waiting = get(node, N_WAITING);
  let pn: i32;
  let dn: i32;
  if (kindOf(node) == KIND_OR && childCount == 0) {
    pn = waiting > 0 ? waiting : INFINITE;
    dn = waiting > 0 ? 1 : 0;
  } else if (kindOf(node) == KIND_OR && childrenDn == 0) {
    pn = INFINITE;
    dn = 0;
  } else {
    pn = min(waiting + childrenPn, INFINITE);
    dn = waiting > 0 ? min(1, childrenDn) : childrenDn;
  }
  if (dn == 0) {
    disprove(node);
    return;
  } // pn is then INFINITE; disprove records the disproof in the tables
  set(node, N_PN, pn);
  set(node, N_DN, dn);
}

/** The node whose pending position is the most proving one. */
function mostProving(): i32 {
  let n = root;
  while (true) {
    const kind = kindOf(n);
    if (kind != KIND_ATTEMPT && get(n, N_WAITING) > 0) {
      combineChildren(n);
      if (childCount == 0 || 1 < childrenDn) return n;
    }
    const or = kind == KIND_OR;
    let best = -1;
    let bestValue = INFINITE + 1;
    for (let c = get(n, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
      if (isSolved(c)) continue;
      const v = or ? get(c, N_PN) : get(c, N_DN);
      if (v < bestValue) {
        best = c;
        bestValue = v;
      }
    }
    if (best < 0) return -1;
    n = best;
  }
  return -1; // not reached
}

/** After integrating a position into `node`: renumber what changed below it, then its ancestors. */
function renumber(node: i32): void {
  for (let c = get(node, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
    if (kindOf(c) == KIND_ATTEMPT) for (let p = get(c, N_FIRST); p >= 0; p = get(p, N_NEXT)) updateNumbers(p);
    updateNumbers(c);
  }
  for (let n = node; n >= 0; n = get(n, N_PARENT)) updateNumbers(n);
}

/** Searches for at most about `budget` more nodes and positions made. */
export function ipnsRun(budget: f64): i32 {
  const stopAt = nodesMade + positionsMade + budget;
  while (!isSolved(root)) {
    if (outOfRoom) return RUN_NO_ROOM;
    if (nodesMade + positionsMade >= stopAt) return RUN_MORE;
    const n = mostProving();
    if (n < 0) return RUN_NO_ROOM; // cannot happen while the numbers are consistent
    const h = takePending(n);
    if (integrate(n, h) == STEP_NO_ROOM) return RUN_NO_ROOM;
    renumber(n);
  }
  return RUN_DONE;
}

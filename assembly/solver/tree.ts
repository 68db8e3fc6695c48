// The belief-state AND-OR tree (Russell & Wolfe 2005, section 4), stored flat: every search
// algorithm works over the same node arena, position-entry lists and attempt lists, addressed by
// integer handles. Nodes are fixed-size records in NODES; a node's positions are a linked list of
// entries (ENTRY_HANDLE, ENTRY_NEXT) pointing at records of the position arena, so an Illegal
// child shares its parent's positions and an incremental search (part 2) can add positions to a
// node one at a time. Everything is allocated from the top of its arena; a depth-first search
// frees a failed subtree by truncating every arena back to the marks the subtree's root saved.
//
// Node kinds ("us" is the player the question is about, "them" the opponent):
// - OR: us to attempt. Children: ATTEMPT nodes. Proven iff one child is.
// - ATTEMPT: one attempt tried in every position of its OR parent (an AND node). Children: at
//   most one OR node (the positions where the referee rejects the attempt; same depth, the attempt
//   no longer available this turn), and one EXPAND node per distinct announcement of the legal
//   move. Proven iff every child is.
// - EXPAND: the positions after our legal move with one announcement, them to move (unseen).
//   Children: one OR node per distinct announcement we hear after their move. Proven iff every
//   child is; an EXPAND whose positions were all won (mate) has no positions and is proven.
//
// Node record (NODE_WORDS Int32 words, base = node * NODE_WORDS):
// | word | field     | meaning                                                                  |
// |------|-----------|--------------------------------------------------------------------------|
// | 0    | kind      | KIND_* | flags (FLAG_*)                                                  |
// | 1    | parent    | parent node, -1 at the root                                              |
// | 2    | first     | first child, -1 if none                                                  |
// | 3    | next      | next sibling, -1 if none                                                 |
// | 4, 5 | pn, dn    | proof and disproof numbers: pn 0 = proven, dn 0 = disproven (every algorithm) |
// | 6    | depth     | plies of actual moves left (OR, ATTEMPT: before our move; EXPAND: before theirs) |
// | 7    | attempt   | ATTEMPT: the attempt code                                                |
// | 8..10| key       | what we heard on arriving here: percept, then pawn-try words (OR child of an ATTEMPT: the rejection) |
// | 11   | entries   | first entry of the position list, -1 if none                             |
// | 12   | size      | number of positions                                                      |
// | 13   | cursor    | search state: OR the next attempt index; AND nodes the child being searched |
// | 14   | attempts  | OR: start of its attempt list in ATTEMPT_LIST (-1 until generated)       |
// | 15   | count     | OR: number of attempts                                                   |
// | 16-18| marks     | arena tops when the node was made: nodes are the node itself; positions, entries, attempt lists |
// | 19   | pending   | incremental searches: first entry of the positions not yet integrated (-1 if none) |
// | 20   | verified  | DUB: the children of an AND node its outer recursion has verified (a count, in search order) |
// | 21   | waiting   | incremental searches: how many positions are pending                     |
// | 22   | last      | last child, -1 if none (appending a child is O(1): OR nodes have dozens) |
// | 23   | spare     |                                                                          |
//
// Black-box searches keep a node's positions in `entries` (all made at once). Incremental searches
// add positions one at a time: a new one goes to `pending`, and moves to `entries` when the search
// integrates it (makes its successors in every child).

import { storeNoMate } from './table';
import { beliefTableOn, beginSet, addToSet, knownSetNoMate, storeSetNoMate } from './beliefTable';
import { POSITIONS, POSITION_SHIFT, W_COLOR, kingSquare, isAttacked } from '../chess/position';
import { KING_ATTACKS } from '../chess/attacks';
import { lowestSquare } from '../chess/bitboard';
import { newArena } from '../chess/arena';

export const NODE_WORDS: i32 = 24;
export const N_KIND: i32 = 0;
export const N_PARENT: i32 = 1;
export const N_FIRST: i32 = 2;
export const N_NEXT: i32 = 3;
export const N_PN: i32 = 4;
export const N_DN: i32 = 5;
export const N_DEPTH: i32 = 6;
export const N_ATTEMPT: i32 = 7;
export const N_KEY: i32 = 8;
export const N_ENTRIES: i32 = 11;
export const N_SIZE: i32 = 12;
export const N_CURSOR: i32 = 13;
export const N_ATTEMPTS: i32 = 14;
export const N_COUNT: i32 = 15;
export const N_MARK_POSITIONS: i32 = 16;
export const N_MARK_ENTRIES: i32 = 17;
export const N_MARK_ATTEMPTS: i32 = 18;
export const N_PENDING: i32 = 19;
export const N_VERIFIED: i32 = 20;
export const N_WAITING: i32 = 21;
/** Last child (tree.ts only: children are appended in O(1) and removed only from the end). */
const N_LAST: i32 = 22;

export const KIND_OR: i32 = 1;
export const KIND_ATTEMPT: i32 = 2;
export const KIND_EXPAND: i32 = 3;
/** The node's children have been made (OR: attempt list; EXPAND: their moves; ATTEMPT: always). */
export const FLAG_EXPANDED: i32 = 1 << 4;
/** ATTEMPT disproved through its Illegal child (greedy pruning then disproves the OR parent). */
export const FLAG_ILLEGAL_FAILED: i32 = 1 << 5;
/** Solved by its own build (a failing or all-won position), not by its children's numbers. */
export const FLAG_TERMINAL: i32 = 1 << 6;

/** Proof numbers saturate here ("infinity"). */
export const INFINITE: i32 = 1 << 28;

let NODES: Int32Array = new Int32Array(0);
export let ENTRY_HANDLE: Int32Array = new Int32Array(0);
export let ENTRY_NEXT: Int32Array = new Int32Array(0);
export let ATTEMPT_LIST: Int32Array = new Int32Array(0);

export let nodeTop: i32 = 0;
let entryTop: i32 = 0;
export let attemptTop: i32 = 0;
export let positionTop: i32 = 0;
let nodeLimit: i32 = 0;
let positionLimit: i32 = 0;
/** The caps of this search (the arrays may be larger: they only grow, from earlier searches). */
let entryLimit: i32 = 0;

// ---- statistics (reset by resetTree) ----
/** Nodes made, positions generated (successors computed), peak arena use. */
export let nodesMade: f64 = 0;
export let positionsMade: f64 = 0;
export let peakNodes: i32 = 0;
export let peakPositions: i32 = 0;
export let peakEntries: i32 = 0;
/** Set when an arena is full: the search stops with "unknown". */
export let outOfRoom: bool = false;
export function markOutOfRoom(): void {
  outOfRoom = true;
}
/** Peak slots used in the attempt-list arena. */
export let peakAttempts: i32 = 0;

/**
 * Sizes the arenas (grow-only: the stub runtime never frees) and empties the tree. Positions are
 * taken from [firstFree, positionEnd) of the position arena.
 */
export function resetTree(maxNodes: i32, maxEntries: i32, firstFree: i32, positionEnd: i32): void {
  if (NODES.length < maxNodes * NODE_WORDS) NODES = newArena(maxNodes * NODE_WORDS);
  if (ENTRY_HANDLE.length < maxEntries) {
    ENTRY_HANDLE = newArena(maxEntries);
    ENTRY_NEXT = newArena(maxEntries);
  }
  // every OR node's attempts are distinct codes (< 2^15 of them); one list per live OR node
  if (ATTEMPT_LIST.length < maxEntries) ATTEMPT_LIST = newArena(maxEntries);
  nodeLimit = maxNodes;
  positionLimit = positionEnd;
  entryLimit = maxEntries;
  nodeTop = 0;
  entryTop = 0;
  attemptTop = 0;
  positionTop = firstFree;
  nodesMade = 0;
  positionsMade = 0;
  peakNodes = 0;
  peakPositions = 0;
  peakEntries = 0;
  peakAttempts = 0;
  outOfRoom = false;
}

// ---- field access ----

export function get(node: i32, word: i32): i32 {
  return unchecked(NODES[node * NODE_WORDS + word]);
}
export function set(node: i32, word: i32, value: i32): void {
  unchecked((NODES[node * NODE_WORDS + word] = value));
}
export function kindOf(node: i32): i32 {
  return get(node, N_KIND) & 15;
}
export function hasFlag(node: i32, flag: i32): bool {
  return (get(node, N_KIND) & flag) != 0;
}
export function addFlag(node: i32, flag: i32): void {
  set(node, N_KIND, get(node, N_KIND) | flag);
}
export function isProven(node: i32): bool {
  return get(node, N_PN) == 0;
}
export function isDisproven(node: i32): bool {
  return get(node, N_DN) == 0;
}
export function isSolved(node: i32): bool {
  return get(node, N_PN) == 0 || get(node, N_DN) == 0;
}
export function prove(node: i32): void {
  set(node, N_PN, 0);
  set(node, N_DN, INFINITE);
}
/** Marks `node` disproved, and records what that says in the tables (every algorithm disproves through here). */
export function disprove(node: i32): void {
  set(node, N_PN, INFINITE);
  set(node, N_DN, 0);
  const kind = kindOf(node);
  if (kind == KIND_ATTEMPT) return;
  // a node of one position: that position has no mate within the node's plies (table.ts)
  if (get(node, N_SIZE) == 1) {
    const e = get(node, N_ENTRIES) >= 0 ? get(node, N_ENTRIES) : get(node, N_PENDING);
    storeNoMate(unchecked(ENTRY_HANDLE[e]), get(node, N_DEPTH));
  }
  // an OR node: its set of (integrated) positions has no mate within its plies (beliefTable.ts)
  if (kind == KIND_OR && beliefTableOn) {
    beliefSetOf(node);
    storeSetNoMate(get(node, N_DEPTH));
  }
}

/** Makes `node`'s positions the belief table's set at hand: its entries (an incremental search's integrated positions). */
function beliefSetOf(node: i32): void {
  beginSet();
  for (let e = get(node, N_ENTRIES); e >= 0; e = unchecked(ENTRY_NEXT[e])) addToSet(unchecked(ENTRY_HANDLE[e]));
}

/** Is OR node `node`'s set of (integrated) positions known to have no mate within its plies (beliefTable.ts)? */
export function knownNoMateSet(node: i32): bool {
  if (!beliefTableOn) return false;
  beliefSetOf(node);
  return knownSetNoMate(get(node, N_DEPTH));
}

// ---- proof numbers of children taken together (the proof-number searches) ----

/** pn and dn of `node`'s children combined: an OR node's as an OR (least pn, sum of dn), others' as an AND (sum of pn, least dn). */
export let childrenPn: i32 = 0;
export let childrenDn: i32 = 0;
export let childCount: i32 = 0;

export function combineChildren(node: i32): void {
  const or = kindOf(node) == KIND_OR;
  let pn = or ? INFINITE : 0;
  let dn = or ? 0 : INFINITE;
  let count = 0;
  for (let c = get(node, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
    count++;
    const cp = get(c, N_PN);
    const cd = get(c, N_DN);
    if (or) {
      if (cp < pn) pn = cp;
      dn = min(dn + cd, INFINITE);
    } else {
      pn = min(pn + cp, INFINITE);
      if (cd < dn) dn = cd;
    }
  }
  childrenPn = pn;
  childrenDn = dn;
  childCount = count;
}

// ---- allocation ----

/**
 * A new node, appended as the last child of `parent` (-1 for the root); -1 when the node arena is
 * full. Unsolved, with proof and disproof numbers 1.
 */
export function newNode(kind: i32, parent: i32, depth: i32): i32 {
  if (nodeTop >= nodeLimit) {
    outOfRoom = true;
    return -1;
  }
  const node = nodeTop++;
  if (nodeTop > peakNodes) peakNodes = nodeTop;
  nodesMade++;
  const base = node * NODE_WORDS;
  for (let i = 0; i < NODE_WORDS; i++) unchecked((NODES[base + i] = 0));
  set(node, N_KIND, kind);
  set(node, N_PARENT, parent);
  set(node, N_FIRST, -1);
  set(node, N_NEXT, -1);
  set(node, N_LAST, -1);
  set(node, N_PN, 1);
  set(node, N_DN, 1);
  set(node, N_DEPTH, depth);
  set(node, N_ENTRIES, -1);
  set(node, N_CURSOR, -1);
  set(node, N_ATTEMPTS, -1);
  set(node, N_PENDING, -1);
  set(node, N_MARK_POSITIONS, positionTop);
  set(node, N_MARK_ENTRIES, entryTop);
  set(node, N_MARK_ATTEMPTS, attemptTop);
  if (parent >= 0) {
    const last = get(parent, N_LAST);
    if (last < 0) set(parent, N_FIRST, node);
    else set(last, N_NEXT, node);
    set(parent, N_LAST, node);
  }
  return node;
}

/** Frees `node`, its subtree and everything allocated after it (it must be its parent's last child). */
export function truncate(node: i32): void {
  const parent = get(node, N_PARENT);
  if (parent >= 0) {
    let child = get(parent, N_FIRST);
    if (child == node) {
      set(parent, N_FIRST, -1);
      set(parent, N_LAST, -1);
    } else {
      while (get(child, N_NEXT) != node) child = get(child, N_NEXT);
      set(child, N_NEXT, -1);
      set(parent, N_LAST, child);
    }
  }
  positionTop = get(node, N_MARK_POSITIONS);
  entryTop = get(node, N_MARK_ENTRIES);
  attemptTop = get(node, N_MARK_ATTEMPTS);
  nodeTop = node;
}

/** A fresh position record for a successor; -1 when the position arena is full. */
export function newPosition(): i32 {
  if (positionTop >= positionLimit) {
    outOfRoom = true;
    return -1;
  }
  positionsMade++;
  const h = positionTop++;
  if (positionTop > peakPositions) peakPositions = positionTop;
  return h;
}

/** Gives back the newest position record (a duplicate, or one that needs no keeping). */
export function dropNewestPosition(): void {
  positionTop--;
}

/** Adds position `h` at the front of `node`'s list in word `list`; false when the entry arena is full. */
function pushEntry(node: i32, list: i32, h: i32): bool {
  if (entryTop >= entryLimit) {
    outOfRoom = true;
    return false;
  }
  const e = entryTop++;
  if (entryTop > peakEntries) peakEntries = entryTop;
  unchecked((ENTRY_HANDLE[e] = h));
  unchecked((ENTRY_NEXT[e] = get(node, list)));
  set(node, list, e);
  set(node, N_SIZE, get(node, N_SIZE) + 1);
  return true;
}

/** Adds position `h` to `node`'s positions; false when the entry arena is full. */
export function addEntry(node: i32, h: i32): bool {
  return pushEntry(node, N_ENTRIES, h);
}

/** Adds position `h` to `node`'s pending list (incremental searches); false when the entry arena is full. */
export function addPending(node: i32, h: i32): bool {
  if (!pushEntry(node, N_PENDING, h)) return false;
  set(node, N_WAITING, get(node, N_WAITING) + 1);
  return true;
}

// Position ordering (beyond the paper, switchable): take the pending position that looks hardest
// for us first — the one whose opponent king has the most flight squares (adjacent, not his own
// piece, not attacked by us) — so a failing position, which disproves the node, tends to come early.
let orderPositions: bool = false;
let us: i32 = 0;
export function setPositionOrdering(on: bool, side: i32): void {
  orderPositions = on;
  us = side;
}

function hardness(h: i32): i32 {
  const base = h << POSITION_SHIFT;
  const them = us ^ 1;
  const king = kingSquare(base, them);
  let lo = unchecked(KING_ATTACKS[king << 1]) & ~unchecked(POSITIONS[base + W_COLOR + (them << 1)]);
  let hi = unchecked(KING_ATTACKS[(king << 1) + 1]) & ~unchecked(POSITIONS[base + W_COLOR + (them << 1) + 1]);
  let free = 0;
  while ((lo | hi) != 0) {
    const sq = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    if (!isAttacked(base, sq, us)) free++;
  }
  return free;
}

/**
 * Moves a pending position of `node` to its integrated list and returns it (-1: none pending):
 * the most recently added, or with position ordering the hardest.
 */
export function takePending(node: i32): i32 {
  let e = get(node, N_PENDING);
  if (e < 0) return -1;
  let before = -1;
  if (orderPositions) {
    let best = hardness(unchecked(ENTRY_HANDLE[e]));
    for (let p = e, q = unchecked(ENTRY_NEXT[e]); q >= 0; p = q, q = unchecked(ENTRY_NEXT[q])) {
      const score = hardness(unchecked(ENTRY_HANDLE[q]));
      if (score > best) {
        best = score;
        e = q;
        before = p;
      }
    }
  }
  if (before < 0) set(node, N_PENDING, unchecked(ENTRY_NEXT[e]));
  else unchecked((ENTRY_NEXT[before] = unchecked(ENTRY_NEXT[e])));
  set(node, N_WAITING, get(node, N_WAITING) - 1);
  unchecked((ENTRY_NEXT[e] = get(node, N_ENTRIES)));
  set(node, N_ENTRIES, e);
  return unchecked(ENTRY_HANDLE[e]);
}

/** Appends `attempt` to the attempt-list arena; false when full. */
export function pushAttempt(attempt: i32): bool {
  if (attemptTop >= entryLimit) {
    outOfRoom = true;
    return false;
  }
  unchecked((ATTEMPT_LIST[attemptTop++] = attempt));
  if (attemptTop > peakAttempts) peakAttempts = attemptTop;
  return true;
}

/** Does `node`'s key equal (k0, k1, k2)? */
export function keyIs(node: i32, k0: i32, k1: i32, k2: i32): bool {
  return get(node, N_KEY) == k0 && get(node, N_KEY + 1) == k1 && get(node, N_KEY + 2) == k2;
}

export function setKey(node: i32, k0: i32, k1: i32, k2: i32): void {
  set(node, N_KEY, k0);
  set(node, N_KEY + 1, k1);
  set(node, N_KEY + 2, k2);
}

// Making the children of belief-state nodes (the paper's "expand"): the attempts worth trying at
// an OR node, the parts of an ATTEMPT node, the successors of an EXPAND node. With `early`
// (the E- algorithms) a build stops at the first position that fails, without making the rest.

import { POSITIONS, POSITION_SHIFT, W_KEY_LO, W_KEY_HI, samePosition } from '../chess/position';
import { MOVES, listOffset, generateMoves } from '../chess/moveGen';
import { mul32 } from '../chess/bitboard';
import { rule, RULE_FIFTY_MOVES } from '../referee/rules';
import { ANSWER_LEGAL, END_NONE, perceptEnd, answerAttempt, playAndAnnounce } from '../referee/referee';
import { attemptOf } from '../referee/attempts';
import { afterOwnMove, announceTries, triesLo, triesHi, WON, FAILED } from './outcome';
import {
  N_PARENT, N_FIRST, N_NEXT, N_DEPTH, N_ATTEMPT, N_ENTRIES, N_SIZE, N_ATTEMPTS, N_COUNT,
  KIND_OR, KIND_ATTEMPT, KIND_EXPAND, FLAG_EXPANDED, FLAG_TERMINAL,
  ENTRY_HANDLE, ENTRY_NEXT, ATTEMPT_LIST, attemptTop,
  get, set, kindOf, addFlag, prove, disprove, isProven, newNode, newPosition, dropNewestPosition,
  addEntry, pushAttempt, keyIs, setKey, markOutOfRoom,
} from './tree';

/** Move lists of the search pool (lists 0..63) the builds use; perft never runs during a solve. */
const ATTEMPT_MOVES: i32 = listOffset(1);
const EXPAND_MOVES: i32 = listOffset(2);

// ---- duplicate positions within a node: a hash set of (node, position), cleared per build ----

let DEDUPE_NODE = new Int32Array(0);
let DEDUPE_HANDLE = new Int32Array(0);
let DEDUPE_GENERATION = new Int32Array(0);
let dedupeMask: i32 = 0;
let dedupeGeneration: i32 = 0;
let dedupeUsed: i32 = 0;

/**
 * Sizes the set for builds of up to `positions` positions: the largest power of two within two
 * slots per position, the share the host's memory budget gives it (grow-only arrays).
 */
export function dedupeBytes(): f64 { return f64(dedupeMask + 1) * 12; }

export function ensureDedupe(positions: i32): void {
  let size = 1024;
  while (size * 2 <= positions * 2 && size < (1 << 24)) size <<= 1;
  if (DEDUPE_NODE.length < size) {
    DEDUPE_NODE = new Int32Array(size);
    DEDUPE_HANDLE = new Int32Array(size);
    DEDUPE_GENERATION = new Int32Array(size);
    dedupeGeneration = 0;
  }
  dedupeMask = DEDUPE_NODE.length - 1;
}

function newBuild(): void {
  dedupeGeneration++;
  dedupeUsed = 0;
}

/**
 * Adds the newest position `h` to `node` unless an equal one is there: 1 added, 0 a duplicate
 * (the record is given back), -1 out of room.
 */
function addUnique(node: i32, h: i32): i32 {
  if (dedupeUsed * 4 >= dedupeMask * 3) { dropNewestPosition(); markOutOfRoom(); return -1; }
  const base = h << POSITION_SHIFT;
  let slot = (unchecked(POSITIONS[base + W_KEY_LO]) ^ (unchecked(POSITIONS[base + W_KEY_HI]) >>> 7) ^ mul32(node, 0x9e3779b1)) & dedupeMask;
  const clock = rule(RULE_FIFTY_MOVES) != 0;
  while (unchecked(DEDUPE_GENERATION[slot]) == dedupeGeneration) {
    if (unchecked(DEDUPE_NODE[slot]) == node && samePosition(unchecked(DEDUPE_HANDLE[slot]), h, clock)) {
      dropNewestPosition();
      return 0;
    }
    slot = (slot + 1) & dedupeMask;
  }
  if (!addEntry(node, h)) { dropNewestPosition(); return -1; }
  unchecked(DEDUPE_GENERATION[slot] = dedupeGeneration);
  unchecked(DEDUPE_NODE[slot] = node);
  unchecked(DEDUPE_HANDLE[slot] = h);
  dedupeUsed++;
  return 1;
}

/** The child of `node` of `kind` with key (k0, k1, k2), made if there is none yet; -1 out of room. */
function childWithKey(node: i32, kind: i32, k0: i32, k1: i32, k2: i32, depth: i32): i32 {
  for (let c = get(node, N_FIRST); c >= 0; c = get(c, N_NEXT)) if (keyIs(c, k0, k1, k2)) return c;
  const c = newNode(kind, node, depth);
  if (c >= 0) setKey(c, k0, k1, k2);
  return c;
}

// ---- OR nodes: the attempts worth trying ----

const TRIED = new Int32Array(1 << 15);
let triedGeneration: i32 = 0;

/**
 * Lists at `node` every attempt legal in at least one of its positions and not yet tried this
 * turn (the turn's earlier attempts are the ATTEMPT ancestors this node is the Illegal part of),
 * in order of first appearance.
 */
export function listAttempts(node: i32): void {
  triedGeneration++;
  let n = node;
  for (;;) {
    const p = get(n, N_PARENT);
    if (p < 0 || kindOf(p) != KIND_ATTEMPT) break;
    unchecked(TRIED[get(p, N_ATTEMPT)] = triedGeneration);
    n = get(p, N_PARENT);
  }
  const start = attemptTop;
  for (let e = get(node, N_ENTRIES); e >= 0; e = unchecked(ENTRY_NEXT[e])) {
    const h = unchecked(ENTRY_HANDLE[e]);
    const n = generateMoves(h, ATTEMPT_MOVES);
    for (let i = 0; i < n; i++) {
      const attempt = attemptOf(unchecked(MOVES[ATTEMPT_MOVES + i]));
      if (unchecked(TRIED[attempt]) == triedGeneration) continue;
      unchecked(TRIED[attempt] = triedGeneration);
      if (!pushAttempt(attempt)) return;
    }
  }
  set(node, N_ATTEMPTS, start);
  set(node, N_COUNT, attemptTop - start);
  addFlag(node, FLAG_EXPANDED);
}

export function attemptAt(node: i32, i: i32): i32 { return unchecked(ATTEMPT_LIST[get(node, N_ATTEMPTS) + i]); }

// ---- ATTEMPT nodes ----

/**
 * Tries the attempt of ATTEMPT node `node` in every position of its OR parent: rejected
 * positions go to the Illegal child, legal outcomes are judged (won ones dropped, a failing one
 * disproves the node) and the rest grouped by what we hear into EXPAND children. An EXPAND child
 * left without positions (every position in it won) is proven; the node is proven when every
 * child is.
 */
export function buildAttempt(node: i32, early: bool): void {
  newBuild();
  const parent = get(node, N_PARENT);
  const attempt = get(node, N_ATTEMPT);
  const depth = get(node, N_DEPTH);
  let failed = false;
  for (let e = get(parent, N_ENTRIES); e >= 0; e = unchecked(ENTRY_NEXT[e])) {
    const h = unchecked(ENTRY_HANDLE[e]);
    const dst = newPosition();
    if (dst < 0) return;
    const percept = answerAttempt(h, attempt, dst);
    if ((percept & 3) != ANSWER_LEGAL) {
      dropNewestPosition();
      const rejected = childWithKey(node, KIND_OR, percept, 0, 0, depth);
      if (rejected < 0 || !addEntry(rejected, h)) return;
      continue;
    }
    const result = afterOwnMove(dst, percept, depth);
    if (result == FAILED) {
      dropNewestPosition();
      failed = true;
      if (early) break;
      continue;
    }
    announceTries(dst);
    const part = childWithKey(node, KIND_EXPAND, percept, triesLo, triesHi, depth - 1);
    if (part < 0) { dropNewestPosition(); return; }
    if (result == WON) { dropNewestPosition(); continue; }
    if (addUnique(part, dst) < 0) return;
  }
  addFlag(node, FLAG_EXPANDED);
  if (failed) { disprove(node); addFlag(node, FLAG_TERMINAL); return; }
  let open = false;
  for (let c = get(node, N_FIRST); c >= 0; c = get(c, N_NEXT)) {
    if (kindOf(c) == KIND_EXPAND && get(c, N_SIZE) == 0) { prove(c); addFlag(c, FLAG_EXPANDED | FLAG_TERMINAL); }
    if (!isProven(c)) open = true;
  }
  if (!open) { prove(node); addFlag(node, FLAG_TERMINAL); }
}

// ---- EXPAND nodes ----

/**
 * Plays every legal move of theirs in every position of EXPAND node `node`, grouping the results
 * (duplicates removed) into OR children by what we hear. A move that ends the game (we are mated
 * or stalemated, or a draw) disproves the node.
 */
export function buildExpand(node: i32, early: bool): void {
  newBuild();
  const depth = get(node, N_DEPTH);
  let failed = false;
  for (let e = get(node, N_ENTRIES); e >= 0 && !(failed && early); e = unchecked(ENTRY_NEXT[e])) {
    const h = unchecked(ENTRY_HANDLE[e]);
    const n = generateMoves(h, EXPAND_MOVES);
    for (let i = 0; i < n; i++) {
      const dst = newPosition();
      if (dst < 0) return;
      const percept = playAndAnnounce(h, unchecked(MOVES[EXPAND_MOVES + i]), dst);
      if (perceptEnd(percept) != END_NONE) {
        dropNewestPosition();
        failed = true;
        if (early) break;
        continue;
      }
      announceTries(dst);
      const next = childWithKey(node, KIND_OR, percept, triesLo, triesHi, depth - 1);
      if (next < 0) { dropNewestPosition(); return; }
      if (addUnique(next, dst) < 0) return;
    }
  }
  addFlag(node, FLAG_EXPANDED);
  if (failed) { disprove(node); addFlag(node, FLAG_TERMINAL); }
}

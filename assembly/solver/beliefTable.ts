// A transposition table of belief states with no mate (beyond the paper, switchable; issue 6).
//
// What a result depends on. An OR node (us to attempt, `d` plies of actual moves left) is proven
// or disproved by its set of positions and `d` alone: the attempts already rejected this turn (the
// ATTEMPT ancestors whose Illegal part it is) are illegal in every one of its positions, so they
// would not be listed anyway, and the solver never asks "Any?"; what we heard on arriving does not
// constrain what follows. The same set recurs all over the tree — the Illegal part of A then B is
// the Illegal part of B then A; different moves can lead to the same belief — and each time the
// same search would be repeated.
//
// What is stored: disproofs only. Every OR node disproved (tree.ts disprove, whichever algorithm)
// stores its set and plies: "no mate within d plies". A later OR node with exactly the same set and
// at most as many plies is disproved at once (no mate within d plies ⇒ none within fewer). Proofs
// are not stored: a proof is only usable with its strategy (strategyWrite encodes the proven
// subtree), and the subtree does not last — the depth-first searches free a proven subtree when
// an ancestor fails, the incremental ones re-open a proof when their next position arrives — so a
// proof from the table would leave nothing to write. The proof side is found by search, as before.
//
// Where it is looked up (the set must be one whose disproof disproves the node):
// - the black-box searches (dfs.ts family, pns.ts: pns, e-pns) hold an OR node's whole set from the
//   moment it is made, and look it up when they first expand it, before listing its attempts;
// - the incremental searches (incremental.ts: l-dub, l-dbu, gl-dbu; ipns.ts) look up an OR node's
//   integrated positions each time one more is integrated (build.ts integrate). An incremental
//   node's disproof is about the positions it has integrated so far, and that is the set it stores:
//   by Theorem 2 no superset has a mate, so a hit on the partial set disproves the node whatever
//   arrives later. (A disproved subset would do as well; only exact sets are matched.)
//
// The key is order-independent: for each position its 64-bit Zobrist key as two words (lo, hi),
// with the halfmove clock mixed into lo when the fifty-move rule is on (then the clock matters, and
// the duplicate check in build.ts tells such positions apart); per set the count and, mod 2^32,
// the sums and the xors of the lo and hi words. The slot is direct-mapped from them; a new set
// replaces the old one. A hit is checked against the stored sorted list of the set's 64-bit keys,
// so it is exact up to collisions of those keys (as everywhere Zobrist keys are trusted). The lists
// live in a ring of words: a new list goes at the ring's head, and a slot whose list has been
// overwritten is void. Sets of more than MAX_SET positions are not tabled. Everything (10 MiB) is
// allocated once, when the table is first switched on, and emptied per search (resetBeliefTable).

import { POSITIONS, POSITION_SHIFT, W_HALFMOVE, W_KEY_LO, W_KEY_HI } from '../chess/position';
import { mul32 } from '../chess/bitboard';
import { rule, RULE_FIFTY_MOVES } from '../referee/rules';

const SLOT_BITS: i32 = 16;
const SLOT_COUNT: i32 = 1 << SLOT_BITS;
/** Words of the ring of key lists (two per position: a million positions' keys). */
const RING_WORDS: i32 = 1 << 21;
/** Sets of more positions are not tabled. */
const MAX_SET: i32 = 1 << 14;

// Slot record (SLOT_WORDS Int32 words, base = slot * SLOT_WORDS):
// | word | field   | meaning                                                                    |
// |------|---------|----------------------------------------------------------------------------|
// | 0    | depth   | plies the set was disproved at; 0 = empty slot                              |
// | 1    | count   | positions in the set                                                       |
// | 2..5 | summary | sum of the lo words, sum of the hi words, xor of the lo, xor of the hi      |
// | 6    | start   | the set's keys in RING: count (lo, hi) pairs from here, sorted by lo, then hi |
// | 7    | lap     | the ring's lap when they were written: intact while the head has not passed them |
const SLOT_WORDS: i32 = 8;
const S_DEPTH: i32 = 0;
const S_COUNT: i32 = 1;
const S_SUMMARY: i32 = 2;
const S_START: i32 = 6;
const S_LAP: i32 = 7;

let SLOTS = new Int32Array(0);
let RING = new Int32Array(0);
let ringHead: i32 = 0;
let ringLap: i32 = 0;

export let beliefTableOn: bool = false;
export let beliefTableHits: f64 = 0;

export function resetBeliefTable(on: bool): void {
  beliefTableOn = on;
  beliefTableHits = 0;
  if (!on) return;
  if (SLOTS.length == 0) {
    SLOTS = new Int32Array(SLOT_COUNT * SLOT_WORDS);
    RING = new Int32Array(RING_WORDS);
    SET_KEYS = new Int32Array(MAX_SET * 2);
  } else SLOTS.fill(0);
  ringHead = 0;
  ringLap = 0;
}

// ---- the set at hand: beginSet, then addToSet for each position, then a look-up or a store ----

/** Its keys (lo, hi pairs; the first MAX_SET), count and summary. */
let SET_KEYS = new Int32Array(0);
let setCount: i32 = 0;
let sumLo: i32 = 0;
let sumHi: i32 = 0;
let xorLo: i32 = 0;
let xorHi: i32 = 0;
let clock: bool = false;

export function beginSet(): void {
  setCount = 0;
  sumLo = 0;
  sumHi = 0;
  xorLo = 0;
  xorHi = 0;
  clock = rule(RULE_FIFTY_MOVES) != 0;
}

export function addToSet(h: i32): void {
  const base = h << POSITION_SHIFT;
  let lo = unchecked(POSITIONS[base + W_KEY_LO]);
  const hi = unchecked(POSITIONS[base + W_KEY_HI]);
  if (clock) lo ^= mul32(unchecked(POSITIONS[base + W_HALFMOVE]), 0x9e3779b1);
  if (setCount < MAX_SET) {
    unchecked((SET_KEYS[setCount << 1] = lo));
    unchecked((SET_KEYS[(setCount << 1) + 1] = hi));
  }
  setCount++;
  sumLo = i32(sumLo + lo); // i32(): wraps in the portable build too
  sumHi = i32(sumHi + hi);
  xorLo ^= lo;
  xorHi ^= hi;
}

function slotBase(): i32 {
  return ((sumLo ^ xorHi ^ mul32(setCount, 0x9e3779b1)) & (SLOT_COUNT - 1)) * SLOT_WORDS;
}

/** Does slot `s` hold a set of this count and summary whose key list is still intact? */
function holdsSummary(s: i32): bool {
  if (
    unchecked(SLOTS[s + S_COUNT]) != setCount ||
    unchecked(SLOTS[s + S_SUMMARY]) != sumLo ||
    unchecked(SLOTS[s + S_SUMMARY + 1]) != sumHi ||
    unchecked(SLOTS[s + S_SUMMARY + 2]) != xorLo ||
    unchecked(SLOTS[s + S_SUMMARY + 3]) != xorHi
  )
    return false;
  const lap = unchecked(SLOTS[s + S_LAP]);
  return lap == ringLap || (lap == ringLap - 1 && unchecked(SLOTS[s + S_START]) >= ringHead);
}

/** Is the set at hand known to have no mate within `depth` plies? */
export function knownSetNoMate(depth: i32): bool {
  if (setCount > MAX_SET) return false;
  const s = slotBase();
  if (unchecked(SLOTS[s + S_DEPTH]) < depth || !holdsSummary(s)) return false;
  sortSetKeys();
  const start = unchecked(SLOTS[s + S_START]);
  for (let i = 0; i < setCount << 1; i++) if (unchecked(SET_KEYS[i]) != unchecked(RING[start + i])) return false;
  beliefTableHits++;
  return true;
}

/** The set at hand has no mate within `depth` plies. */
export function storeSetNoMate(depth: i32): void {
  if (setCount > MAX_SET) return;
  const s = slotBase();
  // already there at this depth or more (or a set of the same 128-bit summary: then one is lost)
  if (unchecked(SLOTS[s + S_DEPTH]) >= depth && holdsSummary(s)) return;
  const words = setCount << 1;
  if (ringHead + words > RING_WORDS) {
    ringLap++;
    ringHead = 0;
  }
  sortSetKeys();
  for (let i = 0; i < words; i++) unchecked((RING[ringHead + i] = unchecked(SET_KEYS[i])));
  unchecked((SLOTS[s + S_DEPTH] = depth));
  unchecked((SLOTS[s + S_COUNT] = setCount));
  unchecked((SLOTS[s + S_SUMMARY] = sumLo));
  unchecked((SLOTS[s + S_SUMMARY + 1] = sumHi));
  unchecked((SLOTS[s + S_SUMMARY + 2] = xorLo));
  unchecked((SLOTS[s + S_SUMMARY + 3] = xorHi));
  unchecked((SLOTS[s + S_START] = ringHead));
  unchecked((SLOTS[s + S_LAP] = ringLap));
  ringHead += words;
}

// ---- sorting the set's keys (heapsort of the (lo, hi) pairs in SET_KEYS: in place, n log n) ----

function pairBefore(i: i32, j: i32): bool {
  const a = unchecked(SET_KEYS[i << 1]);
  const b = unchecked(SET_KEYS[j << 1]);
  return a < b || (a == b && unchecked(SET_KEYS[(i << 1) + 1]) < unchecked(SET_KEYS[(j << 1) + 1]));
}

function swapPairs(i: i32, j: i32): void {
  for (let w = 0; w < 2; w++) {
    const t = unchecked(SET_KEYS[(i << 1) + w]);
    unchecked((SET_KEYS[(i << 1) + w] = unchecked(SET_KEYS[(j << 1) + w])));
    unchecked((SET_KEYS[(j << 1) + w] = t));
  }
}

function siftDown(root: i32, end: i32): void {
  for (;;) {
    let child = (root << 1) + 1;
    if (child >= end) return;
    if (child + 1 < end && pairBefore(child, child + 1)) child++;
    if (!pairBefore(root, child)) return;
    swapPairs(root, child);
    root = child;
  }
}

function sortSetKeys(): void {
  for (let i = (setCount >> 1) - 1; i >= 0; i--) siftDown(i, setCount);
  for (let end = setCount - 1; end > 0; end--) {
    swapPairs(0, end);
    siftDown(0, end);
  }
}

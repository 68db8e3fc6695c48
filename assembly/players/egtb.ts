// Kriegspiel endgame tablebases (issue #35): K+R, K+Q, K+B+B and K+B+N against a lone king,
// the attacker (White, canonically) to move, valued by the least number of attacker moves in which
// it forces mate whatever the defender does and whatever the referee answers.
//
// A state is a metaposition (metaposition.ts, whose transitions it uses): the attacker's men (a
// men key, `king | a << 6 | b << 12`, a and b the squares of the ending's first and second piece,
// two bishops in ascending order) and the set S of squares the king may be on, the attacker to
// move. States are canonical under the board's 8 symmetries (the least men key, then the least set
// among the symmetries that give it; check directions map to check directions, so the classes and
// the value are the same). Entries, ENTRY_WORDS words each: men key, S's two words, the value (0:
// no forced mate known; n ≥ 1: mate in n attacker moves, the mating move included).
//
// Build (the host drives it in slices, for progress):
// - egtbStarts: every placement of the men, the king anywhere consistent (not on a man, not
//   attacked: the attacker is to move); the first egtbStartCount entries;
// - egtbEnumerate: breadth first from the starts, each state's successors inserted into an
//   open-addressing table over the entries (no per-state object): for every attempt that risks
//   nothing (below), the Illegal answer's state (a king attempt next to a square of S: S ∩ K(t),
//   the same turn) and, per class of the legal move's percepts, the defender's reply (S dilated
//   less the attacked squares); a state reached only through attempts never taken is left out;
// - egtbSweep(n, …): a state not yet valued gets n when some attempt leads, under every answer,
//   to mate (checkmate now; stalemate too where the rules make the stalemated side lose), to a
//   state valued ≤ n − 1 after the reply, or to an Illegal answer's state valued ≤ n (no move
//   spent; its set is strictly smaller, so that recursion ends); an answer where the king may take
//   an unprotected man or is stalemated fails the attempt. Over the build's graph (egtb/graph.ts:
//   each state's attempts and their successors) an Illegal answer's state an attempt waits on is
//   decided first, so one sweep at n values every mate in n; past the graph the host repeats the
//   sweep at n until it values nothing. It stops after a level that valued nothing.
// Between slices the host may checkpoint the build (the entries, UNEXPANDED, the graph) and resume
// it (egtbResume). A probe (egtbProbe) values a state the same way over its attempts (a state
// outside the table too: its successors are looked up), the best attempt mapped back.

import { WHITE, BLACK, lowestSquare, mul32 } from '../chess/bitboard';
import { KING_ATTACKS } from '../chess/attacks';
import { POSITIONS, POSITION_SHIFT, W_COLOR, W_SIDE, positionCapacity } from '../chess/position';
import { ATTEMPTS, generateAttempts } from '../referee/attempts';
import { END_CHECKMATE, END_STALEMATE } from '../referee/referee';
import { rule, RULE_STALEMATE_LOSES } from '../referee/rules';
import {
  CLASS_KEYS,
  CLASS_SLOTS,
  CLASSES,
  USED,
  USED_COUNT,
  outLo,
  outHi,
  classAttackLo,
  classAttackHi,
  attackSet,
  classify,
  clearClass,
  canTake,
  replySet,
} from './metaposition';
import {
  EGTB_KBBK,
  EGTB_ENDINGS,
  SYM,
  canonMen,
  canonLo,
  canonHi,
  ending,
  setEnding,
  initSymmetries,
  typeB,
  menKey,
  mapSet,
  canonical,
  setRecord,
  menKeyOfRecord,
  spareSquare,
} from './egtb/state';
import {
  EDGE_FREE,
  EDGE_MATE,
  edgeCount,
  graphStates,
  graphInit,
  graphResume,
  beginState,
  endState,
  beginAttempt,
  edge,
  endAttempt,
  clearValues,
  setValue,
  setChecked,
  proves,
} from './egtb/graph';

export const EGTB_OK: i32 = 0;
/** The table is full (a larger capacity is needed). */
export const EGTB_NO_ROOM: i32 = 1;
export const EGTB_BAD_ENDING: i32 = 2;
/** The records or the capacity lie outside what the arena allows. */
export const EGTB_BAD_ARGS: i32 = 3;
/** The probed position is not the ending with the attacker to move, or its set is empty or holds a man or an attacked square. */
export const EGTB_BAD_STATE: i32 = 4;

export { EGTB_KRK, EGTB_KQK, EGTB_KBBK, EGTB_KBNK, EGTB_ENDINGS } from './egtb/state';

export const EGTB_ENTRY_WORDS: i32 = 4;
/** Records the module uses from its `stack`: the state, after the attempt, scratch. */
export const EGTB_RECORDS: i32 = 3;
/** A value no strategy reaches (no forced mate). */
export const EGTB_NONE: i32 = 0x7fffffff;

const SLOT: i32 = CLASS_SLOTS - 1;
const MODE_INSERT: i32 = 0;
const MODE_VALUE: i32 = 1;

/** ENTRIES[i * EGTB_ENTRY_WORDS …]: men key, S low, S high, value. */
export let ENTRIES = new Int32Array(0);
let HASH = new Int32Array(0); // entry index + 1, 0 empty
// bit i: state i lay past the enumeration's depth limit (no attempts: never valued, graph or not)
export let UNEXPANDED = new Int32Array(0);
let depthNow: i32 = 0; // the depth of the state being expanded
let capacity: i32 = 0;
let hashMask: i32 = 0;
let count: i32 = 0;
let startCount: i32 = 0;
let cursor: i32 = 0;
let stack: i32 = 0;
let full: bool = false;
let stalemateWins: bool = false;
const LIST = new Int32Array(256);

// ---- the table ----

function hashOf(men: i32, lo: i32, hi: i32): i32 {
  let h = mul32(men ^ 0x5bd1e995, 0x9e3779b1);
  h = mul32(h ^ lo ^ (h >>> 15), 0x85ebca77);
  h = mul32(h ^ hi ^ (h >>> 13), 0xc2b2ae3d);
  return h ^ (h >>> 16);
}

/** The entry index of the canonical state, or −1. */
function find(men: i32, lo: i32, hi: i32): i32 {
  let h = hashOf(men, lo, hi) & hashMask;
  while (true) {
    const e = unchecked(HASH[h]) - 1;
    if (e < 0) return -1;
    const w = e * EGTB_ENTRY_WORDS;
    if (unchecked(ENTRIES[w]) == men && unchecked(ENTRIES[w + 1]) == lo && unchecked(ENTRIES[w + 2]) == hi) return e;
    h = (h + 1) & hashMask;
  }
  return -1;
}

/**
 * Inserts the canonical state found `depth` attacker moves from a start (the value word holds the
 * least depth until the enumeration ends): its entry index, −1 when the table is full.
 */
function insert(men: i32, lo: i32, hi: i32, depth: i32): i32 {
  let h = hashOf(men, lo, hi) & hashMask;
  while (true) {
    const e = unchecked(HASH[h]) - 1;
    if (e < 0) break;
    const w = e * EGTB_ENTRY_WORDS;
    if (unchecked(ENTRIES[w]) == men && unchecked(ENTRIES[w + 1]) == lo && unchecked(ENTRIES[w + 2]) == hi) {
      if (depth < unchecked(ENTRIES[w + 3])) unchecked((ENTRIES[w + 3] = depth));
      return e;
    }
    h = (h + 1) & hashMask;
  }
  if (count >= capacity) {
    full = true;
    return -1;
  }
  const w = count * EGTB_ENTRY_WORDS;
  unchecked((ENTRIES[w] = men));
  unchecked((ENTRIES[w + 1] = lo));
  unchecked((ENTRIES[w + 2] = hi));
  unchecked((ENTRIES[w + 3] = depth));
  unchecked((HASH[h] = ++count));
  return count - 1;
}

// ---- one state's attempts ----

/**
 * Whether some class of the attempt classify just split (the men after it in afterBase, attacking
 * aLo/aHi) may lose a man or stalemate (where that draws): the attempt is never taken, and its
 * classes are cleared.
 */
function risky(afterBase: i32, aLo: i32, aHi: i32): bool {
  const keys = SLOT * CLASS_KEYS;
  const used = unchecked(USED_COUNT[SLOT]);
  let bad = false;
  for (let j = 0; j < used && !bad; j++) {
    const key = unchecked(USED[keys + j]);
    const end = key & 3;
    if (end == END_CHECKMATE || (end == END_STALEMATE && stalemateWins)) continue;
    const c = (keys + key) << 1;
    bad = end == END_STALEMATE || canTake(afterBase, WHITE, unchecked(CLASSES[c]), unchecked(CLASSES[c + 1]), aLo, aHi);
  }
  if (bad) for (let j = 0; j < used; j++) clearClass(SLOT, unchecked(USED[keys + j]));
  return bad;
}

let bestAttempt: i32 = -1;

/** What an answer leads to: in MODE_INSERT, its state inserted and its edge written (0); in MODE_VALUE, its value plus `cost`. */
function outcome(mode: i32, men: i32, lo: i32, hi: i32, cost: i32): i32 {
  canonical(men, lo, hi);
  if (mode == MODE_INSERT) {
    const e = insert(canonMen, canonLo, canonHi, depthNow + cost);
    if (e >= 0) edge(cursor, (e << 2) | (cost == 0 ? EDGE_FREE : 0));
    return 0;
  }
  const e = find(canonMen, canonLo, canonHi);
  if (e < 0) return EGTB_NONE;
  const v = unchecked(ENTRIES[e * EGTB_ENTRY_WORDS + 3]);
  return v == 0 ? EGTB_NONE : v + cost;
}

/**
 * The attempts of state (men, S) (White's men, not necessarily canonical): in MODE_INSERT, every
 * successor inserted; in MODE_VALUE, the least worst case over the attempts (bestAttempt its
 * attempt), an attempt given up once its worst case passes `limit`.
 */
function expand(mode: i32, men: i32, lo: i32, hi: i32, limit: i32): i32 {
  const from = stack;
  const after = stack + 1;
  const scratch = stack + 2;
  setRecord(from, men, lowestSquare(lo, hi));
  const n = generateAttempts(from);
  for (let i = 0; i < n; i++) unchecked((LIST[i] = unchecked(ATTEMPTS[i])));
  const king = men & 63;
  let best = EGTB_NONE;
  bestAttempt = -1;
  const afterBase = after << POSITION_SHIFT;
  const keys = SLOT * CLASS_KEYS;
  for (let i = 0; i < n; i++) {
    const attempt = unchecked(LIST[i]);
    if (attempt >> 12 != 0) continue;
    const f = attempt & 63;
    const t = (attempt >> 6) & 63;
    if (f == king && (t - f == 2 || f - t == 2)) continue; // castling (no rights: never legal)
    let illLo = 0;
    let illHi = 0;
    if (f == king) {
      illLo = lo & unchecked(KING_ATTACKS[t << 1]);
      illHi = hi & unchecked(KING_ATTACKS[(t << 1) + 1]);
    }
    const legLo = lo & ~illLo;
    const legHi = hi & ~illHi;
    if ((legLo | legHi) == 0) continue; // Illegal whatever the king's square: nothing learnt
    let worst = 0;
    if (mode == MODE_VALUE && (illLo | illHi) != 0) {
      worst = outcome(mode, men, illLo, illHi, 0);
      if (worst > limit) continue;
    }
    classify(from, attempt, after, scratch, SLOT, WHITE, legLo, legHi);
    const aLo = classAttackLo;
    const aHi = classAttackHi;
    const used = unchecked(USED_COUNT[SLOT]);
    // an attempt never taken leads nowhere: the states only it reaches are not enumerated
    if (mode == MODE_INSERT) {
      if (risky(afterBase, aLo, aHi)) continue;
      beginAttempt();
      if ((illLo | illHi) != 0) outcome(mode, men, illLo, illHi, 0);
    }
    const next = menKeyOfRecord(afterBase, WHITE);
    const menLo = unchecked(POSITIONS[afterBase + W_COLOR]);
    const menHi = unchecked(POSITIONS[afterBase + W_COLOR + 1]);
    for (let j = 0; j < used; j++) {
      const key = unchecked(USED[keys + j]);
      const c = (keys + key) << 1;
      const cLo = unchecked(CLASSES[c]);
      const cHi = unchecked(CLASSES[c + 1]);
      clearClass(SLOT, key);
      if (mode == MODE_VALUE && worst > limit) continue; // given up (the classes still cleared)
      const end = key & 3;
      let v = 0;
      if (end == END_CHECKMATE || (end == END_STALEMATE && stalemateWins)) {
        v = 1;
        if (mode == MODE_INSERT) edge(cursor, EDGE_MATE);
      } else if (end == END_STALEMATE || canTake(afterBase, WHITE, cLo, cHi, aLo, aHi)) v = EGTB_NONE;
      else {
        replySet(cLo, cHi, aLo, aHi, menLo, menHi);
        v = outcome(mode, next, outLo, outHi, 1);
      }
      if (v > worst) worst = v;
    }
    if (mode == MODE_INSERT) endAttempt(cursor);
    else if (worst < best) {
      best = worst;
      bestAttempt = attempt;
    }
  }
  return best;
}

// ---- the exported interface ----

/**
 * Starts an empty table for `theEnding` (EGTB_*) with room for 2^log2 states and 2^edgeLog2 words
 * of the build's graph (0: none; reusing the arrays when they are large enough), records `records` … + EGTB_RECORDS − 1 its own; the rules in force
 * (stalemate a loss or a draw; check directions or plain) are the table's.
 */
export function egtbInit(theEnding: i32, log2: i32, edgeLog2: i32, records: i32): i32 {
  if (theEnding < 0 || theEnding >= EGTB_ENDINGS) return EGTB_BAD_ENDING;
  if (
    log2 < 4 ||
    log2 > 26 ||
    edgeLog2 < 0 ||
    edgeLog2 > 28 || // 2^28 words (1 GB) in two arrays
    records < 0 ||
    records + EGTB_RECORDS > positionCapacity()
  )
    return EGTB_BAD_ARGS;
  initSymmetries();
  setEnding(theEnding);
  stack = records;
  capacity = 1 << log2;
  if (ENTRIES.length < capacity * EGTB_ENTRY_WORDS) ENTRIES = new Int32Array(capacity * EGTB_ENTRY_WORDS);
  if (HASH.length < capacity * 2) HASH = new Int32Array(capacity * 2);
  hashMask = capacity * 2 - 1;
  HASH.fill(0, 0, capacity * 2);
  const bits = (capacity >> 5) + 1;
  if (UNEXPANDED.length < bits) UNEXPANDED = new Int32Array(bits);
  UNEXPANDED.fill(0, 0, bits);
  graphInit(capacity, edgeLog2);
  count = 0;
  startCount = 0;
  cursor = 0;
  full = false;
  stalemateWins = rule(RULE_STALEMATE_LOSES) != 0;
  return EGTB_OK;
}

/** Inserts the start states: every placement of the men (bishops of two colours), the king anywhere consistent. */
export function egtbStarts(): i32 {
  const two = typeB() != 0;
  const bEnd = two ? 64 : 1;
  const base = stack << POSITION_SHIFT;
  for (let k = 0; k < 64; k++)
    for (let a = 0; a < 64; a++) {
      if (a == k) continue;
      for (let b = 0; b < bEnd; b++) {
        if (two && (b == k || b == a)) continue;
        if (ending == EGTB_KBBK && (b < a || (((a & 7) + (a >> 3)) & 1) == (((b & 7) + (b >> 3)) & 1))) continue;
        const men = menKey(k, a, b);
        setRecord(stack, men, spareSquare(men));
        attackSet(base, WHITE);
        const menLo = unchecked(POSITIONS[base + W_COLOR]);
        const menHi = unchecked(POSITIONS[base + W_COLOR + 1]);
        const lo = ~outLo & ~menLo;
        const hi = ~outHi & ~menHi;
        if ((lo | hi) == 0) continue;
        canonical(men, lo, hi);
        if (insert(canonMen, canonLo, canonHi, 0) < 0) return EGTB_NO_ROOM;
      }
    }
  startCount = count;
  return EGTB_OK;
}

/**
 * Expands up to `budget` states in breadth-first order (egtbCursor: how many so far; done at
 * egtbCount), those found `depthLimit` or more attacker moves from a start left without edges
 * (their value unknown: the table then proves the mates of at most depthLimit moves from a start,
 * give or take an Illegal answer's state found late). The first state the graph has no room for
 * ends it (egtbGraphStates). At the end the values are cleared for the sweeps.
 */
export function egtbEnumerate(budget: i32, depthLimit: i32): i32 {
  for (let i = 0; i < budget && cursor < count; i++) {
    const w = cursor * EGTB_ENTRY_WORDS;
    beginState(cursor);
    depthNow = unchecked(ENTRIES[w + 3]);
    if (depthNow < depthLimit)
      expand(MODE_INSERT, unchecked(ENTRIES[w]), unchecked(ENTRIES[w + 1]), unchecked(ENTRIES[w + 2]), 0);
    else unchecked((UNEXPANDED[cursor >> 5] |= 1 << (cursor & 31)));
    if (full) return EGTB_NO_ROOM;
    endState(cursor);
    cursor++;
  }
  if (cursor == count) {
    for (let i = 0; i < count; i++) unchecked((ENTRIES[i * EGTB_ENTRY_WORDS + 3] = 0));
    clearValues(count);
  }
  return EGTB_OK;
}

/** Words of the build's graph so far. */
export function egtbEdgeCount(): i32 {
  return edgeCount;
}

/** The states with a graph, the first ones (the rest are recomputed by each sweep). */
export function egtbGraphStates(): i32 {
  return min(graphStates, count);
}

let sweepValued: i32 = 0;

/** Decides state i (< graphStates, not valued) at level n: valued n, or not mate in n; its Illegal answers' states first. */
function settle(i: i32, n: i32): void {
  while (true) {
    const r = proves(i, n);
    if (r == 1) {
      unchecked((ENTRIES[i * EGTB_ENTRY_WORDS + 3] = n));
      setValue(i, n);
      sweepValued++;
      return;
    }
    if (r == 0) {
      setChecked(i, n);
      return;
    }
    settle(-2 - r, n);
  }
}

/**
 * Values n the states of [first, end) not yet valued whose mate in n is now proven, over the
 * build's graph (deciding the Illegal answers' states a state's attempt needs first, so that one
 * sweep of the states of a whole graph values every mate in n), or their attempts recomputed past
 * it (the enumeration done); how many, those of other ranges valued on the way too.
 */
export function egtbSweep(n: i32, first: i32, end: i32): i32 {
  sweepValued = 0;
  const last = min(end, cursor);
  for (let i = max(first, 0); i < last; i++) {
    const w = i * EGTB_ENTRY_WORDS + 3;
    if (unchecked(ENTRIES[w]) != 0) continue;
    if (i >= graphStates) {
      if ((unchecked(UNEXPANDED[i >> 5]) >>> (i & 31)) & 1) continue;
      const e = i * EGTB_ENTRY_WORDS;
      if (expand(MODE_VALUE, unchecked(ENTRIES[e]), unchecked(ENTRIES[e + 1]), unchecked(ENTRIES[e + 2]), n) <= n) {
        unchecked((ENTRIES[w] = n));
        setValue(i, n);
        sweepValued++;
      }
      continue;
    }
    settle(i, n);
  }
  return sweepValued;
}

/**
 * Takes up `n` entries written into ENTRIES, the first `starts` the start states: a table loaded
 * from a file (at = n, no graph), or a build resumed from its checkpoint (egtbInit as it was, then
 * the host wrote back UNEXPANDED and the graph of the first `states` states in `edges` words): `at`
 * states expanded (n: the enumeration done, the entries' values the sweeps'). The hash is rebuilt
 * in the entries' order, the order the build inserted them.
 */
export function egtbResume(n: i32, starts: i32, at: i32, states: i32, edges: i32): i32 {
  if (n < 0 || n > capacity || starts > n || at < 0 || at > n || !graphResume(n, states, edges)) return EGTB_BAD_ARGS;
  HASH.fill(0, 0, capacity * 2);
  count = 0;
  for (let i = 0; i < n; i++) {
    const w = i * EGTB_ENTRY_WORDS;
    let h = hashOf(unchecked(ENTRIES[w]), unchecked(ENTRIES[w + 1]), unchecked(ENTRIES[w + 2])) & hashMask;
    while (unchecked(HASH[h]) != 0) h = (h + 1) & hashMask;
    unchecked((HASH[h] = ++count));
  }
  startCount = starts;
  cursor = at;
  full = false;
  if (at == n) {
    clearValues(n);
    for (let i = 0; i < n; i++) setValue(i, unchecked(ENTRIES[i * EGTB_ENTRY_WORDS + 3]));
  }
  return EGTB_OK;
}

export function egtbCount(): i32 {
  return count;
}
export function egtbStartCount(): i32 {
  return startCount;
}
export function egtbCursor(): i32 {
  return cursor;
}

// the state of a position and a set, White's men (stateOf)
let stateMen: i32 = 0;
let stateLo: i32 = 0;
let stateHi: i32 = 0;
let stateFlip: i32 = 0;

/** The state of position `handle`'s men with the king on (lo, hi) (both −1: anywhere consistent), mirrored by ranks when Black's men (stateMen …). */
function stateOf(handle: i32, lo: i32, hi: i32): i32 {
  if (handle < 0 || handle >= positionCapacity() || capacity == 0) return EGTB_BAD_ARGS;
  const base = handle << POSITION_SHIFT;
  const side = unchecked(POSITIONS[base + W_SIDE]);
  const men = menKeyOfRecord(base, side);
  if (men < 0 || (lo | hi) == 0) return EGTB_BAD_STATE;
  const flip = side == BLACK ? 2 : 0;
  let key = men;
  let sLo = lo;
  let sHi = hi;
  if (flip != 0) {
    const m = flip * 64;
    key = menKey(
      unchecked(SYM[m + (men & 63)]),
      unchecked(SYM[m + ((men >> 6) & 63)]),
      unchecked(SYM[m + ((men >> 12) & 63)]),
    );
    mapSet(flip, lo, hi);
    sLo = canonLo;
    sHi = canonHi;
  }
  setRecord(stack, key, spareSquare(key)); // the men's attacks do not depend on the king
  attackSet(stack << POSITION_SHIFT, WHITE);
  const menLo = unchecked(POSITIONS[(stack << POSITION_SHIFT) + W_COLOR]);
  const menHi = unchecked(POSITIONS[(stack << POSITION_SHIFT) + W_COLOR + 1]);
  if (lo == -1 && hi == -1) {
    // the king anywhere consistent
    sLo = ~outLo & ~menLo;
    sHi = ~outHi & ~menHi;
    if ((sLo | sHi) == 0) return EGTB_BAD_STATE;
  } else if (((sLo & (outLo | menLo)) | (sHi & (outHi | menHi))) != 0) return EGTB_BAD_STATE;
  stateMen = key;
  stateLo = sLo;
  stateHi = sHi;
  stateFlip = flip;
  return EGTB_OK;
}

/** Adds the state of position `handle` with the king on (lo, hi) as a start (in place of egtbStarts: a table around one state). */
export function egtbAddStart(handle: i32, lo: i32, hi: i32): i32 {
  const status = stateOf(handle, lo, hi);
  if (status != EGTB_OK) return status;
  canonical(stateMen, stateLo, stateHi);
  if (insert(canonMen, canonLo, canonHi, 0) < 0) return EGTB_NO_ROOM;
  startCount = count;
  return EGTB_OK;
}

let probeValue: i32 = 0;
let probeBound: bool = false;
// the state the last probe valued (White's men: the board mirrored when Black's), for egtbFollow
let lastMen: i32 = -1;
let lastLo: i32 = 0;
let lastHi: i32 = 0;
let followLo: i32 = 0;
let followHi: i32 = 0;
let probeStored: i32 = 0;

/**
 * Values the state of position `handle` (the attacker to move with the ending's men, the defender a
 * bare king) with the king's set (lo, hi): egtbProbeValue (0 no forced mate known), the best
 * attempt on the position's board (egtbProbeAttempt, −1 without one), and the table's own value
 * of the state (egtbProbeStored, −1 when the state is not in the table). A state the table lacks
 * is valued from its successors, or, when that is better, by the same men with the king anywhere
 * consistent (egtbProbeBound: at most that many moves, the attempt the larger set's: a player
 * then follows the larger set's strategy, narrowing it by the answers it hears).
 */
export function egtbProbe(handle: i32, lo: i32, hi: i32): i32 {
  const status = stateOf(handle, lo, hi);
  if (status != EGTB_OK) return status;
  const key = stateMen;
  const sLo = stateLo;
  const sHi = stateHi;
  const flip = stateFlip;
  canonical(key, sLo, sHi);
  const e = find(canonMen, canonLo, canonHi);
  probeStored = e < 0 ? -1 : unchecked(ENTRIES[e * EGTB_ENTRY_WORDS + 3]);
  let v = expand(MODE_VALUE, key, sLo, sHi, EGTB_NONE - 1);
  probeBound = false;
  // a state the table lacks is no harder than the king anywhere (any strategy there works on a subset)
  setRecord(stack, key, spareSquare(key));
  attackSet(stack << POSITION_SHIFT, WHITE);
  const aLo = ~outLo & ~unchecked(POSITIONS[(stack << POSITION_SHIFT) + W_COLOR]);
  const aHi = ~outHi & ~unchecked(POSITIONS[(stack << POSITION_SHIFT) + W_COLOR + 1]);
  if (aLo != sLo || aHi != sHi) {
    const attempt = bestAttempt;
    const w = expand(MODE_VALUE, key, aLo, aHi, v == EGTB_NONE ? EGTB_NONE - 1 : v - 1);
    if (w < v) {
      v = w;
      probeBound = true;
    } else bestAttempt = attempt;
  }
  probeValue = v == EGTB_NONE ? 0 : v;
  lastMen = key;
  lastLo = probeBound ? aLo : sLo;
  lastHi = probeBound ? aHi : sHi;
  if (bestAttempt >= 0 && flip != 0) {
    const m = flip * 64;
    bestAttempt = unchecked(SYM[m + (bestAttempt & 63)]) | (unchecked(SYM[m + ((bestAttempt >> 6) & 63)]) << 6);
  }
  return EGTB_OK;
}

export function egtbProbeValue(): i32 {
  return probeValue;
}
/** Whether the last probe's value is a bound (at most that many moves) from the king anywhere, the state itself not valued. */
export function egtbProbeBound(): i32 {
  return probeBound ? 1 : 0;
}
export function egtbProbeStored(): i32 {
  return probeStored;
}
export function egtbProbeAttempt(): i32 {
  return probeValue == 0 ? -1 : bestAttempt;
}

/**
 * After `attempt` (on the position's board) from the state the last probe valued, and the answers
 * that followed, the attacker is to move in position `handle` with the king on (lo, hi): finds the
 * table's state the attempt led to that holds that set (an Illegal answer's, or a reply's: the set
 * the table assumes, which the defender's Illegal attempts heard may since have narrowed), the one
 * of least value; egtbFollowLow/High its set on the position's board (both 0: none). A player that
 * probes it instead of its exact set follows one strategy of the table, whose value falls each move.
 */
export function egtbFollow(attempt: i32, handle: i32, lo: i32, hi: i32): i32 {
  followLo = 0;
  followHi = 0;
  const status = stateOf(handle, lo, hi);
  if (status != EGTB_OK) return status;
  if (lastMen < 0) return EGTB_OK;
  const flip = stateFlip;
  const key = stateMen;
  const sLo = stateLo;
  const sHi = stateHi;
  const m = flip * 64;
  const f = unchecked(SYM[m + (attempt & 63)]);
  const t = unchecked(SYM[m + ((attempt >> 6) & 63)]);
  const move = f | (t << 6);
  let best = EGTB_NONE;
  let bLo = 0;
  let bHi = 0;
  const from = stack;
  const after = stack + 1;
  setRecord(from, lastMen, lowestSquare(lastLo, lastHi));
  let illLo = 0;
  let illHi = 0;
  if (f == (lastMen & 63)) {
    illLo = lastLo & unchecked(KING_ATTACKS[t << 1]);
    illHi = lastHi & unchecked(KING_ATTACKS[(t << 1) + 1]);
  }
  if (key == lastMen && (sLo & ~illLo) == 0 && (sHi & ~illHi) == 0) {
    const v = outcome(MODE_VALUE, key, illLo, illHi, 0);
    best = v;
    bLo = illLo;
    bHi = illHi;
  }
  const legLo = lastLo & ~illLo;
  const legHi = lastHi & ~illHi;
  if ((legLo | legHi) != 0) {
    classify(from, move, after, stack + 2, SLOT, WHITE, legLo, legHi);
    const afterBase = after << POSITION_SHIFT;
    const next = menKeyOfRecord(afterBase, WHITE);
    const menLo = unchecked(POSITIONS[afterBase + W_COLOR]);
    const menHi = unchecked(POSITIONS[afterBase + W_COLOR + 1]);
    const aLo = classAttackLo;
    const aHi = classAttackHi;
    const keys = SLOT * CLASS_KEYS;
    const used = unchecked(USED_COUNT[SLOT]);
    for (let j = 0; j < used; j++) {
      const k = unchecked(USED[keys + j]);
      const c = (keys + k) << 1;
      const cLo = unchecked(CLASSES[c]);
      const cHi = unchecked(CLASSES[c + 1]);
      clearClass(SLOT, k);
      if (next != key || (k & 3) != 0) continue; // the game goes on only after END_NONE
      replySet(cLo, cHi, aLo, aHi, menLo, menHi);
      const rLo = outLo;
      const rHi = outHi;
      if ((sLo & ~rLo) != 0 || (sHi & ~rHi) != 0) continue;
      const v = outcome(MODE_VALUE, key, rLo, rHi, 0);
      if (v < best || (bLo | bHi) == 0) {
        best = v;
        bLo = rLo;
        bHi = rHi;
      }
    }
  }
  if (flip != 0 && (bLo | bHi) != 0) {
    mapSet(flip, bLo, bHi);
    bLo = canonLo;
    bHi = canonHi;
  }
  followLo = bLo;
  followHi = bHi;
  return EGTB_OK;
}

export function egtbFollowLow(): i32 {
  return followLo;
}
export function egtbFollowHigh(): i32 {
  return followHi;
}

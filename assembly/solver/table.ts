// A transposition table of single positions with no mate (beyond the paper, switchable): when a
// belief-state node holding exactly one position is disproved, that position admits no mate within
// the node's plies — whatever attempts were already rejected this turn, since those are illegal in
// it — and by Theorem 2 neither does any belief state that contains it with as many plies or fewer.
// So a node is disproved as soon as a position found in the table (at a depth at least its own)
// arrives in it. Entries are exact: the whole position is stored and compared (no key-collision
// risk); the table is direct-mapped by Zobrist key, a new entry replacing an old one.

import { POSITIONS, POSITION_SHIFT, POSITION_WORDS, W_HALFMOVE, W_KEY_LO, W_KEY_HI } from '../chess/position';
import { rule, RULE_FIFTY_MOVES } from '../referee/rules';

const TABLE_BITS: i32 = 16;
const TABLE_SIZE: i32 = 1 << TABLE_BITS;
let TABLE_POSITIONS = new Int32Array(0);
/** Plies the stored position was disproved at; 0 = empty slot. */
let TABLE_DEPTH = new Int32Array(0);
let enabled: bool = false;
export let tableHits: f64 = 0;

export function resetTable(on: bool): void {
  enabled = on;
  tableHits = 0;
  if (!on) return;
  if (TABLE_DEPTH.length == 0) {
    TABLE_POSITIONS = new Int32Array(TABLE_SIZE * POSITION_WORDS);
    TABLE_DEPTH = new Int32Array(TABLE_SIZE);
  } else TABLE_DEPTH.fill(0);
}

function slotOf(h: i32): i32 {
  const base = h << POSITION_SHIFT;
  return (unchecked(POSITIONS[base + W_KEY_LO]) ^ unchecked(POSITIONS[base + W_KEY_HI])) & (TABLE_SIZE - 1);
}

function matches(slot: i32, h: i32): bool {
  const t = slot * POSITION_WORDS;
  const base = h << POSITION_SHIFT;
  for (let i = 0; i < W_HALFMOVE; i++)
    if (unchecked(TABLE_POSITIONS[t + i]) != unchecked(POSITIONS[base + i])) return false;
  return (
    rule(RULE_FIFTY_MOVES) == 0 || unchecked(TABLE_POSITIONS[t + W_HALFMOVE]) == unchecked(POSITIONS[base + W_HALFMOVE])
  );
}

/** Position `h` was found to have no mate within `depth` plies. */
export function storeNoMate(h: i32, depth: i32): void {
  if (!enabled) return;
  const slot = slotOf(h);
  if (unchecked(TABLE_DEPTH[slot]) >= depth && matches(slot, h)) return;
  const t = slot * POSITION_WORDS;
  const base = h << POSITION_SHIFT;
  for (let i = 0; i < POSITION_WORDS; i++) unchecked((TABLE_POSITIONS[t + i] = unchecked(POSITIONS[base + i])));
  unchecked((TABLE_DEPTH[slot] = depth));
}

/** Is position `h` known to have no mate within `depth` plies? */
export function knownNoMate(h: i32, depth: i32): bool {
  if (!enabled) return false;
  const slot = slotOf(h);
  if (unchecked(TABLE_DEPTH[slot]) < depth || !matches(slot, h)) return false;
  tableHits++;
  return true;
}

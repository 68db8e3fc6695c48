// A set of position records for duplicate removal: the estimators' outputs, and the positions the
// depth-first estimator has followed. Exact: a match is a full comparison of the positions, never
// a key alone.
//
// Open addressing with linear probing, at most half full. The table starts small and doubles as
// entries are added, so a small set stays in the cache (a table sized for the whole arena up front
// made nearly every lookup a cache and TLB miss: the estimators ran 1.3× faster without it). Each
// slot is SLOT_WORDS words: the generation it was written in (a slot of any other generation is
// free, so clearing is a counter bump), the record's handle, its Zobrist key's low word and a tag
// (the caller's: the view event the position stands at, or 0). Key word and tag settle almost
// every probe without reading the record.

import { POSITIONS, POSITION_SHIFT, W_KEY_LO, samePosition } from '../chess/position';
import { mul32 } from '../chess/bitboard';

const SLOT_WORDS: i32 = 4;
const SLOT_SHIFT: i32 = 2;
const MIN_SLOTS: i32 = 1 << 12;

/** Generations are unique across sets and tables: a reused table never shows an old entry as taken. */
let nextGeneration: i32 = 1;

function slotOf(keyLo: i32, tag: i32, mask: i32): i32 {
  return (keyLo ^ mul32(tag, 0x9e3779b1)) & mask;
}

export class PositionSet {
  /** The table, and the one it was last rehashed from (the next growth reuses it: a table large enough once is never reallocated). */
  private table: Int32Array = new Int32Array(MIN_SLOTS << SLOT_SHIFT);
  private spare: Int32Array = new Int32Array(0);
  private mask: i32 = MIN_SLOTS - 1;
  private generation: i32 = -1; // no slot has it before the first clear
  /** Word index of the free slot found by the last unsuccessful `has`. */
  private free: i32 = 0;
  /** Compare the halfmove clock too (where a 50-move rule makes it part of the position). */
  private clock: bool = false;
  count: i32 = 0;

  /** Empties the set, starting again from the smallest table. */
  clear(clock: bool): void {
    this.generation = nextGeneration++;
    this.count = 0;
    this.clock = clock;
    this.mask = MIN_SLOTS - 1;
  }

  /** Is a record equal to position `h`, with `tag`, in the set? If not, `add` may follow (with no other call on this set between). */
  has(h: i32, tag: i32): bool {
    const keyLo = unchecked(POSITIONS[(h << POSITION_SHIFT) + W_KEY_LO]);
    const table = this.table;
    const generation = this.generation;
    const wrap = (this.mask << SLOT_SHIFT) | (SLOT_WORDS - 1);
    let t = slotOf(keyLo, tag, this.mask) << SLOT_SHIFT;
    while (unchecked(table[t]) == generation) {
      if (unchecked(table[t + 2]) == keyLo && unchecked(table[t + 3]) == tag && samePosition(unchecked(table[t + 1]), h, this.clock)) return true;
      t = (t + SLOT_WORDS) & wrap;
    }
    this.free = t;
    return false;
  }

  /**
   * Reads the slot where position `h` would be looked up, and the record there: a batch of
   * independent touches lets the processor fetch them in parallel before the lookups themselves,
   * which each wait on a miss otherwise. Returns a word to be consumed (so the reads stay).
   */
  touch(h: i32, tag: i32): i32 {
    const keyLo = unchecked(POSITIONS[(h << POSITION_SHIFT) + W_KEY_LO]);
    const t = slotOf(keyLo, tag, this.mask) << SLOT_SHIFT;
    const table = this.table;
    if (unchecked(table[t]) != this.generation) return 0;
    const base = unchecked(table[t + 1]) << POSITION_SHIFT;
    return unchecked(POSITIONS[base]) ^ unchecked(POSITIONS[base + 16]);
  }

  /** Adds record `handle` (equal to the position `has` just did not find) with `tag`. The record must not change while in the set. */
  add(handle: i32, tag: i32): void {
    const table = this.table;
    const t = this.free;
    unchecked(table[t] = this.generation);
    unchecked(table[t + 1] = handle);
    unchecked(table[t + 2] = unchecked(POSITIONS[(handle << POSITION_SHIFT) + W_KEY_LO]));
    unchecked(table[t + 3] = tag);
    this.count++;
    if (this.count * 2 > this.mask + 1) this.grow();
  }

  /** Doubles the table: every entry is rehashed into the spare table, which becomes the table. */
  private grow(): void {
    const slots = (this.mask + 1) << 1;
    if (this.spare.length < slots << SLOT_SHIFT) this.spare = new Int32Array(slots << SLOT_SHIFT);
    const from = this.table;
    const to = this.spare;
    const old = this.generation;
    const generation = nextGeneration++;
    const mask = slots - 1;
    const wrap = (mask << SLOT_SHIFT) | (SLOT_WORDS - 1);
    const end = (this.mask + 1) << SLOT_SHIFT;
    for (let s = 0; s < end; s += SLOT_WORDS) {
      if (unchecked(from[s]) != old) continue;
      let t = slotOf(unchecked(from[s + 2]), unchecked(from[s + 3]), mask) << SLOT_SHIFT;
      while (unchecked(to[t]) == generation) t = (t + SLOT_WORDS) & wrap;
      unchecked(to[t] = generation);
      unchecked(to[t + 1] = unchecked(from[s + 1]));
      unchecked(to[t + 2] = unchecked(from[s + 2]));
      unchecked(to[t + 3] = unchecked(from[s + 3]));
    }
    this.table = to;
    this.spare = from;
    this.mask = mask;
    this.generation = generation;
  }
}

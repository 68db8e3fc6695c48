// A set of position records for duplicate removal: the estimators' outputs, and the positions the
// depth-first estimator has followed. Exact: a match is a full comparison of the positions, never
// a key alone.
//
// Open addressing with linear probing, at most half full. The table starts small and doubles as
// entries are added, so a small set stays in the cache (a table sized for the whole arena up front
// made nearly every lookup a cache and TLB miss: the estimators ran 1.3× faster without it). A slot
// is two words: a check word, the low word of the record's Zobrist key mixed with the caller's tag
// (the view event the position stands at, or 0), and the record's handle (0: the slot is free; no
// set holds record 0). For two equal positions, equal check words mean equal tags (the mix is a
// bijection of the tag for a given key), so a check word match and a full comparison of the
// positions are an exact match of position and tag; the check word settles almost every probe
// without reading the record.
//
// The records a set holds are handles into POSITIONS, or into another arena of the same record
// layout (a belief tracker's layers, clearIn); the positions looked up are always POSITIONS records.

import { POSITIONS, POSITION_SHIFT, W_KEY_LO, sameRecord } from '../chess/position';
import { mul32 } from '../chess/bitboard';

const SLOT_SHIFT: i32 = 1;
const MIN_SLOTS: i32 = 1 << 12;

function checkWord(keyLo: i32, tag: i32): i32 {
  return keyLo ^ mul32(tag, 0x9e3779b1);
}

export class PositionSet {
  /** The table, and the one it was last rehashed from (the next growth reuses it: a table large enough once is never reallocated). */
  private table: Int32Array = new Int32Array(MIN_SLOTS << SLOT_SHIFT);
  private spare: Int32Array = new Int32Array(0);
  private mask: i32 = MIN_SLOTS - 1;
  /** Word index of the free slot found by the last unsuccessful `has`. */
  private free: i32 = 0;
  /** Compare the halfmove clock too (where a 50-move rule makes it part of the position). */
  private clock: bool = false;
  count: i32 = 0;
  /** The arena of the records held (POSITIONS unless set by clearIn). */
  private records: Int32Array = POSITIONS;
  /** The record `has` last found equal. */
  found: i32 = 0;

  /** Empties the set, starting again from the smallest table. */
  clear(clock: bool): void {
    this.clearIn(clock, POSITIONS);
  }

  /** Empties the set, which will hold records of `records` (an arena laid out as POSITIONS). */
  clearIn(clock: bool, records: Int32Array): void {
    this.records = records;
    this.count = 0;
    this.clock = clock;
    this.mask = MIN_SLOTS - 1;
    this.table.fill(0, 0, MIN_SLOTS << SLOT_SHIFT);
  }

  /** Is a record equal to position `h`, with `tag`, in the set? If not, `add` may follow (with no other call on this set between). */
  has(h: i32, tag: i32): bool {
    const check = checkWord(unchecked(POSITIONS[(h << POSITION_SHIFT) + W_KEY_LO]), tag);
    const table = this.table;
    const wrap = (this.mask << SLOT_SHIFT) | 1;
    let t = (check & this.mask) << SLOT_SHIFT;
    for (;;) {
      const handle = unchecked(table[t + 1]);
      if (handle == 0) break;
      if (unchecked(table[t]) == check && sameRecord(this.records, handle, h, this.clock)) {
        this.found = handle;
        return true;
      }
      t = (t + 2) & wrap;
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
    const check = checkWord(unchecked(POSITIONS[(h << POSITION_SHIFT) + W_KEY_LO]), tag);
    const t = (check & this.mask) << SLOT_SHIFT;
    const handle = unchecked(this.table[t + 1]);
    if (handle == 0) return 0;
    const base = handle << POSITION_SHIFT;
    return unchecked(this.records[base]) ^ unchecked(this.records[base + 16]);
  }

  /** Adds record `handle` (equal to the position `has` just did not find) with `tag`. The record must not change while in the set. */
  add(handle: i32, tag: i32): void {
    const table = this.table;
    const t = this.free;
    unchecked((table[t] = checkWord(unchecked(this.records[(handle << POSITION_SHIFT) + W_KEY_LO]), tag)));
    unchecked((table[t + 1] = handle));
    this.count++;
    if (this.count * 2 > this.mask + 1) this.grow();
  }

  /** Adds record `handle`, known to differ from every record in the set (rebuilding a set after records were dropped). */
  addDistinct(handle: i32, tag: i32): void {
    const check = checkWord(unchecked(this.records[(handle << POSITION_SHIFT) + W_KEY_LO]), tag);
    const wrap = (this.mask << SLOT_SHIFT) | 1;
    let t = (check & this.mask) << SLOT_SHIFT;
    while (unchecked(this.table[t + 1]) != 0) t = (t + 2) & wrap;
    this.free = t;
    this.add(handle, tag);
  }

  /** Doubles the table: every entry is rehashed into the spare table, which becomes the table. */
  private grow(): void {
    const slots = (this.mask + 1) << 1;
    if (this.spare.length < slots << SLOT_SHIFT) this.spare = new Int32Array(slots << SLOT_SHIFT);
    const from = this.table;
    const to = this.spare;
    to.fill(0, 0, slots << SLOT_SHIFT);
    const mask = slots - 1;
    const wrap = (mask << SLOT_SHIFT) | 1;
    const end = (this.mask + 1) << SLOT_SHIFT;
    for (let s = 0; s < end; s += 2) {
      const handle = unchecked(from[s + 1]);
      if (handle == 0) continue;
      const check = unchecked(from[s]);
      let t = (check & mask) << SLOT_SHIFT;
      while (unchecked(to[t + 1]) != 0) t = (t + 2) & wrap;
      unchecked((to[t] = check));
      unchecked((to[t + 1] = handle));
    }
    this.table = to;
    this.spare = from;
    this.mask = mask;
  }
}

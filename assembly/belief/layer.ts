// A layer of a belief tracker: a set of distinct positions, each with the witness node of one
// history reaching it (witness.ts), in the tracker's own arena so that no other user of the
// engine can touch it between two of its calls.
//
// Layer arena (RECORDS, laid out as POSITIONS: POSITION_WORDS words per record; WITNESS, one word
// per record):
// | records           | meaning                                                               |
// |-------------------|-----------------------------------------------------------------------|
// | 0                 | unused (PositionSet keeps handle 0 for "free slot")                   |
// | 1 … count         | the positions, distinct (PositionSet's equality); entry i = record i + 1 |
// | count + 1 … limit | free; the arrays double as records are added, never beyond `limit`   |
// Positions are looked up and added from POSITIONS records (the tracker plays moves there).

import {
  POSITIONS,
  POSITION_SHIFT,
  POSITION_WORDS,
  W_COLOR,
  W_TYPE,
  W_MAILBOX,
  ROOK,
  MOVE_CASTLE,
  MOVE_PROMOTION,
  pieceAt,
} from '../chess/position';
import { popcount64, mul32 } from '../chess/bitboard';
import { randomBelow } from '../chess/random';
import { PositionSet } from './positionSet';

const FIRST_RECORDS: i32 = 256;

function swapWords(a: Int32Array, i: i32, j: i32): void {
  const t = unchecked(a[i]);
  unchecked((a[i] = unchecked(a[j])));
  unchecked((a[j] = t));
}

export class Layer {
  records: Int32Array = new Int32Array(0);
  witness: Int32Array = new Int32Array(0);
  /** Entries held. */
  count: i32 = 0;
  /** Entries the arrays can hold now, and at most. */
  private room: i32 = 0;
  limit: i32 = 0;
  private set: PositionSet = new PositionSet();
  private clock: bool = false;
  /** A cut's scratch: entry numbers in the order chosen, and the arrays the entries kept are gathered into. */
  private order: Int32Array = new Int32Array(0);
  private spareRecords: Int32Array = new Int32Array(0);
  private spareWitness: Int32Array = new Int32Array(0);

  /** Empties the layer, which will hold at most `limit` entries (`clock`: positions differ by their halfmove clock). */
  clear(limit: i32, clock: bool): void {
    this.count = 0;
    this.limit = limit;
    this.clock = clock;
    if (this.room == 0) this.resize(min(limit, FIRST_RECORDS));
    this.set.clearIn(clock, this.records);
  }

  private resize(room: i32): void {
    const records = new Int32Array((room + 1) << POSITION_SHIFT);
    const witness = new Int32Array(room + 1);
    const used = (this.count + 1) << POSITION_SHIFT;
    if (this.records.length > 0) {
      records.set(this.records.subarray(0, used));
      witness.set(this.witness.subarray(0, this.count + 1));
    }
    this.records = records;
    this.witness = witness;
    this.room = room;
  }

  /** Empties the layer, keeping its limit. */
  empty(): void {
    this.clear(this.limit, this.clock);
  }

  /** Is POSITIONS record `h` held? If not, `add` may follow with no other call on this layer between. */
  has(h: i32): bool {
    return this.set.has(h, 0);
  }

  /** The entry `has` last found equal. */
  foundEntry(): i32 {
    return this.set.found - 1;
  }

  /** Is there room for one more entry? */
  full(): bool {
    return this.count >= this.limit;
  }

  /** Adds POSITIONS record `h` (just looked up and not held) with witness node `witness` (nothing when full). */
  add(h: i32, witness: i32): void {
    const grows = this.count == this.room; // a growth rebuilds the set: the slot `has` found is gone
    if (!this.store(h, witness)) return;
    if (grows) this.set.addDistinct(this.count, 0);
    else this.set.add(this.count, 0);
  }

  /** Adds POSITIONS record `h` with `witness` whether or not an equal one is held (checkpoints hold positions of several events). */
  append(h: i32, witness: i32): void {
    if (this.store(h, witness)) this.set.addDistinct(this.count, 0);
  }

  private store(h: i32, witness: i32): bool {
    if (this.count >= this.limit) return false;
    if (this.count == this.room) this.grow();
    const record = this.count + 1;
    const d = record << POSITION_SHIFT;
    const s = h << POSITION_SHIFT;
    const records = this.records;
    for (let i = 0; i < POSITION_WORDS; i++) unchecked((records[d + i] = unchecked(POSITIONS[s + i])));
    unchecked((this.witness[record] = witness));
    this.count++;
    return true;
  }

  /** Adds POSITIONS record `h` unless held; false if it was held. */
  insert(h: i32, witness: i32): bool {
    if (this.has(h)) return false;
    this.add(h, witness);
    return true;
  }

  /** Grows the arrays (the set refers to records by index, so it stays valid: rebuilt over the new arrays). */
  private grow(): void {
    this.resize(min(this.limit, max(FIRST_RECORDS, this.room * 2)));
    this.rebuild();
  }

  /** Copies entry `i` into POSITIONS record `h`. */
  copyOut(i: i32, h: i32): void {
    const s = (i + 1) << POSITION_SHIFT;
    const d = h << POSITION_SHIFT;
    const records = this.records;
    for (let w = 0; w < POSITION_WORDS; w++) unchecked((POSITIONS[d + w] = unchecked(records[s + w])));
  }

  witnessOf(i: i32): i32 {
    return unchecked(this.witness[i + 1]);
  }
  setWitness(i: i32, node: i32): void {
    unchecked((this.witness[i + 1] = node));
  }

  /**
   * Keeps `keep` entries chosen at random (seeded: the tracker's stream), in random order. With
   * `coverage`, first those that bring a man of colour `them` on a square where fewer than
   * coverage.rare kept entries have one of his men of that kind (coverage.ts below), then the
   * others; the coverage counts are left as those of the entries kept. The choice is made on
   * entry numbers, and the entries kept are then gathered into the spare arrays in one pass (the
   * records are not moved about while the choice is made).
   */
  cut(keep: i32, coverage: Coverage | null, them: i32): void {
    const n = this.count;
    if (keep >= n) return;
    if (this.order.length < n) this.order = new Int32Array(this.room + 1);
    const order = this.order;
    for (let i = 0; i < n; i++) unchecked((order[i] = i + 1));
    const records = this.records;
    if (coverage != null) {
      // pass 1: entries in random order, an entry taken when it covers a rare man; pass 2: the rest in the same order
      coverage.clear();
      let taken = 0;
      for (let i = 0; i < n; i++) swapWords(order, i, i + randomBelow(n - i));
      for (let i = 0; i < n && taken < keep; i++) {
        if (!coverage.coversRare(records, unchecked(order[i]), them)) continue;
        coverage.addRecord(records, unchecked(order[i]), them);
        swapWords(order, taken++, i);
      }
      for (let i = taken; i < keep; i++) coverage.addRecord(records, unchecked(order[i]), them);
    } else {
      for (let i = 0; i < keep; i++) swapWords(order, i, i + randomBelow(n - i));
    }
    if (this.spareRecords.length < records.length) {
      this.spareRecords = new Int32Array(records.length);
      this.spareWitness = new Int32Array(this.witness.length);
    }
    const to = this.spareRecords;
    const witnessTo = this.spareWitness;
    for (let i = 0; i < keep; i++) {
      const record = unchecked(order[i]);
      const d = (i + 1) << POSITION_SHIFT;
      const s = record << POSITION_SHIFT;
      for (let w = 0; w < POSITION_WORDS; w++) unchecked((to[d + w] = unchecked(records[s + w])));
      unchecked((witnessTo[i + 1] = unchecked(this.witness[record])));
    }
    this.spareRecords = records;
    this.spareWitness = this.witness;
    this.records = to;
    this.witness = witnessTo;
    this.count = keep;
    this.rebuild();
  }

  /** Removes every entry from `count` on (the entries added since a mark). */
  truncate(count: i32): void {
    if (count >= this.count) return;
    this.count = count;
    this.rebuild();
  }

  /** The set made again over the entries held (after a cut or a move of the arrays). */
  private rebuild(): void {
    this.set.clearIn(this.clock, this.records);
    for (let i = 1; i <= this.count; i++) this.set.addDistinct(i, 0);
  }

  /** Replaces this layer's entries by a copy of `other`'s. */
  copyFrom(other: Layer): void {
    this.count = 0;
    this.limit = max(this.limit, other.count);
    this.clock = other.clock;
    if (this.room < other.count) this.resize(other.count);
    this.records.set(other.records.subarray(0, (other.count + 1) << POSITION_SHIFT));
    this.witness.set(other.witness.subarray(0, other.count + 1));
    this.count = other.count;
    this.rebuild();
  }
}

// Coverage of the opponent's men: for each (piece type, square), how many entries of a layer have
// one of his men of that kind there, and for each of his material signatures (how many pawns,
// knights, bishops, rooks and queens he has left), how many have it. A pool cut at random loses
// the rare placements first (a bishop on g4 in a few positions of 20,000), and a later
// announcement that needs one (a capture on g4) then finds no position left; likewise a rare
// material (which of his men were taken is often unknown: late in a game, the pool may keep only
// the lines in which his queen was the man taken). Absences count too: a square that every
// position fills with one of his pawns is a placement of the pool's, not of the belief's. The
// tracker keeps, before any random choice, the positions that bring a placement (his man of some
// kind, or none of his men, on a square) held by fewer than `rare` others, or a material held by
// fewer than SIGNATURE_FLOOR × `rare`. COUNTS[type << 6 | square] (type 0: none of his men),
// then COUNTS[512 + bucket].
const SIGNATURE_BUCKETS: i32 = 1024;
const SIGNATURE_FLOOR: i32 = 8;

/** The material signature bucket of colour `them` in record `record` of `records`. */
export function signatureOf(records: Int32Array, record: i32, them: i32): i32 {
  const base = record << POSITION_SHIFT;
  const lo = unchecked(records[base + W_COLOR + (them << 1)]);
  const hi = unchecked(records[base + W_COLOR + (them << 1) + 1]);
  let sig = 0;
  for (let type = 1; type <= 5; type++) {
    sig =
      sig * 11 +
      popcount64(
        unchecked(records[base + W_TYPE + (type << 1)]) & lo,
        unchecked(records[base + W_TYPE + (type << 1) + 1]) & hi,
      );
  }
  return (mul32(sig, 0x9e3779b1) >>> 16) & (SIGNATURE_BUCKETS - 1);
}

export class Coverage {
  counts: Int32Array = new Int32Array((8 << 6) + SIGNATURE_BUCKETS);
  rare: i32 = 0;
  // The children of one parent are counted at once (childrenOf … addChild … endChildren): each
  // child is its parent but for the squares its move changes, so the counts stand for the parent
  // `pending` times over (read through the parent's board) plus each child's changes, and the
  // parent's 64 squares are added once when its children are done, not once per child.
  private parentBase: i32 = -1;
  private parentBucket: i32 = -1;
  private pending: i32 = 0;
  private them: i32 = 0;

  /**
   * The squares where fewer than `rare` entries have his man of each kind (two words per kind, 0:
   * none of his men), kept by addRecord from a clear() on: what a cut's coversRare reads, a few
   * bitboard tests instead of 64 counts per entry.
   */
  private rareSquares: Int32Array = new Int32Array(16);

  clear(): void {
    this.counts.fill(0);
    this.rareSquares.fill(this.rare > 0 ? -1 : 0);
    this.pending = 0; // a cut in the middle of a parent's children: the parent stays, its children so far are counted
  }

  /** Counts record `record` of `records` (an arena laid out as POSITIONS): colour `them`'s man (or none) on every square, and his material. */
  addRecord(records: Int32Array, record: i32, them: i32): void {
    this.addTimes(records, record << POSITION_SHIFT, them, 1);
  }

  private addTimes(records: Int32Array, base: i32, them: i32, times: i32): void {
    const counts = this.counts;
    const rare = this.rare;
    for (let sq = 0; sq < 64; sq++) {
      const code = (unchecked(records[base + W_MAILBOX + (sq >> 3)]) >>> ((sq & 7) << 2)) & 15;
      const type = code >> 3 == them ? code & 7 : 0;
      const k = (type << 6) | sq;
      const count = unchecked(counts[k]);
      unchecked((counts[k] = count + times));
      if (count < rare && count + times >= rare) {
        const w = (type << 1) + (sq >> 5);
        unchecked((this.rareSquares[w] = unchecked(this.rareSquares[w]) & ~(1 << (sq & 31))));
      }
    }
    const s = (8 << 6) + signatureOf(records, base >> POSITION_SHIFT, them);
    unchecked((counts[s] = unchecked(counts[s]) + times));
  }

  /** The children of POSITIONS record `parent` (colour `them` to move) are about to be counted. */
  childrenOf(parent: i32, them: i32): void {
    this.parentBase = parent << POSITION_SHIFT;
    this.parentBucket = signatureOf(POSITIONS, parent, them);
    this.pending = 0;
    this.them = them;
  }

  /** Counts a child of the parent: his `move` (legal in the parent) played into POSITIONS record `child`. */
  addChild(move: i32, child: i32): void {
    const base = this.parentBase;
    const from = move & 63;
    const to = (move >> 6) & 63;
    const kind = move >> 12;
    const type = pieceAt(base, from) & 7;
    this.shift(type, from, kind >= MOVE_PROMOTION ? kind - 2 : type, to);
    if (kind == MOVE_CASTLE) {
      // the rook jumps from its corner to the king's other side (position.ts makeMove)
      const rookFrom = (to & 7) == 6 ? to + 1 : to - 2;
      this.shift(ROOK, rookFrom, ROOK, (to & 7) == 6 ? to - 1 : to + 1);
    }
    // en passant takes a man of ours: none of his men on that square before or after
    const bucket = signatureOf(POSITIONS, child, this.them);
    if (bucket != this.parentBucket) {
      const counts = this.counts;
      const p = (8 << 6) + this.parentBucket;
      unchecked((counts[p] = unchecked(counts[p]) - 1));
      unchecked((counts[(8 << 6) + bucket] = unchecked(counts[(8 << 6) + bucket]) + 1));
    }
    this.pending++;
  }

  /** His man of `type` leaves `from`, and one of `typeTo` stands on `to` (a square none of his men held). */
  private shift(type: i32, from: i32, typeTo: i32, to: i32): void {
    const counts = this.counts;
    unchecked((counts[(type << 6) | from] = unchecked(counts[(type << 6) | from]) - 1));
    unchecked((counts[from] = unchecked(counts[from]) + 1));
    unchecked((counts[to] = unchecked(counts[to]) - 1));
    unchecked((counts[(typeTo << 6) | to] = unchecked(counts[(typeTo << 6) | to]) + 1));
  }

  /** The parent's children are all counted (or the counts were remade from the entries kept: `dropped`). */
  endChildren(dropped: bool): void {
    if (this.pending > 0 && !dropped) this.addTimes(POSITIONS, this.parentBase, this.them, this.pending);
    this.pending = 0;
  }

  /** His men of the parent on `square`: their kind, 0 for none (read while its children are counted). */
  private parentKind(square: i32): i32 {
    const code = pieceAt(this.parentBase, square);
    return code >> 3 == this.them ? code & 7 : 0;
  }

  /** Does record `record` of `records` put colour `them`'s man of some kind, or none of his men, on a square where fewer than `rare` others do, or have a rare material? (Counts made by addRecord since clear().) */
  coversRare(records: Int32Array, record: i32, them: i32): bool {
    const base = record << POSITION_SHIFT;
    const rare = this.rareSquares;
    const hisLo = unchecked(records[base + W_COLOR + (them << 1)]);
    const hisHi = unchecked(records[base + W_COLOR + (them << 1) + 1]);
    if (((~hisLo & unchecked(rare[0])) | (~hisHi & unchecked(rare[1]))) != 0) return true;
    for (let type = 1; type <= 6; type++) {
      const lo = unchecked(records[base + W_TYPE + (type << 1)]) & hisLo;
      const hi = unchecked(records[base + W_TYPE + (type << 1) + 1]) & hisHi;
      if (((lo & unchecked(rare[type << 1])) | (hi & unchecked(rare[(type << 1) + 1]))) != 0) return true;
    }
    return this.isRareSignature(signatureOf(records, record, them));
  }

  /** Is (type, square) held by fewer than `rare` entries (type 0: none of his men there)? */
  isRare(type: i32, square: i32): bool {
    let n = unchecked(this.counts[(type << 6) | square]);
    if (this.pending > 0 && this.parentKind(square) == type) n += this.pending;
    return n < this.rare;
  }

  /** Is material signature bucket `bucket` held by fewer than SIGNATURE_FLOOR × rare entries? */
  isRareSignature(bucket: i32): bool {
    let n = unchecked(this.counts[(8 << 6) + bucket]);
    if (this.pending > 0 && bucket == this.parentBucket) n += this.pending;
    return n < SIGNATURE_FLOOR * this.rare;
  }
}

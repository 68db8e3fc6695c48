// Depth-first descents over the histories a player's view allows, for the belief tracker
// (tracker.ts): from one position known to be consistent with the view up to some event, follow
// the rest of the view, branching over the opponent's legal moves at each of his turns, and
// stream the positions that reach the view's end (leaves). Shuffled, it is Parker, Nau &
// Subrahmanian's consistent-history generator (2005, §4.2: at each hidden opponent move, order
// the branches at random); in order, an exhaustive enumeration (the tracker's recount).
//
// Unlike the estimators' depth-first stream (estimate.ts), whose stack lives in the shared position
// arena and move lists, a descent keeps its frames in its own array, so a tracker's state survives
// whatever else runs in the engine between its calls. Positions are worked on in four POSITIONS
// records lent to the tracker for the length of each of its calls (the layout table of
// estimate.ts), and moves are generated into the host's list (transient by contract).
//
// Frame (FRAME_WORDS words per level, in FRAMES):
// | word      | field  | meaning                                                              |
// |-----------|--------|----------------------------------------------------------------------|
// | 0 … 31    | record | the position before the opponent's move (POSITIONS layout)           |
// | 32        | EVENT  | the view event of his turn                                           |
// | 33        | COUNT  | his legal moves that pass the turn's Illegal count                   |
// | 34        | NEXT   | the next move to follow                                              |
// | 35        | CHILD  | witness node of the move being followed (-1: not made yet)           |
// | 36        | DISC   | guided: discrepancies (moves other than the guide's) on the path here |
// | 37        | GUIDED | guided: 1 when MOVES[0] is the guide's move at this turn            |
// | 38 … 293  | MOVES  | his legal moves (shuffled when sampling)                            |

import { POSITIONS, POSITION_SHIFT, POSITION_WORDS, copyPosition } from '../chess/position';
import { MOVES, HOST_LIST, listOffset, generateMoves } from '../chess/moveGen';
import { randomBelow } from '../chess/random';
import { viewLength, eventWord, isBranching } from './view';
import { applyEvent, opponentMoveMatches, illegalCountPossibleGiven, forgetOwnList } from './consistency';
import { followsPlan } from './plan';
import { WitnessTree } from './witness';
import { Layer } from './layer';

/** POSITIONS records lent to a tracker during its calls (0 … 11 stay the host's). */
export const SCRATCH_PARENT: i32 = 12;
export const SCRATCH_A: i32 = 13;
export const SCRATCH_B: i32 = 14;
export const SCRATCH_SPARE: i32 = 15;
export const FIRST_HOST_FREE: i32 = 16;

export const DESCENT_MORE: i32 = 1;
export const DESCENT_LEAF: i32 = 5;
export const DESCENT_EXHAUSTED: i32 = 6;

const F_EVENT: i32 = 32;
const F_COUNT: i32 = 33;
const F_NEXT: i32 = 34;
const F_CHILD: i32 = 35;
const F_DISC: i32 = 36;
const F_GUIDED: i32 = 37;
const F_MOVES: i32 = 38;
const FRAME_WORDS: i32 = F_MOVES + 256;

const CHAIN_FAIL: i32 = -1;
const CHAIN_PUSHED: i32 = -2;

export class Descent {
  private frames: Int32Array = new Int32Array(FRAME_WORDS * 16);
  /** Frames in use (opponent turns on the current branch). */
  levels: i32 = 0;
  /** The witness node of the start position. */
  private startWitness: i32 = 0;
  private shuffle: bool = false;
  /** Which frame SCRATCH_PARENT holds (-1: none). */
  private parentHeld: i32 = -1;
  /** The leaf found (a POSITIONS record, valid until the next call). */
  leaf: i32 = -1;
  /** Work units spent (positions generated and tested), since the tracker's creation. */
  work: f64 = 0;
  /**
   * A guide (guided descents, a limited discrepancy search): the opponent's moves of a known
   * history, by opponent turn; level L of this descent is turn guideFrom + L. At each turn the
   * guide covers, its move is followed first and any other move is a discrepancy; a branch takes
   * at most maxDiscrepancies of them. Depth-first, the first branches found are the guide's own
   * history and its changes nearest the view's end. Turns past the guide's end are free.
   */
  private guide: Int32Array = new Int32Array(0);
  private guideFrom: i32 = 0;
  private guideCount: i32 = 0;
  private maxDiscrepancies: i32 = 0;
  /** Level 0 must take another move than the guide's (a change made there). */
  private diverge: bool = false;
  /** Discrepancies on the path to the frame being pushed. */
  private pathDiscrepancies: i32 = 0;
  /**
   * Partial histories (recordPartials): the positions reached at the furthest event of the view
   * any branch has got to (each consistent with the events before it), with their witnesses.
   */
  private partials: Layer | null = null;
  private tree: WitnessTree | null = null;
  partialEvent: i32 = -1;

  /** Records partial histories into `into` (null: none) from event `event` on, witnesses in `tree`. */
  recordPartials(into: Layer | null, tree: WitnessTree, event: i32): void {
    this.partials = into;
    this.tree = tree;
    this.partialEvent = event;
  }

  /** Position `h`, at `level`, is consistent with the view before event `e`: kept if no branch got further. */
  private partial(h: i32, e: i32, level: i32): void {
    const into = this.partials;
    if (into == null || e < this.partialEvent) return;
    if (e > this.partialEvent) {
      into.empty();
      this.partialEvent = e;
    }
    if (into.full() || into.has(h)) return;
    into.add(h, this.witnessAt(level, changetype<WitnessTree>(this.tree)));
  }

  /** Guides the next beginGuided by moves[0 … count - 1] (by turn), level 0 being turn `from`, at most `discrepancies` deviations. */
  setGuide(moves: Int32Array, from: i32, count: i32, discrepancies: i32, diverge: bool): void {
    this.guide = moves;
    this.guideFrom = from;
    this.guideCount = count;
    this.maxDiscrepancies = discrepancies;
    this.diverge = diverge;
  }

  /**
   * Starts from POSITIONS record `h` (consistent with the view's events before `e`; not one of the
   * descent's scratch records), whose history is witness node `witness`: LEAF (the view ends
   * before another opponent turn: `leaf`), MORE (follow with next()), or EXHAUSTED.
   */
  begin(h: i32, e: i32, witness: i32, shuffle: bool): i32 {
    return this.beginGuided(h, e, witness, shuffle, false);
  }

  /** begin, keeping the guide set by setGuide. */
  beginGuided(h: i32, e: i32, witness: i32, shuffle: bool, guided: bool): i32 {
    this.levels = 0;
    this.startWitness = witness;
    if (!guided) {
      // an unguided descent is exhaustive over its subtree: no guide, no forced change at level 0
      this.guideCount = 0;
      this.diverge = false;
    }
    this.shuffle = shuffle;
    this.parentHeld = -1;
    this.pathDiscrepancies = 0;
    copyPosition(h, SCRATCH_A);
    const r = this.chain(SCRATCH_A, e, 0);
    if (r >= 0) {
      this.leaf = r;
      return DESCENT_LEAF;
    }
    return r == CHAIN_PUSHED ? DESCENT_MORE : DESCENT_EXHAUSTED;
  }

  /** Continues until the next leaf (LEAF), `budget` work units (MORE) or the end (EXHAUSTED). */
  next(budget: f64): i32 {
    const stopAt = this.work + budget;
    while (this.levels > 0) {
      if (this.work >= stopAt) return DESCENT_MORE;
      const frames = this.frames; // push() may have grown it
      const level = this.levels - 1;
      const f = level * FRAME_WORDS;
      const next = unchecked(frames[f + F_NEXT]);
      if (next >= unchecked(frames[f + F_COUNT])) {
        this.levels--;
        continue;
      }
      // guided: a move other than the guide's is a discrepancy, allowed while some are left
      const discrepancy =
        this.guideFrom + level < this.guideCount && (next > 0 || unchecked(frames[f + F_GUIDED]) == 0) ? 1 : 0;
      if (unchecked(frames[f + F_DISC]) + discrepancy > this.maxDiscrepancies) {
        this.levels--;
        continue;
      }
      if (level == 0 && discrepancy == 0 && this.diverge) {
        unchecked((frames[f + F_NEXT] = next + 1));
        continue;
      }
      this.pathDiscrepancies = unchecked(frames[f + F_DISC]) + discrepancy;
      unchecked((frames[f + F_NEXT] = next + 1));
      unchecked((frames[f + F_CHILD] = -1));
      this.work++;
      if (this.parentHeld != level) {
        const d = SCRATCH_PARENT << POSITION_SHIFT;
        for (let w = 0; w < POSITION_WORDS; w++) unchecked((POSITIONS[d + w] = unchecked(frames[f + w])));
        this.parentHeld = level;
      }
      const e = unchecked(frames[f + F_EVENT]);
      const move = unchecked(frames[f + F_MOVES + next]);
      if (
        !followsPlan(SCRATCH_PARENT, move, e) ||
        !opponentMoveMatches(SCRATCH_PARENT, move, SCRATCH_A, eventWord(e, 2))
      )
        continue;
      const r = this.chain(SCRATCH_A, e + 1, level + 1);
      if (r >= 0) {
        this.leaf = r;
        return DESCENT_LEAF;
      }
    }
    return DESCENT_EXHAUSTED;
  }

  /**
   * Follows the view from event `e` with position `h` (SCRATCH_A or SCRATCH_B) at `level` until
   * the next opponent turn (a frame is pushed: CHAIN_PUSHED), the view's end (returns the
   * position's record) or an inconsistency (CHAIN_FAIL).
   */
  private chain(h: i32, e: i32, level: i32): i32 {
    const events = viewLength();
    // the own attempts of one turn are answered on one position: its legal moves are generated
    // once, into the host's list (push() generates there too, and the records change between
    // chains: the list is forgotten at each chain's start and after each own move)
    const list = listOffset(HOST_LIST);
    forgetOwnList();
    while (e < events) {
      if (isBranching(e)) return this.push(h, e, level);
      const dst = h == SCRATCH_A ? SCRATCH_B : SCRATCH_A;
      const next = applyEvent(h, e, dst, list);
      this.work++;
      if (next < 0) {
        this.partial(h, e, level);
        return CHAIN_FAIL;
      }
      if (next != h) forgetOwnList();
      h = next;
      e++;
    }
    return h;
  }

  private push(h: i32, e: i32, level: i32): i32 {
    const list = listOffset(HOST_LIST);
    const n = generateMoves(h, list);
    this.work += n + 1;
    this.partial(h, e, level);
    if (!illegalCountPossibleGiven(h, e, n)) return CHAIN_FAIL;
    if ((level + 1) * FRAME_WORDS > this.frames.length) {
      const grown = new Int32Array(this.frames.length * 2);
      grown.set(this.frames);
      this.frames = grown;
    }
    const frames = this.frames;
    const f = level * FRAME_WORDS;
    const s = h << POSITION_SHIFT;
    for (let w = 0; w < POSITION_WORDS; w++) unchecked((frames[f + w] = unchecked(POSITIONS[s + w])));
    for (let i = 0; i < n; i++) unchecked((frames[f + F_MOVES + i] = unchecked(MOVES[list + i])));
    if (this.shuffle) {
      for (let i = n - 1; i > 0; i--) {
        // Fisher-Yates
        const j = randomBelow(i + 1);
        const t = unchecked(frames[f + F_MOVES + i]);
        unchecked((frames[f + F_MOVES + i] = unchecked(frames[f + F_MOVES + j])));
        unchecked((frames[f + F_MOVES + j] = t));
      }
    }
    let guided = 0;
    const turn = this.guideFrom + level;
    if (turn < this.guideCount) {
      const g = unchecked(this.guide[turn]);
      for (let i = 0; i < n; i++) {
        if (unchecked(frames[f + F_MOVES + i]) != g) continue;
        unchecked((frames[f + F_MOVES + i] = unchecked(frames[f + F_MOVES])));
        unchecked((frames[f + F_MOVES] = g));
        guided = 1;
        break;
      }
    }
    unchecked((frames[f + F_DISC] = this.pathDiscrepancies));
    unchecked((frames[f + F_GUIDED] = guided));
    unchecked((frames[f + F_EVENT] = e));
    unchecked((frames[f + F_COUNT] = n));
    unchecked((frames[f + F_NEXT] = 0));
    unchecked((frames[f + F_CHILD] = -1));
    this.levels = level + 1;
    if (this.parentHeld == level) this.parentHeld = -1; // the frame's record changed
    return CHAIN_PUSHED;
  }

  /** The witness node of the leaf just found: the start's history and the moves followed (nodes made as needed). */
  leafWitness(tree: WitnessTree): i32 {
    return this.witnessAt(this.levels, tree);
  }

  /** The witness node of the position after the moves followed at levels 0 … levels - 1. */
  private witnessAt(levels: i32, tree: WitnessTree): i32 {
    let node = this.startWitness;
    const frames = this.frames;
    for (let level = 0; level < levels; level++) {
      const f = level * FRAME_WORDS;
      let child = unchecked(frames[f + F_CHILD]);
      if (child < 0) {
        child = tree.add(node, unchecked(frames[f + F_MOVES + unchecked(frames[f + F_NEXT]) - 1]));
        unchecked((frames[f + F_CHILD] = child));
      }
      node = child;
    }
    return node;
  }

  /** Drops the descent (its frames' witness nodes may be collected). */
  stop(): void {
    this.levels = 0;
    this.parentHeld = -1;
  }
}

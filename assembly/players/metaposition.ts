// Metapositions against a bare king: the one implementation of their transitions under the
// referee's answers, shared by the worst-case search of endgame.ts and the tablebases of egtb.ts.
//
// A metaposition is what the attacker knows when the defender has only his king left: its own
// men exactly (a position record, whose defender king stands on one square of the set) and the
// set S of squares the lone king may be on (a 64-bit set, two i32 words: squares 0–31, 32–63).
// Its transitions, as the referee rules them (assembly/referee/referee.ts):
// - an attempt of the attacker's king to t is Illegal where the lone king stands next to t
//   (S ∩ K(t)), legal elsewhere; a piece's attempt is always legal (a lone king on its path would
//   be in check on the attacker's turn);
// - a legal move is announced with its check (checkPercept of chess/moveGen checkDirections, on
//   the record with the king put on each square: a plain "check" or its directions, as the rules
//   say) and the game's end (checkmate, stalemate: the king has no step), which split S into
//   classes, one per percept (classify);
// - the defender's move: a step to a square not attacked (replySet), or the capture of a man left
//   unprotected next to it (canTake). The Illegal attempts he may make first only narrow S where
//   the attacker hears them (endgame.ts endgameReply); a worst-case defender makes none.
// test/players/endgame.test.ts checks these against the tracker's exact belief over random games.

import { lowestSquare } from '../chess/bitboard';
import { newArena } from '../chess/arena';
import { KING_ATTACKS } from '../chess/attacks';
import {
  POSITIONS,
  POSITION_SHIFT,
  POSITION_WORDS,
  W_COLOR,
  W_SIDE,
  W_KEY_LO,
  W_KEY_HI,
  KING,
  PIECE_COLOR_SHIFT,
  makeMove,
  PIECE_ATTACKS,
  menAttacksOver,
  kingSquare,
  putPiece,
  removePiece,
} from '../chess/position';
import { SIDE_KEYS } from '../chess/zobrist';
import { checkDirections } from '../chess/moveGen';
import {
  PERCEPT_CHECK,
  PERCEPT_DIRECTIONS_SHIFT,
  END_NONE,
  END_CHECKMATE,
  END_STALEMATE,
  checkPercept,
  perceptEnd,
} from '../referee/referee';

/** Class keys: (check directions (6 bits) << 1 | check) << 2 | END_*. */
export const CLASS_KEYS: i32 = 512;
/** Independent class tables (endgame.ts uses one per search depth, egtb.ts the last). */
export const CLASS_SLOTS: i32 = 8;
/** CLASSES[(slot * CLASS_KEYS + key) * 2 …+1]: the squares of S that give the percept `key`. */
export const CLASSES = newArena(CLASS_SLOTS * CLASS_KEYS * 2);
/** USED[slot * CLASS_KEYS + i]: the keys in use, USED_COUNT[slot] of them. */
export const USED = newArena(CLASS_SLOTS * CLASS_KEYS);
export const USED_COUNT = new Int32Array(CLASS_SLOTS);

/** Results of the set helpers. */
export let outLo: i32 = 0;
export let outHi: i32 = 0;
/** The squares the attacker attacks after the move classify played. */
export let classAttackLo: i32 = 0;
export let classAttackHi: i32 = 0;

// ---- sets ----

export function bitLo(sq: i32): i32 {
  return sq < 32 ? 1 << sq : 0;
}
export function bitHi(sq: i32): i32 {
  return sq < 32 ? 0 : 1 << (sq - 32);
}
export function has(lo: i32, hi: i32, sq: i32): bool {
  return ((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) != 0;
}

/**
 * The squares the lone king (not `color`) may not enter (outLo/outHi): those `color`'s men attack,
 * their lines stopped by every man but that king, and his own men's (frozen pawns: endgame.ts; with
 * none, the attacks on a board of `color`'s men only). (blockLo, blockHi): squares where an unseen
 * man of his is read to stand (endgame.ts against unknown men), as his men.
 */
export function attackSet(base: i32, color: i32, blockLo: i32 = 0, blockHi: i32 = 0): void {
  const king = kingSquare(base, color ^ 1);
  const c = base + W_COLOR;
  const theirLo = (unchecked(POSITIONS[c + ((color ^ 1) << 1)]) | blockLo) & ~bitLo(king);
  const theirHi = (unchecked(POSITIONS[c + ((color ^ 1) << 1) + 1]) | blockHi) & ~bitHi(king);
  const ownLo = unchecked(POSITIONS[c + (color << 1)]);
  const ownHi = unchecked(POSITIONS[c + (color << 1) + 1]);
  menAttacksOver(base, color, ownLo | theirLo, ownHi | theirHi);
  outLo = theirLo | unchecked(PIECE_ATTACKS[0]);
  outHi = theirHi | unchecked(PIECE_ATTACKS[1]);
}

/** The squares one king step from the set (outLo/outHi). */
export function dilate(lo: i32, hi: i32): void {
  let rLo = 0;
  let rHi = 0;
  while ((lo | hi) != 0) {
    const sq = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    rLo |= unchecked(KING_ATTACKS[sq << 1]);
    rHi |= unchecked(KING_ATTACKS[(sq << 1) + 1]);
  }
  outLo = rLo;
  outHi = rHi;
}

/** The squares reachable from the set by king steps through (openLo, openHi) (outLo/outHi). */
export function flood(lo: i32, hi: i32, openLo: i32, openHi: i32): void {
  let allLo = lo;
  let allHi = hi;
  let newLo = lo;
  let newHi = hi;
  while ((newLo | newHi) != 0) {
    dilate(newLo, newHi);
    newLo = outLo & openLo & ~allLo;
    newHi = outHi & openHi & ~allHi;
    allLo |= newLo;
    allHi |= newHi;
  }
  outLo = allLo;
  outHi = allHi;
}

// ---- records ----

export function copyRecord(src: i32, dst: i32): void {
  const s = src << POSITION_SHIFT;
  const d = dst << POSITION_SHIFT;
  for (let i = 0; i < POSITION_WORDS; i++) unchecked((POSITIONS[d + i] = unchecked(POSITIONS[s + i])));
}

/** Puts the king of colour `color` of record `handle` on `to`. */
export function moveKing(handle: i32, color: i32, to: i32): void {
  const base = handle << POSITION_SHIFT;
  const from = kingSquare(base, color);
  if (from == to) return;
  const code = KING | (color << PIECE_COLOR_SHIFT);
  removePiece(base, from, code);
  putPiece(base, to, code);
}

/** Gives the move to the other side (no en-passant square exists without pawns on both sides). */
export function passTurn(handle: i32): void {
  const base = handle << POSITION_SHIFT;
  unchecked((POSITIONS[base + W_SIDE] = unchecked(POSITIONS[base + W_SIDE]) ^ 1));
  unchecked((POSITIONS[base + W_KEY_LO] = unchecked(POSITIONS[base + W_KEY_LO]) ^ unchecked(SIDE_KEYS[0])));
  unchecked((POSITIONS[base + W_KEY_HI] = unchecked(POSITIONS[base + W_KEY_HI]) ^ unchecked(SIDE_KEYS[1])));
}

/** The attacker's men of record base (outLo/outHi). */
export function menOf(base: i32, us: i32): void {
  outLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  outHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
}

// ---- transitions ----

/** The class key of a percept the referee announced after a legal move. */
export function perceptClassKey(percept: i32): i32 {
  const check = (percept & PERCEPT_CHECK) != 0 ? 1 : 0;
  return (((((percept >> PERCEPT_DIRECTIONS_SHIFT) & 63) << 1) | check) << 2) | perceptEnd(percept);
}

/**
 * Plays attempt `attempt` of record `from` (side `us` to move) into record `after`, the lone king
 * on (legLo, legHi) (where the attempt is legal), and splits that set into the classes of what the
 * referee announces (CLASSES of `slot`, keys in USED); `scratch` is a record of its own; the
 * attacked squares after the move in classAttackLo/Hi; (blockLo, blockHi) as attackSet's.
 */
export function classify(
  from: i32,
  attempt: i32,
  after: i32,
  scratch: i32,
  slot: i32,
  us: i32,
  legLo: i32,
  legHi: i32,
  blockLo: i32 = 0,
  blockHi: i32 = 0,
): void {
  makeMove(from, attempt, after);
  const base = after << POSITION_SHIFT;
  attackSet(base, us, blockLo, blockHi);
  const aLo = outLo;
  const aHi = outHi;
  classAttackLo = aLo;
  classAttackHi = aHi;
  let copied = false;
  const keys = slot * CLASS_KEYS;
  let used = 0;
  let lo = legLo;
  let hi = legHi;
  while ((lo | hi) != 0) {
    const k = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    const check = has(aLo, aHi, k);
    const stuck = (unchecked(KING_ATTACKS[k << 1]) & ~aLo) == 0 && (unchecked(KING_ATTACKS[(k << 1) + 1]) & ~aHi) == 0;
    const end = stuck ? (check ? END_CHECKMATE : END_STALEMATE) : END_NONE;
    let bits = 0;
    if (check) {
      if (!copied) {
        copyRecord(after, scratch);
        copied = true;
      }
      moveKing(scratch, us ^ 1, k);
      bits = ((((checkPercept(checkDirections(scratch)) >> PERCEPT_DIRECTIONS_SHIFT) & 63) << 1) | 1) << 2;
    }
    const key = bits | end;
    const c = (keys + key) << 1;
    if ((unchecked(CLASSES[c]) | unchecked(CLASSES[c + 1])) == 0) unchecked((USED[keys + used++] = key));
    if (k < 32) unchecked((CLASSES[c] = unchecked(CLASSES[c]) | (1 << k)));
    else unchecked((CLASSES[c + 1] = unchecked(CLASSES[c + 1]) | (1 << (k - 32))));
  }
  unchecked((USED_COUNT[slot] = used));
}

/** Empties class `key` of `slot`. */
export function clearClass(slot: i32, key: i32): void {
  const c = (slot * CLASS_KEYS + key) << 1;
  unchecked((CLASSES[c] = 0));
  unchecked((CLASSES[c + 1] = 0));
}

/** Can the king, on a square of the set, take one of side `us`'s men (attacked: aLo/aHi)? */
export function canTake(base: i32, us: i32, lo: i32, hi: i32, aLo: i32, aHi: i32): bool {
  dilate(lo, hi);
  return (
    (outLo & unchecked(POSITIONS[base + W_COLOR + (us << 1)]) & ~aLo) != 0 ||
    (outHi & unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]) & ~aHi) != 0
  );
}

/** Where the king on the set may step without capturing: the dilation less the attacked squares and the men (outLo/outHi). */
export function replySet(lo: i32, hi: i32, aLo: i32, aHi: i32, menLo: i32, menHi: i32): void {
  dilate(lo, hi);
  outLo = outLo & ~aLo & ~menLo;
  outHi = outHi & ~aHi & ~menHi;
}

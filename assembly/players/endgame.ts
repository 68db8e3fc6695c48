// Endgame technique against a bare king (issue #34 item 3; a stepping stone to issue #35's
// tablebases): metapositions, their transitions under the referee's answers, and a worst-case
// search over them.
//
// A metaposition is what the attacker knows when the defender has only his king left: its own
// men exactly (a position record, whose defender king stands on one square of the set) and the
// set S of squares the lone king may be on (a 64-bit set, two i32 words: squares 0–31, 32–63).
// Its transitions, as the referee rules them (assembly/referee/referee.ts):
// - an attempt of the attacker's king to t is Illegal where the lone king stands next to t
//   (S ∩ K(t)), legal elsewhere; a piece's attempt is always legal (a lone king on its path would
//   be in check on the attacker's turn);
// - a legal move is announced with its check (checkPercept of chess/moveGen checkDirections, on
//   the record with the king put on each square) and the game's end (checkmate, stalemate: the
//   king has no step), which split S into classes, one per percept (classify below);
// - the defender's move: n Illegal attempts heard (his king stood where at least n of its steps
//   are attacked, where the rules make a repeated attempt Nonsense; at least one otherwise), then
//   a step to a square not attacked; a capture is announced (S is then its square), otherwise S
//   becomes the king-step dilation of S less the attacked squares and the men.
// test/players/endgame.test.ts checks these against the tracker's exact belief over random games.
//
// The search (endgameSearch) is an AND-OR search over metapositions: the attacker's attempts
// (OR), the referee's answers and the defender's reply (AND: the worst class counts), `depth`
// attacker moves deep; an Illegal answer costs no move and is searched on at the same depth while
// the stack has room. A class where the king can take an unprotected man, or is stalemated, is a
// failure (ENDGAME_FAIL); one where it is mated a success (every class mated: ENDGAME_WIN − d, a
// sure mate); the rest is valued at the horizon by a progress measure (leafValue): the room the
// king has (the squares it can reach by king steps through squares the attacker does not attack:
// the region the rook's or queen's lines and the king fence in), the size of S, the attacker
// king's mean distance to S, S's mean distance from the edge (with a bishop and a knight, from
// the corners the bishop covers), and men left next to the king's squares unprotected. A class
// that mates adds MATE_SHARE times its share of S to a worst case no failure or sure mate
// decides, so that a move that mates in some positions is taken among equally safe ones.
//
// Records (the caller's stack, ENDGAME_RECORDS of them from `stack`): stack + d the attacker to
// move at depth d, stack + ENDGAME_MAX_DEPTH + 1 + d after its move, the last one scratch.

import { lowestSquare, popcount64 } from '../chess/bitboard';
import { KING_ATTACKS } from '../chess/attacks';
import {
  POSITIONS,
  POSITION_SHIFT,
  POSITION_WORDS,
  W_COLOR,
  W_TYPE,
  W_SIDE,
  W_KEY_LO,
  W_KEY_HI,
  PAWN,
  KNIGHT,
  BISHOP,
  KING,
  PIECE_COLOR_SHIFT,
  makeMove,
  pieceAt,
  menAttacks,
  PIECE_ATTACKS,
  kingSquare,
  putPiece,
  removePiece,
  positionCapacity,
} from '../chess/position';
import { SIDE_KEYS } from '../chess/zobrist';
import { checkDirections } from '../chess/moveGen';
import { ATTEMPTS, generateAttempts } from '../referee/attempts';
import {
  ANSWER_ILLEGAL,
  ANSWER_LEGAL,
  PERCEPT_ANSWER_FIELD,
  PERCEPT_CAPTURE_SHIFT,
  PERCEPT_SQUARE_FIELD,
  PERCEPT_DIRECTIONS_SHIFT,
  END_NONE,
  END_CHECKMATE,
  END_STALEMATE,
  checkPercept,
  perceptEnd,
} from '../referee/referee';
import { rule, RULE_REPEAT_IS_NONSENSE } from '../referee/rules';

export const ENDGAME_OK: i32 = 0;
/** The side not to move has more than its king. */
export const ENDGAME_NOT_BARE: i32 = 1;
/** The attacker has pawns (promotions are not modelled). */
export const ENDGAME_PAWNS: i32 = 2;
export const ENDGAME_BAD_DEPTH: i32 = 3;
/** The stack does not fit in the arena. */
export const ENDGAME_NO_ROOM: i32 = 4;
/** A position added to the set has other men than the first. */
export const ENDGAME_OTHER_MEN: i32 = 5;
/** A percept no square of the set gives (the set was not the belief), or a transition out of turn. */
export const ENDGAME_PERCEPT: i32 = 6;

export const ENDGAME_MAX_DEPTH: i32 = 4;
export const ENDGAME_RECORDS: i32 = 2 * (ENDGAME_MAX_DEPTH + 1) + 1;
/** A class the attacker must never allow: the king takes a man, or is stalemated. */
export const ENDGAME_FAIL: i32 = -1_000_000;
/** A mate d attacker moves from the root is worth ENDGAME_WIN − d. */
export const ENDGAME_WIN: i32 = 1_000_000;
/** An attempt whose value is not searched (always Illegal, castling, a promotion). */
const NONE: i32 = -2_000_000_000;

// leafValue's weights (per square of room, per square of S, per step of the king's distance,
// per step of S's mean distance from the edge, per man left next to the king unprotected)
const ROOM: i32 = 12;
const SIZE: i32 = 3;
const APPROACH: i32 = 6;
const EDGE: i32 = 8;
const HANGING: i32 = 60;
const MATE_SHARE: i32 = 200;

/** ENDGAME_OUT[2i], [2i + 1]: the root's i-th searched attempt and its value. */
export const ENDGAME_OUT = new Int32Array(512);

const MAX_ATTEMPTS: i32 = 256;
const LISTS = new Int32Array((ENDGAME_MAX_DEPTH + 1) * MAX_ATTEMPTS);
// classes of S after a move: key = check bits of the percept (6) << 2 | END_*; per depth the sets
// and the keys in use
const CLASS_KEYS: i32 = 256;
const CLASSES = new Int32Array((ENDGAME_MAX_DEPTH + 1) * CLASS_KEYS * 2);
const USED = new Int32Array((ENDGAME_MAX_DEPTH + 1) * CLASS_KEYS);
const USED_COUNT = new Int32Array(ENDGAME_MAX_DEPTH + 1);

let stackBase: i32 = 0;
let us: i32 = 0;
let setLo: i32 = 0;
let setHi: i32 = 0;
/** The stored metaposition is after the attacker's move (the defender to move). */
let afterMove: bool = false;
let nodes: i32 = 0;
// results of the set helpers
let outLo: i32 = 0;
let outHi: i32 = 0;

// ---- sets ----

function bitLo(sq: i32): i32 {
  return sq < 32 ? 1 << sq : 0;
}
function bitHi(sq: i32): i32 {
  return sq < 32 ? 0 : 1 << (sq - 32);
}
function has(lo: i32, hi: i32, sq: i32): bool {
  return ((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) != 0;
}

/** The squares `color`'s men attack, on a board of its men only (outLo/outHi). */
function attackSet(base: i32, color: i32): void {
  menAttacks(base, color);
  outLo = unchecked(PIECE_ATTACKS[0]);
  outHi = unchecked(PIECE_ATTACKS[1]);
}

/** The squares one king step from the set (outLo/outHi). */
function dilate(lo: i32, hi: i32): void {
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
function flood(lo: i32, hi: i32, openLo: i32, openHi: i32): void {
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

function copyRecord(src: i32, dst: i32): void {
  const s = src << POSITION_SHIFT;
  const d = dst << POSITION_SHIFT;
  for (let i = 0; i < POSITION_WORDS; i++) unchecked((POSITIONS[d + i] = unchecked(POSITIONS[s + i])));
}

/** Puts the defender's king of record `handle` on `to`. */
function moveKing(handle: i32, to: i32): void {
  const base = handle << POSITION_SHIFT;
  const from = kingSquare(base, us ^ 1);
  if (from == to) return;
  const code = KING | ((us ^ 1) << PIECE_COLOR_SHIFT);
  removePiece(base, from, code);
  putPiece(base, to, code);
}

/** Gives the move to the other side (no en-passant square exists without pawns on both sides). */
function passTurn(handle: i32): void {
  const base = handle << POSITION_SHIFT;
  unchecked((POSITIONS[base + W_SIDE] = unchecked(POSITIONS[base + W_SIDE]) ^ 1));
  unchecked((POSITIONS[base + W_KEY_LO] = unchecked(POSITIONS[base + W_KEY_LO]) ^ unchecked(SIDE_KEYS[0])));
  unchecked((POSITIONS[base + W_KEY_HI] = unchecked(POSITIONS[base + W_KEY_HI]) ^ unchecked(SIDE_KEYS[1])));
}

function recordToMove(d: i32): i32 {
  return stackBase + d;
}
function recordAfter(d: i32): i32 {
  return stackBase + ENDGAME_MAX_DEPTH + 1 + d;
}
function scratchRecord(): i32 {
  return stackBase + 2 * (ENDGAME_MAX_DEPTH + 1);
}

// ---- transitions ----

let classAttackLo: i32 = 0;
let classAttackHi: i32 = 0;

/**
 * Plays attempt `attempt` of record recordToMove(d) where the king may be on (legLo, legHi) (where
 * it is legal) into recordAfter(d), and splits the set into the classes of what the referee
 * announces (CLASSES of depth d, keys in USED); the attacked squares after it in classAttackLo/Hi.
 */
function classify(d: i32, attempt: i32, legLo: i32, legHi: i32): void {
  const after = recordAfter(d);
  makeMove(recordToMove(d), attempt, after);
  const base = after << POSITION_SHIFT;
  attackSet(base, us);
  const aLo = outLo;
  const aHi = outHi;
  classAttackLo = aLo;
  classAttackHi = aHi;
  const scratch = scratchRecord();
  let copied = false;
  const keys = d * CLASS_KEYS;
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
      moveKing(scratch, k);
      bits = (checkPercept(checkDirections(scratch)) >> PERCEPT_DIRECTIONS_SHIFT) & 63;
    }
    const key = (bits << 2) | end;
    const c = (keys + key) << 1;
    if ((unchecked(CLASSES[c]) | unchecked(CLASSES[c + 1])) == 0) unchecked((USED[keys + used++] = key));
    if (k < 32) unchecked((CLASSES[c] = unchecked(CLASSES[c]) | (1 << k)));
    else unchecked((CLASSES[c + 1] = unchecked(CLASSES[c + 1]) | (1 << (k - 32))));
  }
  unchecked((USED_COUNT[d] = used));
}

/** Empties class `key` of depth d. */
function clearClass(d: i32, key: i32): void {
  const c = (d * CLASS_KEYS + key) << 1;
  unchecked((CLASSES[c] = 0));
  unchecked((CLASSES[c + 1] = 0));
}

/** Can the king, on a square of the set, take one of the attacker's men (attacked: aLo/aHi)? */
function canTake(base: i32, lo: i32, hi: i32, aLo: i32, aHi: i32): bool {
  dilate(lo, hi);
  return (
    (outLo & unchecked(POSITIONS[base + W_COLOR + (us << 1)]) & ~aLo) != 0 ||
    (outHi & unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]) & ~aHi) != 0
  );
}

// ---- the search ----

/** How far (in king steps) square `a` is from `b`. */
function distance(a: i32, b: i32): i32 {
  const df = (a & 7) - (b & 7);
  const dr = (a >> 3) - (b >> 3);
  const f = df < 0 ? -df : df;
  const r = dr < 0 ? -dr : dr;
  return f > r ? f : r;
}

/** Steps from `sq` to the nearest edge; with a lone bishop and a knight, to the nearest corner of the bishop's colour. */
function edgeDistance(sq: i32, bishopColor: i32): i32 {
  const f = sq & 7;
  const r = sq >> 3;
  if (bishopColor >= 0) {
    // corners a1/h8 are dark (colour 0), a8/h1 light (1)
    return bishopColor == 0 ? min(distance(sq, 0), distance(sq, 63)) : min(distance(sq, 7), distance(sq, 56));
  }
  return min(min(f, 7 - f), min(r, 7 - r));
}

/** The progress measure of the attacker to move in record `handle`, the king on the set. */
function leafValue(handle: i32, lo: i32, hi: i32): i32 {
  nodes++;
  const base = handle << POSITION_SHIFT;
  attackSet(base, us);
  const aLo = outLo;
  const aHi = outHi;
  const menLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  const menHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  flood(lo, hi, ~aLo & ~menLo, ~aHi & ~menHi);
  const room = popcount64(outLo, outHi);
  const size = popcount64(lo, hi);
  // a bishop and a knight drive the king to a corner of the bishop's colour
  const knights = popcount64(
    menLo & unchecked(POSITIONS[base + W_TYPE + (KNIGHT << 1)]),
    menHi & unchecked(POSITIONS[base + W_TYPE + (KNIGHT << 1) + 1]),
  );
  const bLo = menLo & unchecked(POSITIONS[base + W_TYPE + (BISHOP << 1)]);
  const bHi = menHi & unchecked(POSITIONS[base + W_TYPE + (BISHOP << 1) + 1]);
  let bishopColor = -1;
  if (knights == 1 && popcount64(bLo, bHi) == 1) {
    const b = lowestSquare(bLo, bHi);
    bishopColor = ((b & 7) + (b >> 3)) & 1 ? 1 : 0;
  }
  const king = kingSquare(base, us);
  let far = 0;
  let edges = 0;
  let sLo = lo;
  let sHi = hi;
  while ((sLo | sHi) != 0) {
    const sq = lowestSquare(sLo, sHi);
    if (sLo != 0) sLo &= sLo - 1;
    else sHi &= sHi - 1;
    far += distance(king, sq);
    edges += edgeDistance(sq, bishopColor);
  }
  // men the king may reach next move, unprotected
  dilate(lo, hi);
  const hanging = popcount64(outLo & menLo & ~aLo, outHi & menHi & ~aHi);
  return -(ROOM * room + SIZE * size + (APPROACH * far + EDGE * edges) / max(size, 1) + HANGING * hanging);
}

/** The value of attempt `attempt` at depth d with `left` attacker moves to look at, the king on the set. */
function attemptValue(d: i32, left: i32, attempt: i32, lo: i32, hi: i32): i32 {
  const handle = recordToMove(d);
  const base = handle << POSITION_SHIFT;
  const from = attempt & 63;
  const to = (attempt >> 6) & 63;
  if (attempt >> 12 != 0) return NONE;
  const king = (pieceAt(base, from) & 7) == KING;
  if (king && (to - from == 2 || from - to == 2)) return NONE; // castling
  let illLo = 0;
  let illHi = 0;
  if (king) {
    illLo = lo & unchecked(KING_ATTACKS[to << 1]);
    illHi = hi & unchecked(KING_ATTACKS[(to << 1) + 1]);
  }
  const legLo = lo & ~illLo;
  const legHi = hi & ~illHi;
  if ((legLo | legHi) == 0) return NONE;
  let value = i32.MAX_VALUE;
  // Illegal: no move spent, the king is next to `to`; searched on while the stack has room
  if ((illLo | illHi) != 0) {
    if (d + 1 + left > ENDGAME_MAX_DEPTH) value = leafValue(handle, illLo, illHi);
    else {
      const again = recordToMove(d + 1);
      copyRecord(handle, again);
      moveKing(again, lowestSquare(illLo, illHi));
      value = nodeValue(d + 1, left, illLo, illHi);
    }
  }
  classify(d, attempt, legLo, legHi);
  const after = recordAfter(d);
  const afterBase = after << POSITION_SHIFT;
  const aLo = classAttackLo;
  const aHi = classAttackHi;
  const menLo = unchecked(POSITIONS[afterBase + W_COLOR + (us << 1)]);
  const menHi = unchecked(POSITIONS[afterBase + W_COLOR + (us << 1) + 1]);
  let mated = 0;
  const used = unchecked(USED_COUNT[d]);
  for (let i = 0; i < used; i++) {
    const key = unchecked(USED[d * CLASS_KEYS + i]);
    const c = (d * CLASS_KEYS + key) << 1;
    const cLo = unchecked(CLASSES[c]);
    const cHi = unchecked(CLASSES[c + 1]);
    clearClass(d, key);
    const end = key & 3;
    if (end == END_CHECKMATE) {
      mated += popcount64(cLo, cHi);
      continue;
    }
    if (value == ENDGAME_FAIL) continue; // the worst already (the classes are still cleared)
    if (end == END_STALEMATE || canTake(afterBase, cLo, cHi, aLo, aHi)) {
      value = ENDGAME_FAIL;
      continue;
    }
    dilate(cLo, cHi);
    const nLo = outLo & ~aLo & ~menLo;
    const nHi = outHi & ~aHi & ~menHi;
    const next = recordToMove(d + 1);
    copyRecord(after, next);
    passTurn(next);
    moveKing(next, lowestSquare(nLo, nHi));
    const v = left <= 1 ? leafValue(next, nLo, nHi) : nodeValue(d + 1, left - 1, nLo, nHi);
    if (v < value) value = v;
  }
  if (value == i32.MAX_VALUE) return ENDGAME_WIN - d; // mate whatever the answer
  // a chance of mate counts only between values no worst case decides (a sure mate stays WIN − d)
  if (mated > 0 && value > ENDGAME_FAIL && value < ENDGAME_WIN - ENDGAME_MAX_DEPTH)
    value += (MATE_SHARE * mated) / popcount64(lo, hi);
  return value;
}

/** The best value of the attacker's attempts at depth d (the root's into ENDGAME_OUT); NONE without one. */
function nodeValue(d: i32, left: i32, lo: i32, hi: i32): i32 {
  const n = generateAttempts(recordToMove(d));
  const list = d * MAX_ATTEMPTS;
  for (let i = 0; i < n; i++) unchecked((LISTS[list + i] = unchecked(ATTEMPTS[i])));
  let best = NONE;
  let out = 0;
  for (let i = 0; i < n; i++) {
    const attempt = unchecked(LISTS[list + i]);
    const v = attemptValue(d, left, attempt, lo, hi);
    if (v == NONE) continue;
    if (d == 0 && out < 256) {
      unchecked((ENDGAME_OUT[out << 1] = attempt));
      unchecked((ENDGAME_OUT[(out << 1) + 1] = v));
      out++;
    }
    if (v > best) best = v;
  }
  if (d == 0) rootCount = out;
  return best;
}
let rootCount: i32 = 0;

// ---- the exported interface ----

/**
 * Starts a metaposition from position `handle` (the attacker to move, the defender a bare king),
 * the king's set its king's square; records `stack` … `stack` + ENDGAME_RECORDS − 1 are its own.
 */
export function endgameBegin(handle: i32, stack: i32): i32 {
  if (handle < 0 || stack < 0 || stack + ENDGAME_RECORDS > positionCapacity() || handle >= positionCapacity())
    return ENDGAME_NO_ROOM;
  const base = handle << POSITION_SHIFT;
  const side = unchecked(POSITIONS[base + W_SIDE]);
  const c = base + W_COLOR + ((side ^ 1) << 1);
  if (popcount64(unchecked(POSITIONS[c]), unchecked(POSITIONS[c + 1])) != 1) return ENDGAME_NOT_BARE;
  const p = base + W_TYPE + (PAWN << 1);
  if ((unchecked(POSITIONS[p]) | unchecked(POSITIONS[p + 1])) != 0) return ENDGAME_PAWNS;
  stackBase = stack;
  us = side;
  afterMove = false;
  copyRecord(handle, recordToMove(0));
  const k = kingSquare(base, us ^ 1);
  setLo = bitLo(k);
  setHi = bitHi(k);
  return ENDGAME_OK;
}

/** Adds the defender king's square of position `handle` (the same men, the same side to move) to the set. */
export function endgameAddKing(handle: i32): i32 {
  if (handle < 0 || handle >= positionCapacity()) return ENDGAME_NO_ROOM;
  const a = handle << POSITION_SHIFT;
  const b = recordToMove(0) << POSITION_SHIFT;
  const c = W_COLOR + (us << 1);
  if (
    unchecked(POSITIONS[a + W_SIDE]) != unchecked(POSITIONS[b + W_SIDE]) ||
    unchecked(POSITIONS[a + c]) != unchecked(POSITIONS[b + c]) ||
    unchecked(POSITIONS[a + c + 1]) != unchecked(POSITIONS[b + c + 1])
  )
    return ENDGAME_OTHER_MEN;
  const k = kingSquare(a, us ^ 1);
  setLo |= bitLo(k);
  setHi |= bitHi(k);
  return ENDGAME_OK;
}

/**
 * Values every attempt of the stored metaposition by a worst-case search `depth` attacker moves
 * deep (ENDGAME_OUT: attempt, value pairs; endgameCount of them); ENDGAME_* status.
 */
export function endgameSearch(depth: i32): i32 {
  if (depth < 1 || depth > ENDGAME_MAX_DEPTH) return ENDGAME_BAD_DEPTH;
  if (afterMove) return ENDGAME_PERCEPT;
  nodes = 0;
  rootCount = 0;
  nodeValue(0, depth, setLo, setHi);
  return ENDGAME_OK;
}

/** How many attempts the last endgameSearch valued. */
export function endgameCount(): i32 {
  return rootCount;
}
/** Horizon positions the last endgameSearch valued. */
export function endgameNodes(): i32 {
  return nodes;
}
export function endgameSetLow(): i32 {
  return setLo;
}
export function endgameSetHigh(): i32 {
  return setHi;
}

/** The stored metaposition after the attacker's `attempt` answered `percept` (the referee's). */
export function endgameAttempt(attempt: i32, percept: i32): i32 {
  if (afterMove) return ENDGAME_PERCEPT;
  const to = (attempt >> 6) & 63;
  const handle = recordToMove(0);
  const king = (pieceAt(handle << POSITION_SHIFT, attempt & 63) & 7) == KING;
  const nearLo = king ? unchecked(KING_ATTACKS[to << 1]) : 0;
  const nearHi = king ? unchecked(KING_ATTACKS[(to << 1) + 1]) : 0;
  const answer = percept & PERCEPT_ANSWER_FIELD;
  if (answer == ANSWER_ILLEGAL) {
    if (((setLo & nearLo) | (setHi & nearHi)) == 0) return ENDGAME_PERCEPT;
    setLo &= nearLo;
    setHi &= nearHi;
    moveKing(handle, lowestSquare(setLo, setHi));
    return ENDGAME_OK;
  }
  if (answer != ANSWER_LEGAL) return ENDGAME_PERCEPT;
  const legLo = setLo & ~nearLo;
  const legHi = setHi & ~nearHi;
  if ((legLo | legHi) == 0) return ENDGAME_PERCEPT;
  classify(0, attempt, legLo, legHi);
  const heard = (((percept >> PERCEPT_DIRECTIONS_SHIFT) & 63) << 2) | perceptEnd(percept);
  const c = heard << 1;
  const lo = heard < CLASS_KEYS ? unchecked(CLASSES[c]) : 0;
  const hi = heard < CLASS_KEYS ? unchecked(CLASSES[c + 1]) : 0;
  for (let i = 0, n = unchecked(USED_COUNT[0]); i < n; i++) clearClass(0, unchecked(USED[i]));
  if ((lo | hi) == 0) return ENDGAME_PERCEPT;
  copyRecord(recordAfter(0), handle);
  moveKing(handle, lowestSquare(lo, hi));
  setLo = lo;
  setHi = hi;
  afterMove = true;
  return ENDGAME_OK;
}

/**
 * The stored metaposition after the defender's move, announced with `percept` (its capture) after
 * `illegal` Illegal attempts heard (0 where the rules do not let the attacker hear them).
 */
export function endgameReply(percept: i32, illegal: i32): i32 {
  if (!afterMove) return ENDGAME_PERCEPT;
  const handle = recordToMove(0);
  const base = handle << POSITION_SHIFT;
  attackSet(base, us);
  const aLo = outLo;
  const aHi = outHi;
  const need = rule(RULE_REPEAT_IS_NONSENSE) != 0 ? illegal : min(illegal, 1);
  // the squares where at least `need` of the king's steps are attacked
  let fromLo = 0;
  let fromHi = 0;
  let lo = setLo;
  let hi = setHi;
  while ((lo | hi) != 0) {
    const k = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    const attacked = popcount64(unchecked(KING_ATTACKS[k << 1]) & aLo, unchecked(KING_ATTACKS[(k << 1) + 1]) & aHi);
    if (attacked >= need) {
      fromLo |= bitLo(k);
      fromHi |= bitHi(k);
    }
  }
  const menLo = unchecked(POSITIONS[base + W_COLOR + (us << 1)]);
  const menHi = unchecked(POSITIONS[base + W_COLOR + (us << 1) + 1]);
  dilate(fromLo, fromHi);
  const captured = ((percept >> PERCEPT_CAPTURE_SHIFT) & PERCEPT_SQUARE_FIELD) - 1;
  if (captured >= 0) {
    if (!has(outLo & menLo & ~aLo, outHi & menHi & ~aHi, captured)) return ENDGAME_PERCEPT;
    removePiece(base, captured, pieceAt(base, captured));
    setLo = bitLo(captured);
    setHi = bitHi(captured);
  } else {
    setLo = outLo & ~aLo & ~menLo;
    setHi = outHi & ~aHi & ~menHi;
    if ((setLo | setHi) == 0) return ENDGAME_PERCEPT;
  }
  passTurn(handle);
  moveKing(handle, lowestSquare(setLo, setHi));
  afterMove = false;
  return ENDGAME_OK;
}

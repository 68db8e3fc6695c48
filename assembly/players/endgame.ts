// Endgame technique against a bare king (issue #34 item 3; a stepping stone to issue #35's
// tablebases): metapositions, their transitions under the referee's answers, and a worst-case
// search over them.
//
// A metaposition is what the attacker knows when the defender has only his king left: its own
// men exactly and the set S of squares the lone king may be on; its transitions under the
// referee's answers live in metaposition.ts (shared with the tablebases of egtb.ts). The
// defender's Illegal attempts heard narrow S here (endgameReply): his king stood where at least n
// of its steps are attacked, where the rules make a repeated attempt Nonsense; at least one
// otherwise; a capture is announced (S is then its square).
//
// Pawns (issue #34: krieg's capped games v random were king and pawns against its heavy pieces,
// and its own pawns kept the technique away). The attacker's pawns step and promote (to a queen or
// a rook: a minor piece may leave a material draw); a step is Illegal where the lone king stands
// in its way, a diagonal everywhere but on a pawn of his. The defender may keep pawns that are
// frozen — each blocked by a man in front of it, none with a man to take — the same in every
// position of the belief: they are then men that never move (they block lines and his king's
// steps, attacked squares Illegal for the attacker's king), the search makes no attempt that frees
// one, and taking one is progress (PAWN_LEFT). His Illegal attempts then tell nothing (a blocked
// pawn's step is Illegal anywhere).
//
// The search (endgameSearch) is an AND-OR search over metapositions: the attacker's attempts
// (OR), the referee's answers and the defender's reply (AND), `depth` attacker moves deep; an
// Illegal answer costs no move and is searched on at the same depth while the stack has room. A
// class where the king can take an unprotected man, or is stalemated, is a failure (ENDGAME_FAIL)
// whatever the other classes hold; one where it is mated a success (every class mated:
// ENDGAME_WIN − d, a sure mate). Where no class decides, the worst class counts — but from a sound
// set wider than MEAN_WIDE squares at the root (endgameSearch's `sound`), an attempt is worth the
// mean of its classes' values, each weighed by its squares of the set: the progress expected over
// his king's squares (fifteenth session: from a wide set, as a long game leaves it, the worst is
// nearly always the silent class, and a check that splits squares off looked no better than a
// quiet move; bench:endgames --wide, K+R v K against random, 21.1 moves to mate on the mean by the
// worst class, 18.3 so; the mean at every width let HS's king slip the bishops' net, K+B+B v K
// mated 53 of 60 against 57). At the horizon a
// metaposition is valued by a progress measure (leafValue): the room the king has (the squares it
// can reach by king steps through squares the attacker does not attack: the region the rook's or
// queen's lines and the king fence in), the size of S, the attacker king's mean distance to S, S's
// mean distance from the edge (with a bishop and a knight, from the corners the bishop covers),
// men left next to the king's squares unprotected, the ranks the attacker's pawns have still to go
// and the defender's pawns left. A class that mates adds MATE_SHARE times its share of S to a value
// no failure or sure mate decides, so that a move that mates in some positions is taken among
// equally safe ones.
//
// Records (the caller's stack, ENDGAME_RECORDS of them from `stack`): stack + d the attacker to
// move at depth d, stack + ENDGAME_MAX_DEPTH + 1 + d after its move, the last one scratch.

import { lowestSquare, popcount64 } from '../chess/bitboard';
import { KING_ATTACKS, PAWN_ATTACKS } from '../chess/attacks';
import {
  POSITIONS,
  POSITION_SHIFT,
  W_COLOR,
  W_TYPE,
  W_SIDE,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  KING,
  MOVE_PROMOTION,
  pieceAt,
  pieceAttacks,
  PIECE_ATTACKS,
  kingSquare,
  makeMove,
  removePiece,
  positionCapacity,
} from '../chess/position';
import { ATTEMPTS, generateAttempts } from '../referee/attempts';
import {
  ANSWER_ILLEGAL,
  ANSWER_LEGAL,
  PERCEPT_ANSWER_FIELD,
  PERCEPT_CAPTURE_SHIFT,
  PERCEPT_SQUARE_FIELD,
  END_CHECKMATE,
  END_STALEMATE,
} from '../referee/referee';
import { rule, RULE_REPEAT_IS_NONSENSE } from '../referee/rules';
import {
  CLASS_KEYS,
  CLASSES,
  USED,
  USED_COUNT,
  outLo,
  outHi,
  classAttackLo,
  classAttackHi,
  bitLo,
  bitHi,
  has,
  attackSet,
  dilate,
  flood,
  copyRecord,
  moveKing as moveKingOf,
  passTurn,
  perceptClassKey,
  classify as classifyInto,
  clearClass,
  canTake as canTakeOf,
  replySet,
} from './metaposition';

export const ENDGAME_OK: i32 = 0;
/** The side not to move has more than its king and frozen pawns. */
export const ENDGAME_NOT_BARE: i32 = 1;
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
/** An attempt whose value is not searched (always Illegal, castling, a promotion to a minor piece). */
const NONE: i32 = -2_000_000_000;

// leafValue's weights (per square of room, per square of S, per step of the king's distance,
// per step of S's mean distance from the edge, per man left next to the king unprotected)
const ROOM: i32 = 12;
const SIZE: i32 = 3;
const APPROACH: i32 = 6;
const EDGE: i32 = 8;
const HANGING: i32 = 60;
/** Per rank a pawn of the attacker has still to go (a step is worth more than a square of room: promote, then mate). */
const PAWN_RANK: i32 = 16;
/** Per pawn of the defender left (taking one is worth four squares of room: then the bare king). */
const PAWN_LEFT: i32 = 48;
const MATE_SHARE: i32 = 200;
/**
 * A root set wider than this: the search weighs each class by its squares (attemptValue); narrower,
 * the worst class counts. One rule for a whole search: values by the mean run higher than by the
 * worst, and a rule switched node by node (by each node's set) favoured keeping the set wide.
 */
const MEAN_WIDE: i32 = 12;

/** ENDGAME_OUT[2i], [2i + 1]: the root's i-th searched attempt and its value. */
export const ENDGAME_OUT = new Int32Array(512);

const MAX_ATTEMPTS: i32 = 256;
const LISTS = new Int32Array((ENDGAME_MAX_DEPTH + 1) * MAX_ATTEMPTS);

let stackBase: i32 = 0;
let us: i32 = 0;
let setLo: i32 = 0;
let setHi: i32 = 0;
/** The stored metaposition is after the attacker's move (the defender to move). */
let afterMove: bool = false;
let nodes: i32 = 0;
/** This search weighs its classes by their squares (a sound root set wider than MEAN_WIDE), else takes the worst. */
let byMean = false;

// ---- records ----

/** Puts the defender's king of record `handle` on `to`. */
function moveKing(handle: i32, to: i32): void {
  moveKingOf(handle, us ^ 1, to);
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

// ---- transitions (metaposition.ts; a class slot per depth) ----

function classify(d: i32, attempt: i32, legLo: i32, legHi: i32): void {
  classifyInto(recordToMove(d), attempt, recordAfter(d), scratchRecord(), d, us, legLo, legHi, blockLo, blockHi);
}

function canTake(base: i32, lo: i32, hi: i32, aLo: i32, aHi: i32): bool {
  return canTakeOf(base, us, lo, hi, aLo, aHi);
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
  attackSet(base, us, blockLo, blockHi);
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
  // the attacker's pawns: the ranks they have still to go
  let toGo = 0;
  let pLo = menLo & unchecked(POSITIONS[base + W_TYPE + (PAWN << 1)]);
  let pHi = menHi & unchecked(POSITIONS[base + W_TYPE + (PAWN << 1) + 1]);
  while ((pLo | pHi) != 0) {
    const sq = lowestSquare(pLo, pHi);
    if (pLo != 0) pLo &= pLo - 1;
    else pHi &= pHi - 1;
    toGo += us == 0 ? 7 - (sq >> 3) : sq >> 3;
  }
  const theirPawns =
    popcount64(
      unchecked(POSITIONS[base + W_COLOR + ((us ^ 1) << 1)]),
      unchecked(POSITIONS[base + W_COLOR + ((us ^ 1) << 1) + 1]),
    ) - 1;
  // men the king may reach next move, unprotected
  dilate(lo, hi);
  const hanging = popcount64(outLo & menLo & ~aLo, outHi & menHi & ~aHi);
  return -(
    ROOM * room +
    SIZE * size +
    (APPROACH * far + EDGE * edges) / max(size, 1) +
    HANGING * hanging +
    PAWN_RANK * toGo +
    PAWN_LEFT * theirPawns
  );
}

let illegalLo: i32 = 0;
let illegalHi: i32 = 0;
/**
 * Against unknown men (endgameAgainstUnknown; each endgameBegin clears it): his men unseen, so a
 * referee's answer without an end may come where the bare king would be mated or stalemated; and
 * squares where an unseen man of his is read to stand (blockLo/blockHi), which stop the attacker's
 * lines as a frozen pawn does (an attempt through one Illegal, no square behind one attacked); and
 * a move of his may be a man's, so a sure mate that needs his king to step is searched again with
 * his king staying (attemptValue).
 */
let unknownMen = false;
let blockLo: i32 = 0;
let blockHi: i32 = 0;

/**
 * The squares of the lone king's set (lo, hi) where the attempt from `from` to `to` in record
 * `base` is Illegal (illegalLo/illegalHi): the king's next to `to`; a pawn's step where the lone king
 * stands on a square it passes (a pawn does not take forward); a pawn's diagonal everywhere but on
 * a pawn of his; a piece's nowhere (a lone king on its path would be in check). His frozen pawns
 * make some Illegal everywhere: a king's step to a square they attack, a pawn's step into one of
 * them, a line through one (or through a square read blocked against unknown men).
 */
function illegalSet(base: i32, from: i32, to: i32, lo: i32, hi: i32): void {
  const piece = pieceAt(base, from) & 7;
  const c = base + W_COLOR + ((us ^ 1) << 1);
  const k = kingSquare(base, us ^ 1);
  const pawnsLo = unchecked(POSITIONS[c]) & ~bitLo(k);
  const pawnsHi = unchecked(POSITIONS[c + 1]) & ~bitHi(k);
  illegalLo = 0;
  illegalHi = 0;
  let always = false;
  if (piece == KING) {
    illegalLo = lo & unchecked(KING_ATTACKS[to << 1]);
    illegalHi = hi & unchecked(KING_ATTACKS[(to << 1) + 1]);
    always = has(pawnAttacks(pawnsLo, pawnsHi, us ^ 1), pawnAttacksHi, to);
  } else if (piece == PAWN) {
    if (((from ^ to) & 7) != 0) always = !has(pawnsLo, pawnsHi, to);
    else {
      illegalLo = lo & bitLo(to);
      illegalHi = hi & bitHi(to);
      always = has(pawnsLo, pawnsHi, to);
      if (to - from == 16 || from - to == 16) {
        const passed = (from + to) >> 1;
        illegalLo |= lo & bitLo(passed);
        illegalHi |= hi & bitHi(passed);
        always = always || has(pawnsLo, pawnsHi, passed);
      }
    }
  } else if ((pawnsLo | pawnsHi | blockLo | blockHi) != 0) {
    const own = base + W_COLOR + (us << 1);
    const occLo = unchecked(POSITIONS[own]) | pawnsLo | blockLo;
    const occHi = unchecked(POSITIONS[own + 1]) | pawnsHi | blockHi;
    pieceAttacks(piece, us, from, occLo, occHi);
    always = !has(unchecked(PIECE_ATTACKS[0]), unchecked(PIECE_ATTACKS[1]), to);
  }
  if (always) {
    illegalLo = lo;
    illegalHi = hi;
  }
}

let pawnAttacksHi: i32 = 0;

/** The squares pawns (lo, hi) of `color` attack: the low word returned, the high one in pawnAttacksHi. */
function pawnAttacks(lo: i32, hi: i32, color: i32): i32 {
  let aLo = 0;
  let aHi = 0;
  while ((lo | hi) != 0) {
    const sq = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    const p = (color * 64 + sq) << 1;
    aLo |= unchecked(PAWN_ATTACKS[p]);
    aHi |= unchecked(PAWN_ATTACKS[p + 1]);
  }
  pawnAttacksHi = aHi;
  return aLo;
}

/**
 * Are the defender's pawns of record `handle` frozen: each blocked by a man in front of it (not his
 * king, which may step aside), none with a man of the attacker to take (en passant too: `passed`,
 * the square a pawn's double step just passed, or -1)? Then his only moves are the king's, and the
 * metaposition holds: the search makes no attempt that frees one.
 */
function frozen(handle: i32, passed: i32): bool {
  const base = handle << POSITION_SHIFT;
  const c = base + W_COLOR;
  const k = kingSquare(base, us ^ 1);
  const pawnsLo = unchecked(POSITIONS[c + ((us ^ 1) << 1)]) & ~bitLo(k);
  const pawnsHi = unchecked(POSITIONS[c + ((us ^ 1) << 1) + 1]) & ~bitHi(k);
  if ((pawnsLo | pawnsHi) == 0) return true;
  const menLo = unchecked(POSITIONS[c + (us << 1)]);
  const menHi = unchecked(POSITIONS[c + (us << 1) + 1]);
  const aLo = pawnAttacks(pawnsLo, pawnsHi, us ^ 1);
  if (((aLo & menLo) | (pawnAttacksHi & menHi)) != 0 || (passed >= 0 && has(aLo, pawnAttacksHi, passed))) return false;
  // each pawn's square ahead is taken by a man (the pawns shifted one rank toward the attacker)
  const occLo = menLo | pawnsLo;
  const occHi = menHi | pawnsHi;
  const aheadLo = us == 0 ? (pawnsLo >>> 8) | (pawnsHi << 24) : pawnsLo << 8;
  const aheadHi = us == 0 ? pawnsHi >>> 8 : (pawnsHi << 8) | (pawnsLo >>> 24);
  return (aheadLo & ~occLo) == 0 && (aheadHi & ~occHi) == 0;
}

/** Does the attempt (legal) leave the defender's pawns of record `handle` frozen? */
function keepsFrozen(handle: i32, attempt: i32): bool {
  const base = handle << POSITION_SHIFT;
  const c = base + W_COLOR + ((us ^ 1) << 1);
  if (popcount64(unchecked(POSITIONS[c]), unchecked(POSITIONS[c + 1])) == 1) return true; // a bare king
  const from = attempt & 63;
  const to = (attempt >> 6) & 63;
  const double = (pieceAt(base, from) & 7) == PAWN && (to - from == 16 || from - to == 16);
  makeMove(handle, attempt, scratchRecord());
  return frozen(scratchRecord(), double ? (from + to) >> 1 : -1);
}

/** The value of attempt `attempt` at depth d with `left` attacker moves to look at, the king on the set. */
function attemptValue(d: i32, left: i32, attempt: i32, lo: i32, hi: i32): i32 {
  const handle = recordToMove(d);
  const base = handle << POSITION_SHIFT;
  const from = attempt & 63;
  const to = (attempt >> 6) & 63;
  // a promotion to a queen or a rook (a minor piece may leave a material draw)
  if (attempt >> 12 != 0 && attempt >> 12 < MOVE_PROMOTION + ROOK - KNIGHT) return NONE;
  const king = (pieceAt(base, from) & 7) == KING;
  if (king && (to - from == 2 || from - to == 2)) return NONE; // castling
  illegalSet(base, from, to, lo, hi);
  const illLo = illegalLo;
  const illHi = illegalHi;
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
  moveKing(handle, lowestSquare(legLo, legHi)); // not on a pawn's target square
  if (!keepsFrozen(handle, attempt)) return NONE;
  classify(d, attempt, legLo, legHi);
  const after = recordAfter(d);
  const afterBase = after << POSITION_SHIFT;
  const aLo = classAttackLo;
  const aHi = classAttackHi;
  const menLo = unchecked(POSITIONS[afterBase + W_COLOR + (us << 1)]);
  const menHi = unchecked(POSITIONS[afterBase + W_COLOR + (us << 1) + 1]);
  let mated = 0;
  // by the mean (byMean): the classes' values weighed by their squares, and whether one is a sure mate (a
  // failure needs no flag: the worst class, `value`, then is one)
  let sum: f64 = 0;
  let weight: i32 = 0;
  let sureMate = false;
  if (byMean && (illLo | illHi) != 0) {
    sureMate = value >= ENDGAME_WIN - ENDGAME_MAX_DEPTH;
    weight = popcount64(illLo, illHi);
    sum = f64(value) * f64(weight);
  }
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
    replySet(cLo, cHi, aLo, aHi, menLo, menHi);
    const nLo = outLo;
    const nHi = outHi;
    const next = recordToMove(d + 1);
    copyRecord(after, next);
    passTurn(next);
    moveKing(next, lowestSquare(nLo, nHi));
    let v = left <= 1 ? leafValue(next, nLo, nHi) : nodeValue(d + 1, left - 1, nLo, nHi);
    // against unknown men a move of his may be a man's, his king staying where it was: a sure mate that
    // needs his king to step (a bare king's zugzwang) is searched again with the squares it stood on
    // (krieg v random, seed 1, game 167: "mate in two" over four squares for thirteen moves, his rook
    // moving instead); out of a check he steps or puts a man between, rarely: not searched
    const sLo = nLo | cLo;
    const sHi = nHi | cHi;
    if (unknownMen && ((key >> 2) & 1) == 0 && v >= ENDGAME_WIN - ENDGAME_MAX_DEPTH && (sLo != nLo || sHi != nHi)) {
      copyRecord(after, next);
      passTurn(next);
      moveKing(next, lowestSquare(sLo, sHi));
      v = nodeValue(d + 1, left - 1, sLo, sHi);
    }
    if (v < value) value = v;
    if (byMean) {
      if (v >= ENDGAME_WIN - ENDGAME_MAX_DEPTH) sureMate = true;
      const n = popcount64(cLo, cHi);
      sum += f64(v) * f64(n);
      weight += n;
    }
  }
  if (value == i32.MAX_VALUE) return ENDGAME_WIN - d; // mate whatever the answer
  // from a wide root set, where no class decides: the mean progress over the set's squares, not the worst
  // class's (there the worst is nearly always the silent class, and a check that splits squares off looked
  // no better than a quiet move); the worst plus the mean's distance to it, as integers round
  if (byMean && !sureMate && weight > 0 && value > ENDGAME_FAIL && value < ENDGAME_WIN - ENDGAME_MAX_DEPTH)
    value += i32(sum / f64(weight) - f64(value));
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
  unknownMen = false;
  blockLo = 0;
  blockHi = 0;
  if (handle < 0 || stack < 0 || stack + ENDGAME_RECORDS > positionCapacity() || handle >= positionCapacity())
    return ENDGAME_NO_ROOM;
  const base = handle << POSITION_SHIFT;
  const side = unchecked(POSITIONS[base + W_SIDE]);
  const c = base + W_COLOR + ((side ^ 1) << 1);
  const t = base + W_TYPE;
  // his men: the king and pawns, frozen
  const otherLo = ~unchecked(POSITIONS[t + (PAWN << 1)]) & ~unchecked(POSITIONS[t + (KING << 1)]);
  const otherHi = ~unchecked(POSITIONS[t + (PAWN << 1) + 1]) & ~unchecked(POSITIONS[t + (KING << 1) + 1]);
  if (((unchecked(POSITIONS[c]) & otherLo) | (unchecked(POSITIONS[c + 1]) & otherHi)) != 0) return ENDGAME_NOT_BARE;
  us = side;
  if (!frozen(handle, -1)) return ENDGAME_NOT_BARE;
  stackBase = stack;
  afterMove = false;
  copyRecord(handle, recordToMove(0));
  const k = kingSquare(base, us ^ 1);
  setLo = bitLo(k);
  setHi = bitHi(k);
  return ENDGAME_OK;
}

/**
 * The metaposition begun plays against his unknown men (till the next endgameBegin): an answer
 * without an end keeps the squares where the bare king would be mated or stalemated, and
 * (blockedLo, blockedHi), squares where a man of his is read to stand, stop the attacker's lines.
 */
export function endgameAgainstUnknown(blockedLo: i32, blockedHi: i32): i32 {
  unknownMen = true;
  blockLo = blockedLo;
  blockHi = blockedHi;
  return ENDGAME_OK;
}

/**
 * Against unknown men (after endgameAgainstUnknown): adds square `sq` to the set, where the lone
 * king would stand in check on the record but a man of his read on a blocked square shields it.
 */
export function endgameAddSquare(sq: i32): i32 {
  if (!unknownMen || afterMove || sq < 0 || sq > 63) return ENDGAME_PERCEPT;
  setLo |= bitLo(sq);
  setHi |= bitHi(sq);
  return ENDGAME_OK;
}

/**
 * Against unknown men (after endgameAgainstUnknown): takes square `sq` out of the set, where the
 * record was loaded only to begin a set whose every square a blocked square shields; not the last.
 */
export function endgameDropSquare(sq: i32): i32 {
  if (!unknownMen || afterMove || sq < 0 || sq > 63) return ENDGAME_PERCEPT;
  const lo = setLo & ~bitLo(sq);
  const hi = setHi & ~bitHi(sq);
  if ((lo | hi) == 0) return ENDGAME_PERCEPT;
  setLo = lo;
  setHi = hi;
  return ENDGAME_OK;
}

/**
 * Adds the defender king's square of position `handle` (the same men, the same side to move) to the
 * set; ENDGAME_NOT_BARE where his pawns differ from the first position's.
 */
export function endgameAddKing(handle: i32): i32 {
  if (handle < 0 || handle >= positionCapacity()) return ENDGAME_NO_ROOM;
  const a = handle << POSITION_SHIFT;
  const b = recordToMove(0) << POSITION_SHIFT;
  const c = W_COLOR + (us << 1);
  const k = kingSquare(a, us ^ 1);
  const p = W_COLOR + ((us ^ 1) << 1); // his pawns: his men less the king
  const kb = kingSquare(b, us ^ 1);
  if (
    unchecked(POSITIONS[a + W_SIDE]) != unchecked(POSITIONS[b + W_SIDE]) ||
    unchecked(POSITIONS[a + c]) != unchecked(POSITIONS[b + c]) ||
    unchecked(POSITIONS[a + c + 1]) != unchecked(POSITIONS[b + c + 1])
  )
    return ENDGAME_OTHER_MEN;
  // his pawns where the first position has them, or the belief is no one metaposition
  if (
    (unchecked(POSITIONS[a + p]) & ~bitLo(k)) != (unchecked(POSITIONS[b + p]) & ~bitLo(kb)) ||
    (unchecked(POSITIONS[a + p + 1]) & ~bitHi(k)) != (unchecked(POSITIONS[b + p + 1]) & ~bitHi(kb))
  )
    return ENDGAME_NOT_BARE;
  setLo |= bitLo(k);
  setHi |= bitHi(k);
  return ENDGAME_OK;
}

/**
 * Adds to the set every square one king step from it where his king may stand with the attacker to
 * move (no man there, not attacked): a set read from the tracker's sampled pool, which can lose the
 * king's last step (krieg v random, game 173 of 200: four distinct positions, his king on e8, d7,
 * c8 or e5 where it had just gone from e5 to f6, and Qd5 stalemated it there).
 */
export function endgameWiden(): i32 {
  if (afterMove) return ENDGAME_PERCEPT;
  const base = recordToMove(0) << POSITION_SHIFT;
  attackSet(base, us, blockLo, blockHi);
  const c = base + W_COLOR + (us << 1);
  replySet(setLo, setHi, outLo, outHi, unchecked(POSITIONS[c]), unchecked(POSITIONS[c + 1]));
  setLo |= outLo;
  setHi |= outHi;
  return ENDGAME_OK;
}

/**
 * Values every attempt of the stored metaposition by a worst-case search `depth` attacker moves
 * deep (ENDGAME_OUT: attempt, value pairs; endgameCount of them); ENDGAME_* status. `sound` (0 or 1):
 * the set holds every square his king may stand on, so from one wider than MEAN_WIDE the classes
 * are weighed by their squares; not against unknown men, whose set is a guess (the mean there too
 * cost krieg v random, match seed 1, 99 / 1 / 8 in its first 108 games against 105 / 1 / 2).
 */
export function endgameSearch(depth: i32, sound: i32): i32 {
  if (depth < 1 || depth > ENDGAME_MAX_DEPTH) return ENDGAME_BAD_DEPTH;
  if (afterMove) return ENDGAME_PERCEPT;
  nodes = 0;
  rootCount = 0;
  byMean = sound != 0 && popcount64(setLo, setHi) > MEAN_WIDE;
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
  const handle = recordToMove(0);
  illegalSet(handle << POSITION_SHIFT, attempt & 63, (attempt >> 6) & 63, setLo, setHi);
  const nearLo = illegalLo;
  const nearHi = illegalHi;
  const answer = percept & PERCEPT_ANSWER_FIELD;
  if (answer == ANSWER_ILLEGAL) {
    if ((nearLo | nearHi) == 0) return ENDGAME_PERCEPT;
    setLo = nearLo;
    setHi = nearHi;
    moveKing(handle, lowestSquare(setLo, setHi));
    return ENDGAME_OK;
  }
  if (answer != ANSWER_LEGAL) return ENDGAME_PERCEPT;
  const legLo = setLo & ~nearLo;
  const legHi = setHi & ~nearHi;
  if ((legLo | legHi) == 0) return ENDGAME_PERCEPT;
  moveKing(handle, lowestSquare(legLo, legHi)); // not on a pawn's target square
  classify(0, attempt, legLo, legHi);
  const key = perceptClassKey(percept);
  let lo = unchecked(CLASSES[key << 1]);
  let hi = unchecked(CLASSES[(key << 1) + 1]);
  // his unseen men may block a line or a step that reads as taken: a mate or a stalemate of the bare
  // king there may be neither (krieg v random, seed 1, game 47: Qc8+ "mated" his king on b8, its step
  // a7 on the a-file of Ra2, which his a3 pawn blocked; the set lost him, and Bf7 stalemated him on a6)
  if (unknownMen && (key & 3) == 0) {
    for (let end = END_CHECKMATE; end <= END_STALEMATE; end++) {
      lo |= unchecked(CLASSES[(key | end) << 1]);
      hi |= unchecked(CLASSES[((key | end) << 1) + 1]);
    }
  }
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
  attackSet(base, us, blockLo, blockHi);
  const aLo = outLo;
  const aHi = outHi;
  // his frozen pawns' steps are Illegal wherever his king stands
  const bare =
    popcount64(
      unchecked(POSITIONS[base + W_COLOR + ((us ^ 1) << 1)]),
      unchecked(POSITIONS[base + W_COLOR + ((us ^ 1) << 1) + 1]),
    ) == 1;
  const need = !bare ? 0 : rule(RULE_REPEAT_IS_NONSENSE) != 0 ? illegal : min(illegal, 1);
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

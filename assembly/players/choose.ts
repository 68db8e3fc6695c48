// Choose-move (Parker, Nau & Subrahmanian 2005, Figure 1 and §4): for a set S of positions that
// share the player's own pieces (a sample of his belief state) and each of his attempts, the
// values after the attempt in the positions of S where it is legal; the host averages them
// (positions where the attempt is not legal are left out, as Parker et al. do) and takes the best.
// The host passes S as a list of handles, in one call or in several (each adds to the rows), so a
// timed player can evaluate positions as it finds them and stop when its time is up; after an
// Illegal answer it starts again (chooseBegin) on the positions where that attempt is illegal —
// or re-averages the per-position values of the earlier calls (VALUES), which is the same thing.
//
// The value of a legal move in a position is that of a search after it (search.ts valueAfterMove,
// for the mover), or for the database's self-play programs (scoreAttempts, issue 7) score.ts's
// 2-ply evaluation. Values are at most MATE in size, and a run holds at most MAX_RUN_POSITIONS
// positions, so every sum fits an i32.
//
// CHOICES row (CHOICE_WORDS = 8 Int32 words per attempt, in CHOICE_ATTEMPTS order):
// | word | field     | meaning                                                                 |
// |------|-----------|-------------------------------------------------------------------------|
// | 0    | legal     | positions of S where the attempt is a legal move                        |
// | 1    | sum       | the sum of the values after it over those positions                     |
// | 2    | mates     | positions where the value is a forced mate for the mover (2-ply: it mates) |
// | 3    | mated     | positions where the value is a forced mate against the mover            |
// | 4    | tactical  | positions where it captures or gives check                              |
// | 5    | captures  | positions where it captures                                             |
// | 6    | min       | the least value (MATE + 1 while legal = 0)                              |
// | 7    | max       | the greatest value (−MATE − 1 while legal = 0)                          |
//
// VALUES[i * MAX_MOVES + row]: the value of attempt `row` in the i-th position of the last
// chooseAdd call, NOT_LEGAL where it is not a legal move.

import {
  POSITIONS,
  POSITION_SHIFT,
  W_COLOR,
  W_TYPE,
  W_SIDE,
  W_HALFMOVE,
  W_KEY_LO,
  W_KEY_HI,
  MOVE_EN_PASSANT,
  MOVE_PROMOTION,
  makeMove,
  pieceAt,
  inCheck,
  isAttacked,
  kingSquare,
  positionCapacity,
  PAWN,
  QUEEN,
  KING,
  menAttacks,
  menAttacksOver,
  PIECE_ATTACKS,
} from '../chess/position';
import { KING_ATTACKS } from '../chess/attacks';
import { MOVES, MAX_MOVES, listOffset, generateMoves, kingCanStep } from '../chess/moveGen';
import { rule, RULE_STALEMATE_LOSES } from '../referee/rules';
import { ATTEMPTS, attemptOf, generateAttempts } from '../referee/attempts';
import { MAX_PLY, MAX_DEPTH, MATE, MATE_BOUND, stackFits, beginRun, valueAfterMove, isDrawn } from './search';
import { SCORES, SCORE_WORDS, S_LEGAL, S_TACTICAL, S_EVAL, S_MATES, MATE_SCORE, valueAfterReply } from './score';
import { PIECE_VALUE } from './evaluate';
import { attackSet, flood, outLo, outHi } from './metaposition';
import { lowestSquare, popcount64 } from '../chess/bitboard';
import { newArena } from '../chess/arena';

export const CHOOSE_OK: i32 = 0;
export const CHOOSE_BAD_HANDLE: i32 = 1; // a position or the stack outside the arena, or overlapping
export const CHOOSE_BAD_DEPTH: i32 = 2;
export const CHOOSE_TOO_MANY: i32 = 3; // more than CHOOSE_MAX_POSITIONS in a call, or MAX_RUN_POSITIONS in a run
/** A position whose side to move or own pieces differ from chooseBegin's: the rows are void until the next chooseBegin. */
export const CHOOSE_OTHER_BOARD: i32 = 4;
export const CHOOSE_NOT_BEGUN: i32 = 5;

export const CHOICE_WORDS: i32 = 8;
export const C_LEGAL: i32 = 0;
export const C_SUM: i32 = 1;
export const C_MATES: i32 = 2;
export const C_MATED: i32 = 3;
export const C_TACTICAL: i32 = 4;
export const C_CAPTURES: i32 = 5;
export const C_MIN: i32 = 6;
export const C_MAX: i32 = 7;

export const CHOOSE_MAX_POSITIONS: i32 = 1024;
export const MAX_RUN_POSITIONS: i32 = 65536;
export const NOT_LEGAL: i32 = -(1 << 30);

export const CHOICES = new Int32Array(MAX_MOVES * CHOICE_WORDS);
export const CHOICE_ATTEMPTS = new Int32Array(MAX_MOVES);
export const CHOOSE_HANDLES = new Int32Array(CHOOSE_MAX_POSITIONS);
export const VALUES = newArena(CHOOSE_MAX_POSITIONS * MAX_MOVES);

// How a legal move is valued.
const VALUE_NONE: i32 = 0; // legality and tactics only
const VALUE_TWO_PLY: i32 = 1; // score.ts: the self-play programs' 2-ply evaluation
const VALUE_SEARCH: i32 = 2; // search.ts: alpha-beta

/** Row of CHOICES per attempt code (-1: not an attempt of the run). */
const ROW = newArena(1 << 15);
let rowsReady = false;
let attemptCount: i32 = -1;
let runSide: i32 = 0;
let runPositions: i32 = 0;
/** The moves of each position of S are listed in list 0 (searches after them use lists 1 …). */
const OWN_MOVES: i32 = listOffset(0);

/**
 * Starts a run on the attempts of the side to move of `handle` (every position of S must have
 * the same own pieces and side to move): their codes into CHOICE_ATTEMPTS, the rows cleared.
 * Returns the number of attempts, or -1 for a handle outside the arena.
 */
export function chooseBegin(handle: i32): i32 {
  if (handle < 0 || handle >= positionCapacity()) return -1;
  if (!rowsReady) {
    ROW.fill(-1);
    rowsReady = true;
  }
  for (let i = 0; i < attemptCount; i++) unchecked((ROW[unchecked(CHOICE_ATTEMPTS[i])] = -1));
  const n = generateAttempts(handle);
  for (let i = 0; i < n; i++) {
    const attempt = unchecked(ATTEMPTS[i]);
    unchecked((CHOICE_ATTEMPTS[i] = attempt));
    unchecked((ROW[attempt] = i));
    const r = i * CHOICE_WORDS;
    for (let w = 0; w < CHOICE_WORDS; w++) unchecked((CHOICES[r + w] = 0));
    unchecked((CHOICES[r + C_MIN] = MATE + 1));
    unchecked((CHOICES[r + C_MAX] = -MATE - 1));
  }
  attemptCount = n;
  runSide = unchecked(POSITIONS[(handle << POSITION_SHIFT) + W_SIDE]);
  runPositions = 0;
  beginRun();
  return n;
}

/**
 * Adds position `h` (the `index`-th of the call) to the rows: every legal move is played into
 * record `stack` and valued by `mode`. False if a legal move is not among the run's attempts
 * (another own board).
 */
function addPosition(h: i32, index: i32, stack: i32, mode: i32, depth: i32, limit: i32): bool {
  const base = h << POSITION_SHIFT;
  const n = generateMoves(h, OWN_MOVES);
  const recordValues = mode != VALUE_NONE && index < CHOOSE_MAX_POSITIONS;
  if (recordValues) {
    const v = index * MAX_MOVES;
    for (let r = 0; r < attemptCount; r++) unchecked((VALUES[v + r] = NOT_LEGAL));
  }
  for (let m = 0; m < n; m++) {
    const move = unchecked(MOVES[OWN_MOVES + m]);
    const row = unchecked(ROW[attemptOf(move)]);
    if (row < 0) return false;
    const r = row * CHOICE_WORDS;
    makeMove(h, move, stack);
    const capture = pieceAt(base, (move >> 6) & 63) != 0 || move >> 12 == MOVE_EN_PASSANT;
    unchecked(CHOICES[r + C_LEGAL]++);
    if (capture) unchecked(CHOICES[r + C_CAPTURES]++);
    if (capture || inCheck(stack << POSITION_SHIFT)) unchecked(CHOICES[r + C_TACTICAL]++);
    if (mode == VALUE_NONE) continue;
    let value: i32;
    if (mode == VALUE_TWO_PLY) {
      value = valueAfterReply(stack, stack + 1, runSide);
      if (value == MATE_SCORE) unchecked(CHOICES[r + C_MATES]++);
    } else {
      value = valueAfterMove(stack, depth, limit);
      if (value > MATE_BOUND) unchecked(CHOICES[r + C_MATES]++);
      if (value < -MATE_BOUND) unchecked(CHOICES[r + C_MATED]++);
    }
    unchecked((CHOICES[r + C_SUM] += value));
    if (value < unchecked(CHOICES[r + C_MIN])) unchecked((CHOICES[r + C_MIN] = value));
    if (value > unchecked(CHOICES[r + C_MAX])) unchecked((CHOICES[r + C_MAX] = value));
    if (recordValues) unchecked((VALUES[index * MAX_MOVES + row] = value));
  }
  return true;
}

/**
 * Adds the positions CHOOSE_HANDLES[0 … count) to the run: each legal move valued by a search of
 * `depth` more plies (0: quiescence only) within `limit` nodes (0: none) per move, using records
 * stack … stack + MAX_PLY − 2 (none of them a position of the list). Returns CHOOSE_OK or a
 * CHOOSE_* status; searchNodes() is the nodes this call searched.
 */
export function chooseAdd(count: i32, stack: i32, depth: i32, limit: i32): i32 {
  if (attemptCount < 0) return CHOOSE_NOT_BEGUN;
  if (count < 0 || count > CHOOSE_MAX_POSITIONS || runPositions + count > MAX_RUN_POSITIONS) return CHOOSE_TOO_MANY;
  if (depth < 0 || depth > MAX_DEPTH || limit < 0) return CHOOSE_BAD_DEPTH;
  if (!stackFits(stack, MAX_PLY - 1)) return CHOOSE_BAD_HANDLE;
  for (let i = 0; i < count; i++) {
    const h = unchecked(CHOOSE_HANDLES[i]);
    if (h < 0 || h >= positionCapacity() || (h >= stack && h < stack + MAX_PLY - 1)) return CHOOSE_BAD_HANDLE;
    if (unchecked(POSITIONS[(h << POSITION_SHIFT) + W_SIDE]) != runSide) return CHOOSE_OTHER_BOARD;
  }
  beginRun();
  for (let i = 0; i < count; i++) {
    if (!addPosition(unchecked(CHOOSE_HANDLES[i]), i, stack, VALUE_SEARCH, depth, limit)) return CHOOSE_OTHER_BOARD;
  }
  runPositions += count;
  return CHOOSE_OK;
}

/**
 * The self-play programs' scores (issue 7; score.ts layout): every attempt of the side to move over
 * positions [first, first + count), legality and tactics, and with `lookahead` the 2-ply
 * evaluation, using records `scratch` and `scratch + 1`. Returns the number of attempts (rows of
 * SCORES, in ATTEMPTS order). A run of choose-move with score.ts's values.
 */
export function scoreAttempts(first: i32, count: i32, scratch: i32, lookahead: bool): i32 {
  const n = chooseBegin(first);
  for (let h = first; h < first + count; h++)
    addPosition(h, h - first, scratch, lookahead ? VALUE_TWO_PLY : VALUE_NONE, 0, 0);
  for (let i = 0; i < n; i++) {
    const r = i * CHOICE_WORDS;
    const s = i * SCORE_WORDS;
    unchecked((SCORES[s + S_LEGAL] = unchecked(CHOICES[r + C_LEGAL])));
    unchecked((SCORES[s + S_TACTICAL] = unchecked(CHOICES[r + C_TACTICAL])));
    unchecked((SCORES[s + S_EVAL] = unchecked(CHOICES[r + C_SUM])));
    unchecked((SCORES[s + S_MATES] = unchecked(CHOICES[r + C_MATES])));
    unchecked((ATTEMPTS[i] = unchecked(CHOICE_ATTEMPTS[i])));
  }
  return n;
}

// ---- the threat screen (krieg's king safety, piece safety and progress, host/players/krieg.ts) ----
// Choose-move averages over the few positions a turn's budget lets it search, so a mate in one
// that the opponent has in the true position but in none of them goes unseen. The screen asks,
// for one attempt, over many more positions than were searched (no evaluation, no search: only
// the opponent's replies and whether the mover can answer them), in how many the attempt leaves
// the opponent a reply that ends the game against the mover; in how many it stalemates him (or
// leaves his king stuck and only pawns to move: stalemate if they are blocked), and in how many
// more it boxes his king while the position gives him a piece (threatBoxed: a stalemate if the
// piece is one he no longer has, which the host counts with a crushing edge); what
// material his best capture or promotion wins in each (threatLoss; a pawn of his two steps from
// promoting on a free path the mover does not guard counts half a promotion: the tracker's pool
// holds his pawns a step or two behind the true ones, and krieg v HS lost won endings to pawns
// that promoted beside its idle rooks); where his king may stand after his
// reply (threatRegion, the union over the positions); and the room his king has in each (threatRoom).
//
// The room of one position (issue #34, krieg v HS): the squares his king reaches by king steps from
// its square through squares the mover's men do not attack and do not stand on, nor his own men
// (metaposition.ts flood, the bare-king technique's measure, here over one position). Summed over
// the positions, it is the box the mover's lines build around a king it cannot locate: a rook's cut
// shrinks it in every position beyond the line, where the union of his squares (the region) stays
// the whole board while the belief is spread.
//
// The loss of one position (issue #34, piece safety): the opponent's capturing replies valued by a
// static exchange of one step — the man taken, less the taker when the mover then attacks the
// square (a king takes only an unguarded man: a legal move) —, the best of them less what the
// attempt itself won there (what it took, a promotion's piece less its pawn: a trade is not a
// loss), never below 0 (threatLoss); and the best one on the moved man's square (its own risk)
// plus the best one elsewhere, less what it won
// (threatLossBoth): over a sampled belief a man of his that the positions put where it takes a
// queen in some of them (the pool's phantoms) hid the moved man's own risk there, so that every
// attempt showed the same loss and a bishop went to b5 where a pawn on a6 took it (krieg v HS).
// The positions where the moved man is taken at a loss (its own risk above what the attempt took)
// are counted too (threatLost): the host trusts what the attempt gains over the few positions it
// searched no further than the screen finds the man survives (host/players/values.ts).
//
// The rules' draws (issue #34): in how many positions the attempt itself ends the game drawn by the
// material left or the fifty-move rule (search.ts isDrawn; no reply is looked at there), in how
// many the opponent has a reply that does (a capture into a material draw, a quiet move to the
// hundredth ply); and per position the key and halfmove clock after the attempt (THREAT_AFTER: the
// host counts repetitions against the positions it has seen, and the clock's approach to 100).

let threatLegal: i32 = 0;
let threatMated: i32 = 0;
let threatReplies: i32 = 0;
let threatStalemated: i32 = 0;
let threatLossSum: i32 = 0;
let threatRegionLo: i32 = 0;
let threatRegionHi: i32 = 0;
let threatDrawnNow: i32 = 0;
let threatDrawnReply: i32 = 0;
let threatRoomSum: i32 = 0;
let threatLostCount: i32 = 0;
let threatBothSum: i32 = 0;
let threatBoxed: i32 = 0;
/** Per position i of the last call: the key after the attempt (words 3i, 3i + 1: lo, hi) and its halfmove clock (3i + 2; −1 where the attempt is not legal). */
export const THREAT_AFTER = new Int32Array(CHOOSE_MAX_POSITIONS * 3);
const THREAT_OWN: i32 = listOffset(1);
const THREAT_REPLIES: i32 = listOffset(2);
const THREAT_ANSWERS: i32 = listOffset(3);

/** Does position `h` (its side to move) end the game against the side to move: checkmate, or stalemate where it loses? */
function lostHere(h: i32): bool {
  const base = h << POSITION_SHIFT;
  const checked = inCheck(base);
  if (!checked && rule(RULE_STALEMATE_LOSES) == 0) return false;
  if (!checked && kingCanStep(h)) return false;
  return generateMoves(h, THREAT_ANSWERS) == 0;
}

/**
 * After `us`'s move in position `base`: has the opponent only his king and pawns, and is there a
 * square where his king would stand out of check with no step — his square or one next to it,
 * free of `us`'s men — by the attacks of `us`'s men on a board of their own (his men unknown)? A
 * stalemate if he stood there and his pawns were blocked: the screened positions sample his king,
 * and one step off is where the true one often is (Rg1 checked a king on g6 in every screened
 * position, and stalemated the true one on h7, boxed in by Ra8 and a guarded pawn on h6).
 */
function stuckNear(base: i32, us: i32): bool {
  if (hasPieces(base, us ^ 1)) return false;
  menAttacks(base, us);
  const aLo = unchecked(PIECE_ATTACKS[0]);
  const aHi = unchecked(PIECE_ATTACKS[1]);
  const own = base + W_COLOR + (us << 1);
  const king = kingSquare(base, us ^ 1);
  let lo = (unchecked(KING_ATTACKS[king << 1]) | (king < 32 ? 1 << king : 0)) & ~aLo & ~unchecked(POSITIONS[own]);
  let hi =
    (unchecked(KING_ATTACKS[(king << 1) + 1]) | (king >= 32 ? 1 << (king - 32) : 0)) &
    ~aHi &
    ~unchecked(POSITIONS[own + 1]);
  while ((lo | hi) != 0) {
    const sq = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    if ((unchecked(KING_ATTACKS[sq << 1]) & ~aLo) == 0 && (unchecked(KING_ATTACKS[(sq << 1) + 1]) & ~aHi) == 0)
      return true;
  }
  return false;
}

/**
 * After `us`'s move in position `base`: is the opponent's king boxed by `us`'s men — out of their
 * reach on its square, every step from it onto a square they attack or one of his pawns holds —
 * on a board of `us`'s men and his pawns, his pieces left off? Where he has a piece, a stalemate if
 * the piece is not there: past its exact layer the tracker's pool gives him pieces he lost long ago
 * (a capture is heard by its square, not by the man taken), so that where the true king on h6 had
 * no step and his pawns were blocked every screened position gave him a rook or a bishop to move
 * and none counted the stalemate (krieg v random, issue #34: 7 of the 8 stalemates in 200 games).
 */
function boxed(base: i32, us: i32): bool {
  const own = base + W_COLOR + (us << 1);
  const them = base + W_COLOR + ((us ^ 1) << 1);
  const pawns = base + W_TYPE + (PAWN << 1);
  const pawnLo = unchecked(POSITIONS[them]) & unchecked(POSITIONS[pawns]);
  const pawnHi = unchecked(POSITIONS[them + 1]) & unchecked(POSITIONS[pawns + 1]);
  // the lines stop at his pawns (men he has) but run through his pieces (men he may not have)
  menAttacksOver(base, us, unchecked(POSITIONS[own]) | pawnLo, unchecked(POSITIONS[own + 1]) | pawnHi);
  const king = kingSquare(base, us ^ 1);
  const k = king << 1;
  return (
    !(king < 32
      ? ((unchecked(PIECE_ATTACKS[0]) >>> king) & 1) != 0
      : ((unchecked(PIECE_ATTACKS[1]) >>> (king - 32)) & 1) != 0) &&
    (unchecked(KING_ATTACKS[k]) & ~unchecked(PIECE_ATTACKS[0]) & ~pawnLo) == 0 &&
    (unchecked(KING_ATTACKS[k + 1]) & ~unchecked(PIECE_ATTACKS[1]) & ~pawnHi) == 0
  );
}

/**
 * After `us`'s move in position `base`: half what a queen gains over its pawn where a pawn of his
 * stands two steps from promoting, both squares ahead empty and neither attacked by `us` (a step
 * of his and one of ours between: half a promotion); else 0.
 */
function pawnRaceGain(base: i32, us: i32): i32 {
  const them = base + W_COLOR + ((us ^ 1) << 1);
  const pawns = base + W_TYPE + (PAWN << 1);
  // his pawns two steps from the last rank: white's on the sixth rank (index 5), black's on the third (2)
  const rank = us == 1 ? 5 : 2;
  const forward = us == 1 ? 8 : -8;
  const word = rank >> 2;
  let row = (unchecked(POSITIONS[them + word]) & unchecked(POSITIONS[pawns + word])) >>> ((rank & 3) << 3);
  row &= 0xff;
  while (row != 0) {
    const file = ctz(row);
    row &= row - 1;
    const next = (rank << 3) + file + forward;
    const last = next + forward;
    if (pieceAt(base, next) != 0 || pieceAt(base, last) != 0) continue;
    if (isAttacked(base, next, us) || isAttacked(base, last, us)) continue;
    return (unchecked(PIECE_VALUE[QUEEN]) - unchecked(PIECE_VALUE[PAWN])) >> 1;
  }
  return 0;
}

/** Has `color` in position `base` a man besides his king and pawns? */
function hasPieces(base: i32, color: i32): bool {
  const men = base + W_COLOR + (color << 1);
  const pawns = base + W_TYPE + (PAWN << 1);
  const kings = base + W_TYPE + (KING << 1);
  return (
    ((unchecked(POSITIONS[men]) & ~(unchecked(POSITIONS[pawns]) | unchecked(POSITIONS[kings]))) |
      (unchecked(POSITIONS[men + 1]) & ~(unchecked(POSITIONS[pawns + 1]) | unchecked(POSITIONS[kings + 1])))) !=
    0
  );
}

/**
 * After `us`'s move in position `base`: the room of the opponent's king (above), his other men
 * standing in its way (the host reads it in a won ending only: against king and pawns, or crushing
 * whatever piece the position gives him, host/players/values.ts).
 */
function roomOf(base: i32, us: i32): i32 {
  const them = base + W_COLOR + ((us ^ 1) << 1);
  const kings = base + W_TYPE + (KING << 1);
  const menLo = unchecked(POSITIONS[them]) & ~unchecked(POSITIONS[kings]);
  const menHi = unchecked(POSITIONS[them + 1]) & ~unchecked(POSITIONS[kings + 1]);
  attackSet(base, us);
  const own = base + W_COLOR + (us << 1);
  const openLo = ~outLo & ~unchecked(POSITIONS[own]) & ~menLo;
  const openHi = ~outHi & ~unchecked(POSITIONS[own + 1]) & ~menHi;
  const king = kingSquare(base, us ^ 1);
  flood(king < 32 ? 1 << king : 0, king < 32 ? 0 : 1 << (king - 32), openLo, openHi);
  return popcount64(outLo, outHi);
}

/**
 * The material (PIECE_VALUE) `move` wins in position `base`: what it takes (an en-passant pawn
 * too), and a promotion's piece less its pawn. The mover's promotion counts as a gain the reply
 * that takes the new piece gives back: a queen taken where the pawn stood on its last rank but one
 * costs the pawn, not the queen (before, far ahead a promotion was charged its queen and gained
 * nothing of it in a score near 1, so krieg left its pawns a step from promoting for dozens of
 * plies and made a knight where a queen might be taken).
 */
function gainedBy(base: i32, move: i32): i32 {
  if (move >> 12 == MOVE_EN_PASSANT) return unchecked(PIECE_VALUE[PAWN]);
  let gain = unchecked(PIECE_VALUE[pieceAt(base, (move >> 6) & 63) & 7]);
  if (move >> 12 >= MOVE_PROMOTION) gain += unchecked(PIECE_VALUE[(move >> 12) - 2]) - unchecked(PIECE_VALUE[PAWN]);
  return gain;
}

/**
 * The screen's positions CHOOSE_HANDLES[0 … count) and its `records` scratch records from `stack`:
 * CHOOSE_OK, or CHOOSE_TOO_MANY / CHOOSE_BAD_HANDLE (a handle outside the arena or among them).
 */
function screenStatus(count: i32, stack: i32, records: i32): i32 {
  if (count < 0 || count > CHOOSE_MAX_POSITIONS) return CHOOSE_TOO_MANY;
  if (!stackFits(stack, records)) return CHOOSE_BAD_HANDLE;
  for (let i = 0; i < count; i++) {
    const h = unchecked(CHOOSE_HANDLES[i]);
    if (h < 0 || h >= positionCapacity() || (h >= stack && h < stack + records)) return CHOOSE_BAD_HANDLE;
  }
  return CHOOSE_OK;
}

/**
 * Attempt `attempt` of the side to move over positions CHOOSE_HANDLES[0 … count): in how many it
 * is a legal move (threatLegal) and in how many of those the opponent then has a reply that
 * checkmates the mover, or stalemates him where stalemate loses (threatMated; the replies stop
 * there); in how many the opponent is not in check and has no reply, or no king move and only
 * pawn moves, where stalemate does not lose (threatStalemated); in how many others he has a piece
 * and the attempt, not a check, leaves his king boxed (threatBoxed); the sum over the other positions
 * of the loss (above); the union of his king's squares after his replies (threatRegionLo/Hi, squares 0–31 and 32–63). threatReplies()
 * is the replies made. Uses records stack and stack + 1 (none of them a position of the list) and
 * move lists 1 … 3. Returns CHOOSE_OK or CHOOSE_BAD_HANDLE / CHOOSE_TOO_MANY.
 */
export function chooseThreats(count: i32, stack: i32, attempt: i32): i32 {
  const status = screenStatus(count, stack, 2);
  if (status != CHOOSE_OK) return status;
  threatLegal = 0;
  threatMated = 0;
  threatReplies = 0;
  threatStalemated = 0;
  threatLossSum = 0;
  threatRegionLo = 0;
  threatRegionHi = 0;
  threatDrawnNow = 0;
  threatDrawnReply = 0;
  threatRoomSum = 0;
  threatLostCount = 0;
  threatBothSum = 0;
  threatBoxed = 0;
  for (let i = 0; i < count; i++) {
    const h = unchecked(CHOOSE_HANDLES[i]);
    unchecked((THREAT_AFTER[i * 3 + 2] = -1));
    const n = generateMoves(h, THREAT_OWN);
    let move = -1;
    for (let m = 0; m < n; m++) {
      const candidate = unchecked(MOVES[THREAT_OWN + m]);
      if (attemptOf(candidate) == attempt) {
        move = candidate;
        break;
      }
    }
    if (move < 0) continue;
    threatLegal++;
    const us = unchecked(POSITIONS[(h << POSITION_SHIFT) + W_SIDE]);
    const took = gainedBy(h << POSITION_SHIFT, move);
    makeMove(h, move, stack);
    const base = stack << POSITION_SHIFT;
    unchecked((THREAT_AFTER[i * 3] = unchecked(POSITIONS[base + W_KEY_LO])));
    unchecked((THREAT_AFTER[i * 3 + 1] = unchecked(POSITIONS[base + W_KEY_HI])));
    unchecked((THREAT_AFTER[i * 3 + 2] = unchecked(POSITIONS[base + W_HALFMOVE])));
    if (isDrawn(stack)) {
      threatDrawnNow++; // the game is over: nothing he replies matters
      continue;
    }
    threatRoomSum += roomOf(base, us);
    const replies = generateMoves(stack, THREAT_REPLIES);
    // a stalemate, or his king stuck and only pawns to move: a stalemate where his pawns are blocked
    // (the position screened may have them free where the true one does not)
    let kingMoves = false;
    let otherMoves = false;
    for (let r = 0; r < replies; r++) {
      const mover = pieceAt(base, unchecked(MOVES[THREAT_REPLIES + r]) & 63) & 7;
      if (mover == KING) kingMoves = true;
      else if (mover != PAWN) otherMoves = true;
    }
    if (rule(RULE_STALEMATE_LOSES) == 0 && ((!kingMoves && !otherMoves && !inCheck(base)) || stuckNear(base, us)))
      threatStalemated++;
    else if (rule(RULE_STALEMATE_LOSES) == 0 && hasPieces(base, us ^ 1) && !inCheck(base) && boxed(base, us))
      threatBoxed++; // a stalemate if his pieces are the pool's phantoms
    let lost = false;
    let drawn = false;
    const own = (move >> 6) & 63; // where the moved man stands (a castling king cannot be taken)
    let ownLoss = 0;
    let otherLoss = 0;
    let regionLo = 0;
    let regionHi = 0;
    for (let r = 0; r < replies; r++) {
      const reply = unchecked(MOVES[THREAT_REPLIES + r]);
      const to = (reply >> 6) & 63;
      makeMove(stack, reply, stack + 1);
      threatReplies++;
      if (lostHere(stack + 1)) {
        threatMated++;
        lost = true;
        break;
      }
      if (isDrawn(stack + 1)) drawn = true;
      const king = kingSquare((stack + 1) << POSITION_SHIFT, us ^ 1);
      if (king < 32) regionLo |= 1 << king;
      else regionHi |= 1 << (king - 32);
      // what he takes, and a promotion's piece less its pawn (the screen's positions hold his pawns
      // where the few searched do not: krieg v HS, his passed pawns promoted beside krieg's idle rooks)
      let gain = gainedBy(base, reply);
      if (gain > 0) {
        // a one-step exchange: the man on `to` (the taker, or the piece he promoted to) taken back
        const standing = pieceAt((stack + 1) << POSITION_SHIFT, to) & 7;
        if (isAttacked((stack + 1) << POSITION_SHIFT, to, us)) gain -= unchecked(PIECE_VALUE[standing]);
        if (to == own) {
          if (gain > ownLoss) ownLoss = gain;
        } else if (gain > otherLoss) otherLoss = gain;
      }
    }
    if (lost) continue;
    // a pawn of his a step behind that (the pool's pawns lag the true ones by a step or two)
    const race = pawnRaceGain(base, us);
    if (race > otherLoss) otherLoss = race;
    if (drawn) threatDrawnReply++;
    threatRegionLo |= regionLo;
    threatRegionHi |= regionHi;
    if (ownLoss > took) threatLostCount++;
    const best = ownLoss > otherLoss ? ownLoss : otherLoss;
    if (best > took) threatLossSum += best - took;
    if (ownLoss + otherLoss > took) threatBothSum += ownLoss + otherLoss - took;
  }
  return CHOOSE_OK;
}

// ---- the screen's mates ----

/** The attempts chooseMates counts for (MATE_ATTEMPTS[0 … n)). */
export const MATE_ATTEMPTS = new Int32Array(MAX_MOVES);
/**
 * MATE_COUNTS[3i], [3i + 1], [3i + 2]: the positions of the last chooseMates where attempt i is
 * legal, where it mates, where it checks and every reply of his leaves a mate in one (`inTwo`).
 */
export const MATE_COUNTS = new Int32Array(MAX_MOVES * 3);
/** A non-promotion attempt's index in MATE_ATTEMPTS (−1: none), by its 12 bits. */
const MATE_SLOT = new Int32Array(4096);
const MATE_REPLIES: i32 = listOffset(4);
const MATE_FOLLOW: i32 = listOffset(5);

/**
 * Over positions CHOOSE_HANDLES[0 … count), for each of the `n` attempts MATE_ATTEMPTS[0 … n):
 * in how many it is a legal move, and in how many of those it checkmates the opponent (or
 * stalemates him where stalemate loses) — MATE_COUNTS. One move each, no search: the threat
 * screen's many positions then tell how likely an attempt is to mate, not only the few the turn
 * searched. With `inTwo` also where it checks without mating and each of his replies leaves the
 * mover a mate in one (mateAfterEachReply): a check is what narrows his replies, and the next
 * turn's screen finds the mate. Uses records `stack` … `stack` + 2 and move lists 1, 3, 4 and 5.
 * CHOOSE_OK, or CHOOSE_BAD_HANDLE / CHOOSE_TOO_MANY.
 */
export function chooseMates(count: i32, n: i32, stack: i32, inTwo: i32): i32 {
  if (n < 0 || n > MAX_MOVES) return CHOOSE_TOO_MANY;
  const status = screenStatus(count, stack, inTwo != 0 ? 3 : 1);
  if (status != CHOOSE_OK) return status;
  MATE_SLOT.fill(-1);
  for (let i = 0; i < n; i++) {
    unchecked((MATE_COUNTS[i * 3] = 0));
    unchecked((MATE_COUNTS[i * 3 + 1] = 0));
    unchecked((MATE_COUNTS[i * 3 + 2] = 0));
    const attempt = unchecked(MATE_ATTEMPTS[i]);
    if (attempt >> 12 < MOVE_PROMOTION) unchecked((MATE_SLOT[attempt & 0xfff] = i));
  }
  for (let i = 0; i < count; i++) {
    const h = unchecked(CHOOSE_HANDLES[i]);
    const moves = generateMoves(h, THREAT_OWN);
    for (let m = 0; m < moves; m++) {
      const move = unchecked(MOVES[THREAT_OWN + m]);
      const attempt = attemptOf(move);
      let slot = -1;
      if (attempt >> 12 < MOVE_PROMOTION) slot = unchecked(MATE_SLOT[attempt & 0xfff]);
      else for (let j = 0; j < n; j++) if (unchecked(MATE_ATTEMPTS[j]) == attempt) slot = j;
      if (slot < 0) continue;
      unchecked(MATE_COUNTS[slot * 3]++);
      makeMove(h, move, stack);
      if (lostHere(stack)) unchecked(MATE_COUNTS[slot * 3 + 1]++);
      else if (inTwo != 0 && inCheck(stack << POSITION_SHIFT) && mateAfterEachReply(stack))
        unchecked(MATE_COUNTS[slot * 3 + 2]++);
    }
  }
  return CHOOSE_OK;
}

/** In position `h` (his move, in check, not mated): does each of his replies leave the mover a mate in one? Records `h` + 1, `h` + 2. */
function mateAfterEachReply(h: i32): bool {
  const replies = generateMoves(h, MATE_REPLIES);
  for (let r = 0; r < replies; r++) {
    makeMove(h, unchecked(MOVES[MATE_REPLIES + r]), h + 1);
    const follow = generateMoves(h + 1, MATE_FOLLOW);
    let mates = false;
    for (let f = 0; f < follow && !mates; f++) {
      makeMove(h + 1, unchecked(MOVES[MATE_FOLLOW + f]), h + 2);
      mates = lostHere(h + 2);
    }
    if (!mates) return false;
  }
  return replies > 0;
}

export function threatLegalCount(): i32 {
  return threatLegal;
}
export function threatMatedCount(): i32 {
  return threatMated;
}
export function threatReplyCount(): i32 {
  return threatReplies;
}
export function threatStalematedCount(): i32 {
  return threatStalemated;
}
export function threatLoss(): i32 {
  return threatLossSum;
}
export function threatRegionLow(): i32 {
  return threatRegionLo;
}
export function threatRegionHigh(): i32 {
  return threatRegionHi;
}
/** Positions of the last chooseThreats where the attempt ends the game drawn (material, fifty moves). */
export function threatDrawnNowCount(): i32 {
  return threatDrawnNow;
}
/** Positions of the last chooseThreats where the opponent then has a reply that ends it drawn. */
export function threatDrawnReplyCount(): i32 {
  return threatDrawnReply;
}
/** The room of his king summed over the positions of the last chooseThreats where the attempt is legal and does not draw. */
export function threatRoom(): i32 {
  return threatRoomSum;
}
/** Positions of the last chooseThreats where the moved man can then be taken at a loss (its own risk above what the attempt took; not mated). */
export function threatLost(): i32 {
  return threatLostCount;
}
/** Positions of the last chooseThreats where the attempt leaves his king boxed while a piece of his may move (boxed above; not counted as stalemated). */
export function threatBoxedCount(): i32 {
  return threatBoxed;
}
/** The loss of the last chooseThreats with both captures added (the moved man's and the best elsewhere), summed as threatLoss. */
export function threatLossBoth(): i32 {
  return threatBothSum;
}

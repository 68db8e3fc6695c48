// The static evaluation of the fully observable search (search.ts), Parker, Nau & Subrahmanian's
// Evaluate-board: material, piece-square tables, mobility and king safety, blended between a
// middlegame and an endgame weight by the material left (a "tapered" evaluation), plus a mop-up
// term that drives a lone king to the edge so the search can convert a won ending within its
// horizon. Values are centipawns for the side to move; integer arithmetic only, so both builds
// agree exactly (every division is truncated with i32(), which the JS build needs).
//
// Tables are written as a board is printed (rank 8 first, a-file left) for White; a White piece
// on `sq` reads entry sq ^ 56, a Black piece entry sq (the board mirrored).

import { WHITE, BLACK, popcount64, lowestSquare } from '../chess/bitboard';
import { KNIGHT_ATTACKS, KING_ATTACKS, rookIndex, bishopIndex, rookTableWord, bishopTableWord } from '../chess/attacks';
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
  QUEEN,
  KING,
  kingSquare,
} from '../chess/position';

/** Piece values (centipawns) by type: PAWN … KING (the king's is never counted). */
export const PIECE_VALUE: i32[] = [0, 100, 320, 330, 500, 900, 0];

// Game phase: how much non-pawn material is left (24 at the start); the middlegame weight.
const PHASE_WEIGHT: i32[] = [0, 0, 1, 1, 2, 4, 0];
const PHASE_TOTAL: i32 = 24;

const PAWN_TABLE: i32[] = [
  0, 0, 0, 0, 0, 0, 0, 0, 50, 50, 50, 50, 50, 50, 50, 50, 10, 10, 20, 30, 30, 20, 10, 10, 5, 5, 10, 25, 25, 10, 5, 5, 0,
  0, 0, 20, 20, 0, 0, 0, 5, -5, -10, 0, 0, -10, -5, 5, 5, 10, 10, -20, -20, 10, 10, 5, 0, 0, 0, 0, 0, 0, 0, 0,
];
const KNIGHT_TABLE: i32[] = [
  -50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0, 0, 0, 0, -20, -40, -30, 0, 10, 15, 15, 10, 0, -30, -30, 5, 15,
  20, 20, 15, 5, -30, -30, 0, 15, 20, 20, 15, 0, -30, -30, 5, 10, 15, 15, 10, 5, -30, -40, -20, 0, 5, 5, 0, -20, -40,
  -50, -40, -30, -30, -30, -30, -40, -50,
];
const BISHOP_TABLE: i32[] = [
  -20, -10, -10, -10, -10, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10, -10, 0, 5, 10, 10, 5, 0, -10, -10, 5, 5, 10, 10,
  5, 5, -10, -10, 0, 10, 10, 10, 10, 0, -10, -10, 10, 10, 10, 10, 10, 10, -10, -10, 5, 0, 0, 0, 0, 5, -10, -20, -10,
  -10, -10, -10, -10, -10, -20,
];
const ROOK_TABLE: i32[] = [
  0, 0, 0, 0, 0, 0, 0, 0, 5, 10, 10, 10, 10, 10, 10, 5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0,
  0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, 0, 0, 0, 5, 5, 0, 0, 0,
];
const QUEEN_TABLE: i32[] = [
  -20, -10, -10, -5, -5, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10, -10, 0, 5, 5, 5, 5, 0, -10, -5, 0, 5, 5, 5, 5, 0,
  -5, 0, 0, 5, 5, 5, 5, 0, -5, -10, 5, 5, 5, 5, 5, 0, -10, -10, 0, 5, 0, 0, 0, 0, -10, -20, -10, -10, -5, -5, -10, -10,
  -20,
];
const KING_MIDDLE_TABLE: i32[] = [
  -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40,
  -30, -30, -40, -40, -50, -50, -40, -40, -30, -20, -30, -30, -40, -40, -30, -30, -20, -10, -20, -20, -20, -20, -20,
  -20, -10, 20, 20, 0, 0, 0, 0, 20, 20, 20, 30, 10, 0, 0, 10, 30, 20,
];
const KING_END_TABLE: i32[] = [
  -50, -40, -30, -20, -20, -30, -40, -50, -30, -20, -10, 0, 0, -10, -20, -30, -30, -10, 20, 30, 30, 20, -10, -30, -30,
  -10, 30, 40, 40, 30, -10, -30, -30, -10, 30, 40, 40, 30, -10, -30, -30, -10, 20, 30, 30, 20, -10, -30, -30, -30, 0, 0,
  0, 0, -30, -30, -50, -30, -30, -30, -30, -30, -30, -50,
];

/** A passed pawn's bonus by its rank counted from its own side (middlegame half of it). */
const PASSED_BONUS: i32[] = [0, 5, 10, 20, 35, 60, 100, 0];
const BISHOP_PAIR: i32 = 30;
// Mobility: per attacked square not holding an own piece, around a typical count.
const KNIGHT_MOBILITY: i32 = 4;
const BISHOP_MOBILITY: i32 = 5;
const ROOK_MOBILITY: i32 = 3;
const QUEEN_MOBILITY: i32 = 1;
// King safety (middlegame): attack units per enemy attack on the king's zone (the king's square
// and its neighbours), by attacker; the penalty grows with their square.
const ZONE_UNITS: i32[] = [0, 1, 2, 2, 3, 5, 0];
const SHIELD_NEAR: i32 = 12;
const SHIELD_FAR: i32 = 6;
const SHIELD_MISSING: i32 = 12;

/** Piece value plus table entry by (type * 64 + index): middlegame and endgame (filled once). */
const MIDDLE_TABLE = new Int32Array(7 * 64);
const END_TABLE = new Int32Array(7 * 64);

/**
 * PASSED_MASK[(color * 64 + sq) * 2]: the squares in front of a pawn of `color` on `sq`, on its file
 * and the two beside it; no enemy pawn there makes it passed.
 */
const PASSED_MASK = new Int32Array(2 * 64 * 2);
let tablesReady = false;

function initEvaluation(): void {
  tablesReady = true;
  for (let type = PAWN; type <= KING; type++) {
    for (let index = 0; index < 64; index++) {
      MIDDLE_TABLE[type * 64 + index] = PIECE_VALUE[type] + tableValue(type, index, false);
      END_TABLE[type * 64 + index] = PIECE_VALUE[type] + tableValue(type, index, true);
    }
  }
  for (let color = 0; color < 2; color++) {
    for (let sq = 0; sq < 64; sq++) {
      const file = sq & 7;
      const rank = sq >> 3;
      let lo = 0;
      let hi = 0;
      for (let r = 0; r < 8; r++) {
        if (color == WHITE ? r <= rank : r >= rank) continue;
        for (let f = file - 1; f <= file + 1; f++) {
          if (f < 0 || f > 7) continue;
          const s = r * 8 + f;
          if (s < 32) lo |= 1 << s;
          else hi |= 1 << (s - 32);
        }
      }
      PASSED_MASK[(color * 64 + sq) << 1] = lo;
      PASSED_MASK[((color * 64 + sq) << 1) + 1] = hi;
    }
  }
}

function tableValue(type: i32, index: i32, endgame: bool): i32 {
  if (type == PAWN) return unchecked(PAWN_TABLE[index]);
  if (type == KNIGHT) return unchecked(KNIGHT_TABLE[index]);
  if (type == BISHOP) return unchecked(BISHOP_TABLE[index]);
  if (type == ROOK) return unchecked(ROOK_TABLE[index]);
  if (type == QUEEN) return unchecked(QUEEN_TABLE[index]);
  return endgame ? unchecked(KING_END_TABLE[index]) : unchecked(KING_MIDDLE_TABLE[index]);
}

// Accumulators of one evaluation, per colour (functions cannot return pairs).
const MIDDLE = new Int32Array(2);
const END = new Int32Array(2);
const ZONE_ATTACKS = new Int32Array(2); // attack units on the other side's king zone

/** King steps between two squares (the Chebyshev distance). */
export function distance(a: i32, b: i32): i32 {
  const files = abs((a & 7) - (b & 7));
  const ranks = abs((a >> 3) - (b >> 3));
  return files > ranks ? files : ranks;
}

/** Manhattan distance of `sq` from the four centre squares (0 … 6). */
function centreDistance(sq: i32): i32 {
  const f = sq & 7;
  const r = sq >> 3;
  return (f < 4 ? 3 - f : f - 4) + (r < 4 ? 3 - r : r - 4);
}

/** Pawn shield of `color`'s king (middlegame): own pawns one and two ranks in front, on its file and the neighbours. */
function pawnShield(base: i32, color: i32, ksq: i32): i32 {
  const rank = color == WHITE ? ksq >> 3 : 7 - (ksq >> 3);
  if (rank > 1) return 0; // a king that left its back ranks has no shield to keep
  const pw = base + W_TYPE + (PAWN << 1);
  const c = base + W_COLOR + (color << 1);
  const pawnsLo = unchecked(POSITIONS[pw]) & unchecked(POSITIONS[c]);
  const pawnsHi = unchecked(POSITIONS[pw + 1]) & unchecked(POSITIONS[c + 1]);
  const up = color == WHITE ? 8 : -8;
  let score = 0;
  const kf = ksq & 7;
  for (let f = kf - 1; f <= kf + 1; f++) {
    if (f < 0 || f > 7) continue;
    const near = ksq - kf + f + up;
    const far = near + up;
    if (near >= 0 && near < 64 && ((near < 32 ? pawnsLo >>> near : pawnsHi >>> (near - 32)) & 1) != 0)
      score += SHIELD_NEAR;
    else if (far >= 0 && far < 64 && ((far < 32 ? pawnsLo >>> far : pawnsHi >>> (far - 32)) & 1) != 0)
      score += SHIELD_FAR;
    else score -= SHIELD_MISSING;
  }
  return score;
}

/** Adds `color`'s pieces of one type: tables, mobility, attacks on the enemy king's zone, passed pawns. */
function addPieces(base: i32, color: i32, type: i32, occLo: i32, occHi: i32, zoneLo: i32, zoneHi: i32): void {
  const c = base + W_COLOR + (color << 1);
  const ownLo = unchecked(POSITIONS[c]);
  const ownHi = unchecked(POSITIONS[c + 1]);
  const w = base + W_TYPE + (type << 1);
  let lo = unchecked(POSITIONS[w]) & ownLo;
  let hi = unchecked(POSITIONS[w + 1]) & ownHi;
  const flip = color == WHITE ? 56 : 0;
  const row = type * 64;
  const enemyPawns = base + W_TYPE + (PAWN << 1);
  const t = base + W_COLOR + ((color ^ 1) << 1);
  while ((lo | hi) != 0) {
    const sq = lowestSquare(lo, hi);
    if (lo != 0) lo &= lo - 1;
    else hi &= hi - 1;
    const index = sq ^ flip;
    let middle = unchecked(MIDDLE_TABLE[row + index]);
    let end = unchecked(END_TABLE[row + index]);
    if (type == PAWN) {
      const m = (color * 64 + sq) << 1;
      if (
        (unchecked(PASSED_MASK[m]) & unchecked(POSITIONS[enemyPawns]) & unchecked(POSITIONS[t])) == 0 &&
        (unchecked(PASSED_MASK[m + 1]) & unchecked(POSITIONS[enemyPawns + 1]) & unchecked(POSITIONS[t + 1])) == 0
      ) {
        const bonus = unchecked(PASSED_BONUS[color == WHITE ? sq >> 3 : 7 - (sq >> 3)]);
        middle += bonus >> 1;
        end += bonus;
      }
    } else if (type != KING) {
      let aLo: i32 = 0;
      let aHi: i32 = 0;
      if (type == KNIGHT) {
        aLo = unchecked(KNIGHT_ATTACKS[sq << 1]);
        aHi = unchecked(KNIGHT_ATTACKS[(sq << 1) + 1]);
      } else {
        if (type != ROOK) {
          const b = bishopIndex(sq, occLo, occHi);
          aLo = bishopTableWord(b);
          aHi = bishopTableWord(b + 1);
        }
        if (type != BISHOP) {
          const r = rookIndex(sq, occLo, occHi);
          aLo |= rookTableWord(r);
          aHi |= rookTableWord(r + 1);
        }
      }
      const moves = popcount64(aLo & ~ownLo, aHi & ~ownHi);
      if (type == KNIGHT) {
        middle += KNIGHT_MOBILITY * (moves - 4);
        end += KNIGHT_MOBILITY * (moves - 4);
      } else if (type == BISHOP) {
        middle += BISHOP_MOBILITY * (moves - 7);
        end += BISHOP_MOBILITY * (moves - 7);
      } else if (type == ROOK) {
        middle += ROOK_MOBILITY * (moves - 7);
        end += (ROOK_MOBILITY + 1) * (moves - 7);
      } else {
        middle += QUEEN_MOBILITY * (moves - 14);
        end += (QUEEN_MOBILITY + 1) * (moves - 14);
      }
      const zone = popcount64(aLo & zoneLo, aHi & zoneHi);
      unchecked((ZONE_ATTACKS[color] += zone * unchecked(ZONE_UNITS[type])));
    }
    unchecked((MIDDLE[color] += middle));
    unchecked((END[color] += end));
  }
}

/** Pieces per colour and type of the position being evaluated: COUNTS[color * 8 + type]. */
const COUNTS = new Int32Array(16);

function countPieces(base: i32): void {
  for (let color = 0; color < 2; color++) {
    const c = base + W_COLOR + (color << 1);
    const ownLo = unchecked(POSITIONS[c]);
    const ownHi = unchecked(POSITIONS[c + 1]);
    for (let type = PAWN; type <= QUEEN; type++) {
      const w = base + W_TYPE + (type << 1);
      unchecked(
        (COUNTS[(color << 3) + type] = popcount64(
          unchecked(POSITIONS[w]) & ownLo,
          unchecked(POSITIONS[w + 1]) & ownHi,
        )),
      );
    }
  }
}

/** Non-pawn material of `color` (centipawns), from COUNTS. */
function pieceMaterial(color: i32): i32 {
  const c = color << 3;
  return (
    320 * unchecked(COUNTS[c + KNIGHT]) +
    330 * unchecked(COUNTS[c + BISHOP]) +
    500 * unchecked(COUNTS[c + ROOK]) +
    900 * unchecked(COUNTS[c + QUEEN])
  );
}

/** The static evaluation of position `h` in centipawns, for the side to move. */
export function evaluate(h: i32): i32 {
  if (!tablesReady) initEvaluation();
  const base = h << POSITION_SHIFT;
  const occLo = unchecked(POSITIONS[base]) | unchecked(POSITIONS[base + 2]);
  const occHi = unchecked(POSITIONS[base + 1]) | unchecked(POSITIONS[base + 3]);
  const whiteKing = kingSquare(base, WHITE);
  const blackKing = kingSquare(base, BLACK);
  unchecked((MIDDLE[0] = 0));
  unchecked((MIDDLE[1] = 0));
  unchecked((END[0] = 0));
  unchecked((END[1] = 0));
  unchecked((ZONE_ATTACKS[0] = 0));
  unchecked((ZONE_ATTACKS[1] = 0));
  countPieces(base);
  let phase = 0;
  for (let color = 0; color < 2; color++) {
    // the zone of the enemy king: its square and its neighbours
    const enemyKing = color == WHITE ? blackKing : whiteKing;
    const zoneLo = unchecked(KING_ATTACKS[enemyKing << 1]) | (enemyKing < 32 ? 1 << enemyKing : 0);
    const zoneHi = unchecked(KING_ATTACKS[(enemyKing << 1) + 1]) | (enemyKing >= 32 ? 1 << (enemyKing - 32) : 0);
    for (let type = PAWN; type <= KING; type++) {
      if (type == KING || unchecked(COUNTS[(color << 3) + type]) != 0)
        addPieces(base, color, type, occLo, occHi, zoneLo, zoneHi);
      if (type != KING && type != PAWN) phase += unchecked(PHASE_WEIGHT[type]) * unchecked(COUNTS[(color << 3) + type]);
    }
    if (unchecked(COUNTS[(color << 3) + BISHOP]) >= 2) {
      unchecked((MIDDLE[color] += BISHOP_PAIR));
      unchecked((END[color] += BISHOP_PAIR));
    }
  }
  if (phase > PHASE_TOTAL) phase = PHASE_TOTAL;
  // king safety: the attack units on a king's zone, squared; and its pawn shield
  for (let color = 0; color < 2; color++) {
    const units = unchecked(ZONE_ATTACKS[color ^ 1]);
    const danger = units * units < 2000 ? units * units : 2000;
    unchecked((MIDDLE[color] += pawnShield(base, color, color == WHITE ? whiteKing : blackKing) - (danger >> 2)));
  }
  let middle = unchecked(MIDDLE[0]) - unchecked(MIDDLE[1]);
  let end = unchecked(END[0]) - unchecked(END[1]);
  // mop-up: the side ahead by at least a minor piece against a side without pawns drives the other
  // king to the edge and brings its own king close (what mating a lone king needs)
  const whiteMaterial = pieceMaterial(WHITE);
  const blackMaterial = pieceMaterial(BLACK);
  if (whiteMaterial >= blackMaterial + 300 && unchecked(COUNTS[8 + PAWN]) == 0) {
    end += 10 * centreDistance(blackKing) + 4 * (7 - distance(whiteKing, blackKing));
  } else if (blackMaterial >= whiteMaterial + 300 && unchecked(COUNTS[PAWN]) == 0) {
    end -= 10 * centreDistance(whiteKing) + 4 * (7 - distance(whiteKing, blackKing));
  }
  const score = i32((middle * phase + end * (PHASE_TOTAL - phase)) / PHASE_TOTAL);
  return unchecked(POSITIONS[base + W_SIDE]) == WHITE ? score : -score;
}

// Attempt scores for the self-play programs that make the problem database (issue 7; SPEC §7).
// The host's players choose; the core does the per-position work: for each attempt of the side to
// move, over the positions [first, first + count) of a belief state (or a tracked part of one),
//   - in how many of them the attempt is legal,
//   - in how many it captures or gives check (Black's "captures and checks first"),
//   - with `lookahead`, White's evaluation summed over the positions where it is legal: the static
//     evaluation after the move and the opponent's best reply (a 2-ply search), or MATE_SCORE when
//     the move mates; and how many of them it mates in.
// Every attempt of the list generateAttempts(first) writes to ATTEMPTS gets a row of SCORES.
// scoreAttempts itself is a run of choose-move with these values (choose.ts).

import { popcount64 } from '../chess/bitboard';
import { KING_ATTACKS } from '../chess/attacks';
import {
  POSITIONS,
  POSITION_SHIFT,
  W_COLOR,
  W_TYPE,
  PAWN,
  KNIGHT,
  BISHOP,
  ROOK,
  QUEEN,
  makeMove,
  kingSquare,
  inCheck,
  isAttackedWith,
} from '../chess/position';
import { MOVES, MAX_MOVES, SEARCH_LISTS, listOffset, generateMoves } from '../chess/moveGen';
import { distance } from './evaluate';

export const SCORE_WORDS: i32 = 4;
export const S_LEGAL: i32 = 0;
export const S_TACTICAL: i32 = 1;
export const S_EVAL: i32 = 2;
export const S_MATES: i32 = 3;
export const SCORES = new Int32Array(MAX_MOVES * SCORE_WORDS);

/** The value of mating; the value (to the mover) of stalemating the opponent, a draw thrown away. */
export const MATE_SCORE: i32 = 20000;
export const STALEMATE_SCORE: i32 = -5000;

/** Per square the opponent's king may step to; per step between the kings; per step of that king from the edge. */
const KING_FREEDOM: i32 = 25;
const KING_DISTANCE: i32 = 10;
const KING_CENTRE: i32 = 10;

// the reply list: the last of the search lists (choose.ts lists the own moves in list 0, and
// the 2-ply evaluation runs no search)
const REPLY_MOVES: i32 = listOffset(SEARCH_LISTS - 1);

function count(base: i32, color: i32, type: i32): i32 {
  const c = base + W_COLOR + (color << 1);
  const w = base + W_TYPE + (type << 1);
  return popcount64(
    unchecked(POSITIONS[w]) & unchecked(POSITIONS[c]),
    unchecked(POSITIONS[w + 1]) & unchecked(POSITIONS[c + 1]),
  );
}

/** Material: pawn 100, knight and bishop 300, rook 500, queen 900. */
function material(base: i32, color: i32): i32 {
  return (
    100 * count(base, color, PAWN) +
    300 * (count(base, color, KNIGHT) + count(base, color, BISHOP)) +
    500 * count(base, color, ROOK) +
    900 * count(base, color, QUEEN)
  );
}

/** Steps from `sq` to the nearest edge (0 on the edge, 3 in the centre). */
function fromEdge(sq: i32): i32 {
  const f = sq & 7;
  const r = sq >> 3;
  return min(min(f, 7 - f), min(r, 7 - r));
}

/**
 * The static evaluation of position `h` for `us`: material, and an aggressive term that favours a
 * boxed-in enemy king (few safe squares next to it, close to our king, near the edge).
 */
function evaluate(h: i32, us: i32): i32 {
  const base = h << POSITION_SHIFT;
  const them = us ^ 1;
  const theirKing = kingSquare(base, them);
  const ourKing = kingSquare(base, us);
  // squares the enemy king could step to: not its own pieces, not attacked by us (its own square
  // taken off the occupancy, so a slider's line through it counts)
  const kingLo = theirKing < 32 ? 1 << theirKing : 0;
  const kingHi = theirKing >= 32 ? 1 << (theirKing - 32) : 0;
  const occLo = (unchecked(POSITIONS[base]) | unchecked(POSITIONS[base + 2])) & ~kingLo;
  const occHi = (unchecked(POSITIONS[base + 1]) | unchecked(POSITIONS[base + 3])) & ~kingHi;
  const ownC = base + W_COLOR + (them << 1);
  let lo = unchecked(KING_ATTACKS[theirKing << 1]) & ~unchecked(POSITIONS[ownC]);
  let hi = unchecked(KING_ATTACKS[(theirKing << 1) + 1]) & ~unchecked(POSITIONS[ownC + 1]);
  let free = 0;
  while ((lo | hi) != 0) {
    let sq: i32;
    if (lo != 0) {
      sq = i32(ctz<i32>(lo));
      lo &= lo - 1;
    } else {
      sq = 32 + i32(ctz<i32>(hi));
      hi &= hi - 1;
    }
    if (!isAttackedWith(base, sq, us, occLo, occHi, 0, 0)) free++;
  }
  return (
    material(base, us) -
    material(base, them) -
    KING_FREEDOM * free -
    KING_DISTANCE * distance(ourKing, theirKing) -
    KING_CENTRE * fromEdge(theirKing)
  );
}

/**
 * The value for `us` of position `h` (the opponent to move) after the opponent's best reply,
 * played into `reply`: MATE_SCORE when the opponent is mated, STALEMATE_SCORE when stalemated.
 */
export function valueAfterReply(h: i32, reply: i32, us: i32): i32 {
  const n = generateMoves(h, REPLY_MOVES);
  if (n == 0) return inCheck(h << POSITION_SHIFT) ? MATE_SCORE : STALEMATE_SCORE;
  let worst = MATE_SCORE;
  for (let i = 0; i < n; i++) {
    makeMove(h, unchecked(MOVES[REPLY_MOVES + i]), reply);
    const v = evaluate(reply, us);
    if (v < worst) worst = v;
  }
  return worst;
}

export function scoreBuffer(): Int32Array {
  return SCORES;
}

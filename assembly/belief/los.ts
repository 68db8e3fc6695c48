// Last-observation-consistent positions (Parker, Nau & Subrahmanian 2005, §2 "LOS"; SPEC §8): a
// random placement of the opponent's remaining material around the player's own pieces that agrees
// with what was heard since the last move — the check (and its directions) on the side to move, the
// square of the last capture (an opponent piece stands there when he captured), pawn tries and
// "Any?" answers, own attempts answered Illegal — but not necessarily with the rest of the view.
// Players that want more positions than their pool holds (HS) add them to their sample.
//
// The player's own pieces are known exactly from his view: OwnBoard follows them (his legal moves,
// the opponent's captures), with the opponent's material as far as captures tell it.
//
// OwnBoard state (OWN_STATE_WORDS words, for saving and rolling back):
// | word    | meaning                                                                     |
// |---------|-----------------------------------------------------------------------------|
// | 0 … 63  | the player's piece code on each square (0: none of his)                    |
// | 64      | his castling rights (position.ts bits)                                      |
// | 65      | his colour                                                                  |
// | 66 … 72 | the opponent's material at the start, by piece type (index = type)        |
// | 73      | opponent pawns captured (announced as pawns)                                |
// | 74      | opponent pieces captured (announced as pieces)                              |
// | 75      | opponent men captured whose kind was not announced                         |

import { WHITE, popcount64 } from '../chess/bitboard';
import {
  POSITIONS,
  POSITION_SHIFT,
  POSITION_WORDS,
  W_CASTLING,
  W_COLOR,
  W_TYPE,
  SETUP,
  loadSetup,
  pieceAt,
  PAWN,
  KING,
  MOVE_PROMOTION,
  CASTLE_WHITE_KING,
  CASTLE_WHITE_QUEEN,
  CASTLE_BLACK_KING,
  CASTLE_BLACK_QUEEN,
} from '../chess/position';
import { checkDirections } from '../chess/moveGen';
import { rule, RULE_EP_LANDING_SQUARE, RULE_CHECK_DIRECTIONS } from '../referee/rules';
import {
  PERCEPT_CAPTURE_SHIFT,
  PERCEPT_CAPTURED_PAWN,
  PERCEPT_CAPTURED_PIECE,
  PERCEPT_CHECK,
  PERCEPT_DIRECTIONS_SHIFT,
  ANSWER_LEGAL,
} from '../referee/referee';
import { randomBelow } from '../chess/random';
import { viewLength, eventType, eventWord, V_OWN_ATTEMPT, V_OPPONENT } from './view';
import { applyEvent } from './consistency';
import { SCRATCH_A, SCRATCH_B, SCRATCH_SPARE } from './descent';
import { Layer } from './layer';

export const OWN_STATE_WORDS: i32 = 76;
const O_CASTLING: i32 = 64;
const O_SIDE: i32 = 65;
const O_MATERIAL: i32 = 66;
const O_CAPTURED_PAWNS: i32 = 73;
const O_CAPTURED_PIECES: i32 = 74;
const O_CAPTURED_ANY: i32 = 75;

export class OwnBoard {
  state: Int32Array = new Int32Array(OWN_STATE_WORDS);

  /** The player `side`'s pieces and the opponent's material in POSITIONS record `h` (the start). */
  init(h: i32, side: i32): void {
    const s = this.state;
    s.fill(0);
    const base = h << POSITION_SHIFT;
    for (let sq = 0; sq < 64; sq++) {
      const code = pieceAt(base, sq);
      if (code == 0) continue;
      if (code >> 3 == side) unchecked((s[sq] = code));
      else unchecked((s[O_MATERIAL + (code & 7)] = unchecked(s[O_MATERIAL + (code & 7)]) + 1));
    }
    const rights = unchecked(POSITIONS[base + W_CASTLING]);
    unchecked(
      (s[O_CASTLING] =
        side == WHITE
          ? rights & (CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN)
          : rights & (CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN)),
    );
    unchecked((s[O_SIDE] = side));
  }

  /** His legal attempt `attempt` was played, heard as `percept`. */
  ownMove(attempt: i32, percept: i32): void {
    const s = this.state;
    const from = attempt & 63;
    const to = (attempt >> 6) & 63;
    const piece = unchecked(s[from]);
    const kind = attempt >> 12;
    unchecked((s[from] = 0));
    unchecked((s[to] = kind >= MOVE_PROMOTION ? (kind - 2) | (piece & 8) : piece));
    if ((piece & 7) == KING && (from - to == 2 || to - from == 2)) {
      const rookFrom = (to & 7) == 6 ? to + 1 : to - 2;
      const rookTo = (to & 7) == 6 ? to - 1 : to + 1;
      unchecked((s[rookTo] = unchecked(s[rookFrom])));
      unchecked((s[rookFrom] = 0));
    }
    this.dropRights(from);
    if (((percept >> PERCEPT_CAPTURE_SHIFT) & 127) != 0) {
      const at =
        (percept & PERCEPT_CAPTURED_PAWN) != 0
          ? O_CAPTURED_PAWNS
          : (percept & PERCEPT_CAPTURED_PIECE) != 0
            ? O_CAPTURED_PIECES
            : O_CAPTURED_ANY;
      unchecked((s[at] = unchecked(s[at]) + 1));
    }
  }

  /** The opponent's move was heard as `percept`: a capture takes one of the player's men. */
  opponentMove(percept: i32): void {
    const square = ((percept >> PERCEPT_CAPTURE_SHIFT) & 127) - 1;
    if (square < 0) return;
    const s = this.state;
    let victim = square;
    // en passant announced on the landing square: the pawn taken stands behind it
    if (unchecked(s[square]) == 0 && rule(RULE_EP_LANDING_SQUARE) != 0)
      victim = square + (unchecked(s[O_SIDE]) == WHITE ? 8 : -8);
    if (victim >= 0 && victim < 64) unchecked((s[victim] = 0));
    this.dropRights(victim);
  }

  /** Castling rights lost when a king or rook leaves (or a rook is taken on) `square`. */
  private dropRights(square: i32): void {
    const s = this.state;
    let rights = unchecked(s[O_CASTLING]);
    if (square == 4) rights &= ~(CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN);
    if (square == 60) rights &= ~(CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN);
    if (square == 0) rights &= ~CASTLE_WHITE_QUEEN;
    if (square == 7) rights &= ~CASTLE_WHITE_KING;
    if (square == 56) rights &= ~CASTLE_BLACK_QUEEN;
    if (square == 63) rights &= ~CASTLE_BLACK_KING;
    unchecked((s[O_CASTLING] = rights));
  }

  side(): i32 {
    return unchecked(this.state[O_SIDE]);
  }
}

// ---- LOS positions ----

const MATERIAL = new Int32Array(7);

/** The opponent's material (by type into MATERIAL) in entry `i` of `pool`. */
function materialOf(pool: Layer, i: i32, them: i32): void {
  const base = (i + 1) << POSITION_SHIFT;
  const records = pool.records;
  const lo = unchecked(records[base + W_COLOR + (them << 1)]);
  const hi = unchecked(records[base + W_COLOR + (them << 1) + 1]);
  for (let type = PAWN; type <= KING; type++) {
    unchecked(
      (MATERIAL[type] = popcount64(
        unchecked(records[base + W_TYPE + (type << 1)]) & lo,
        unchecked(records[base + W_TYPE + (type << 1) + 1]) & hi,
      )),
    );
  }
}

/** Removes one man of a random type among `from`…`to` still present (nothing if none is). */
function removeRandom(from: i32, to: i32): void {
  let total = 0;
  for (let t = from; t <= to; t++) total += unchecked(MATERIAL[t]);
  if (total == 0) return;
  let pick = randomBelow(total);
  for (let t = from; t <= to; t++) {
    if (pick < unchecked(MATERIAL[t])) {
      unchecked((MATERIAL[t] = unchecked(MATERIAL[t]) - 1));
      return;
    }
    pick -= unchecked(MATERIAL[t]);
  }
}

/** A random empty square of SETUP (for a pawn: not on the first or last rank). */
function emptySquare(pawn: bool): i32 {
  for (;;) {
    const sq = randomBelow(64);
    if (unchecked(SETUP[sq]) != 0) continue;
    if (pawn && (sq < 8 || sq >= 56)) continue;
    return sq;
  }
}

/**
 * Up to `k` LOS positions into POSITIONS records first … first + k - 1, trying at most `tries`
 * placements; returns how many. `pool` (may be empty) lends the opponent's material: a random
 * entry's, else the start's less what was captured. The view (lent, view.ts) ends with the events
 * heard; `fullmove` is the move number now.
 */
export function losPositions(own: OwnBoard, pool: Layer, k: i32, first: i32, tries: i32, fullmove: i32): i32 {
  const s = own.state;
  const us = own.side();
  const them = us ^ 1;
  // the last move heard and the events after it
  let lastMove = -1;
  for (let e = viewLength() - 1; e >= 0 && lastMove < 0; e--) {
    const type = eventType(e);
    if (type == V_OPPONENT && eventWord(e, 2) >= 0) lastMove = e;
    if (type == V_OWN_ATTEMPT && (eventWord(e, 2) & 3) == ANSWER_LEGAL) lastMove = e;
  }
  const opponentMoved = lastMove >= 0 && eventType(lastMove) == V_OPPONENT;
  const lastPercept = lastMove >= 0 ? eventWord(lastMove, 2) : 0;
  const captureSquare = opponentMoved ? ((lastPercept >> PERCEPT_CAPTURE_SHIFT) & 127) - 1 : -1;
  let toMove = us;
  if (lastMove >= 0) toMove = opponentMoved ? us : them;
  let made = 0;
  for (let attempt = 0; attempt < tries && made < k; attempt++) {
    // the material
    if (pool.count > 0) materialOf(pool, randomBelow(pool.count), them);
    else {
      for (let t = PAWN; t <= KING; t++) unchecked((MATERIAL[t] = unchecked(s[O_MATERIAL + t])));
      for (let i = unchecked(s[O_CAPTURED_PAWNS]); i > 0; i--) removeRandom(PAWN, PAWN);
      for (let i = unchecked(s[O_CAPTURED_PIECES]); i > 0; i--) removeRandom(PAWN + 1, KING - 1);
      for (let i = unchecked(s[O_CAPTURED_ANY]); i > 0; i--) removeRandom(PAWN, KING - 1);
    }
    // the placement: own men, the capturer on the capture square, the king, the rest
    for (let sq = 0; sq < 64; sq++) unchecked((SETUP[sq] = unchecked(s[sq])));
    const colour = them << 3;
    if (captureSquare >= 0 && unchecked(SETUP[captureSquare]) == 0) {
      // he captured there: one of his men stands on it (any kind; the kind announced is the victim's)
      const lowest = captureSquare >= 8 && captureSquare < 56 ? PAWN : PAWN + 1;
      let total = 1; // the king
      for (let t = lowest; t < KING; t++) total += unchecked(MATERIAL[t]);
      let pick = randomBelow(total);
      let type = KING;
      for (let t = lowest; t < KING && type == KING; t++) {
        if (pick < unchecked(MATERIAL[t])) type = t;
        else pick -= unchecked(MATERIAL[t]);
      }
      unchecked((SETUP[captureSquare] = type | colour));
      unchecked((MATERIAL[type] = unchecked(MATERIAL[type]) - 1));
    }
    if (unchecked(MATERIAL[KING]) > 0) {
      unchecked((SETUP[emptySquare(false)] = KING | colour));
      unchecked((MATERIAL[KING] = 0));
    }
    for (let t = PAWN; t < KING; t++) {
      for (let i = unchecked(MATERIAL[t]); i > 0; i--) unchecked((SETUP[emptySquare(t == PAWN)] = t | colour));
    }
    unchecked((SETUP[64] = toMove));
    unchecked((SETUP[65] = unchecked(s[O_CASTLING])));
    unchecked((SETUP[66] = -1));
    unchecked((SETUP[67] = 0));
    unchecked((SETUP[68] = max(1, fullmove)));
    if (loadSetup(SCRATCH_SPARE) != 0) continue;
    // the check heard after the last move
    if (lastMove >= 0) {
      const directions = checkDirections(SCRATCH_SPARE);
      if ((directions != 0) != ((lastPercept & PERCEPT_CHECK) != 0)) continue;
      if (rule(RULE_CHECK_DIRECTIONS) != 0 && directions != ((lastPercept >> PERCEPT_DIRECTIONS_SHIFT) & 31)) continue;
    }
    // what was heard since
    let h = SCRATCH_SPARE;
    for (let e = lastMove + 1; e < viewLength() && h >= 0; e++)
      h = applyEvent(h, e, h == SCRATCH_A ? SCRATCH_B : SCRATCH_A, -1);
    if (h < 0) continue;
    const d = (first + made) << POSITION_SHIFT;
    const src = h << POSITION_SHIFT;
    for (let w = 0; w < POSITION_WORDS; w++) unchecked((POSITIONS[d + w] = unchecked(POSITIONS[src + w])));
    made++;
  }
  return made;
}

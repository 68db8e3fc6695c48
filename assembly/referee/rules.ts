// A Kriegspiel rule set, as flags: every variant is one referee with different switches, never a
// separate code path. The host fills RULES (host/record/rules.ts holds the named presets and the
// documentation of each choice) and calls applyRules().
//
// RULES layout (one Int32 per flag):
// | index | flag                | values                                                            |
// |-------|---------------------|-------------------------------------------------------------------|
// | 0     | illegal heard by    | 0 both players, 1 the mover only                                  |
// | 1     | repeat is nonsense  | 1: an attempt already rejected this turn is Nonsense              |
// | 2     | capture detail      | 0 square, 1 square and pawn-or-piece                              |
// | 3     | en-passant square   | 0 the captured pawn's square, 1 the landing square                |
// | 4     | en passant announced| 1: an en-passant capture is announced as such                     |
// | 5     | check detail        | 0 plain "check", 1 directions (Knight/Rank/File/Long/Short)       |
// | 6     | pawn tries          | PAWN_TRIES_* below                                                |
// | 7     | promotion announced | 1: "promotion" is announced (never the piece)                     |
// | 8     | castling            | 1 allowed                                                         |
// | 9     | en passant          | 1 allowed                                                         |
// | 10    | promotion pieces    | bits for N, B, R, Q (1, 2, 4, 8)                                  |
// | 11    | stalemate           | 0 draw, 1 the stalemated side loses                               |
// | 12    | fifty-move draw     | 1: a draw after 100 plies without capture or pawn move            |
// | 13    | repetition draw     | 1: a draw when a position occurs for the third time               |
// | 14    | material draw       | MATERIAL_DRAW_* below: which material ends the game in a draw     |
// | 15    | pawn-try nonsense   | 1: a pawn capture attempt the pawn-try announcement rules out is  |
// |       |                     | Nonsense (count 0, "no", or its square not announced; RAND 7, 10) |

import { setChessRules } from '../chess/position';

export const RULE_ILLEGAL_MOVER_ONLY: i32 = 0;
export const RULE_REPEAT_IS_NONSENSE: i32 = 1;
export const RULE_CAPTURE_KIND: i32 = 2;
export const RULE_EP_LANDING_SQUARE: i32 = 3;
export const RULE_EP_ANNOUNCED: i32 = 4;
export const RULE_CHECK_DIRECTIONS: i32 = 5;
export const RULE_PAWN_TRIES: i32 = 6;
export const RULE_PROMOTION_ANNOUNCED: i32 = 7;
export const RULE_CASTLING: i32 = 8;
export const RULE_EN_PASSANT: i32 = 9;
export const RULE_PROMOTION_PIECES: i32 = 10;
export const RULE_STALEMATE_LOSES: i32 = 11;
export const RULE_FIFTY_MOVES: i32 = 12;
export const RULE_REPETITION: i32 = 13;
export const RULE_MATERIAL_DRAW: i32 = 14;
export const RULE_PAWN_TRY_NONSENSE: i32 = 15;
export const RULE_COUNT: i32 = 16;

// Pawn-try information, given to the player about to move, before his first attempt.
export const PAWN_TRIES_NONE: i32 = 0;
/** "Any?" asked privately; on "Try" the asker must attempt pawn captures until one is legal. */
export const PAWN_TRIES_ANY_SECRET: i32 = 1;
/** "Any?" asked openly (both hear); on "Yes" the asker must attempt at least one pawn capture. */
export const PAWN_TRIES_ANY_OPEN: i32 = 2;
/** The number of legal pawn captures, announced to both before each turn. */
export const PAWN_TRIES_COUNT: i32 = 3;
/** Whether a legal pawn capture exists, announced to both before each turn. */
export const PAWN_TRIES_EXISTS: i32 = 4;
/** The squares legal pawn captures land on, announced to both before each turn. */
export const PAWN_TRIES_SQUARES: i32 = 5;
/** The squares of the pawns that have a legal capture, announced to both before each turn (ks-game's RAND). */
export const PAWN_TRIES_PAWN_SQUARES: i32 = 6;

// Material draws (RULE_MATERIAL_DRAW): after a legal move, the game is drawn when the material left is
/** never drawn for material; */
export const MATERIAL_DRAW_NONE: i32 = 0;
/** Berkeley's list (rules IV.B): each side has at most one knight or bishop besides the king; */
export const MATERIAL_DRAW_BERKELEY: i32 = 1;
/**
 * a dead position by material, as in chess (FIDE 5.2.2, as python-chess and chessops judge it):
 * no pawn, rook or queen, and either a lone knight against a bare king, or no knight and every
 * bishop on squares of one colour (bare kings included).
 */
export const MATERIAL_DRAW_DEAD: i32 = 2;

export const RULES = new Int32Array(RULE_COUNT);

export function rule(index: i32): i32 {
  return unchecked(RULES[index]);
}

/** Are pawn tries announced to both players before every turn (not asked for)? */
export function pawnTriesAnnounced(): bool {
  const mode = unchecked(RULES[RULE_PAWN_TRIES]);
  return mode >= PAWN_TRIES_COUNT;
}

/** Validates RULES and passes the chess-level switches to the move generator. 0 or the bad index + 1. */
export function applyRules(): i32 {
  for (let i = 0; i < RULE_COUNT; i++) {
    const value = unchecked(RULES[i]);
    const max =
      i == RULE_PAWN_TRIES
        ? PAWN_TRIES_PAWN_SQUARES
        : i == RULE_PROMOTION_PIECES
          ? 15
          : i == RULE_MATERIAL_DRAW
            ? MATERIAL_DRAW_DEAD
            : 1;
    if (value < 0 || value > max) return i + 1;
  }
  if (unchecked(RULES[RULE_PROMOTION_PIECES]) == 0) return RULE_PROMOTION_PIECES + 1;
  setChessRules(
    unchecked(RULES[RULE_CASTLING]) != 0,
    unchecked(RULES[RULE_EN_PASSANT]) != 0,
    unchecked(RULES[RULE_PROMOTION_PIECES]),
  );
  return 0;
}

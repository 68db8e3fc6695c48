// Prescribed pawn decisions (issue 36): a tracker can be told, for each opponent turn of its view,
// what his pawns did on it, and then follows only the histories that agree (its pool update and
// its sampler's descents). A pawn trajectory (when each of his pawns advanced, which man made each
// of his captures) is a small constraint problem of its own; given one, the pieces are searched
// around it. A plan is a word per view event: PLAN_FREE (any move), PLAN_PIECE (a move of a man
// that is not a pawn) or planPawn(from, to) (that pawn move, any promotion piece); events past
// its end are free. The tracker being worked on puts its plan in place (tracker/state.ts enter).

import {
  MOVE_KIND_SHIFT,
  MOVE_PROMOTION,
  MOVE_SQUARE_FIELD,
  MOVE_TO_SHIFT,
  PAWN,
  POSITION_SHIFT,
  pieceAt,
} from '../chess/position';

export const PLAN_FREE: i32 = -1;
export const PLAN_PIECE: i32 = 0;

const NO_PLAN = new Int32Array(0);
let PLAN: Int32Array = NO_PLAN;

/** The plan word of a pawn move from `from` to `to`. */
export function planPawn(from: i32, to: i32): i32 {
  return 1 + from + (to << 6);
}

/** Makes `plan` the one followed (null: none). */
export function usePlan(plan: Int32Array | null): void {
  PLAN = plan === null ? NO_PLAN : plan;
}

/** `plan` with event `e`'s word set to `word`: the same array, or a longer one (free where unset). */
export function withPlanWord(plan: Int32Array, e: i32, word: i32): Int32Array {
  let out = plan;
  if (e >= plan.length) {
    out = new Int32Array(max(e + 1, plan.length * 2));
    out.fill(PLAN_FREE);
    out.set(plan);
  }
  unchecked((out[e] = word));
  return out;
}

/** Does the opponent's `move` in record `h` at view event `e` follow the plan in use? */
export function followsPlan(h: i32, move: i32, e: i32): bool {
  if (e >= PLAN.length) return true;
  const want = unchecked(PLAN[e]);
  if (want == PLAN_FREE) return true;
  const from = move & MOVE_SQUARE_FIELD;
  const pawn = move >> MOVE_KIND_SHIFT >= MOVE_PROMOTION || (pieceAt(h << POSITION_SHIFT, from) & 7) == PAWN;
  if (want == PLAN_PIECE) return !pawn;
  return pawn && want == planPawn(from, (move >> MOVE_TO_SHIFT) & MOVE_SQUARE_FIELD);
}

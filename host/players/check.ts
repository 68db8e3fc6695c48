// Answers to a check the referee has named (issue #34). Under rules that tell the check's direction
// (berkeley's check-detail "directions") a player in check can only step its king, or capture or
// block on the line named (a knight's check: only take the knight). Where its belief has lost his
// men (the technique against unknown men has no checker at all; a pool past the exact belief may
// have none on that line) every other attempt is an Illegal answer heard for nothing (krieg v
// random, seed 1, game 91: fifteen Illegal queen and rook moves before a king step).
import {
  CHECK_FILE,
  CHECK_KNIGHT,
  CHECK_LONG_DIAGONAL,
  CHECK_RANK,
  CHECK_SHORT_DIAGONAL,
  KING,
  PAWN,
} from '../constants';
import { moveFrom, moveTo } from '../notation/move';
import type { View } from '../record/record';

/** The directions (CHECK_* bits) of the check the opponent's last move gave; 0 without one, or with a plain "check". */
export function checkDirections(view: View): number {
  for (let i = view.events.length - 1; i >= 0; i--) {
    const event = view.events[i];
    if (event.type === 'opponent-move') return event.percept?.check ? (event.percept.directions ?? 0) : 0;
    if (event.type === 'attempt' && event.side === view.as && event.percept.answer === 'legal') return 0;
  }
  return 0;
}

/**
 * May `attempt` (from | to << 6) of the player whose men are on `board` meet a check from
 * `directions`? King steps may (not castling); another man only onto the line named (a knight's
 * check: a knight's jump from the king), and not at all in a double check. A pawn's diagonal step
 * under a diagonal check may take en passant the pawn that checks.
 */
export function mayMeetCheck(board: readonly number[], attempt: number, directions: number): boolean {
  const from = moveFrom(attempt);
  const to = moveTo(attempt);
  const kind = board[from] & 7;
  if (kind === KING) return Math.abs((to & 7) - (from & 7)) <= 1;
  const king = board.indexOf(KING | (board[from] & 8));
  if (king < 0) return true;
  if ((directions & (directions - 1)) !== 0) return false; // a double check
  const [kf, kr, f, r] = [king & 7, king >> 3, to & 7, to >> 3];
  if (directions === CHECK_KNIGHT) {
    const df = Math.abs(f - kf);
    const dr = Math.abs(r - kr);
    return (df === 1 && dr === 2) || (df === 2 && dr === 1);
  }
  if (directions === CHECK_RANK) return r === kr && to !== king;
  if (directions === CHECK_FILE) return f === kf && to !== king;
  const diagonal = directions === CHECK_LONG_DIAGONAL || directions === CHECK_SHORT_DIAGONAL;
  if (!diagonal) return true;
  if (kind === PAWN && f !== (from & 7)) return true;
  // the main diagonal (a1-h8 way) through the king against the other: the longer is the "long" one
  const mainLength = 8 - Math.abs(kf - kr);
  const antiLength = 8 - Math.abs(kf + kr - 7);
  const onMain = mainLength > antiLength === (directions === CHECK_LONG_DIAGONAL);
  return to !== king && (onMain ? f - r === kf - kr : f + r === kf + kr);
}

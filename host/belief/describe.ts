// What the outcome of an estimation over a view says, in words a reader of the view follows: plies
// before an event, an event named as the view shows it, and the message for an inconsistent view.
import { makePerceptKpgn, makePawnTriesKpgn } from '../notation/kpgn';
import type { View, ViewEvent } from '../record/record';

/** Plies (moves of either side) played before view event `event`. */
export function pliesBefore(view: View, event: number): number {
  return view.events.slice(0, event).filter(isMove).length;
}

/** A view event that is a move: a legal attempt, or the opponent's move heard. */
export const isMove = (e: ViewEvent): boolean =>
  (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && !!e.percept);

/** View event `i` (0-based), as a reader of the view would name it. */
export function describeEvent(view: View, i: number): string {
  const e = view.events[i];
  if (!e) return `event ${i + 1}: the end of the view`;
  const who = e.side === 'white' ? 'White' : 'Black';
  const what =
    e.type === 'attempt'
      ? `${who}'s ${e.attempt} ${makePerceptKpgn(e.percept)}`
      : e.type === 'opponent-move'
        ? `${who}'s move, heard as ${e.percept ? makePerceptKpgn(e.percept) : 'not yet made'}${e.illegal !== undefined ? ` after ${e.illegal} Illegal` : ''}`
        : e.type === 'pawn-tries'
          ? `pawn tries ${makePawnTriesKpgn(e)} before ${who}'s turn`
          : `${who}'s "Any?" answered ${e.yes ? 'yes' : 'no'}`;
  return `event ${i + 1}: ${what}`;
}

/** The message for a view no position fits: the ply and event the last position died at. */
export function inconsistentMessage(
  view: View,
  failedEvent: number | undefined,
  failedPly: number | undefined,
): string {
  const event = failedEvent ?? -1;
  // failedPly counts the plies played before the failing event: that event belongs to ply failedPly + 1
  return `the view is inconsistent: no position survives ply ${(failedPly ?? 0) + 1} (${event >= 0 ? describeEvent(view, event) : 'event unknown'})`;
}

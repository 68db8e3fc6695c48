// The referee's words in the web app: a view event as the referee says it (the Play transcript,
// the Know replay) and a view cut at a ply.
import { makeSquare } from '../../notation/square';
import { directionNames, type Percept } from '../../record/percept';
import type { Side, View, ViewEvent } from '../../record/record';
import { pliesBefore } from '../../belief/describe';

export const END_TEXT: Record<string, string> = {
  checkmate: 'Checkmate',
  stalemate: 'Stalemate',
  'draw-material': 'Draw: insufficient material',
  'draw-fifty': 'Draw: fifty moves without capture or pawn move',
  'draw-repetition': 'Draw: threefold repetition',
};

/** The announcements of a legal move, as the referee says them. */
function announcements(p: Percept): string[] {
  const said: string[] = [];
  if (p.capture !== undefined)
    said.push(
      `Capture at ${makeSquare(p.capture)}${p.captured ? ` (a ${p.captured})` : ''}${p.enPassant ? ', en passant' : ''}`,
    );
  if (p.directions) said.push(...directionNames(p.directions).map((d) => `Check: ${d.toLowerCase()}`));
  else if (p.check) said.push('Check');
  if (p.promotion) said.push('Promotion');
  if (p.end) said.push(END_TEXT[p.end] ?? p.end);
  return said;
}

export const cap = (side: Side) => (side === 'white' ? 'White' : 'Black');

/** One view event in the referee's words, addressed to `you` (the player, in a game) or naming both sides (a replay). */
export function refereeSays(event: ViewEvent, you?: Side): string {
  const who = event.side === you ? 'You' : cap(event.side);
  switch (event.type) {
    case 'attempt': {
      if (event.percept.answer !== 'legal')
        return `${who} ${who === 'You' ? 'try' : 'tries'} ${event.attempt}: ${event.percept.answer === 'illegal' ? 'Illegal' : 'Nonsense'}`;
      return [
        `${who} ${who === 'You' ? 'play' : 'plays'} ${event.attempt}. ${cap(event.side)} has moved`,
        ...announcements(event.percept),
      ].join('. ');
    }
    case 'opponent-move': {
      const illegal = event.illegal ? ` after ${event.illegal} Illegal` : '';
      if (!event.percept) return `${who} is trying${illegal}`;
      return [`${who} has moved${illegal}`, ...announcements(event.percept)].join('. ');
    }
    case 'pawn-tries':
      if (event.count !== undefined)
        return `${cap(event.side)}: ${event.count === 0 ? 'no pawn tries' : `${event.count} pawn tr${event.count === 1 ? 'y' : 'ies'}`}`;
      if (event.exists !== undefined) return `${cap(event.side)}: ${event.exists ? 'Try!' : 'no pawn tries'}`;
      return `${cap(event.side)}: pawn tries ${event.squares?.length ? `at ${event.squares.map(makeSquare).join(', ')}` : 'none'}`;
    case 'any':
      return `${who === 'You' ? 'You ask' : `${who} asks`} "Any?": ${event.yes ? 'Yes' : 'No'}`;
  }
}

/** The view's first `plies` plies: every event before the (plies + 1)-th move. */
export function viewAtPly(view: View, plies: number): View {
  let end = view.events.length;
  for (let e = 0; e <= view.events.length; e++)
    if (pliesBefore(view, e) > plies) {
      end = e - 1;
      break;
    }
  return { ...view, events: view.events.slice(0, end) };
}

export const plyCount = (view: View) => pliesBefore(view, view.events.length);

// The referee's words in the web app: a view event as the referee says it (the Play transcript,
// the Know replay), a view cut at a ply, a clock's time, the enemy men not yet taken, and an error
// as a sentence (never its raw id).
import { parseFen, pieceColor, pieceType } from '../../notation/fen';
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

/** The move number (1., 2. …, from the start FEN's) of the ply after `plies` plies of the view. */
export function moveNumberAt(view: View, plies: number): number {
  const fields = view.start.trim().split(/\s+/);
  const first = Math.max(1, Number.parseInt(fields[5] ?? '1', 10) || 1);
  return first + Math.floor((plies + (fields[1] === 'b' ? 1 : 0)) / 2);
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

/** Milliseconds as a clock shows them: m:ss (whole seconds, rounded down). */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The enemy men the viewer has not taken: by type at the start, and his captures by what the referee said of them. */
export interface EnemyMen {
  /** Per piece type (pawn 1 … king 6, index 0 unused): the enemy's men at the start. */
  start: number[];
  /** The viewer's captures: of a pawn, of a piece, of a man of type not said (the rules announce no type). */
  taken: { pawn: number; piece: number; unknown: number };
}

/** What `view`'s player knows of the enemy's material: its men at the start and his captures (promotions are not heard). */
export function enemyMen(view: View): EnemyMen {
  const enemy = view.as === 'white' ? 1 : 0;
  const start = [0, 0, 0, 0, 0, 0, 0];
  for (const c of parseFen(view.start).board) if (c && pieceColor(c) === enemy) start[pieceType(c)]++;
  const taken = { pawn: 0, piece: 0, unknown: 0 };
  for (const e of view.events)
    if (e.type === 'attempt' && e.side === view.as && e.percept.answer === 'legal' && e.percept.capture !== undefined)
      taken[e.percept.enPassant ? 'pawn' : (e.percept.captured ?? 'unknown')]++;
  return { start, taken };
}

/**
 * What the page says of an error of host/errors.ts that a person may meet in the page: the id
 * stays out of sight; the message (the registry's one line) follows where it names the place.
 */
const ERROR_SENTENCES: Record<string, (message: string) => string> = {
  'bad-kpgn': (m) => `This is not a KPGN game the page can read (${m}).`,
  'bad-json': (m) => `This is not a krieg JSON record or view (${m}).`,
  'bad-fen': (m) => `A position is not a valid FEN: ${m}.`,
  'bad-view': (m) => `The view does not hold together: ${m}.`,
  'record-mismatch': (m) => `The record contradicts itself: ${m}.`,
  inconsistent: (m) => `No position fits everything heard: ${m}.`,
  'not-to-move': () =>
    'At this point of the game the opponent is to move: a forced mate is asked for the player to move. Step one ply on, or show the other side’s view.',
  'mixed-own-pieces': () =>
    'These positions do not agree on the own pieces of the side to move: a belief state is what one player knows, so his own men are the same in each.',
  'mixed-sides': () => 'These positions do not all have the same side to move: a belief state has one side to move.',
  'belief-too-large': (m) =>
    `The page's solver takes a belief only up to the size its memory allows, and this one is larger (${m}). Save the game and ask \`krieg solve FILE --ply N --limit-belief N\` at the command line.`,
  'problem-too-large': (m) => `The problem is too large for the solver's memory (${m}).`,
  'limit-reached': (m) => `A limit was reached before an answer: ${m}.`,
  'bad-ply': (m) => `The number of plies is not one the solver takes (${m}).`,
  'db-not-sqlite': (m) => `This file is not a problem database (${m}).`,
  'db-corrupt': (m) => `The problem database is damaged (${m}).`,
  'db-version': (m) => `The problem database is of another version (${m}).`,
};

/** An error (thrown, or a worker's error reply) as one sentence for the page: a KriegError's id is never shown. */
export function errorSentence(error: unknown): string {
  const { code, message } =
    error && typeof error === 'object' && 'message' in error
      ? (error as { code?: unknown; message: unknown })
      : { code: undefined, message: error };
  const text = String(message).replace(/\.$/, '');
  const say = typeof code === 'string' ? ERROR_SENTENCES[code] : undefined;
  return say ? say(text) : text;
}

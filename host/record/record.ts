// Game records and player views (SPEC §3). A record keeps every event of a game: each attempt of
// both sides with the referee's answer, and the announcements made before a turn. A view is what
// one player knows: his own events in full; of each opponent turn only what the rules let him
// hear (the number of Illegal attempts, if heard, and the announcements after the legal move);
// announcements made to both.
import type { RuleSet } from './rules';
import type { Percept } from './percept';

export type Side = 'white' | 'black';
export const SIDES: Side[] = ['white', 'black'];
export const other = (side: Side): Side => (side === 'white' ? 'black' : 'white');

/** An attempt and its answer. `attempt` is in UCI notation (castling as the king's step). */
export interface AttemptEvent {
  type: 'attempt';
  side: Side;
  attempt: string;
  percept: Percept;
}
/**
 * Pawn tries announced to both before `side`'s turn, as the rules announce them: the number of
 * legal pawn captures (`count` rules), whether one exists (`exists`), or the squares they land
 * on (`squares`) or the capturing pawns stand on (`pawn-squares`), both in `squares`. Exactly one
 * field is present.
 */
export interface PawnTriesEvent {
  type: 'pawn-tries';
  side: Side;
  count?: number;
  exists?: boolean;
  squares?: number[];
}
/** `side` asked "Any?" and heard yes (a legal pawn capture exists) or no. */
export interface AnyEvent {
  type: 'any';
  side: Side;
  yes: boolean;
}
/**
 * In a view: an opponent's turn, as heard. `illegal` is absent when the rules hide it; `percept`
 * (the announcements of the legal move) is absent while the turn is still in progress.
 */
export interface OpponentMoveEvent {
  type: 'opponent-move';
  side: Side;
  illegal?: number;
  percept?: Percept;
}

/** The most a count of a view may say (Illegal attempts, pawn tries): any more is damage. The core's words are 32-bit, so an unchecked 2^32 + 2 would read as 2. */
export const MAX_VIEW_COUNT = 1_000_000;

export type RecordEvent = AttemptEvent | PawnTriesEvent | AnyEvent;
export type ViewEvent = AttemptEvent | PawnTriesEvent | AnyEvent | OpponentMoveEvent;

export type Result = '1-0' | '0-1' | '1/2-1/2' | '*';

export interface GameRecord {
  rules: RuleSet;
  /** Starting position (FEN). */
  start: string;
  white: string;
  black: string;
  result: Result;
  /** Extra header tags (Event, Date, Seed …), kept verbatim. */
  tags: Record<string, string>;
  events: RecordEvent[];
}

export interface View {
  rules: RuleSet;
  start: string;
  /** Whose view. */
  as: Side;
  white: string;
  black: string;
  result: Result;
  tags: Record<string, string>;
  events: ViewEvent[];
}

/** The view of `as` derived from a full record. */
export function viewOf(record: GameRecord, as: Side): View {
  const heard = record.rules.illegalHeardBy === 'both';
  const events: ViewEvent[] = [];
  let illegal = 0;
  for (const event of record.events) {
    if (event.side === as || event.type === 'pawn-tries') {
      events.push(event);
      continue;
    }
    if (event.type === 'any') {
      if (record.rules.pawnTries === 'any-open') events.push(event);
      continue;
    }
    // an opponent attempt: count the Illegal ones until the legal move; Nonsense is not heard
    if (event.percept.answer === 'illegal') illegal++;
    if (event.percept.answer === 'legal') {
      events.push(
        heard
          ? { type: 'opponent-move', side: event.side, illegal, percept: event.percept }
          : { type: 'opponent-move', side: event.side, percept: event.percept },
      );
      illegal = 0;
    }
  }
  // the record ends inside an opponent turn: what has been heard of it so far
  const last = record.events[record.events.length - 1];
  if (last && last.side !== as && last.type === 'attempt' && last.percept.answer !== 'legal' && heard && illegal > 0) {
    events.push({ type: 'opponent-move', side: last.side, illegal });
  }
  return {
    rules: record.rules,
    start: record.start,
    as,
    white: record.white,
    black: record.black,
    result: record.result,
    tags: { ...record.tags },
    events,
  };
}

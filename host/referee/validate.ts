// Checking a parsed record against the referee: replaying its attempts must give exactly the
// recorded answers and announcements (the first difference is reported with its line and column);
// and one player's view of a game of a file, a record replayed first.
import type { Engine } from '../engine';
import { KriegError, fail } from '../errors';
import { makeUci, parseUci, attemptCode } from '../notation/move';
import { parseSan } from '../notation/san';
import type { SourcePosition } from '../notation/kpgn';
import { decodePercept, encodePercept } from '../record/percept';
import { makePerceptKpgn, makePawnTriesKpgn } from '../notation/kpgn';
import { GameSession } from './session';
import { viewOf, type GameRecord, type RecordEvent, type Side, type View } from '../record/record';
import type { ParsedKpgn } from '../notation/kpgn';

const HANDLE = 0; // the replay board; HANDLE + 1 is the referee's scratch

function describe(event: RecordEvent | undefined): string {
  if (!event) return 'nothing';
  if (event.type === 'attempt')
    return `${event.side}'s ${event.attempt} answered ${event.percept.answer === 'legal' ? `legal ${makePerceptKpgn(event.percept)}` : event.percept.answer}`;
  if (event.type === 'any') return `${event.side}'s "Any?" answered ${event.yes ? 'yes' : 'no'}`;
  return `pawn tries ${makePawnTriesKpgn(event)} before ${event.side}'s turn`;
}

/** What the referee and the record say differently, in words that differ (the fields are listed when the descriptions would not). */
function difference(actual: RecordEvent, expected: RecordEvent | undefined): string {
  const given = describe(expected);
  const gives = describe(actual);
  if (given !== gives || !expected) return `the referee gives ${gives}, the record says ${given}`;
  const fields = [...new Set([...Object.keys(actual), ...Object.keys(expected)])].filter(
    (k) =>
      JSON.stringify((actual as unknown as Record<string, unknown>)[k]) !==
      JSON.stringify((expected as unknown as Record<string, unknown>)[k]),
  );
  return `the referee gives ${gives}; the record's event differs in ${fields.join(', ')}: ${fields.map((k) => JSON.stringify((expected as unknown as Record<string, unknown>)[k])).join(', ')}`;
}

function at(positions: SourcePosition[], i: number): string {
  const p = positions[Math.min(i, positions.length - 1)];
  return p ? `line ${p.line}, column ${p.column}` : 'end of record';
}

/** Where the record's parts came from, for messages; and what its source leaves to the referee. */
export interface RecordSource {
  /** The [Result] tag (or "result" field). */
  resultAt?: SourcePosition;
  /**
   * The source does not announce the check that comes with a game end (ks-game announces only
   * the end): such a percept is completed from the referee's.
   */
  endWithoutCheck?: boolean;
  /** Added to every disagreement with the referee (what it means for a record from another program). */
  mismatchNote?: string;
}

/**
 * Replays `record` on `engine` (which takes the record's rules) and returns it with SAN moves
 * rewritten in UCI. Throws a KriegError naming the first event the referee disagrees with, or a
 * result that contradicts how the game ended.
 */
export function validateRecord(
  engine: Engine,
  record: GameRecord,
  positions: SourcePosition[] = [],
  startAt?: SourcePosition,
  source: RecordSource = {},
): GameRecord {
  return replay(engine, record, positions, startAt, source);
}

/** Loads the start position of a record or view, as the referee and the estimators read it; a refusal names its line. */
function loadStart(engine: Engine, start: string, startAt: SourcePosition | undefined): void {
  try {
    engine.setFen(HANDLE, start);
  } catch (error) {
    const where = startAt ? `line ${startAt.line}, column ${startAt.column}: ` : '';
    if (error instanceof KriegError) throw error.within(`${where}start position`);
    throw error;
  }
}

function replay(
  engine: Engine,
  record: GameRecord,
  positions: SourcePosition[],
  startAt: SourcePosition | undefined,
  source: RecordSource,
): GameRecord {
  engine.setRules(record.rules);
  loadStart(engine, record.start, startAt); // (the session loads it again: a refusal here names its line)
  // every disagreement with the referee, with what it means for a record from another program
  const mismatch = (p: { at: string; what: string }) =>
    fail('record-mismatch', source.mismatchNote ? { ...p, what: `${p.what} (${source.mismatchNote})` } : p);
  const session = new GameSession(engine, { start: record.start, handle: HANDLE });
  const normalised: RecordEvent[] = [];
  const compare = () => {
    // every event the referee has logged since the last comparison must equal the record's, in order
    for (const actual of session.events(normalised.length)) {
      const j = normalised.length;
      const expected = record.events[j];
      const same =
        expected &&
        JSON.stringify(normalise(expected, actual, source)) === JSON.stringify(normalise(actual, actual, source));
      if (!same) {
        throw mismatch({ at: at(positions, j), what: difference(actual, expected) });
      }
      normalised.push(actual);
    }
  };
  compare();
  for (let i = normalised.length; i < record.events.length; i = normalised.length) {
    const event = record.events[i];
    if (session.ended())
      throw mismatch({
        at: at(positions, i),
        what: `the game is already over (${record.events.length - i} more events)`,
      });
    if (event.type === 'attempt') {
      let code = parseUci(event.attempt);
      if (code === undefined) {
        const move = parseSan(engine.setup(HANDLE).board, engine.moves(HANDLE), event.attempt);
        if (move === undefined)
          throw mismatch({ at: at(positions, i), what: `'${event.attempt}' is not a legal move here` });
        code = attemptCode(move);
        record.events[i] = { ...event, attempt: makeUci(move) };
      }
      try {
        session.attempt(code);
      } catch (error) {
        if (error instanceof KriegError)
          throw mismatch({ at: at(positions, i), what: `the referee refuses the attempt (${error.message})` });
        throw error;
      }
    } else if (event.type === 'any') {
      try {
        session.askAny();
      } catch (error) {
        if (error instanceof KriegError) throw mismatch({ at: at(positions, i), what: '"Any?" cannot be asked here' });
        throw error;
      }
    } else {
      throw mismatch({ at: at(positions, i), what: 'the referee makes no pawn-try announcement here' });
    }
    compare();
  }
  // the result: decided by the board when the game ended there; a game the board did not end may
  // carry any result (a resignation, an agreed draw, a loss on time) or none (*)
  const ended = session.result();
  if (ended !== '*' && record.result !== ended) {
    const where = source.resultAt ? `line ${source.resultAt.line}, column ${source.resultAt.column}` : 'result';
    const end = [...normalised].reverse().find((e) => e.type === 'attempt' && e.percept.end);
    const how = end?.type === 'attempt' ? `${end.percept.end} by ${end.side}'s ${end.attempt}` : 'the last move';
    throw mismatch({ at: where, what: `the result ${record.result} contradicts the game's end (${how}: ${ended})` });
  }
  return { ...record, events: normalised };
}

/** An event in a form to compare: the percept through its code; a check the source does not announce at a game end, the referee's. */
function normalise(e: RecordEvent, referee: RecordEvent, source: RecordSource): RecordEvent {
  if (e.type !== 'attempt') return { ...e };
  const percept = decodePercept(encodePercept(e.percept));
  if (source.endWithoutCheck && percept.end && !percept.check && referee.type === 'attempt') {
    if (referee.percept.check) percept.check = true;
    if (referee.percept.directions) percept.directions = referee.percept.directions;
  }
  return { ...e, percept: decodePercept(encodePercept(percept)) };
}

/**
 * The view of `as` in parsed game `n` (1-based) of `file`: a record is replayed through the referee
 * first (so an impossible answer is reported with its line); a view is taken as written, if it is
 * `as`'s (or `as` is not given). Errors name the file.
 */
export function viewOfGame(engine: Engine, file: string, game: ParsedKpgn, n: number, as: Side | undefined): View {
  if (game.kind === 'view') {
    if (as !== undefined && game.view.as !== as)
      throw fail('wrong-side', { file, game: n, side: game.view.as, wanted: as });
    // a start position the estimators would refuse is refused here, with its file and line
    try {
      engine.setRules(game.view.rules);
      loadStart(engine, game.view.start, game.startAt);
    } catch (error) {
      if (error instanceof KriegError) throw error.within(file);
      throw error;
    }
    return game.view;
  }
  if (as === undefined) throw fail('missing-as', { file, game: n });
  try {
    return viewOf(validateRecord(engine, game.record, game.positions, game.startAt, game), as);
  } catch (error) {
    if (error instanceof KriegError) throw error.within(file);
    throw error;
  }
}

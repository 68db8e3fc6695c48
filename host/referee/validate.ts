// Checking a parsed record against the referee: replaying its attempts must give exactly the
// recorded answers and announcements. The first difference is reported with its line and column.
import type { Engine } from '../engine';
import { KriegError } from '../status';
import { moveToUci } from '../notation/move';
import { parseMove } from '../notation/san';
import type { SourcePosition } from '../notation/kpgn';
import { decodePercept, encodePercept } from './percept';
import { perceptKpgn, pawnTriesText } from '../notation/kpgn';
import { readEvents } from './game';
import type { GameRecord, RecordEvent } from './record';

const HANDLE = 0; // the replay board; HANDLE + 1 is the referee's scratch

function describe(event: RecordEvent | undefined): string {
  if (!event) return 'nothing';
  if (event.type === 'attempt') return `${event.side}'s ${event.attempt} answered ${event.percept.answer === 'legal' ? `legal ${perceptKpgn(event.percept)}` : event.percept.answer}`;
  if (event.type === 'any') return `${event.side}'s "Any?" answered ${event.yes ? 'yes' : 'no'}`;
  return `pawn tries ${pawnTriesText(event)} before ${event.side}'s turn`;
}

/** What the referee and the record say differently, in words that differ (the fields are listed when the descriptions would not). */
function difference(actual: RecordEvent, expected: RecordEvent | undefined): string {
  const given = describe(expected);
  const gives = describe(actual);
  if (given !== gives || !expected) return `the referee gives ${gives}, the record says ${given}`;
  const fields = [...new Set([...Object.keys(actual), ...Object.keys(expected)])]
    .filter((k) => JSON.stringify((actual as unknown as Record<string, unknown>)[k]) !== JSON.stringify((expected as unknown as Record<string, unknown>)[k]));
  return `the referee gives ${gives}; the record's event differs in ${fields.join(', ')}: ${fields.map((k) => JSON.stringify((expected as unknown as Record<string, unknown>)[k])).join(', ')}`;
}

const RESULT_OF = ['*', '1-0', '0-1', '1/2-1/2'] as const;

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
export function validateRecord(engine: Engine, record: GameRecord, positions: SourcePosition[] = [], startAt?: SourcePosition, source: RecordSource = {}): GameRecord {
  try {
    return replay(engine, record, positions, startAt, source);
  } catch (error) {
    if (source.mismatchNote && error instanceof KriegError && error.code === 'record-mismatch') {
      throw new KriegError(error.code, `${error.message} (${source.mismatchNote})`);
    }
    throw error;
  }
}

function replay(engine: Engine, record: GameRecord, positions: SourcePosition[], startAt: SourcePosition | undefined, source: RecordSource): GameRecord {
  engine.setRules(record.rules);
  try {
    engine.setFen(HANDLE, record.start);
  } catch (error) {
    const where = startAt ? `line ${startAt.line}, column ${startAt.column}: ` : '';
    if (error instanceof KriegError) throw new KriegError(error.code, `${where}start position: ${error.message}`);
    throw error;
  }
  const x = engine.core.exports;
  x.gameStart(HANDLE);
  const normalised: RecordEvent[] = [];
  const compare = () => {
    // every event the referee has logged since the last comparison must equal the record's, in order
    for (const actual of readEvents(engine, normalised.length)) {
      const j = normalised.length;
      const expected = record.events[j];
      const same = expected && JSON.stringify(normalise(expected, actual, source)) === JSON.stringify(normalise(actual, actual, source));
      if (!same) {
        throw new KriegError('record-mismatch', `${at(positions, j)}: ${difference(actual, expected)}`);
      }
      normalised.push(actual);
    }
  };
  compare();
  for (let i = normalised.length; i < record.events.length; i = normalised.length) {
    const event = record.events[i];
    if (x.gameResult() !== 0) throw new KriegError('record-mismatch', `${at(positions, i)}: the game is already over (${record.events.length - i} more events)`);
    if (event.type === 'attempt') {
      let code = parseUciAttempt(event.attempt);
      if (code === undefined) {
        const move = parseMove(engine, HANDLE, event.attempt);
        if (move === undefined) throw new KriegError('record-mismatch', `${at(positions, i)}: '${event.attempt}' is not a legal move here`);
        code = attemptCode(move);
        record.events[i] = { ...event, attempt: moveToUci(move) };
      }
      const status = x.gameAttempt(code);
      if (status < 0) throw new KriegError('record-mismatch', `${at(positions, i)}: the referee refuses the attempt (status ${status})`);
    } else if (event.type === 'any') {
      const status = x.gameAskAny();
      if (status < 0) throw new KriegError('record-mismatch', `${at(positions, i)}: "Any?" cannot be asked here`);
    } else {
      throw new KriegError('record-mismatch', `${at(positions, i)}: the referee makes no pawn-try announcement here`);
    }
    compare();
  }
  // the result: decided by the board when the game ended there; a game the board did not end may
  // carry any result (a resignation, an agreed draw, a loss on time) or none (*)
  const ended = RESULT_OF[x.gameResult()];
  if (ended !== '*' && record.result !== ended) {
    const where = source.resultAt ? `line ${source.resultAt.line}, column ${source.resultAt.column}` : 'result';
    const end = [...normalised].reverse().find((e) => e.type === 'attempt' && e.percept.end);
    const how = end?.type === 'attempt' ? `${end.percept.end} by ${end.side}'s ${end.attempt}` : 'the last move';
    throw new KriegError('record-mismatch', `${where}: the result ${record.result} contradicts the game's end (${how}: ${ended})`);
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


/** The attempt code of a UCI string (castling as the king's step), or undefined if not UCI. */
export function parseUciAttempt(text: string): number | undefined {
  const m = /^([a-h])([1-8])([a-h])([1-8])([nbrq])?$/.exec(text);
  if (!m) return undefined;
  const from = (Number(m[2]) - 1) * 8 + m[1].charCodeAt(0) - 97;
  const to = (Number(m[4]) - 1) * 8 + m[3].charCodeAt(0) - 97;
  return from | (to << 6) | (m[5] ? (4 + 'nbrq'.indexOf(m[5])) << 12 : 0);
}

/** A legal move's attempt code (kind cleared unless it promotes). */
export function attemptCode(move: number): number {
  return move >> 12 >= 4 ? move : move & 0xfff;
}

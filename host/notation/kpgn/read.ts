// Reading KPGN (the format: host/notation/kpgn.ts, docs/rules-and-notation.md): a record or a view,
// line by line, every error naming its line and column. Syntax only: validateRecord replays a record
// through the referee.
import { fail } from '../../errors';
import { START_FEN, parseFen } from '../fen';
import { parseSquare } from '../square';
import { DIRECTIONS, ENDS, type End, type Percept } from '../../record/percept';
import { preset, withOverrides, RULE_KEYS, flagName, ruleKeyOf, type RuleSet } from '../../record/rules';
import {
  MAX_VIEW_COUNT,
  type GameRecord,
  type View,
  type ViewEvent,
  type RecordEvent,
  type AnyEvent,
  type OpponentMoveEvent,
  type Side,
  type Result,
} from '../../record/record';
/** Where an event came from in the text (1-based), for error messages about its content. */
export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * A parsed game: the positions of its events, of its start position ([FEN] tag or "start") and of
 * its result; for records read from another program's format (ks-game), `endWithoutCheck` when it
 * does not announce the check that comes with a game end (validateRecord takes it from the
 * referee), and a note added to every disagreement with krieg's referee.
 */
export type ParsedKpgn = ({ kind: 'record'; record: GameRecord } | { kind: 'view'; view: View }) & {
  positions: SourcePosition[];
  startAt?: SourcePosition;
  resultAt?: SourcePosition;
  endWithoutCheck?: boolean;
  mismatchNote?: string;
};

/** The results KPGN writes, in the [Result] tag and as the last line of a game. */
export const RESULTS: Result[] = ['1-0', '0-1', '1/2-1/2', '*'];
/** The tags KPGN reads into a record's fields (the others are kept in `tags`). */
export const RESERVED_TAGS = new Set(['Variant', 'Rules', 'Filtered', 'FEN', 'White', 'Black', 'Result', 'SetUp']);

class Cursor {
  constructor(
    readonly line: number,
    readonly text: string,
  ) {}
  fail(column: number, reason: string): never {
    throw fail('bad-kpgn', { line: this.line, column: column + 1, reason });
  }
}

const TAG = /^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$/;
const TURN = /^(\d+)(\.\.\.|\.)\s+(\S+)\s+\{([^{}]*)\}\s*$/;
const UCI = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/;

function parseRulesTag(value: string, base: RuleSet, cursor: Cursor, column: number): RuleSet {
  const overrides: Record<string, unknown> = {};
  for (const item of value.split(/\s+/).filter(Boolean)) {
    const [key, raw] = item.split('=');
    const ruleKey = ruleKeyOf(key);
    if (raw === undefined || ruleKey === undefined)
      cursor.fail(
        column,
        `bad rule '${item}' in [Rules] (expected flag=value with a flag among ${RULE_KEYS.map(flagName).join(', ')})`,
      );
    overrides[ruleKey] = raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  try {
    return withOverrides(base, overrides);
  } catch (error) {
    return cursor.fail(column, (error as Error).message);
  }
}

function parseCapture(text: string, cursor: Cursor, column: number, p: Percept): void {
  if (text === '') return;
  const m = /^([a-h][1-8])(p|x)?(ep)?$/.exec(text);
  if (!m) cursor.fail(column, `bad capture '${text}' (expected a square, optionally followed by p or x, then ep)`);
  p.capture = parseSquare(m[1]);
  if (m[2]) p.captured = m[2] === 'p' ? 'pawn' : 'piece';
  if (m[3]) p.enPassant = true;
}

function parseChecks(text: string, cursor: Cursor, column: number, p: Percept): void {
  if (text === '') return;
  if (text === 'C') {
    p.check = true;
    return;
  }
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const d = DIRECTIONS.find((x) => x.code === text[i]);
    if (!d || bits & d.bit)
      cursor.fail(column + i, `bad check code '${text[i]}' (expected N, R, F, L, S once each, or C)`);
    bits |= d.bit;
  }
  if (bits) {
    p.check = true;
    p.directions = bits;
  }
}

function parseSquares(text: string, cursor: Cursor, column: number): number[] {
  if (text === '-') return [];
  if (text.length === 0 || text.length % 2) cursor.fail(column, `bad pawn-try squares '${text}'`);
  const squares: number[] = [];
  for (let i = 0; i < text.length; i += 2) {
    const sq = parseSquare(text.slice(i, i + 2));
    if (sq < 0) cursor.fail(column + i, `bad square '${text.slice(i, i + 2)}'`);
    squares.push(sq);
  }
  return squares;
}

/** The tag section: every tag (unescaped) and the line it is on (1-based within the game), and where the moves begin. */
function readTags(
  lines: string[],
  offset: number,
): { tags: Record<string, string>; tagLine: Record<string, number>; next: number } {
  const tags: Record<string, string> = {};
  const tagLine: Record<string, number> = {};
  let index = 0;
  for (; index < lines.length; index++) {
    const raw = lines[index];
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('%')) {
      if (Object.keys(tags).length && trimmed === '') break;
      continue;
    }
    if (!trimmed.startsWith('[')) break;
    const m = TAG.exec(trimmed);
    const cursor: Cursor = new Cursor(offset + index + 1, raw);
    if (!m) cursor.fail(raw.indexOf('['), 'malformed tag (expected [Name "value"])');
    if (m[1] in tags) cursor.fail(raw.indexOf('['), `duplicate tag [${m[1]}]`);
    tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
    tagLine[m[1]] = index + 1;
  }
  return { tags, tagLine, next: index };
}

/** What the tags say of the game: rules, whose view, start, result, and who moves first at which move number. */
interface Header {
  rules: RuleSet;
  as: Side | undefined;
  start: string;
  result: Result;
  fullmove: number;
  side: Side;
}

/** A chess PGN's moves (SAN after a move number: `1. e4 e5 2. Nf3`, `1.d4 {…}`), which no KPGN turn line is. */
const PGN_MOVES =
  /^\d+\.(?:\.\.)?\s*(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[QRBN])?|O-O(?:-O)?|0-0(?:-0)?)[+#!?]*(?:\s|$)/;

/** Whether the first line of moves (from line `next`) is a chess PGN's, not a KPGN turn. */
function chessPgnMoves(lines: string[], next: number): boolean {
  for (let index = next; index < lines.length; index++) {
    const trimmed = lines[index].trim();
    if (trimmed === '' || trimmed.startsWith('%')) continue;
    return !TURN.test(trimmed) && PGN_MOVES.test(trimmed);
  }
  return false;
}

function readHeader(
  tags: Record<string, string>,
  tagLine: Record<string, number>,
  lines: string[],
  firstLine: number,
  next: number,
): Header {
  const offset = firstLine - 1;
  const tagCursor = (name: string) => new Cursor(offset + (tagLine[name] ?? 1), lines[(tagLine[name] ?? 1) - 1] ?? '');
  // a chess game (no [Variant], or chess's own such as "Standard", and SAN moves) is named as such
  const chess = (line: number, why: string) => {
    if (chessPgnMoves(lines, next)) throw fail('chess-pgn', { line, column: 1, why });
  };
  if (!('Variant' in tags)) {
    chess(firstLine, 'moves in SAN and no [Variant] tag');
    new Cursor(firstLine, lines[0] ?? '').fail(
      0,
      firstLine > 1 ? 'missing [Variant] tag (a tag line after the moves starts a new game)' : 'missing [Variant] tag',
    );
  }
  let rules: RuleSet;
  try {
    rules = preset(tags.Variant);
  } catch (error) {
    chess(offset + tagLine.Variant, `moves in SAN and [Variant "${tags.Variant}"]`);
    return tagCursor('Variant').fail(0, (error as Error).message);
  }
  if ('Rules' in tags) rules = parseRulesTag(tags.Rules, rules, tagCursor('Rules'), 0);
  const filtered = tags.Filtered ?? 'no';
  if (!['no', 'white', 'black'].includes(filtered))
    tagCursor('Filtered').fail(0, `[Filtered] must be "no", "white" or "black", found "${filtered}"`);
  const start = tags.FEN ?? START_FEN;
  let fullmove = 1;
  let side: Side = 'white';
  try {
    const setup = parseFen(start);
    fullmove = setup.fullmove;
    side = setup.side ? 'black' : 'white';
  } catch (error) {
    tagCursor('FEN').fail(0, (error as Error).message);
  }
  const result = (tags.Result ?? '*') as Result;
  if (!RESULTS.includes(result))
    tagCursor('Result').fail(0, `[Result] must be one of ${RESULTS.join(', ')}, found "${result}"`);
  return { rules, as: filtered === 'no' ? undefined : (filtered as Side), start, result, fullmove, side };
}

/** The events of a game being read, each with where it came from. */
interface Events {
  list: ViewEvent[];
  positions: SourcePosition[];
  push(event: ViewEvent, line: number, column: number): void;
}

/** One turn, `12. e2e4 {capture,checks:attempts;extras}` as matched by TURN, read into events. */
interface TurnLine {
  m: RegExpExecArray;
  side: Side;
  line: number;
  cursor: Cursor;
  lead: number;
}

/** The extras after `;`: announcements before the turn (pawn tries, "Any?") become events; promotion and game end go into the percept. */
function readExtras(turn: TurnLine, extras: string[], column: number, percept: Percept, events: Events): void {
  const { cursor, side, line } = turn;
  for (const extra of extras) {
    const x = extra.trim();
    if (/^T\d+$/.test(x) || x === 'T+' || x === 'T-' || x.startsWith('T@')) {
      if (x.startsWith('T@'))
        events.push({ type: 'pawn-tries', side, squares: parseSquares(x.slice(2), cursor, column + 2) }, line, column);
      else if (x === 'T+' || x === 'T-') events.push({ type: 'pawn-tries', side, exists: x === 'T+' }, line, column);
      else if (Number(x.slice(1)) > MAX_VIEW_COUNT)
        cursor.fail(column, `pawn-try count ${x.slice(1)} is out of range (an integer from 0 to ${MAX_VIEW_COUNT})`);
      else events.push({ type: 'pawn-tries', side, count: Number(x.slice(1)) }, line, column);
    } else if (x === 'A+' || x === 'A-') {
      events.push({ type: 'any', side, yes: x === 'A+' } satisfies AnyEvent, line, column);
    } else if (x === 'P') percept.promotion = true;
    else if ((ENDS as string[]).includes(x)) percept.end = x as End;
    else cursor.fail(column, `unknown announcement '${x}' (expected T…, A+, A-, P or a game end)`);
    column += extra.length + 1;
  }
}

/** An opponent's turn in a view: the Illegal attempts heard (a count, where the rules tell it) and, once made, his move's announcements. */
function readOpponentTurn(
  turn: TurnLine,
  header: Header,
  attemptsText: string,
  attemptsColumn: number,
  moveColumn: number,
  percept: Percept,
  inProgress: boolean,
  events: Events,
): void {
  const { cursor, side, line } = turn;
  let illegal: number | undefined;
  if (attemptsText !== '') {
    if (!/^\d+$/.test(attemptsText))
      cursor.fail(
        attemptsColumn,
        `in ${header.as}'s view the opponent's attempts are a count, found '${attemptsText}'`,
      );
    illegal = Number(attemptsText);
    if (illegal > MAX_VIEW_COUNT)
      cursor.fail(
        attemptsColumn,
        `Illegal count ${attemptsText} is out of range (an integer from 0 to ${MAX_VIEW_COUNT})`,
      );
  }
  if (header.rules.illegalHeardBy === 'mover' && illegal !== undefined)
    cursor.fail(attemptsColumn, 'these rules do not tell a player how many Illegal attempts his opponent made');
  const event: OpponentMoveEvent = { type: 'opponent-move', side };
  if (illegal !== undefined) event.illegal = illegal;
  if (!inProgress) event.percept = percept;
  // a turn in progress is an event only once something of it was heard
  if (!inProgress || (illegal ?? 0) > 0) events.push(event, line, moveColumn);
}

/** One's own turn (or either side's in a record): the rejected attempts in order, then the legal move with its announcements. */
function readOwnTurn(
  turn: TurnLine,
  header: Header,
  attempts: string,
  attemptsColumn: number,
  moveColumn: number,
  percept: Percept,
  inProgress: boolean,
  events: Events,
): void {
  const { cursor, side, line, m } = turn;
  let column = attemptsColumn + (attempts.length - attempts.trimStart().length);
  for (const token of attempts.trim().split(/\s+/).filter(Boolean)) {
    if (token === 'A+' || token === 'A-') {
      events.push({ type: 'any', side, yes: token === 'A+' } satisfies AnyEvent, line, column);
      column += token.length + 1;
      continue;
    }
    const nonsense = token.endsWith('?');
    const move = nonsense ? token.slice(0, -1) : token;
    if (!UCI.test(move))
      cursor.fail(
        column,
        `bad attempt '${token}' (expected UCI like e2e4 or e7e8q, with ? for a Nonsense answer, or A+ / A- for "Any?")`,
      );
    events.push(
      { type: 'attempt', side, attempt: move, percept: { answer: nonsense ? 'nonsense' : 'illegal' } },
      line,
      column,
    );
    column += token.length + 1;
  }
  if (inProgress) return;
  const attempt = m[3];
  if (!UCI.test(attempt) && !(header.as === undefined && /^[A-Za-z]/.test(attempt)))
    cursor.fail(
      moveColumn,
      `bad move '${attempt}' (expected UCI like e2e4${header.as === undefined ? ' or SAN' : ''})`,
    );
  events.push({ type: 'attempt', side, attempt, percept }, line, moveColumn);
}

/** Reads one turn line; true when it is a turn still in progress (*), after which no turn may follow. */
function readTurn(turn: TurnLine, raw: string, header: Header, events: Events): boolean {
  const { m, cursor, lead, side } = turn;
  const moveColumn = raw.indexOf(m[3], lead + m[1].length + m[2].length);
  const bodyColumn = raw.indexOf('{', moveColumn) + 1;
  const [main, ...extras] = m[4].split(';');
  const colon = main.indexOf(':');
  if (colon < 0) cursor.fail(bodyColumn, "expected ':' between the announcements and the attempts");
  const comma = main.indexOf(',');
  if (comma < 0 || comma > colon) cursor.fail(bodyColumn, "expected ',' between the capture and the checks");
  const percept: Percept = { answer: 'legal' };
  parseCapture(main.slice(0, comma), cursor, bodyColumn, percept);
  parseChecks(main.slice(comma + 1, colon), cursor, bodyColumn + comma + 1, percept);
  const attemptsColumn = bodyColumn + colon + 1;
  const inProgress = m[3] === '*';
  const hidden = m[3] === '??';
  const opponent = header.as !== undefined && side !== header.as;
  if (opponent && !hidden && !inProgress)
    cursor.fail(
      moveColumn,
      `${side}'s moves are hidden in ${header.as}'s view: write ?? (or * for a turn in progress)`,
    );
  if (!opponent && hidden) cursor.fail(moveColumn, `?? stands only for the opponent's moves in a view`);
  if (inProgress && (percept.capture !== undefined || percept.check))
    cursor.fail(bodyColumn, 'a turn in progress has no capture or check yet');
  readExtras(turn, extras, bodyColumn + main.length + 1, percept, events);
  if (inProgress && (percept.promotion || percept.end))
    cursor.fail(bodyColumn, 'a turn in progress has no promotion or game end yet');
  if (opponent)
    readOpponentTurn(
      turn,
      header,
      main.slice(colon + 1).trim(),
      attemptsColumn,
      moveColumn,
      percept,
      inProgress,
      events,
    );
  else readOwnTurn(turn, header, main.slice(colon + 1), attemptsColumn, moveColumn, percept, inProgress, events);
  return inProgress;
}

/** Parses a KPGN record or view. Syntax only: validateRecord replays a record through the referee. */
export function parseKpgn(text: string, firstLine = 1): ParsedKpgn {
  const lines = text.split(/\r?\n/);
  const offset = firstLine - 1;
  const { tags, tagLine, next } = readTags(lines, offset);
  const header = readHeader(tags, tagLine, lines, firstLine, next);
  const { result, as } = header;
  const events: Events = {
    list: [],
    positions: [],
    push(event, line, column) {
      this.list.push(event);
      this.positions.push({ line: offset + line, column: column + 1 });
    },
  };
  let { fullmove, side } = header;
  let finished = false;
  let sawResult = false;
  for (let index = next; index < lines.length; index++) {
    const raw = lines[index];
    const trimmed = raw.trim();
    const cursor: Cursor = new Cursor(offset + index + 1, raw);
    const lead = raw.length - raw.trimStart().length;
    if (trimmed === '' || trimmed.startsWith('%')) continue;
    if (sawResult) cursor.fail(lead, 'text after the result');
    if (RESULTS.includes(trimmed as Result)) {
      if (trimmed !== result) cursor.fail(lead, `result ${trimmed} differs from the [Result] tag ${result}`);
      sawResult = true;
      continue;
    }
    if (trimmed.startsWith('[')) cursor.fail(lead, 'tag after the moves');
    const m = TURN.exec(trimmed);
    if (!m) cursor.fail(lead, 'expected a turn like `12. e2e4 {capture,checks:attempts}` or `12... ?? {,:2}`');
    if (finished) cursor.fail(lead, 'a turn after a turn still in progress (*)');
    const turnSide: Side = m[2] === '.' ? 'white' : 'black';
    if (Number(m[1]) !== fullmove) cursor.fail(lead, `expected move number ${fullmove}, found ${m[1]}`);
    if (turnSide !== side)
      cursor.fail(
        lead + m[1].length,
        `expected ${side} to move (${fullmove}${side === 'white' ? '.' : '...'}), found ${turnSide}`,
      );
    if (readTurn({ m, side: turnSide, line: index + 1, cursor, lead }, raw, header, events)) finished = true;
    else {
      if (turnSide === 'black') fullmove++;
      side = turnSide === 'white' ? 'black' : 'white';
    }
  }
  const own = Object.fromEntries(Object.entries(tags).filter(([k]) => !RESERVED_TAGS.has(k)));
  const common = {
    rules: header.rules,
    start: header.start,
    white: tags.White ?? '?',
    black: tags.Black ?? '?',
    result,
    tags: own,
  };
  const startAt = tagLine.FEN ? { line: offset + tagLine.FEN, column: 1 } : undefined;
  const resultAt = tagLine.Result ? { line: offset + tagLine.Result, column: 1 } : undefined;
  if (as === undefined)
    return {
      kind: 'record',
      record: { ...common, events: events.list as RecordEvent[] },
      positions: events.positions,
      startAt,
      resultAt,
    };
  return { kind: 'view', view: { ...common, as, events: events.list }, positions: events.positions, startAt, resultAt };
}

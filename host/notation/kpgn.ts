// KPGN: Kriegspiel PGN, in the style of the Berkeley/UMD "v0.9" transcripts, extended for the
// rule sets krieg supports. docs/rules-and-notation.md ("Record notation") is the reference; in short:
//
//   [Variant "berkeley"]              preset name; [Rules "key=value …"] lists flags that differ
//   [Filtered "no"]                   "no": a full record; "white"/"black": that player's view
//   [FEN "…"]                         only when the game did not start from the initial position
//   1. e2e4 {,:}                      White's turn: the legal attempt, then {capture,checks:attempts}
//   1... ?? {e4p,RN:2;T1}             Black's turn as White hears it: 2 Illegal attempts
//   2. d1h5 {,:d1d3 a2b3?;A+}         Illegal d1d3, Nonsense a2b3, then d1h5 legal; "Any?" answered yes
//   5. * {,:c1g5}                     a turn still in progress (the view ends while this side is to move)
//
// capture: square, then p (a pawn) or x (a piece) under pawn-or-piece rules, then ep if announced.
// checks: N R F L S (Knight, Rank, File, Long, Short diagonal), or C for a plain "check".
// attempts: own attempts before the legal one, in order, a Nonsense one marked ?, and "Any?" (A+ or
// A-) where it was asked after other attempts; for an opponent turn in a view, the number of
// Illegal attempts heard (empty when the rules hide it).
// extras after ;: pawn tries T<count> / T+ / T- / T@<squares> (T@- none), Any? A+ / A- asked first,
// promotion announced P, game end checkmate | stalemate | draw-material | draw-fifty | draw-repetition.
// Moves are written in UCI coordinates; a full record's legal moves may also be read in SAN.
import { fail } from '../errors';
import { START_FEN, parseFen } from './fen';
import { makeSquare, parseSquare } from './square';
import { DIRECTIONS, ENDS, type End, type Percept } from '../record/percept';
import { preset, describeRules, withOverrides, RULE_KEYS, flagName, ruleKeyOf, type RuleSet } from '../record/rules';
import {
  MAX_VIEW_COUNT,
  type GameRecord,
  type View,
  type ViewEvent,
  type RecordEvent,
  type AttemptEvent,
  type PawnTriesEvent,
  type AnyEvent,
  type OpponentMoveEvent,
  type Side,
  type Result,
} from '../record/record';

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

const RESULTS: Result[] = ['1-0', '0-1', '1/2-1/2', '*'];
const RESERVED_TAGS = new Set(['Variant', 'Rules', 'Filtered', 'FEN', 'White', 'Black', 'Result', 'SetUp']);

// ---- writing ----

function quote(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

function header(
  rules: RuleSet,
  start: string,
  white: string,
  black: string,
  result: Result,
  tags: Record<string, string>,
  filtered: string,
): string[] {
  const { variant, overrides } = describeRules(rules);
  const lines = Object.entries(tags)
    .filter(([k]) => !RESERVED_TAGS.has(k))
    .map(([k, v]) => `[${k} "${quote(v)}"]`);
  lines.push(
    `[White "${quote(white)}"]`,
    `[Black "${quote(black)}"]`,
    `[Result "${result}"]`,
    `[Variant "${variant}"]`,
  );
  const flags = Object.entries(overrides).map(([k, v]) => `${flagName(k as keyof RuleSet)}=${v}`);
  if (flags.length) lines.push(`[Rules "${flags.join(' ')}"]`);
  lines.push(`[Filtered "${filtered}"]`);
  if (start !== START_FEN) lines.push(`[SetUp "1"]`, `[FEN "${start}"]`);
  return lines;
}

/** A legal percept as KPGN writes it ("e4p,RN"; with extras ";P;checkmate"), for messages. */
export function makePerceptKpgn(p: Percept): string {
  if (p.answer !== 'legal') return p.answer;
  return `{${captureText(p)},${checkText(p)}${p.promotion ? ';P' : ''}${p.end ? ';' + p.end : ''}}`;
}

function captureText(p: Percept | undefined): string {
  if (!p || p.capture === undefined) return '';
  return (
    makeSquare(p.capture) +
    (p.captured === 'pawn' ? 'p' : p.captured === 'piece' ? 'x' : '') +
    (p.enPassant ? 'ep' : '')
  );
}

function checkText(p: Percept | undefined): string {
  if (!p) return '';
  if (p.directions)
    return DIRECTIONS.filter((d) => p.directions! & d.bit)
      .map((d) => d.code)
      .join('');
  return p.check ? 'C' : '';
}

export function makePawnTriesKpgn(e: PawnTriesEvent): string {
  if (e.count !== undefined) return `T${e.count}`;
  if (e.exists !== undefined) return e.exists ? 'T+' : 'T-';
  return 'T@' + (e.squares && e.squares.length ? e.squares.map(makeSquare).join('') : '-');
}

interface Turn {
  side: Side;
  extras: string[];
  attempts: (AttemptEvent | AnyEvent)[];
  legal?: AttemptEvent;
  opponent?: OpponentMoveEvent;
}

function turnsOf(events: readonly ViewEvent[]): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  const open = (side: Side) => {
    if (!current || current.side !== side || current.legal || current.opponent?.percept) {
      current = { side, extras: [], attempts: [] };
      turns.push(current);
    }
    return current;
  };
  for (const e of events) {
    const turn = open(e.side);
    if (e.type === 'pawn-tries') turn.extras.push(makePawnTriesKpgn(e));
    else if (e.type === 'any' && turn.attempts.length === 0) turn.extras.push(e.yes ? 'A+' : 'A-');
    else if (e.type === 'any') turn.attempts.push(e);
    else if (e.type === 'opponent-move') turn.opponent = e;
    else if (e.percept.answer === 'legal') turn.legal = e;
    else turn.attempts.push(e);
  }
  return turns;
}

function writeTurns(events: readonly ViewEvent[], start: string): string[] {
  let number = parseFen(start).fullmove;
  const lines: string[] = [];
  for (const turn of turnsOf(events)) {
    const percept = turn.legal?.percept ?? turn.opponent?.percept;
    const move = turn.opponent ? (turn.opponent.percept ? '??' : '*') : turn.legal ? turn.legal.attempt : '*';
    const attempts = turn.opponent
      ? turn.opponent.illegal === undefined
        ? ''
        : String(turn.opponent.illegal)
      : turn.attempts
          .map((a) =>
            a.type === 'any' ? (a.yes ? 'A+' : 'A-') : a.attempt + (a.percept.answer === 'nonsense' ? '?' : ''),
          )
          .join(' ');
    const extras = [...turn.extras];
    if (percept?.promotion) extras.push('P');
    if (percept?.end) extras.push(percept.end);
    const body = `${captureText(percept)},${checkText(percept)}:${attempts}${extras.map((x) => ';' + x).join('')}`;
    lines.push(`${number}${turn.side === 'white' ? '.' : '...'} ${move} {${body}}`);
    if (turn.side === 'black' && percept) number++;
  }
  return lines;
}

export function makeRecordKpgn(record: GameRecord): string {
  return [
    ...header(record.rules, record.start, record.white, record.black, record.result, record.tags, 'no'),
    '',
    ...writeTurns(record.events, record.start),
    record.result,
    '',
  ].join('\n');
}

export function makeViewKpgn(view: View): string {
  return [
    ...header(view.rules, view.start, view.white, view.black, view.result, view.tags, view.as),
    '',
    ...writeTurns(view.events, view.start),
    view.result,
    '',
  ].join('\n');
}

// ---- reading ----

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

/** Splits a file of KPGN games (a game starts at a tag line that follows moves) and parses each. */
export function parseKpgnGames(text: string): ParsedKpgn[] {
  const lines = text.split(/\r?\n/);
  const games: ParsedKpgn[] = [];
  let start = -1;
  let inMoves = false;
  const flush = (end: number) => {
    if (start >= 0) games.push(parseKpgn(lines.slice(start, end).join('\n'), start + 1));
  };
  lines.forEach((line, i) => {
    const t = line.trim();
    if (t.startsWith('[') && (start < 0 || inMoves)) {
      flush(i);
      start = i;
      inMoves = false;
    } else if (t !== '' && !t.startsWith('%') && !t.startsWith('[')) {
      if (start < 0) start = i;
      inMoves = true;
    }
  });
  flush(lines.length);
  if (games.length === 0) throw fail('bad-kpgn', { line: 1, column: 1, reason: 'no game found' });
  return games;
}

/** Where a game of a KPGN text begins: the offset of its first line (bytes of UTF-8) and the line's index (0-based). */
export interface GameStart {
  offset: number;
  line: number;
}

const BLANK_LINE = 0; // empty, white space or a % comment
const TAG_LINE = 1;
const MOVE_LINE = 2;

/** The length of the UTF-8 white space character (as String.prototype.trim sees it: Zs and U+FEFF) at `i`, or 0. */
function blankLength(bytes: Uint8Array, i: number, length: number): number {
  const [a, b, c] = [bytes[i], i + 1 < length ? bytes[i + 1] : -1, i + 2 < length ? bytes[i + 2] : -1];
  if (a === 0xc2) return b === 0xa0 ? 2 : 0;
  if (a === 0xe1) return b === 0x9a && c === 0x80 ? 3 : 0;
  if (a === 0xe2 && b === 0x80) return c >= 0x80 && (c <= 0x8a || c === 0xa8 || c === 0xa9 || c === 0xaf) ? 3 : 0;
  if (a === 0xe2) return b === 0x81 && c === 0x9f ? 3 : 0;
  if (a === 0xe3) return b === 0x80 && c === 0x80 ? 3 : 0;
  return a === 0xef && b === 0xbb && c === 0xbf ? 3 : 0;
}

/**
 * The games of a KPGN text given in pieces of UTF-8 bytes, found as parseKpgnGames splits them (a
 * game begins at its first line that is not blank, a tag line after moves begins the next) without
 * making any text: only the first character of each line that is not white space is looked at, so
 * a file of any size is scanned in one pass, and a reader parses only the game it wants. `onGame`
 * hears each game once its end is known (the next game's first line, or the end of the text), with
 * its number (1-based); returning true stops the scan (`stopped`).
 */
export class KpgnGameScanner {
  /** Games found so far. */
  games = 0;
  stopped = false;
  private line = 0;
  private lineStart = 0;
  private kind: number | undefined;
  private start: GameStart | undefined;
  private inMoves = false;

  constructor(private readonly onGame: (n: number, start: GameStart, end: number) => boolean | void) {}

  /**
   * Scans `bytes[0, length)`, the bytes from offset `base` of the text: how many it took, all of
   * them unless a character is cut at the end of the piece and more follow (`last` false), which
   * are then given again at the start of the next piece (so a piece that is not the last holds at
   * least 3 bytes).
   */
  feed(bytes: Uint8Array, length: number, base: number, last: boolean): number {
    let i = 0;
    while (i < length && !this.stopped) {
      if (this.kind !== undefined) {
        const newline = bytes.indexOf(10, i);
        if (newline < 0 || newline >= length) return length;
        this.endLine(base + newline + 1);
        i = newline + 1;
        continue;
      }
      const b = bytes[i];
      if (b === 10) this.endLine(base + i + 1);
      else if (b === 32 || (b >= 9 && b <= 13)) {
        // white space before the line's first character
      } else if (b < 0x80) this.kind = b === 91 /* [ */ ? TAG_LINE : b === 37 /* % */ ? BLANK_LINE : MOVE_LINE;
      else if (!last && i + 3 > length) return i;
      else {
        const blank = blankLength(bytes, i, length);
        if (blank > 0) i += blank - 1;
        else this.kind = MOVE_LINE;
      }
      i++;
    }
    return length;
  }

  /** The end of the text, at offset `size`: the last game is heard. */
  end(size: number): void {
    if (this.stopped) return;
    if (this.lineStart < size) this.endLine(size);
    this.flush(size);
  }

  private endLine(next: number): void {
    const kind = this.kind ?? BLANK_LINE;
    if (kind === TAG_LINE && (this.start === undefined || this.inMoves)) {
      this.flush(this.lineStart);
      this.start = { offset: this.lineStart, line: this.line };
      this.inMoves = false;
    } else if (kind === MOVE_LINE) {
      this.start ??= { offset: this.lineStart, line: this.line };
      this.inMoves = true;
    }
    this.line++;
    this.lineStart = next;
    this.kind = undefined;
  }

  private flush(end: number): void {
    if (this.start === undefined || this.stopped) return;
    if (this.onGame(++this.games, this.start, end) === true) this.stopped = true;
    this.start = undefined;
  }
}

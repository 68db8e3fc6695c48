// Writing KPGN (the format: host/notation/kpgn.ts, docs/rules-and-notation.md): a record or a view,
// turn by turn, and a percept or the pawn tries as KPGN writes them, for messages.
import { START_FEN, parseFen } from '../fen';
import { makeSquare } from '../square';
import { DIRECTIONS, type Percept } from '../../record/percept';
import { describeRules, flagName, type RuleSet } from '../../record/rules';
import {
  type GameRecord,
  type View,
  type ViewEvent,
  type AttemptEvent,
  type PawnTriesEvent,
  type AnyEvent,
  type OpponentMoveEvent,
  type Side,
  type Result,
} from '../../record/record';
import { RESERVED_TAGS } from './read';

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

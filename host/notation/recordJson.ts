// JSON form of records and views (schema: docs/rules-and-notation.md, "Record notation"). Squares are names
// ("e4"), check directions are names, everything else mirrors host/record/record.ts:
//   { "format": "krieg-record" | "krieg-view", "version": 1, "variant": "berkeley",
//     "rules": { <flags that differ from the variant> }, "start": FEN, "white", "black",
//     "result", "tags": {…}, "as": "white" | "black" (views), "events": [ … ] }
// An event: {"type":"attempt","side","attempt":"e2e4","percept":{"answer","capture","captured",
//   "enPassant","check","directions":[…],"end","promotion"}} | {"type":"pawn-tries","side",
//   "count" | "exists" | "squares":[…]} | {"type":"any","side","yes"} | {"type":"opponent-move",
//   "side","illegal"?,"percept"?}
import { KriegError, fail } from '../errors';
import { parseFen } from './fen';
import { makeSquare, parseSquare } from './square';
import { DIRECTIONS, ENDS, ANSWERS, type Percept } from '../record/percept';
import { preset, describeRules, withOverrides, type RuleSet } from '../record/rules';
import { MAX_VIEW_COUNT, type GameRecord, type View, type ViewEvent, type Side, type Result } from '../record/record';
import type { ParsedKpgn, SourcePosition } from './kpgn';

export const JSON_VERSION = 1;

function perceptJson(p: Percept): Record<string, unknown> {
  const out: Record<string, unknown> = { answer: p.answer };
  if (p.capture !== undefined) out.capture = makeSquare(p.capture);
  if (p.captured) out.captured = p.captured;
  if (p.enPassant) out.enPassant = true;
  if (p.check) out.check = true;
  if (p.directions) out.directions = DIRECTIONS.filter((d) => p.directions! & d.bit).map((d) => d.name);
  if (p.end) out.end = p.end;
  if (p.promotion) out.promotion = true;
  return out;
}

/** The JSON form of one event of a record or view (an item of "events"; the engine protocol's events too). */
export function eventToJson(e: ViewEvent): Record<string, unknown> {
  if (e.type === 'attempt') return { type: e.type, side: e.side, attempt: e.attempt, percept: perceptJson(e.percept) };
  if (e.type === 'pawn-tries') {
    const out: Record<string, unknown> = { type: e.type, side: e.side };
    if (e.count !== undefined) out.count = e.count;
    if (e.exists !== undefined) out.exists = e.exists;
    if (e.squares !== undefined) out.squares = e.squares.map(makeSquare);
    return out;
  }
  if (e.type === 'any') return { ...e };
  const out: Record<string, unknown> = { type: e.type, side: e.side };
  if (e.illegal !== undefined) out.illegal = e.illegal;
  if (e.percept) out.percept = perceptJson(e.percept);
  return out;
}

function documentJson(kind: 'krieg-record' | 'krieg-view', g: GameRecord | View, as?: Side): Record<string, unknown> {
  const { variant, overrides } = describeRules(g.rules);
  const doc: Record<string, unknown> = {
    format: kind,
    version: JSON_VERSION,
    variant,
    rules: overrides,
    start: g.start,
    white: g.white,
    black: g.black,
    result: g.result,
    tags: g.tags,
  };
  if (as) doc.as = as;
  doc.events = (g.events as ViewEvent[]).map(eventToJson);
  return doc;
}

export const recordToJson = (r: GameRecord) => documentJson('krieg-record', r);
export const viewToJson = (v: View) => documentJson('krieg-view', v, v.as);

// ---- reading, with the line of every value for error messages ----

/** Offset of the first character where `text` stops being JSON (JSON.parse does not always say). */
function syntaxErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const expect = (c: string) => {
    if (text[i] !== c) fail();
    i++;
  };
  const string = () => {
    expect('"');
    while (text[i] !== '"') {
      if (i >= text.length || text.charCodeAt(i) < 32) fail();
      if (text[i] === '\\') {
        i++;
        if (!'"\\/bfnrtu'.includes(text[i] ?? '')) fail();
      }
      i++;
    }
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        expect(':');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        expect('}');
        return;
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        expect(']');
        return;
      }
    }
    if (c === '"') return string();
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
  } catch (offset) {
    return offset as number;
  }
  return text.length;
}

/**
 * Line and column (1-based) where each value starts, by JSON path ("events.3.percept"), in a text
 * JSON.parse accepted: outside strings it holds only JSON's four whitespace characters, and a
 * number or literal ends at one of them or at , ] }. Every parse of a record or view pays it, so
 * it compares character codes rather than running a regular expression per character, and names
 * only the values at most `depth` levels down (the events, not their fields: the rest is located
 * again, whole, only to name a bad field).
 */
export function locate(text: string, depth = Infinity): Map<string, SourcePosition> {
  const where = new Map<string, SourcePosition>();
  let i = 0;
  const lineStarts = [0];
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) lineStarts.push(k + 1);
  const position = (offset: number): SourcePosition => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
  };
  const space = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
  const ws = () => {
    while (i < text.length && space(text.charCodeAt(i))) i++;
  };
  const string = (wanted = true) => {
    const start = i++;
    let escaped = false;
    while (text[i] !== '"') {
      if (text[i] === '\\') {
        escaped = true;
        i++;
      }
      i++;
    }
    i++;
    if (!wanted) return '';
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  /** The end of a number or literal: whitespace, or , ] } (44, 93, 125). */
  const ends = (c: number) => space(c) || c === 44 || c === 93 || c === 125;
  /** The value at `i`, named `path` when it is `level` (at most `depth`) levels down. */
  const value = (path: string, level: number) => {
    ws();
    const named = level <= depth;
    if (named) where.set(path, position(i));
    const inner = level < depth;
    if (text[i] === '{') {
      i++;
      ws();
      while (text[i] !== '}') {
        ws();
        const key = string(inner);
        ws();
        i++;
        value(inner ? (path ? `${path}.${key}` : key) : '', level + 1);
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (text[i] === '[') {
      i++;
      ws();
      for (let n = 0; text[i] !== ']'; n++) {
        value(inner ? (path ? `${path}.${n}` : String(n)) : '', level + 1);
        ws();
        if (text[i] === ',') i++;
        ws();
      }
      i++;
    } else if (text[i] === '"') string(false);
    else while (i < text.length && !ends(text.charCodeAt(i))) i++;
  };
  value('', 0);
  return where;
}

class Reader {
  private located?: Map<string, SourcePosition>;
  /** `source`: the document's text, located whole only to name a bad field (none: a value without its text). */
  constructor(private source?: string) {}
  fail(path: string, reason: string): never {
    if (this.source === undefined) throw fail('bad-json', { path, reason }); // eventFromJson
    const where = (this.located ??= locate(this.source));
    let key = path;
    while (!where.has(key) && key.includes('.')) key = key.slice(0, key.lastIndexOf('.'));
    const p = where.get(key) ?? { line: 1, column: 1 };
    throw fail('bad-json', { line: p.line, column: p.column, path: path || 'document', reason });
  }
  object(v: unknown, path: string): Record<string, unknown> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, 'expected an object');
    return v as Record<string, unknown>;
  }
  oneOf<T extends string>(v: unknown, choices: readonly T[], path: string): T {
    if (v === undefined)
      this.fail(
        path,
        `missing field "${path.slice(path.lastIndexOf('.') + 1)}" (one of ${choices.map((c) => JSON.stringify(c)).join(', ')})`,
      );
    if (!choices.includes(v as T))
      this.fail(
        path,
        `expected one of ${choices.map((c) => JSON.stringify(c)).join(', ')}, found ${JSON.stringify(v)}`,
      );
    return v as T;
  }
  square(v: unknown, path: string): number {
    const sq = typeof v === 'string' ? parseSquare(v) : -1;
    if (sq < 0) this.fail(path, `expected a square like "e4", found ${JSON.stringify(v)}`);
    return sq;
  }
  count(v: unknown, path: string): number {
    if (!Number.isInteger(v) || (v as number) < 0)
      this.fail(path, `expected a non-negative integer, found ${JSON.stringify(v)}`);
    if ((v as number) > MAX_VIEW_COUNT)
      this.fail(
        path,
        `${path.endsWith('illegal') ? 'Illegal' : 'pawn-try'} count ${JSON.stringify(v)} is out of range (an integer from 0 to ${MAX_VIEW_COUNT})`,
      );
    return v as number;
  }
  bool(v: unknown, path: string): boolean {
    if (typeof v !== 'boolean') this.fail(path, `expected true or false, found ${JSON.stringify(v)}`);
    return v;
  }
  text(v: unknown, path: string): string {
    if (v === undefined) this.fail(path, `missing field "${path.slice(path.lastIndexOf('.') + 1)}"`);
    if (typeof v !== 'string') this.fail(path, `expected a string, found ${JSON.stringify(v)}`);
    return v;
  }
  known(o: Record<string, unknown>, keys: string[], path: string): void {
    for (const k of Object.keys(o)) if (!keys.includes(k)) this.fail(path ? `${path}.${k}` : k, `unknown field "${k}"`);
  }
  percept(v: unknown, path: string): Percept {
    const o = this.object(v, path);
    this.known(o, ['answer', 'capture', 'captured', 'enPassant', 'check', 'directions', 'end', 'promotion'], path);
    const p: Percept = { answer: this.oneOf(o.answer, ANSWERS, `${path}.answer`) };
    if (p.answer !== 'legal' && Object.keys(o).length > 1)
      this.fail(path, `an ${p.answer} answer announces nothing else`);
    if (o.capture !== undefined) p.capture = this.square(o.capture, `${path}.capture`);
    if (o.captured !== undefined) p.captured = this.oneOf(o.captured, ['pawn', 'piece'] as const, `${path}.captured`);
    if (o.enPassant !== undefined && this.bool(o.enPassant, `${path}.enPassant`)) p.enPassant = true;
    if (o.check !== undefined && this.bool(o.check, `${path}.check`)) p.check = true;
    if (o.directions !== undefined) {
      if (!Array.isArray(o.directions)) this.fail(`${path}.directions`, 'expected a list of directions');
      let bits = 0;
      o.directions.forEach((name, k) => {
        const d = DIRECTIONS.find((x) => x.name === name);
        if (!d || bits & d.bit)
          this.fail(
            `${path}.directions.${k}`,
            `expected one of ${DIRECTIONS.map((x) => `"${x.name}"`).join(', ')} (each once), found ${JSON.stringify(name)}`,
          );
        bits |= d.bit;
      });
      if (bits) {
        p.directions = bits;
        if (!p.check) this.fail(`${path}.check`, 'check directions without "check": true');
      }
    }
    if (o.end !== undefined) p.end = this.oneOf(o.end, ENDS, `${path}.end`);
    if (o.promotion !== undefined && this.bool(o.promotion, `${path}.promotion`)) p.promotion = true;
    return p;
  }
  event(v: unknown, path: string, view: boolean): ViewEvent {
    const o = this.object(v, path);
    const type = this.oneOf(
      o.type,
      view ? (['attempt', 'pawn-tries', 'any', 'opponent-move'] as const) : (['attempt', 'pawn-tries', 'any'] as const),
      `${path}.type`,
    );
    const side = this.oneOf(o.side, ['white', 'black'] as const, `${path}.side`);
    if (type === 'attempt') {
      this.known(o, ['type', 'side', 'attempt', 'percept'], path);
      return {
        type,
        side,
        attempt: this.text(o.attempt, `${path}.attempt`),
        percept: this.percept(o.percept, `${path}.percept`),
      };
    }
    if (type === 'any') {
      this.known(o, ['type', 'side', 'yes'], path);
      return { type, side, yes: this.bool(o.yes, `${path}.yes`) };
    }
    if (type === 'pawn-tries') {
      this.known(o, ['type', 'side', 'count', 'exists', 'squares'], path);
      const fields = ['count', 'exists', 'squares'].filter((k) => o[k] !== undefined);
      if (fields.length !== 1) this.fail(path, 'pawn tries need exactly one of "count", "exists", "squares"');
      if (o.count !== undefined) return { type, side, count: this.count(o.count, `${path}.count`) };
      if (o.exists !== undefined) return { type, side, exists: this.bool(o.exists, `${path}.exists`) };
      if (!Array.isArray(o.squares)) this.fail(`${path}.squares`, 'expected a list of squares');
      return { type, side, squares: o.squares.map((s, k) => this.square(s, `${path}.squares.${k}`)) };
    }
    this.known(o, ['type', 'side', 'illegal', 'percept'], path);
    const event: ViewEvent = { type: 'opponent-move', side };
    if (o.illegal !== undefined) event.illegal = this.count(o.illegal, `${path}.illegal`);
    if (o.percept !== undefined) event.percept = this.percept(o.percept, `${path}.percept`);
    return event;
  }
}

/**
 * One event of a view from its JSON form (already parsed: the engine protocol's `event` messages);
 * a bad field is `bad-json` naming it under `path`.
 */
export function eventFromJson(value: unknown, path = 'event'): ViewEvent {
  return new Reader().event(value, path, true);
}

/** Parses the JSON form of a record or view (syntax and schema; validateRecord checks the play). */
export function parseRecordJson(text: string): ParsedKpgn {
  const games = parseRecordJsonGames(text);
  if (games.length !== 1)
    throw fail('bad-json', { line: 1, column: 1, reason: `expected one game, found ${games.length}` });
  return games[0];
}

/** How deep a record or ks-game document may nest (theirs nest a handful of levels). */
export const MAX_JSON_NESTING = 100;

/**
 * The offset of the first bracket nested deeper than `max` levels in JSON `text` (strings skipped),
 * or -1: checked before parsing, so a hostile document is refused in one line instead of
 * exhausting the stack of JSON.parse or of a recursive reader.
 */
export function tooDeep(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92 /* \ */) i++;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return i;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return -1;
}

/** JSON.parse, with a syntax error (or nesting past MAX_JSON_NESTING) reported at its line and column. */
export function parseJson(text: string): unknown {
  const deep = tooDeep(text, MAX_JSON_NESTING);
  if (deep >= 0) {
    const before = text.slice(0, deep);
    throw fail('bad-json', {
      line: before.split('\n').length,
      column: deep - before.lastIndexOf('\n'),
      reason: `nested deeper than ${MAX_JSON_NESTING} levels`,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    const offset = syntaxErrorOffset(text);
    const before = text.slice(0, offset);
    const found = offset < text.length ? `'${text[offset]}'` : 'the end of the file';
    throw fail('bad-json', {
      line: before.split('\n').length,
      column: offset - before.lastIndexOf('\n'),
      reason: `invalid JSON: unexpected ${found}`,
    });
  }
}

/** Parses one JSON document (a record or view) or an array of them. */
export function parseRecordJsonGames(text: string): ParsedKpgn[] {
  const doc = parseJson(text);
  // the positions the records keep: each document's fields and events (a list's documents one level down)
  const where = locate(text, Array.isArray(doc) ? 3 : 2);
  const r: Reader = new Reader(text);
  if (Array.isArray(doc)) {
    if (doc.length === 0) r.fail('', 'no game found (an empty list)');
    return doc.map((d, i) => readDocument(r, where, d, `${i}.`));
  }
  return [readDocument(r, where, doc, '')];
}

function readDocument(r: Reader, where: Map<string, SourcePosition>, doc: unknown, prefix: string): ParsedKpgn {
  const path = (p: string) => prefix + p;
  const o = r.object(doc, prefix.slice(0, -1));
  const format = r.oneOf(o.format, ['krieg-record', 'krieg-view'] as const, path('format'));
  if (o.version !== JSON_VERSION)
    r.fail(
      path('version'),
      `unsupported version ${JSON.stringify(o.version)} (this krieg reads version ${JSON_VERSION})`,
    );
  r.known(
    o,
    ['format', 'version', 'variant', 'rules', 'start', 'white', 'black', 'result', 'tags', 'as', 'events'],
    prefix.slice(0, -1),
  );
  let base: RuleSet;
  try {
    base = preset(r.text(o.variant, path('variant')));
  } catch (error) {
    if (error instanceof KriegError && error.code === 'bad-json') throw error;
    r.fail(path('variant'), (error as Error).message);
  }
  let rules: RuleSet;
  try {
    rules = withOverrides(base, r.object(o.rules ?? {}, path('rules')));
  } catch (error) {
    if (error instanceof KriegError && error.code === 'bad-json') throw error;
    r.fail(path('rules'), (error as Error).message);
  }
  const start = r.text(o.start, path('start'));
  try {
    parseFen(start);
  } catch (error) {
    r.fail(path('start'), (error as Error).message);
  }
  const tags = r.object(o.tags ?? {}, path('tags')) as Record<string, string>;
  for (const [k, v] of Object.entries(tags)) r.text(v, path(`tags.${k}`));
  const result = r.oneOf(o.result ?? '*', ['1-0', '0-1', '1/2-1/2', '*'] as const, path('result')) as Result;
  const list = o.events;
  if (!Array.isArray(list)) r.fail(path('events'), 'expected a list of events');
  const view = format === 'krieg-view';
  const events = (list as unknown[]).map((e, i) => r.event(e, path(`events.${i}`), view));
  const positions = events.map((_, i) => where.get(path(`events.${i}`))!);
  const common = {
    rules,
    start,
    white: r.text(o.white ?? '?', path('white')),
    black: r.text(o.black ?? '?', path('black')),
    result,
    tags,
  };
  const startAt = where.get(path('start'));
  const resultAt = where.get(path('result'));
  if (!view) {
    if (o.as !== undefined) r.fail(path('as'), 'a record has no "as" (that is a view)');
    return {
      kind: 'record',
      record: { ...common, events: events as GameRecord['events'] },
      positions,
      startAt,
      resultAt,
    };
  }
  const as = r.oneOf(o.as, ['white', 'black'] as const, path('as'));
  return { kind: 'view', view: { ...common, as, events }, positions, startAt, resultAt };
}

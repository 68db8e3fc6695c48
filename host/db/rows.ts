// One validation of the problem database's rows (issue #38 G7): every column of a row checked
// against what krieg writes there, so that a damaged value (one whose row checksum was computed
// again afterwards, as a buggy writer would leave it) is refused in one line naming the database,
// the row and the column, whichever command reads it. ProblemDb (./database.node.ts) runs it on every
// row when it opens a file and on every instance it returns; the web page's reader
// (host/web/problemDb.ts) on every instance it opens. Nothing here needs Node.
import { fail } from '../errors';
import { parseRulesJson, PRESETS } from '../record/rules';
import { parseFen } from '../notation/fen';
import { parseKpgn } from '../notation/kpgn';
import { parseRecordJson, viewToJson } from '../notation/recordJson';
import { strategyFromJson } from '../solver/strategy';
import type { ProblemClass } from '../solver/problemFile';

/**
 * A cell as sql.js returns it (its SqlValue), spelled out so that the package's public types do not
 * need sql.js's (a user of the library installs no @types/sql.js).
 */
export type SqlValue = number | string | Uint8Array | null;

export interface GameRow {
  game: number;
  gameSeed: number;
  setup: string;
  plies: number;
  result: string;
  dropped: boolean;
  maxBelief: number;
  instances: number;
  recordKpgn: string;
}

export interface InstanceRow {
  id: number;
  key: string;
  rules: string;
  rulesJson: string;
  ply: number;
  cls: ProblemClass;
  beliefSize: number;
  viewKpgn: string;
  viewJson: string;
  positions: string[];
  seed: number;
  game: number;
  cutPly: number;
  sourceId: number | null;
  covered: number[];
  strategy: string;
  work: Record<string, number>;
}

/** Which instances: one ply and/or one class (none: all). */
export interface InstanceFilter {
  ply?: number;
  cls?: ProblemClass;
}

export type InstanceSummary = Pick<InstanceRow, 'id' | 'ply' | 'cls' | 'beliefSize' | 'rules' | 'game' | 'cutPly'>;

export interface ResultRow {
  instanceId: number;
  algorithm: string;
  backend: string;
  answer: string;
  nodes: number;
  positions: number;
  ms: number;
  limitMs: number | null;
  machine: string;
  gitCommit: string | null;
  runAt: string;
}

/** What a row's columns are checked against beyond their own shape: the rest of the database. */
export interface RowContext {
  /** How messages name the database (its path, or the name of a file opened in the page). */
  where: string;
  hasGame(game: number): boolean;
  hasInstance(id: number): boolean;
  /** The generator's seed (meta params), which every instance records. */
  seed: number;
  /** The identity of an instance from its ply, rule set and positions, where it can be computed (SHA-1: Node). */
  key?: (ply: number, rulesJson: string, positions: string[]) => string;
}

const MAX = Number.MAX_SAFE_INTEGER;
const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 60);
const isInteger = (v: unknown, min: number, max = MAX): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Checks the columns of one row: `row` names it in messages ("instance 12"). */
class Columns {
  constructor(
    private readonly where: string,
    private readonly row: string,
  ) {}

  bad(column: string, shape: string, detail: string): never {
    throw fail('db-corrupt', {
      where: `${this.where}: ${this.row}`,
      what: `column ${column} must be ${shape}, ${detail}`,
    });
  }

  check<T>(column: string, value: unknown, ok: (v: unknown) => v is T, shape: string): T {
    return ok(value) ? value : this.bad(column, shape, `found ${shown(value)}`);
  }

  integer(column: string, value: SqlValue, min: number, max = MAX): number {
    return this.check(column, value, (v): v is number => isInteger(v, min, max), `an integer from ${min} to ${max}`);
  }

  text(column: string, value: SqlValue): string {
    return this.check(column, value, (v): v is string => typeof v === 'string', 'text');
  }

  /** A text column read by `parse`: its error becomes the column's. */
  parsed<T>(column: string, value: SqlValue, shape: string, parse: (text: string) => T): T {
    const text = this.check(column, value, (v): v is string => typeof v === 'string', shape);
    try {
      return parse(text);
    } catch (error) {
      return this.bad(column, shape, `but ${error instanceof Error ? error.message : String(error)}`.slice(0, 300));
    }
  }

  json(column: string, value: SqlValue, shape: string): unknown {
    return this.parsed(column, value, shape, (text) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error('it is not valid JSON');
      }
    });
  }
}

/** Rule sets already read (every instance of a database usually stores the same one). */
const goodRules = new Set<string>();

function checkRules(text: string): void {
  if (goodRules.has(text)) return;
  parseRulesJson(text);
  if (goodRules.size < 64) goodRules.add(text);
}

/** A view stored in a column: White's, parsed from KPGN or JSON. */
function whiteView(parsed: ReturnType<typeof parseKpgn>) {
  if (parsed.kind !== 'view') throw new Error('it is a full record, not a view');
  if (parsed.view.as !== 'white') throw new Error(`it is ${parsed.view.as}'s view, not White's`);
  return parsed.view;
}

/** Whether JSON `text` is the document `canonical` (as JSON.stringify writes it), whatever its layout. */
function sameJson(text: string, canonical: string): boolean {
  if (text === canonical) return true;
  try {
    return JSON.stringify(JSON.parse(text)) === canonical;
  } catch {
    return false;
  }
}

/** An instance row (its columns in table order, as SELECT * returns them), checked. */
export function instanceOfRow(r: SqlValue[], context: RowContext): InstanceRow {
  const c = new Columns(context.where, `instance ${shown(r[0])}`);
  const id = c.integer('id', r[0], 1);
  const rules = c.check(
    'rules',
    r[2],
    (v): v is string => typeof v === 'string' && (v in PRESETS || v === 'custom'),
    `a preset name (${Object.keys(PRESETS).join(', ')}) or custom`,
  );
  const rulesJson = c.parsed('rules_json', r[3], 'a rule set (JSON)', (text) => {
    checkRules(text);
    return text;
  });
  const ply = c.check(
    'ply',
    r[4],
    (v): v is number => isInteger(v, 1, 99) && v % 2 === 1,
    'an odd integer from 1 to 99 (the mover ends a mate)',
  );
  const cls = c.check(
    'class',
    r[5],
    (v): v is ProblemClass => v === 'mate' || v === 'near-miss',
    "'mate' or 'near-miss'",
  );
  const positions = c.check(
    'positions',
    c.json('positions', r[9], 'a non-empty array of FENs'),
    (v): v is string[] => Array.isArray(v) && v.length > 0 && v.every((f) => typeof f === 'string'),
    'a non-empty array of FENs',
  );
  positions.forEach((fen, i) =>
    c.parsed('positions', fen, 'a non-empty array of FENs', (text) => {
      try {
        return parseFen(text);
      } catch (error) {
        throw new Error(`position ${i + 1}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  const beliefSize = c.check(
    'belief_size',
    r[6],
    (v): v is number => v === positions.length,
    `the number of positions (${positions.length})`,
  );
  const viewKpgn = c.text('view_kpgn', r[7]);
  const kpgnView = c.parsed('view_kpgn', viewKpgn, "White's view (KPGN)", (text) => whiteView(parseKpgn(text)));
  const viewJson = c.text('view_json', r[8]);
  // the JSON krieg writes for the KPGN's view: then both hold the same view (reading the JSON is the
  // slower part of the whole check); else it is read (an older krieg spelt some rules otherwise)
  if (!sameJson(viewJson, JSON.stringify(viewToJson(kpgnView)))) {
    const jsonView = c.parsed('view_json', viewJson, "White's view (krieg-view JSON)", (text) =>
      whiteView(parseRecordJson(text)),
    );
    if (JSON.stringify(jsonView.events) !== JSON.stringify(kpgnView.events))
      c.bad('view_json', 'the view of view_kpgn', 'but their events differ');
  }
  const seed = c.check(
    'seed',
    r[10],
    (v): v is number => v === context.seed,
    `the generator's seed (${context.seed}, meta 'params')`,
  );
  const game = c.check(
    'game',
    r[11],
    (v): v is number => isInteger(v, 1) && context.hasGame(v),
    'a game of the games table',
  );
  const cutPly = c.integer('cut_ply', r[12], 0);
  const sourceId = c.check(
    'source_id',
    r[13],
    (v): v is number | null => v === null || (isInteger(v, 1, id - 1) && context.hasInstance(v)),
    'empty or an earlier instance',
  );
  const n = positions.length;
  const coveredShape =
    cls === 'mate'
      ? `every position index (0 to ${n - 1}) for a mate`
      : `distinct position indices (0 to ${n - 1}), at least half of them and not all, for a near-miss`;
  const covered = c.check(
    'covered',
    c.json('covered', r[14], coveredShape),
    (v): v is number[] =>
      Array.isArray(v) &&
      v.every((i) => isInteger(i, 0, n - 1)) &&
      new Set(v).size === v.length &&
      (cls === 'mate' ? v.length === n : v.length < n && v.length * 2 >= n),
    coveredShape,
  );
  const strategy = c.parsed('strategy', r[15], 'a witness strategy (krieg-strategy JSON)', (text) => {
    strategyFromJson(JSON.parse(text));
    return text;
  });
  const work = c.check(
    'work',
    c.json('work', r[16], 'an object of node counts'),
    (v): v is Record<string, number> =>
      typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => isInteger(x, 0)),
    'an object of node counts',
  );
  const key = c.check(
    'key',
    r[1],
    (v): v is string =>
      typeof v === 'string' &&
      /^[0-9a-f]{40}$/.test(v) &&
      (!context.key || v === context.key(ply, rulesJson, positions)),
    context.key ? 'the SHA-1 of its ply, rule set and positions' : '40 hex digits',
  );
  return {
    id,
    key,
    rules,
    rulesJson,
    ply,
    cls,
    beliefSize,
    viewKpgn,
    viewJson,
    positions,
    seed,
    game,
    cutPly,
    sourceId,
    covered,
    strategy,
    work,
  };
}

export const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

/** A games row, checked (its record is text that no command reads). */
export function gameOfRow(r: SqlValue[], context: Pick<RowContext, 'where'>): GameRow {
  const c = new Columns(context.where, `game ${shown(r[0])}`);
  return {
    game: c.integer('game', r[0], 1),
    gameSeed: c.integer('game_seed', r[1], 0),
    setup: c.parsed('setup', r[2], 'a FEN', (text) => (parseFen(text), text)),
    plies: c.integer('plies', r[3], 0),
    result: c.check('result', r[4], (v): v is string => RESULTS.includes(v as string), RESULTS.join(', ')),
    dropped: c.integer('dropped', r[5], 0, 1) === 1,
    maxBelief: c.integer('max_belief', r[6], 0),
    instances: c.integer('instances', r[7], 0),
    recordKpgn: c.text('record_kpgn', r[8]),
  };
}

/** A results row (`rowid` names it), checked. */
export function resultOfRow(rowid: SqlValue, r: SqlValue[], context: RowContext): ResultRow {
  const c = new Columns(context.where, `results row ${shown(rowid)}`);
  const number = (column: string, v: SqlValue) =>
    c.check(column, v, (x): x is number => typeof x === 'number' && x >= 0, 'a number of at least 0');
  return {
    instanceId: c.check(
      'instance_id',
      r[0],
      (v): v is number => isInteger(v, 1) && context.hasInstance(v),
      'an instance of the database',
    ),
    algorithm: c.check('algorithm', r[1], (v): v is string => typeof v === 'string' && v !== '', 'a name'),
    backend: c.check('backend', r[2], (v): v is string => v === 'wasm' || v === 'js', "'wasm' or 'js'"),
    answer: c.check(
      'answer',
      r[3],
      (v): v is string => v === 'proven' || v === 'disproven' || v === 'unknown',
      'proven, disproven or unknown',
    ),
    nodes: c.integer('nodes', r[4], 0),
    positions: c.integer('positions', r[5], 0),
    ms: number('ms', r[6]),
    limitMs: r[7] === null ? null : number('limit_ms', r[7]),
    machine: c.text('machine', r[8]),
    gitCommit: r[9] === null ? null : c.text('git_commit', r[9]),
    runAt: c.text('run_at', r[10]),
  };
}

/** The generation parameters of meta 'params' (text), checked: a JSON object with the generator's seed. */
export function paramsOf(text: string | undefined, where: string): Record<string, unknown> & { seed: number } {
  const bad = (what: string): never => {
    throw fail('db-corrupt', { where, what: `meta 'params' ${what}` });
  };
  let params: unknown;
  try {
    params = JSON.parse(text ?? '{}');
  } catch {
    return bad('is not valid JSON');
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return bad(`must be a JSON object, found ${shown(params)}`);
  const p = params as Record<string, unknown>;
  if (!isInteger(p.seed, 0, 0x7fffffff))
    bad(`must hold the generator's seed (an integer from 0 to ${0x7fffffff}), found ${shown(p.seed)}`);
  if (p.variant !== undefined && !(typeof p.variant === 'string' && p.variant in PRESETS))
    bad(`must name a preset as its variant, found ${shown(p.variant)}`);
  return p as Record<string, unknown> & { seed: number };
}

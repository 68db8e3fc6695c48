// The endgame tablebase in the page (issue #35 item 3, #37 item 7), answered in the Know worker:
// given a belief of the viewer's (its men, the lone king's squares), the table of its ending and
// rules is fetched the first time one is asked (`egtb/ENDING-TABLE.egtb.gz` beside the page, as
// `npm run web` serves the cache's tables: never before a game reaches the ending), decompressed
// in the worker and loaded into an engine of its own; the probe gives the guaranteed mate in N
// and the attempt that keeps it. A table not served is said in a sentence, and asked again later.
// The game worker fetches the same files for the opponent (krieg), when its game reaches the ending.
import { Engine } from '../engine';
import type { Core } from '../abi';
import { EGTB_RECORDS, egtbLoad, egtbProbe, type EgtbEnding } from '../core/egtb';
import { makeUci } from '../notation/move';
import type { RuleSet } from '../record/rules';
import { KING } from '../constants';
import { decodeTable, egtbEndingOf, egtbTableName } from '../players/egtb';
import type { TableSource } from '../players/player';

/** A belief to value: its positions (the viewer to move), or one of them and the lone king's squares. */
export interface TableQuery {
  rules: RuleSet;
  fens: string[];
  /** The lone king's squares (a1 = 0 … h8 = 63); default: his square in each of `fens`. */
  squares?: number[];
  /** Where the tables are (an absolute URL ending in /). */
  base: string;
}

/** The table's answer for a tabled belief: the value and attempt, or why there is no table. */
export type TableAnswer = { ending: EgtbEnding; table: string; squares: number } & (
  | {
      /** Attacker moves to a sure mate, the mating move included; 0: no forced mate known. */
      value: number;
      /** The attempt that keeps it (UCI). */
      attempt?: string;
      /** The value is a bound (the same men with the king anywhere). */
      bound: boolean;
    }
  | { absent: string }
);

/** The most positions a query may name (one per square of the lone king). */
const MAX_FENS = 64;

let engine: Engine | undefined;
/** The table the engine holds (`ending-table`), and the loads under way. */
let held = '';
const loading = new Map<string, Promise<string | undefined>>();

/** Drops the engine of the tables (the worker's backend changed): the next query makes one and loads its table again. */
export function resetTables(): void {
  engine = undefined;
  held = '';
  loading.clear();
}

/** The men and the lone king's squares of `query`, when they are a tabled state with the attacker to move. */
function stateOf(e: Engine, query: TableQuery): { ending: EgtbEnding; squares: number[] } | undefined {
  const fens = query.fens.slice(0, MAX_FENS);
  if (fens.length === 0) return undefined;
  const setups = fens.map((fen, i) => {
    e.setFen(i, fen);
    return e.setup(i);
  });
  const { board, side } = setups[0];
  const ending = egtbEndingOf(board, side);
  if (!ending) return undefined;
  const king = ((1 - side) << 3) | KING;
  const men = (b: number[]) => b.map((code) => (code === king ? 0 : code)).join(',');
  if (setups.some((s) => s.side !== side || men(s.board) !== men(board))) return undefined;
  return { ending, squares: query.squares ?? [...new Set(setups.map((s) => s.board.indexOf(king)))] };
}

/** Fetches a table: its header and entries, or why not (a sentence). */
async function fetchTable(
  ending: EgtbEnding,
  table: string,
  base: string,
): Promise<ReturnType<typeof decodeTable> | string> {
  const name = `${ending}-${table}.egtb.gz`;
  let response: Response;
  try {
    response = await fetch(new URL(name, base));
  } catch {
    return `the ${name} tablebase could not be fetched here (the page opened from a file? \`npm run web\` serves it)`;
  }
  if (!response.ok || !response.body)
    return `no ${name} tablebase is served here: build it with \`npx krieg egtb build ${ending}\` (about a minute), then \`npm run web\` serves it`;
  const bytes = new Uint8Array(
    await new Response(response.body.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer(),
  );
  return decodeTable(bytes, name);
}

/** Fetches and loads a table into the engine; undefined when loaded, else why not (a sentence). */
async function load(e: Engine, ending: EgtbEnding, table: string, base: string): Promise<string | undefined> {
  const got = await fetchTable(ending, table, base);
  if (typeof got === 'string') return got;
  egtbLoad(e, ending, got.entries, got.header.starts);
  return undefined;
}

/** The game worker's tables for its opponent, by `ending-table`: fetched, being fetched, or not served. */
const fetched = new Map<string, ReturnType<typeof decodeTable> | Promise<void> | 'absent'>();

/**
 * The game's opponent's TableSource (the game worker): a table is fetched from `base` the first time
 * the player asks for it, and loaded into its engine at its first turn after it came (until then,
 * and for a table not served, false: its endgame search plays). A table is fetched once a worker.
 */
export function fetchedTables(base: string): TableSource {
  return (engine, ending, table) => {
    const key = `${ending}-${table}`;
    const got = fetched.get(key);
    if (got === undefined) {
      const pending = fetchTable(ending, table, base).then(
        (read) => void fetched.set(key, typeof read === 'string' ? 'absent' : read),
        () => void fetched.set(key, 'absent'),
      );
      fetched.set(key, pending);
    }
    if (got === undefined || got === 'absent' || got instanceof Promise) return false;
    egtbLoad(engine, ending, got.entries, got.header.starts);
    return true;
  };
}

/**
 * The table's value of `query`'s belief (undefined when it is not a tabled state); `onLoading`
 * hears that a table is being fetched.
 */
export async function answerTable(
  makeCore: () => Core,
  query: TableQuery,
  onLoading: (what: string) => void,
): Promise<TableAnswer | undefined> {
  const e = (engine ??= new Engine(makeCore(), MAX_FENS + EGTB_RECORDS));
  e.setRules(query.rules);
  const state = stateOf(e, query);
  if (!state) return undefined;
  const table = egtbTableName(query.rules);
  const key = `${state.ending}-${table}`;
  const about = { ending: state.ending, table, squares: state.squares.length };
  if (held !== key) {
    let pending = loading.get(key);
    if (!pending) {
      onLoading(key);
      pending = load(e, state.ending, table, query.base).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    const absent = await pending;
    if (engine !== e) return answerTable(makeCore, query, onLoading); // the backend changed meanwhile
    if (absent !== undefined) return { ...about, absent };
    held = key;
    e.setRules(query.rules);
    stateOf(e, query); // the positions again: another query may have used the records meanwhile
  }
  const probe = egtbProbe(e, 0, state.squares);
  return {
    ...about,
    value: probe.value,
    ...(probe.attempt >= 0 ? { attempt: makeUci(probe.attempt) } : {}),
    bound: probe.bound,
  };
}

// Endgame tablebases (assembly/players/egtb.ts) as host values: a table built in slices (the
// start states, the breadth-first enumeration, the sweeps of mate in n), its entries read out and
// loaded back, and probes. With host/engine.ts and the other files of host/core/, the only host
// code that calls the core's exports.
import type { Engine } from '../engine';
import { fail } from '../errors';
import {
  EGTB_OK,
  EGTB_NO_ROOM,
  EGTB_BAD_ENDING,
  EGTB_BAD_ARGS,
  EGTB_BAD_STATE,
  EGTB_RECORDS,
  EGTB_ENTRY_WORDS,
  EGTB_KRK,
  EGTB_KQK,
  EGTB_KBBK,
  EGTB_KBNK,
} from '../constants';

export { EGTB_ENTRY_WORDS, EGTB_RECORDS } from '../constants';

/** The endings, by name, and their codes in the core. */
export const EGTB_ENDINGS = { krk: EGTB_KRK, kqk: EGTB_KQK, kbbk: EGTB_KBBK, kbnk: EGTB_KBNK } as const;
export type EgtbEnding = keyof typeof EGTB_ENDINGS;

const TEXT: Record<number, string> = {
  [EGTB_NO_ROOM]: 'the tablebase is full (give it a larger capacity)',
  [EGTB_BAD_ENDING]: 'not a tablebase ending',
  [EGTB_BAD_ARGS]: 'the tablebase records or capacity lie outside the arena (or no table is loaded)',
  [EGTB_BAD_STATE]: "not the table's ending with the attacker to move, or a king square on a man or an attacked square",
};

function check(status: number): void {
  if (status !== EGTB_OK) throw fail('egtb-status', { text: TEXT[status] ?? `tablebase status ${status}` });
}

/** The records the tablebase uses (the top of the arena). */
export const egtbStack = (engine: Engine) => engine.capacity - EGTB_RECORDS;

/**
 * Starts an empty table of `ending` with room for 2^log2 states and 2^edgeLog2 words of the
 * build's graph (0: none, a table only probed), under the engine's rules.
 */
export function egtbInit(engine: Engine, ending: EgtbEnding, log2: number, edgeLog2 = 0): void {
  check(engine.core.exports.egtbInit(EGTB_ENDINGS[ending], log2, edgeLog2, egtbStack(engine)));
}

/** Inserts the start states (the king anywhere consistent with each placement of the men); how many. */
export function egtbStarts(engine: Engine): number {
  check(engine.core.exports.egtbStarts());
  return engine.core.exports.egtbStartCount();
}

function setWords(squares: Iterable<number>): [number, number] {
  const words: [number, number] = [0, 0];
  for (const sq of squares) words[sq >> 5] |= 1 << (sq & 31);
  return words;
}

/** Adds the state of position `handle`'s men (the attacker to move) with the lone king on `squares` as a start. */
export function egtbAddStart(engine: Engine, handle: number, squares: Iterable<number>): void {
  const [lo, hi] = setWords(squares);
  check(engine.core.exports.egtbAddStart(handle, lo, hi));
}

/** Expands up to `budget` states (none `depthLimit` moves or more from a start); the states expanded so far and the states known. */
export function egtbEnumerate(
  engine: Engine,
  budget: number,
  depthLimit = 0x7fffffff,
): { done: number; count: number } {
  const x = engine.core.exports;
  check(x.egtbEnumerate(budget, depthLimit));
  return { done: x.egtbCursor(), count: x.egtbCount() };
}

/** Values n the states of [first, end) whose mate in n is now proven; how many. */
export function egtbSweep(engine: Engine, n: number, first: number, end: number): number {
  return engine.core.exports.egtbSweep(n, first, end);
}

/** The build's graph by default: 2^(log2 + 5) words (room for every state), at most 2^28 (1 GB). */
export const graphLog2Of = (log2: number) => Math.min(28, log2 + 5);

export interface EgtbBuildOptions {
  /** Room for 2^log2 states. */
  log2: number;
  /** Room for 2^graphLog2 words of the build's graph (graphLog2Of(log2) by default; 0: none); the states past it are recomputed by each sweep. */
  graphLog2?: number;
  /** Start from these states (a position's men, the king's squares) instead of every placement with the king anywhere. */
  around?: { handle: number; squares: Iterable<number> }[];
  /** Expand no state this many attacker moves or more from a start (the mates proven are those within it). */
  depth?: number;
  progress?: (what: string) => void;
  /** States per slice between progress reports. */
  slice?: number;
}

export interface EgtbBuilt {
  states: number;
  starts: number;
  /** The longest mate in the table (attacker moves). */
  longest: number;
  /** States valued n, for n = 1 … longest ([0] unused). */
  byValue: number[];
  /** Words of the build's graph. */
  edges: number;
  /** The states the graph held (the first ones; the sweeps recomputed the rest). */
  graphStates: number;
}

/** Builds a table (the starts, the enumeration, the sweeps of mate in n) under the engine's rules. */
export function egtbBuild(engine: Engine, ending: EgtbEnding, options: EgtbBuildOptions): EgtbBuilt {
  const { log2, progress = () => {}, slice = 20_000 } = options;
  egtbInit(engine, ending, log2, options.graphLog2 ?? graphLog2Of(log2));
  if (options.around) for (const { handle, squares } of options.around) egtbAddStart(engine, handle, squares);
  else egtbStarts(engine);
  const starts = egtbStartCount(engine);
  for (;;) {
    const { done, count } = egtbEnumerate(engine, slice, options.depth);
    progress(`enumerated ${done} of ${count} states`);
    if (done === count) break;
  }
  const count = egtbCount(engine);
  // with the whole graph one sweep values every mate in n; past it, the sweep repeats until it values nothing
  const whole = engine.core.exports.egtbGraphStates() === count;
  const byValue = [0];
  for (let n = 1; ; n++) {
    let level = 0;
    for (;;) {
      let valued = 0;
      for (let first = 0; first < count; first += slice * 50) valued += egtbSweep(engine, n, first, first + slice * 50);
      level += valued;
      if (valued === 0 || whole) break;
    }
    if (level === 0) break;
    progress(`mate in ${n}: ${level} states`);
    byValue.push(level);
  }
  const x = engine.core.exports;
  return {
    states: count,
    starts,
    longest: byValue.length - 1,
    byValue,
    edges: x.egtbEdgeCount(),
    graphStates: x.egtbGraphStates(),
  };
}

export const egtbCount = (engine: Engine) => engine.core.exports.egtbCount();
export const egtbStartCount = (engine: Engine) => engine.core.exports.egtbStartCount();

/** The table's entries (a view into the core: copy it before the next egtbInit). */
export function egtbEntries(engine: Engine): Int32Array {
  const x = engine.core.exports;
  return engine.core.view(x.egtbBuffer()).subarray(0, x.egtbCount() * EGTB_ENTRY_WORDS);
}

/** Loads entries (as egtbEntries gave them) into an empty table of `ending`. */
export function egtbLoad(engine: Engine, ending: EgtbEnding, entries: Int32Array, starts: number): void {
  const states = entries.length / EGTB_ENTRY_WORDS;
  let log2 = 4;
  while (1 << log2 < states) log2++;
  egtbInit(engine, ending, log2, 0);
  engine.core.view(engine.core.exports.egtbBuffer()).set(entries);
  check(engine.core.exports.egtbLoaded(states, starts));
}

export interface EgtbProbe {
  /** Attacker moves to a sure mate, the mating move included; 0: no forced mate known. */
  value: number;
  /** The table's own value of the state (−1: the state is not in the table; the value then comes from its successors). */
  stored: number;
  /** An attempt that keeps the value (an attempt code), or −1. */
  attempt: number;
  /** The value is a bound: the same men with the king anywhere (a superset of the state's squares) mate within it, by `attempt` first. */
  bound: boolean;
}

/** Values position `handle`'s men (the attacker to move) with the lone king on `squares` ('anywhere': every square consistent with the men). */
export function egtbProbe(engine: Engine, handle: number, squares: Iterable<number> | 'anywhere'): EgtbProbe {
  const [lo, hi] = squares === 'anywhere' ? [-1, -1] : setWords(squares);
  const x = engine.core.exports;
  check(x.egtbProbe(handle, lo, hi));
  return {
    value: x.egtbProbeValue(),
    stored: x.egtbProbeStored(),
    attempt: x.egtbProbeAttempt(),
    bound: x.egtbProbeBound() === 1,
  };
}

/**
 * After `attempt` from the state the last probe valued, the attacker to move in `handle` with the
 * king on `squares`: the squares of the table's state the attempt led to that holds them (the
 * least valued such), or undefined. Probing it instead of the exact set follows one strategy.
 */
export function egtbFollow(
  engine: Engine,
  attempt: number,
  handle: number,
  squares: Iterable<number>,
): number[] | undefined {
  const [lo, hi] = setWords(squares);
  const x = engine.core.exports;
  check(x.egtbFollow(attempt, handle, lo, hi));
  const words = [x.egtbFollowLow(), x.egtbFollowHigh()];
  if ((words[0] | words[1]) === 0) return undefined;
  const out: number[] = [];
  for (let sq = 0; sq < 64; sq++) if ((words[sq >> 5] >>> (sq & 31)) & 1) out.push(sq);
  return out;
}

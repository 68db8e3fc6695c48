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
  /**
   * Called between slices with where the build stands and why: after a slice, once at the
   * enumeration's end, at a level's end. It may take a checkpoint (egtbSnapshot) or throw to stop.
   */
  checkpoint?: (at: EgtbAt, why: 'slice' | 'enumerated' | 'level') => void;
  /** Resume instead of starting: fills the core after egtbInit (egtbRestore from a checkpoint); where it stood. */
  resume?: (engine: Engine) => EgtbAt;
}

/**
 * Where a build stands: enumerating (level 0), or in a sweep of level `level` whose states before
 * `next` are decided, `valued` of them in this sweep (past the graph the sweep repeats until one values none).
 */
export interface EgtbAt {
  level: number;
  next: number;
  valued: number;
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

/**
 * Builds a table (the starts, the enumeration, the sweeps of mate in n) under the engine's rules, or
 * resumes one from a checkpoint: the same table either way (the enumeration is deterministic, a
 * level's sweep values the same states whatever it valued before it stopped).
 */
export function egtbBuild(engine: Engine, ending: EgtbEnding, options: EgtbBuildOptions): EgtbBuilt {
  const { log2, progress = () => {}, slice = 20_000, checkpoint = () => {} } = options;
  egtbInit(engine, ending, log2, options.graphLog2 ?? graphLog2Of(log2));
  const x = engine.core.exports;
  let from: EgtbAt = { level: 1, next: 0, valued: 0 };
  if (options.resume) from = options.resume(engine);
  else if (options.around) for (const { handle, squares } of options.around) egtbAddStart(engine, handle, squares);
  else egtbStarts(engine);
  const starts = egtbStartCount(engine);
  if (x.egtbCursor() < egtbCount(engine)) {
    for (;;) {
      const { done, count } = egtbEnumerate(engine, slice, options.depth);
      progress(`enumerated ${done} of ${count} states`);
      if (done === count) break;
      checkpoint({ level: 0, next: done, valued: 0 }, 'slice');
    }
    from = { level: 1, next: 0, valued: 0 };
    checkpoint(from, 'enumerated');
  }
  const count = egtbCount(engine);
  // a resumed build: the levels before from.level are done, that level's states before from.next decided
  const byValue = [0];
  const counts = valueCounts(egtbEntries(engine));
  for (let n = 1; n < from.level; n++) byValue.push(counts[n] ?? 0);
  // with the whole graph one sweep values every mate in n; past it, the sweep repeats until it values nothing
  const whole = x.egtbGraphStates() === count;
  const range = slice * 50;
  for (let n = from.level; ; n++) {
    const resumed = n === from.level;
    let level = resumed ? (counts[n] ?? 0) : 0;
    for (let sweep = 0; ; sweep++) {
      const goOn = resumed && sweep === 0; // the sweep the checkpoint was in
      let valued = goOn ? from.valued : 0;
      for (let first = goOn ? from.next : 0; first < count; first += range) {
        const got = egtbSweep(engine, n, first, first + range);
        valued += got;
        level += got;
        checkpoint({ level: n, next: first + range, valued }, 'slice');
      }
      if (valued === 0 || whole) break;
    }
    if (level === 0) break;
    progress(`mate in ${n}: ${level} states`);
    byValue.push(level);
    checkpoint({ level: n + 1, next: 0, valued: 0 }, 'level');
  }
  return {
    states: count,
    starts,
    longest: byValue.length - 1,
    byValue,
    edges: x.egtbEdgeCount(),
    graphStates: x.egtbGraphStates(),
  };
}

/** States by value in entries (as egtbEntries gives them): [n] the states valued n ([0] none). */
function valueCounts(entries: Int32Array): number[] {
  const counts = [0];
  for (let i = 3; i < entries.length; i += EGTB_ENTRY_WORDS) {
    const v = entries[i];
    while (counts.length <= v) counts.push(0);
    counts[v]++;
  }
  return counts;
}

/** Where a build stands between slices (a checkpoint's figures). */
export interface EgtbPlace {
  /** States known, the start states among them, the states expanded (states: the enumeration done). */
  states: number;
  starts: number;
  expanded: number;
  /** The states with a graph, and its words. */
  graphStates: number;
  edges: number;
}

/**
 * A build's state between slices: its place and its arrays, views into the core (write them out
 * before the build goes on): the entries, the bits of the states left unexpanded, each graph
 * state's first word, the graph's words (below 2^27, then past them).
 */
export function egtbSnapshot(engine: Engine): { place: EgtbPlace; sections: Int32Array[] } {
  const x = engine.core.exports;
  const place: EgtbPlace = {
    states: x.egtbCount(),
    starts: x.egtbStartCount(),
    expanded: x.egtbCursor(),
    graphStates: x.egtbGraphStates(),
    edges: x.egtbEdgeCount(),
  };
  return { place, sections: sectionViews(engine, place) };
}

function sectionViews(engine: Engine, place: EgtbPlace): Int32Array[] {
  const x = engine.core.exports;
  const view = (ref: unknown, words: number) => engine.core.view(ref).subarray(0, words);
  const low = engine.core.view(x.egtbEdgeBuffer());
  // the low array holds 2^27 words when the graph has more (it is never longer), all of them else
  const lowWords = Math.min(place.edges, low.length);
  const starts = engine.core.view(x.egtbEdgeStartBuffer());
  return [
    view(x.egtbBuffer(), place.states * EGTB_ENTRY_WORDS),
    view(x.egtbUnexpandedBuffer(), (place.states >> 5) + 1),
    starts.subarray(0, Math.min(starts.length, Math.min(place.expanded, place.graphStates) + 1)),
    low.subarray(0, lowWords),
    view(x.egtbEdgeHighBuffer(), place.edges - lowWords),
  ];
}

/**
 * Takes up a checkpoint after egtbInit with the build's arguments (in egtbBuild's `resume`): `fill`
 * writes the checkpoint's arrays into the views it is given (egtbSnapshot's sections, as long).
 */
export function egtbRestore(engine: Engine, place: EgtbPlace, fill: (sections: Int32Array[]) => void): void {
  fill(sectionViews(engine, place));
  const { states, starts, expanded, graphStates, edges } = place;
  check(engine.core.exports.egtbResume(states, starts, expanded, graphStates, edges));
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
  check(engine.core.exports.egtbResume(states, starts, states, 0, 0));
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

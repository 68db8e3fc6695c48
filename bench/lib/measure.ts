// The measurements behind bench/figures.ts and bench/auto.ts, as stored in
// bench/results/figures/runs.json, and the questions asked of them.
import type { Algorithm, Answer } from '../../host/solver/solve';
import type { ProblemClass } from '../../host/solver/problemFile';

/** An instance as the figures describe it (bench/lib/instances.ts BenchInstance, without the problem). */
export interface InstanceInfo {
  key: string;
  db: string;
  id: number;
  game: number;
  ply: number;
  cls: ProblemClass;
  size: number;
  /** Pieces besides the king: White's, and Black's (the same in every position of a belief state). */
  whitePieces: number;
  blackPieces: number;
}

/** One solve: `ms` is null when the answer is unknown (a limit: time, nodes or memory). */
export interface Run {
  answer: Answer;
  nodes: number;
  positions: number;
  ms: number | null;
  limitMs: number;
}

export interface InterleaveRun {
  sequential: { answer: Answer; ms: number | null; beliefPositions: number };
  interleaved: { answer: Answer; ms: number | null; beliefPositions: number };
}

export interface BackendRun {
  answer: Answer;
  nodes: number;
  positions: number;
  wasmMs: number;
  jsMs: number;
}

export interface Measurements {
  machine: unknown;
  commit: string;
  dirty: boolean;
  date: string;
  options: {
    limitMs: number;
    longLimitMs: number;
    memoryMiB: number;
    perClass: number;
    quick: boolean;
    databases: string[];
    plies?: number[];
  };
  instances: InstanceInfo[];
  /** runs[key][algorithm]: every algorithm on every instance, WASM, with the base limit. */
  runs: Record<string, Partial<Record<Algorithm, Run>>>;
  /** Runs of dfs and le-dfs again with the long limit, on beliefs of ≥ LONG_BELIEF positions where the base limit stopped them. */
  long: Record<string, Partial<Record<Algorithm, Run>>>;
  interleave: Record<string, InterleaveRun>;
  backends: Record<string, Partial<Record<Algorithm, BackendRun>>>;
}

export const LONG_BELIEF = 50;

/** Counts the pieces other than kings of each colour in a FEN's board field. */
export function material(fen: string): { white: number; black: number } {
  const board = fen.split(' ')[0];
  let white = 0;
  let black = 0;
  for (const c of board) {
    if (/[PNBRQ]/.test(c)) white++;
    else if (/[pnbrq]/.test(c)) black++;
  }
  return { white, black };
}

/** The time of an algorithm on an instance, with the long run when there is one: ms, or null (not answered), and the limit. */
export function timeOf(
  m: Measurements,
  key: string,
  algorithm: Algorithm,
): { ms: number | null; limitMs: number } | undefined {
  const run = m.long[key]?.[algorithm] ?? m.runs[key]?.[algorithm];
  return run ? { ms: run.ms, limitMs: run.limitMs } : undefined;
}

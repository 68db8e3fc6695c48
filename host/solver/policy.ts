// The shape of an algorithm-selection policy for `--algo auto` (host/solver/auto.ts follows one;
// bench/auto.ts learns one and writes it to the generated autoPolicy.ts): a list of rules over a
// problem's cheap features, each naming a schedule.
import type { Algorithm } from './solve';

export interface Schedule {
  first: Algorithm;
  /** Nodes `first` may make before `then` takes over (absent: `first` alone, to the answer or the caller's limits). */
  probeNodes?: number;
  then?: Algorithm;
}

/** A leaf of the learned decision tree: the schedule for problems whose features lie in every given range (inclusive). */
export interface AutoRule {
  ply?: [number, number];
  size?: [number, number];
  ownPieces?: [number, number];
  opponentPieces?: [number, number];
  schedule: Schedule;
}

export interface AutoPolicy {
  /** First match wins; the last rule has no conditions. */
  rules: AutoRule[];
  /** What it was learned from (data, split, commit). */
  trainedOn: string;
}

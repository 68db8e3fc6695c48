// The self-play programs' part of the core's ABI (assembly/players/score.ts) as host values: every
// attempt of the side to move scored over a set of positions. With host/engine.ts and the other
// files of host/core/, the only host code that calls the core's exports.
import type { Engine } from '../engine';
import { SCORE_WORDS, S_LEGAL, S_TACTICAL, S_EVAL, S_MATES } from '../constants';

/** What the core says of one attempt over a set of positions. */
export interface AttemptScore {
  attempt: number;
  /** Positions where it is legal, where it captures or checks, where it mates. */
  legal: number;
  tactical: number;
  mates: number;
  /** With lookahead: the 2-ply evaluation summed over the positions where it is legal. */
  evalSum: number;
}

/**
 * Scores every attempt of the side to move over positions [first, first + count), using records
 * `scratch` and scratch + 1; `lookahead` adds the 2-ply evaluation.
 */
export function scoreAttempts(
  engine: Engine,
  first: number,
  count: number,
  scratch: number,
  lookahead: boolean,
): AttemptScore[] {
  const x = engine.core.exports;
  const n = x.scoreAttempts(first, count, scratch, lookahead ? 1 : 0);
  const attempts = engine.view('attempts');
  const scores = engine.core.view(x.scoreBuffer());
  return Array.from({ length: n }, (_, i) => {
    const s = i * SCORE_WORDS;
    return {
      attempt: attempts[i],
      legal: scores[s + S_LEGAL],
      tactical: scores[s + S_TACTICAL],
      mates: scores[s + S_MATES],
      evalSum: scores[s + S_EVAL],
    };
  });
}

// State estimation (Russell & Wolfe 2005, section 2): the belief state of a player is every full
// position consistent with his view. Own attempts filter the candidates (and a legal one moves
// them); announcements before a turn filter them; an opponent's turn keeps the candidates with at
// least as many attemptable-but-illegal moves as Illegal answers heard, and replaces each by every
// legal move of his whose announcements match. Three forms:
// - breadth-first (bfs*): the naive layer-by-layer expansion, duplicates removed after each event;
// - depth-first (dfs*): a resumable stream of consistent current positions, one branch at a time,
//   duplicates removed at the output, and a position reached again after the same opponent move
//   followed only once; also counts every consistent history (information sets);
// - a randomized depth-first sampler (sample*): restarts a shuffled descent for each position.
// Every run works in budgets: a call does at most `budget` units of work (positions generated) and
// returns ESTIMATE_MORE, so the host can stop on time limits and show progress; a full store is
// ESTIMATE_LIMIT, never a trap.
//
// Position records used (POSITIONS handles):
// | handles                      | use                                                         |
// |------------------------------|-------------------------------------------------------------|
// | 0 … 15                       | the host's (the root is given by handle)                   |
// | STACK_BASE … + 2 × (levels+1)| depth-first: per level, the position after the opponent's move and after the own move |
// | BATCH_BASE … + MAX_MOVES − 1 | depth-first positions mode: the opponent's last turn played as one batch |
// | storeBase() … end − 1        | the output store (depth-first, sampler) or two layers (breadth-first); depth-first positions mode also keeps the positions it has followed in the free records at the top; `end` is the arena's end, or where an interleaved search's records begin |

//
// This file holds what both estimators share: statuses, the records they use, the run's work and
// failure, and duplicate removal. What a position must satisfy is consistency.ts; the estimators
// are bfs.ts (breadth-first) and stream.ts (depth-first, the sampler and information sets).

import { positionCapacity } from '../chess/position';
import { MAX_MOVES, LEVEL_LISTS } from '../chess/moveGen';
import { rule, RULE_FIFTY_MOVES } from '../referee/rules';
import { PositionSet } from './positionSet';

export const ESTIMATE_DONE: i32 = 0;
export const ESTIMATE_MORE: i32 = 1;
export const ESTIMATE_LIMIT: i32 = 2;
export const ESTIMATE_TOO_DEEP: i32 = 3;
export const ESTIMATE_INCONSISTENT: i32 = 4;
/** Depth-first: a position (dfsLast) was found; call dfsNext again for the next one. */
export const ESTIMATE_FOUND: i32 = 5;
/** Depth-first: every branch has been followed. */
export const ESTIMATE_EXHAUSTED: i32 = 6;

export const STACK_BASE: i32 = 16;
const STACK_RECORDS: i32 = 2 * (LEVEL_LISTS + 1);
export const BATCH_BASE: i32 = STACK_BASE + STACK_RECORDS;
export function storeBase(): i32 {
  return BATCH_BASE + MAX_MOVES;
}
/** The end of the estimator's records: the arena's end, or less when a search shares the arena (interleaving). */
export let arenaEnd: i32 = 0;
export function storeCapacity(): i32 {
  return arenaEnd - storeBase();
}

// ---- the run: work spent and where the view failed (both estimators) ----

let failedAt: i32 = -1;
export let work: f64 = 0;

/** A new run in the records below `end`: no work yet, no failure. */
export function startRun(end: i32): void {
  arenaEnd = min(end, positionCapacity());
  failedAt = -1;
  work = 0;
}
export function addWork(units: f64): void {
  work += units;
}
/** The view is inconsistent at event `e`. */
export function failAt(e: i32): void {
  failedAt = e;
}

export function estimateFailedAt(): i32 {
  return failedAt;
}
export function estimateWork(): f64 {
  return work;
}

// ---- duplicate removal ----

/** The distinct positions output (breadth-first: of the layer being built). */
export const OUTPUTS = new PositionSet();

export function clearOutputs(): void {
  OUTPUTS.clear(rule(RULE_FIFTY_MOVES) != 0);
}

/** Adds `h` to the outputs unless an equal position is there. */
export function insertUnique(h: i32): bool {
  if (OUTPUTS.has(h, 0)) return false;
  OUTPUTS.add(h, 0);
  return true;
}

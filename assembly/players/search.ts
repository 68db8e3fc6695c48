// The fully observable search of the sampling players: Parker, Nau & Subrahmanian's (2005 §4)
// Evaluate-board, for which they modified GNU Chess. A negamax alpha-beta search (principal
// variation search) with iterative deepening, check extensions, a capture quiescence search, move
// ordering (the table's move, captures by most valuable victim / least valuable attacker, two
// killer moves per ply, a history table) and a transposition table. Every run takes a depth and a
// node budget; a run that reaches its budget returns the last depth it completed (statuses, never
// traps). Integer arithmetic throughout: the WASM and JS builds count the same nodes.
//
// Values are centipawns for the side to move at the searched position; a mate is MATE − plies
// (plies from the position the caller gave: mated in n plies is −(MATE − n)); a draw is 0.
//
// Position records: the caller names a stack of MAX_PLY records; ply p of a search uses record
// stackBase + p and move list p of the pool (lists 0 … MAX_PLY − 1, chess/moveGen.ts).
//
// Transposition table (TT, TT_WORDS = 4 Int32 words per entry, 2^bits entries; index = key lo & mask):
// | word | field      | meaning                                                                      |
// |------|------------|------------------------------------------------------------------------------|
// | 0    | check      | the key's hi word (the lo word's low bits are the index)                     |
// | 1    | packed     | best move (bits 0..15) | depth + 1 (16..23; 0: empty entry) | bound (24..25)  |
// | 2    | value      | a mate stored as plies from this position (see toTable / fromTable)        |
// | 3    | generation | the run that stored it: older entries are replaced first                     |

import {
  POSITIONS,
  POSITION_SHIFT,
  W_SIDE,
  W_HALFMOVE,
  W_KEY_LO,
  W_KEY_HI,
  MOVE_EN_PASSANT,
  MOVE_PROMOTION,
  makeMove,
  copyPosition,
  pieceAt,
  inCheck,
  positionCapacity,
} from '../chess/position';
import { MOVES, MAX_MOVES, listOffset, generateMoves, kingCanStep } from '../chess/moveGen';
import { rule, RULE_STALEMATE_LOSES, RULE_FIFTY_MOVES } from '../referee/rules';
import { insufficientMaterial } from '../referee/referee';
import { evaluate, PIECE_VALUE } from './evaluate';
import { newArena } from '../chess/arena';

export const SEARCH_OK: i32 = 0;
/** The node budget ran out: the result is that of the last depth completed (at least the first). */
export const SEARCH_NODE_LIMIT: i32 = 1;
export const SEARCH_BAD_HANDLE: i32 = 2;
export const SEARCH_BAD_DEPTH: i32 = 3;

/** Plies of one search, quiescence included (records and move lists it uses). */
export const MAX_PLY: i32 = 60;
export const MAX_DEPTH: i32 = 40;
export const MATE: i32 = 30000;
/** |value| above this: a forced mate, MATE − |value| plies away. */
export const MATE_BOUND: i32 = MATE - 1000;
const INFINITY: i32 = 32000;

const BOUND_EXACT: i32 = 1;
const BOUND_LOWER: i32 = 2; // value >= beta: a lower bound
const BOUND_UPPER: i32 = 3; // value <= alpha: an upper bound

const TT_WORDS: i32 = 4;
export const DEFAULT_TABLE_BITS: i32 = 16;
let TT: Int32Array = new Int32Array(0);
let ttMask: i32 = 0;
let generation: i32 = 0;

// Move ordering: scores of the moves of each ply's list, killers (2 per ply), history per side/from/to.
const ORDER = newArena(MAX_PLY * MAX_MOVES);
const KILLERS = new Int32Array(MAX_PLY * 2);
const HISTORY = newArena(2 * 64 * 64);
const TT_MOVE_SCORE: i32 = 1 << 30;
const CAPTURE_SCORE: i32 = 1 << 24;
const KILLER_SCORE: i32 = 1 << 22;
const HISTORY_MAX: i32 = 1 << 20;

// The run in progress.
let stackBase: i32 = 0;
let nodes: i32 = 0;
let nodeLimit: i32 = 0;
let abortable: bool = false;
let aborted: bool = false;
let rootPly: i32 = 0;
let iterationDepth: i32 = 0;
let iterationBest: i32 = 0;

// Results of the last run (searchValue … searchNodes).
let resultValue: i32 = 0;
let resultMove: i32 = 0;
let resultDepth: i32 = 0;
let totalNodes: f64 = 0;

/**
 * (Re)allocates the table with 2^bits entries (when its size changes) and clears it and the
 * ordering heuristics, so that what follows does not depend on what was searched before.
 */
export function searchReset(bits: i32): void {
  if (bits < 4) bits = 4;
  if (bits > 24) bits = 24;
  const entries = 1 << bits;
  if (TT.length != entries * TT_WORDS) TT = newArena(entries * TT_WORDS);
  else TT.fill(0);
  ttMask = entries - 1;
  generation = 0;
  KILLERS.fill(0);
  HISTORY.fill(0);
}

function ensureTable(): void {
  if (TT.length == 0) searchReset(DEFAULT_TABLE_BITS);
}

/** Is `stack` … stack + records − 1 inside the arena? */
export function stackFits(stack: i32, records: i32): bool {
  return stack >= 0 && stack + records <= positionCapacity();
}

// ---- values ----

function stalemateValue(ply: i32): i32 {
  return rule(RULE_STALEMATE_LOSES) != 0 ? -(MATE - ply) : 0;
}

/** A draw the position itself shows (the rules' material and fifty-move draws). */
export function isDrawn(h: i32): bool {
  if (insufficientMaterial(h)) return true; // checks the rules' material-draw kind itself
  return rule(RULE_FIFTY_MOVES) != 0 && unchecked(POSITIONS[(h << POSITION_SHIFT) + W_HALFMOVE]) >= 100;
}

/** A mate is stored relative to the entry's position, so it reads right at any ply. */
function toTable(value: i32, ply: i32): i32 {
  if (value > MATE_BOUND) return value + ply;
  if (value < -MATE_BOUND) return value - ply;
  return value;
}
function fromTable(value: i32, ply: i32): i32 {
  if (value > MATE_BOUND) return value - ply;
  if (value < -MATE_BOUND) return value + ply;
  return value;
}

/** Counts a node; false once the budget is spent (from then on the run unwinds and is discarded). */
function countNode(): bool {
  nodes++;
  if (abortable && nodeLimit > 0 && nodes >= nodeLimit) aborted = true;
  return !aborted;
}

// ---- move ordering ----

function isCapture(base: i32, move: i32): bool {
  return pieceAt(base, (move >> 6) & 63) != 0 || move >> 12 == MOVE_EN_PASSANT;
}

/** Captures by most valuable victim, then least valuable attacker; a queen promotion as a capture of a queen. */
function captureScore(base: i32, move: i32): i32 {
  const kind = move >> 12;
  const victim = kind == MOVE_EN_PASSANT ? 1 : pieceAt(base, (move >> 6) & 63) & 7;
  const attacker = pieceAt(base, move & 63) & 7;
  let score = CAPTURE_SCORE + (unchecked(PIECE_VALUE[victim]) << 4) - attacker;
  if (kind >= MOVE_PROMOTION) score += (unchecked(PIECE_VALUE[kind - 2]) - 100) << 4;
  return score;
}

function scoreMoves(h: i32, ply: i32, list: i32, n: i32, ttMove: i32): void {
  const base = h << POSITION_SHIFT;
  const side = unchecked(POSITIONS[base + W_SIDE]);
  const o = ply * MAX_MOVES;
  const k = ply << 1;
  for (let i = 0; i < n; i++) {
    const move = unchecked(MOVES[list + i]);
    let score: i32;
    if (move == ttMove) score = TT_MOVE_SCORE;
    else if (isCapture(base, move) || move >> 12 >= MOVE_PROMOTION) score = captureScore(base, move);
    else if (move == unchecked(KILLERS[k])) score = KILLER_SCORE + 1;
    else if (move == unchecked(KILLERS[k + 1])) score = KILLER_SCORE;
    else score = unchecked(HISTORY[(side << 12) | (move & 0xfff)]);
    unchecked((ORDER[o + i] = score));
  }
}

/** Selection: swaps the best-scored of moves i … n − 1 into place i and returns it. */
function pickMove(list: i32, ply: i32, i: i32, n: i32): i32 {
  const o = ply * MAX_MOVES;
  let best = i;
  let bestScore = unchecked(ORDER[o + i]);
  for (let j = i + 1; j < n; j++) {
    const s = unchecked(ORDER[o + j]);
    if (s > bestScore) {
      best = j;
      bestScore = s;
    }
  }
  if (best != i) {
    const move = unchecked(MOVES[list + best]);
    unchecked((MOVES[list + best] = unchecked(MOVES[list + i])));
    unchecked((MOVES[list + i] = move));
    unchecked((ORDER[o + best] = unchecked(ORDER[o + i])));
    unchecked((ORDER[o + i] = bestScore));
  }
  return unchecked(MOVES[list + i]);
}

/** A quiet move that refuted: remember it as a killer and raise its history. */
function rewardQuiet(side: i32, ply: i32, move: i32, depth: i32): void {
  const k = ply << 1;
  if (unchecked(KILLERS[k]) != move) {
    unchecked((KILLERS[k + 1] = unchecked(KILLERS[k])));
    unchecked((KILLERS[k] = move));
  }
  const index = (side << 12) | (move & 0xfff);
  const value = unchecked(HISTORY[index]) + depth * depth;
  unchecked((HISTORY[index] = value));
  if (value > HISTORY_MAX)
    for (let i = 0; i < HISTORY.length; i++) unchecked((HISTORY[i] = unchecked(HISTORY[i]) >> 1));
}

// ---- the search ----

/** Captures (and, in check, every evasion) until the position is quiet; stand pat otherwise. */
function quiesce(ply: i32, alpha: i32, beta: i32): i32 {
  const h = stackBase + ply;
  const base = h << POSITION_SHIFT;
  if (isDrawn(h)) return 0;
  const checked = inCheck(base);
  let best = -INFINITY;
  if (!checked) {
    // stand pat, unless stalemated: a king that can step is not (the cheap test first)
    best = evaluate(h);
    if (best >= beta && kingCanStep(h)) return best;
  }
  const list = listOffset(ply);
  const n = generateMoves(h, list);
  if (n == 0) return checked ? -(MATE - ply) : stalemateValue(ply);
  if (!checked) {
    if (best >= beta) return best;
    if (best > alpha) alpha = best;
  }
  if (ply >= MAX_PLY - 1) return checked ? evaluate(h) : best;
  // keep captures and promotions (every move when in check), scored
  const o = ply * MAX_MOVES;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const move = unchecked(MOVES[list + i]);
    const tactical = isCapture(base, move) || move >> 12 >= MOVE_PROMOTION;
    if (!tactical && !checked) continue;
    unchecked((MOVES[list + m] = move));
    unchecked((ORDER[o + m] = tactical ? captureScore(base, move) : 0));
    m++;
  }
  for (let i = 0; i < m; i++) {
    const move = pickMove(list, ply, i, m);
    makeMove(h, move, h + 1);
    if (!countNode()) return 0;
    const value = -quiesce(ply + 1, -beta, -alpha);
    if (aborted) return 0;
    if (value > best) {
      best = value;
      if (value > alpha) {
        alpha = value;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

function negamax(ply: i32, depth: i32, alpha: i32, beta: i32): i32 {
  if (depth <= 0 || ply >= MAX_PLY - 1) return quiesce(ply, alpha, beta);
  const h = stackBase + ply;
  const base = h << POSITION_SHIFT;
  if (ply > rootPly && isDrawn(h)) return 0;
  // no mate found later can be shorter than one found already
  if (ply > rootPly) {
    if (alpha < -(MATE - ply)) alpha = -(MATE - ply);
    if (beta > MATE - ply - 1) beta = MATE - ply - 1;
    if (alpha >= beta) return alpha;
  }
  const slot = (unchecked(POSITIONS[base + W_KEY_LO]) & ttMask) * TT_WORDS;
  const check = unchecked(POSITIONS[base + W_KEY_HI]);
  let ttMove = 0;
  const packed = unchecked(TT[slot + 1]);
  if (unchecked(TT[slot]) == check && ((packed >> 16) & 255) != 0) {
    ttMove = packed & 0xffff;
    if (ply > rootPly && ((packed >> 16) & 255) - 1 >= depth) {
      const value = fromTable(unchecked(TT[slot + 2]), ply);
      const bound = (packed >> 24) & 3;
      if (bound == BOUND_EXACT || (bound == BOUND_LOWER && value >= beta) || (bound == BOUND_UPPER && value <= alpha))
        return value;
    }
  }
  const list = listOffset(ply);
  const n = generateMoves(h, list);
  if (n == 0) return inCheck(base) ? -(MATE - ply) : stalemateValue(ply);
  scoreMoves(h, ply, list, n, ttMove);
  const side = unchecked(POSITIONS[base + W_SIDE]);
  const alphaStart = alpha;
  let best = -INFINITY;
  let bestMove = 0;
  for (let i = 0; i < n; i++) {
    const move = pickMove(list, ply, i, n);
    makeMove(h, move, h + 1);
    if (!countNode()) return 0;
    // a check is searched one ply deeper (bounded: at most as many extensions as the iteration's depth)
    const extension = ply < rootPly + 2 * iterationDepth && inCheck((h + 1) << POSITION_SHIFT) ? 1 : 0;
    const next = depth - 1 + extension;
    let value: i32;
    if (i == 0) value = -negamax(ply + 1, next, -beta, -alpha);
    else {
      value = -negamax(ply + 1, next, -alpha - 1, -alpha);
      if (!aborted && value > alpha && value < beta) value = -negamax(ply + 1, next, -beta, -alpha);
    }
    if (aborted) return 0;
    if (value > best) {
      best = value;
      bestMove = move;
      if (ply == rootPly) iterationBest = move;
      if (value > alpha) {
        alpha = value;
        if (alpha >= beta) {
          if (!isCapture(base, move) && move >> 12 < MOVE_PROMOTION) rewardQuiet(side, ply, move, depth);
          break;
        }
      }
    }
  }
  const bound = best >= beta ? BOUND_LOWER : best > alphaStart ? BOUND_EXACT : BOUND_UPPER;
  const stored = unchecked(TT[slot + 1]);
  // replace an entry of an earlier run, an empty one, or one searched no deeper
  if (unchecked(TT[slot + 3]) != generation || ((stored >> 16) & 255) <= depth + 1 || unchecked(TT[slot]) == check) {
    unchecked((TT[slot] = check));
    unchecked((TT[slot + 1] = (bestMove & 0xffff) | ((depth + 1) << 16) | (bound << 24)));
    unchecked((TT[slot + 2] = toTable(best, ply)));
    unchecked((TT[slot + 3] = generation));
  }
  return best;
}

/**
 * Iterative deepening of the position in record stackBase + ply, from depth `first` to `depth`.
 * The first iteration always completes; later ones stop at the node budget (`limit`, 0: none)
 * and are discarded. Sets resultValue, resultMove (at ply 0), resultDepth.
 */
function deepen(ply: i32, first: i32, depth: i32, limit: i32): i32 {
  rootPly = ply;
  nodeLimit = limit;
  aborted = false;
  abortable = false;
  resultDepth = -1;
  resultMove = 0;
  let status = SEARCH_OK;
  for (let d = first; d <= depth; d++) {
    iterationDepth = d;
    iterationBest = 0;
    const value = negamax(ply, d, -INFINITY, INFINITY);
    if (aborted) {
      status = SEARCH_NODE_LIMIT;
      break;
    }
    resultValue = value;
    resultMove = iterationBest;
    resultDepth = d;
    abortable = true;
    if (nodeLimit > 0 && nodes >= nodeLimit) {
      if (d < depth) status = SEARCH_NODE_LIMIT;
      break;
    }
    // iterative deepening finds the shortest mate first: a deeper search cannot improve on it
    if (value > MATE_BOUND || value < -MATE_BOUND) break;
  }
  return status;
}

/**
 * Searches position `handle` to `depth` plies (iterative deepening from 1) within `limit` nodes
 * (0: no limit), using records stack … stack + MAX_PLY − 1 (the position is copied to `stack`).
 * Returns SEARCH_OK or SEARCH_NODE_LIMIT (the result is then the last depth completed), or a
 * SEARCH_BAD_* status; the result is read with searchValue, searchBestMove, searchDepth, searchNodes.
 */
export function searchPosition(handle: i32, stack: i32, depth: i32, limit: i32): i32 {
  if (handle < 0 || handle >= positionCapacity() || !stackFits(stack, MAX_PLY)) return SEARCH_BAD_HANDLE;
  if (depth < 1 || depth > MAX_DEPTH || limit < 0) return SEARCH_BAD_DEPTH;
  ensureTable();
  generation++;
  copyPosition(handle, stack);
  stackBase = stack;
  nodes = 1;
  const status = deepen(0, 1, depth, limit);
  totalNodes = <f64>nodes;
  return status;
}

/**
 * The value, for the side that moved, of the position in record `child` reached by a move from
 * a position at ply 0: searched from ply 1 to `depth` more plies (0: quiescence only) within
 * `limit` nodes, using records child … child + MAX_PLY − 2. Adds the nodes to `totalNodes`.
 * The caller checks the records (choose.ts).
 */
export function valueAfterMove(child: i32, depth: i32, limit: i32): i32 {
  ensureTable();
  stackBase = child - 1;
  nodes = 1;
  deepen(1, depth < 1 ? depth : 1, depth, limit);
  totalNodes += <f64>nodes;
  return -resultValue;
}

/** Starts a new run of valueAfterMove calls: its node count and table generation. */
export function beginRun(): void {
  ensureTable();
  generation++;
  totalNodes = 0;
}

export function searchValue(): i32 {
  return resultValue;
}
export function searchBestMove(): i32 {
  return resultMove;
}
export function searchDepth(): i32 {
  return resultDepth;
}
export function searchNodes(): f64 {
  return totalNodes;
}

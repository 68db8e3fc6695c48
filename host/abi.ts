// The core's exported ABI, as both backends present it to the host. One entry per export of
// assembly/index.ts (CORE_EXPORTS is generated from it; tsc checks the interface against it, and
// test/abi.test.ts the real WASM export list).
// Handles are position-record indices; buffers are Int32Array views over the core's own memory.

import { CORE_EXPORT_NAMES } from './constants';

export interface CoreExports {
  /**
   * Allocate the arena for `capacity` position records and a game log of `maxEvents` events (a
   * game stops with GAME_LOG_FULL beyond it), and build all tables. Invalidates views.
   */
  init(capacity: number, maxEvents: number): void;
  /** Number of position records the arena holds. */
  capacity(): number;
  /** Words per position record (32) and move-list stride (256). */
  positionWords(): number;
  maxMoves(): number;
  /** Offset in moveBuffer of the list reserved for the host. */
  hostMovesOffset(): number;
  /** Buffers, as core references: resolve them with Core.view(). */
  positionArena(): unknown;
  moveBuffer(): unknown;
  setupBuffer(): unknown;
  keyBuffer(): unknown;
  /** Validate the setup buffer and store it at `handle`: 0 or a SETUP_* status (host/errors.ts). */
  loadSetup(handle: number): number;
  /** Write position `handle` into the setup buffer. */
  storeSetup(handle: number): void;
  /** Legal moves of `handle` into moveBuffer[out …] (out: a list offset, e.g. hostMovesOffset()); returns their number. */
  generateMoves(handle: number, out: number): number;
  /** Copy `src` to `dst` and play the (legal) move code on the copy. */
  makeMove(src: number, move: number, dst: number): void;
  /** Recompute the Zobrist key of `handle` from scratch into keyBuffer[0..1]. */
  computeKey(handle: number): void;
  /** CHECK_* direction bits of the check on the side to move (0: none). */
  checkDirections(handle: number): number;
  checkerCount(handle: number): number;
  isInCheck(handle: number): number | boolean;
  pieceCount(handle: number): number;
  /** Perft leaf count, or -1 when handle + depth records do not fit. */
  perftFrom(handle: number, depth: number, bulk: number | boolean): number;
  /** Starts the same count as a walk run in steps: 0, or -1 when handle + depth records do not fit. */
  perftWalkFrom(handle: number, depth: number, bulk: number | boolean): number;
  /** Continues the walk until about `leaves` more leaves are counted: true (1) once it has ended. */
  perftWalkRun(leaves: number): number | boolean;
  /** Leaves the walk has counted so far. */
  perftWalkLeaves(): number;
  /** Root moves the walk has started (0 when it was short enough to count whole at its start). */
  perftWalkRootMoves(): number;

  // ---- referee (assembly/referee/) ----
  /** Apply the rules buffer (RULE_* flags): 0, or 1 + index of the first bad flag. */
  setRules(): number;
  rulesBuffer(): unknown;
  attemptBuffer(): unknown;
  pawnTryBuffer(): unknown;
  eventBuffer(): unknown;
  /** The side to move's attempts (own-board moves and pawn capture attempts) into attemptBuffer; their number. */
  generateAttempts(handle: number): number;
  /** Percept of `attempt` in `handle`, playing it into `dst` when legal (no turn memory). */
  answerAttempt(handle: number, attempt: number, dst: number): number;
  /** Number of legal pawn captures of the side to move; into pawnTryBuffer their landing squares (words 0, 1: lo, hi) and the squares of the pawns that make them (words 2, 3). */
  legalPawnCaptures(handle: number): number;
  /** Start a game from `handle` (handle + 1 is its scratch): 0 or a negative status. */
  gameStart(handle: number): number;
  /** The side to move attempts: its percept, or a negative GAME_* status. */
  gameAttempt(attempt: number): number;
  /** The side to move asks "Any?": 1 yes, 0 no, or a negative status. */
  gameAskAny(): number;
  gameResult(): number;
  gameEndReason(): number;
  gameEventCount(): number;
  gamePlies(): number;
  /** Random self-play from `handle`: the result (RESULT_*) or a negative status. */
  playRandomGame(handle: number, seed: number, maxPlies: number): number;

  // ---- state estimation (assembly/belief/); statuses ESTIMATE_* of estimate.ts ----
  viewBuffer(): unknown;
  /** How many events of viewBuffer the view has: 0, or -1 if they do not fit. */
  setViewLength(events: number): number;
  /** First handle of the estimator's store (positions below it are the host's and the stack's). */
  storeBase(): number;
  /** Breadth-first from `root`, its layers in the records below `end` (at most the arena's end). */
  bfsStart(root: number, end: number): number;
  /** Breadth-first for at most `budget` work units: ESTIMATE_* status. */
  bfsRun(budget: number): number;
  /** After bfsStart: pause (ESTIMATE_MORE) after every event, so each event's belief can be read. */
  bfsPauseAfterEachEvent(on: number | boolean): void;
  bfsResultBase(): number;
  bfsResultCount(): number;
  bfsEventsDone(): number;
  /** The view event at which no position was left (after ESTIMATE_INCONSISTENT). */
  estimateFailedAt(): number;
  /** Work units spent since the start (positions generated and tested). */
  estimateWork(): number;
  /** Depth-first from `root`: mode 0 positions, 1 histories, 2 samples (seeded); its store below record `end`. */
  dfsStart(root: number, mode: number, seed: number, end: number): number;
  /**
   * After dfsStart: start at view event `event` with the root at opponent turn `level` (a task of a
   * split run), and stop branches at opponent turn `frontier` (ESTIMATE_FRONTIER; -1: never).
   */
  dfsSplit(event: number, level: number, frontier: number): void;
  /** The view event of the frontier position dfsLast() holds (after ESTIMATE_FRONTIER). */
  dfsFrontierEvent(): number;
  /** Until the next position (ESTIMATE_FOUND) or `budget` work units: ESTIMATE_* status. */
  dfsNext(budget: number): number;
  dfsLast(): number;
  dfsStoreCount(): number;
  dfsHistories(): number;
  /** The opponent move chosen at `level` of the current branch. */
  dfsChosenMove(level: number): number;
  dfsDepth(): number;

  // ---- guaranteed-checkmate search (assembly/solver/); statuses SOLVE_* of solve.ts ----
  /**
   * Search from positions [first, first + count) (one side to move), mate within `ply` plies, with
   * algorithm ALGO_* and OPTION_* bits; arenas of `maxNodes` nodes, `maxEntries` entries and the
   * position records up to `positionEnd`. SOLVE_MORE, or SOLVE_BAD_PROBLEM.
   */
  solveStart(
    first: number,
    count: number,
    ply: number,
    algo: number,
    options: number,
    maxNodes: number,
    maxEntries: number,
    positionEnd: number,
  ): number;
  /**
   * Interleaved estimation and search (l-dub, l-dbu, gl-dbu): the root's positions stream from a
   * depth-first estimation of the view in viewBuffer from record `viewRoot`, confined below record
   * `estimateEnd`; `side` (0 White, 1 Black) is the player to move at the view's end.
   */
  solveStartInterleaved(
    viewRoot: number,
    estimateEnd: number,
    side: number,
    ply: number,
    algo: number,
    options: number,
    maxNodes: number,
    maxEntries: number,
    positionEnd: number,
  ): number;
  /** Continue for about `budget` nodes + positions made: SOLVE_* status. */
  solveRun(budget: number): number;
  /** STAT_*: nodes made, positions made, peak bytes, live nodes, live positions, position-table hits, positions streamed, belief-table hits. */
  solveStat(which: number): number;
  /** Write the proof of a proven root into strategyBuffer: its length in words (0: none). */
  strategyWrite(): number;
  strategyBuffer(): unknown;
  /**
   * Scores every attempt of the side to move over positions [first, first + count) into
   * scoreBuffer (assembly/players/score.ts: per attempt legal, tactical, eval sum, mates), using
   * records scratch and scratch + 1; `lookahead` 1 adds the 2-ply evaluation. Returns the number of
   * attempts (ATTEMPTS order).
   */
  scoreAttempts(first: number, count: number, scratch: number, lookahead: number): number;
  scoreBuffer(): unknown;

  // ---- players (assembly/players/: evaluate.ts, search.ts, choose.ts; issue 14) ----
  /** The static evaluation of `handle`, centipawns for the side to move. */
  evaluatePosition(handle: number): number;
  /** Clear the search's transposition table (2^bits entries, reallocated when the size changes), killers and history. */
  searchReset(bits: number): void;
  /** Records a search stack needs (MAX_PLY; chooseAdd needs one fewer). */
  searchStackRecords(): number;
  /**
   * Alpha-beta from `handle` to `depth` plies within `limit` nodes (0: none), using records
   * stack … stack + searchStackRecords() − 1: SEARCH_OK 0, SEARCH_NODE_LIMIT 1 (the last completed
   * depth's result), SEARCH_BAD_HANDLE 2, SEARCH_BAD_DEPTH 3.
   */
  searchPosition(handle: number, stack: number, depth: number, limit: number): number;
  /** The last search's value (centipawns for the side to move; ±(30000 − plies) a mate), best move, depth completed, nodes. */
  searchValue(): number;
  searchBestMove(): number;
  searchDepth(): number;
  searchNodes(): number;
  /** Start a choose-move run on the attempts of `handle`'s side to move (into chooseAttemptBuffer): their number, or -1. */
  chooseBegin(handle: number): number;
  /**
   * Add positions chooseHandleBuffer[0 … count) to the run: per attempt row of chooseBuffer
   * (assembly/players/choose.ts: legal, sum, mates, mated, tactical, captures, min, max) and per
   * position the values into chooseValueBuffer; each legal move searched `depth` more plies within
   * `limit` nodes. CHOOSE_* status (0 ok).
   */
  chooseAdd(count: number, stack: number, depth: number, limit: number): number;
  chooseBuffer(): unknown;
  chooseAttemptBuffer(): unknown;
  chooseHandleBuffer(): unknown;
  chooseValueBuffer(): unknown;
  /**
   * The threat screen (choose.ts): over positions chooseHandleBuffer[0 … count), in how many
   * `attempt` is legal and in how many of those the opponent then has a reply that mates the mover
   * (stalemates him where stalemate loses), read with threatLegalCount / threatMatedCount, the
   * replies made with threatReplyCount; records stack, stack + 1. CHOOSE_* status (0 ok).
   */
  chooseThreats(count: number, stack: number, attempt: number): number;
  threatLegalCount(): number;
  threatMatedCount(): number;
  threatReplyCount(): number;
  /**
   * The same call's other counts (issue #34): positions where the attempt stalemates the opponent
   * (stalemate not a loss for him); the sum of the material his best capturing reply wins there
   * (a one-step exchange, less what the attempt took); the union of his king's squares after his
   * replies (squares 0–31, 32–63).
   */
  threatStalematedCount(): number;
  threatLoss(): number;
  threatRegionLow(): number;
  threatRegionHigh(): number;
  /**
   * The rules' draws in the same call: positions where the attempt ends the game drawn (material,
   * fifty moves), where the opponent then has a reply that does; per position i the key after the
   * attempt and its halfmove clock (threatAfterBuffer words 3i, 3i + 1, 3i + 2; clock −1: not legal).
   */
  threatDrawnNowCount(): number;
  threatDrawnReplyCount(): number;
  threatAfterBuffer(): unknown;
  /**
   * The screen's mates (choose.ts chooseMates): over positions chooseHandleBuffer[0 … count), for each of the `n`
   * attempts mateAttemptBuffer[0 … n), the positions where it is legal, those where it mates the opponent and
   * (inTwo ≠ 0) those where it checks and each of his replies leaves a mate in one (mateCountBuffer words 3i,
   * 3i + 1, 3i + 2); records stack … stack + 2 scratch. CHOOSE_* status (0 ok).
   */
  chooseMates(count: number, n: number, stack: number, inTwo: number): number;
  mateAttemptBuffer(): unknown;
  mateCountBuffer(): unknown;
  /** The same call's room of his king (king and pawns only, else 0), summed over the positions where the attempt is legal and does not draw. */
  threatRoom(): number;
  /** The same call's positions where the moved man can then be taken at a loss (the best capture on its square wins more than the attempt took). */
  threatLost(): number;
  /** The same call's loss with the best capture of the moved man and the best of another added (less what the attempt took), summed as threatLoss. */
  threatLossBoth(): number;
  /** The same call's positions where he has a piece and the attempt, not a check, leaves his king boxed by the mover's men and his pawns (his pieces left off). */
  threatBoxedCount(): number;

  // ---- endgames against a bare king (assembly/players/endgame.ts); statuses ENDGAME_* ----
  /** Start a metaposition from `handle` (the attacker to move, a bare king), its own records from `stack`. */
  endgameBegin(handle: number, stack: number): number;
  /** Add the bare king's square of `handle` (the same men) to the metaposition's set. */
  endgameAddKing(handle: number): number;
  /** Add to the set the squares one king step from it where the king may stand (a set read from a sampled belief). */
  endgameWiden(): number;
  /**
   * Value every attempt by a worst-case search `depth` attacker moves deep (into endgameBuffer: attempt, value pairs);
   * `sound` 1: the set holds every square his king may stand on (from a wide one, classes weighed by their squares).
   */
  endgameSearch(depth: number, sound: number): number;
  /**
   * The metaposition begun plays against his unknown men (till the next endgameBegin): an answer without an end keeps
   * the squares where a bare king would be mated or stalemated; squares (blockedLo, blockedHi) stop the attacker's lines.
   */
  endgameAgainstUnknown(blockedLo: number, blockedHi: number): number;
  /** Against unknown men: add a square to the set where the king stands in check on the record but a blocked square shields it. */
  endgameAddSquare(square: number): number;
  /** Against unknown men: take a square out of the set (one a record was loaded on only to begin it); not the last. */
  endgameDropSquare(square: number): number;
  /** How many attempts the last endgameSearch valued, and the horizon positions it valued. */
  endgameCount(): number;
  endgameNodes(): number;
  endgameBuffer(): unknown;
  /** The king's set of the metaposition (squares 0–31, 32–63). */
  endgameSetLow(): number;
  endgameSetHigh(): number;
  /** The metaposition after the attacker's attempt answered with `percept`. */
  endgameAttempt(attempt: number, percept: number): number;
  /** The metaposition after the defender's move announced with `percept`, `illegal` Illegal attempts heard before it. */
  endgameReply(percept: number, illegal: number): number;

  // ---- endgame tablebases (assembly/players/egtb.ts); statuses EGTB_* ----
  /** Start an empty table of `ending` (EGTB_KRK …) with room for 2^log2 states and 2^edgeLog2 words of the build's graph (0: none: a probe-only table, or a build whose sweeps recompute every state; at most 27), its own records from `stack`. */
  egtbInit(ending: number, log2: number, edgeLog2: number, stack: number): number;
  /** Insert the start states (every placement of the men, the king anywhere consistent). */
  egtbStarts(): number;
  /** Add the state of `handle`'s men with the king on (lo, hi) as a start (a table around one state). */
  egtbAddStart(handle: number, lo: number, hi: number): number;
  /** Expand up to `budget` states breadth first (egtbCursor of egtbCount done), none `depthLimit` attacker moves or more from a start. */
  egtbEnumerate(budget: number, depthLimit: number): number;
  /** Value n the states of [first, end) whose mate in n is now proven; returns how many. */
  egtbSweep(n: number, first: number, end: number): number;
  /**
   * Take up `n` entries written into egtbBuffer, the first `starts` the start states: a loaded table
   * (at = n, states = edges = 0), or a build resumed after egtbInit as it was, with the checkpoint's
   * UNEXPANDED bits and graph (its first `states` states in `edges` words) written back, `at` states expanded.
   */
  egtbResume(n: number, starts: number, at: number, states: number, edges: number): number;
  egtbCount(): number;
  egtbStartCount(): number;
  egtbCursor(): number;
  /** Words of the build's graph so far. */
  egtbEdgeCount(): number;
  /** The states with a graph, the first ones in breadth-first order (each sweep recomputes the rest). */
  egtbGraphStates(): number;
  /** The table's entries: men key, set low, set high, value (EGTB_ENTRY_WORDS words each). */
  egtbBuffer(): unknown;
  /** The build's graph: its words below 2^27, the words past them, each state's first word (EDGE_START), the bits of the states left unexpanded. */
  egtbEdgeBuffer(): unknown;
  egtbEdgeHighBuffer(): unknown;
  egtbEdgeStartBuffer(): unknown;
  egtbUnexpandedBuffer(): unknown;
  /** Value the state of position `handle` (the attacker to move) with the king's set (lo, hi). */
  egtbProbe(handle: number, lo: number, hi: number): number;
  /** The last probe's value (0: no forced mate known), the table's own value (−1: not in it), the best attempt (−1: none). */
  egtbProbeValue(): number;
  egtbProbeStored(): number;
  /** 1 when the last probe's value is a bound from the same men with the king anywhere (the state itself not valued). */
  egtbProbeBound(): number;
  /** The table's state that `attempt` from the last probed state led to, holding the set (lo, hi) of `handle`'s men (egtbFollowLow/High; both 0: none). */
  egtbFollow(attempt: number, handle: number, lo: number, hi: number): number;
  egtbFollowLow(): number;
  egtbFollowHigh(): number;
  egtbProbeAttempt(): number;

  // ---- estimator additions (assembly/belief/bfs.ts, stream.ts) ----
  /** Before bfsStart: count the histories reaching each position (information sets with multiplicities). */
  bfsCountHistories(on: number | boolean): void;
  /** The histories reaching the current breadth-first layer (after bfsCountHistories(1)). */
  bfsHistories(): number;
  /** After dfsStart: the sampler's restart unit (a descent is abandoned after unit × luby(i) work; 0 never). */
  dfsRestartUnit(unit: number): void;
  /** Descents the sampler began, and how many it abandoned at their cutoff. */
  dfsDescents(): number;
  dfsRestarts(): number;

  // ---- belief tracking (assembly/belief/tracker.ts); statuses TRACK_*, layouts in tracker/layout.ts ----
  /** Fill trackerOptionBuffer with the defaults. */
  trackerDefaults(): void;
  trackerOptionBuffer(): unknown;
  /** The event trackerObserve reads (4 words, assembly/belief/view.ts layout). */
  trackerEventBuffer(): unknown;
  /** Witness moves out (trackerWitness) and small results (trackerCheckpoint, trackerNode). */
  trackerOutBuffer(): unknown;
  /** A tracker from record `start` under the engine's rules, with the options buffer: its id, or a negative status. */
  trackerCreate(start: number): number;
  trackerFree(id: number): number;
  trackerFreeAll(): number;
  /** Append the event buffer to the tracker's view and begin applying it: TRACK_MORE or a negative status. */
  trackerObserve(id: number): number;
  /** Continue for about `budget` work units: TRACK_MORE, TRACK_DONE or TRACK_INCONSISTENT (the event was rejected, the state is as before it). */
  trackerRun(id: number, budget: number): number;
  /** End the observation now, keeping what was done: TRACK_DONE. */
  trackerStop(id: number): number;
  /** Begin topping up the pool to `target` positions: TRACK_MORE (then trackerRun) or TRACK_DONE. */
  trackerTopUp(id: number, target: number): number;
  /** Positions in set `which` (0 the layer, 1 the exact base, 2 the checkpoints' entries). */
  trackerSize(id: number, which: number): number;
  /** Copy position `index` of set `which` into record `handle`: its witness node. */
  trackerEntry(id: number, which: number, index: number, handle: number): number;
  /** The witness of `node` (opponent move codes, first first) into trackerOutBuffer: how many. */
  trackerWitness(id: number, node: number): number;
  /** Choose `k` positions of the layer at random: their indices into trackerOutBuffer, how many. */
  trackerSample(id: number, k: number): number;
  /** Up to `k` last-observation-consistent positions into records first …, within `tries` placements: how many. */
  trackerLos(id: number, k: number, first: number, tries: number): number;
  /** State word `which` (layout in tracker.ts), NaN for a bad tracker or word. */
  trackerStat(id: number, which: number): number;
  trackerSetStat(id: number, which: number, value: number): number;
  /** Restoring: append the event buffer to the view without applying it. */
  trackerLoadEvent(id: number): number;
  /** Restoring: append a witness node: its index. */
  trackerLoadNode(id: number, parent: number, move: number): number;
  /** Restoring: empty set `which`. */
  trackerLoadClear(id: number, which: number): number;
  /** Restoring: begin a checkpoint at view event `event`. */
  trackerLoadCheckpoint(id: number, event: number): number;
  /** Restoring: add record `handle` with witness node `witness` to set `which`. */
  trackerLoadEntry(id: number, which: number, handle: number, witness: number): number;
  /** Checkpoints (k < 0), or checkpoint k's event with its entries' range into trackerOutBuffer[0..1]. */
  trackerCheckpoint(id: number, k: number): number;
  /** Collect the witness tree's garbage now: the nodes left. */
  trackerCompact(id: number): number;
  /** Node `node`'s parent, its move into trackerOutBuffer[0]. */
  trackerNode(id: number, node: number): number;
  /** Prescribe the opponent's pawn decision at view event `event` (assembly/belief/plan.ts words); a negative event clears the plan. */
  trackerPlan(id: number, event: number, word: number): number;
}

/** Every export of the core (generated from assembly/index.ts into host/constants.ts). */
export const CORE_EXPORTS = CORE_EXPORT_NAMES;

// CoreExports documents exactly the generated exports: tsc fails on one missing or one extra here
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyExportDocumented: Exactly<keyof CoreExports, (typeof CORE_EXPORT_NAMES)[number]> = true;
void everyExportDocumented;

/** A backend: the core's exports plus a way to see its buffers as Int32Arrays. */
export interface Core {
  readonly name: 'wasm' | 'js';
  readonly exports: CoreExports;
  /**
   * A current Int32Array view of a buffer reference returned by an export. WASM views detach when
   * memory grows, so callers re-fetch after any call that may allocate (init).
   */
  view(ref: unknown): Int32Array;
}

// Guaranteed-checkmate search from the host: a problem (positions of one side to move, or a view
// whose belief state is estimated first), an algorithm by name, limits; the core searches in
// budgeted steps (so time limits and progress work) and the answer comes back with statistics and,
// when proven, the strategy.
import type { Engine } from '../engine';
import { KriegError, fail } from '../errors';
import type { RuleSet } from '../record/rules';
import type { Side, View } from '../record/record';
import { estimateBelief, type Limits } from '../belief/estimate';
import { inconsistentMessage } from '../belief/describe';
import { loadView, storeBase, ROOT } from '../core/estimator';
import {
  startSearch,
  startInterleavedSearch,
  runSearch,
  searchCounts,
  nodesMade,
  strategyWords,
  type SearchArenas,
} from '../core/solver';
import {
  ALGO_DFS,
  ALGO_L_DFS,
  ALGO_GL_DFS,
  ALGO_GX_DFS,
  ALGO_LE_DFS,
  ALGO_PNS,
  ALGO_E_PNS,
  ALGO_L_DUB,
  ALGO_L_DBU,
  ALGO_GL_DBU,
  ALGO_IPNS,
  OPTION_MATERIAL_WINS,
  OPTION_ORDER_ATTEMPTS,
  OPTION_ORDER_POSITIONS,
  OPTION_POSITION_TABLE,
  OPTION_BELIEF_TABLE,
  NODE_BYTES,
  POSITION_BYTES,
  ENTRY_BYTES,
  ATTEMPT_BYTES,
  STACK_BASE,
  POSITION_WORDS,
  WHITE,
  BLACK,
  CASTLE_WHITE_KING,
  CASTLE_WHITE_QUEEN,
  CASTLE_BLACK_KING,
  CASTLE_BLACK_QUEEN,
} from '../constants';
import { pieceColor } from '../notation/fen';
import { decodeStrategy, type Strategy } from './strategy';

/** The algorithms by name, with their codes (assembly/solver/algorithms.ts, which tabulates what each is made of). */
const ALGORITHM_CODES = {
  dfs: ALGO_DFS,
  'l-dfs': ALGO_L_DFS,
  'gl-dfs': ALGO_GL_DFS,
  'gx-dfs': ALGO_GX_DFS,
  'le-dfs': ALGO_LE_DFS,
  pns: ALGO_PNS,
  'e-pns': ALGO_E_PNS,
  'l-dub': ALGO_L_DUB,
  'l-dbu': ALGO_L_DBU,
  'gl-dbu': ALGO_GL_DBU,
  ipns: ALGO_IPNS,
} as const;
export type Algorithm = keyof typeof ALGORITHM_CODES;
/** Every algorithm, in the order of their codes. */
export const ALGORITHMS = (Object.keys(ALGORITHM_CODES) as Algorithm[]).sort(
  (a, b) => ALGORITHM_CODES[a] - ALGORITHM_CODES[b],
);
export const algorithmCode = (algorithm: Algorithm): number => ALGORITHM_CODES[algorithm];
export const ALGORITHM_ALIASES: Record<string, Algorithm> = { udb: 'le-dfs' };

export function algorithmByName(name: string): Algorithm {
  const algo = ALGORITHM_ALIASES[name] ?? name;
  if (!(ALGORITHMS as readonly string[]).includes(algo)) {
    throw fail('bad-algorithm', { name, known: [...ALGORITHMS, ...Object.keys(ALGORITHM_ALIASES)] });
  }
  return algo as Algorithm;
}

export interface Problem {
  rules: RuleSet;
  /** The belief state: FENs, all with the same side to move (the side the question is about). */
  positions: string[];
  /** Mate within this many plies of actual moves (both sides' moves count; Illegal retries do not). */
  ply: number;
  /** Count Berkeley's known material wins against a bare king as mate. */
  materialWins?: boolean;
}

export interface SolveLimits {
  /** Belief-state nodes made. */
  nodes?: number;
  /** Milliseconds. */
  timeMs?: number;
  /**
   * Bytes for all the core's arenas of the run: position records (the estimator's too, when a view
   * is estimated or streamed first), nodes, entries, the duplicate table.
   */
  memoryBytes?: number;
}

export const DEFAULT_MEMORY_BYTES = 256 * 2 ** 20;

/** Beyond the paper, each switchable (docs/solver.md): none changes an answer. */
export interface Switches {
  /** Attempts that give check, then captures, first (in the position they are first met in). */
  orderAttempts?: boolean;
  /** Incremental searches take the pending position whose opponent king has most flight squares first. */
  orderPositions?: boolean;
  /** Incremental searches: a table of single positions with no mate within d plies; a node meeting one is disproved. */
  positionTable?: boolean;
  /** Every search: a table of belief states (position sets) with no mate within d plies; an OR node with such a set is disproved. */
  beliefTable?: boolean;
  /** Iterative deepening: solve at 1, 3, 5 … plies up to the limit, stopping at the first proof. */
  deepen?: boolean;
}

export type Answer = 'proven' | 'disproven' | 'unknown';

export interface SolveStats {
  /** Belief-state nodes made (OR, ATTEMPT and EXPAND nodes). */
  nodes: number;
  /** Physical positions generated (successors computed). */
  positions: number;
  /** Peak bytes of the search's arenas in use. */
  peakBytes: number;
  ms: number;
  /** Nodes disproved by the position table and by the belief table (0 when they are off). */
  tableHits: number;
  beliefTableHits: number;
}

export interface SolveResult {
  answer: Answer;
  /** With `unknown`: the limit that stopped the search (belief: interleaved estimation ran out of room). */
  limit?: 'nodes' | 'time' | 'memory' | 'belief';
  algorithm: Algorithm;
  stats: SolveStats;
  strategy?: Strategy;
}

/** The root positions' first record: the ones below are the host's (STACK_BASE, as for the estimators). */
const FIRST_HANDLE = STACK_BASE;
/** Each side's castling rights. */
const OWN_RIGHTS = [CASTLE_WHITE_KING | CASTLE_WHITE_QUEEN, CASTLE_BLACK_KING | CASTLE_BLACK_QUEEN];
const STEP = 50_000; // nodes + positions per core call

/**
 * How a memory budget is shared between the arenas (the bytes per unit are the core's, in
 * assembly/solver/solve.ts): 30% node records, 55% position records with their share of the
 * duplicate table, 15% position entries with an attempt-list slot each.
 */
function arenaSizes(memoryBytes: number): { nodes: number; positions: number; entries: number } {
  return {
    nodes: Math.max(16, Math.floor((memoryBytes * 0.3) / NODE_BYTES)),
    positions: Math.max(16, Math.floor((memoryBytes * 0.55) / POSITION_BYTES)),
    entries: Math.max(16, Math.floor((memoryBytes * 0.15) / (ENTRY_BYTES + ATTEMPT_BYTES))),
  };
}

/**
 * The position records (handles 0 … n-1) a memory budget gives a run: the search's and, before
 * it or beside it, the estimator's. An engine resized to this once never grows during the run.
 */
export function positionRecordsFor(memoryBytes = DEFAULT_MEMORY_BYTES): number {
  return FIRST_HANDLE + arenaSizes(memoryBytes).positions;
}

/** MiB, rounded, for messages. */
export const mibText = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

/**
 * A problem's positions as loaded in an engine at FIRST_HANDLE… (a search leaves those records as
 * they are): a search of the same problem with the same arenas that follows starts from them.
 */
export interface LoadedPositions {
  positions: readonly string[];
  rules: RuleSet;
  positionEnd: number;
  side: Side;
}

/** Positions loaded between two looks at the clock (a big problem takes seconds to load and check). */
const LOAD_CHUNK = 1024;

/** Sizes the engine for the problem's positions and a search's records up to `positionEnd`. */
function makeRoom(engine: Engine, problem: Problem, positionEnd: number): void {
  if (problem.positions.length === 0) throw fail('empty-problem', { text: 'the problem has no positions' });
  if (FIRST_HANDLE + problem.positions.length >= positionEnd)
    throw fail('problem-too-large', { positions: problem.positions.length });
  if (engine.capacity < positionEnd) engine.resize(positionEnd);
}

/**
 * Loads the problem's positions into the engine at FIRST_HANDLE… (makeRoom first); returns the side
 * to move, or undefined when `expired` (asked every LOAD_CHUNK positions) says the time is up.
 */
function loadPositions(engine: Engine, problem: Problem, expired: () => boolean): Side | undefined {
  engine.setRules(problem.rules);
  let first: { side: Side; own: string } | undefined;
  for (let i = 0; i < problem.positions.length; i++) {
    if (i > 0 && i % LOAD_CHUNK === 0 && expired()) return undefined;
    const fen = problem.positions[i];
    try {
      engine.setFen(FIRST_HANDLE + i, fen);
    } catch (error) {
      if (error instanceof KriegError) throw error.within(`position ${i + 1} (${fen})`);
      throw error;
    }
    // what the player to move knows for sure: his own pieces and castling rights
    const setup = engine.setup(FIRST_HANDLE + i);
    const side: Side = setup.side === 0 ? 'white' : 'black';
    const own =
      setup.board.map((code) => (code !== 0 && pieceColor(code) === setup.side ? code : 0)).join(',') +
      `|${setup.castling & OWN_RIGHTS[setup.side]}`;
    if (first && side !== first.side) throw fail('mixed-sides', { position: i + 1, side, first: first.side });
    if (first && own !== first.own) throw fail('mixed-own-pieces', { position: i + 1, fen, side });
    first ??= { side, own };
  }
  return first!.side;
}

/** Solves `problem` with `algorithm`; `onProgress` is called between core steps. */
export function solve(
  engine: Engine,
  problem: Problem,
  algorithm: Algorithm,
  limits: SolveLimits = {},
  onProgress?: (stats: SolveStats) => void,
  switches: Switches = {},
): SolveResult {
  return solveProblem(engine, problem, algorithm, limits, onProgress, switches).result;
}

/**
 * `solve`, for searches of one problem that follow one another on one engine (auto's probe and
 * what follows it): `loaded`, what the previous one returned, spares loading and checking the
 * positions again when they are still there. The time limit counts the loading too.
 */
export function solveProblem(
  engine: Engine,
  problem: Problem,
  algorithm: Algorithm,
  limits: SolveLimits = {},
  onProgress?: (stats: SolveStats) => void,
  switches: Switches = {},
  loaded?: LoadedPositions,
): { result: SolveResult; loaded?: LoadedPositions } {
  if (!Number.isInteger(problem.ply) || problem.ply < 1 || problem.ply > 99)
    throw fail('bad-ply', { text: `ply must be an integer from 1 to 99, got ${problem.ply}` });
  if (!switches.deepen) return solveAt(engine, problem, algorithm, limits, onProgress, switches, loaded);
  // iterative deepening: a proof within fewer plies is a proof within the limit; work adds up
  const total: SolveStats = { nodes: 0, positions: 0, peakBytes: 0, ms: 0, tableHits: 0, beliefTableHits: 0 };
  for (let ply = problem.ply % 2 === 0 ? 2 : 1; ; ply += 2) {
    const left = {
      ...limits,
      nodes: limits.nodes === undefined ? undefined : limits.nodes - total.nodes,
      timeMs: limits.timeMs === undefined ? undefined : limits.timeMs - total.ms,
    };
    const run = solveAt(engine, { ...problem, ply }, algorithm, left, onProgress, switches, loaded);
    const result = run.result;
    loaded = run.loaded;
    total.nodes += result.stats.nodes;
    total.positions += result.stats.positions;
    total.peakBytes = Math.max(total.peakBytes, result.stats.peakBytes);
    total.ms += result.stats.ms;
    total.tableHits += result.stats.tableHits;
    total.beliefTableHits += result.stats.beliefTableHits;
    if (result.answer !== 'disproven' || ply >= problem.ply) return { result: { ...result, stats: total }, loaded };
  }
}

function optionBits(problem: Pick<Problem, 'materialWins'>, switches: Switches): number {
  return (
    (problem.materialWins ? OPTION_MATERIAL_WINS : 0) |
    (switches.orderAttempts ? OPTION_ORDER_ATTEMPTS : 0) |
    (switches.orderPositions ? OPTION_ORDER_POSITIONS : 0) |
    (switches.positionTable ? OPTION_POSITION_TABLE : 0) |
    (switches.beliefTable ? OPTION_BELIEF_TABLE : 0)
  );
}

const arenasOf = (sizes: ReturnType<typeof arenaSizes>, positionEnd: number): SearchArenas => ({
  nodes: sizes.nodes,
  entries: sizes.entries,
  positionEnd,
});

function solveAt(
  engine: Engine,
  problem: Problem,
  algorithm: Algorithm,
  limits: SolveLimits,
  onProgress: ((stats: SolveStats) => void) | undefined,
  switches: Switches,
  loaded: LoadedPositions | undefined,
): { result: SolveResult; loaded?: LoadedPositions } {
  const sizes = arenaSizes(limits.memoryBytes ?? DEFAULT_MEMORY_BYTES);
  const positionEnd = FIRST_HANDLE + sizes.positions;
  const reuse =
    loaded !== undefined &&
    loaded.positions === problem.positions &&
    loaded.rules === problem.rules &&
    loaded.positionEnd === positionEnd &&
    engine.capacity >= positionEnd;
  if (!reuse) makeRoom(engine, problem, positionEnd);
  // the search's time (and its limit) includes loading and checking the positions
  const started = performance.now();
  const side = reuse
    ? loaded.side
    : loadPositions(engine, problem, () => limits.timeMs !== undefined && performance.now() - started > limits.timeMs);
  if (side === undefined) {
    // the time ran out loading the positions: no search was started
    const ms = performance.now() - started;
    const stats: SolveStats = { nodes: 0, positions: 0, peakBytes: 0, ms, tableHits: 0, beliefTableHits: 0 };
    return { result: { answer: 'unknown', limit: 'time', algorithm, stats } };
  }
  const ok = startSearch(
    engine,
    FIRST_HANDLE,
    problem.positions.length,
    problem.ply,
    algorithmCode(algorithm),
    optionBits(problem, switches),
    arenasOf(sizes, positionEnd),
  );
  if (!ok) throw fail('bad-problem', { text: 'the core rejected the problem' });
  return {
    result: drive(engine, { ...problem, side }, algorithm, limits, onProgress, started),
    loaded: { positions: problem.positions, rules: problem.rules, positionEnd, side },
  };
}

/** Runs a started search in budgeted steps to its answer or a limit; the strategy of a proof. */
function drive(
  engine: Engine,
  problem: Omit<Problem, 'positions'> & { side: Side },
  algorithm: Algorithm,
  limits: SolveLimits,
  onProgress: ((stats: SolveStats) => void) | undefined,
  started: number,
): SolveResult {
  const stats = (): SolveStats => {
    const { nodes, positions, peakBytes, tableHits, beliefTableHits } = searchCounts(engine);
    return { nodes, positions, peakBytes, ms: performance.now() - started, tableHits, beliefTableHits };
  };
  const finish = (answer: Answer, limit?: SolveResult['limit']): SolveResult => {
    const result: SolveResult = { answer, algorithm, stats: stats() };
    if (limit) result.limit = limit;
    if (answer === 'proven') {
      result.strategy = {
        side: problem.side,
        ply: problem.ply,
        materialWins: problem.materialWins === true,
        root: decodeStrategy(strategyWords(engine), problem.rules),
      };
    }
    return result;
  };
  for (;;) {
    const budget = limits.nodes === undefined ? STEP : Math.min(STEP, Math.max(1, limits.nodes - nodesMade(engine)));
    const step = runSearch(engine, budget);
    if (step === 'proven' || step === 'disproven') return finish(step);
    if (step === 'no-room') return finish('unknown', 'memory');
    if (step === 'inconsistent') throw fail('inconsistent', { text: 'the view is inconsistent: no position fits it' });
    if (step === 'belief-limit') return finish('unknown', 'belief');
    if (limits.nodes !== undefined && nodesMade(engine) >= limits.nodes) return finish('unknown', 'nodes');
    if (limits.timeMs !== undefined && performance.now() - started > limits.timeMs) return finish('unknown', 'time');
    onProgress?.(stats());
  }
}

// ---- problems given as a view: estimation, then search, or the two interleaved ----

/** The belief positions a view's problem may have when no limit is given. */
export const DEFAULT_BELIEF_LIMIT = 10_000;

export interface ViewBeliefOptions {
  /** The most positions accepted (default DEFAULT_BELIEF_LIMIT), and the option that sets it, for the message. */
  limit?: number;
  limitOption?: string;
  /** The run's memory budget: the estimation runs in the position records the search takes over afterwards. None: the estimator's own budget. */
  memoryBytes?: number;
  /** The estimation's time limit (ms), and how to name it when it is reached. */
  timeMs?: number;
  timeText?: string;
  /** The most work (positions generated and tested), and the option that sets it. */
  work?: number;
  workOption?: string;
  /** The estimator: auto (layered, then streaming) or dfs (streaming). Default dfs. */
  mode?: 'auto' | 'dfs';
  /** Names the view in messages (a file, "game 3" …). */
  source?: string;
  onProgress?: (found: number, work: number) => void;
}

const SHORTER = 'try a shorter view (an earlier --game, or the record cut at an earlier ply)';

/**
 * The belief state of `view` as the positions of a problem (FENs, the view's owner to move), or a
 * refusal naming why: inconsistent, a limit reached, too many positions, not his turn.
 */
export function beliefPositions(engine: Engine, view: View, options: ViewBeliefOptions = {}): string[] {
  const limit = options.limit ?? DEFAULT_BELIEF_LIMIT;
  const source = options.source ?? 'the view';
  let room = limit;
  const limits: Limits = { positions: limit, timeMs: options.timeMs, work: options.work };
  if (options.memoryBytes !== undefined) {
    const records = positionRecordsFor(options.memoryBytes);
    if (engine.capacity < records) engine.resize(records);
    limits.memoryBytes = engine.capacity * POSITION_WORDS * 4;
    // depth-first keeps one record past the positions it returns
    room = Math.min(limit, engine.capacity - storeBase(engine) - 1);
    limits.positions = room;
  }
  const result = estimateBelief(engine, view, options.mode ?? 'dfs', limits, options.onProgress);
  const belief = `${source}: ${view.as}'s belief`;
  switch (result.outcome) {
    case 'complete':
      break;
    case 'inconsistent':
      throw fail('inconsistent', { text: inconsistentMessage(view, result.failedEvent, result.failedPly) });
    case 'limit-time':
      throw fail('limit-reached', {
        text: `${source}: estimating ${view.as}'s belief reached ${options.timeText ?? `the time limit of ${(options.timeMs ?? 0) / 1000} s`}; ${SHORTER}`,
      });
    case 'limit-work':
      throw fail('limit-reached', {
        text: `${source}: estimating ${view.as}'s belief reached the node limit of ${options.work}${options.workOption ? ` (${options.workOption}: positions the estimation generates and tests)` : ''}; ${SHORTER}`,
      });
    default:
      if (result.outcome === 'limit-positions' && room < limit)
        throw fail('limit-reached', {
          text: `${belief} has more than ${room} positions, all the memory budget of ${mibText(options.memoryBytes!)} holds (--memory)`,
        });
      throw fail('belief-too-large', {
        text: `${belief} has more than ${limit} positions${options.limitOption ? ` (${options.limitOption})` : ''}`,
      });
  }
  const positions = result.handles.map((h) => engine.fen(h));
  const toMove = positions.length && engine.setup(result.handles[0]).side === WHITE ? 'white' : 'black';
  if (toMove !== view.as) throw fail('not-to-move', { source, toMove, side: view.as });
  return positions;
}

export interface ViewSolveResult extends SolveResult {
  /** Belief positions estimated: all of them (sequential), or those streamed before the answer (interleaved). */
  beliefPositions: number;
  /** Sequential: milliseconds of the estimation (included in stats.ms). */
  estimateMs?: number;
}

/**
 * Solves the question "mate within `ply` for the player to move at the end of `view`?": by
 * estimating the whole belief state and then searching (sequential), or — `interleave`, with an
 * incremental directional algorithm — by streaming the depth-first estimator's positions straight
 * into the search, which may disprove before the belief state is complete. `beliefLimit` bounds
 * the belief state (positions).
 */
export function solveView(
  engine: Engine,
  view: View,
  ply: number,
  algorithm: Algorithm,
  options: { interleave?: boolean; materialWins?: boolean; beliefLimit?: number } = {},
  limits: SolveLimits = {},
  switches: Switches = {},
): ViewSolveResult {
  if (!Number.isInteger(ply) || ply < 1 || ply > 99)
    throw fail('bad-ply', { text: `ply must be an integer from 1 to 99, got ${ply}` });
  const beliefLimit = options.beliefLimit ?? DEFAULT_BELIEF_LIMIT;
  const memoryBytes = limits.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const sizes = arenaSizes(memoryBytes);
  const records = positionRecordsFor(memoryBytes);
  const started = performance.now();
  if (!options.interleave) {
    // the estimator's store comes first, in the records the search takes over afterwards
    const positions = beliefPositions(engine, view, { limit: beliefLimit, memoryBytes });
    const estimateMs = performance.now() - started;
    const result = solve(
      engine,
      { rules: view.rules, positions, ply, materialWins: options.materialWins },
      algorithm,
      limits,
      undefined,
      switches,
    );
    return {
      ...result,
      stats: { ...result.stats, ms: result.stats.ms + estimateMs },
      beliefPositions: positions.length,
      estimateMs,
    };
  }
  // interleaved, both live at once: the estimator's records (its stack and store, with room for the
  // followed-positions cache) below estimateEnd, the search's above, all within the budget's records;
  // the estimator may take at most three quarters of them (running out of room there is the
  // 'belief' limit, an unknown answer)
  const estimateEnd = Math.min(storeBase(engine) + 4 * (beliefLimit + 1), Math.floor((records * 3) / 4));
  const positionEnd = records;
  if (engine.capacity < positionEnd) engine.resize(positionEnd);
  loadView(engine, view);
  const side = view.as === 'white' ? WHITE : BLACK;
  const ok = startInterleavedSearch(
    engine,
    ROOT,
    estimateEnd,
    side,
    ply,
    algorithmCode(algorithm),
    optionBits(options, switches),
    arenasOf(sizes, positionEnd),
  );
  if (!ok)
    throw fail('bad-problem', {
      text: `interleaving needs an incremental directional algorithm (l-dub, l-dbu, gl-dbu), not ${algorithm}`,
    });
  const result = drive(
    engine,
    { rules: view.rules, ply, materialWins: options.materialWins, side: view.as },
    algorithm,
    limits,
    undefined,
    started,
  );
  return { ...result, beliefPositions: searchCounts(engine).streamed };
}

// The Node entry of the krieg package (`import … from 'krieg'`): an Engine on the chosen backend,
// and the library over it — records, views and rule sets, their notations, the referee, state
// estimation and the belief tracker, guaranteed-checkmate search, strategies and their independent
// verifier, the players, games and matches between them, and the problem database. README
// "Library" has an example; docs/api/ (npm run docs:api) is the reference of every export. The
// browser entry is host/web/main.ts ('krieg/browser').
import { Engine, DEFAULT_CAPACITY } from './engine';
import { createCore, type BackendName } from './backends/node';
import type {
  Algorithm as SearchAlgorithm,
  Problem,
  SolveLimits,
  SolveResult,
  SolveStats,
  Switches,
} from './solver/solve';
import { solveByName, type AUTO, type AutoResult } from './solver/auto';

export { Engine, DEFAULT_CAPACITY, type DivideEntry } from './engine';
export { BACKENDS, type BackendName } from './backends/node';
export { KriegError, EXIT } from './errors';

// positions, moves and records
export * from './notation/fen';
export * from './notation/move';
export { makeSquare, parseSquare } from './notation/square';
export { makeSan, parseSan } from './notation/san';
export {
  parseKpgn,
  parseKpgnGames,
  makeRecordKpgn,
  makeViewKpgn,
  type ParsedKpgn,
  type SourcePosition,
} from './notation/kpgn';
export { parseRecordJson, parseRecordJsonGames, recordToJson, viewToJson } from './notation/recordJson';
export { decodePercept, encodePercept, directionNames, type Percept, type Answer, type End } from './record/percept';
export {
  viewOf,
  SIDES,
  other,
  type Side,
  type GameRecord,
  type View,
  type RecordEvent,
  type ViewEvent,
  type Result,
} from './record/record';
export {
  PRESETS,
  PRESET_NAMES,
  preset,
  presetOf,
  withOverrides,
  describeRules,
  RULE_KEYS,
  type RuleSet,
  type PresetName,
} from './record/rules';

// the referee: a game session played step by step, and seeded random games in the core
export { randomGame, seededRandom, type GameOptions } from './referee/game';
export { GameSession, gameRecord, type SessionOptions } from './referee/session';
export { validateRecord, viewOfGame } from './referee/validate';
export { ownBoard, viewAttempts } from './referee/ownBoard';
export { readGames, formatGames } from './io/gamesFile';

// state estimation
export {
  estimateBelief,
  sampleBelief,
  informationSet,
  DEFAULT_LIMIT_POSITIONS,
  MAX_LIMIT_POSITIONS,
  DEFAULT_ARENA_BYTES,
  type EstimateMode,
  type EstimateResult,
  type InformationSet,
  type Limits,
  type Outcome,
} from './belief/estimate';
export {
  informationSetParallel,
  estimateBeliefParallel,
  type ParallelOptions,
  type SplitTrace,
} from './belief/parallel.node';
export { WorkerPool, runTasks, defaultJobs, MAX_JOBS, type PoolRun } from './pool/pool';
export { describeEvent, inconsistentMessage, pliesBefore } from './belief/describe';
export { pieceHeatmap, heatmapText, heatmapSvg, type Heatmap } from './belief/heatmap';
export { heatmapPng } from './belief/heatmapPng.node';

// the belief tracker: one player's belief followed event by event through a whole game
export {
  Tracker,
  TRACKER_RECORDS,
  TRACKER_OPTION_NAMES,
  DEFAULT_BUDGET,
  poolSized,
  type TrackerOptions,
  type TrackerMode,
  type TrackerStats,
  type TrackerSave,
  type TrackedPosition,
  type Budget,
  type Observation,
  type Counters,
} from './belief/tracker';
export { trackView, trackedBelief, trackSvg, type PlyRow, type TrackRun } from './belief/track';

// guaranteed-checkmate search, strategies and their verifier
export {
  solveView,
  algorithmByName,
  ALGORITHMS,
  ALGORITHM_ALIASES,
  type Algorithm as SearchAlgorithm,
  type Problem,
  type SolveLimits,
  type SolveResult,
  type SolveStats,
  type Switches,
  type ViewSolveResult,
} from './solver/solve';
export {
  solveAuto,
  solveByName,
  algorithmChoice,
  autoFeatures,
  chooseSchedule,
  AUTO,
  ALGORITHM_CHOICES,
  type AutoResult,
  type AutoFeatures,
  type AutoPolicy,
  type Schedule,
} from './solver/auto';
export { loadProblem, viewInFile, type ProblemRequest } from './sources/problems.node';
// the one belief request and the one solve request (krieg belief, krieg solve and the web app use them)
export { beliefOf, BELIEF_MODES, type BeliefMode, type BeliefRequest, type Belief } from './belief/request';
export { solveRequest, type SolveRequest, type SolveAnswer, type ViewProblem } from './solver/request';
export { parseProblems, makeProblems, type NamedProblem } from './solver/problemFile';
export { strategyText, strategyToJson, strategyFromJson, type Strategy, type StrategyNode } from './solver/strategy';
export { verifyStrategy, verdictText, type Verdict } from './verify/verify';
// krieg as a bot on Kriegspiel.org (docs/online.md)
export { Bot, timeForMove, type BotOptions } from './online/bot.node';
export { SiteClient, checkServer, type SiteGame } from './online/client';
export { siteView, SiteGameView, PLAYED_VARIANTS, type SiteState } from './online/kriegspielOrg';

// the players (random, los, aos, aosp, hs, krieg, rw), one game between two, matches
export {
  PLAYER_NAMES,
  PLAYER_HELP,
  PLAYER_OPTIONS,
  parsePlayerSpec,
  playerFactory,
  type PlayerName,
  type PlayerSpec,
} from './players/registry';
export {
  DEFAULT_NODES,
  PLAYER_CAPACITY,
  type Player,
  type PlayerSetup,
  type PlayerBudget,
  type PlayerFactory,
  type Turn,
  type AsyncPlayer,
  type AsyncPlayerFactory,
} from './players/player';
export { createPlayer, createPlayerEngine, PlayerEngines, type PlayerOptions } from './players/engines.node';
export {
  runGame,
  runGameAsync,
  playTurn,
  deliverTo,
  materialOf,
  MATERIAL_VALUE,
  type RunOptions,
} from './players/game';
export {
  playMatch,
  matchParams,
  runMatch,
  matchReport,
  matchKey,
  readMatchFile,
  type MatchOptions,
  type MatchParams,
  type MatchRun,
  type MatchProgress,
} from './players/match.node';
export {
  summarize,
  summaryTable,
  wilson,
  type MatchSummary,
  type PlayerSummary,
  type MatchGame,
  type Interval,
} from './players/matchStats';

// the checkmate problem database (SQLite files: the shipped ones, or made by generate)
export {
  ProblemDb,
  DB_FORMAT,
  SCHEMA_VERSION,
  type InstanceRow,
  type GameRow,
  type ResultRow,
  type InstanceFilter,
  type InstanceSummary,
} from './db/database.node';
export {
  DB_PREFIX,
  dbPath,
  openDb,
  withDb,
  instanceById,
  viewOfInstance,
  problemOfInstance,
  strategyOf,
  instanceJson,
} from './db/instances.node';
export { defaultDbPath } from './db/paths.node';
export { exportText, EXPORT_FORMATS, type ExportFormat } from './db/export.node';
export { classify, CLASSIFY_LIMITS, type ClassifyLimits, type Classification, type Classified } from './db/classify';
export {
  generate,
  selfPlayWorkers,
  validateParams,
  DEFAULT_PARAMS,
  START_MODES,
  type GenerateParams,
  type StartMode,
  type Targets,
  type Progress,
  type SelfPlayWorkers,
} from './db/generate.node';

/** A search algorithm (ALGORITHMS), or 'auto': the schedule the learned policy picks for the problem (krieg solve's default). */
export type Algorithm = SearchAlgorithm | typeof AUTO;

/**
 * Solves `problem` (a belief state: positions with the same side to move, and a ply limit) with
 * `algorithm`; `onProgress` is called between core steps. With 'auto' the result's `auto` says
 * which schedule ran; the result's `algorithm` is the one that answered.
 */
export function solve(
  engine: Engine,
  problem: Problem,
  algorithm: Algorithm,
  limits: SolveLimits = {},
  onProgress?: (stats: SolveStats) => void,
  switches: Switches = {},
): SolveResult | AutoResult {
  return solveByName(engine, problem, algorithm, limits, onProgress, switches);
}

/** An engine on `backend` ('wasm', or 'js': the same core as plain JavaScript) with `capacity` position records; the estimators and searches grow it as they need. */
export function createEngine(backend: BackendName = 'wasm', capacity = DEFAULT_CAPACITY): Engine {
  return new Engine(createCore(backend), capacity);
}

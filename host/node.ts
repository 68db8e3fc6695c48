// The Node entry of the krieg package (`import … from 'krieg'`): an Engine on the chosen backend,
// and the library over it — records, views and rule sets, their notations, the referee, state
// estimation, guaranteed-checkmate search, strategies and their independent verifier. README
// "Library" has an example. The browser entry is host/web/main.ts ('krieg/browser').
import { Engine, DEFAULT_CAPACITY } from './engine';
import { createCore, type BackendName } from './backends/node';

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

// the referee
export { randomGame, seededRandom, type GameOptions } from './referee/game';
export { validateRecord, viewOfGame, viewInFile } from './referee/validate';
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
} from './belief/parallel';
export { WorkerPool, runTasks, defaultJobs, MAX_JOBS, type PoolRun } from './pool/pool';
export { describeEvent, inconsistentMessage, pliesBefore } from './belief/describe';
export { pieceHeatmap, heatmapText, heatmapSvg, heatmapPng, type Heatmap } from './belief/heatmap';

// guaranteed-checkmate search, strategies and their verifier
export {
  solve,
  solveView,
  algorithmByName,
  ALGORITHMS,
  ALGORITHM_ALIASES,
  type Algorithm,
  type Problem,
  type SolveLimits,
  type SolveResult,
  type SolveStats,
  type Switches,
  type ViewSolveResult,
} from './solver/solve';
export { loadProblem, type ProblemRequest } from './sources/problems';
export { parseProblems, makeProblems, type NamedProblem } from './solver/problemFile';
export { strategyText, strategyToJson, strategyFromJson, type Strategy, type StrategyNode } from './solver/strategy';
export { verifyStrategy, verdictText, type Verdict } from './verify/verify';

/** An engine on `backend` ('wasm', or 'js': the same core as plain JavaScript) with `capacity` position records; the estimators and searches grow it as they need. */
export function createEngine(backend: BackendName = 'wasm', capacity = DEFAULT_CAPACITY): Engine {
  return new Engine(createCore(backend), capacity);
}

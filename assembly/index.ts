// The exported ABI of the krieg core: the only file the host calls into. Every function takes
// and returns integers (handles, move codes, statuses) or f64 counts; data crosses through the
// typed arrays returned by the *Arena/*Buffer functions (host/abi.ts documents each export).
// Compiled by asc to WASM, and unchanged to JS through AssemblyScript's portable mode.

import {
  POSITIONS,
  SETUP,
  KEY_OUT,
  POSITION_WORDS,
  initPositions,
  positionCapacity,
  loadSetup,
  storeSetup,
  makeMove,
  computeKey,
  inCheck,
  pieceCount,
} from './chess/position';
import {
  MOVES,
  MAX_MOVES,
  HOST_LIST,
  SEARCH_LISTS,
  listOffset,
  generateMoves,
  checkDirections,
  checkerCount,
} from './chess/moveGen';
import { perft, perftWalkStart, perftWalkRun, perftWalkLeaves, perftWalkRootMoves } from './chess/perft';
import { RULES, applyRules } from './referee/rules';
import { ATTEMPTS, generateAttempts } from './referee/attempts';
import { answerAttempt, legalPawnCaptures, PAWN_TRY_SQUARES } from './referee/referee';
import { VIEW, initView, setViewLength } from './belief/view';
import { storeBase, estimateFailedAt, estimateWork } from './belief/estimate';
import { bfsStart, bfsRun, bfsPauseAfterEachEvent, bfsResultBase, bfsResultCount, bfsEventsDone } from './belief/bfs';
import {
  dfsStart,
  dfsSplit,
  dfsFrontierEvent,
  dfsNext,
  dfsLast,
  dfsStoreCount,
  dfsHistories,
  dfsChosenMove,
  dfsDepth,
} from './belief/stream';
import { solveStart, solveStartInterleaved, solveRun, solveStat, strategyWrite, strategyBuffer } from './solver/solve';
import { scoreBuffer } from './players/score';
import { scoreAttempts } from './players/choose';
import {
  EVENTS,
  initGame,
  gameStart,
  gameAttempt,
  gameAskAny,
  gameResult,
  gameEndReason,
  gameEventCount,
  gamePlies,
  playRandomGame,
} from './referee/game';

export { loadSetup, storeSetup, makeMove, computeKey, generateMoves, checkDirections, checkerCount, pieceCount };
export { generateAttempts, answerAttempt, legalPawnCaptures };
export {
  setViewLength,
  storeBase,
  bfsStart,
  bfsRun,
  bfsPauseAfterEachEvent,
  bfsResultBase,
  bfsResultCount,
  bfsEventsDone,
  estimateFailedAt,
  estimateWork,
  dfsStart,
  dfsSplit,
  dfsFrontierEvent,
  dfsNext,
  dfsLast,
  dfsStoreCount,
  dfsHistories,
  dfsChosenMove,
  dfsDepth,
};
export { solveStart, solveStartInterleaved, solveRun, solveStat, strategyWrite, strategyBuffer };
export { scoreAttempts, scoreBuffer };
export { gameStart, gameAttempt, gameAskAny, gameResult, gameEndReason, gameEventCount, gamePlies, playRandomGame };

/** Status of perftFrom when the search would run past the position arena. */
const PERFT_NO_ROOM: f64 = -1;

/**
 * Allocates the arena for `capacity` position records and a game log of `maxEvents` events, and
 * builds the tables.
 */
export function init(capacity: i32, maxEvents: i32): void {
  initPositions(capacity);
  initGame(maxEvents);
  initView(maxEvents);
}

/** Validates the RULES buffer and applies it: 0, or 1 + the index of the first bad flag. */
export function setRules(): i32 {
  return applyRules();
}
export function rulesBuffer(): Int32Array {
  return RULES;
}
export function attemptBuffer(): Int32Array {
  return ATTEMPTS;
}
export function pawnTryBuffer(): Int32Array {
  return PAWN_TRY_SQUARES;
}
export function eventBuffer(): Int32Array {
  return EVENTS;
}
export function viewBuffer(): Int32Array {
  return VIEW;
}

export function positionArena(): Int32Array {
  return POSITIONS;
}
export function moveBuffer(): Int32Array {
  return MOVES;
}
export function setupBuffer(): Int32Array {
  return SETUP;
}
export function keyBuffer(): Int32Array {
  return KEY_OUT;
}
export function positionWords(): i32 {
  return POSITION_WORDS;
}
export function maxMoves(): i32 {
  return MAX_MOVES;
}
/** Offset in moveBuffer of the host's own move list (Engine.moves). */
export function hostMovesOffset(): i32 {
  return listOffset(HOST_LIST);
}
export function capacity(): i32 {
  return positionCapacity();
}

export function isInCheck(handle: i32): bool {
  return inCheck(handle << 5);
}

/** Perft from `handle`, or PERFT_NO_ROOM when handle + depth records do not fit in the arena. */
export function perftFrom(handle: i32, depth: i32, bulk: bool): f64 {
  if (handle < 0 || depth < 0 || depth >= SEARCH_LISTS || handle + depth >= positionCapacity()) return PERFT_NO_ROOM;
  return perft(handle, depth, bulk);
}

/**
 * Starts perft from `handle` as a walk run in steps (perftWalkRun): 0, or PERFT_NO_ROOM when
 * handle + depth records do not fit in the arena.
 */
export function perftWalkFrom(handle: i32, depth: i32, bulk: bool): f64 {
  if (handle < 0 || depth < 0 || depth >= SEARCH_LISTS || handle + depth >= positionCapacity()) return PERFT_NO_ROOM;
  perftWalkStart(handle, depth, bulk);
  return 0;
}
export { perftWalkRun, perftWalkLeaves, perftWalkRootMoves };

// ---- players (issue 14): the fully observable search and choose-move (assembly/players/) ----
import { evaluate } from './players/evaluate';
import {
  MAX_PLY,
  searchReset,
  searchPosition,
  searchValue,
  searchBestMove,
  searchDepth,
  searchNodes,
} from './players/search';
import {
  CHOICES,
  CHOICE_ATTEMPTS,
  CHOOSE_HANDLES,
  VALUES,
  THREAT_AFTER,
  MATE_ATTEMPTS,
  MATE_COUNTS,
  chooseBegin,
  chooseAdd,
  chooseThreats,
  chooseMates,
  threatLegalCount,
  threatMatedCount,
  threatReplyCount,
  threatStalematedCount,
  threatLoss,
  threatRegionLow,
  threatRegionHigh,
  threatDrawnNowCount,
  threatDrawnReplyCount,
  threatRoom,
  threatLost,
  threatLossBoth,
  threatBoxedCount,
} from './players/choose';

export {
  searchReset,
  searchPosition,
  searchValue,
  searchBestMove,
  searchDepth,
  searchNodes,
  chooseBegin,
  chooseAdd,
  chooseThreats,
  chooseMates,
  threatLegalCount,
  threatMatedCount,
  threatReplyCount,
  threatStalematedCount,
  threatLoss,
  threatRegionLow,
  threatRegionHigh,
  threatDrawnNowCount,
  threatDrawnReplyCount,
  threatRoom,
  threatLost,
  threatLossBoth,
  threatBoxedCount,
};

// ---- endgames against a bare king (issue 34 item 3; assembly/players/endgame.ts) ----
import {
  ENDGAME_OUT,
  endgameBegin,
  endgameAddKing,
  endgameAgainstUnknown,
  endgameAddSquare,
  endgameDropSquare,
  endgameWiden,
  endgameSearch,
  endgameCount,
  endgameNodes,
  endgameSetLow,
  endgameSetHigh,
  endgameAttempt,
  endgameReply,
} from './players/endgame';
export {
  endgameBegin,
  endgameAddKing,
  endgameAgainstUnknown,
  endgameAddSquare,
  endgameDropSquare,
  endgameWiden,
  endgameSearch,
  endgameCount,
  endgameNodes,
  endgameSetLow,
  endgameSetHigh,
  endgameAttempt,
  endgameReply,
};
export function endgameBuffer(): Int32Array {
  return ENDGAME_OUT;
}

// ---- endgame tablebases (issue 35; assembly/players/egtb.ts) ----
import { ENTRIES, UNEXPANDED } from './players/egtb';
import { EDGES, EDGES_HIGH, EDGE_START } from './players/egtb/graph';
export {
  egtbInit,
  egtbStarts,
  egtbAddStart,
  egtbEnumerate,
  egtbSweep,
  egtbResume,
  egtbCount,
  egtbStartCount,
  egtbCursor,
  egtbEdgeCount,
  egtbGraphStates,
  egtbProbe,
  egtbProbeValue,
  egtbProbeStored,
  egtbProbeBound,
  egtbFollow,
  egtbFollowLow,
  egtbFollowHigh,
  egtbProbeAttempt,
} from './players/egtb';
/** The table's entries (men key, set low, set high, value per state); the view is valid until the next egtbInit. */
export function egtbBuffer(): Int32Array {
  return ENTRIES;
}
/** The build's graph (a checkpoint's; egtb/graph.ts): its words below 2^27, the words past them, each state's first word, the bits of the states left unexpanded. */
export function egtbEdgeBuffer(): Int32Array {
  return EDGES;
}
export function egtbEdgeHighBuffer(): Int32Array {
  return EDGES_HIGH;
}
export function egtbEdgeStartBuffer(): Int32Array {
  return EDGE_START;
}
export function egtbUnexpandedBuffer(): Int32Array {
  return UNEXPANDED;
}

/** The static evaluation of `handle` for the side to move (centipawns). */
export function evaluatePosition(handle: i32): i32 {
  if (handle < 0 || handle >= positionCapacity()) return 0;
  return evaluate(handle);
}
/** Records a search stack needs (searchPosition; chooseAdd needs one fewer). */
export function searchStackRecords(): i32 {
  return MAX_PLY;
}
export function chooseBuffer(): Int32Array {
  return CHOICES;
}
export function chooseAttemptBuffer(): Int32Array {
  return CHOICE_ATTEMPTS;
}
export function chooseHandleBuffer(): Int32Array {
  return CHOOSE_HANDLES;
}
export function chooseValueBuffer(): Int32Array {
  return VALUES;
}
export function threatAfterBuffer(): Int32Array {
  return THREAT_AFTER;
}
export function mateAttemptBuffer(): Int32Array {
  return MATE_ATTEMPTS;
}
export function mateCountBuffer(): Int32Array {
  return MATE_COUNTS;
}

// ---- belief tracking (issue 13; assembly/belief/tracker.ts) and the estimators' additions ----
import { bfsCountHistories, bfsHistories } from './belief/bfs';
import { dfsRestartUnit, dfsDescents, dfsRestarts } from './belief/stream';
import { TRACKER_OPTIONS, TRACKER_EVENT } from './belief/tracker/layout';
import {
  TRACKER_OUT,
  trackerDefaults,
  trackerCreate,
  trackerFree,
  trackerFreeAll,
  trackerObserve,
  trackerRun,
  trackerStop,
  trackerTopUp,
  trackerSize,
  trackerEntry,
  trackerWitness,
  trackerSample,
  trackerLos,
  trackerStat,
  trackerSetStat,
  trackerLoadEvent,
  trackerLoadNode,
  trackerLoadClear,
  trackerLoadCheckpoint,
  trackerLoadEntry,
  trackerCheckpoint,
  trackerCompact,
  trackerNode,
  trackerPlan,
} from './belief/tracker';

export { bfsCountHistories, bfsHistories, dfsRestartUnit, dfsDescents, dfsRestarts };
export {
  trackerDefaults,
  trackerCreate,
  trackerFree,
  trackerFreeAll,
  trackerObserve,
  trackerRun,
  trackerStop,
  trackerTopUp,
  trackerSize,
  trackerEntry,
  trackerWitness,
  trackerSample,
  trackerLos,
  trackerStat,
  trackerSetStat,
  trackerLoadEvent,
  trackerLoadNode,
  trackerLoadClear,
  trackerLoadCheckpoint,
  trackerLoadEntry,
  trackerCheckpoint,
  trackerCompact,
  trackerNode,
  trackerPlan,
};
export function trackerOptionBuffer(): Int32Array {
  return TRACKER_OPTIONS;
}
export function trackerOutBuffer(): Int32Array {
  return TRACKER_OUT;
}
export function trackerEventBuffer(): Int32Array {
  return TRACKER_EVENT;
}

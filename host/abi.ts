// The core's exported ABI, as both backends present it to the host. One entry per export of
// assembly/index.ts; test/abi.test.ts checks the real WASM export list against CORE_EXPORTS.
// Handles are position-record indices; buffers are Int32Array views over the core's own memory.

export interface CoreExports {
  /** Allocate arenas for `capacity` position records and build all tables. Invalidates views. */
  init(capacity: number): void;
  /** Number of position records the arena holds. */
  capacity(): number;
  /** Words per position record (32) and move-list stride (256). */
  positionWords(): number;
  maxMoves(): number;
  /** Buffers, as core references: resolve them with Core.view(). */
  positionArena(): unknown;
  moveBuffer(): unknown;
  setupBuffer(): unknown;
  keyBuffer(): unknown;
  /** Validate the setup buffer and store it at `handle`: 0 or a SETUP_* status (host/status.ts). */
  loadSetup(handle: number): number;
  /** Write position `handle` into the setup buffer. */
  storeSetup(handle: number): void;
  /** Legal moves of `handle` into moveBuffer[out …]; returns their number. */
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
}

export const CORE_EXPORTS = [
  'init', 'capacity', 'positionWords', 'maxMoves',
  'positionArena', 'moveBuffer', 'setupBuffer', 'keyBuffer',
  'loadSetup', 'storeSetup', 'generateMoves', 'makeMove', 'computeKey',
  'checkDirections', 'checkerCount', 'isInCheck', 'pieceCount', 'perftFrom',
] as const satisfies readonly (keyof CoreExports)[];

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

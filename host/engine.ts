// The Engine: one host API over either backend (WASM or portable JS). It owns nothing but views of
// the core's memory; every computation happens in the core. Positions are addressed by handle
// (record index in the core's arena); the caller chooses which records to use.
import type { Core } from './abi';
import { fail, setupError } from './errors';
import { parseFen, makeFen, START_FEN, type Setup } from './notation/fen';
import { makeUci } from './notation/move';
import { PRESETS, encodeRules, type RuleSet } from './record/rules';
import {
  SETUP_SIDE,
  SETUP_CASTLING,
  SETUP_EN_PASSANT,
  SETUP_HALFMOVE,
  SETUP_FULLMOVE,
  POSITION_WORDS,
  W_KEY_LO,
  W_KEY_HI,
} from './constants';

export const DEFAULT_CAPACITY = 1024;
/** Game log size: events (attempts and announcements) of one game. */
const DEFAULT_MAX_EVENTS = 1 << 16;
/** Leaves per step of a perft count run in steps (tens of milliseconds). */
const PERFT_STEP = 1 << 20;

export interface DivideEntry {
  move: number;
  uci: string;
  nodes: number;
}

/**
 * The chess core on one backend (WASM or plain JS) with an arena of position records addressed by
 * handle: positions (FEN in and out), legal moves, perft, and the state the referee, estimators,
 * trackers and searches keep in the core. Make one with createEngine.
 */
export class Engine {
  private positionsView!: Int32Array;
  private movesView!: Int32Array;
  private setupView!: Int32Array;
  private keyView!: Int32Array;

  constructor(
    readonly core: Core,
    capacity = DEFAULT_CAPACITY,
  ) {
    this.resize(capacity);
    this.setRules(PRESETS.berkeley);
  }

  get backend(): 'wasm' | 'js' {
    return this.core.name;
  }
  get capacity(): number {
    return this.core.exports.capacity();
  }
  get maxMoves(): number {
    return this.core.exports.maxMoves();
  }

  /** Re-allocates the core's arenas (all positions are lost). */
  resize(capacity: number): void {
    if (!Number.isInteger(capacity) || capacity < 2) throw fail('bad-capacity', { capacity });
    this.core.exports.init(capacity, DEFAULT_MAX_EVENTS);
    this.refreshViews();
  }

  /** Sets the rule set the referee (and move generation: castling, en passant, promotions) follows. */
  setRules(rules: RuleSet): void {
    const flags = encodeRules(rules);
    const buffer = this.view('rules');
    buffer.set(flags);
    const status = this.core.exports.setRules();
    if (status !== 0) throw fail('bad-rules', { text: `invalid rule flag #${status - 1}` });
    this.currentRules = { ...rules };
  }

  get rules(): RuleSet {
    return { ...this.currentRules };
  }
  private currentRules: RuleSet = PRESETS.berkeley;

  /** A current view of one of the core's buffers (views detach when WASM memory grows). */
  view(buffer: 'rules' | 'attempts' | 'pawnTries' | 'events' | 'view'): Int32Array {
    const x = this.core.exports;
    const ref =
      buffer === 'rules'
        ? x.rulesBuffer()
        : buffer === 'attempts'
          ? x.attemptBuffer()
          : buffer === 'pawnTries'
            ? x.pawnTryBuffer()
            : buffer === 'view'
              ? x.viewBuffer()
              : x.eventBuffer();
    return this.core.view(ref);
  }

  private refreshViews(): void {
    const x = this.core.exports;
    this.positionsView = this.core.view(x.positionArena());
    this.movesView = this.core.view(x.moveBuffer());
    this.setupView = this.core.view(x.setupBuffer());
    this.keyView = this.core.view(x.keyBuffer());
  }

  /** Views detach when WASM memory grows; check cheaply and re-create them. */
  private views(): this {
    if (this.setupView.length === 0) this.refreshViews();
    return this;
  }

  /** The raw position arena (POSITION_WORDS words per record; layout in assembly/chess/position.ts). */
  get positions(): Int32Array {
    return this.views().positionsView;
  }

  private checkHandle(handle: number, room = 0): void {
    if (!Number.isInteger(handle) || handle < 0 || handle + room >= this.capacity) {
      throw fail('bad-handle', { handle, room, capacity: this.capacity });
    }
  }

  setSetup(handle: number, setup: Setup): void {
    this.checkHandle(handle);
    const buffer = this.views().setupView;
    for (let sq = 0; sq < 64; sq++) buffer[sq] = setup.board[sq];
    buffer[SETUP_SIDE] = setup.side;
    buffer[SETUP_CASTLING] = setup.castling;
    buffer[SETUP_EN_PASSANT] = setup.epSquare;
    buffer[SETUP_HALFMOVE] = setup.halfmove;
    buffer[SETUP_FULLMOVE] = setup.fullmove;
    const status = this.core.exports.loadSetup(handle);
    if (status !== 0) throw setupError(status);
  }

  setup(handle: number): Setup {
    this.checkHandle(handle);
    this.core.exports.storeSetup(handle);
    const b = this.views().setupView;
    return {
      board: Array.from(b.subarray(0, 64)),
      side: b[SETUP_SIDE] as 0 | 1,
      castling: b[SETUP_CASTLING],
      epSquare: b[SETUP_EN_PASSANT],
      halfmove: b[SETUP_HALFMOVE],
      fullmove: b[SETUP_FULLMOVE],
    };
  }

  /** Loads a FEN (or "startpos"); throws KriegError naming what is wrong. */
  setFen(handle: number, fen: string): void {
    this.setSetup(handle, parseFen(fen === 'startpos' ? START_FEN : fen));
  }

  fen(handle: number): string {
    return makeFen(this.setup(handle));
  }

  /** Legal move codes of position `handle` (uses the handle's own move-list slice). */
  moves(handle: number): number[] {
    this.checkHandle(handle);
    const out = this.core.exports.hostMovesOffset();
    const n = this.core.exports.generateMoves(handle, out);
    return Array.from(this.views().movesView.subarray(out, out + n));
  }

  movesUci(handle: number): string[] {
    return this.moves(handle).map(makeUci);
  }

  /** Plays a legal move code of `src` into record `dst`. */
  play(src: number, move: number, dst: number): void {
    this.checkHandle(src);
    this.checkHandle(dst);
    if (!this.moves(src).includes(move)) throw fail('illegal-move', { move: makeUci(move), fen: this.fen(src) });
    this.core.exports.makeMove(src, move, dst);
  }

  /** Plays a move given in UCI text. */
  playUci(src: number, uci: string, dst: number): void {
    const move = this.moves(src).find((m) => makeUci(m) === uci);
    if (move === undefined) throw fail('illegal-move', { move: uci, fen: this.fen(src) });
    this.core.exports.makeMove(src, move, dst);
  }

  inCheck(handle: number): boolean {
    this.checkHandle(handle);
    return Boolean(this.core.exports.isInCheck(handle));
  }
  checkDirections(handle: number): number {
    this.checkHandle(handle);
    return this.core.exports.checkDirections(handle);
  }
  checkerCount(handle: number): number {
    this.checkHandle(handle);
    return this.core.exports.checkerCount(handle);
  }

  /** Incremental Zobrist key as 16 hex digits (hi then lo word). */
  key(handle: number): string {
    this.checkHandle(handle);
    const base = handle * POSITION_WORDS;
    const p = this.positions;
    return hex64(p[base + W_KEY_HI], p[base + W_KEY_LO]);
  }

  /** The key recomputed from scratch; must always equal key(). */
  recomputedKey(handle: number): string {
    this.checkHandle(handle);
    this.core.exports.computeKey(handle);
    const k = this.views().keyView;
    return hex64(k[1], k[0]);
  }

  /**
   * Perft leaf count from `handle`, using records handle+1 … handle+depth as its stack. With
   * `onProgress`, the count runs in steps (perftSteps) and the leaves counted so far are reported
   * after each.
   */
  perft(handle: number, depth: number, bulk = false, onProgress?: (nodes: number) => void): number {
    if (!onProgress) {
      if (!Number.isInteger(depth) || depth < 0) throw fail('bad-depth', { depth });
      this.checkHandle(handle, depth);
      return this.core.exports.perftFrom(handle, depth, bulk ? 1 : 0);
    }
    return this.perftSteps(handle, depth, bulk, (nodes) => void onProgress(nodes)).nodes;
  }

  /**
   * The perft count in steps of about PERFT_STEP leaves, so a long count can report and stop:
   * `onStep(leaves so far, root moves started, root moves)` is called after each step, and the count
   * stops when it returns false (`complete` false; `nodes` then counts a prefix of the tree, the same
   * one for the same steps on either backend).
   */
  perftSteps(
    handle: number,
    depth: number,
    bulk: boolean,
    onStep: (nodes: number, rootMovesStarted: number, rootMoves: number) => boolean | void,
  ): { nodes: number; complete: boolean } {
    if (!Number.isInteger(depth) || depth < 0) throw fail('bad-depth', { depth });
    this.checkHandle(handle, depth);
    const x = this.core.exports;
    const rootMoves = depth > 0 ? this.moves(handle).length : 0;
    x.perftWalkFrom(handle, depth, bulk ? 1 : 0);
    for (;;) {
      const ended = Boolean(x.perftWalkRun(PERFT_STEP));
      const nodes = x.perftWalkLeaves();
      const going = onStep(nodes, ended ? rootMoves : x.perftWalkRootMoves(), rootMoves) !== false;
      if (ended || !going) return { nodes, complete: ended };
    }
  }

  /**
   * Perft split by root move; `onEntry` is called as each root move's count is done. With `onStep`,
   * each root move is counted in steps (perftSteps, called with the leaves of the whole count so
   * far) and a false answer stops the count: the root moves counted whole are returned.
   */
  divide(
    handle: number,
    depth: number,
    bulk = false,
    onEntry?: (entry: DivideEntry) => void,
    onStep?: (nodes: number) => boolean | void,
  ): DivideEntry[] {
    if (!Number.isInteger(depth) || depth < 1) throw fail('bad-depth', { depth, divide: true });
    this.checkHandle(handle, depth);
    const entries: DivideEntry[] = [];
    let before = 0;
    let going = true;
    for (const move of this.moves(handle)) {
      if (!going) break;
      this.core.exports.makeMove(handle, move, handle + 1);
      let nodes: number;
      if (onStep) {
        const run = this.perftSteps(handle + 1, depth - 1, bulk, (n) => (going = onStep(before + n) !== false));
        if (!run.complete) break;
        nodes = run.nodes;
      } else nodes = this.core.exports.perftFrom(handle + 1, depth - 1, bulk ? 1 : 0);
      const entry = { move, uci: makeUci(move), nodes };
      before += nodes;
      entries.push(entry);
      onEntry?.(entry);
    }
    return entries;
  }
}

/** A 64-bit key as 16 hex digits, hi word first. */
export function hex64(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

// The core's own random self-play (randomGame: both sides drawn inside the core, no boundary
// crossing per attempt; the fast path of benchmarks and property tests) and the seeded random
// numbers of host-side players. A game between players is a GameSession (session.ts) driven by the
// game runner of host/players/game.ts.
import type { Engine } from '../engine';
import { START_FEN } from '../notation/fen';
import type { GameRecord } from '../record/record';
import { playRandomGame } from '../core/referee';
import { gameRecord } from './session';

export interface GameOptions {
  start?: string;
  maxPlies?: number;
  tags?: Record<string, string>;
  /** Position handle of the true board (handle + 1 is the referee's scratch). */
  handle?: number;
}

/** mulberry32: a small seeded generator for host-side players. */
export function seededRandom(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random self-play entirely in the core (the fast path for benchmarks and property tests). */
export function randomGame(engine: Engine, seed: number, options: GameOptions = {}): GameRecord {
  const handle = options.handle ?? 0;
  const start = options.start ?? START_FEN;
  engine.setFen(handle, start);
  playRandomGame(engine, handle, seed, options.maxPlies ?? 400);
  const names = { white: 'random', black: 'random' };
  return gameRecord(engine, start, names, { Seed: String(seed), ...options.tags });
}

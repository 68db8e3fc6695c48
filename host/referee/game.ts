// Playing games through the core's referee. Players implement `Player` on the host (any TS
// strategy) or are the core's own random player (randomGame: no boundary crossing per attempt).
import type { Engine } from '../engine';
import { fail } from '../errors';
import { START_FEN } from '../notation/fen';
import type { Percept } from '../record/percept';
import type { RuleSet } from '../record/rules';
import { SIDES, type GameRecord, type Side } from '../record/record';
import {
  attemptsOf,
  gameAskAny,
  gameAttempt,
  gameEvents,
  gameOver,
  gameResult,
  playRandomGame,
  startGame,
} from '../core/referee';

/** What a player sees when choosing: his attemptable moves and what happened so far this turn. */
export interface TurnContext {
  side: Side;
  /** Attempt codes not Nonsense on the own board (uci via makeUci). */
  attempts: number[];
  /** Attempts already answered this turn, with their answers. */
  tried: { attempt: number; percept: Percept }[];
  /** The answer to "Any?" this turn, if asked. */
  any?: boolean;
  rules: RuleSet;
  /** A source of randomness derived from the game seed. */
  random: () => number;
}

export interface Player {
  readonly name: string;
  /** The next attempt code, or 'any' to ask "Any?" (once a turn, where the rules allow). */
  choose(context: TurnContext): number | 'any';
}

/** The record of the game the engine's referee holds. */
function finish(engine: Engine, start: string, white: string, black: string, tags: Record<string, string>): GameRecord {
  return { rules: engine.rules, start, white, black, result: gameResult(engine), tags, events: gameEvents(engine) };
}

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

/** Plays a game between two host players; returns its full record. */
export function playGame(
  engine: Engine,
  white: Player,
  black: Player,
  seed: number,
  options: GameOptions = {},
): GameRecord {
  const handle = options.handle ?? 0;
  const start = options.start ?? START_FEN;
  const maxPlies = options.maxPlies ?? 400;
  engine.setFen(handle, start);
  startGame(engine, handle);
  const random = seededRandom(seed);
  const players = { white, black };
  let plies = 0;
  while (!gameOver(engine) && plies < maxPlies) {
    const side = SIDES[engine.setup(handle).side];
    const context: TurnContext = { side, attempts: [], tried: [], rules: engine.rules, random };
    for (;;) {
      context.attempts = attemptsOf(engine, handle);
      const choice = players[side].choose(context);
      if (choice === 'any') {
        context.any = gameAskAny(engine);
        continue;
      }
      const percept = gameAttempt(engine, choice);
      if (percept.answer === 'legal') break;
      context.tried.push({ attempt: choice, percept });
      if (context.tried.length > 1000) throw fail('player-stuck', { player: players[side].name, attempts: 1000 });
    }
    plies++;
  }
  return finish(engine, start, white.name, black.name, { Seed: String(seed), ...options.tags });
}

/** The random player on the host side: uniform over attempts not yet tried this turn. */
export const randomPlayer: Player = {
  name: 'random',
  choose(context) {
    const tried = new Set(context.tried.map((t) => t.attempt));
    const open = context.attempts.filter((a) => !tried.has(a));
    return open[Math.floor(context.random() * open.length)];
  },
};

/** Random self-play entirely in the core (the fast path for benchmarks and property tests). */
export function randomGame(engine: Engine, seed: number, options: GameOptions = {}): GameRecord {
  const handle = options.handle ?? 0;
  const start = options.start ?? START_FEN;
  engine.setFen(handle, start);
  playRandomGame(engine, handle, seed, options.maxPlies ?? 400);
  return finish(engine, start, 'random', 'random', { Seed: String(seed), ...options.tags });
}

// Engines of the players' own: one per player, never the referee's, so that no player can read
// the true board (player.ts). Every core is an instance of its own, WASM or JS (build/krieg.js is
// a factory: backends/js.ts).
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { resetSearch } from '../core/players';
import { freeAllTrackers } from '../core/tracker';
import { START_FEN } from '../notation/fen';
import { preset, type RuleSet } from '../record/rules';
import type { Side } from '../record/record';
import { PLAYER_CAPACITY, TABLE_BITS, type Player, type PlayerSetup } from './player';
import { parsePlayerSpec, playerFactory, type PlayerSpec } from './registry';

/** An engine for a player (its own, never the referee's), with room for its estimators and searches. */
export function createPlayerEngine(backend: BackendName, capacity = PLAYER_CAPACITY): Engine {
  return new Engine(createCore(backend), capacity);
}

/**
 * The two players' engines of a process, made once and reused game after game: each game's player
 * gets its engine cleared of what the last game left that could change a choice (the rules, the
 * search's table and history), so a game plays the same whichever games came before it, and of the
 * last game's belief trackers, which its players do not free (one more a game, each as large as its
 * game made it, ran a 200-game match's engine out of memory at game 109).
 */
export class PlayerEngines {
  private readonly engines: Partial<Record<Side, Engine>> = {};
  constructor(
    private readonly backend: BackendName,
    private readonly capacity = PLAYER_CAPACITY,
  ) {}

  for(side: Side, rules: RuleSet): Engine {
    const engine = (this.engines[side] ??= createPlayerEngine(this.backend, this.capacity));
    engine.setRules(rules);
    resetSearch(engine, TABLE_BITS);
    freeAllTrackers(engine);
    return engine;
  }
}

/** A player as the library makes it (createPlayer): its side, and the rest defaulted as `krieg match` does. */
export interface PlayerOptions {
  side: Side;
  /** Default: the Berkeley rules. */
  rules?: RuleSet;
  /** The start of the game (FEN), which both players know; default the initial position. */
  start?: string;
  /** The player's random stream (default 1). */
  seed?: number;
  /** Work per move (deterministic play); default DEFAULT_NODES without `timePerMove`. */
  nodes?: number;
  /** Seconds per move. */
  timePerMove?: number;
  /** The backend of the player's own engine (default 'wasm'). */
  backend?: BackendName;
}

/**
 * A player by the name `krieg match` takes (`random`, `aosp`, `krieg:mate=100` …: PLAYER_NAMES and
 * PLAYER_OPTIONS of ./registry), on an engine of its own. Hand it to runGame with another.
 */
export function createPlayer(spec: string | PlayerSpec, options: PlayerOptions): Player {
  const parsed = typeof spec === 'string' ? parsePlayerSpec(spec) : spec;
  const rules = options.rules ?? preset('berkeley');
  const setup: PlayerSetup = {
    side: options.side,
    rules,
    start: options.start ?? START_FEN,
    seed: options.seed ?? 1,
    budget: {
      ...(options.nodes !== undefined ? { nodes: options.nodes } : {}),
      ...(options.timePerMove !== undefined ? { timePerMove: options.timePerMove } : {}),
    },
    options: parsed.options,
  };
  return playerFactory(parsed)(setup, new PlayerEngines(options.backend ?? 'wasm').for(options.side, rules));
}

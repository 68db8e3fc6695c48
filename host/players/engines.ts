// Engines of the players' own: one per player, never the referee's, so that no player can read
// the true board (player.ts). Every core is an instance of its own, WASM or JS (build/krieg.js is
// a factory: backends/js.ts).
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { resetSearch } from '../core/players';
import type { RuleSet } from '../record/rules';
import type { Side } from '../record/record';

/** Records of a player's engine: room for the exact estimator's layers and the search stack. */
export const PLAYER_CAPACITY = 1 << 17;
/** The players' transposition table: 2^bits entries of 16 bytes. */
export const TABLE_BITS = 18;

export function createPlayerEngine(backend: BackendName, capacity = PLAYER_CAPACITY): Engine {
  return new Engine(createCore(backend), capacity);
}

/**
 * The two players' engines of a process, made once and reused game after game: each game's player
 * gets its engine cleared of what the last game left that could change a choice (the rules, the
 * search's table and history), so a game plays the same whichever games came before it.
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
    return engine;
  }
}

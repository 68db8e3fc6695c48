// A whole game for the players' tests: krieg (White) against random (Black) from a FEN, 300 nodes
// a move, refereed by a GameSession of its own.
import { createEngine } from '../../host/node';
import type { RuleSet } from '../../host/record/rules';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec, playerFactory } from '../../host/players/registry';
import type { Player, PlayerSetup } from '../../host/players/player';
import { runGame } from '../../host/players/game';
import { GameSession } from '../../host/referee/session';

export interface KriegGame {
  rules: RuleSet;
  start: string;
  /** White's seed and Black's. */
  seeds: [number, number];
  maxPlies: number;
  /** The engines the players use (a table a test built in White's stays there for its games). */
  engines: PlayerEngines;
}

/** The game's record, krieg's player, and krieg's moves the referee took (its Illegal attempts not counted). */
export function kriegAgainstRandom(backend: 'wasm' | 'js', game: KriegGame) {
  const { rules, start, seeds, maxPlies, engines } = game;
  const setup = (side: 'white' | 'black', name: string, seed: number): PlayerSetup => ({
    side,
    rules,
    start,
    seed,
    budget: { nodes: 300 },
    options: parsePlayerSpec(name).options,
  });
  const white: Player = playerFactory(parsePlayerSpec('krieg'))(
    setup('white', 'krieg', seeds[0]),
    engines.for('white', rules),
  );
  const black = playerFactory(parsePlayerSpec('random'))(
    setup('black', 'random', seeds[1]),
    engines.for('black', rules),
  );
  const record = runGame(new GameSession(createEngine(backend, 16), { start, maxPlies }), { white, black });
  const moves = record.events.filter((e) => e.side === 'white' && e.type === 'attempt' && e.percept.answer === 'legal');
  return { record, white, moves: moves.length };
}

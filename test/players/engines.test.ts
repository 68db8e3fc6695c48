// PlayerEngines reuse a player's engine game after game (krieg match, its workers, the benches).
// Each game's players make belief trackers in that engine and do not free them; the engine frees
// the last game's when it is handed to the next game, so a long match's memory stays what one game
// needs (a 200-game match ran out of memory at game 109 before), and a game plays the same on an
// engine that played others before it as on a fresh one.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../host/node';
import { preset } from '../../host/record/rules';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec, playerFactory } from '../../host/players/registry';
import { runGame } from '../../host/players/game';
import { GameSession } from '../../host/referee/session';
import { freeAllTrackers } from '../../host/core/tracker';
import type { Side } from '../../host/record/record';
import type { PlayerSetup } from '../../host/players/player';
import type { BackendName } from '../../host/backends/node';

const rules = preset('berkeley');

/** Game `game` of krieg (White) v random, 12 plies at 100 nodes a move, on `engines`. */
function play(backend: BackendName, engines: PlayerEngines, game: number): string {
  const setup = (side: Side): PlayerSetup => ({
    side,
    rules,
    start: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    seed: 2 * game + (side === 'white' ? 0 : 1),
    budget: { nodes: 100 },
    options: {},
  });
  const referee = createEngine(backend, 16);
  referee.setRules(rules);
  const record = runGame(new GameSession(referee, { maxPlies: 12 }), {
    white: playerFactory(parsePlayerSpec('krieg'))(setup('white'), engines.for('white', rules)),
    black: playerFactory(parsePlayerSpec('random'))(setup('black'), engines.for('black', rules)),
  });
  return JSON.stringify(record.events);
}

// WASM only: the tracker slots are the core's (one source for both backends), and the JS core's
// games cost ten times as much
describe.each(['wasm'] as const)('player engines reused game after game on %s', (backend) => {
  it('keep one game’s trackers, not one more a game, and play each game as a fresh engine does', () => {
    const engines = new PlayerEngines(backend);
    const games: string[] = [];
    for (let game = 1; game <= 3; game++) games.push(play(backend, engines, game));
    // the slots of krieg's engine after three games: the trackers one game had at once
    const slots = freeAllTrackers(engines.for('white', rules));
    const fresh = new PlayerEngines(backend);
    play(backend, fresh, 1);
    expect(freeAllTrackers(fresh.for('white', rules))).toBe(slots);
    expect(slots).toBeGreaterThan(0);
    // game 3 on an engine that played nothing before it
    expect(play(backend, new PlayerEngines(backend), 3)).toBe(games[2]);
  });
});

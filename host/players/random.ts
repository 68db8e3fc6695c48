// `random`: uniform over the attempts that are not Nonsense (Parker et al.'s floor). The core's
// random player (assembly/referee/game.ts) draws from the true board's own pieces inside the
// referee; this one draws from the same attempts, computed from the player's view alone.
import type { Player, PlayerFactory } from './player';
import { seededRandom } from '../referee/game';

/**
 * The random player drawing from `random` (one draw a choice): krieg play --host-players gives
 * both sides the game's one stream.
 */
export function randomPlayerOn(random: () => number): Player {
  return {
    name: 'random',
    observe() {
      /* nothing to remember */
    },
    choose: (turn) => turn.attempts[Math.floor(random() * turn.attempts.length)],
  };
}

export const randomPlayer: PlayerFactory = (setup) => randomPlayerOn(seededRandom(setup.seed));

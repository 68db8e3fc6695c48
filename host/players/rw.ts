// `rw`: the checkmate-problem database's White program (selfPlay.ts; Russell & Wolfe 2005 §3 —
// exact belief, a 2-ply evaluation averaged over it, hints), made a general player for either
// colour: a belief too large to estimate exactly is sampled instead of dropping the game.
import type { PlayerFactory } from './player';
import { seededRandom } from '../referee/game';
import { whiteChoice, type WhiteState } from './selfPlay';
import type { ViewEvent } from '../record/record';

/** Exact belief up to this many positions (else a sample); the database drops such games instead. */
const EXACT_BELIEF = 10_000;
/** Estimation work per choice without a node budget. */
const DEFAULT_WORK = 5_000_000;

export const rwPlayer: PlayerFactory = (setup, engine) => {
  const random = seededRandom(setup.seed);
  const state: WhiteState = { hints: 0 };
  let chosen = 0;
  return {
    name: 'rw',
    observe(_event: ViewEvent) {
      /* rw estimates from the whole view at each choice */
    },
    choose(turn) {
      chosen++;
      // a node budget bounds the estimation work; a time budget is not divided (rw does not search)
      const work = setup.budget.nodes !== undefined ? Math.max(10_000, setup.budget.nodes * 10) : DEFAULT_WORK;
      return whiteChoice({ work: engine, scorer: engine }, turn.view, turn.attempts, turn.tried, random, state, {
        start: setup.start,
        dropBelief: EXACT_BELIEF,
        reportBelief: 0,
        sampleWhenLarge: true,
        work,
      });
    },
    stats: () => ({ choices: chosen }),
  };
};

// Games for the referee's tests, driven step by step through the game session
// (host/referee/session.ts) by test choosers that see the true board (the engine they close over):
// they make every kind of mistake — Nonsense, repeated attempts, broken "Any?" obligations — and
// steer games to the referee's limits, which a blind Player of the runner (host/players/game.ts)
// never does. Both sides draw from the game's one seeded stream.
import type { Engine } from '../../host/engine';
import { attemptsOf } from '../../host/core/referee';
import type { Percept } from '../../host/record/percept';
import type { RuleSet } from '../../host/record/rules';
import type { GameRecord, Side } from '../../host/record/record';
import { seededRandom } from '../../host/referee/game';
import { GameSession } from '../../host/referee/session';

/** What a test chooser is told: the side's attempts on the true board and what happened this turn. */
export interface SightedTurn {
  side: Side;
  /** Attempt codes not Nonsense on the own board (computed on the true board). */
  attempts: number[];
  /** Attempts already answered this turn, with their answers. */
  tried: { attempt: number; percept: Percept }[];
  /** The answer to "Any?" this turn, if asked. */
  any?: boolean;
  rules: RuleSet;
  /** The game's seeded stream. */
  random: () => number;
}

export interface SightedChooser {
  readonly name: string;
  /** The next attempt code, or 'any'. */
  choose(turn: SightedTurn): number | 'any';
}

/** A game between two test choosers from `start` (default the initial position), at most `maxPlies` (400). */
export function sightedGame(
  engine: Engine,
  white: SightedChooser,
  black: SightedChooser,
  seed: number,
  options: { start?: string; maxPlies?: number } = {},
): GameRecord {
  const session = new GameSession(engine, {
    start: options.start,
    maxPlies: options.maxPlies ?? 400,
    names: { white: white.name, black: black.name },
    tags: { Seed: String(seed) },
  });
  const random = seededRandom(seed);
  const choosers = { white, black };
  while (!session.over()) {
    const side = session.toMove();
    const turn: SightedTurn = { side, attempts: [], tried: [], rules: engine.rules, random };
    for (;;) {
      turn.attempts = attemptsOf(engine, session.handle);
      const choice = choosers[side].choose(turn);
      if (choice === 'any') {
        turn.any = session.askAny();
        continue;
      }
      const percept = session.attempt(choice);
      if (percept.answer === 'legal') break;
      turn.tried.push({ attempt: choice, percept });
      if (turn.tried.length > 1000) throw new Error(`${choosers[side].name} is stuck`);
    }
  }
  return session.record();
}

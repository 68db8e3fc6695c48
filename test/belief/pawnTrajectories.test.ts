// The relaxed pawn model of the premise experiment (bench/lib/pawnTrajectories.ts, issue 36),
// against the games' truth: its constraints are sound (the truth's own pawn trajectory satisfies
// every one, on random games of every preset, both views), its search finds a trajectory on those
// views, and a view whose pawn answers contradict every trajectory (an opponent's "yes, a pawn
// capture" where none of his pawns can attack any man of mine) has none.
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../host/node';
import { preset, PRESET_NAMES } from '../../host/record/rules';
import { randomGame } from '../../host/referee/game';
import { replaySetups } from '../../host/referee/replay';
import { viewOf, SIDES, type View } from '../../host/record/record';
import { PawnProblem, truthPlan } from '../../bench/lib/pawnTrajectories';

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => (a = (Math.imul(a, 1664525) + 1013904223) >>> 0) / 4294967296;
}

function game(name: (typeof PRESET_NAMES)[number], seed: number, maxPlies: number) {
  const engine = createEngine('wasm', 1 << 10);
  engine.setRules(preset(name));
  const record = randomGame(engine, seed, { maxPlies });
  const setups = replaySetups(engine, record);
  const moves = record.events.flatMap((e) => (e.type === 'attempt' && e.percept.answer === 'legal' ? [e.attempt] : []));
  return { record, setups, moves };
}

describe('the relaxed pawn model', () => {
  it.each(PRESET_NAMES)('%s: the truth satisfies it, and the search finds a trajectory', (name) => {
    for (const seed of [1, 2, 3, 4]) {
      const { record, setups, moves } = game(name, seed, 100);
      for (const as of SIDES) {
        const view = viewOf(record, as);
        const problem = new PawnProblem(view, setups);
        const truth = truthPlan(view, setups, moves, as);
        expect(problem.follow(truth)).not.toContain(null);
        if (seed > 1) continue; // a search on one game a preset (each takes up to 10^5 states or so)
        const found = problem.solve(seeded(seed), 1e6);
        expect(found).not.toBeNull();
        expect(problem.follow(found!.plan)).not.toContain(null);
      }
    }
  });

  it("an opponent's pawn capture announced where none can be made: no trajectory", () => {
    const { record, setups } = game('english', 7, 12);
    const view = viewOf(record, 'white');
    // after White's first move, Black says "Any?" and hears yes: his pawns, on their 7th rank,
    // attack only squares of the 6th, where no man of White's can be
    const first = view.events.findIndex((e) => e.type === 'attempt' && e.percept.answer === 'legal');
    const events = [...view.events.slice(0, first + 1), { type: 'any' as const, side: 'black' as const, yes: true }];
    const broken: View = { ...view, events };
    expect(new PawnProblem(broken, setups).solve(seeded(1), 1e5)).toBeNull();
    const honest: View = { ...view, events: [...events.slice(0, -1), { type: 'any', side: 'black', yes: false }] };
    expect(new PawnProblem(honest, setups).solve(seeded(1), 1e5)).not.toBeNull();
  });
});

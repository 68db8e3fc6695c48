// The referee at the edges of its fixed-size memory, checked with the chessops oracle like the
// random games of announcements.test.ts: a turn with more than 256 rejected attempts, and a game
// of more than 4096 plies (the size of the key history before it was tied to the event log) under
// repetition rules.
import { describe, it, expect } from 'vitest';
import { createEngine, BACKENDS, type Engine } from '../../host/node';
import { preset, withOverrides } from '../../host/record/rules';
import { sightedGame, type SightedChooser } from './sighted';
import { verifyRecord } from './replay';

/** A player that makes the given attempt codes in order, then a legal move. */
function scripted(engine: Engine, scripts: Record<'white' | 'black', number[]>): SightedChooser {
  return {
    name: 'scripted',
    choose(ctx) {
      const next = scripts[ctx.side].shift();
      if (next !== undefined) return next;
      const m = engine.moves(0)[0];
      return m >> 12 >= 4 ? m : m & 0xfff;
    },
  };
}

/**
 * A player that never repeats a position (and avoids captures, pawn moves and checks, so the game
 * lasts) until ply `until`, then steers back to positions already seen.
 */
function walker(engine: Engine, until: number): SightedChooser {
  const seen = new Map<string, number>();
  const positionOf = (h: number) => engine.fen(h).split(' ').slice(0, 4).join(' ');
  let plies = 0;
  return {
    name: 'walker',
    choose(ctx) {
      if (ctx.tried.length === 0) {
        const here = positionOf(0);
        seen.set(here, (seen.get(here) ?? 0) + 1);
        plies++;
      }
      const board = engine.setup(0).board;
      const candidates = engine
        .moves(0)
        .filter((m) => board[(m >> 6) & 63] === 0 && (board[m & 63] & 7) !== 1)
        .map((m) => {
          engine.play(0, m, 3);
          return { m, next: positionOf(3), calm: !engine.inCheck(3) && engine.moves(3).length > 0 };
        })
        .filter((c) => c.calm);
      const score = (c: { next: string }) => (plies < until ? -(seen.get(c.next) ?? 0) : (seen.get(c.next) ?? 0));
      const best = Math.max(...candidates.map(score));
      const pool = candidates.filter((c) => score(c) === best);
      const m = pool[Math.floor(ctx.random() * pool.length)].m;
      return m >> 12 >= 4 ? m : m & 0xfff;
    },
  };
}

describe.each(BACKENDS)('%s referee at its limits', (backend) => {
  it('a repeated attempt is Nonsense even after 256 other rejected attempts in the turn', () => {
    const engine = createEngine(backend);
    engine.setRules(preset('berkeley'));
    // 256 distinct Nonsense attempts from empty squares, then b2a3 (Illegal), then b2a3 again
    const nonsense: number[] = [];
    for (let from = 16; from < 48 && nonsense.length < 256; from++)
      for (let to = 0; to < 64 && nonsense.length < 256; to++) nonsense.push(from | (to << 6));
    const b2a3 = 9 | (16 << 6);
    const player = scripted(engine, { white: [...nonsense, b2a3, b2a3], black: [] });
    const record = sightedGame(engine, player, player, 1, { maxPlies: 2 });
    expect(
      record.events
        .filter((e) => e.type === 'attempt' && e.attempt === 'b2a3')
        .map((e) => e.type === 'attempt' && e.percept.answer),
    ).toEqual(['illegal', 'nonsense']);
    verifyRecord(record, 2, new Map());
  });

  it('detects a third repetition after ply 4096 (and does not trap)', () => {
    const engine = createEngine(backend);
    engine.setRules(withOverrides(preset('berkeley'), { repetitionDraw: true }));
    const player = walker(engine, 4110);
    const record = sightedGame(engine, player, player, 1, {
      start: 'r1bqkb1r/8/8/8/8/8/8/R1BQKB1R w KQkq - 0 1',
      maxPlies: 4300,
    });
    verifyRecord(record, 4300, new Map());
    // the walker did reach a repetition past ply 4096
    const legal = record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal');
    expect(legal.length).toBeGreaterThan(4110);
    expect(legal.length).toBeLessThan(4300);
    expect(record.result).toBe('1/2-1/2');
  });
});

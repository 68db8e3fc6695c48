// Endgame tablebases (issue #35; assembly/players/egtb.ts), on hand-worked states, both backends:
// - mate in 1: White Kb6, Rd1, Black's king known on a8: Rd8 mates;
// - mate in 2 with the king on a8 or c8 (same men): no move mates both (Rd8 mates on a8 but
//   stands next to c8 unprotected), and a rook move along the d-file keeps d7, d8 covered: from a8
//   the king must go to b8 (a7, b7 are the white king's), from c8 too (b7, c7 the king's, d7, d8
//   the rook's), so the set is {b8} and Rd8 mates;
// - no forced mate: White Ka1, Rh8, the king anywhere consistent: the rook stands next to g7, where
//   the king may be, every rook move lands next to a square the king may be on (a8 by b7, h1 by
//   g1 …) out of reach of the white king, and every king move leaves g7 able to take: each attempt
//   may lose the rook, so the table around it holds that state alone (an attempt never taken
//   enumerates no successor);
// - the same values from tables built around the states (depth-limited) and the table's own values;
// - K+Q, the same men with the queen on d1: against a8, Qd8 mates (b8 the queen's, a7, b7 the
//   king's); against a8 or c8 no move mates both (the queen reaches the 8th rank only on d8, next
//   to c8 unprotected), and Qd2 (or Qd3, Qd4, Qd5: Qd6 stalemates a8, Qd7 stands next to c8)
//   leaves the king only b8 (from c8: d7, d8 the queen's), where Qd8 mates;
// - a build whose graph holds only its first states, or none, recomputing the rest in each sweep,
//   values every state as the build whose graph holds them all;
// - under a plain "check", a checking move still splits the set from the squares it does not check
//   (metaposition.ts's class key carries the check bit: Kb6, Rd1 against a4 or h8, Rd4 checks a4 only);
// - the krieg player with a table in its engine mates within the table's value against random
//   (fixed seeds), from Kb6, Rd1 against the king on c8 (a table four moves deep around it).
import { kriegAgainstRandom } from '../lib/kriegGame';
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset, withOverrides } from '../../host/record/rules';
import { encodePercept } from '../../host/record/percept';
import { endgameAttempt, endgameBegin, endgameSquares } from '../../host/core/endgame';
import { makeUci, parseUci } from '../../host/notation/move';
import { egtbBuild, egtbEntries, egtbInit, egtbProbe } from '../../host/core/egtb';
import type { Engine } from '../../host/engine';
import { PlayerEngines } from '../../host/players/engines.node';
import type { KriegPlayer } from '../../host/players/krieg';

const square = (name: string) => name.charCodeAt(0) - 97 + 8 * (Number(name[1]) - 1);

function engineFor(backend: 'wasm' | 'js'): Engine {
  const engine = createEngine(backend, 16);
  engine.setRules(preset('berkeley'));
  return engine;
}

describe.each(BACKENDS)('endgame tablebases on %s', (backend) => {
  // the rook's and the queen's states are the same men with the piece on d1 (the header above)
  it.each([
    ['krk', 'R'],
    ['kqk', 'Q'],
  ] as const)(
    '%s: mate in 1 against a8, in 2 against a8 or c8 (along the d-file, then the piece to d8)',
    (ending, piece) => {
      const engine = engineFor(backend);
      engine.setFen(0, `k7/8/1K6/8/8/8/8/3${piece}4 w - - 0 1`);
      egtbInit(engine, ending, 4);
      const one = egtbProbe(engine, 0, [square('a8')]);
      expect(one.value).toBe(1);
      expect(makeUci(one.attempt)).toBe('d1d8');
      expect(one.stored).toBe(-1);
      engine.setFen(0, `8/8/1K6/8/7k/8/8/3${piece}4 w - - 0 1`);
      const kings = [square('a8'), square('c8')];
      // with the table empty nothing but a mate in 1 is proven: there is none
      egtbInit(engine, ending, 4);
      expect(egtbProbe(engine, 0, kings).value).toBe(0);
      const built = egtbBuild(engine, ending, { log2: 12, around: [{ handle: 0, squares: kings }], depth: 2 });
      expect(built.starts).toBe(1);
      expect(built.byValue[1]).toBeGreaterThan(0);
      const probe = egtbProbe(engine, 0, kings);
      expect(probe.value).toBe(2);
      expect(probe.stored).toBe(2);
      expect(['d1d2', 'd1d3', 'd1d4', 'd1d5']).toContain(makeUci(probe.attempt));
      // after it, the king on b8: the piece to d8 mates (from d2)
      engine.setFen(1, `8/8/1K6/8/7k/8/3${piece}4/8 w - - 0 1`);
      const next = egtbProbe(engine, 1, [square('b8')]);
      expect(next.value).toBe(1);
      expect(makeUci(next.attempt)).toBe('d2d8');
      // a mate in 2 needs its depth: a table one move deep proves only mates in 1
      egtbBuild(engine, ending, { log2: 12, around: [{ handle: 0, squares: kings }], depth: 1 });
      expect(egtbProbe(engine, 0, kings).value).toBe(0);
    },
  );

  it('no forced mate: Ka1, Rh8 with the king anywhere consistent (every attempt may lose the rook)', () => {
    const engine = engineFor(backend);
    engine.setFen(0, '7R/8/8/8/4k3/8/8/K7 w - - 0 1');
    const kings: number[] = [];
    for (let sq = 0; sq < 64; sq++) {
      const file = sq & 7;
      const rank = sq >> 3;
      if (rank === 7 || file === 7 || (file <= 1 && rank <= 1)) continue; // the rook's lines, the white king and its squares
      kings.push(sq);
    }
    const built = egtbBuild(engine, 'krk', { log2: 12, around: [{ handle: 0, squares: kings }], depth: 1 });
    expect(built.states).toBe(1); // no attempt is taken, so none leads to a state of the table
    const probe = egtbProbe(engine, 0, kings);
    expect(probe).toEqual({ value: 0, stored: 0, attempt: -1, bound: false });
  });

  it('values the states of Black’s men the same, the attempt on their board', () => {
    const engine = engineFor(backend);
    // the mate in 1 mirrored by ranks: Black Kb3, Rd8 against White's king on a1
    engine.setFen(0, '3r4/8/8/8/8/1k6/8/K7 b - - 0 1');
    egtbInit(engine, 'krk', 4);
    const probe = egtbProbe(engine, 0, [square('a1')]);
    expect(probe.value).toBe(1);
    expect(makeUci(probe.attempt)).toBe('d8d1');
  });

  it('a graph too small for every state, or none, gives the same values state for state', () => {
    const engine = engineFor(backend);
    engine.setFen(0, '2k5/8/1K6/8/8/8/8/3R4 w - - 0 1');
    const around = [{ handle: 0, squares: [square('c8'), square('e8')] }];
    const whole = egtbBuild(engine, 'krk', { log2: 14, around, depth: 3 });
    expect(whole.graphStates).toBe(whole.states);
    expect(whole.longest).toBeGreaterThanOrEqual(3);
    const values = egtbEntries(engine).slice();
    for (const graphLog2 of [12, 0]) {
      const built = egtbBuild(engine, 'krk', { log2: 14, around, depth: 3, graphLog2 });
      expect(built.graphStates).toBeLessThan(built.states);
      expect(built.byValue).toEqual(whole.byValue);
      expect(egtbEntries(engine)).toEqual(values);
    }
  });

  it('krieg with the table mates within its value against random (fixed seeds)', () => {
    const rules = preset('berkeley');
    const start = '2k5/8/1K6/8/8/8/8/3R4 w - - 0 1';
    const engines = new PlayerEngines(backend);
    const built = engines.for('white', rules);
    built.setFen(0, start);
    egtbBuild(built, 'krk', { log2: 16, around: [{ handle: 0, squares: [square('c8')] }], depth: 4 });
    const value = egtbProbe(built, 0, [square('c8')]).value;
    expect(value).toBeGreaterThan(1);
    for (const seed of [1, 2, 3]) {
      const game = kriegAgainstRandom(backend, {
        rules,
        start,
        seeds: [seed, seed + 100],
        maxPlies: 40,
        engines, // White's engine the one built above, its table kept
      });
      const { record, moves } = game;
      const white = game.white as KriegPlayer;
      expect(record.result).toBe('1-0');
      expect(moves).toBeLessThanOrEqual(value);
      expect(white.tablebase.counters.tablebaseMoves).toBeGreaterThanOrEqual(moves);
    }
  });

  it('a plain "check" splits the set too: Rd4 heard as check leaves a4 of {a4, h8}', () => {
    const engine = createEngine(backend, 64);
    engine.setRules(withOverrides(preset('berkeley'), { checkDetail: 'plain' }));
    engine.setFen(0, '8/8/1K6/8/k7/8/8/3R4 w - - 0 1');
    engine.setFen(1, '7k/8/1K6/8/8/8/8/3R4 w - - 0 1');
    expect(endgameBegin(engine, [0, 1])).toBe(true);
    endgameAttempt(engine, parseUci('d1d4')!, encodePercept({ answer: 'legal', check: true }));
    expect(endgameSquares(engine)).toEqual([square('a4')]);
    expect(endgameBegin(engine, [0, 1])).toBe(true);
    endgameAttempt(engine, parseUci('d1d4')!, encodePercept({ answer: 'legal' }));
    expect(endgameSquares(engine)).toEqual([square('h8')]);
  });
});

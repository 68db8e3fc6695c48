// Tablebase values against the AND-OR solver (issue #35's cross-check, a small sample; the
// solver, gl-dbu, shares no code with the tables): for K+R v K states with the king on at most
// three squares (drawn from a table built around Kb6, Rd1 against a8 or c8), a table built around
// each state two moves deep says mate in 1, mate in 2 or neither; the solver proves mate within 1
// ply for the first, within 3 ply but not 1 for the second, and disproves 3 ply for the third.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { EGTB_ENTRY_WORDS, egtbBuild, egtbEntries, egtbProbe } from '../../host/core/egtb';
import { setSquares, stateFen } from '../../host/players/egtb';
import { solveRequest } from '../../host/solver/request';

const rules = preset('berkeley');

/** The FEN of a state's men with Black's king on `king`. */
const fenWith = (men: number, king: number) =>
  stateFen('krk', men, king < 32 ? 1 << king : 0, king < 32 ? 0 : 1 << (king - 32));

describe.each(BACKENDS)('tablebase values and gl-dbu on %s', (backend) => {
  it('agree on mate in 1, mate in 2 and neither for small K+R v K states', () => {
    const engine = createEngine(backend, 64);
    engine.setRules(rules);
    engine.setFen(0, '8/8/1K6/8/7k/8/8/3R4 w - - 0 1');
    egtbBuild(engine, 'krk', { log2: 12, around: [{ handle: 0, squares: [56, 58] }], depth: 2 });
    const entries = egtbEntries(engine).slice();
    const samples: { men: number; squares: number[] }[] = [];
    for (let i = 0; i < entries.length / EGTB_ENTRY_WORDS && samples.length < 12; i += 7) {
      const squares = setSquares(entries[i * EGTB_ENTRY_WORDS + 1], entries[i * EGTB_ENTRY_WORDS + 2]);
      if (squares.length <= 3) samples.push({ men: entries[i * EGTB_ENTRY_WORDS], squares });
    }
    expect(samples.length).toBeGreaterThanOrEqual(8);
    const seen = new Set<number>();
    for (const { men, squares } of samples) {
      engine.setFen(1, fenWith(men, squares[0]));
      egtbBuild(engine, 'krk', { log2: 14, around: [{ handle: 1, squares }], depth: 2 });
      engine.setFen(1, fenWith(men, squares[0]));
      const value = egtbProbe(engine, 1, squares).value; // 0: no mate within 2
      seen.add(value);
      const positions = squares.map((k) => fenWith(men, k));
      const solve = (ply: number) =>
        solveRequest(engine, { rules, positions, ply }, { algorithm: 'gl-dbu', limits: {} }).answer;
      const where = `${positions.join(' | ')}: table ${value}`;
      expect(solve(1), where).toBe(value === 1 ? 'proven' : 'disproven');
      if (value !== 1) expect(solve(3), where).toBe(value === 2 ? 'proven' : 'disproven');
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
  });
});

// Tablebase strategies through the independent verifier (issue #35): from a K+R v K table built
// three moves deep around Kb6, Rd1 against the king on c8 or e8, states with the king on at most
// four squares and a forced mate are sampled; the table's strategy from each (host/players/
// egtbStrategy.ts: its attempts, the referee's answers) is checked by `verifyStrategy`
// (host/verify/verify.ts, chessops, no code shared with the core) on every square of the king
// within 2 × value − 1 ply, and a strategy given one ply less fails there.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { EGTB_ENTRY_WORDS, egtbBuild, egtbEntries } from '../../host/core/egtb';
import { setSquares, stateFen } from '../../host/players/egtb';
import { egtbStrategy } from '../../host/players/egtbStrategy';
import { verifyStrategy } from '../../host/verify/verify';

const rules = preset('berkeley');

const fenWith = (men: number, king: number) =>
  stateFen('krk', men, king < 32 ? 1 << king : 0, king < 32 ? 0 : 1 << (king - 32));

describe.each(BACKENDS)('tablebase strategies on %s', (backend) => {
  it('pass the verifier from small K+R v K states, within 2 × value − 1 ply', () => {
    const engine = createEngine(backend, 64);
    engine.setRules(rules);
    const referee = createEngine(backend, 16);
    referee.setRules(rules);
    engine.setFen(0, '2k5/8/1K6/8/8/8/8/3R4 w - - 0 1');
    egtbBuild(engine, 'krk', { log2: 14, around: [{ handle: 0, squares: [58, 60] }], depth: 3 });
    const entries = egtbEntries(engine).slice();
    const W = EGTB_ENTRY_WORDS;
    const values = new Set<number>();
    let checked = 0;
    for (let i = 0; i < entries.length / W && checked < 24; i += 5) {
      const [men, lo, hi, value] = entries.subarray(i * W, i * W + 4);
      const squares = setSquares(lo, hi);
      if (value === 0 || squares.length > 4) continue;
      engine.setFen(1, fenWith(men, squares[0]));
      const strategy = egtbStrategy(engine, referee, rules, 1, squares, 2);
      expect(strategy.ply).toBe(2 * value - 1);
      const positions = squares.map((k) => fenWith(men, k));
      const verdict = verifyStrategy({ rules, positions, ply: strategy.ply }, strategy);
      expect(verdict, positions.join(' | ')).toMatchObject({ ok: true });
      if (value > 1)
        expect(
          verifyStrategy({ rules, positions, ply: strategy.ply - 2 }, { ...strategy, ply: strategy.ply - 2 }).ok,
        ).toBe(false);
      values.add(value);
      checked++;
    }
    expect(checked).toBe(24);
    expect(values.size).toBeGreaterThanOrEqual(3);
  });
});

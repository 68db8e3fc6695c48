// The 126-position perft suite (test/data/perftsuite.epd: "FEN;d1;d2;…", published counts
// collected by the chess-programming community, copied from shared/data/perft) on both backends.
// Default run: every depth whose count is at most 2,000,000 with bulk counting, and at most
// 200,000 making every leaf move, and the same counts from the walk in steps (Engine.perftSteps) at
// depths above 3. KRIEG_PERFT_FULL=1 (npm run test:perft-full) runs every depth.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';

const FULL = process.env.KRIEG_PERFT_FULL === '1';
const BULK_CAP = FULL ? Infinity : 2_000_000;
const MAKE_CAP = FULL ? 5_000_000 : 200_000;

const suite = readFileSync(new URL('../data/perftsuite.epd', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line, index) => {
    const [fen, ...counts] = line.split(';');
    return { index: index + 1, fen: fen.trim(), counts: counts.map(Number) };
  });

describe('perft suite data', () => {
  it('has the 126 positions with their published counts', () => {
    expect(suite).toHaveLength(126);
    expect(suite[0].counts).toEqual([20, 400, 8902, 197281, 4865609, 119060324]);
  });
});

describe.each(BACKENDS)('perft suite on %s', (backend) => {
  const engine = createEngine(backend, 64);
  it.each(suite)('#$index $fen', ({ fen, counts }) => {
    engine.setFen(0, fen);
    let checked = 0;
    counts.forEach((expected, i) => {
      const depth = i + 1;
      if (expected <= BULK_CAP) {
        expect(engine.perft(0, depth, true), `bulk depth ${depth}`).toBe(expected);
        checked++;
        // the walk run in steps (krieg perft, with its limits and progress) counts the same
        if (depth > 3)
          expect(engine.perftSteps(0, depth, true, () => true).nodes, `steps, depth ${depth}`).toBe(expected);
      }
      if (expected <= MAKE_CAP) {
        expect(engine.perft(0, depth, false), `depth ${depth}`).toBe(expected);
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(0);
  });
});

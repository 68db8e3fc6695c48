// The database's White program (host/players/selfPlay.ts): its oracle hints (R&W footnote 6), on
// White's views after one random move each (beliefs of about 20 positions, all scored), with the
// true board at the referee's game handle. An oracle hint is Illegal on the true board and cuts White's belief
// (legal in at least one position of it); a board on which every attempt is legal leaves no hint to
// give, and White chooses exactly as without oracle hints. On both backends.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../host/node';
import { selfPlayWorkers } from '../../host/db/generate.node';
import { whiteChoice, SAMPLE, type WhiteOptions } from '../../host/players/selfPlay';
import { randomGame, seededRandom } from '../../host/referee/game';
import { answerAttempt, attemptsOf } from '../../host/core/referee';
import { estimateBelief } from '../../host/belief/estimate';
import { viewOf } from '../../host/record/record';
import { START_FEN } from '../../host/notation/fen';

const OPTIONS: WhiteOptions = { start: START_FEN, dropBelief: 10_000, reportBelief: 0 };

describe.each(BACKENDS)('White with oracle hints on %s', (backend) => {
  const workers = selfPlayWorkers(backend);
  const { referee, work } = workers;
  // White to move after one random move each (a belief of about 20 positions: all in White's sample)
  it('over 12 seeded openings: each hint Illegal on the board and the largest cut, or none to give', () => {
    let given = 0;
    for (let seed = 1; seed <= 12; seed++) given += oracleCase(seed) ? 1 : 0;
    expect(given, 'openings with a hint to give').toBeGreaterThan(0);
  });

  /** Checks White's choice with and without oracle hints after one random move each; whether a hint was given. */
  function oracleCase(seed: number): boolean {
    const record = randomGame(referee, seed, { maxPlies: 2 });
    const view = viewOf(record, 'white');
    const attempts = attemptsOf(referee, 0);
    const truth = (attempt: number) => answerAttempt(referee, 0, attempt, 2).answer === 'legal';
    const choose = (options: WhiteOptions) =>
      whiteChoice(workers, view, attempts, [], seededRandom(seed), { hints: 0 }, options);

    const hint = choose({ ...OPTIONS, oracleHints: 1, oracle: { legalOnBoard: truth } });
    const plain = choose(OPTIONS);
    const belief = estimateBelief(work, view, 'bfs', { positions: SAMPLE });
    expect(belief.outcome, 'the whole belief is in the sample White scores').toBe('complete');
    expect(belief.handles.length).toBeGreaterThan(1);
    const scratch = Math.max(...belief.handles) + 1;
    /** In how many positions of the belief an attempt is legal (an Illegal answer rules them out). */
    const cut = (attempt: number) =>
      belief.handles.filter((h) => answerAttempt(work, h, attempt, scratch).answer === 'legal').length;
    const hints = attempts.filter((a) => !truth(a) && cut(a) > 0);
    if (hints.length === 0) {
      // nothing on the board refuses a move the belief allows: no hint to give
      expect(hint).toBe(plain);
    } else {
      // (no attempt mates everywhere it is legal this early, so the oracle's hint comes first)
      expect(truth(hint), 'Illegal on the true board').toBe(false);
      expect(cut(hint), 'the largest cut').toBe(Math.max(...hints.map(cut)));
    }
    expect(choose({ ...OPTIONS, oracleHints: 8, oracle: { legalOnBoard: () => true } })).toBe(plain);
    return hints.length > 0;
  }
});

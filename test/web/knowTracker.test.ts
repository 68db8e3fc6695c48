// The Know tab's belief (host/web/belief.ts KnowTracker) without a browser, on both backends: fed a
// game's view as it grows, each ply's answer against the exact breadth-first estimator (the same
// positions counted, the same heatmap, while the tracker is exact); a ply passed on the way is
// answered without feeding again; and another game with the same rules is not taken for this one.
import { describe, expect, it } from 'vitest';
import { BACKENDS, createEngine } from '../../host/node';
import { randomGame } from '../../host/referee/game';
import { viewOf, type View } from '../../host/record/record';
import { estimateBelief } from '../../host/belief/estimate';
import { pieceHeatmap } from '../../host/belief/heatmap';
import { TRACKER_RECORDS } from '../../host/belief/tracker';
import { COUNT_EXACT, KnowTracker } from '../../host/web/belief';
import { plyCount, viewAtPly } from '../../host/web/app/words';

/** The exact belief of `view` (complete within the limit) and its heatmap of the enemy's pieces. */
function exactly(view: View, backend: (typeof BACKENDS)[number]) {
  const engine = createEngine(backend, 1024);
  engine.setRules(view.rules);
  const result = estimateBelief(engine, view, 'bfs', { positions: COUNT_EXACT });
  expect(result.outcome).toBe('complete');
  const boards = result.handles.map((h) => engine.setup(h).board);
  return { size: result.handles.length, counts: pieceHeatmap(boards, view.as === 'white' ? 1 : 0).counts };
}

describe.each(BACKENDS)('the Know tab’s tracker on %s', (backend) => {
  it('answers each ply of a growing view as the exact estimator does, and earlier plies from what it kept', () => {
    const game = randomGame(createEngine(backend, 64), 3, { maxPlies: 5 });
    const full = viewOf(game, 'black');
    const engine = createEngine(backend, TRACKER_RECORDS.end + COUNT_EXACT);
    const know = new KnowTracker(engine, 'black');
    const answers = new Map<number, ReturnType<KnowTracker['answer']>>();
    for (let ply = 0; ply <= plyCount(full); ply++) {
      const view = viewAtPly(full, ply);
      while (!know.feed(view, 1000).done);
      const answer = know.answer(view)!;
      expect(answer.ply).toBe(ply);
      expect(answer.kind).toBe('exact');
      const truth = exactly(view, backend);
      expect(answer.held).toBe(truth.size);
      expect(answer.positions).toBe(truth.size);
      expect(answer.heatmaps.all).toEqual(truth.counts);
      answers.set(ply, answer);
    }
    // back to ply 3: kept (no feeding: the answer is there at once, the same)
    expect(know.answer(viewAtPly(full, 3))).toEqual(answers.get(3));
    // another game under the same rules and side is not this one: no answer until fed afresh
    const other = viewOf(randomGame(createEngine(backend, 64), 4, { maxPlies: 5 }), 'black');
    const view = viewAtPly(other, 3);
    expect(know.answer(view)).toBeUndefined();
    while (!know.feed(view, 1000).done);
    expect(know.answer(view)!.held).toBe(exactly(view, backend).size);
  });
});

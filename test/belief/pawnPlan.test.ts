// Prescribed pawn decisions (issue 36; assembly/belief/plan.ts), on both backends: a tracker told
// what the opponent's pawns did on each of his turns holds only positions whose pawns did it.
// Independent truth: the game's true positions. The truth's own decisions prescribed, the true
// position stays in the exact belief and every position held, exact or pool, has the opponent's
// pawns exactly where the truth has them (his pawn moves are the truth's, and my captures take the
// same men); "a move of a piece" prescribed where the truth pushed a pawn, no position held has
// that pawn moved.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, type BackendName } from '../../host/node';
import { preset } from '../../host/record/rules';
import { randomGame } from '../../host/referee/game';
import { replaySetups } from '../../host/referee/replay';
import { viewOf, type GameRecord, type Side } from '../../host/record/record';
import { Tracker, type TrackerOptions } from '../../host/belief/tracker';
import { parseFen, pieceColor, pieceType, type Setup } from '../../host/notation/fen';
import { PAWN } from '../../host/constants';

const SMALL_POOL: TrackerOptions = {
  exactMax: 40,
  poolMax: 30,
  poolCut: 15,
  poolMin: 8,
  checkpointSize: 6,
  restartUnit: 256,
};
const boardOf = (fen: string) => parseFen(fen).board.join();
const squareOf = (name: string) => name.charCodeAt(0) - 97 + 8 * (name.charCodeAt(1) - 49);

function hisPawns(board: number[], as: Side): string {
  const his = as === 'white' ? 1 : 0;
  return board.flatMap((c, s) => (c !== 0 && pieceColor(c) === his && pieceType(c) === PAWN ? [s] : [])).join();
}

/** Per view event of `as`: the plan word of the opponent's true move there (-1 elsewhere), and the ply after each event. */
function truthPlan(record: GameRecord, setups: Setup[], as: Side): { plan: number[]; plyAfter: number[] } {
  const moves = record.events.flatMap((e) => (e.type === 'attempt' && e.percept.answer === 'legal' ? [e.attempt] : []));
  const plan: number[] = [];
  const plyAfter: number[] = [];
  let ply = 0;
  for (const e of viewOf(record, as).events) {
    if (e.type === 'opponent-move' && e.percept) {
      const from = squareOf(moves[ply].slice(0, 2));
      const to = squareOf(moves[ply].slice(2, 4));
      plan.push(pieceType(setups[ply].board[from]) === PAWN ? 1 + from + 64 * to : 0);
    } else plan.push(-1);
    if ((e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept)) ply++;
    plyAfter.push(ply);
  }
  return { plan, plyAfter };
}

describe.each(BACKENDS)('prescribed pawn decisions (%s)', (backend: BackendName) => {
  it.each([
    ['exact', {}],
    ['pool', SMALL_POOL],
  ] as const)('%s mode: the truth prescribed, every position held has the truth pawns', (_, options) => {
    for (const seed of [3, 8]) {
      const engine = createEngine(backend, 1 << 14);
      engine.setRules(preset('english'));
      const record = randomGame(engine, seed, { maxPlies: 10 });
      const setups = replaySetups(engine, record);
      for (const as of ['white', 'black'] as Side[]) {
        const view = viewOf(record, as);
        const { plan, plyAfter } = truthPlan(record, setups, as);
        const tracker = Tracker.create(engine, { rules: view.rules, as, start: view.start }, { seed, ...options });
        tracker.prescribePawns(plan);
        view.events.forEach((event, i) => {
          expect(tracker.observe(event, { work: 2e6 }).status).toBe('ok');
          const truth = setups[plyAfter[i]];
          const held = tracker.positions();
          if (tracker.mode === 'exact') expect(held.map(boardOf)).toContain(truth.board.join());
          expect(held.length).toBeGreaterThan(0);
          for (const fen of held) expect(hisPawns(parseFen(fen).board, as)).toBe(hisPawns(truth.board, as));
        });
        tracker.free();
      }
    }
  });

  it('a piece move prescribed where the truth pushed a pawn: no position has that pawn moved', () => {
    const engine = createEngine(backend, 1 << 14);
    engine.setRules(preset('english'));
    const record = randomGame(engine, 5, { maxPlies: 6 });
    const setups = replaySetups(engine, record);
    const view = viewOf(record, 'white');
    const { plan } = truthPlan(record, setups, 'white');
    const first = plan.findIndex((w) => w !== -1);
    const pushed = plan[first] > 0 ? (plan[first] - 1) & 63 : -1;
    const tracker = Tracker.create(engine, { rules: view.rules, as: 'white', start: view.start });
    tracker.prescribePawns(plan.map((w, e) => (e === first ? 0 : -1)));
    for (const event of view.events.slice(0, first + 1)) tracker.observe(event, { work: 2e6 });
    expect(tracker.mode).toBe('exact');
    const held = tracker.positions();
    expect(held.length).toBe(4); // Black's four knight moves
    for (const fen of held) expect(hisPawns(parseFen(fen).board, 'white')).toBe(hisPawns(setups[0].board, 'white'));
    if (pushed >= 0) expect(held.map(boardOf)).not.toContain(setups[2].board.join());
    tracker.free();
  });
});

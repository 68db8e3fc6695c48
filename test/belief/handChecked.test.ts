// Belief sizes worked out by hand (issue #4), on both backends and with both exact estimators.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, START_FEN } from '../../host/node';
import { preset } from '../../host/record/rules';
import { estimateBelief } from '../../host/belief/estimate';
import type { View, ViewEvent } from '../../host/record/record';
import type { Percept } from '../../host/record/percept';

const berkeley = preset('berkeley');
const legal: Percept = { answer: 'legal' };
const own = (attempt: string, percept: Percept = legal): ViewEvent => ({
  type: 'attempt',
  side: 'white',
  attempt,
  percept,
});
const theirs = (illegal = 0, percept: Percept = legal): ViewEvent => ({
  type: 'opponent-move',
  side: 'black',
  illegal,
  percept,
});
const whiteView = (events: ViewEvent[]): View => ({
  rules: berkeley,
  start: START_FEN,
  as: 'white',
  white: 'w',
  black: 'b',
  result: '*',
  tags: {},
  events,
});

const WHITE_FIRST_MOVES = [
  'a2a3',
  'a2a4',
  'b2b3',
  'b2b4',
  'c2c3',
  'c2c4',
  'd2d3',
  'd2d4',
  'e2e3',
  'e2e4',
  'f2f3',
  'f2f4',
  'g2g3',
  'g2g4',
  'h2h3',
  'h2h4',
  'b1a3',
  'b1c3',
  'g1f3',
  'g1h3',
];

describe.each(BACKENDS)('hand-checked belief sizes on %s', (backend) => {
  const engine = createEngine(backend, 1 << 14);
  const size = (view: View) => {
    const bfs = estimateBelief(engine, view, 'bfs');
    const dfs = estimateBelief(engine, view, 'dfs');
    expect(dfs.handles.length).toBe(bfs.handles.length);
    return bfs.outcome === 'complete' ? bfs.handles.length : bfs.outcome;
  };

  it('after any first White move and a quiet Black reply: exactly 20 positions', () => {
    // Black's 20 first moves are all legal whatever White did, none captures or checks.
    for (const move of WHITE_FIRST_MOVES) expect(size(whiteView([own(move), theirs()])), move).toBe(20);
  });

  it("Black's Illegal attempts heard: at most 14 are possible after 1. e4", () => {
    // After 1. e4 every Black move of the own board is legal; the only Illegal attempts are the
    // 14 pawn capture attempts onto the empty sixth rank (a7b6, b7a6, b7c6 … h7g6). So 14 heard
    // Illegal answers leave all 20 replies, 15 leave none.
    expect(size(whiteView([own('e2e4'), theirs(14)]))).toBe(20);
    expect(size(whiteView([own('e2e4'), theirs(15)]))).toBe('inconsistent');
    const r = estimateBelief(engine, whiteView([own('e2e4'), theirs(15)]), 'dfs');
    expect(r).toMatchObject({ outcome: 'inconsistent', failedEvent: 1, failedPly: 1 });
  });

  it('a capture: 2. exd5 taking on d5 leaves only 1... d5; failing to take leaves 19', () => {
    // Only the d-pawn reaches d5 on Black's first move.
    const d5 = 35;
    expect(size(whiteView([own('e2e4'), theirs(), own('e4d5', { answer: 'legal', capture: d5 })]))).toBe(1);
    // e4d5 Illegal: every reply but 1... d5 (a pawn capture attempt onto an empty square)
    expect(size(whiteView([own('e2e4'), theirs(), own('e4d5', { answer: 'illegal' })]))).toBe(19);
  });

  it('a check: 2. Qh5 checks along the short diagonal only after 1... f6 or 1... f5', () => {
    // From e8 the diagonal e8-h5 has 4 squares (short), a4-e8 has 5 (long); Qh5 reaches e8 only
    // once the f7 pawn has moved.
    const short: Percept = { answer: 'legal', check: true, directions: 16 };
    expect(size(whiteView([own('e2e4'), theirs(), own('d1h5', short)]))).toBe(2);
    // neither check nor capture announced: 20 − 2 (f6, f5 give check) − 1 (after 1... h5, Qh5 captures) = 17
    expect(size(whiteView([own('e2e4'), theirs(), own('d1h5')]))).toBe(17);
  });

  it('a bishop check, then a capture nobody could make: inconsistent at that ply', () => {
    // 2. Bb5 is legal after all 20 replies; it checks along b5-c6-d7-e8 (the a4-e8 diagonal, 5
    // squares: Long) only after 1... d6 or 1... d5, which clear d7 (1... c6 or Nc6 would block).
    const long: Percept = { answer: 'legal', check: true, directions: 8 };
    expect(size(whiteView([own('e2e4'), theirs(), own('f1b5', long)]))).toBe(2);
    // Black then announces a capture on b5: after 1... d6 or 1... d5 no Black piece attacks b5
    // (the pawns stand on a7 and c7, the bishop's c8-a6 diagonal misses b5, the queen has no line
    // to it), so the view is inconsistent at that event (event 3, ply 3 moves made before it).
    const view = whiteView([own('e2e4'), theirs(), own('f1b5', long), theirs(0, { answer: 'legal', capture: 33 })]);
    const r = estimateBelief(engine, view, 'bfs');
    expect(r).toMatchObject({ outcome: 'inconsistent', failedEvent: 3, failedPly: 3 });
  });
});

// The mates he threatens (issue #34; assembly/players/choose.ts chooseThreatened, krieg.ts screenOf):
// krieg v random, seed 1, game 107 was lost to Qxg2 mate by a queen and a rook both moved in
// silence, in 7 of the pool's 2,632 positions, none of them among the 64 the threat screen drew.
// A hand-built belief of the same kind: White Kg1, Pf2 g2 h2, Nc3, Pa3 against Ka8, Pa7 b7 and a
// rook of his. In most positions his rook stands where no move of it mates; in a few it stands on e8,
// and Re1 mates unless White has made room for his king (f3, f4, g3, g4, h3, h4) or stepped to f1.
//   - chooseThreatened flags exactly the positions where passing would let him mate (not those where
//     White is in check: no pass there);
//   - a source whose `positions` draw misses the rare ones and whose `pick` scans them all: with the
//     mate in 5 % of the pool krieg makes room for its king rather than take a free pawn; without
//     `pick` (the screen's draw alone) the same player takes it; in 1 % it takes it too (the mate's
//     share weighs THREATENED_WEIGHT times, against the pawn: a weight, not a veto);
//   - the tracker's pickPositions over a real pool: the positions picked are those of the pool the
//     filter keeps, however small the chunks it is handed.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { makeUci, parseUci } from '../../host/notation/move';
import { countThreats, threatenedAmong } from '../../host/core/players';
import { KriegPlayer } from '../../host/players/krieg';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec } from '../../host/players/registry';
import { SAMPLE_BASE, type PositionSource } from '../../host/players/sources';
import type { PlayerSetup, Turn } from '../../host/players/player';
import type { View } from '../../host/record/record';
import { Tracker } from '../../host/belief/tracker';

const rules = preset('berkeley');
/** White Kg1, Pf2 g2 h2 a3, Nb1 v Ka8, Pa7 b7 b4 and his rook on `rook`, White to move. */
const fenWithRook = (rook: string) => {
  const board = Array.from({ length: 8 }, () => Array<string>(8).fill(''));
  const put = (square: string, man: string) => (board[8 - Number(square[1])][square.charCodeAt(0) - 97] = man);
  for (const [square, man] of Object.entries({ g1: 'K', f2: 'P', g2: 'P', h2: 'P', a3: 'P', b1: 'N' }))
    put(square, man);
  for (const [square, man] of Object.entries({ a8: 'k', a7: 'p', b7: 'p', b4: 'p' })) put(square, man);
  put(rook, 'r');
  const rows = board.map((row) =>
    row
      .map((man) => man || '1')
      .join('')
      .replace(/1+/g, (ones) => String(ones.length)),
  );
  return `${rows.join('/')} w - - 0 1`;
};
/** His rook's squares behind White's pawns, where no move of it mates. */
const HARMLESS = ['f8', 'g8', 'h8', 'f6', 'g5', 'h7'];
const COMMON = HARMLESS.map(fenWithRook);
/** On e8, Re1 mates … */
const RARE = fenWithRook('e8');
/** … unless White makes room for his king, steps to f1 (Re1+ Kxe1) or guards f1 (Nd2). */
const PARRIES = ['f2f3', 'f2f4', 'g2g3', 'g2g4', 'h2h3', 'h2h4', 'g1f1', 'b1d2'];
const a = (uci: string) => parseUci(uci)!;

describe.each(BACKENDS)('the mates he threatens on %s', (backend) => {
  it('flags the positions where he would mate if the mover passed, none where the mover is in check', () => {
    const engine = createEngine(backend, 256);
    engine.setFen(10, COMMON[0]);
    engine.setFen(11, RARE);
    engine.setFen(12, COMMON[3]);
    engine.setFen(13, '4r2k/8/8/8/8/8/5PPP/3R2K1 w - - 0 1'); // a rook guards the back rank: Re1+ Rxe1
    engine.setFen(14, 'k7/pp6/8/8/8/P1N5/5PPP/4r1K1 w - - 0 1'); // White in check: no pass
    expect(threatenedAmong(engine, [10, 11, 12, 13, 14])).toEqual([1]);
    // past one chunk of the core's buffer: the indices run on
    const many = Array.from({ length: 150 }, (_, i) => (i === 137 ? 11 : 10));
    expect(threatenedAmong(engine, many)).toEqual([137]);
  });

  it('the parries leave no mate in the rare position; the other moves leave Re1 mate', () => {
    const engine = createEngine(backend, 256);
    engine.setFen(11, RARE);
    for (const move of engine.moves(11)) {
      const uci = makeUci(move);
      expect(countThreats(engine, [11], a(uci)).mated, uci).toBe(PARRIES.includes(uci) ? 0 : 1);
    }
  });

  /** krieg (White) over a sampled belief of the harmless positions, `scanned` of the pool's scanned by `pick` (the rare ones among them). */
  const kriegOver = (rare: number, scanned: number, withPick: boolean) => {
    const engine = new PlayerEngines(backend).for('white', rules);
    const sampled = (k: number) => {
      const n = Math.min(k, 12);
      for (let i = 0; i < n; i++) engine.setFen(SAMPLE_BASE + i, COMMON[i % COMMON.length]);
      return { handles: Array.from({ length: n }, (_, i) => SAMPLE_BASE + i), exact: false };
    };
    const pool = Array.from({ length: scanned }, (_, i) => (i < rare ? RARE : COMMON[i % COMMON.length]));
    const source: PositionSource = {
      name: 'rare threat',
      observe: () => {},
      positions: sampled,
      lastObservation: sampled,
      ...(withPick
        ? {
            pick: (k: number, pick: (handles: number[]) => number[], first: number, room: number) => {
              const fens = pool.slice(0, k);
              const kept: string[] = [];
              for (let from = 0; from < fens.length; from += room) {
                const part = fens.slice(from, from + room);
                part.forEach((fen, i) => engine.setFen(first + i, fen));
                for (const i of pick(part.map((_, j) => first + j))) kept.push(part[i]);
              }
              const copied = kept.slice(0, room);
              copied.forEach((fen, i) => engine.setFen(first + i, fen));
              return { handles: copied.map((_, i) => first + i), scanned: fens.length, picked: kept.length };
            },
          }
        : {}),
    };
    const setup: PlayerSetup = {
      side: 'white',
      rules,
      start: COMMON[0],
      seed: 3,
      budget: { nodes: 1000 },
      options: parsePlayerSpec('krieg').options,
    };
    const player = new KriegPlayer(setup, engine, source);
    const scratch = createEngine(backend, 4);
    scratch.setFen(1, COMMON[0]);
    const view: View = {
      rules,
      start: COMMON[0],
      as: 'white',
      white: '',
      black: '',
      result: '*',
      tags: {},
      events: [],
    };
    const turn: Turn = {
      view,
      attempts: scratch.moves(1).map((m) => parseUci(makeUci(m))!),
      tried: [],
      canAskAny: false,
    };
    return makeUci(player.choose(turn) as number);
  };

  // a free pawn (a3xb4) against the mate's share of the pool, weighed THREATENED_WEIGHT times
  it("a mate in 5 % of the pool that the screen's draw misses: scanned, krieg parries it rather than take b4; blind, it takes", () => {
    const withScan = kriegOver(15, 300, true);
    expect(PARRIES, withScan).toContain(withScan);
    expect(kriegOver(15, 300, false)).toBe('a3b4');
  });

  it('in 1 % of the pool the free pawn is still worth more: a weight, not a veto', () => {
    expect(kriegOver(3, 300, true)).toBe('a3b4');
  });

  it('none in the pool: the scan changes nothing', () => {
    expect(kriegOver(0, 300, true)).toBe(kriegOver(0, 300, false));
  });
});

describe.each(BACKENDS)("the tracker's pickPositions on %s", (backend) => {
  // after 1 e4 and his move in silence: his twenty first moves, four of them a knight's
  const engine = createEngine(backend, 256);
  const tracker = Tracker.create(engine, { rules, as: 'white' });
  tracker.observe({ type: 'attempt', side: 'white', attempt: 'e2e4', percept: { answer: 'legal' } });
  tracker.observe({ type: 'opponent-move', side: 'black', percept: { answer: 'legal' } });
  const knightMoved = (fen: string) => !fen.startsWith('rnbqkbnr/');
  const knights = tracker.positions().filter(knightMoved);
  const keepKnights = (handles: number[]) => handles.flatMap((h, i) => (knightMoved(engine.fen(h)) ? [i] : []));

  it.each([3, 8, 64])('chunks of %i: the four knight moves of the twenty', (room) => {
    expect(tracker.size()).toBe(20);
    expect(knights).toHaveLength(4);
    const first = SAMPLE_BASE + 10;
    const found = tracker.pickPositions(4096, keepKnights, first, room);
    expect(found).toMatchObject({ scanned: 20, picked: 4 });
    expect(found.handles).toEqual(Array.from({ length: Math.min(room, 4) }, (_, i) => first + i));
    const fens = found.handles.map((h) => engine.fen(h));
    expect(fens.every((fen) => knights.includes(fen))).toBe(true);
    expect(new Set(fens).size).toBe(fens.length);
  });

  it('a part of the pool when asked for fewer than it holds', () => {
    const found = tracker.pickPositions(10, keepKnights, SAMPLE_BASE, 8);
    expect(found.scanned).toBe(10);
    expect(found.picked).toBeLessThanOrEqual(4);
    expect(found.handles).toHaveLength(found.picked);
  });
});

// krieg and the rule set's draws (issue #34; host/players/values.ts drawChance, krieg.ts), on
// hand-built beliefs handed to the player by a source of fixed positions:
//   stalemate   White Kc6, Qd4, Nb1, Ph4 (a queen and more up) v Ba1, Pb2 that cannot move; S = {Ka6,
//               pa5}: Qb6 mates there, and nothing else does; the exact belief also holds Ka8 with the
//               pawn on h5, blocked: Qb6 stalemates. The belief has more positions than the screen's 64
//               and the stalemate is the last: only a screen of the whole exact belief sees it.
//   repetition  the same position three times: under berkeley krieg plays the same attempt each time;
//               under wild16 (repetition draws) it does not lead again to a position it has led to
//               (seen once: REPEAT_HAZARD of a draw; twice: a draw); over a sampled belief whose
//               positions differ each turn, not a third time to the same own board.
//   fifty moves White a queen up at a clock of 90: under wild16 a pawn move or capture (the clock back
//               to 0); under berkeley (no fifty-move draw) the best quiet move.
//   material    White Kh1, Bb3, Pa4 v a bare king: Bb3 away lets Ka5 take the pawn into K+B v K, a
//               draw by material; the screen counts it, and a safe bishop move is chosen over one that
//               scores a little more but leaves the pawn in one screened position of twenty (the
//               one-pawn loss alone would not tip it).
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset, type RuleSet } from '../../host/record/rules';
import { makeUci, parseUci } from '../../host/notation/move';
import { countThreats, type AttemptValue } from '../../host/core/players';
import { bestByWorth, drawChance, edgeOf, REPEAT_HAZARD } from '../../host/players/values';
import { KriegPlayer } from '../../host/players/krieg';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec } from '../../host/players/registry';
import { SAMPLE_BASE, type PositionSource } from '../../host/players/sources';
import type { PlayerSetup, Turn } from '../../host/players/player';
import { seededRandom } from '../../host/referee/game';
import type { View } from '../../host/record/record';
import type { Engine } from '../../host/engine';

const a = (uci: string) => parseUci(uci)!;

/** The FEN of the men `pieces` (square: letter), White to move. */
function fenOf(pieces: Record<string, string>): string {
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = pieces[String.fromCharCode(97 + file) + rank];
      if (!piece) empty++;
      else {
        row += (empty || '') + piece;
        empty = 0;
      }
    }
    rows.push(row + (empty || ''));
  }
  return `${rows.join('/')} w - - 0 1`;
}

/** A source whose belief is `fens`, exact: a request for k returns the first k, in order. */
function fixedBelief(engine: Engine, fens: () => string[]): PositionSource {
  const take = (k: number) => {
    const all = fens();
    const n = Math.min(k, all.length);
    for (let i = 0; i < n; i++) engine.setFen(SAMPLE_BASE + i, all[i]);
    return {
      handles: Array.from({ length: n }, (_, i) => SAMPLE_BASE + i),
      exact: n === all.length,
      total: all.length,
    };
  };
  return { name: 'fixed', observe: () => {}, positions: take, lastObservation: (k) => take(k) };
}

/** krieg (White) over a fixed belief; `turn(fen)` is a turn on that own board. */
function kriegOver(backend: 'wasm' | 'js', rules: RuleSet, fens: () => string[], options = 'krieg:mate=0') {
  const engine = new PlayerEngines(backend).for('white', rules);
  const setup: PlayerSetup = {
    side: 'white',
    rules,
    start: fens()[0],
    seed: 7,
    budget: { nodes: 5000 },
    options: parsePlayerSpec(options).options,
  };
  const player = new KriegPlayer(setup, engine, fixedBelief(engine, fens));
  const scratch = createEngine(backend, 8);
  const turn = (fen: string): Turn => {
    scratch.setFen(1, fen);
    const view: View = { rules, start: fen, as: 'white', white: '', black: '', result: '*', tags: {}, events: [] };
    const attempts = scratch.moves(1).map((m) => parseUci(makeUci(m))!);
    return { view, attempts, tried: [], canAskAny: false };
  };
  const legal = (attempt: number) =>
    player.observe({ type: 'attempt', side: 'white', attempt: makeUci(attempt), percept: { answer: 'legal' } });
  return { player, turn, legal };
}

/** krieg's choices over `turns` turns from `fen` (its fixed belief), each told only that it was legal. */
function chooseRepeatedly(backend: 'wasm' | 'js', rules: RuleSet, fen: string, turns: number): number[] {
  const { player, turn, legal } = kriegOver(backend, rules, () => [fen]);
  const choices: number[] = [];
  for (let i = 0; i < turns; i++) {
    const choice = player.choose(turn(fen)) as number;
    choices.push(choice);
    legal(choice);
  }
  return choices;
}

describe.each(BACKENDS)('stalemate on %s', (backend) => {
  // White Kc6, Qd4, Nb1, Ph4; Black Ba1 and Pb2, which cannot move, his king and a pawn where the belief puts them
  const fen = (king: string, pawn: string) =>
    fenOf({ c6: 'K', d4: 'Q', b1: 'N', h4: 'P', a1: 'b', b2: 'p', [king]: 'k', [pawn]: 'p' });
  // the mate first (S = it alone), fillers far from the trap (his pawn three steps or more from promoting:
  // the screen counts a promotion, and one two steps away, as material he wins), the stalemate last
  const fillers: string[] = [];
  for (const king of ['e8', 'f8', 'g8', 'e7', 'f7', 'h7', 'g6', 'h6'])
    for (const pawn of ['a5', 'b5', 'a4', 'e5', 'e4', 'f5', 'f4', 'e6', 'f6']) fillers.push(fen(king, pawn));
  const belief = [fen('a6', 'a5'), ...fillers, fen('a8', 'h5')];

  it('the trap is as described: Qb6 mates in S, stalemates in the last position; the screen of 64 misses it', () => {
    const engine = createEngine(backend, 256);
    belief.forEach((f, i) => engine.setFen(10 + i, f));
    expect(belief.length).toBeGreaterThan(64);
    const all = belief.map((_, i) => 10 + i);
    expect(countThreats(engine, all, a('d4b6'), 200)).toMatchObject({ stalemated: 1, mated: 0 });
    expect(countThreats(engine, all.slice(0, 64), a('d4b6'), 200)).toMatchObject({ stalemated: 0 });
    engine.setFen(1, belief[0]);
    const mates = engine.moves(1).filter((m) => {
      engine.play(1, m, 2);
      return engine.inCheck(2) && engine.moves(2).length === 0;
    });
    expect(mates.map(makeUci)).toEqual(['d4b6']);
  });

  it('krieg, a queen up, does not play the only mate of S where its exact belief has a stalemate', () => {
    const { player, turn } = kriegOver(backend, preset('berkeley'), () => belief, 'krieg:mate=0,sample=1');
    const choice = player.choose(turn(belief[0]));
    expect(choice).not.toBe(a('d4b6'));
    // played anyway where the stalemate is not in the belief
    const { player: unaware, turn: turn2 } = kriegOver(
      backend,
      preset('berkeley'),
      () => belief.slice(0, -1),
      'krieg:mate=0,sample=1',
    );
    expect(unaware.choose(turn2(belief[0]))).toBe(a('d4b6'));
  });
});

describe.each(BACKENDS)('repetition on %s', (backend) => {
  // a queen and a pawn up, the same position each turn (the fixed belief): the attempt krieg prefers
  // leads to the same position after its move every time
  const position = '6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1';
  const play = (rules: RuleSet) => chooseRepeatedly(backend, rules, position, 3);

  it('under wild16 krieg, ahead, does not lead again to a position it has led to; under berkeley it does', () => {
    const berkeley = play(preset('berkeley'));
    expect(new Set(berkeley).size).toBe(1);
    const wild16 = play(preset('wild16'));
    expect(wild16[0]).toBe(berkeley[0]);
    expect(new Set(wild16).size).toBe(3);
  });

  it('over a sampled belief (other positions each turn), an own board its moves led to twice is not led to again', () => {
    const turns = [position, '7k/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1', '5k2/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1'];
    const play = (rules: RuleSet) => {
      let turn = 0;
      const engine = new PlayerEngines(backend).for('white', rules);
      const setup: PlayerSetup = {
        side: 'white',
        rules,
        start: position,
        seed: 7,
        budget: { nodes: 5000 },
        options: parsePlayerSpec('krieg:mate=0').options,
      };
      const sampled: PositionSource = {
        name: 'sampled',
        observe: () => {},
        positions: () => {
          engine.setFen(SAMPLE_BASE, turns[turn]);
          return { handles: [SAMPLE_BASE], exact: false };
        },
        lastObservation: () => ({ handles: [], exact: false }),
      };
      const player = new KriegPlayer(setup, engine, sampled);
      const { turn: turnOn } = kriegOver(backend, rules, () => [position]);
      const choices: number[] = [];
      for (turn = 0; turn < 3; turn++) {
        const choice = player.choose(turnOn(turns[turn])) as number;
        choices.push(choice);
        player.observe({ type: 'attempt', side: 'white', attempt: makeUci(choice), percept: { answer: 'legal' } });
      }
      return choices;
    };
    const berkeley = play(preset('berkeley'));
    expect(new Set(berkeley).size).toBe(1);
    const wild16 = play(preset('wild16'));
    expect(wild16.slice(0, 2)).toEqual(berkeley.slice(0, 2));
    expect(wild16[2]).not.toBe(wild16[0]);
  });

  it("the endgame technique's moves count too: under english its sure mate is not led to a third time", () => {
    // his bare king known on h8 each turn: Qb8 mates (a decisive value, which no repeat penalty
    // touches); told each time only that it was legal, the technique would play it again and again
    const mate = '7k/8/6K1/8/8/8/8/1Q6 w - - 0 1';
    const play = (rules: RuleSet) => chooseRepeatedly(backend, rules, mate, 4).map(makeUci);
    expect(play(preset('berkeley'))).toEqual(['b1b8', 'b1b8', 'b1b8', 'b1b8']);
    const english = play(preset('english'));
    expect(english.slice(0, 2)).toEqual(['b1b8', 'b1b8']);
    expect(english.slice(2)).not.toContain('b1b8');
  });

  it("a proven mate strategy's moves count too: under english its attempt is not led to a third time", () => {
    // the technique off: the checkmate search proves Qb8 each turn (english, krieg v random, seed 1,
    // game 29: a mate proven each turn over stale guesses, Bd6+ and Bb8 to the draw by repetition)
    const mate = '7k/8/6K1/8/8/8/8/1Q6 w - - 0 1';
    const play = (rules: RuleSet) => {
      const { player, turn, legal } = kriegOver(backend, rules, () => [mate], 'krieg:endgame=0');
      return Array.from({ length: 4 }, () => {
        const choice = player.choose(turn(mate)) as number;
        legal(choice);
        return makeUci(choice);
      });
    };
    expect(play(preset('berkeley'))).toEqual(['b1b8', 'b1b8', 'b1b8', 'b1b8']);
    const english = play(preset('english'));
    expect(english.slice(0, 2)).toEqual(['b1b8', 'b1b8']);
    expect(english.slice(2)).not.toContain('b1b8');
  });

  it('a position seen twice is a draw if reached again, seen once a hazard; behind, a draw is sought', () => {
    const engine = createEngine(backend, 64);
    engine.setRules(preset('wild16'));
    engine.setFen(10, position);
    const t = countThreats(engine, [10], a('d1d5'), 40);
    const edge = (n: number) => ({ ...edgeOf(engine, 10), seen: new Map([[t.after![0].key, n]]) });
    expect(drawChance(0.9, t, edge(2))).toBe(1);
    expect(drawChance(0.9, t, edge(1))).toBe(REPEAT_HAZARD);
    expect(drawChance(0.9, t, edge(0))).toBe(0);
    expect(drawChance(0.2, t, edge(2))).toBe(1);
    expect(drawChance(0.2, t, edge(1))).toBe(0);
    // the key is the position's after the move (a second engine plays it)
    engine.play(
      10,
      engine.moves(10).find((m) => makeUci(m) === 'd1d5')!,
      11,
    );
    expect(t.after).toEqual([{ key: engine.key(11), clock: 1 }]);
  });
});

describe.each(BACKENDS)('the fifty-move rule on %s', (backend) => {
  const position = (clock: number) => `6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - ${clock} 60`;
  const isPawnMove = (fen: string, attempt: number) => {
    const engine = createEngine(backend, 4);
    engine.setFen(1, fen);
    return (engine.setup(1).board[attempt & 63] & 7) === 1;
  };

  it('near the hundredth ply krieg, ahead, moves a pawn under wild16; under berkeley a piece', () => {
    const fen = position(90);
    const wild16 = kriegOver(backend, preset('wild16'), () => [fen]);
    expect(isPawnMove(fen, wild16.player.choose(wild16.turn(fen)) as number)).toBe(true);
    const berkeley = kriegOver(backend, preset('berkeley'), () => [fen]);
    expect(isPawnMove(fen, berkeley.player.choose(berkeley.turn(fen)) as number)).toBe(false);
    // far from it, wild16 plays as berkeley does
    const early = kriegOver(backend, preset('wild16'), () => [position(10)]);
    expect(isPawnMove(fen, early.player.choose(early.turn(position(10))) as number)).toBe(false);
  });
});

describe.each(BACKENDS)('material draws on %s', (backend) => {
  it('a bishop move that lets the king take the last pawn into K+B v K is counted a draw and passed over', () => {
    const engine = createEngine(backend, 256);
    engine.setRules(preset('berkeley'));
    // Black's king: far away in 19 positions, on a5 (next to the pawn) in one
    const far = ['h8', 'a8', 'f8', 'e8', 'd8', 'h6', 'g6', 'h5', 'g5', 'f5', 'h4', 'g4', 'h3', 'g3', 'f6', 'e5'];
    const kings = [...far, 'd6', 'c8', 'b8', 'a5'];
    const fens = kings.map((k) => fenOf({ h1: 'K', b3: 'B', a4: 'P', [k]: 'k' }));
    expect(fens[19]).toBe('8/8/8/k7/P7/1B6/8/7K w - - 0 1');
    fens.forEach((f, i) => engine.setFen(10 + i, f));
    const handles = fens.map((_, i) => 10 + i);
    const away = a('b3a2');
    const stay = a('b3c2');
    const t = countThreats(engine, handles, away, 200);
    expect(t).toMatchObject({ legal: 20, drawnReply: 1, loss: 100, stalemated: 0 });
    expect(countThreats(engine, handles, stay, 200)).toMatchObject({ drawnReply: 0, loss: 0 });
    const edge = edgeOf(engine, 10);
    expect(drawChance(0.95, t, edge)).toBeCloseTo(1 / 20, 12);
    expect(drawChance(0.3, t, edge)).toBe(0); // behind, his drawing reply is his to take, not a draw to seek
    const row = (attempt: number, score: number): AttemptValue => ({
      attempt,
      legal: 1,
      sum: 0,
      mean: 0,
      mates: 0,
      mated: 0,
      tactical: 0,
      captures: 0,
      min: 0,
      max: 0,
      score,
    });
    const threat = (attempt: number) => countThreats(engine, handles, attempt, 200);
    const scores = [row(away, 0.96), row(stay, 0.95)];
    expect(bestByWorth(scores, threat, edge, seededRandom(1))!.best.attempt).toBe(stay);
    // the pawn's loss alone (100 centipawns in one position of twenty) would not tip it
    const lossOnly = (attempt: number) => ({ ...threat(attempt), drawnReply: 0 });
    expect(bestByWorth(scores, lossOnly, edge, seededRandom(1))!.best.attempt).toBe(away);
  });

  it('a capture that leaves a lone knight against a bare king is a draw now', () => {
    const engine = createEngine(backend, 256);
    engine.setRules(preset('berkeley'));
    engine.setFen(10, '8/8/3k4/8/4p3/8/3N4/6K1 w - - 0 1');
    expect(countThreats(engine, [10], a('d2e4'), 200)).toMatchObject({ legal: 1, drawnNow: 1 });
    expect(countThreats(engine, [10], a('d2f3'), 200)).toMatchObject({ legal: 1, drawnNow: 0 });
  });
});

// "For a view the set of attemptable moves of the own-pieces board is available": the attempts
// rebuilt from a view alone equal the attempts the core lists on the true position, at the start
// of every turn of seeded random games, for both sides, under every preset.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset, PRESET_NAMES } from '../../host/record/rules';
import { randomGame } from '../../host/referee/game';
import { viewOf, type GameRecord } from '../../host/record/record';
import { viewAttempts } from '../../host/referee/ownBoard';
import { parseUci } from '../../host/notation/move';
import { attemptsOf } from '../../host/core/referee';

describe.each(BACKENDS)('attempts from a view on %s', (backend) => {
  it.each(PRESET_NAMES)("%s: equal the true position's at every turn start", (name) => {
    // the game on one engine (records 0-1); the replay (8-9) and the own board (4) on another
    const engine = createEngine(backend, 16);
    engine.setRules(preset(name));
    const replay = createEngine(backend, 16);
    replay.setRules(preset(name));
    const R = 8;
    let compared = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const record = randomGame(engine, seed, { maxPlies: 160 });
      replay.setFen(R, record.start);
      // walk the record; at each turn start compare the view's attempts with the true position's
      let side = replay.setup(R).side === 0 ? 'white' : 'black';
      let turnStart = true;
      for (let i = 0; i <= record.events.length; i++) {
        const event = record.events[i];
        if (turnStart && (!event || event.type !== 'pawn-tries')) {
          const prefix: GameRecord = { ...record, events: record.events.slice(0, i) };
          const view = viewOf(prefix, side as 'white' | 'black');
          const fromView = [...viewAttempts(replay, view, 4)].sort((a, b) => a - b);
          const truth = attemptsOf(replay, R).sort((a, b) => a - b);
          expect(fromView, `seed ${seed}, event ${i}`).toEqual(truth);
          compared++;
          turnStart = false;
        }
        if (event?.type === 'attempt' && event.percept.answer === 'legal') {
          const move = replay.moves(R).find((m) => (m >> 12 >= 4 ? m : m & 0xfff) === parseUci(event.attempt));
          replay.play(R, move!, R + 1);
          replay.setSetup(R, replay.setup(R + 1));
          side = side === 'white' ? 'black' : 'white';
          turnStart = true;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it("equal the true position's where krieg's men attack every free square (lines through his men)", () => {
    // english v random, seed 1, game 25: White's men cover every square his king could stand on in
    // the own board; his king on a6 stands behind his pawn on c4 (the d3 bishop's line)
    const fen = '6R1/3Q4/k6P/3N4/1Bp2P2/3BKP2/PP6/7R w - - 0 1';
    const engine = createEngine(backend, 16);
    engine.setRules(preset('english'));
    engine.setFen(8, fen);
    const record: GameRecord = {
      rules: preset('english'),
      start: fen,
      white: '',
      black: '',
      result: '*',
      tags: {},
      events: [],
    };
    const fromView = [...viewAttempts(engine, viewOf(record, 'white'), 4)].sort((a, b) => a - b);
    expect(fromView).toEqual(attemptsOf(engine, 8).sort((a, b) => a - b));
  });
});

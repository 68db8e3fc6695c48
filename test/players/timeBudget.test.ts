// A timed player budgets its whole turn (issue #34; host/players/sampling.ts budgeted): the events
// it hears are fed to its source at its next choice, within a share of the turn's time, and every
// stage is handed the turn's deadline less a margin. Checked with a frozen clock (performance.now
// mocked): every deadline the player hands on is exact, and no loop waits on the clock (each is also
// bounded by work or a count). No wall-clock speed is asserted.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { START_FEN } from '../../host/notation/fen';
import { makeUci } from '../../host/notation/move';
import { viewOf, type ViewEvent } from '../../host/record/record';
import { randomGame } from '../../host/referee/game';
import { answerAttempt } from '../../host/core/referee';
import type { Engine } from '../../host/engine';
import { KriegPlayer } from '../../host/players/krieg';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec } from '../../host/players/registry';
import { trackerSource, type PositionSource, type SourceLimits } from '../../host/players/sources';
import { TURN_MARGIN } from '../../host/players/sampling';
import { turnOf, type PlayerSetup } from '../../host/players/player';

const T = 1_000_000;

/** White's view six plies into a random game (White to move), and the referee holding its true board (record 0). */
function sixPlies(backend: 'wasm' | 'js'): { view: ReturnType<typeof viewOf>; referee: Engine } {
  const referee = createEngine(backend, 16);
  referee.setRules(preset('berkeley'));
  const game = randomGame(referee, 3, { maxPlies: 6 });
  return { view: viewOf(game, 'white'), referee };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** The tracker source, noting every call and the limits it was given. */
function noting(inner: PositionSource) {
  const calls: { call: 'observe' | 'positions' | 'lastObservation'; event?: ViewEvent; limits?: SourceLimits }[] = [];
  const source: PositionSource = {
    name: 'noting',
    observe: (event, limits) => {
      calls.push({ call: 'observe', event, ...(limits ? { limits } : {}) });
      inner.observe(event, limits);
    },
    positions: (k, limits) => {
      calls.push({ call: 'positions', limits });
      return inner.positions(k, limits);
    },
    lastObservation: (k, limits) => {
      calls.push({ call: 'lastObservation', limits });
      return inner.lastObservation(k, limits);
    },
    refine: (limits) => inner.refine?.(limits),
  };
  return { source, calls };
}

describe.each(BACKENDS)('a timed turn on %s', (backend) => {
  it("feeds what krieg heard within the turn's time and hands every stage its deadline less the margin", () => {
    const rules = preset('berkeley');
    const { view } = sixPlies(backend);
    const setup: PlayerSetup = {
      side: 'white',
      rules,
      start: START_FEN,
      seed: 1,
      budget: { timePerMove: 1 },
      options: parsePlayerSpec('krieg').options,
    };
    const engine = new PlayerEngines(backend).for('white', rules);
    const { source, calls } = noting(trackerSource(engine, setup));
    const player = new KriegPlayer(setup, engine, source);
    vi.spyOn(performance, 'now').mockReturnValue(T);
    for (const event of view.events) player.observe(event);
    expect(calls).toEqual([]); // nothing is tracked before the turn
    const scratch = createEngine(backend, 8);
    const turn = turnOf(view, scratch, 1, T + 1000);
    const choice = player.choose(turn);
    expect(turn.attempts).toContain(choice);
    const end = T + 1000 - TURN_MARGIN * 1000;
    const observed = calls.filter((c) => c.call === 'observe');
    expect(observed.map((c) => c.event)).toEqual(view.events);
    // each event a share of the time left (0.3 of it, split over the events still to feed)
    observed.forEach((c, i) =>
      expect(c.limits!.deadline).toBeCloseTo(T + (0.3 * (end - T)) / (observed.length - i), 9),
    );
    const asked = calls.filter((c) => c.call !== 'observe');
    expect(asked.length).toBeGreaterThan(0);
    for (const c of asked) expect(c.limits!.deadline).toBeLessThanOrEqual(end);
  });

  it('with less than a share of the time left, an Illegal answer waits for the next choice; a new turn feeds all', () => {
    const rules = preset('berkeley');
    const setup: PlayerSetup = {
      side: 'white',
      rules,
      start: START_FEN,
      seed: 1,
      budget: { timePerMove: 1 },
      options: parsePlayerSpec('krieg').options,
    };
    const engine = new PlayerEngines(backend).for('white', rules);
    const { source, calls } = noting(trackerSource(engine, setup));
    const player = new KriegPlayer(setup, engine, source);
    const scratch = createEngine(backend, 8);
    const { view, referee } = sixPlies(backend);
    vi.spyOn(performance, 'now').mockReturnValue(T);
    for (const event of view.events) player.observe(event);
    const turn = turnOf(view, scratch, 1, T + 1000);
    player.choose(turn);
    // an attempt the referee answers Illegal (as if krieg had made it), with 50 ms of the turn left
    const first = turn.attempts.find((x) => answerAttempt(referee, 0, x, 1).answer === 'illegal')!;
    const illegal: ViewEvent = {
      type: 'attempt',
      side: 'white',
      attempt: makeUci(first),
      percept: { answer: 'illegal' },
    };
    player.observe(illegal);
    const before = calls.length;
    const retry = turnOf({ ...view, events: [...view.events, illegal] }, scratch, 1, T + 50);
    const second = player.choose(retry);
    expect(second).not.toBe(first);
    expect(retry.attempts).toContain(second);
    expect(calls.slice(before).filter((c) => c.call === 'observe')).toEqual([]);
    // with time enough, it is fed first thing
    const third = turnOf({ ...view, events: [...view.events, illegal] }, scratch, 1, T + 1000);
    player.choose(third);
    expect(
      calls
        .slice(before)
        .filter((c) => c.call === 'observe')
        .map((c) => c.event),
    ).toEqual([illegal]);
  });
});

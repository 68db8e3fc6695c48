// Soundness of state estimation (SPEC §4), as properties over seeded random self-play games under
// every preset, for both sides, on both backends:
// - the true position is in the exact (breadth-first) belief state after every event of the view;
// - breadth-first and depth-first give the same set;
// - every sampled position is in the belief state (distinct; all of them when fewer than k);
// - the end positions of the listed information set are exactly the belief state;
// - a corrupted view is inconsistent at the corrupted event and its ply, and every limit ends in
//   its "limit reached" outcome, never a throw or a trap.
// Random play makes beliefs grow fast (a few thousand positions after 6 plies, tens of thousands
// after 8), so the games are short; a game whose belief outgrows the arena is shortened (the same
// seed with fewer plies), never skipped. The true positions are replayed (on host records 2 …) and
// copied out before the view is loaded.
import { describe, expect, it } from 'vitest';
import { createEngine, BACKENDS, type BackendName, type Engine } from '../../host/node';
import { preset, presetOf, PRESET_NAMES, type PresetName } from '../../host/record/rules';
import { randomGame } from '../../host/referee/game';
import { replayRecord } from '../../host/referee/replay';
import { viewOf, type GameRecord, type Side, type View, type ViewEvent } from '../../host/record/record';
import { estimateBelief, informationSet, loadView, sampleBelief } from '../../host/belief/estimate';
import {
  startBreadthFirst,
  runBreadthFirst,
  pauseAfterEachEvent,
  breadthFirstLayer,
  startDepthFirst,
  nextDepthFirst,
  lastFound,
  storeBase,
} from '../../host/core/estimator';
import { POSITION_WORDS as WORDS, W_HALFMOVE, W_FULLMOVE, W_KEY_LO, W_KEY_HI } from '../../host/constants';

const ARENA = 1 << 16;
const STEP = 20_000; // work units per core call in host/belief/estimate.ts
const REPLAY = 2; // first host record used for replays (0 is the estimators' root, 1 the referee's scratch)

const sideOf = (seed: number): Side => (seed % 2 === 0 ? 'white' : 'black');
/** Events after which the position has changed: an own legal attempt, a heard opponent move. */
const moves = (e: ViewEvent) =>
  (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept !== undefined);

function newEngine(backend: BackendName, name: PresetName, capacity = ARENA): Engine {
  const engine = createEngine(backend, capacity);
  engine.setRules(preset(name));
  return engine;
}

/**
 * Identity of a position as the estimators compare positions: every word up to the clocks, the
 * move number and the key, and the halfmove clock where a 50-move rule makes it part of the
 * position (otherwise duplicates that differ only in it are merged, keeping either clock).
 */
function identity(p: Int32Array, handle: number, fifty: boolean): string {
  const base = handle * WORDS;
  let s = '';
  for (let i = 0; i < W_HALFMOVE; i++) s += p[base + i] + ',';
  return (
    s +
    (fifty ? p[base + W_HALFMOVE] : '-') +
    ',' +
    p[base + W_FULLMOVE] +
    ',' +
    p[base + W_KEY_LO] +
    ',' +
    p[base + W_KEY_HI]
  );
}

/** The true position after 0, 1, … n moves of the record, replayed on host records, as copies. */
function truePositions(engine: Engine, record: GameRecord): Int32Array[] {
  return replayRecord(engine, record, REPLAY, (h) => engine.positions.slice(h * WORDS, (h + 1) * WORDS));
}

/** Index of `truth` (a record copied out) among `count` records from `base`, by key then every word; -1 if absent. */
function findPosition(p: Int32Array, base: number, count: number, truth: Int32Array, fifty: boolean): number {
  for (let i = 0; i < count; i++) {
    const b = (base + i) * WORDS;
    if (p[b + W_KEY_LO] !== truth[W_KEY_LO] || p[b + W_KEY_HI] !== truth[W_KEY_HI]) continue;
    let same = p[b + W_FULLMOVE] === truth[W_FULLMOVE] && (!fifty || p[b + W_HALFMOVE] === truth[W_HALFMOVE]);
    for (let w = 0; same && w < W_HALFMOVE; w++) same = p[b + w] === truth[w];
    if (same) return base + i;
  }
  return -1;
}

/** The complete breadth-first belief of `view`, as identities; undefined when it outgrows the arena (not grown). */
function beliefOf(engine: Engine, view: View): Set<string> | undefined {
  const r = estimateBelief(engine, view, 'bfs', { memoryBytes: 0 });
  if (r.outcome === 'limit-positions') return undefined;
  expect(r.outcome).toBe('complete');
  const p = engine.positions;
  const set = new Set(r.handles.map((h) => identity(p, h, view.rules.fiftyMoveDraw)));
  expect(set.size, 'breadth-first positions are distinct').toBe(r.handles.length);
  return set;
}

/** The view of a game of at most `plies` plies whose belief fits the arena: shortened until it does. */
function fittingView(engine: Engine, seed: number, plies: number): { view: View; belief: Set<string> } {
  for (let p = plies; p >= 1; p--) {
    const view = viewOf(randomGame(engine, seed, { maxPlies: p }), sideOf(seed));
    const belief = beliefOf(engine, view);
    if (belief) return { view, belief };
  }
  throw new Error(`seed ${seed}: even a 1-ply game outgrows the arena`);
}

// ---- 1: soundness at every event ----

/** Games per preset and backend for property 1 (6 presets × (290 + 45) = 2,010 games, each from one side). */
const SOUNDNESS_GAMES: Record<BackendName, number> = { wasm: 290, js: 45 };
/** Plies of the games, by seed (the JS backend is several times slower). */
const SOUNDNESS_PLIES: Record<BackendName, number[]> = { wasm: [4, 5, 6, 6, 6, 7], js: [3, 4, 5, 5, 6] };

interface SoundnessRun {
  games: number;
  events: number;
  plies: number;
  positions: number;
  shortened: number;
}

/**
 * Runs breadth-first once over `as`'s view of the game, pausing after every event, and checks that
 * the true position after that event is in the layer. Returns undefined if a layer outgrew the arena.
 */
function checkGame(
  engine: Engine,
  record: GameRecord,
  as: Side,
): { events: number; plies: number; positions: number } | undefined {
  const view = viewOf(record, as);
  const truth = truePositions(engine, record);
  // the number of moves made after each view event
  const after: number[] = [];
  for (const e of view.events) after.push((after[after.length - 1] ?? 0) + (moves(e) ? 1 : 0));
  expect(after[after.length - 1]).toBe(truth.length - 1);
  const fifty = record.rules.fiftyMoveDraw;
  loadView(engine, view);
  expect(startBreadthFirst(engine)).toBe('more');
  pauseAfterEachEvent(engine, true);
  let checked = 0;
  let positions = 0;
  for (;;) {
    const status = runBreadthFirst(engine, 50_000);
    if (status === 'limit-positions') return undefined;
    const where = () =>
      `${presetOf(record.rules)} seed ${record.tags.Seed}, as ${as}, event ${checked - 1}: ${JSON.stringify(view.events[checked - 1])}`;
    expect(status === 'more' || status === 'complete', `status ${status}`).toBe(true);
    const layer = breadthFirstLayer(engine);
    const done = layer.eventsDone;
    if (done > checked) {
      expect(done).toBe(checked + 1); // one pause per event
      checked = done;
      const t = truth[after[done - 1]];
      const count = layer.count;
      const found = findPosition(engine.positions, layer.base, count, t, fifty);
      expect(found, `true position missing: ${where()}`).toBeGreaterThanOrEqual(0);
      positions += count;
    }
    if (status === 'complete') break;
  }
  expect(checked).toBe(view.events.length);
  return { events: checked, plies: truth.length - 1, positions };
}

// ---- 5: corruptions with a known first inconsistent event ----

type Corruption = { what: string; event: number; view: View };

/** Copies of `view`, each with one event changed into something no position of the belief can produce. */
function corruptions(view: View): Corruption[] {
  const out: Corruption[] = [];
  const withEvent = (i: number, e: ViewEvent, what: string) => {
    const events = view.events.slice();
    events[i] = e;
    out.push({ what, event: i, view: { ...view, events } });
  };
  // the own king's square, from the own moves alone (where no capture can be announced)
  let king = view.as === 'white' ? 4 : 60;
  view.events.forEach((e, i) => {
    if (e.type === 'attempt' && e.side === view.as) {
      const from = (Number(e.attempt[1]) - 1) * 8 + e.attempt.charCodeAt(0) - 97;
      const to = (Number(e.attempt[3]) - 1) * 8 + e.attempt.charCodeAt(2) - 97;
      // an own Illegal answer turned into a legal capture on the own king's square
      if (e.percept.answer === 'illegal') {
        withEvent(
          i,
          {
            ...e,
            percept: {
              answer: 'legal',
              capture: king,
              ...(view.rules.captureDetail === 'square+kind' ? { captured: 'piece' as const } : {}),
            },
          },
          'own illegal → capture on own king',
        );
      }
      if (e.percept.answer === 'legal' && from === king) king = to;
    }
    // more Illegal attempts than any position offers
    if (e.type === 'opponent-move' && e.illegal !== undefined && e.percept)
      withEvent(i, { ...e, illegal: 200 }, 'opponent illegal 200');
    if (e.type === 'pawn-tries') {
      // more pawn captures than 8 pawns can have, or one landing on the mover's first rank
      if (e.count !== undefined) withEvent(i, { ...e, count: 17 }, 'pawn tries 17');
      if (e.squares !== undefined)
        withEvent(
          i,
          { ...e, squares: [...e.squares, e.side === 'white' ? 0 : 63].sort((a, b) => a - b) },
          'pawn try on first rank',
        );
      // a pawn capture in the starting position
      if (e.exists !== undefined && i === 0) withEvent(i, { ...e, exists: true }, 'pawn try at the start');
    }
  });
  return out;
}

const pliesBefore = (view: View, event: number) => view.events.slice(0, event).filter(moves).length;

describe.each(BACKENDS)('state estimation on %s', (backend) => {
  it('the true position is in the exact belief state at every ply', () => {
    const total: SoundnessRun = { games: 0, events: 0, plies: 0, positions: 0, shortened: 0 };
    for (const name of PRESET_NAMES) {
      const engine = newEngine(backend, name);
      for (let seed = 1; seed <= SOUNDNESS_GAMES[backend]; seed++) {
        const plies = SOUNDNESS_PLIES[backend][seed % SOUNDNESS_PLIES[backend].length];
        let result: ReturnType<typeof checkGame>;
        for (let p = plies; p >= 1 && !result; p--) {
          result = checkGame(engine, randomGame(engine, seed, { maxPlies: p }), sideOf(seed));
          if (!result) total.shortened++;
        }
        expect(result, `${name} seed ${seed}: every length outgrows the arena`).toBeDefined();
        total.games++;
        total.events += result!.events;
        total.plies += result!.plies;
        total.positions += result!.positions;
      }
    }
    expect(total.games).toBe(PRESET_NAMES.length * SOUNDNESS_GAMES[backend]);
    expect(total.events).toBeGreaterThan(total.games);
  });

  it('breadth-first and depth-first give the same set', () => {
    const games = backend === 'wasm' ? 40 : 10;
    let compared = 0;
    for (const name of PRESET_NAMES) {
      const engine = newEngine(backend, name);
      for (let seed = 1001; seed < 1001 + games; seed++) {
        const { view, belief } = fittingView(engine, seed, 2 + (seed % (backend === 'wasm' ? 5 : 4)));
        const dfs = estimateBelief(engine, view, 'dfs');
        expect(dfs.outcome, `${name} seed ${seed}`).toBe('complete');
        const p = engine.positions;
        const ids = dfs.handles.map((h) => identity(p, h, view.rules.fiftyMoveDraw));
        expect(new Set(ids).size, 'depth-first positions are distinct').toBe(ids.length);
        expect(ids.sort(), `${name} seed ${seed}`).toEqual([...belief].sort());
        if (seed === 1001) {
          // the core streams them in store order (host/belief/estimate.ts relies on it): the k-th found is record storeBase() + k
          loadView(engine, view);
          expect(startDepthFirst(engine, 'positions')).toBe('more');
          let found = 0;
          for (
            let status = nextDepthFirst(engine, STEP);
            status !== 'complete';
            status = nextDepthFirst(engine, STEP)
          ) {
            expect(['more', 'found']).toContain(status);
            if (status === 'found') expect(lastFound(engine)).toBe(storeBase(engine) + found++);
          }
          expect(found).toBe(belief.size);
        }
        compared++;
      }
    }
    expect(compared).toBe(PRESET_NAMES.length * games);
  });

  it('every sampled position is in the belief state', () => {
    let fewer = 0;
    let samples = 0;
    for (const name of PRESET_NAMES) {
      const engine = newEngine(backend, name);
      for (let seed = 2001; seed <= (backend === 'wasm' ? 2012 : 2008); seed++) {
        const { view, belief } = fittingView(engine, seed, 1 + (seed % 6));
        for (const k of [5, 12, 20]) {
          for (const sampleSeed of [1, 7, seed]) {
            const r = sampleBelief(engine, view, k, sampleSeed);
            expect(r.outcome).toBe('complete');
            const p = engine.positions;
            const ids = r.handles.map((h) => identity(p, h, view.rules.fiftyMoveDraw));
            expect(new Set(ids).size, 'samples are distinct').toBe(ids.length);
            for (const id of ids)
              expect(belief.has(id), `${name} seed ${seed} k ${k}: sample outside the belief`).toBe(true);
            expect(ids.length).toBe(Math.min(k, belief.size));
            if (belief.size < k) fewer++;
            samples += ids.length;
          }
        }
      }
    }
    expect(fewer, 'beliefs smaller than k were sampled').toBeGreaterThan(0);
    expect(samples).toBeGreaterThan(1000);
  });

  it('samples with restarted descents (a small Luby unit) are in the belief state too, and restarts happen', () => {
    let restarts = 0;
    for (const name of PRESET_NAMES) {
      const engine = newEngine(backend, name);
      for (let seed = 2001; seed <= 2004; seed++) {
        const { view, belief } = fittingView(engine, seed, 1 + (seed % 6));
        const r = sampleBelief(engine, view, 12, seed, {}, 16);
        expect(r.outcome).toBe('complete');
        const ids = r.handles.map((h) => identity(engine.positions, h, view.rules.fiftyMoveDraw));
        expect(new Set(ids).size, 'samples are distinct').toBe(ids.length);
        for (const id of ids) expect(belief.has(id), `${name} seed ${seed}: sample outside the belief`).toBe(true);
        expect(ids.length).toBe(Math.min(12, belief.size));
        expect(r.sampler!.descents).toBeGreaterThanOrEqual(r.sampler!.restarts);
        restarts += r.sampler!.restarts;
      }
    }
    expect(restarts, 'a unit of 16 work units cuts some descents').toBeGreaterThan(0);
  });

  it('the end positions of the listed information set are exactly the belief state', () => {
    let histories = 0;
    for (const name of PRESET_NAMES) {
      const engine = newEngine(backend, name);
      const fifty = engine.rules.fiftyMoveDraw;
      for (let seed = 3001; seed <= (backend === 'wasm' ? 3016 : 3010); seed++) {
        const { view, belief } = fittingView(engine, seed, 1 + (seed % 5));
        const set = informationSet(engine, view, true);
        expect(set.outcome).toBe('complete');
        expect(set.count).toBe(set.histories!.length);
        expect(set.count).toBeGreaterThanOrEqual(belief.size);
        // counted with multiplicities (breadth-first) as listed one by one (depth-first)
        expect(informationSet(engine, view).count).toBe(set.count);
        // replay every history from the start: handle REPLAY + i holds the position after i moves,
        // kept from the previous history as far as the two agree
        const ends = new Set<string>();
        let previous: string[] = [];
        engine.setFen(REPLAY, view.start);
        for (const history of set.histories!) {
          expect(REPLAY + history.length).toBeLessThan(16);
          let same = 0;
          while (same < history.length && same < previous.length && history[same] === previous[same]) same++;
          for (let i = same; i < history.length; i++) engine.playUci(REPLAY + i, history[i], REPLAY + i + 1);
          ends.add(identity(engine.positions, REPLAY + history.length, fifty));
          previous = history;
        }
        expect([...ends].sort(), `${name} seed ${seed}`).toEqual([...belief].sort());
        histories += set.count;
      }
    }
    expect(histories).toBeGreaterThan(1000);
  });

  it('a view nobody can have played is inconsistent, at the right ply', () => {
    const kinds = new Map<string, number>();
    for (const name of PRESET_NAMES) {
      const engine = newEngine(backend, name);
      for (let seed = 4001; seed <= (backend === 'wasm' ? 4006 : 4004); seed++) {
        const { view } = fittingView(engine, seed, (backend === 'wasm' ? 4 : 3) + (seed % 3));
        for (const c of corruptions(view)) {
          const ply = pliesBefore(view, c.event);
          for (const mode of ['bfs', 'dfs'] as const) {
            const r = estimateBelief(engine, c.view, mode);
            expect(
              { what: c.what, mode, outcome: r.outcome, failedEvent: r.failedEvent, failedPly: r.failedPly },
              `${name} seed ${seed}`,
            ).toEqual({ what: c.what, mode, outcome: 'inconsistent', failedEvent: c.event, failedPly: ply });
            expect(r.handles).toEqual([]);
          }
          const s = sampleBelief(engine, c.view, 5, 1);
          expect([s.outcome, s.failedEvent]).toEqual(['inconsistent', c.event]);
          const i = informationSet(engine, c.view);
          expect([i.outcome, i.count, i.failedPly]).toEqual(['inconsistent', 0, ply]);
          kinds.set(c.what, (kinds.get(c.what) ?? 0) + 1);
        }
      }
    }
    for (const what of [
      'own illegal → capture on own king',
      'opponent illegal 200',
      'pawn tries 17',
      'pawn try on first rank',
      'pawn try at the start',
    ]) {
      expect(kinds.get(what) ?? 0, what).toBeGreaterThan(0);
    }
  });

  // #18: createEngine() gives a 1,024-record arena; estimateBelief once answered limit-positions with
  // no positions on it (the CLI grew its arena, the API did not)
  it('grows the arena: a default engine finds the whole belief, as a large one does', () => {
    const large = newEngine(backend, 'berkeley');
    const { view, belief } = fittingView(large, 5001, 7);
    expect(belief.size).toBeGreaterThan(10_000);
    for (const mode of ['bfs', 'dfs'] as const) {
      const engine = createEngine(backend);
      expect(engine.capacity).toBe(1024);
      const r = estimateBelief(engine, view, mode);
      expect(r.outcome, mode).toBe('complete');
      expect(r.handles.map((h) => identity(engine.positions, h, false)).sort(), mode).toEqual([...belief].sort());
    }
    const sample = sampleBelief(createEngine(backend), view, 5, 1);
    expect([sample.outcome, sample.handles.length]).toEqual(['complete', 5]);
    const histories = informationSet(createEngine(backend), view);
    expect(histories.outcome).toBe('complete');
    expect(histories.count).toBe(informationSet(large, view).count);
  });

  it('limits end in their outcome, never a throw or a trap', () => {
    const engine = newEngine(backend, 'berkeley');
    // a belief of ~25,000 positions, ~90,000 work units breadth-first (several budgeted steps)
    const { view, belief } = fittingView(engine, 5001, 7);
    expect(belief.size).toBeGreaterThan(10_000);
    const run = <T>(f: () => T): T => {
      let r: T | undefined;
      expect(f).not.toThrow();
      r = f();
      return r;
    };
    const inBelief = (handles: number[]) => {
      const p = engine.positions;
      for (const h of handles) expect(belief.has(identity(p, h, false))).toBe(true);
    };
    // positions: breadth-first stops when a layer exceeds it, depth-first after that many
    const bfs = run(() => estimateBelief(engine, view, 'bfs', { positions: 10 }));
    expect([bfs.outcome, bfs.handles]).toEqual(['limit-positions', []]);
    const dfs = run(() => estimateBelief(engine, view, 'dfs', { positions: 10 }));
    expect([dfs.outcome, dfs.handles.length]).toEqual(['limit-positions', 10]);
    inBelief(dfs.handles);
    const histories = run(() => informationSet(engine, view, true, { positions: 10 }));
    expect([histories.outcome, histories.count, histories.histories!.length]).toEqual(['limit-positions', 10, 10]);
    // time and work, breadth-first
    const timed = run(() => estimateBelief(engine, view, 'bfs', { timeMs: 1 }));
    expect([timed.outcome, timed.handles]).toEqual(['limit-time', []]);
    const worked = run(() => estimateBelief(engine, view, 'bfs', { work: 100 }));
    expect([worked.outcome, worked.handles]).toEqual(['limit-work', []]);
    expect(worked.work).toBeLessThanOrEqual(100 + STEP + 300);
    // the limits leave the engine usable
    expect(beliefOf(engine, view)).toEqual(belief);

    // an arena whose store holds ~100 positions, and no memory to grow it
    const small = newEngine(backend, 'berkeley', storeBase(engine) + 114);
    const store = small.capacity - storeBase(small);
    expect(store).toBeGreaterThan(50);
    expect(store).toBeLessThan(200);
    const fixed = { memoryBytes: 0 };
    expect(run(() => estimateBelief(small, view, 'bfs', fixed)).outcome).toBe('limit-positions');
    const full = run(() => estimateBelief(small, view, 'dfs', fixed));
    expect([full.outcome, full.handles.length]).toEqual(['limit-positions', store]);
    const sample = run(() => sampleBelief(small, view, 20, 3, fixed));
    expect([sample.outcome, sample.handles.length]).toEqual(['complete', 20]);
    const tooMany = run(() => sampleBelief(small, view, 1000, 3, fixed));
    expect([tooMany.outcome, tooMany.handles.length]).toEqual(['limit-positions', store]);
    // with memory to grow, the same small engine finds the whole belief
    const grown = run(() => estimateBelief(small, view, 'dfs'));
    expect(grown.outcome).toBe('complete');
    expect(grown.handles.map((h) => identity(small.positions, h, false)).sort()).toEqual([...belief].sort());
  });

  // Known bug (reported): the host's depth-first loops (estimateBelief 'dfs', sampleBelief,
  // informationSet) check time and work only when a core step returns ESTIMATE_MORE, never after
  // ESTIMATE_FOUND, so a run that keeps finding positions or histories overruns its limits by far.
  // (these two were it.fails until host/belief/estimate.ts checked limits after every step)
  it('time and work limits stop depth-first runs that keep finding positions', () => {
    const engine = newEngine(backend, 'berkeley');
    const { view } = fittingView(engine, 5001, 6); // ~2,700 positions, ~21,000 work units depth-first
    const got = [
      estimateBelief(engine, view, 'dfs', { work: 1000 }),
      sampleBelief(engine, view, 300, 1, { work: 1000 }),
      informationSet(engine, view, true, { work: 1000 }), // listing is depth-first (a count is breadth-first)
    ].map((r) => ({ outcome: r.outcome, withinLimit: r.work <= 1000 + STEP + 300 }));
    expect(got).toEqual(Array(3).fill({ outcome: 'limit-work', withinLimit: true }));
  });

  // An arena with no room for a store: the modes that store positions answer limit-positions
  // (they once went on with the previous run's state); histories are counted, not stored, so the
  // information set still completes, with the same count as before.
  it('an arena with no room for a store gives limit-positions in every mode that stores positions', () => {
    const engine = newEngine(backend, 'berkeley', 4096);
    const view = viewOf(randomGame(engine, 3, { maxPlies: 4 }), 'white');
    sampleBelief(engine, view, 5, 1);
    const before = informationSet(engine, view, true);
    engine.resize(512); // below storeBase(): no store at all, and no memory to grow it
    engine.setRules(preset('berkeley'));
    const fixed = { memoryBytes: 0 };
    const got = [
      estimateBelief(engine, view, 'bfs', fixed).outcome,
      estimateBelief(engine, view, 'dfs', fixed).outcome,
      sampleBelief(engine, view, 5, 1, fixed).outcome,
    ];
    expect(got).toEqual(Array(3).fill('limit-positions'));
    const after = informationSet(engine, view, true);
    expect(after.outcome).toBe('complete');
    expect(after.count).toBe(before.count);
    expect(after.histories).toHaveLength(before.count);
  });
});

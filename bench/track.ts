// Belief tracking through whole games (issue 13), two measurements:
// 1. Reach: both players' views of self-play games of every preset — random against random (the
//    core's random player), and the database's White program against its Black program
//    (host/players/selfPlay.ts, as host/db/generate.node.ts plays them: a game White drops ends there) — fed to the tracker event by event at a time
//    budget per event (default 1 s, WASM). Per preset and pairing: the plies at which it held no
//    consistent position (each listed with the event and why), the share of plies with at least
//    one, the median positions held over plies, exact and pool plies; an SVG of the median size
//    per ply (bench/results/track-<preset>.svg).
// 2. Pool update speed: opponent turns applied to pools of 5,000–20,000 positions (the tracker
//    forced into pool mode early, no top-ups), on WASM and JS in the same run and on identical
//    work (a work budget; the pools are asserted equal across backends): positions per second, the
//    time a 10,000-position pool takes through one opponent turn, and the WASM/JS ratio.
// Usage: npm run bench:track   full run (100 games per preset and pairing at 1 s per event: many
//                              hours on a shared 2-core machine), writes bench/results/track.{json,md}
//        … -- --presets berkeley,wild16 [--pairings random]   play only these parts of the reach run,
//                              storing them and writing no results (two such processes at once,
//                              on other presets, use both cores)
//        … -- --report             play nothing: write the results of what the stores hold
//        node scripts/run-ts.mjs bench/track.ts --quick [--games N] [--budget-ms M] [--pool-max N] [--program-games N]
//                              smoke run (2 random games and 1 program game per preset at 200 ms),
//                              writes bench/results/track-quick.{json,md} and track-quick-*.svg (git-ignored)
//        … --speed-only             the pool update speed alone (minutes, not hours), written to
//                              bench/results/track-speed[-quick].{json,md}
// The reach run is resumable: every view tracked is stored at once (.cache/track/, one file per
// preset, bench/lib/runStore.ts) under a header of the budget, the ply cap and a hash of the code
// it runs (bench/lib/harness.ts measuredCode: the host files it takes in and the built core), so a
// killed run goes on where it stopped, runs on different presets can share the machine, a commit
// that changes nothing it runs keeps the views, and views measured on other code are never mixed
// in (`--fresh` starts over). A full run and `--report` write the results of every preset and
// pairing the stores hold, a part with fewer games than wanted marked partial.
import os from 'node:os';
import { join } from 'node:path';
import { createEngine, BACKENDS, type BackendName, type Engine } from '../host/node';
import { preset, PRESET_NAMES, type PresetName, type RuleSet } from '../host/record/rules';
import { viewOf, SIDES, type GameRecord, type View } from '../host/record/record';
import { randomGame, seededRandom } from '../host/referee/game';
import { GameSession } from '../host/referee/session';
import { runGame } from '../host/players/game';
import { whitePlayer, blackPlayer, BeliefTooLarge } from '../host/players/selfPlay';
import { START_FEN } from '../host/notation/fen';
import { selfPlayWorkers } from '../host/db/generate.node';
import { gameSeed } from '../host/referee/seeds';
import { Tracker, poolSized } from '../host/belief/tracker';
import { trackView, trackSvg, type PlyRow } from '../host/belief/track';
import { describeEvent } from '../host/belief/describe';
import {
  describeMachine,
  gitState,
  machine,
  measuredCode,
  median,
  progress,
  repoRoot,
  writeJson,
  writeText,
} from './lib/harness';
import { RunStore } from './lib/runStore';
import { flag, integerOption, option, quick } from './lib/args';

const speedOnly = flag('--speed-only');
const RANDOM_GAMES = integerOption('--games', quick ? 2 : 100);
const PROGRAM_GAMES = integerOption('--program-games', quick ? 1 : 100);
const BUDGET_MS = integerOption('--budget-ms', quick ? 200 : 1000);
const MAX_PLIES = integerOption('--max-plies', quick ? 120 : 300);
// The reach run's pool: 80,000 cut to 40,000, four times Parker's (the tracker's default). At 2,000,000
// work an event on 13 english and cincinnati random views (bench:track-ab) it kept the truth's
// opponent material and pawns in the pool more often than the default (64.7 % against 54.4 %);
// on the reach run's own games at 1 s an event it saves some views and loses others (docs/belief.md,
// "Belief tracking through a whole game"). At least 4: the pool is cut to half and topped up below a twentieth.
const POOL_MAX = integerOption('--pool-max', quick ? 20_000 : 80_000, 4);
const SPEED_VIEWS = quick ? 4 : 16;
const SPEED_WORK = 2e8; // per event: enough for any expansion of a 20,000-position pool (asserted: no event stopped)

const PAIRINGS = ['random', 'programs'] as const;
/** A comma-separated option's values, each checked against `allowed`. */
const list = (name: string, allowed: readonly string[]): string[] | undefined => {
  const text = option(name);
  if (text === undefined) return undefined;
  const values = text.split(',');
  if (values.some((v) => !allowed.includes(v))) {
    console.error(`bench:track: ${name} takes a comma-separated list of: ${allowed.join(', ')}`);
    process.exit(2);
  }
  return values;
};
const report = flag('--report');
const presetList = list('--presets', PRESET_NAMES);
const pairingList = list('--pairings', PAIRINGS);
const playPresets: readonly string[] = presetList ?? PRESET_NAMES;
const playPairings: readonly string[] = pairingList ?? PAIRINGS;
/**
 * Only part of the reach run is played here: it stores its views and writes no results (another
 * part may still be running; `--report` writes them once all are done), and no pool speed.
 */
const partRun = !speedOnly && !report && (presetList !== undefined || pairingList !== undefined);

const root = repoRoot();
const git = gitState(root, ['assembly', 'host']);
/** The code measured (bench/lib/harness.ts measuredCode): the stores' views were tracked by it. */
const codeVersion = await measuredCode(root, 'bench/track.ts');
const suffix = (speedOnly ? '-speed' : '') + (quick ? '-quick' : '');
const startLoad = os.loadavg()[0];
/** The load average (1 min) at the end of each stored view's tracking. */
const viewLoads: number[] = [];

// ---- the games ----

/**
 * The database's programs (host/db/generate.node.ts): its White (exact belief, 2-ply evaluation) against
 * its Black; a game White drops (its belief past 10,000 positions, as the database does) ends there.
 */
function programGame(rules: RuleSet, seed: number): GameRecord {
  workers.referee.setRules(rules);
  const random = seededRandom(gameSeed(1, seed)); // the game's one stream, both programs drawing from it
  const white = whitePlayer(workers, random, { start: START_FEN, dropBelief: 10_000, reportBelief: 0 });
  const black = blackPlayer(workers, random);
  const names = { white: white.name, black: black.name };
  const session = new GameSession(workers.referee, {
    maxPlies: MAX_PLIES,
    names,
    tags: { Seed: String(gameSeed(1, seed)) },
  });
  try {
    return runGame(session, { white, black });
  } catch (error) {
    if (!(error instanceof BeliefTooLarge)) throw error;
    return { ...session.record(), tags: {} };
  }
}
const workers = selfPlayWorkers('wasm');

/** What the reach run keeps of one view tracked (a line of the store). */
interface ViewRun {
  /** Per ply: its number and the positions held after it. */
  plies: number[];
  sizes: number[];
  /** Per ply: 'e' exact, 'p' pool (absent in views stored before it was kept). */
  modes?: string;
  exact: number;
  budgetStops: number;
  rejected: boolean;
  empty: Empty[];
  /** Plies at which a standby took over from a dead pool (host/belief/tracker.ts). */
  rescues: number;
  ms: number;
  load: number;
}

interface Empty {
  game: number;
  as: string;
  ply: number;
  event: string;
  why: string;
}

interface PairingResult {
  preset: PresetName;
  pairing: 'random' | 'programs';
  /** Games whose two views the store holds, of the `wanted`. */
  games: number;
  wanted: number;
  views: number;
  plies: number;
  held: number;
  heldShare: number;
  medianSize: number;
  /** Median held over the pool plies of the views that kept their modes (NaN: none did). */
  medianPoolSize: number;
  exactPlies: number;
  poolPlies: number;
  budgetStops: number;
  rejected: number;
  rescues: number;
  empty: Empty[];
  /** Median positions held at each ply over the views that reached it. */
  medianPerPly: number[];
  ms: number;
}

/** A preset's store: read-only for a report (never set aside by it), else opened for writing (only presets played are opened). */
function storeOf(name: PresetName): RunStore {
  const header = { budgetMs: BUDGET_MS, maxPlies: MAX_PLIES, poolMax: POOL_MAX, code: codeVersion };
  const mode = report ? 'read' : flag('--fresh') ? 'fresh' : 'write';
  return new RunStore(join(root, '.cache', 'track', `reach${suffix}-${name}.jsonl`), header, mode);
}

/** Tracks both views of `game` (made only when a view is not stored yet) and stores them. */
function trackGame(
  store: RunStore,
  name: PresetName,
  key: (as: string) => string,
  g: number,
  game: () => GameRecord,
  engine: Engine,
) {
  let record: GameRecord | undefined;
  for (const as of SIDES) {
    if (store.has(key(as))) continue;
    record ??= game();
    const view: View = viewOf(record, as);
    const run = trackView(engine, view, { seed: g, ...poolSized(POOL_MAX) }, { timeMs: BUDGET_MS });
    run.tracker.free();
    store.put<ViewRun>(key(as), {
      plies: run.rows.map((r) => r.ply),
      sizes: run.rows.map((r) => r.size),
      modes: run.rows.map((r) => (r.mode === 'exact' ? 'e' : 'p')).join(''),
      exact: run.rows.filter((r) => r.mode === 'exact').length,
      budgetStops: run.rows.filter((r) => r.stopped).length,
      rejected: run.bad !== undefined,
      empty: run.rows
        .filter((r) => r.size === 0)
        .map((r) => ({ game: g, as, ply: r.ply, event: describeEvent(view, r.lastEvent), why: whyEmpty(r) })),
      rescues: run.rows.filter((r) => r.rescued).length,
      ms: run.rows.reduce((t, r) => t + r.ms, 0),
      load: os.loadavg()[0],
    });
    progress(
      `${name} ${key(as)}: ${run.rows.length} plies, ${run.rows.filter((r) => r.size === 0).length} empty${run.bad ? `, rejected: ${run.bad.message}` : ''}`,
    );
  }
}

/** The positions held at every ply of every view summed up (the median over plies). */
const allSizes: number[] = [];
const allPoolSizes: number[] = [];

/** Plays what is wanted of a preset and pairing (views stored are kept) and sums up what its store holds. */
function reach(name: PresetName, pairing: 'random' | 'programs', games: number, store: RunStore): PairingResult {
  const key = (g: number) => (as: string) => `${pairing}:${g}:${as}`;
  if (!report && playPairings.includes(pairing)) {
    const rules = preset(name);
    const engine = createEngine('wasm', 1 << 12);
    engine.setRules(rules);
    for (let g = 1; g <= games; g++)
      trackGame(
        store,
        name,
        key(g),
        g,
        () => (pairing === 'random' ? randomGame(engine, g, { maxPlies: MAX_PLIES }) : programGame(rules, g)),
        engine,
      );
  }
  const sizes: number[] = [];
  const poolSizes: number[] = [];
  const perPly: number[][] = [];
  const runs: ViewRun[] = [];
  let played = 0;
  for (let g = 1; g <= games; g++) {
    const both = SIDES.map((as) => store.get<ViewRun>(key(g)(as)));
    if (both.some((r) => !r)) continue;
    played++;
    for (const r of both as ViewRun[]) {
      runs.push(r);
      r.sizes.forEach((size, i) => {
        sizes.push(size);
        if (r.modes?.[i] === 'p') poolSizes.push(size);
        (perPly[r.plies[i]!] ??= []).push(size);
      });
      viewLoads.push(r.load);
    }
  }
  allSizes.push(...sizes);
  allPoolSizes.push(...poolSizes);
  const held = sizes.filter((s) => s > 0).length;
  const exactPlies = runs.reduce((t, r) => t + r.exact, 0);
  return {
    preset: name,
    pairing,
    games: played,
    wanted: games,
    views: runs.length,
    plies: sizes.length,
    held,
    heldShare: sizes.length ? held / sizes.length : NaN,
    medianSize: median(sizes),
    medianPoolSize: poolSizes.length ? median(poolSizes) : NaN,
    exactPlies,
    poolPlies: sizes.length - exactPlies,
    budgetStops: runs.reduce((t, r) => t + r.budgetStops, 0),
    rejected: runs.filter((r) => r.rejected).length,
    rescues: runs.reduce((t, r) => t + (r.rescues ?? 0), 0),
    empty: runs.flatMap((r) => r.empty),
    medianPerPly: perPly.map((s) => (s ? median(s) : 0)),
    ms: runs.reduce((t, r) => t + r.ms, 0),
  };
}

/** A view's plies with no position held, consecutive ones in one stretch (listed by its first ply's event and why). */
function stretches(empty: Empty[]): { first: Empty; last: Empty }[] {
  const out: { first: Empty; last: Empty }[] = [];
  for (const e of empty) {
    const open = out.at(-1);
    if (open && open.last.game === e.game && open.last.as === e.as && open.last.ply + 1 === e.ply) open.last = e;
    else out.push({ first: e, last: e });
  }
  return out;
}

function whyEmpty(r: PlyRow): string {
  if (r.stopped)
    return `the pool died, no standby had caught up alive, and the sampler found no consistent history within the budget (${r.descents} descents, ${r.restarts} restarts)`;
  return 'the pool died, no standby had caught up alive, and the sampler exhausted its descents';
}

// ---- pool update speed ----

interface TurnSample {
  view: number;
  event: number;
  before: number;
  after: number;
  ms: Record<BackendName, number>;
  /** The process's CPU time over the turn (user + system): less sensitive than the wall clock to other work on a shared machine. */
  cpuMs: Record<BackendName, number>;
}

/** Opponent turns applied to pools of 5,000–20,000 positions, the same views and seeds on both backends. */
function poolSpeed(): {
  turns: TurnSample[];
  perSecond: Record<BackendName, number>;
  msPer10k: Record<BackendName, number>;
  cpuMsPer10k: Record<BackendName, number>;
} {
  const options = { exactMax: 2_000, poolMax: 40_000, poolCut: 20_000, poolMin: 1, seed: 7 };
  const views: View[] = [];
  const engine = createEngine('wasm', 1 << 12);
  for (let seed = 1; views.length < SPEED_VIEWS; seed++) {
    const name = PRESET_NAMES[seed % PRESET_NAMES.length];
    engine.setRules(preset(name));
    views.push(viewOf(randomGame(engine, 1000 + seed, { maxPlies: 60 }), SIDES[seed % 2]));
  }
  const turns = new Map<string, TurnSample>();
  const pools: Record<BackendName, string[][]> = { wasm: [], js: [] };
  for (const backend of BACKENDS) {
    views.forEach((view, v) => {
      const e = createEngine(backend, 1 << 12);
      const tracker = Tracker.create(e, { rules: view.rules, as: view.as, start: view.start }, options);
      view.events.forEach((event, i) => {
        const before = tracker.size();
        const cpu = process.cpuUsage();
        const o = tracker.observe(event, { work: SPEED_WORK });
        const used = process.cpuUsage(cpu);
        if (o.stopped !== 'complete') throw new Error(`speed: view ${v} event ${i} stopped by the budget`);
        if (event.type !== 'opponent-move' || !event.percept || tracker.mode !== 'pool') return;
        if (before < 5_000 || before > 20_000 || o.added > 0) return;
        const key = `${v}:${i}`;
        const t = turns.get(key) ?? {
          view: v,
          event: i,
          before,
          after: o.size,
          ms: { wasm: NaN, js: NaN },
          cpuMs: { wasm: NaN, js: NaN },
        };
        if (t.before !== before || t.after !== o.size)
          throw new Error(`speed: view ${v} event ${i} differs across backends`);
        t.ms[backend] = o.ms;
        t.cpuMs[backend] = (used.user + used.system) / 1000;
        turns.set(key, t);
      });
      pools[backend].push(tracker.positions().sort());
      tracker.free();
    });
    progress(
      `speed on ${backend}: ${[...turns.values()].filter((t) => !Number.isNaN(t.ms[backend])).length} opponent turns`,
    );
  }
  if (JSON.stringify(pools.wasm) !== JSON.stringify(pools.js))
    throw new Error('speed: the pools differ across backends');
  const list = [...turns.values()];
  const positions = list.reduce((s, t) => s + t.before, 0);
  const perSecond = {} as Record<BackendName, number>;
  const msPer10k = {} as Record<BackendName, number>;
  const cpuMsPer10k = {} as Record<BackendName, number>;
  for (const b of BACKENDS) {
    const ms = list.reduce((s, t) => s + t.ms[b], 0);
    perSecond[b] = (positions / ms) * 1000;
    msPer10k[b] = (10_000 / positions) * ms;
    cpuMsPer10k[b] = (10_000 / positions) * list.reduce((s, t) => s + t.cpuMs[b], 0);
  }
  return { turns: list, perSecond, msPer10k, cpuMsPer10k };
}

// ---- the run ----

const results: PairingResult[] = [];
/** Presets whose store holds views of other code or settings (a report leaves them as they are; a run that plays them sets them aside). */
const otherStores: string[] = [];
for (const name of speedOnly ? [] : PRESET_NAMES) {
  if (partRun && !playPresets.includes(name)) continue;
  const store = storeOf(name);
  if (report && store.found === 'other') otherStores.push(name);
  if (store.size && !report)
    progress(`track: ${name}: resuming, ${store.size} views already tracked (${store.path}; --fresh starts over)`);
  results.push(reach(name, 'random', RANDOM_GAMES, store));
  if (PROGRAM_GAMES > 0) results.push(reach(name, 'programs', PROGRAM_GAMES, store));
  const series = results
    .filter((r) => r.preset === name && r.views > 0)
    .map((r) => ({
      label: `${r.pairing === 'random' ? 'random v random' : 'database White v Black'}: median over ${r.views} views`,
      rows: r.medianPerPly.map((size, ply) => ({ ply, size, mode: 'pool' as const })).filter((r) => r.ply > 0),
    }));
  if (series.length && !partRun)
    writeText(
      join(root, 'bench', 'results', `track${suffix}-${name}.svg`),
      trackSvg(
        series,
        `Positions the tracker holds per ply: ${name}, ${BUDGET_MS} ms per event, pool ${POOL_MAX} (WASM)`,
      ),
    );
}
if (partRun) {
  for (const r of results)
    progress(
      `track: ${r.preset} ${r.pairing}: ${r.games} of ${r.wanted} games stored, ${r.held} of ${r.plies} plies held a position`,
    );
  progress('track: a part run writes no results; `--report` writes them from every store once all parts are done');
  process.exit(0);
}
const speed = report ? undefined : poolSpeed();

const all = results.reduce((s, r) => ({ plies: s.plies + r.plies, held: s.held + r.held }), { plies: 0, held: 0 });
const medianHeld = median(allSizes);
const medianPoolHeld = allPoolSizes.length ? median(allPoolSizes) : NaN;
const doc = {
  bench: 'track',
  quick,
  git,
  machine: machine(),
  load: {
    start: startLoad,
    views: viewLoads.length
      ? { mean: viewLoads.reduce((a, b) => a + b, 0) / viewLoads.length, max: Math.max(...viewLoads) }
      : null,
  },
  budgetMs: BUDGET_MS,
  maxPlies: MAX_PLIES,
  poolMax: POOL_MAX,
  reach: {
    plies: all.plies,
    held: all.held,
    share: all.held / all.plies,
    medianHeld,
    medianPoolHeld,
    partial: results.some((r) => r.games < r.wanted),
    results,
  },
  speed,
};
writeJson(join(root, 'bench', 'results', `track${suffix}.json`), doc);

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
/** The reach section of the report. */
function reachLines(): string[] {
  const notRun = results.filter((r) => r.views === 0 && !otherStores.includes(r.preset));
  return [
    `## Reach: ${BUDGET_MS} ms per event (WASM), a pool of ${POOL_MAX.toLocaleString('en-US')} cut to ${poolSized(POOL_MAX).poolCut.toLocaleString('en-US')}, both players' views, at most ${MAX_PLIES} plies a game`,
    '',
    '| preset | games | views | plies | plies with ≥ 1 position | median held | median held, pool plies | exact plies | pool plies | budget stops | take-overs | rejected |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results
      .filter((r) => r.views > 0)
      .map(
        (r) =>
          `| ${r.preset} ${r.pairing === 'random' ? 'random v random' : 'db White v Black'} | ${r.games < r.wanted ? `${r.games} of ${r.wanted} (partial)` : r.games} | ${r.views} | ${r.plies} | ${pct(r.heldShare)} | ${r.medianSize} | ${Number.isNaN(r.medianPoolSize) ? '—' : r.medianPoolSize} | ${r.exactPlies} | ${r.poolPlies} | ${r.budgetStops} | ${r.rescues} | ${r.rejected} |`,
      ),
    '',
    ...(otherStores.length
      ? [
          `Stored under other code or settings, not counted (played again by \`--presets ${otherStores.join(',')}\`): ${otherStores.join(', ')}.`,
          '',
        ]
      : []),
    ...(notRun.length ? [`Not run yet: ${notRun.map((r) => `${r.preset} ${r.pairing}`).join(', ')}.`, ''] : []),
    `All: ${all.held} of ${all.plies} plies (${pct(all.held / all.plies)}) with at least one consistent position; median positions held over all plies ${medianHeld}${Number.isNaN(medianPoolHeld) ? '' : `, over the pool plies ${medianPoolHeld}`}.`,
    ...(results.some((r) => r.views > 0 && Number.isNaN(r.medianPoolSize))
      ? ['', "Median held, pool plies: — where the views were stored before each ply's mode was kept."]
      : []),
    '',
    ...(results.some((r) => r.empty.length)
      ? [
          '### Plies with no position held',
          '',
          ...results.flatMap((r) =>
            stretches(r.empty).map(({ first, last }) => {
              const plies =
                first === last
                  ? `ply ${first.ply} (${first.event})`
                  : `plies ${first.ply}–${last.ply} (${last.ply - first.ply + 1} plies, from ${first.event})`;
              return `- ${r.preset} ${r.pairing} game ${first.game} as ${first.as}, ${plies}: ${first.why}`;
            }),
          ),
          '',
        ]
      : []),
  ];
}

/** The pool speed section of the report. */
function speedLines(speed: ReturnType<typeof poolSpeed>): string[] {
  return [
    '## Pool update: opponent turns on pools of 5,000–20,000 positions (same work on both backends)',
    '',
    '| backend | turns | positions / s | ms per 10,000-position pool | CPU ms per 10,000 |',
    '|---|---|---|---|---|',
    ...BACKENDS.map(
      (b) =>
        `| ${b} | ${speed.turns.length} | ${Math.round(speed.perSecond[b]).toLocaleString('en-US')} | ${speed.msPer10k[b].toFixed(1)} | ${speed.cpuMsPer10k[b].toFixed(1)} |`,
    ),
    '',
    `WASM/JS: ${(speed.perSecond.wasm / speed.perSecond.js).toFixed(2)}x.`,
  ];
}

const lines = [
  `# Belief tracking (bench/track.ts${quick ? ' --quick' : ''})`,
  '',
  `Machine: ${describeMachine(doc.machine)}; load average (1 min) ${doc.load.views ? `while the views were tracked: mean ${doc.load.views.mean.toFixed(1)}, at most ${doc.load.views.max.toFixed(1)}; ` : ''}at this run's start ${doc.load.start.toFixed(1)}. Commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}.`,
  '',
  ...(speedOnly ? [] : reachLines()),
  ...(speed
    ? speedLines(speed)
    : ['Pool update speed: not measured by a `--report` run (`--speed-only` measures it alone: track-speed.md).']),
];
writeText(join(root, 'bench', 'results', `track${suffix}.md`), lines.join('\n'));
progress(lines.join('\n'));

// Belief-state estimation speed: the exact belief state (every position consistent with a
// player's view) of both colours' views of the recorded games in bench/data/belief-games.kpgn
// (made by bench/make-belief-games.ts), breadth-first and depth-first, WASM against JS on
// identical work. Every run of every (view, estimator, backend) must give the same belief: its
// size and an order-independent checksum of its positions' Zobrist keys are asserted equal across
// modes and backends. Reports consistent positions output per second and work units per second
// (positions generated and tested, as each estimator counts them), median of RUNS runs per view.
// Also: information-set generation (counting every consistent history) on a subset of the views,
// and the "information-set counts per ply" of the game in bench/data/belief-plies.kpgn under
// berkeley and under restricted rules, from both players' perspectives.
// Usage: npm run bench:belief            full run (about 10 minutes), writes bench/results/belief.{json,md}
//        node scripts/run-ts.mjs bench/belief.ts --quick   smoke run (8 games, short per-ply tables),
//                                 writes bench/results/belief-quick.{json,md} (git-ignored, not in the README)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { createEngine, BACKENDS, type BackendName, type Engine } from '../host/node';
import { POSITION_WORDS, W_KEY_LO, W_KEY_HI } from '../host/constants';
import { viewOf, SIDES, type GameRecord, type Side, type View } from '../host/record/record';
import { describeRules } from '../host/record/rules';
import { cut } from './lib/plies';
import { parseKpgnGames } from '../host/notation/kpgn';
import { estimateBelief, informationSet, type EstimateMode, type Outcome } from '../host/belief/estimate';
import {
  describeMachine,
  gitState,
  group,
  machine,
  median,
  progress,
  repoRoot,
  seconds,
  writeJson,
  writeText,
} from './lib/harness';

const quick = process.argv.includes('--quick');
const RUNS = 3;
const ARENA = 1 << 20; // breadth-first keeps two layers of up to 2^19 positions each
const MODES: EstimateMode[] = ['bfs', 'dfs'];
const MODE_NAME: Record<EstimateMode, string> = { bfs: 'breadth-first', dfs: 'depth-first', auto: 'auto' };
// guards only: every benchmarked view completes far below them (asserted)
// the arena is fixed (memoryBytes 0: never grown), as the tables say
const ESTIMATE_LIMITS = { work: 5e7, timeMs: 60_000, memoryBytes: 0 };
// information-set subset: the first INFOSET_VIEWS views (in file order) whose count completes within INFOSET_WORK
const INFOSET_VIEWS = quick ? 3 : 12;
const INFOSET_WORK = 5e6;
// per-ply report limits (deterministic work counts, so 'limit' does not depend on the machine)
const PLY_INFOSET_WORK = 2e7;
const PLY_BELIEF_WORK = 1e7;
const PLY_MAX = quick ? 8 : 20;

const root = repoRoot();
const git = gitState(root, ['assembly', 'host']); // the code measured: read before the run, not after it
const loadAvg = () => Math.round(os.loadavg()[0] * 100) / 100;
const loads: number[] = [loadAvg()];

function readRecords(path: string): GameRecord[] {
  return parseKpgnGames(readFileSync(join(root, path), 'utf8')).map((g, i) => {
    if (g.kind !== 'record') throw new Error(`${path}: game ${i + 1} is a view, not a full record`);
    return g.record;
  });
}

const allGames = readRecords('bench/data/belief-games.kpgn');
const games = quick ? allGames.slice(0, 8) : allGames;
interface Case {
  seed: number;
  plies: number;
  as: Side;
  view: View;
}
const cases: Case[] = games.flatMap((record) =>
  SIDES.map((as) => ({
    seed: Number(record.tags.Seed),
    plies: Number(record.tags.Plies),
    as,
    view: viewOf(record, as),
  })),
);

const engines = Object.fromEntries(BACKENDS.map((b) => [b, createEngine(b, ARENA)])) as Record<BackendName, Engine>;

/** Order-independent digest of a set of positions: count and two sums over their Zobrist keys. */
function digest(engine: Engine, handles: number[]): string {
  const p = engine.positions;
  let a = 0;
  let b = 0;
  for (const h of handles) {
    const lo = p[h * POSITION_WORDS + W_KEY_LO];
    const hi = p[h * POSITION_WORDS + W_KEY_HI];
    a = (a + lo) >>> 0;
    b = (b + (hi ^ Math.imul(lo, 0x9e3779b1))) >>> 0;
  }
  return `${handles.length}:${a.toString(16)}:${b.toString(16)}`;
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// ---- 1. exact estimation, both estimators, both backends ----

interface EstimateCell {
  seed: number;
  plies: number;
  as: Side;
  mode: EstimateMode;
  backend: BackendName;
  positions: number;
  work: number;
  runsMs: number[];
  medianMs: number;
}

const label = (c: Case) => `seed ${c.seed} (ply ${c.plies}) as ${c.as}`;

function estimate(
  c: Case,
  mode: EstimateMode,
  backend: BackendName,
): { positions: number; work: number; digest: string; ms: number } {
  const engine = engines[backend];
  const r = estimateBelief(engine, c.view, mode, ESTIMATE_LIMITS);
  if (r.outcome !== 'complete') fail(`${label(c)}: ${mode} on ${backend} ended ${r.outcome}`);
  return { positions: r.handles.length, work: r.work, digest: digest(engine, r.handles), ms: r.ms };
}

progress(`belief: warming up on ${Math.min(4, cases.length)} views …`);
for (const c of cases.slice(0, 4)) for (const mode of MODES) for (const backend of BACKENDS) estimate(c, mode, backend);

const cells: EstimateCell[] = [];
const sizes: number[] = [];
cases.forEach((c, i) => {
  progress(`belief: ${i + 1}/${cases.length} ${label(c)} …`);
  // validation run (also a warm-up for this view): both estimators, both backends, one belief
  const byKey = new Map<string, EstimateCell>();
  let reference: string | undefined;
  for (const mode of MODES) {
    for (const backend of BACKENDS) {
      const r = estimate(c, mode, backend);
      reference ??= r.digest;
      if (r.digest !== reference)
        fail(
          `${label(c)}: ${mode} on ${backend} gives belief ${r.digest}, expected ${reference} (bfs on ${BACKENDS[0]})`,
        );
      const previous = [...byKey.values()].find((x) => x.mode === mode);
      if (previous && previous.work !== r.work)
        fail(`${label(c)}: ${mode} work differs between backends (${previous.work} vs ${r.work})`);
      byKey.set(`${mode}/${backend}`, {
        seed: c.seed,
        plies: c.plies,
        as: c.as,
        mode,
        backend,
        positions: r.positions,
        work: r.work,
        runsMs: [],
        medianMs: 0,
      });
    }
  }
  sizes.push(Number(reference!.split(':')[0]));
  // timed runs, interleaved so a change in machine load touches every cell alike
  for (let run = 0; run < RUNS; run++) {
    for (const mode of MODES) {
      for (const backend of BACKENDS) {
        const r = estimate(c, mode, backend);
        if (r.digest !== reference)
          fail(`${label(c)}: run ${run + 1} of ${mode} on ${backend} gives a different belief`);
        byKey.get(`${mode}/${backend}`)!.runsMs.push(r.ms);
      }
    }
  }
  for (const cell of byKey.values()) {
    cell.medianMs = median(cell.runsMs);
    cells.push(cell);
  }
});
loads.push(loadAvg());

interface Aggregate {
  mode: EstimateMode;
  backend: BackendName;
  views: number;
  positions: number;
  work: number;
  ms: number;
  positionsPerSecond: number;
  workPerSecond: number;
}
function aggregate(selected: EstimateCell[], mode: EstimateMode, backend: BackendName): Aggregate {
  const mine = selected.filter((c) => c.mode === mode && c.backend === backend);
  const positions = mine.reduce((s, c) => s + c.positions, 0);
  const work = mine.reduce((s, c) => s + c.work, 0);
  const ms = mine.reduce((s, c) => s + c.medianMs, 0);
  return {
    mode,
    backend,
    views: mine.length,
    positions,
    work,
    ms,
    positionsPerSecond: positions / (ms / 1000),
    workPerSecond: work / (ms / 1000),
  };
}
const totals = MODES.flatMap((mode) => BACKENDS.map((backend) => aggregate(cells, mode, backend)));
const total = (mode: EstimateMode, backend: BackendName) =>
  totals.find((t) => t.mode === mode && t.backend === backend)!;
const ratio = (mode: EstimateMode) => total(mode, 'js').ms / total(mode, 'wasm').ms;
/** Per-view WASM/JS ratios: min, median, max. */
function viewRatios(mode: EstimateMode): number[] {
  const r = cases.map((c) => {
    const pick = (b: BackendName) =>
      cells.find((x) => x.seed === c.seed && x.as === c.as && x.mode === mode && x.backend === b)!.medianMs;
    return pick('js') / pick('wasm');
  });
  return [Math.min(...r), median(r), Math.max(...r)];
}
const BUCKETS = [
  { name: '< 10,000', lo: 0, hi: 10_000 },
  { name: '10,000 – 100,000', lo: 10_000, hi: 100_000 },
  { name: '≥ 100,000', lo: 100_000, hi: Infinity },
];

// ---- 2. information-set generation (every consistent history counted) ----

interface InfosetCell {
  seed: number;
  plies: number;
  as: Side;
  backend: BackendName;
  histories: number;
  work: number;
  /** The breadth-first belief's work on the same view: counting with multiplicities must not exceed it. */
  beliefWork: number;
  runsMs: number[];
  medianMs: number;
}
const infosetCells: InfosetCell[] = [];
let infosetScreened = 0;
for (const c of cases) {
  if (infosetCells.length >= INFOSET_VIEWS * BACKENDS.length) break;
  infosetScreened++;
  progress(`infoset: ${label(c)} …`);
  // screened on WASM; counted on both backends only when it completes within the limit
  const first = [informationSet(engines.wasm, c.view, false, { work: INFOSET_WORK })];
  if (first[0].outcome !== 'complete') continue;
  first.push(informationSet(engines.js, c.view, false, { work: INFOSET_WORK }));
  BACKENDS.forEach((backend, i) => {
    if (first[i].outcome !== 'complete' || first[i].count !== first[0].count || first[i].work !== first[0].work) {
      fail(
        `${label(c)}: information set on ${backend}: ${first[i].outcome} ${first[i].count} (work ${first[i].work}), expected ${first[0].count} (work ${first[0].work})`,
      );
    }
  });
  const beliefWork = estimateBelief(engines.wasm, c.view, 'bfs', ESTIMATE_LIMITS).work;
  if (first[0].work > beliefWork)
    fail(
      `${label(c)}: counting the information set took ${first[0].work} work, the breadth-first belief ${beliefWork}`,
    );
  const mine = BACKENDS.map((backend) => ({
    seed: c.seed,
    plies: c.plies,
    as: c.as,
    backend,
    histories: first[0].count,
    work: first[0].work,
    beliefWork,
    runsMs: [] as number[],
    medianMs: 0,
  }));
  for (let run = 0; run < RUNS; run++) {
    BACKENDS.forEach((backend, i) => {
      const r = informationSet(engines[backend], c.view, false, { work: INFOSET_WORK });
      if (r.outcome !== 'complete' || r.count !== first[0].count)
        fail(`${label(c)}: information set run ${run + 1} on ${backend} differs`);
      mine[i].runsMs.push(r.ms);
    });
  }
  for (const cell of mine) {
    cell.medianMs = median(cell.runsMs);
    infosetCells.push(cell);
  }
}
const infosetTotals = BACKENDS.map((backend) => {
  const mine = infosetCells.filter((c) => c.backend === backend);
  const histories = mine.reduce((s, c) => s + c.histories, 0);
  const work = mine.reduce((s, c) => s + c.work, 0);
  const beliefWork = mine.reduce((s, c) => s + c.beliefWork, 0);
  const ms = mine.reduce((s, c) => s + c.medianMs, 0);
  return {
    backend,
    views: mine.length,
    histories,
    work,
    beliefWork,
    ms,
    historiesPerSecond: histories / (ms / 1000),
    workPerSecond: work / (ms / 1000),
  };
});
loads.push(loadAvg());

// ---- 3. information-set counts per ply, both perspectives, two rule sets ----

interface PlySide {
  histories: number | null;
  historiesOutcome: Outcome;
  historiesMs: number;
  belief: number | null;
  beliefOutcome: Outcome;
  beliefMs: number;
}
interface PlyRow {
  ply: number;
  move: string;
  white: PlySide;
  black: PlySide;
}
const plyGames = readRecords('bench/data/belief-plies.kpgn');
const plyTables = plyGames.map((record) => {
  const { variant, overrides } = describeRules(record.rules);
  const rulesText = Object.keys(overrides).length
    ? `${variant} with ${Object.entries(overrides)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`
    : variant;
  const legal = record.events
    .filter((e) => e.type === 'attempt' && e.percept.answer === 'legal')
    .map((e) => (e as { attempt: string }).attempt);
  const rows: PlyRow[] = [];
  for (let ply = 1; ply <= Math.min(PLY_MAX, legal.length); ply++) {
    progress(`per ply: ${rulesText}, ply ${ply} …`);
    const position = cut(record, ply);
    const side = (as: Side): PlySide => {
      const view = viewOf(position, as);
      const h = informationSet(engines.wasm, view, false, { work: PLY_INFOSET_WORK });
      const b = estimateBelief(engines.wasm, view, 'bfs', { work: PLY_BELIEF_WORK, memoryBytes: 0 });
      return {
        histories: h.outcome === 'complete' ? h.count : null,
        historiesOutcome: h.outcome,
        historiesMs: h.ms,
        belief: b.outcome === 'complete' ? b.handles.length : null,
        beliefOutcome: b.outcome,
        beliefMs: b.ms,
      };
    };
    rows.push({ ply, move: legal[ply - 1], white: side('white'), black: side('black') });
  }
  return { event: record.tags.Event, seed: Number(record.tags.Seed), rules: rulesText, rows };
});
loads.push(loadAvg());

// ---- results ----

const m = machine();
const date = new Date().toISOString();
const mps = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : `${Math.round(n / 1e3)} k`);
const dfsWasm = total('dfs', 'wasm').positionsPerSecond;
const targetSpeed = dfsWasm >= 1e6;
const targetRatio = ratio('dfs') >= 1.5;
const outName = quick ? 'belief-quick' : 'belief'; // the quick smoke run is git-ignored and not in the README
writeJson(join(root, `bench/results/${outName}.json`), {
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date,
  quick,
  runs: RUNS,
  arena: ARENA,
  loadAverages: loads,
  games: games.length,
  views: cases.length,
  totals,
  ratios: Object.fromEntries(MODES.map((mode) => [mode, { total: ratio(mode), perView: viewRatios(mode) }])),
  target: { dfsWasmPositionsPerSecond: dfsWasm, met: targetSpeed, dfsWasmOverJs: ratio('dfs'), ratioMet: targetRatio },
  cells,
  infoset: {
    views: INFOSET_VIEWS,
    workLimit: INFOSET_WORK,
    screened: infosetScreened,
    totals: infosetTotals,
    cells: infosetCells,
  },
  perPly: { infosetWorkLimit: PLY_INFOSET_WORK, beliefWorkLimit: PLY_BELIEF_WORK, tables: plyTables },
});

const LIMIT_TEXT: Partial<Record<Outcome, string>> = { 'limit-work': 'limit', 'limit-positions': 'limit (layer)' };
const cellText = (value: number | null, outcome: Outcome) =>
  value !== null ? group(value) : (LIMIT_TEXT[outcome] ?? outcome);
const sortedSizes = [...sizes].sort((a, b) => a - b);
const md = [
  '### Belief-state estimation',
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${date}.`,
  '',
  `1-minute load average: ${loads.join(', ')} (at the start, after the estimation runs, after the information sets, at the end; 2 cores: above ~1, other work shared the machine).`,
  '',
  `The exact belief state of both colours' views of ${games.length} recorded berkeley random games (\`bench/data/belief-games.kpgn\`, made by \`bench/make-belief-games.ts\`: each game cut after ply ${Math.min(...games.map((g) => Number(g.tags.Plies)))}–${Math.max(...games.map((g) => Number(g.tags.Plies)))}, the last ply at which both views' beliefs stay within 250,000 positions and a fixed work budget), ${cases.length} views, beliefs of ${group(sortedSizes[0])} to ${group(sortedSizes[sortedSizes.length - 1])} positions (median ${group(Math.round(median(sizes)))}). Per view and estimator: median of ${RUNS} runs (backends and estimators interleaved) after a validation run; every run's belief is asserted identical (size and a checksum of the positions' Zobrist keys) across both estimators and both backends. Positions/s = consistent positions output (the belief size) per second of \`estimateBelief\` (engine arena ${group(ARENA)} positions); work = positions generated and tested, as each estimator counts it (the two estimators count differently: compare work/s within an estimator). Totals are sums over the views of the per-view medians.`,
  '',
  '| Estimator | Backend | Views | Positions | Work | Total (ms) | Positions/s | Work/s |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...totals.map(
    (t) =>
      `| ${MODE_NAME[t.mode]} | ${t.backend.toUpperCase()} | ${t.views} | ${group(t.positions)} | ${group(t.work)} | ${t.ms.toFixed(0)} | ${mps(t.positionsPerSecond)} | ${mps(t.workPerSecond)} |`,
  ),
  '',
  `WASM/JS (same views, this run): breadth-first ${ratio('bfs').toFixed(2)}×, depth-first ${ratio('dfs').toFixed(2)}× (per view, min / median / max: ${MODES.map(
    (mode) =>
      `${mode} ${viewRatios(mode)
        .map((r) => r.toFixed(2))
        .join(' / ')}`,
  ).join(
    '; ',
  )}). Depth-first takes ${(total('dfs', 'wasm').ms / total('bfs', 'wasm').ms).toFixed(2)}× the breadth-first time on WASM, ${(total('dfs', 'js').ms / total('bfs', 'js').ms).toFixed(2)}× on JS.`,
  '',
  `Target (issue): at least 1 M consistent positions/s streamed by the depth-first estimator in WASM, and WASM at least 1.5× JS. Measured: ${mps(dfsWasm)}/s (${targetSpeed ? 'met' : 'not met'}), ${ratio('dfs').toFixed(2)}× (${targetRatio ? 'met' : 'not met'}).`,
  '',
  'By belief size (positions/s, sums over the views in each range):',
  '',
  '| Belief size | Views | Breadth-first WASM | Breadth-first JS | Depth-first WASM | Depth-first JS |',
  '|---|---:|---:|---:|---:|---:|',
  ...BUCKETS.map((bucket) => {
    const sel = cells.filter((c) => c.positions >= bucket.lo && c.positions < bucket.hi);
    const views = sel.length / (MODES.length * BACKENDS.length);
    if (views === 0) return `| ${bucket.name} | 0 | — | — | — | — |`;
    return `| ${bucket.name} | ${views} | ${MODES.flatMap((mode) => BACKENDS.map((b) => mps(aggregate(sel, mode, b).positionsPerSecond))).join(' | ')} |`;
  }),
  '',
  `Information-set generation: every consistent history (move sequence of both players) counted by \`informationSet\`, on the first ${infosetCells.length / BACKENDS.length} views (in file order) whose count completes within ${group(INFOSET_WORK)} work units (${infosetScreened - infosetCells.length / BACKENDS.length} of the ${infosetScreened} views tried went over it: most of these beliefs come from millions of histories); median of ${RUNS} runs, counts asserted equal on both backends. Histories are counted with multiplicities (each position of a breadth-first layer carries the number of histories reaching it), so the work is asserted at most the breadth-first belief's on the same view ("Belief work").`,
  '',
  '| Backend | Views | Histories | Work | Belief work | Total (ms) | Histories/s | Work/s |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...infosetTotals.map(
    (t) =>
      `| ${t.backend.toUpperCase()} | ${t.views} | ${group(t.histories)} | ${group(t.work)} | ${group(t.beliefWork)} | ${t.ms.toFixed(0)} | ${mps(t.historiesPerSecond)} | ${mps(t.workPerSecond)} |`,
  ),
  '',
  `WASM/JS: ${(infosetTotals[1].ms / infosetTotals[0].ms).toFixed(2)}×.`,
  '',
  `#### Information-set counts per ply`,
  '',
  `One random game (seed ${plyTables[0]?.seed}, \`bench/data/belief-plies.kpgn\`) played under each rule set, cut after every ply; for each player's view: the number of consistent histories (\`informationSet\`, limit ${group(PLY_INFOSET_WORK)} work units) and the belief size (breadth-first \`estimateBelief\`, limit ${group(PLY_BELIEF_WORK)} work units or a layer over ${group(ARENA / 2)} positions); "limit" = the work limit was hit, "limit (layer)" = a breadth-first layer outgrew the arena. Time = one run on WASM, histories + belief, in ms. The view after ply n includes the announcements made right after move n (pawn tries before the next turn).`,
  ...plyTables.flatMap((t) => [
    '',
    `${t.rules}:`,
    '',
    '| Ply | Move | White: histories | White: belief | White: ms | Black: histories | Black: belief | Black: ms |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...t.rows.map(
      (r) =>
        `| ${r.ply} | ${r.move} | ${cellText(r.white.histories, r.white.historiesOutcome)} | ${cellText(r.white.belief, r.white.beliefOutcome)} | ${r.white.historiesMs.toFixed(0)} + ${r.white.beliefMs.toFixed(0)} | ${cellText(r.black.histories, r.black.historiesOutcome)} | ${cellText(r.black.belief, r.black.beliefOutcome)} | ${r.black.historiesMs.toFixed(0)} + ${r.black.beliefMs.toFixed(0)} |`,
    ),
  ]),
].join('\n');
writeText(join(root, `bench/results/${outName}.md`), md);
console.log(md);
progress(`belief: done (${seconds(performance.now())})`);

// Perft benchmark: krieg (WASM and JS backends) against chessops and chess.js.
//
//   npm run bench:perft     full run (~10 min), writes bench/results/perft.{json,md}; the npm script
//                           then copies perft.md into README.md (scripts/update-readme.mjs)
//   node scripts/run-ts.mjs bench/perft.ts --quick     smoke check (budget 0.5 s, 3 runs, ~1 min),
//                           writes bench/results/perft-quick.{json,md} (git-ignored, not in README)
//   BENCH_QUICK=1 npm run bench:perft                  the same through npm (npm would hand
//                           `-- --quick` to the README step, not to this script)
//   --budget=SECONDS        per-run time budget (default 20, quick 0.5); BENCH_BUDGET=SECONDS likewise
//   --render                rewrite perft.md (or perft-quick.md) from its JSON without measuring
//
// Workloads: start position depth 5 and 6, Kiwipete depth 5, each with bulk counting (leaf moves
// counted, not played) and without (every leaf move played). Every (engine, workload, bulk) cell
// runs in its own fresh Node process, so no JIT state carries over between cells. In it, probe runs at rising depth
// estimate the time per run; the cell runs at the largest depth from its target down to its
// minimum whose estimate fits the budget, else it is recorded as skipped with the estimate. Then
// one warm-up run and the measured runs (5 when a run is estimated under 5 s, else 3); the median
// gives nodes/s. Every run's node count (probes included) is checked against the published counts;
// a mismatch aborts with exit code 1.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import os from 'node:os';
import { Chess } from 'chess.js';
import { Chess as ChessopsChess, type Position } from 'chessops/chess';
import { parseFen as chessopsParseFen } from 'chessops/fen';
import { perft as chessopsPerft } from 'chessops/debug';
import { squareRank } from 'chessops/util';
import type { Role } from 'chessops/types';
import { createEngine } from '../host/node';
import {
  repoRoot,
  machine,
  describeMachine,
  gitState,
  median,
  timed,
  progress,
  writeJson,
  writeText,
  group,
  seconds,
} from './lib/harness';

// ---------------------------------------------------------------------------------------------
// Options

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const budgetArg = argv.find((a) => a.startsWith('--budget='))?.slice('--budget='.length) ?? process.env.BENCH_BUDGET;
const BUDGET_MS = (budgetArg !== undefined ? Number(budgetArg) : QUICK ? 0.5 : 20) * 1000;
if (!(BUDGET_MS > 0)) {
  progress(`bad budget ${budgetArg}`);
  process.exit(2);
}
for (const a of argv) {
  if (a !== '--quick' && a !== '--render' && !a.startsWith('--budget=') && !a.startsWith('--cell=')) {
    progress(
      `unknown argument ${a}; usage: node scripts/run-ts.mjs bench/perft.ts [--quick] [--budget=SECONDS] [--render]`,
    );
    process.exit(2);
  }
}
/** Probing stops once a probe takes this long, or the next probe depth is estimated above PROBE_CAP_MS. */
const PROBE_MS = QUICK ? 50 : 250;
const PROBE_CAP_MS = Math.min(BUDGET_MS, QUICK ? 500 : 3000);
const WARMUP_RUNS = 1;
/** Internal: the index of the one cell a child process runs (see main). */
const cellArg = argv.find((a) => a.startsWith('--cell='));
const runsFor = (estMs: number) => (QUICK ? 3 : estMs <= 5000 ? 5 : 3);

const ROOT = repoRoot();
/** What the figures depend on: "dirty" in the results means one of these differs from the commit. */
const MEASURED_PATHS = [
  'assembly',
  'host',
  'asconfig.json',
  'scripts/build.mjs',
  'package.json',
  'package-lock.json',
  'bench',
];
const OUT = join(ROOT, 'bench', 'results', QUICK ? 'perft-quick' : 'perft');

// ---------------------------------------------------------------------------------------------
// Positions and their known counts

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KIWIPETE_FEN = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';

/** Published counts stated independently of the data file; the file must agree. */
const PUBLISHED: Record<string, Record<number, number>> = {
  start: { 5: 4_865_609, 6: 119_060_324 },
  kiwipete: { 4: 4_085_603, 5: 193_690_690 },
};

class BenchAbort extends Error {}

/** counts[d] = perft(d), counts[0] = 1, from test/data/perftsuite.epd lines 1–2 ("FEN;d1;d2;…"). */
function loadCounts(): Record<string, { fen: string; counts: number[] }> {
  const lines = readFileSync(join(ROOT, 'test', 'data', 'perftsuite.epd'), 'utf8').split('\n');
  const parse = (line: string) => {
    const [fen, ...counts] = line.split(';');
    return { fen: fen.trim(), counts: [1, ...counts.map((c) => Number(c.trim()))] };
  };
  const out = { start: parse(lines[0]), kiwipete: parse(lines[1]) };
  if (out.start.fen !== START_FEN || out.kiwipete.fen !== KIWIPETE_FEN) {
    throw new BenchAbort('test/data/perftsuite.epd lines 1–2 are not the start position and Kiwipete');
  }
  for (const [name, byDepth] of Object.entries(PUBLISHED)) {
    for (const [depth, nodes] of Object.entries(byDepth)) {
      const got = out[name as keyof typeof out].counts[Number(depth)];
      if (got !== nodes) throw new BenchAbort(`perftsuite.epd ${name} d${depth} = ${got}, published ${nodes}`);
    }
  }
  return out;
}

interface Workload {
  id: string;
  label: string;
  position: 'start' | 'kiwipete';
  depth: number;
  minDepth: number;
}

const WORKLOADS: Workload[] = [
  { id: 'start-d5', label: 'start d5', position: 'start', depth: 5, minDepth: 3 },
  // No fallback: the start position at depth 5 is its own workload.
  { id: 'start-d6', label: 'start d6', position: 'start', depth: 6, minDepth: 6 },
  { id: 'kiwipete-d5', label: 'Kiwipete d5', position: 'kiwipete', depth: 5, minDepth: 3 },
];

// ---------------------------------------------------------------------------------------------
// Engines

interface Runner {
  perft(depth: number, bulk: boolean): number;
}
interface EngineDef {
  id: string;
  label: string;
  version: string;
  method: { bulk: string; full: string };
  prepare(fen: string): Runner;
}

/** Version from package.json of a dependency, or of krieg itself when name is omitted. */
function packageVersion(name?: string): string {
  const path = name ? join(ROOT, 'node_modules', name, 'package.json') : join(ROOT, 'package.json');
  return JSON.parse(readFileSync(path, 'utf8')).version;
}

function kriegEngine(backend: 'wasm' | 'js'): EngineDef {
  let engine: ReturnType<typeof createEngine> | undefined; // created in the cell's own process
  return {
    id: `krieg-${backend}`,
    label: `krieg ${backend === 'wasm' ? 'WASM' : 'JS'}`,
    version: packageVersion(),
    method: {
      bulk: 'Engine.perft(handle, depth, true): leaf moves generated and counted',
      full: 'Engine.perft(handle, depth, false): every leaf move made',
    },
    prepare(fen) {
      const e = (engine ??= createEngine(backend));
      e.setFen(0, fen);
      return { perft: (depth, bulk) => e.perft(0, depth, bulk) };
    },
  };
}

const PROMOTIONS: readonly (Role | undefined)[] = ['queen', 'knight', 'rook', 'bishop'];
const NO_PROMOTION: readonly (Role | undefined)[] = [undefined];

/** chessops' own perft (chessops/debug) without its leaf shortcut: every move played down to depth 0. */
function chessopsPerftFull(pos: Position, depth: number): number {
  if (depth < 1) return 1;
  let nodes = 0;
  const promotionRank = pos.turn === 'white' ? 6 : 1;
  for (const [from, dests] of pos.allDests(pos.ctx())) {
    const promotions = squareRank(from) === promotionRank && pos.board.pawn.has(from) ? PROMOTIONS : NO_PROMOTION;
    for (const to of dests) {
      for (const promotion of promotions) {
        const child = pos.clone();
        child.play({ from, to, promotion });
        nodes += chessopsPerftFull(child, depth - 1);
      }
    }
  }
  return nodes;
}

const chessopsEngine: EngineDef = {
  id: 'chessops',
  label: 'chessops',
  version: packageVersion('chessops'),
  method: {
    bulk: "perft() of chessops/debug (counts the last ply's destinations without playing them)",
    full: 'same recursion over pos.allDests()/clone()/play() without the leaf shortcut',
  },
  prepare(fen) {
    const pos = ChessopsChess.fromSetup(chessopsParseFen(fen).unwrap()).unwrap();
    return { perft: (depth, bulk) => (bulk ? chessopsPerft(pos, depth) : chessopsPerftFull(pos, depth)) };
  },
};

function chessJsPerft(chess: Chess, depth: number, bulk: boolean): number {
  if (depth === 0) return 1;
  const moves = chess.moves();
  if (bulk && depth === 1) return moves.length;
  let nodes = 0;
  for (const move of moves) {
    chess.move(move);
    nodes += chessJsPerft(chess, depth - 1, bulk);
    chess.undo();
  }
  return nodes;
}

const chessJsEngine: EngineDef = {
  id: 'chess.js',
  label: 'chess.js',
  version: packageVersion('chess.js'),
  method: {
    bulk: 'moves()/move(san)/undo() recursion, moves().length at depth 1',
    full: 'moves()/move(san)/undo() recursion down to depth 0',
  },
  prepare(fen) {
    const chess = new Chess(fen);
    return { perft: (depth, bulk) => chessJsPerft(chess, depth, bulk) };
  },
};

/**
 * The WASM the krieg WASM backend loads: its hash, and whether it is older than some assembly/
 * source (then it does not measure the sources at this commit: run `npm run build`).
 */
function wasmInfo(): { sha256: string; builtAt: string; olderThanSources: boolean } {
  const path = join(ROOT, 'build', 'krieg.wasm');
  const built = statSync(path).mtimeMs;
  const newestSource = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
      const full = join(dir, entry.name);
      return Math.max(latest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
    }, 0);
  return {
    sha256: createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16),
    builtAt: new Date(built).toISOString(),
    olderThanSources: built < newestSource(join(ROOT, 'assembly')),
  };
}

// ---------------------------------------------------------------------------------------------
// Cells

interface Cell {
  engine: string;
  engineLabel: string;
  workload: string;
  workloadLabel: string;
  fen: string;
  targetDepth: number;
  bulk: boolean;
  status: 'ok' | 'skipped';
  depth: number | null;
  nodes: number | null;
  warmupMs: number | null;
  runsMs: number[];
  medianMs: number | null;
  nodesPerSec: number | null;
  /** Estimated ms per run at the depth run (ok) or at the target depth (skipped), from the probes. */
  estMs: number;
  /** (slowest − fastest run) / median. */
  spread: number | null;
  /** 1-minute load average when the cell's process started (other work on the machine). */
  loadAvg: number;
  /** Spreads of earlier attempts of this cell, when a noisy attempt was re-run. */
  retriedSpreads?: number[];
  note?: string;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

function runCell(
  engine: EngineDef,
  workload: Workload,
  bulk: boolean,
  known: { fen: string; counts: number[] },
  tag: string,
): Cell {
  const { fen, counts } = known;
  const mode = bulk ? 'bulk' : 'non-bulk';
  const name = `${tag} ${engine.label} · ${workload.label} · ${mode}`;
  const loadAvg = Math.round(os.loadavg()[0] * 100) / 100;
  const runner = engine.prepare(fen);
  const run = (depth: number, what: string) => {
    const { value, ms } = timed(() => runner.perft(depth, bulk));
    if (value !== counts[depth]) {
      throw new BenchAbort(
        `${engine.label} ${workload.label} ${mode}: perft(${depth}) = ${value}, expected ${counts[depth]} (${what})`,
      );
    }
    return ms;
  };
  // Work of one run ~ positions whose moves are generated (bulk) or made (non-bulk).
  const work = (depth: number) => counts.slice(0, bulk ? depth : depth + 1).reduce((a, b) => a + b, 0);

  // Probe at rising depth until a probe is long enough to extrapolate from.
  let probeDepth = 1;
  let probeMs = run(1, 'probe');
  while (probeDepth < workload.depth && probeMs < PROBE_MS) {
    const next = probeDepth + 1;
    if ((probeMs * work(next)) / work(probeDepth) > PROBE_CAP_MS) break;
    probeDepth = next;
    probeMs = run(next, 'probe');
  }
  // Each process starts cold: repeat the last probe (at least 3 times and PROBE_MS in all, at most
  // 20 times) and keep the fastest, so the estimate reflects optimised code.
  for (let i = 0, spent = 0; i < 20 && (i < 3 || spent < PROBE_MS); i++) {
    const ms = run(probeDepth, 'probe');
    spent += ms;
    probeMs = Math.min(probeMs, ms);
  }
  const estimate = (depth: number) => (probeMs * work(depth)) / work(probeDepth);

  let depth = workload.depth;
  while (depth > workload.minDepth && estimate(depth) > BUDGET_MS) depth--;
  const base = {
    engine: engine.id,
    engineLabel: engine.label,
    workload: workload.id,
    workloadLabel: workload.label,
    fen,
    targetDepth: workload.depth,
    bulk,
  };
  if (estimate(depth) > BUDGET_MS) {
    const estMs = estimate(workload.depth);
    const note =
      `skipped: too slow, est. ${seconds(estMs)} per run at d${workload.depth}` +
      (depth !== workload.depth ? `, ${seconds(estimate(depth))} at d${depth}` : '') +
      ` (budget ${seconds(BUDGET_MS)})`;
    progress(`${name}: ${note}`);
    return {
      ...base,
      status: 'skipped',
      depth: null,
      nodes: null,
      warmupMs: null,
      runsMs: [],
      medianMs: null,
      nodesPerSec: null,
      estMs: round(estMs),
      spread: null,
      loadAvg,
      note,
    };
  }

  const estMs = estimate(depth);
  const runs = runsFor(estMs);
  progress(
    `${name}: d${depth}${depth !== workload.depth ? ` (target d${workload.depth} est. ${seconds(estimate(workload.depth))})` : ''}, est. ${seconds(estMs)}/run, ${WARMUP_RUNS} warm-up + ${runs} runs`,
  );
  let warmupMs = 0;
  for (let i = 0; i < WARMUP_RUNS; i++) warmupMs = run(depth, 'warm-up');
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) runsMs.push(run(depth, `run ${i + 1}`));
  const medianMs = median(runsMs);
  const nodesPerSec = Math.round((counts[depth] / medianMs) * 1000);
  const spreadPct = ((Math.max(...runsMs) - Math.min(...runsMs)) / medianMs) * 100;
  progress(
    `${name}: median ${medianMs.toFixed(1)} ms of [${runsMs.map((ms) => ms.toFixed(1)).join(', ')}] (spread ${spreadPct.toFixed(1)}%, load ${loadAvg}) → ${rate(nodesPerSec)}`,
  );
  return {
    ...base,
    status: 'ok',
    depth,
    nodes: counts[depth],
    warmupMs: round(warmupMs),
    runsMs: runsMs.map(round),
    medianMs: round(medianMs),
    nodesPerSec,
    estMs: round(estMs),
    spread: Math.round(((Math.max(...runsMs) - Math.min(...runsMs)) / medianMs) * 1000) / 1000,
    loadAvg,
    ...(depth !== workload.depth
      ? {
          note: `depth ${depth}: d${workload.depth} est. ${seconds(estimate(workload.depth))} per run (budget ${seconds(BUDGET_MS)})`,
        }
      : {}),
  };
}

function rate(nodesPerSec: number): string {
  if (nodesPerSec >= 1e6) return `${(nodesPerSec / 1e6).toFixed(2)} M/s`;
  return `${(nodesPerSec / 1e3).toFixed(1)} k/s`;
}

// ---------------------------------------------------------------------------------------------
// Ratios and report

const RATIO_PREFERENCE = ['start-d6', 'start-d5', 'kiwipete-d5'];

interface Ratio {
  numerator: string;
  denominator: string;
  bulk: boolean;
  workload: string | null;
  depth: number | null;
  ratio: number | null;
}

function ratio(cells: Cell[], numerator: string, denominator: string, bulk: boolean): Ratio {
  for (const workload of RATIO_PREFERENCE) {
    const a = cells.find((c) => c.engine === numerator && c.workload === workload && c.bulk === bulk);
    const b = cells.find((c) => c.engine === denominator && c.workload === workload && c.bulk === bulk);
    if (a?.status === 'ok' && b?.status === 'ok' && a.depth === b.depth && a.nodesPerSec && b.nodesPerSec) {
      return {
        numerator,
        denominator,
        bulk,
        workload,
        depth: a.depth,
        ratio: Math.round((a.nodesPerSec / b.nodesPerSec) * 100) / 100,
      };
    }
  }
  return { numerator, denominator, bulk, workload: null, depth: null, ratio: null };
}

function ratioText(r: Ratio): string {
  if (r.ratio === null) return 'n/a (no common depth)';
  const pos = r.workload!.startsWith('start') ? 'start' : 'Kiwipete';
  return `${r.ratio.toFixed(2)}× (${pos} d${r.depth})`;
}

function loadRange(report: Report): string {
  const loads = report.cells.map((c) => c.loadAvg);
  return `${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`;
}

function markdown(report: Report): string {
  const head = '| Engine | Workload | Mode | Depth | Nodes | Runs (ms) | Median (ms) | Spread | Nodes/s |';
  const rule = '|---|---|---|---:|---:|---|---:|---:|---:|';
  const rows = report.cells.map((c) => {
    const mode = c.bulk ? 'bulk' : 'non-bulk';
    if (c.status === 'skipped')
      return `| ${c.engineLabel} | ${c.workloadLabel} | ${mode} | — | — | ${c.note} | — | — | — |`;
    const depth = c.depth === c.targetDepth ? `${c.depth}` : `${c.depth} (target ${c.targetDepth})`;
    return `| ${c.engineLabel} | ${c.workloadLabel} | ${mode} | ${depth} | ${group(c.nodes!)} | ${c.runsMs.map((ms) => ms.toFixed(1)).join(', ')} | ${c.medianMs!.toFixed(1)} | ${(c.spread! * 100).toFixed(1)}%${c.retriedSpreads ? '*' : ''} | ${rate(c.nodesPerSec!)} |`;
  });
  const [wjBulk, wjFull, jcBulk, jcFull] = report.ratios;
  const lines = [
    `### Perft${report.mode === 'quick' ? ' (quick smoke check — not for comparison)' : ''}`,
    '',
    `Machine: ${describeMachine(report.machine)}; commit ${report.commit}${report.dirty ? ' + uncommitted changes' : ''}` +
      `${report.wasm.olderThanSources ? ' (build/krieg.wasm older than its sources)' : ''}; ${report.date}.`,
    '',
    `1-minute load average when each cell started: ${loadRange(report)} on ${report.machine.cores} cores ` +
      "(above ~1, other work shared the machine; see each cell's spread).",
    '',
    `Median of ${report.settings.runs} runs after ${report.settings.warmupRuns} warm-up run; per-run budget ${seconds(report.settings.budgetMs)}: ` +
      'a workload too slow for it runs at a lower depth (shown) or is skipped with its estimate. ' +
      'Each cell runs in a fresh Node process. Spread = (slowest − fastest run) / median; ' +
      `a cell over ${NOISY * 100}% is run once more and the steadier attempt kept (marked *). ` +
      "Bulk counts the last ply's moves without playing them; non-bulk plays every leaf move. " +
      "Every run's node count is checked against the published counts.",
    '',
    head,
    rule,
    ...rows,
    '',
    `Ratios (nodes/s, this run): WASM/JS bulk ${ratioText(wjBulk)}, non-bulk ${ratioText(wjFull)}; ` +
      `JS/chessops bulk ${ratioText(jcBulk)}, non-bulk ${ratioText(jcFull)}.`,
    '',
    ...report.engines.map((e) => `- ${e.label} ${e.version}: bulk = ${e.method.bulk}; non-bulk = ${e.method.full}.`),
  ];
  return lines.join('\n');
}

interface Report {
  mode: 'full' | 'quick';
  /** When the run started (commit, dirty and wasm are read then). */
  date: string;
  durationS: number;
  commit: string;
  dirty: boolean;
  wasm: ReturnType<typeof wasmInfo>;
  machine: ReturnType<typeof machine>;
  settings: {
    budgetMs: number;
    warmupRuns: number;
    runs: string;
    probeMs: number;
    isolation: string;
    retryWhenSpreadOver: number;
  };
  engines: { id: string; label: string; version: string; method: { bulk: string; full: string } }[];
  cells: Cell[];
  ratios: Ratio[];
}

const ENGINES = [kriegEngine('wasm'), kriegEngine('js'), chessopsEngine, chessJsEngine];
const CELLS = ENGINES.flatMap((engine) =>
  WORKLOADS.flatMap((workload) => [true, false].map((bulk) => ({ engine, workload, bulk }))),
);

/** Child process: runs one cell and prints it as JSON on stdout (progress goes to stderr). */
function cellMain(index: number): void {
  const spec = CELLS[index];
  if (!spec) throw new Error(`no cell ${index}`);
  const pinned = process.env.BENCH_WASM_SHA256;
  if (spec.engine.id === 'krieg-wasm' && pinned && wasmInfo().sha256 !== pinned) {
    throw new BenchAbort(`build/krieg.wasm changed during the run (sha256 ${wasmInfo().sha256}, was ${pinned})`);
  }
  const cell = runCell(
    spec.engine,
    spec.workload,
    spec.bulk,
    loadCounts()[spec.workload.position],
    `[${index + 1}/${CELLS.length}]`,
  );
  process.stdout.write(`${JSON.stringify(cell)}\n`);
}

const NOISY = 0.15;

function runCellProcess(index: number, wasmSha256: string): Cell {
  const child = spawnSync(
    process.execPath,
    [process.argv[1], ...argv.filter((a) => !a.startsWith('--cell=')), `--cell=${index}`],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      maxBuffer: 1 << 20,
      env: { ...process.env, BENCH_WASM_SHA256: wasmSha256 },
    },
  );
  if (child.status !== 0) throw new BenchAbort(`cell ${index + 1} failed (exit ${child.status ?? child.signal})`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as Cell;
}

/**
 * Every cell runs in a fresh Node process (this bundle with --cell=N), so no cell inherits the JIT
 * state (type feedback, inlining, GC heap) that earlier workloads left in a JS engine.
 */
function main(): void {
  const date = new Date().toISOString();
  loadCounts(); // aborts before any child starts if the data file disagrees with the published counts
  const { commit, dirty } = gitState(ROOT, MEASURED_PATHS);
  const wasm = wasmInfo();
  if (wasm.olderThanSources)
    progress('warning: build/krieg.wasm is older than assembly/ sources (run `npm run build`)');
  const started = performance.now();
  progress(
    `perft bench (${QUICK ? 'quick' : 'full'}), per-run budget ${seconds(BUDGET_MS)}, commit ${commit}${dirty ? ' (dirty)' : ''}`,
  );
  progress(describeMachine(machine()));

  const cells: Cell[] = [];
  for (let index = 0; index < CELLS.length; index++) {
    let cell = runCellProcess(index, wasm.sha256);
    // The machine may be shared: a cell whose runs disagree by more than NOISY is run once more (in a
    // new process) and the attempt with the smaller spread is kept; the table marks such cells.
    if (cell.spread !== null && cell.spread > NOISY) {
      progress(
        `[${index + 1}/${CELLS.length}] spread ${(cell.spread * 100).toFixed(1)}% > ${NOISY * 100}%: running the cell again`,
      );
      const again = runCellProcess(index, wasm.sha256);
      const [kept, dropped] = again.spread !== null && again.spread < cell.spread ? [again, cell] : [cell, again];
      cell = { ...kept, retriedSpreads: [dropped.spread!] };
    }
    cells.push(cell);
  }

  const report: Report = {
    mode: QUICK ? 'quick' : 'full',
    date,
    durationS: Math.round((performance.now() - started) / 1000),
    commit,
    dirty,
    wasm,
    machine: machine(),
    settings: {
      budgetMs: BUDGET_MS,
      warmupRuns: WARMUP_RUNS,
      runs: QUICK ? '3' : '5 (3 when a run is estimated over 5 s)',
      probeMs: PROBE_MS,
      isolation: 'each cell in a fresh Node process',
      retryWhenSpreadOver: NOISY,
    },
    engines: ENGINES.map(({ id, label, version, method }) => ({ id, label, version, method })),
    cells,
    ratios: [
      ratio(cells, 'krieg-wasm', 'krieg-js', true),
      ratio(cells, 'krieg-wasm', 'krieg-js', false),
      ratio(cells, 'krieg-js', 'chessops', true),
      ratio(cells, 'krieg-js', 'chessops', false),
    ],
  };
  const md = markdown(report);
  writeJson(`${OUT}.json`, report);
  writeText(`${OUT}.md`, md);
  progress(`done in ${seconds(performance.now() - started)}; wrote ${OUT}.json and ${OUT}.md`);
  process.stdout.write(`${md}\n`);
}

/** --render: rewrites the Markdown from the results JSON, measuring nothing. */
function renderMain(): void {
  const report = JSON.parse(readFileSync(`${OUT}.json`, 'utf8')) as Report;
  const md = markdown(report);
  writeText(`${OUT}.md`, md);
  progress(`wrote ${OUT}.md from ${OUT}.json`);
  process.stdout.write(`${md}\n`);
}

try {
  if (cellArg) cellMain(Number(cellArg.slice('--cell='.length)));
  else if (argv.includes('--render')) renderMain();
  else main();
} catch (error) {
  progress(error instanceof BenchAbort ? `ABORT: ${error.message}` : String((error as Error)?.stack ?? error));
  process.exit(1);
}

// Evaluate-board speed (assembly/players/search.ts, issue 14): the players' fully observable
// alpha-beta search, nodes per second on WASM and on JS in one run, on identical work (every
// run's values, moves and node counts are asserted equal across backends); and choose-move
// (choose.ts) over the positions of sampled belief states, as the sampling players run it.
// Usage: npm run bench:evaluate [-- --quick]
import { join } from 'node:path';
import { createEngine, BACKENDS, type BackendName } from '../host/node';
import type { Engine } from '../host/engine';
import { randomGame } from '../host/referee/game';
import { viewOf } from '../host/record/record';
import { sampleBelief } from '../host/belief/estimate';
import { searchPosition, resetSearch, ChooseRun, stackRecords } from '../host/core/players';
import {
  describeMachine,
  gitState,
  group,
  machine,
  median,
  progress,
  repoRoot,
  timed,
  writeJson,
  writeText,
} from './lib/harness';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 3 : 5;
const DEPTH = quick ? 5 : 6;
const TABLE_BITS = 18;

/** Searched positions: the initial position, perft-suite positions (middlegames, endgames). */
const POSITIONS: { name: string; fen: string }[] = [
  { name: 'initial', fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' },
  { name: 'kiwipete', fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' },
  { name: 'perft 3 (endgame)', fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' },
  { name: 'perft 4 (middlegame)', fen: 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1' },
  { name: 'perft 5', fen: 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8' },
  {
    name: 'perft 6 (quiet middlegame)',
    fen: 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
  },
];

interface SearchCell {
  backend: BackendName;
  nodes: number;
  runsMs: number[];
  medianMs: number;
  answers: string;
}

function searchCell(backend: BackendName): SearchCell {
  const engine = createEngine(backend, 1024);
  const run = () => {
    resetSearch(engine, TABLE_BITS);
    let nodes = 0;
    const answers: string[] = [];
    for (const p of POSITIONS) {
      engine.setFen(0, p.fen);
      const r = searchPosition(engine, 0, { depth: DEPTH });
      nodes += r.nodes;
      answers.push(`${r.uci} ${r.value} ${r.nodes}`);
    }
    return { nodes, answers: answers.join('; ') };
  };
  const first = run(); // warm-up, and the work
  const runsMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = timed(run);
    if (t.value.answers !== first.answers) throw new Error(`${backend}: a repeated search differs`);
    runsMs.push(t.ms);
  }
  return { backend, nodes: first.nodes, runsMs, medianMs: median(runsMs), answers: first.answers };
}

/** Belief samples of random games' views (seeded): positions as the sampling players evaluate them. */
function beliefSamples(engine: Engine): { fens: string[][] } {
  const referee = createEngine('wasm', 16);
  const fens: string[][] = [];
  for (let seed = 1; fens.length < (quick ? 3 : 6); seed++) {
    const record = randomGame(referee, seed, { maxPlies: 12 + (seed % 4) * 2 });
    const sample = sampleBelief(
      engine,
      viewOf(
        record,
        record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length % 2
          ? 'black'
          : 'white',
      ),
      16,
      seed,
      { work: 2_000_000 },
    );
    if (sample.handles.length >= 8) fens.push(sample.handles.map((h) => engine.fen(h)));
  }
  return { fens };
}

interface ChooseCell {
  backend: BackendName;
  positions: number;
  nodes: number;
  runsMs: number[];
  medianMs: number;
  answers: string;
}

function chooseCell(backend: BackendName, sets: string[][], depth: number, perSearch: number): ChooseCell {
  const engine = createEngine(backend, 1024);
  const stack = engine.capacity - stackRecords(engine);
  const run = () => {
    resetSearch(engine, TABLE_BITS);
    let nodes = 0;
    const answers: string[] = [];
    for (const set of sets) {
      set.forEach((fen, i) => engine.setFen(16 + i, fen));
      const choose = new ChooseRun(engine, 16, { depth, nodes: perSearch }, stack);
      choose.add(set.map((_, i) => 16 + i));
      nodes += choose.nodes;
      const best = choose
        .rows()
        .filter((r) => r.legal)
        .sort((a, b) => b.mean - a.mean)[0];
      answers.push(`${best.attempt} ${best.sum} ${choose.nodes}`);
    }
    return { nodes, answers: answers.join('; ') };
  };
  const first = run();
  const runsMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = timed(run);
    if (t.value.answers !== first.answers) throw new Error(`${backend}: a repeated choose-move differs`);
    runsMs.push(t.ms);
  }
  return {
    backend,
    positions: sets.reduce((n, s) => n + s.length, 0),
    nodes: first.nodes,
    runsMs,
    medianMs: median(runsMs),
    answers: first.answers,
  };
}

const root = repoRoot();
const searches: SearchCell[] = [];
for (const backend of BACKENDS) {
  progress(`evaluate: search to depth ${DEPTH} on ${backend} …`);
  searches.push(searchCell(backend));
}
if (searches[0].answers !== searches[1].answers) {
  console.error(`WASM and JS searches differ:\n${searches[0].answers}\n${searches[1].answers}`);
  process.exit(1);
}

const sets = beliefSamples(createEngine('wasm', 1 << 17)).fens;
const CHOOSE = [
  { depth: 1, perSearch: 2000 },
  { depth: 2, perSearch: 2000 },
];
const chooses: (ChooseCell & { depth: number; perSearch: number })[] = [];
for (const c of CHOOSE) {
  for (const backend of BACKENDS) {
    progress(`evaluate: choose-move depth ${c.depth} on ${backend} …`);
    chooses.push({ ...chooseCell(backend, sets, c.depth, c.perSearch), ...c });
  }
  const [w, j] = chooses.slice(-2);
  if (w.answers !== j.answers) {
    console.error(`WASM and JS choose-move differ at depth ${c.depth}`);
    process.exit(1);
  }
}

const m = machine();
const git = gitState(root, ['assembly', 'host']);
const rate = (nodes: number, ms: number) => nodes / (ms / 1000);
const fmt = (r: number) => (r >= 1e6 ? `${(r / 1e6).toFixed(2)} M/s` : `${(r / 1e3).toFixed(0)} k/s`);
const name = quick ? 'evaluate-quick' : 'evaluate';
writeJson(join(root, `bench/results/${name}.json`), {
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date: new Date().toISOString(),
  runs: RUNS,
  depth: DEPTH,
  tableBits: TABLE_BITS,
  positions: POSITIONS,
  searches,
  choose: { sets: sets.length, cells: chooses },
});
const sw = searches[0];
const sj = searches[1];
const md = [
  "### Evaluate-board (the players' alpha-beta search)",
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `Search: ${POSITIONS.length} positions (${POSITIONS.map((p) => p.name).join(', ')}), each searched to depth ${DEPTH} (iterative deepening, quiescence, a table of 2^${TABLE_BITS} entries cleared before each run); median of ${RUNS} runs after a warm-up. Both backends search exactly the same nodes (values, moves and node counts asserted equal).`,
  '',
  '| Backend | Nodes | Runs (ms) | Median (ms) | Nodes/s |',
  '|---|---:|---|---:|---:|',
  ...searches.map(
    (c) =>
      `| ${c.backend.toUpperCase()} | ${group(c.nodes)} | ${c.runsMs.map((x) => x.toFixed(0)).join(', ')} | ${c.medianMs.toFixed(0)} | ${fmt(rate(c.nodes, c.medianMs))} |`,
  ),
  '',
  `WASM/JS (this run): ${(sj.medianMs / sw.medianMs).toFixed(2)}×.`,
  '',
  `Choose-move: ${sets.length} belief samples of 8–16 positions (seeded depth-first samples of random games' views 12–18 plies in), every legal move of every position searched to the given depth within 2,000 nodes; median of ${RUNS} runs.`,
  '',
  '| Depth | Backend | Positions | Nodes | Median (ms) | Nodes/s | ms per position |',
  '|---:|---|---:|---:|---:|---:|---:|',
  ...chooses.map(
    (c) =>
      `| ${c.depth} | ${c.backend.toUpperCase()} | ${c.positions} | ${group(c.nodes)} | ${c.medianMs.toFixed(0)} | ${fmt(rate(c.nodes, c.medianMs))} | ${(c.medianMs / c.positions).toFixed(2)} |`,
  ),
  '',
  `WASM/JS (this run): ${CHOOSE.map((c, i) => `depth ${c.depth} ${(chooses[2 * i + 1].medianMs / chooses[2 * i].medianMs).toFixed(2)}×`).join(', ')}.`,
].join('\n');
writeText(join(root, `bench/results/${name}.md`), md);
console.log(md);

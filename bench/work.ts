// Work counts, not times: the node and position counts the benchmarks assert, computed once on WASM
// and compared with what the last full benchmark runs wrote to bench/results/*.json. A refactoring
// of the core or of its host drivers must leave every count unchanged; this checks it in about a
// minute, where the benchmarks themselves take half an hour. (The JS backend does the same work:
// the tests assert it problem by problem.)
// Usage: npm run bench:work   (exit 1 on any difference)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../host/node';
import { parseKpgnGames } from '../host/notation/kpgn';
import { viewOf, SIDES, type GameRecord } from '../host/record/record';
import { estimateBelief, informationSet } from '../host/belief/estimate';
import { parseProblems } from '../host/solver/problemFile';
import { solve, ALGORITHMS } from '../host/solver/solve';
import { PRESET_NAMES, preset } from '../host/record/rules';
import { randomGame } from '../host/referee/game';
import { progress, repoRoot } from './lib/harness';

const root = repoRoot();
const results = (name: string) => JSON.parse(readFileSync(join(root, `bench/results/${name}.json`), 'utf8'));
const differences: string[] = [];
function compare(what: string, actual: unknown, expected: unknown): void {
  const same = JSON.stringify(actual) === JSON.stringify(expected);
  if (!same) differences.push(`${what}: ${JSON.stringify(actual)}, the results file says ${JSON.stringify(expected)}`);
  console.log(`${same ? 'same' : 'DIFFERENT'}  ${what}: ${JSON.stringify(actual)}`);
}

// perft: the published counts
const engine = createEngine('wasm', 1 << 20);
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
for (const [fen, depth, nodes] of [
  ['startpos', 5, 4_865_609],
  [KIWIPETE, 4, 4_085_603],
] as const) {
  engine.setFen(0, fen);
  compare(
    `perft ${fen === 'startpos' ? 'start' : 'Kiwipete'} d${depth} (bulk, non-bulk)`,
    [engine.perft(0, depth, true), engine.perft(0, depth, false)],
    [nodes, nodes],
  );
}

// referee: the plies of the benchmark's random games (bench/referee.ts), 300 seeds per preset
progress('referee …');
const referee = results('referee');
for (const variant of PRESET_NAMES) {
  engine.setRules(preset(variant));
  let plies = 0;
  for (let seed = 1; seed <= 300; seed++)
    plies += randomGame(engine, seed, { maxPlies: 400 }).events.filter(
      (e) => e.type === 'attempt' && e.percept.answer === 'legal',
    ).length;
  const expected = referee.rows.find(
    (r: { variant: string; backend: string }) => r.variant === variant && r.backend === 'wasm',
  );
  compare(`referee ${variant}: plies of 300 games`, plies, expected.work.plies);
}

// state estimation: the belief benchmark's views, both estimators
progress('belief …');
const belief = results('belief');
const records = parseKpgnGames(readFileSync(join(root, 'bench/data/belief-games.kpgn'), 'utf8'))
  .map((g) => (g.kind === 'record' ? g.record : undefined))
  .filter((r): r is GameRecord => r !== undefined);
const views = records.flatMap((record) => SIDES.map((as) => viewOf(record, as)));
for (const mode of ['bfs', 'dfs'] as const) {
  let positions = 0;
  let work = 0;
  for (const view of views) {
    const r = estimateBelief(engine, view, mode, { work: 5e7, memoryBytes: 0 });
    positions += r.handles.length;
    work += r.work;
  }
  const expected = belief.totals.find(
    (t: { mode: string; backend: string }) => t.mode === mode && t.backend === 'wasm',
  );
  compare(
    `belief ${mode}: positions, work over ${views.length} views`,
    [positions, work],
    [expected.positions, expected.work],
  );
}
const infoset = belief.infoset.cells.filter((c: { backend: string }) => c.backend === 'wasm');
let histories = 0;
let infosetWork = 0;
for (const cell of infoset) {
  const view = views.find((v, i) => Number(records[Math.floor(i / 2)].tags.Seed) === cell.seed && v.as === cell.as)!;
  const r = informationSet(engine, view, false, { work: 5_000_000 });
  histories += r.count;
  infosetWork += r.work;
}
compare(
  `information sets: histories, work over ${infoset.length} views`,
  [histories, infosetWork],
  [
    infoset.reduce((s: number, c: { histories: number }) => s + c.histories, 0),
    infoset.reduce((s: number, c: { work: number }) => s + c.work, 0),
  ],
);

// the solvers: every algorithm on the harvested and hand-built problems (bench/solve.ts part 1)
progress('solve …');
interface SolveRow {
  set: string;
  algorithm: string;
  backend: string;
  run: { nodes: number; positions: number };
}
const solveRows = results('solve').rows;
for (const [name, file] of [
  ['harvested', 'harvested.json'],
  ['hand-built', 'hand.json'],
] as const) {
  const problems = parseProblems(readFileSync(join(root, 'test/data/problems', file), 'utf8'), file);
  for (const algorithm of ALGORITHMS) {
    let nodes = 0;
    let positions = 0;
    for (const problem of problems) {
      const r = solve(engine, problem, algorithm, { nodes: 20_000_000 });
      nodes += r.stats.nodes;
      positions += r.stats.positions;
    }
    const expected = solveRows.filter(
      (r: SolveRow) => r.set === name && r.algorithm === algorithm && r.backend === 'wasm',
    );
    compare(
      `solve ${name} ${algorithm}: nodes, positions`,
      [nodes, positions],
      [
        expected.reduce((a: number, r: SolveRow) => a + r.run.nodes, 0),
        expected.reduce((a: number, r: SolveRow) => a + r.run.positions, 0),
      ],
    );
  }
}

if (differences.length) {
  console.error(
    `\n${differences.length} count${differences.length === 1 ? '' : 's'} differ:\n  ${differences.join('\n  ')}`,
  );
  process.exit(1);
}
console.log('\nevery count is as the benchmarks recorded it');

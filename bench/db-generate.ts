// Problem database generation speed (issue 7, acceptance 5): `generate` (host/db/generate.node.ts, the
// code behind `krieg db generate`) run for a fixed number of games into a fresh database file in a
// temporary directory, committing every game as the command does. Reports games and instances per
// minute, per start mode; WASM against JS on identical work (the same games and instances:
// asserted).
// Usage: npm run bench:db [-- --quick]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendName } from '../host/node';
import { ProblemDb } from '../host/db/database.node';
import {
  generate,
  selfPlayWorkers,
  DEFAULT_PARAMS,
  type GenerateParams,
  type StartMode,
} from '../host/db/generate.node';
import { describeMachine, gitState, group, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';

const quick = process.argv.includes('--quick');
interface Case {
  start: StartMode;
  games: number;
  backends: BackendName[];
}
const CASES: Case[] = [
  { start: 'endgames', games: quick ? 30 : 200, backends: ['wasm', 'js'] },
  { start: 'standard', games: quick ? 10 : 60, backends: ['wasm'] },
];

interface Cell {
  start: StartMode;
  backend: BackendName;
  games: number;
  dropped: number;
  ms: number;
  fileBytes: number;
  instances: Record<string, number>;
  keys: string[];
}

async function run(start: StartMode, backend: BackendName, games: number): Promise<Cell> {
  const dir = mkdtempSync(join(tmpdir(), 'krieg-bench-db-'));
  try {
    const params: GenerateParams = { ...DEFAULT_PARAMS, start };
    const path = join(dir, 'bench.sqlite');
    const db = await ProblemDb.create(path, params);
    const workers = selfPlayWorkers(backend);
    const t0 = performance.now();
    const end = generate(db, workers, params, { mates: Infinity, nearMisses: Infinity, maxGames: games });
    const ms = performance.now() - t0;
    const instances: Record<string, number> = {};
    for (const c of db.counts()) instances[`${c.ply}-ply ${c.cls}`] = c.count;
    const keys = db.instances().map((i) => i.key);
    db.close();
    return {
      start,
      backend,
      games: end.played,
      dropped: end.dropped,
      ms,
      fileBytes: statSync(path).size,
      instances,
      keys,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const root = repoRoot();
const m = machine();
const git = gitState(root, ['assembly', 'host']);
const cells: Cell[] = [];
for (const c of CASES) {
  for (const backend of c.backends) {
    progress(`${c.start}, ${backend}: ${c.games} games`);
    cells.push(await run(c.start, backend, c.games));
  }
}
for (const c of CASES) {
  const [first, ...rest] = cells.filter((cell) => cell.start === c.start);
  for (const other of rest) {
    if (JSON.stringify(other.keys) !== JSON.stringify(first.keys))
      throw new Error(`${c.start}: ${other.backend} stored other instances than ${first.backend}`);
  }
}

const perMinute = (n: number, ms: number) => (n / (ms / 60_000)).toFixed(1);
const total = (cell: Cell) => Object.values(cell.instances).reduce((a, b) => a + b, 0);
const at = (cell: Cell, key: string) => cell.instances[key] ?? 0;
const lines = [
  '### Problem database generation',
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `\`npm run bench:db\`${quick ? ' (quick)' : ''}: \`krieg db generate\`'s code with its default parameters (seed ${DEFAULT_PARAMS.seed}, ${DEFAULT_PARAMS.variant}, 3 ply, near-misses re-analysed at 5 ply) for a fixed number of games into a new database file, one transaction per game. An instance is a stored mate or near-miss at 3 or 5 ply. WASM and JS store the same instances (asserted).`,
  '',
  '| Start | Backend | Games (dropped) | 3-ply mates | 3-ply near-misses | 5-ply mates | 5-ply near-misses | Time | Games/min | Instances/min | 3-ply instances/min |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...cells.map(
    (c) =>
      `| ${c.start} | ${c.backend} | ${c.games} (${c.dropped}) | ${at(c, '3-ply mate')} | ${at(c, '3-ply near-miss')} | ${at(c, '5-ply mate')} | ${at(c, '5-ply near-miss')} | ${(c.ms / 1000).toFixed(1)}s | ${perMinute(c.games, c.ms)} | ${perMinute(total(c), c.ms)} | ${perMinute(at(c, '3-ply mate') + at(c, '3-ply near-miss'), c.ms)} |`,
  ),
  '',
];
const endgames = cells.filter((c) => c.start === 'endgames');
if (endgames.length === 2)
  lines.push(`WASM/JS on identical work (endgames): ${(endgames[1].ms / endgames[0].ms).toFixed(2)}× faster.`, '');
lines.push(
  `Database file: ${group(Math.round(cells[0].fileBytes / Math.max(1, total(cells[0]))))} bytes per instance (endgames; games' records included).`,
  '',
);
const name = quick ? 'db-generate-quick' : 'db-generate';
writeText(join(root, `bench/results/${name}.md`), lines.join('\n'));
writeJson(join(root, `bench/results/${name}.json`), {
  machine: m,
  git,
  quick,
  cells: cells.map(({ keys, ...c }) => ({ ...c, instancesStored: keys.length })),
});
console.log(lines.join('\n'));

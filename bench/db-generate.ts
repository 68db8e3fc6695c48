// Problem database generation speed (issue 7, acceptance 5): `generate` (host/db/generate.ts, the
// code behind `krieg db generate`) run for a fixed number of games into a fresh database file in a
// temporary directory, committing every game as the command does. Reports games and instances per
// minute, per start mode, on the WASM backend (generation needs several engines side by side; the
// JS core is one module instance: WASM/JS ratios of its parts are in the referee, belief and solve
// benchmarks).
// Usage: npm run bench:db [-- --quick]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../host/node';
import { ProblemDb } from '../host/db/database';
import { generate, DEFAULT_PARAMS, type GenerateParams, type StartMode } from '../host/db/generate';
import { describeMachine, gitState, group, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';

const quick = process.argv.includes('--quick');
interface Case { start: StartMode; games: number }
const CASES: Case[] = [
  { start: 'endgames', games: quick ? 30 : 200 },
  { start: 'standard', games: quick ? 10 : 60 },
];

interface Cell { start: StartMode; games: number; dropped: number; ms: number; fileBytes: number; instances: Record<string, number> }

async function run(start: StartMode, games: number): Promise<Cell> {
  const dir = mkdtempSync(join(tmpdir(), 'krieg-bench-db-'));
  try {
    const params: GenerateParams = { ...DEFAULT_PARAMS, start };
    const path = join(dir, 'bench.sqlite');
    const db = await ProblemDb.create(path, params);
    const workers = {
      referee: createEngine('wasm', 1024), work: createEngine('wasm', 1 << 17), scorer: createEngine('wasm', 256), solver: createEngine('wasm'),
    };
    const t0 = performance.now();
    const end = generate(db, workers, params, { mates: Infinity, nearMisses: Infinity, maxGames: games });
    const ms = performance.now() - t0;
    const instances: Record<string, number> = {};
    for (const c of db.counts()) instances[`${c.ply}-ply ${c.cls}`] = c.count;
    db.close();
    return { start, games: end.played, dropped: end.dropped, ms, fileBytes: statSync(path).size, instances };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const root = repoRoot();
const m = machine();
const git = gitState(root, ['assembly', 'host']);
const cells: Cell[] = [];
for (const c of CASES) {
  progress(`${c.start}: ${c.games} games`);
  cells.push(await run(c.start, c.games));
}

const perMinute = (n: number, ms: number) => (n / (ms / 60_000)).toFixed(1);
const total = (cell: Cell) => Object.values(cell.instances).reduce((a, b) => a + b, 0);
const at = (cell: Cell, key: string) => cell.instances[key] ?? 0;
const lines = [
  '### Problem database generation',
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `\`npm run bench:db\`${quick ? ' (quick)' : ''}: \`krieg db generate\`'s code with its default parameters (seed ${DEFAULT_PARAMS.seed}, ${DEFAULT_PARAMS.variant}, 3 ply, near-misses re-analysed at 5 ply) for a fixed number of games into a new database file, one transaction per game. An instance is a stored mate or near-miss at 3 or 5 ply; WASM backend.`,
  '',
  '| Start | Games (dropped) | 3-ply mates | 3-ply near-misses | 5-ply mates | 5-ply near-misses | Time | Games/min | Instances/min | 3-ply instances/min |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...cells.map((c) => `| ${c.start} | ${c.games} (${c.dropped}) | ${at(c, '3-ply mate')} | ${at(c, '3-ply near-miss')} | ${at(c, '5-ply mate')} | ${at(c, '5-ply near-miss')} | ${(c.ms / 1000).toFixed(1)}s | ${perMinute(c.games, c.ms)} | ${perMinute(total(c), c.ms)} | ${perMinute(at(c, '3-ply mate') + at(c, '3-ply near-miss'), c.ms)} |`),
  '',
];
lines.push(`Database file: ${group(Math.round(cells[0].fileBytes / Math.max(1, total(cells[0]))))} bytes per instance (endgames; games' records included).`, '');
const name = quick ? 'db-generate-quick' : 'db-generate';
writeText(join(root, `bench/results/${name}.md`), lines.join('\n'));
writeJson(join(root, `bench/results/${name}.json`), { machine: m, git, quick, cells });
console.log(lines.join('\n'));

// Referee speed: complete random self-play games refereed in the core, WASM against JS on
// identical work (the same seeds give the same games on both backends: asserted). Reports games/s,
// attempts/s (referee answers), plies/s and the time of a 200-move (400-ply) game.
// Usage: npm run bench:referee [-- --quick]
import { join } from 'node:path';
import { createEngine, BACKENDS, type BackendName } from '../host/node';
import { preset, PRESET_NAMES } from '../host/record/rules';
import { parseFen, START_FEN } from '../host/notation/fen';
import { playRandomGame, gamePlies, gameResult, gameEvents } from '../host/core/referee';
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
const GAMES = quick ? 50 : 300;
const RUNS = quick ? 3 : 5;
const MAX_PLIES = 400; // 200 moves each side

interface Work {
  plies: number;
  attempts: number;
  fullLength: number;
  results: string[];
}
interface Cell {
  backend: BackendName;
  variant: string;
  games: number;
  work: Work;
  runsMs: number[];
  medianMs: number;
}

function play(backend: BackendName, variant: string): Cell {
  const engine = createEngine(backend);
  engine.setRules(preset(variant));
  const start = parseFen(START_FEN);
  const batch = (count: (seed: number) => void) => {
    for (let seed = 1; seed <= GAMES; seed++) {
      engine.setSetup(0, start);
      playRandomGame(engine, 0, seed, MAX_PLIES);
      count(seed);
    }
  };
  // the work, counted once outside the timed runs
  const work: Work = { plies: 0, attempts: 0, fullLength: 0, results: [] };
  batch(() => {
    const plies = gamePlies(engine);
    work.plies += plies;
    if (plies === MAX_PLIES) work.fullLength++;
    work.results.push(gameResult(engine));
    work.attempts += gameEvents(engine).filter((e) => e.type === 'attempt').length;
  });
  batch(() => {}); // warm-up
  const runsMs: number[] = [];
  for (let r = 0; r < RUNS; r++) runsMs.push(timed(() => batch(() => {})).ms);
  return { backend, variant, games: GAMES, work, runsMs, medianMs: median(runsMs) };
}

const root = repoRoot();
const cells: Cell[] = [];
for (const variant of PRESET_NAMES) {
  for (const backend of BACKENDS) {
    progress(`referee: ${variant} on ${backend} …`);
    cells.push(play(backend, variant));
  }
  const [wasm, js] = cells.slice(-2);
  if (JSON.stringify(wasm.work) !== JSON.stringify(js.work)) {
    console.error(
      `different work on the two backends under ${variant}: ${JSON.stringify(wasm.work)} vs ${JSON.stringify(js.work)}`,
    );
    process.exit(1);
  }
}

const m = machine();
const git = gitState(root, ['assembly', 'host']);
const rows = cells.map((c) => {
  const s = c.medianMs / 1000;
  return {
    ...c,
    work: { ...c.work, results: undefined },
    gamesPerSecond: c.games / s,
    attemptsPerSecond: c.work.attempts / s,
    pliesPerSecond: c.work.plies / s,
    msPer200Moves: (c.medianMs / c.work.plies) * MAX_PLIES,
  };
});
const ratio = (variant: string) => {
  const w = rows.find((r) => r.variant === variant && r.backend === 'wasm')!;
  const j = rows.find((r) => r.variant === variant && r.backend === 'js')!;
  return j.medianMs / w.medianMs;
};
writeJson(join(root, 'bench/results/referee.json'), {
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date: new Date().toISOString(),
  games: GAMES,
  maxPlies: MAX_PLIES,
  runs: RUNS,
  rows,
});
const md = [
  '### Referee',
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `${GAMES} random self-play games per rule set (seeds 1–${GAMES}, at most ${MAX_PLIES} plies, both players the core's random player), refereed in the core; median of ${RUNS} runs after a warm-up. Both backends play exactly the same games (asserted).`,
  '',
  '| Rule set | Backend | Plies | Attempts | Median (ms) | Games/s | Attempts/s | ms per 200-move game |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.variant} | ${r.backend.toUpperCase()} | ${group(r.work.plies)} | ${group(r.work.attempts)} | ${r.medianMs.toFixed(1)} | ${group(Math.round(r.gamesPerSecond))} | ${(r.attemptsPerSecond / 1e6).toFixed(2)} M | ${r.msPer200Moves.toFixed(3)} |`,
  ),
  '',
  `WASM/JS (same games, this run): ${PRESET_NAMES.map((v) => `${v} ${ratio(v).toFixed(2)}×`).join(', ')}.`,
  '',
  `"ms per 200-move game" is the median time per ply times ${MAX_PLIES}; ${rows[0].work.fullLength} of ${GAMES} berkeley games ran the full ${MAX_PLIES} plies (the others ended by mate or draw).`,
].join('\n');
writeText(join(root, 'bench/results/referee.md'), md);
console.log(md);

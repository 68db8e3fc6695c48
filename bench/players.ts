// Parker, Nau & Subrahmanian's (2005) tournament (their Figures 2 and 3), and krieg against each
// of their players: every pairing a `krieg match` (host/players/match.ts) of N games with
// alternating colours, wins / losses / draws of the first player with 95% Wilson intervals, mean
// material per move, and a material graph per pairing. The games go to bench/games/ (not kept in
// git) and are resumed from there, so a long run can be stopped and continued.
// Usage: npm run bench:players [-- --games 200 --nodes 20000 | --time-per-move 0.2] [--max-plies 300]
//        [--jobs J] [--pairs los-random,hs-aosp] [--quick]
import { join } from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { preset } from '../host/record/rules';
import { parsePlayerSpec } from '../host/players/registry';
import { runMatch, matchKey, matchReport, matchWorkerScript, type MatchParams } from '../host/players/match';
import type { MatchSummary } from '../host/players/matchStats';
import { materialSvg } from '../host/players/plot';
import { describeMachine, gitState, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = argv.includes('--quick');
const GAMES = Number(option('games') ?? (quick ? 6 : 200));
const MAX_PLIES = Number(option('max-plies') ?? (quick ? 80 : 300));
const TIME = option('time-per-move') === undefined ? undefined : Number(option('time-per-move'));
const NODES = TIME === undefined ? Number(option('nodes') ?? (quick ? 4000 : 20_000)) : undefined;
const JOBS = Number(option('jobs') ?? availableParallelism());
const SEED = 1;

/** Parker et al.'s pairings (Fig. 2: against random; Fig. 3: head to head), then krieg against each. */
const PAIRINGS: [string, string][] = [
  ['los', 'random'],
  ['aosp', 'random'],
  ['hs', 'random'],
  ['aosp', 'los'],
  ['hs', 'los'],
  ['hs', 'aosp'],
  ['krieg', 'random'],
  ['krieg', 'los'],
  ['krieg', 'aosp'],
  ['krieg', 'hs'],
];
/** The paper's figures (win, loss, draw %, games), for comparison. */
const PAPER: Record<string, [number, number, number, number]> = {
  'los-random': [39, 0, 61, 559],
  'aosp-random': [63, 0, 37, 560],
  'hs-random': [65, 0.5, 35, 558],
  'aosp-los': [31, 0, 69, 190],
  'hs-los': [38, 0.5, 61, 190],
  'hs-aosp': [13.3, 10.7, 76, 1669],
};
const wanted = option('pairs')?.split(',');
const pairings = PAIRINGS.filter(([p, q]) => !wanted || wanted.includes(`${p}-${q}`));

const root = repoRoot();
if (!existsSync(matchWorkerScript())) {
  console.error('dist/cli.js not found: run npm run build');
  process.exit(2);
}
const gamesDir = join(root, 'bench/games');
mkdirSync(gamesDir, { recursive: true });
const suffix = quick ? '-quick' : '';

interface Row {
  pair: string;
  params: MatchParams;
  key: string;
  summary: MatchSummary;
  seconds: number;
  resumed: number;
}
const rows: Row[] = [];
for (const [p, q] of pairings) {
  const pair = `${p}-${q}`;
  const params: MatchParams = {
    players: [parsePlayerSpec(p), parsePlayerSpec(q)],
    games: GAMES,
    seed: SEED,
    rules: preset('berkeley'),
    maxPlies: MAX_PLIES,
    backend: 'wasm',
    ...(NODES !== undefined ? { nodes: NODES } : {}),
    ...(TIME !== undefined ? { timePerMove: TIME } : {}),
  };
  const out = join(gamesDir, `${pair}${suffix}.kpgn`);
  const started = performance.now();
  let last = 0;
  const run = await runMatch(params, out, JOBS, ({ done, total }) => {
    if (performance.now() - last > 10_000 || done === total) {
      last = performance.now();
      progress(`players: ${pair} ${done}/${total}`);
    }
  });
  const { summary } = matchReport(params, run);
  rows.push({
    pair,
    params,
    key: matchKey(params),
    summary,
    seconds: (performance.now() - started) / 1000,
    resumed: run.resumed,
  });
  writeText(
    join(root, `bench/results/players${suffix}-${pair}.svg`),
    materialSvg(summary, `${p.toUpperCase()} v ${q.toUpperCase()} material graph (${GAMES} games)`),
  );
}

const m = machine();
const git = gitState(root, ['assembly', 'host']);
const pct = (x: number) => (100 * x).toFixed(1);
const budget =
  NODES !== undefined
    ? `${NODES.toLocaleString('en-US')} nodes a move (search nodes, and 10× as many units of estimation work; deterministic)`
    : `${TIME} s a move`;
writeJson(join(root, `bench/results/players${suffix}.json`), {
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date: new Date().toISOString(),
  games: GAMES,
  maxPlies: MAX_PLIES,
  nodes: NODES ?? null,
  timePerMove: TIME ?? null,
  jobs: JOBS,
  rows: rows.map((r) => ({
    pair: r.pair,
    match: r.key,
    seconds: r.seconds,
    resumed: r.resumed,
    paper: PAPER[r.pair] ?? null,
    ...r.summary,
  })),
});
const md = [
  "### Players: Parker et al.'s tournament, and krieg against each",
  '',
  `Machine: ${describeMachine(m)}; commit ${git.commit}${git.dirty ? ' (with uncommitted changes)' : ''}; ${new Date().toISOString()}.`,
  '',
  `${GAMES} games per pairing (berkeley rules, alternating colours, match seed ${SEED}), ${budget}; games still going after ${MAX_PLIES} plies are adjudicated drawn (counted in "capped"). Rates of the first player with 95% Wilson intervals; "paper" is Parker, Nau & Subrahmanian 2005 Figs. 2–3 (30 s a move, games to the end). Position source of LOS, AOSP, HS and krieg: the stand-in until the belief tracker (#13) lands — the exact belief while it holds at most 10,000 positions, else the depth-first sampler, which stops finding positions a few dozen plies into a game (the players then attempt at random); its LOS boards are all-observation boards, so LOS and AOSP play the same games here, and HS differs only by asking twice when the first request comes back short. These rows test the machinery, not Parker's hypotheses: rerun when the tracker lands.`,
  '',
  '| Pairing | Win % [95%] | Loss % [95%] | Draw % | Capped | Score | Mean material (first / second) | Paper W / L / D (games) | Time |',
  '|---|---|---|---:|---:|---:|---|---|---:|',
  ...rows.map(({ pair, summary: s, seconds }) => {
    const paper = PAPER[pair];
    return `| ${pair.replace('-', ' v ')} | ${pct(s.winRate.value)} [${pct(s.winRate.low)}, ${pct(s.winRate.high)}] | ${pct(s.lossRate.value)} [${pct(s.lossRate.low)}, ${pct(s.lossRate.high)}] | ${pct(s.drawRate.value)} | ${s.adjudicated} | ${pct(s.score.value)} | ${s.players[0].meanMaterial.toFixed(1)} / ${s.players[1].meanMaterial.toFixed(1)} | ${paper ? `${paper[0]} / ${paper[1]} / ${paper[2]} (${paper[3]})` : '—'} | ${seconds.toFixed(0)} s |`;
  }),
  '',
  `Material graphs: bench/results/players${suffix}-<pairing>.svg; the games: bench/games/<pairing>${suffix}.kpgn (\`krieg view\` reads them).`,
].join('\n');
writeText(join(root, `bench/results/players${suffix}.md`), md);
console.log(md);

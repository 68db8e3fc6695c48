// Parker, Nau & Subrahmanian's (2005) tournament (their Figures 2 and 3), and krieg against each
// of their players: every pairing a `krieg match` (host/players/match.node.ts) of N games with
// alternating colours, wins / losses / draws of the first player with 95% Wilson intervals, mean
// material per move, and a material graph per pairing. The games go to bench/games/ (not kept in
// git) and are resumed from there, so a long run can be stopped and continued — by the same code
// only: each file keeps a hash of the code that played it beside it (<pair>.kpgn.code).
// Usage: npm run bench:players [-- --games 200 --nodes 20000 | --time-per-move 0.2] [--max-plies 300]
//        [--jobs J] [--pairs los-random,hs-aosp] [--quick] [--partial] [--seed S]
// --seed S (default 1) plays the pairings on another match seed: its games, rows and graphs go to
// files named -seedS (players-seedS.md), beside seed 1's. One seed's 200 games are one deal: a
// change that only moves the tracker's random stream moved krieg v random from 3 capped games to
// 11 over 176 (docs/players.md, "Fourteenth session"), so a player is judged over more than one.
// --partial plays nothing: it reports the games the files hold so far (rows marked partial), so a
// long run's results can be written and committed while it goes on. Each run (or --partial report)
// replaces the rows of its pairings in players.json/md and keeps the other pairings' rows from
// earlier runs at the same budget and ply cap, so pairings can be run one at a time.
import { join } from 'node:path';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { preset } from '../host/record/rules';
import { parsePlayerSpec } from '../host/players/registry';
import { runMatch, readMatchFile, matchKey, matchReport, type MatchParams } from '../host/players/match.node';
import { workerScript } from '../host/pool/pool';
import type { MatchSummary } from '../host/players/matchStats';
import { materialSvg } from '../host/players/plot';
import {
  describeMachine,
  gitState,
  machine,
  measuredCode,
  progress,
  repoRoot,
  writeJson,
  writeText,
} from './lib/harness';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = argv.includes('--quick');
const partial = argv.includes('--partial');
const GAMES = Number(option('games') ?? (quick ? 6 : 200));
const MAX_PLIES = Number(option('max-plies') ?? (quick ? 80 : 300));
const TIME = option('time-per-move') === undefined ? undefined : Number(option('time-per-move'));
const NODES = TIME === undefined ? Number(option('nodes') ?? (quick ? 4000 : 20_000)) : undefined;
const JOBS = Number(option('jobs') ?? availableParallelism());
const SEED = Number(option('seed') ?? 1);
if (!Number.isInteger(SEED) || SEED < 1) throw new Error(`--seed takes a positive integer (got ${option('seed')})`);

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
  // the ablation behind krieg's depth 0 (host/players/krieg.ts): the same seeds at depth 1
  ['krieg:depth=1', 'hs'],
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
workerScript(); // fails early when dist/worker.js is not built
// one directory per budget and cap, so runs at different budgets resume separately
const gamesDir = join(
  root,
  'bench/games',
  `${NODES !== undefined ? `nodes${NODES}` : `time${TIME}`}-plies${MAX_PLIES}`,
);
mkdirSync(gamesDir, { recursive: true });
const suffix = `${quick ? '-quick' : ''}${SEED === 1 ? '' : `-seed${SEED}`}`;

interface Row {
  pair: string;
  params: MatchParams;
  key: string;
  summary: MatchSummary;
  seconds: number;
  resumed: number;
  /** Games in the file. */
  played: number;
  /** Fewer games than asked for (--partial). */
  partial: boolean;
  /** The code the games were played with (measuredCode). */
  code: string;
}
/**
 * The code the games are played with (the sources the bench takes in, the built core and the
 * pool's worker): a pairing's file keeps it beside it (<pair>.kpgn.code), and a file played by
 * other code is not resumed, so no pairing mixes games of two versions of the players.
 */
const code = await measuredCode(root, 'bench/players.ts', ['build/krieg.wasm', 'dist/worker.js']);
function checkCode(out: string): string {
  const sidecar = `${out}.code`;
  const played = existsSync(out) && readFileSync(out, 'utf8').trim() !== '';
  const stored = existsSync(sidecar) ? readFileSync(sidecar, 'utf8').trim() : undefined;
  // --partial only reports a file's games: the row names the code that played them
  if (!partial && played && stored !== undefined && stored !== code)
    throw new Error(
      `${out} holds games played by other code (${stored}; now ${code}): move it away to play the pairing afresh`,
    );
  if (!partial) writeFileSync(sidecar, `${code}\n`);
  return partial ? (stored ?? 'unknown') : code;
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
  const file = pair.replace(/[^\w.-]/g, '_'); // a player's options (krieg:depth=1) in a name any file system takes
  const out = join(gamesDir, `${file}${suffix}.kpgn`);
  const playedBy = checkCode(out);
  const started = performance.now();
  let last = 0;
  const run = partial
    ? (() => {
        const { records } = readMatchFile(out, params);
        return { records, resumed: records.length };
      })()
    : await runMatch(params, out, JOBS, ({ done, total }) => {
        if (performance.now() - last > 10_000 || done === total) {
          last = performance.now();
          progress(`players: ${pair} ${done}/${total}`);
        }
      });
  if (run.records.length === 0) continue;
  const { summary } = matchReport(params, run);
  rows.push({
    pair,
    params,
    key: matchKey(params),
    summary,
    seconds: (performance.now() - started) / 1000,
    resumed: run.resumed,
    played: run.records.length,
    partial: run.records.length < GAMES,
    code: playedBy,
  });
  writeText(
    join(root, `bench/results/players${suffix}-${file}.svg`),
    materialSvg(summary, `${p.toUpperCase()} v ${q.toUpperCase()} material graph (${run.records.length} games)`),
  );
}

const m = machine();
const git = gitState(root, ['assembly', 'host']);
const now = new Date().toISOString();
const jsonPath = join(root, `bench/results/players${suffix}.json`);

/** A pairing's line of players.json: where and how it was run, and its statistics. */
interface JsonRow extends MatchSummary {
  pair: string;
  played: number;
  /** Games asked for (the run's --games). */
  asked: number;
  partial: boolean;
  match: string;
  /** Seconds the run took (null: reported by --partial from the file, not timed). */
  seconds: number | null;
  resumed: number;
  jobs: number;
  commit: string;
  dirty: boolean;
  /** A hash of the code the games were played with (bench/lib/harness.ts measuredCode). */
  code: string;
  date: string;
  paper: [number, number, number, number] | null;
}

/**
 * The rows of an earlier players.json at the same budget and ply cap: pairings are run one at a
 * time (never two matches at once on this machine), so each run replaces its own pairings' rows
 * and keeps the others'. A --partial row of a pairing keeps the earlier run's time when it
 * reports the same games.
 */
function earlierRows(): Map<string, JsonRow> {
  const rows = new Map<string, JsonRow>();
  if (!existsSync(jsonPath)) return rows;
  const old = JSON.parse(readFileSync(jsonPath, 'utf8'));
  if (old.maxPlies !== MAX_PLIES || old.nodes !== (NODES ?? null) || old.timePerMove !== (TIME ?? null)) return rows;
  for (const row of old.rows ?? []) if (row.asked !== undefined) rows.set(row.pair, row);
  return rows;
}
const merged = earlierRows();
for (const r of rows) {
  const earlier = merged.get(r.pair);
  // a --partial report of the same games as an earlier run keeps that run's time, jobs and commit
  const kept = partial && earlier && earlier.played === r.played && earlier.match === r.key ? earlier : undefined;
  merged.set(r.pair, {
    pair: r.pair,
    played: r.played,
    asked: GAMES,
    partial: r.partial,
    match: r.key,
    seconds: partial ? (kept?.seconds ?? null) : r.seconds,
    resumed: kept?.resumed ?? r.resumed,
    jobs: kept?.jobs ?? JOBS,
    commit: kept?.commit ?? git.commit,
    code: r.code,
    dirty: kept?.dirty ?? git.dirty,
    date: kept?.date ?? now,
    paper: PAPER[r.pair] ?? null,
    ...r.summary,
  });
}
const order = PAIRINGS.map(([p, q]) => `${p}-${q}`);
const all = [...merged.values()].sort((a, b) => order.indexOf(a.pair) - order.indexOf(b.pair));
writeJson(jsonPath, {
  machine: m,
  date: now,
  maxPlies: MAX_PLIES,
  nodes: NODES ?? null,
  timePerMove: TIME ?? null,
  ...(all.some((r) => r.partial) ? { partial: true } : {}),
  rows: all,
});
const pct = (x: number) => (100 * x).toFixed(1);
const budget =
  NODES !== undefined
    ? `${NODES.toLocaleString('en-US')} nodes a move (search nodes, and 10× as many units of estimation work; deterministic)`
    : `${TIME} s a move`;
/** Is the paper's figure (%) inside our 95% interval? If not, which side of it. */
const inInterval = (paperPct: number, rate: { low: number; high: number }) =>
  paperPct / 100 < rate.low ? 'no: paper lower' : paperPct / 100 > rate.high ? 'no: paper higher' : 'yes';
/** The paper's score (%): wins and half the draws, as ours. */
const paperScore = ([win, , draw]: [number, number, number, number]) => win + draw / 2;
const interval = (x: { value: number; low: number; high: number }) => `${pct(x.value)} [${pct(x.low)}, ${pct(x.high)}]`;
const md = [
  "### Players: Parker et al.'s tournament, and krieg against each",
  '',
  `Machine: ${describeMachine(m)}; the pairings were run one at a time (each row's commit and jobs below); tables written ${now}.`,
  '',
  `Berkeley rules, alternating colours, match seed ${SEED}, ${budget}; games still going after ${MAX_PLIES} plies are adjudicated drawn (counted in "capped"). Rates of the first player with 95% Wilson intervals, its score (wins and half the draws) with a 95% Wilson interval of the score as a proportion; "paper" is Parker, Nau & Subrahmanian 2005 Figs. 2–3 (30 s a move, games to the end). Position source of LOS, AOSP, HS and krieg: the belief tracker (#13; exact up to 10,000 positions, Parker's pool beyond, LOS positions from its last-observation generator). A row marked partial holds fewer games than were asked for (the games its file holds so far).`,
  '',
  "| Pairing | Games | Win % [95%] | Loss % [95%] | Draw % | Capped | Score % [95%] | Mean material (first / second) | Paper W / L / D (games); score | The paper's win %, score in our intervals | Time (jobs) | Commit |",
  '|---|---:|---|---|---:|---:|---|---|---|---|---:|---|',
  ...all.map((s) => {
    const paper = s.paper;
    const games = `${s.played}${s.partial ? ` of ${s.asked} (partial)` : ''}`;
    const time =
      s.seconds === null
        ? '—'
        : `${s.seconds.toFixed(0)} s (${s.jobs}${s.resumed ? `; ${s.resumed} games resumed` : ''})`;
    const versus = paper
      ? [
          `${paper[0]} / ${paper[1]} / ${paper[2]} (${paper[3]}); ${paperScore(paper).toFixed(1)}`,
          `${inInterval(paper[0], s.winRate)}; ${inInterval(paperScore(paper), s.score)}`,
        ]
      : ['—', '—'];
    return `| ${s.pair.replace('-', ' v ')} | ${games} | ${interval(s.winRate)} | ${interval(s.lossRate)} | ${pct(s.drawRate.value)} | ${s.adjudicated} | ${interval(s.score)} | ${s.players[0].meanMaterial.toFixed(1)} / ${s.players[1].meanMaterial.toFixed(1)} | ${versus[0]} | ${versus[1]} | ${time} | ${s.commit}${s.dirty ? '+' : ''} |`;
  }),
  '',
  `Commit: the code the games were played with ("+": with uncommitted changes). Material graphs: bench/results/players${suffix}-<pairing>.svg; the games: bench/games/${gamesDir.split('/').pop()}/<pairing>${suffix}.kpgn (\`krieg view\` reads them).`,
].join('\n');
writeText(join(root, `bench/results/players${suffix}.md`), md);
console.log(md);

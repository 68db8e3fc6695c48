// Why did Russell & Wolfe's generator find so many more mates per game than ours from the initial
// position (issue 17)? Their database: 1000 games' histories "up to the point where a 3-ply
// checkmate might exist", about half the games giving an instance, counting a leaf as won when
// White has a known material win (their footnote 4), and White adding hints (footnote 6). This
// plays the same games (seeds 1…N of database seed 1, standard start) with `krieg db generate`'s
// code under variants of White and of the classification, into databases in memory, and counts
// per 100 games: dropped games (White's belief over 10,000), 3-ply mates and near-misses.
//   npm run bench:db-rates [-- --games N] [-- --variants baseline,long,…] [-- --start endgames]
// With --variants, only those are played again; the other rows of the last run over the same games
// and start are kept (each row names the commit it was measured at).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProblemDb } from '../host/db/database.node';
import {
  generate,
  selfPlayWorkers,
  DEFAULT_PARAMS,
  type GenerateParams,
  type StartMode,
} from '../host/db/generate.node';
import {
  describeMachine,
  gitState,
  machine,
  median,
  progress,
  repoRoot,
  seconds,
  writeJson,
  writeText,
} from './lib/harness';
import { integerOption, option, quick } from './lib/args';

const GAMES = integerOption('--games', quick ? 10 : 150);
const START = (option('--start') ?? 'standard') as StartMode;

/** The variants: a name, what it changes, the parameters. */
const VARIANTS: { name: string; what: string; params: Partial<GenerateParams> }[] = [
  { name: 'baseline', what: 'krieg db generate --start standard as shipped (80 plies, 3 hints a turn)', params: {} },
  {
    name: 'material',
    what: 'classification counts Berkeley material wins as mates (R&W footnote 4)',
    params: { materialWins: true },
  },
  { name: 'long', what: 'games up to 240 plies instead of 80', params: { maxPlies: 240 } },
  {
    name: 'hints',
    what: 'up to 8 hints a turn, each legal in at most half the belief',
    params: { hints: { max: 8, share: 0.5 } },
  },
  { name: 'attack', what: 'White prefers captures and checks (+150 per unit share)', params: { attack: 150 } },
  {
    name: 'all',
    what: 'long + hints + attack + material wins',
    params: { maxPlies: 240, hints: { max: 8, share: 0.5 }, attack: 150, materialWins: true },
  },
  {
    name: 'oracle',
    what: "up to 8 hints a turn Illegal on the true board, each cutting White's belief most (R&W footnote 6: hints added to White's history)",
    params: { oracleHints: 8 },
  },
  {
    name: 'oracle+attack',
    what: 'oracle hints and attack (krieg db generate --oracle-hints 8 --attack 150)',
    params: { oracleHints: 8, attack: 150 },
  },
  {
    name: 'hints+attack',
    what: 'hints and attack together (krieg db generate --hints 8 --hint-share 0.5 --attack 150)',
    params: { hints: { max: 8, share: 0.5 }, attack: 150 },
  },
];
const wanted = option('--variants')?.split(',') ?? VARIANTS.map((v) => v.name);

const root = repoRoot();
const git = gitState(root, ['assembly', 'host']);
const name = quick ? 'db-rates-quick' : 'db-rates';
const jsonPath = join(root, `bench/results/${name}.json`);
/** The last run's rows over the same games and start, by variant (kept where not played again). */
const previous = new Map<string, Record<string, unknown>>();
if (existsSync(jsonPath)) {
  const last = JSON.parse(readFileSync(jsonPath, 'utf8'));
  if (last.games === GAMES && last.start === START)
    for (const row of last.rows) previous.set(row.variant, { commit: last.commit, ...row });
}
const rows: Record<string, unknown>[] = [];
for (const variant of VARIANTS.filter((v) => wanted.includes(v.name))) {
  const params: GenerateParams = { ...DEFAULT_PARAMS, start: START, ...variant.params };
  const db = await ProblemDb.create(undefined, params);
  const workers = selfPlayWorkers('wasm');
  const t0 = performance.now();
  generate(db, workers, params, { mates: Infinity, nearMisses: Infinity, maxGames: GAMES }, (p) => {
    if (p.played % 10 === 0)
      progress(
        `db-rates ${variant.name}: ${p.played}/${GAMES} games, ${p.dropped} dropped, ${p.mates} mates, ${p.nearMisses} near-misses — ${seconds(performance.now() - t0)}`,
      );
  });
  const ms = performance.now() - t0;
  const count = (ply: number, cls: string) => db.counts().find((c) => c.ply === ply && c.cls === cls)?.count ?? 0;
  const games = db.games();
  const withInstance = games.filter((g) => g.instances > 0).length;
  const kept = games.filter((g) => !g.dropped);
  previous.set(variant.name, {
    commit: git.commit + (git.dirty ? '+' : ''),
    variant: variant.name,
    what: variant.what,
    games: games.length,
    dropped: games.length - kept.length,
    withInstance,
    mates3: count(3, 'mate'),
    nearMisses3: count(3, 'near-miss'),
    mates5: count(5, 'mate'),
    nearMisses5: count(5, 'near-miss'),
    meanPlies: kept.reduce((s, g) => s + g.plies, 0) / Math.max(1, kept.length),
    ms,
    dropPly: median(games.filter((g) => g.dropped).map((g) => g.plies)),
    keptWithInstance: kept.filter((g) => g.instances > 0).length,
    kept: kept.length,
    whiteWins: kept.filter((g) => g.result === '1-0').length,
  });
  db.close();
}

for (const variant of VARIANTS) if (previous.has(variant.name)) rows.push(previous.get(variant.name)!);
const commits = [...new Set(rows.map((r) => r.commit as string))];
const per100 = (x: number, n: number) => ((100 * x) / n).toFixed(1);
const md = [
  "### Mates per 100 games from the initial position: White's program and the classification",
  '',
  `Machine: ${describeMachine(machine())}; ${commits.length > 1 ? `rows measured at commits ${commits.join(', ')} (+: with uncommitted changes; the Commit column)` : `commit ${commits[0]}`}; ${new Date().toISOString()}.`,
  '',
  `\`npm run bench:db-rates\`: the same ${GAMES} games (database seed 1, games 1–${GAMES}, ${START} start) under each variant, generated by \`krieg db generate\`'s code into a database in memory (at most 2 instances a game, the largest beliefs first; near-misses re-analysed at 5 ply). Per 100 games (the kept-game columns: per cent of the games not dropped):`,
  '',
  `| Variant | What changes${commits.length > 1 ? ' | Commit' : ''} | Dropped | Median ply of the drop | Games with an instance | Kept games with an instance | Kept games White won | 3-ply mates | 3-ply near-misses | 5-ply mates | 5-ply near-misses | Mean plies (kept games) | Time per game |`,
  `|---|---|${commits.length > 1 ? '---|' : ''}---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
  ...rows.map((r) => {
    const n = r.games as number;
    const kept = Math.max(1, r.kept as number);
    return `| ${r.variant} | ${r.what}${commits.length > 1 ? ` | ${r.commit}` : ''} | ${per100(r.dropped as number, n)} | ${r.dropPly} | ${per100(r.withInstance as number, n)} | ${per100(r.keptWithInstance as number, kept)}% | ${per100(r.whiteWins as number, kept)}% | ${per100(r.mates3 as number, n)} | ${per100(r.nearMisses3 as number, n)} | ${per100(r.mates5 as number, n)} | ${per100(r.nearMisses5 as number, n)} | ${(r.meanPlies as number).toFixed(0)} | ${seconds((r.ms as number) / n)} |`;
  }),
];
writeText(join(root, `bench/results/${name}.md`), md.join('\n'));
writeJson(jsonPath, {
  machine: machine(),
  commit: git.commit,
  games: GAMES,
  start: START,
  rows,
});
console.log(md.join('\n'));

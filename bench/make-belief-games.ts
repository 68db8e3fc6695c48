// Makes the fixed game sets bench/belief.ts measures (run once; the output files are committed):
//
// bench/data/belief-games.kpgn — 40 berkeley random self-play games (the core's random player,
//   seeds from 1 up), each cut after the largest ply P in 8–24 at which, for BOTH colours' views,
//   the exact belief state is large but cheap enough to compute many times:
//     - the breadth-first belief completes with at most 250,000 positions and 1.2 M work units
//       (positions generated and tested), and
//     - the depth-first estimator completes within 3 M work units.
//   The scan over P stops after two failing plies in a row; a seed whose game ends (mate, draw)
//   before the cut, or with no passing P ≥ 8, is skipped. Random berkeley games blow up fast:
//   the cuts land at ply 9–13, and belief sizes run from about 1,000 to about 240,000.
//   The limits are work counts, not times, so the selection does not depend on the machine (it
//   does depend on the estimators: the committed file was made at commit 343f96e).
//
// bench/data/belief-plies.kpgn — the game of the "information-set counts per ply" report:
//   seed 14, 20 plies, played once under berkeley and once under berkeley with castling off,
//   en passant off, promotion to a queen only, plain "check" and pawn-try squares announced (the
//   random player's draws depend on the attempts the rules allow, so the games may differ: these
//   two share their first 17 plies, the Illegal attempts aside, and then part). Seed 14 had the longest
//   run of tractable plies under both rule sets among seeds 1–40 (every ply's belief and history
//   count within 5 M work units: 13 plies under berkeley, 16 under the restricted rules).
//
// Usage: node scripts/run-ts.mjs bench/make-belief-games.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine } from '../host/node';
import { preset, withOverrides, sameRules, type RuleSet } from '../host/record/rules';
import { randomGame } from '../host/referee/game';
import { viewOf, SIDES, type GameRecord } from '../host/record/record';
import { estimateBelief } from '../host/belief/estimate';
import { makeRecordKpgn, parseKpgnGames } from '../host/notation/kpgn';
import { progress, repoRoot, writeText } from './lib/harness';

const GAMES = 40;
const MIN_PLY = 8;
const MAX_PLY = 24;
const MAX_BELIEF = 250_000;
const BFS_WORK = 1.2e6;
const DFS_WORK = 3e6;
const PLY_SEED = 14;
const PLY_GAME_PLIES = 20;
const RESTRICTED: RuleSet = withOverrides(preset('berkeley'), {
  castling: false,
  enPassant: false,
  promotionPieces: 'q',
  checkDetail: 'plain',
  pawnTries: 'squares',
});

const plies = (record: GameRecord) =>
  record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length;

const root = repoRoot();
const referee = createEngine('wasm', 1024);
const estimator = createEngine('wasm', 1 << 20);

/** Belief sizes of both colours' views if the cut passes, else undefined. */
function passes(record: GameRecord): number[] | undefined {
  const sizes: number[] = [];
  for (const as of SIDES) {
    const view = viewOf(record, as);
    const bfs = estimateBelief(estimator, view, 'bfs', { work: BFS_WORK, positions: MAX_BELIEF });
    if (bfs.outcome !== 'complete') return undefined;
    const dfs = estimateBelief(estimator, view, 'dfs', { work: DFS_WORK, positions: MAX_BELIEF });
    if (dfs.outcome !== 'complete' || dfs.handles.length !== bfs.handles.length) return undefined;
    sizes.push(bfs.handles.length);
  }
  return sizes;
}

const berkeley = preset('berkeley');
referee.setRules(berkeley);
const games: string[] = [];
for (let seed = 1; games.length < GAMES; seed++) {
  let best: { record: GameRecord; sizes: number[] } | undefined;
  let failures = 0;
  for (let cut = MIN_PLY; cut <= MAX_PLY && failures < 2; cut++) {
    const record = randomGame(referee, seed, { maxPlies: cut });
    if (record.result !== '*' || plies(record) !== cut) break; // the game ended before the cut
    const sizes = passes(record);
    if (sizes) {
      best = { record, sizes };
      failures = 0;
    } else failures++;
  }
  if (!best) {
    progress(`seed ${seed}: skipped`);
    continue;
  }
  const cut = plies(best.record);
  progress(`seed ${seed}: cut at ply ${cut}, belief ${best.sizes.join(' / ')} (white / black)`);
  best.record.tags = { Event: 'krieg belief bench', Seed: String(seed), Plies: String(cut) };
  games.push(makeRecordKpgn(best.record));
}

const perPly: string[] = [];
for (const [name, rules] of [
  ['berkeley', berkeley],
  ['restricted', RESTRICTED],
] as const) {
  referee.setRules(rules);
  const record = randomGame(referee, PLY_SEED, { maxPlies: PLY_GAME_PLIES });
  if (plies(record) !== PLY_GAME_PLIES)
    throw new Error(`seed ${PLY_SEED} under ${name} ended after ${plies(record)} plies`);
  record.tags = { Event: `krieg belief per ply (${name})`, Seed: String(PLY_SEED), Plies: String(PLY_GAME_PLIES) };
  perPly.push(makeRecordKpgn(record));
}

const files = [
  {
    path: 'bench/data/belief-games.kpgn',
    games,
    rules: [berkeley],
    note: `${GAMES} berkeley random games cut where both views' exact beliefs are large but cheap (see the script's header)`,
  },
  {
    path: 'bench/data/belief-plies.kpgn',
    games: perPly,
    rules: [berkeley, RESTRICTED],
    note: `seed ${PLY_SEED}, ${PLY_GAME_PLIES} plies, under berkeley and under the restricted rules (information-set counts per ply)`,
  },
];
for (const file of files) {
  const text = [`% Generated by bench/make-belief-games.ts: ${file.note}.`, '', file.games.join('\n')].join('\n');
  const path = join(root, file.path);
  writeText(path, text);
  // the file reads back as the same games, under the same rules
  const parsed = parseKpgnGames(readFileSync(path, 'utf8'));
  const same =
    parsed.length === file.games.length &&
    parsed.every(
      (p, i) =>
        p.kind === 'record' &&
        makeRecordKpgn(p.record) === file.games[i] &&
        sameRules(p.record.rules, file.rules[Math.min(i, file.rules.length - 1)]),
    );
  if (!same) throw new Error(`${file.path} does not read back as written`);
  progress(`wrote ${file.path} (${file.games.length} games)`);
}

// Harvests the 3-ply and 5-ply mate and near-miss problem sets (issue 6, acceptance 1 and 2):
// test/data/problems/set-3ply.json and set-5ply.json, which test/solver/incremental.test.ts solves
// with the incremental and black-box algorithms on both backends (a sample by default, all of them
// with KRIEG_SOLVER_FULL=1) and which the solver benchmarks time.
//
// Re-run (from the repository root; deterministic for a given seed and core: every choice depends
// on seeds and node counts, never on time; about 5-10 minutes, progress on stdout, a summary at
// the end: counts per ply and class, belief sizes, time by activity, any disagreement):
//
//   node scripts/run-ts.mjs scripts/harvest-set.ts                  # seed 1, writes both files
//   node scripts/run-ts.mjs scripts/harvest-set.ts --seed 7 --out-dir /tmp/sets --max-games 200
//
// After a change to the core the sets may come out different (the node limits and the greedy
// search depend on the algorithms' work); the sample in incremental.test.ts names problems by id.
//
// What it does, all under Berkeley rules on the WASM backend:
//   1. Games. Seeded random endgame setups with more material than part 1's harvester: White has
//      K+Q, K+R, K+R+R, K+Q+R, K+R+B or K+Q+P, Black a king with 0-3 pawns or minor pieces (legal,
//      White to move, Black's king 2-3 squares from White's, on the edge in half the setups).
//      White plays an aggressive cheap policy: with probability AGGRESSION the untried attempt
//      rated best on the true board (mate; few squares for Black's king; check; capture; not
//      leaving the moved piece to be taken for nothing), otherwise a uniformly random untried
//      attempt (which may well be Illegal, and so tells White something). The policy peeks at the
//      true board; that only steers the games towards mating chances: the problems are White's
//      exact belief from White's view, whatever chose the moves. Black plays uniformly random.
//      At most MAX_PLIES plies a game; a game is abandoned once White's belief exceeds 10,000.
//   2. Cut points. After each of Black's moves (White to move), White's exact belief is estimated
//      from White's view (breadth-first, host/belief/estimate.ts); a point qualifies when the belief
//      has 2-100 positions (in the estimator's order, which is deterministic).
//   3. Classification at N ply (3, and 5 for the 5-ply set), by node limits only:
//      - gl-dbu answers (if it runs out of nodes the point is dropped);
//      - proven: a **mate** instance;
//      - disproven: a greedy search for one strategy that mates in many positions: positions are
//        added one at a time in belief order, a position kept when gl-dbu still proves the kept set
//        (stopping once even all the rest could not reach half). If the kept set holds at least
//        half the positions, the problem is a **near-miss** (the note lists the kept positions);
//        otherwise it is neither and dropped;
//      - a problem to be kept is confirmed: ipns and a black-box algorithm (le-dfs; if that runs
//        out of nodes, e-pns; if both do, the problem is dropped) must give gl-dbu's answer, every
//        proven strategy must pass the independent verifier (host/verify/verify.ts), and for a
//        near-miss gl-dbu's strategy for the kept set must pass it on the kept set. Anything else
//        is printed as a BUG (a solver disagreement) and the problem dropped.
//   4. The 5-ply set. Every 3-ply near-miss is re-analysed at 5 ply (the paper's method): it is a
//      5-ply mate, or a 5-ply near-miss (its 3-ply kept set proves at 5 ply too; the greedy search
//      goes on from it). Besides, points that are neither at 3 ply are tried directly at 5 ply.
//      3-ply mates are not taken at 5 ply (no harder as problems).
//   5. Selection. At most PER_GAME problems of each ply per game, none twice (same position set),
//      TARGET problems of each ply and class, small beliefs capped per bucket (BUCKETS: small
//      beliefs are common and easy, large ones rarer and the hard ones, so the caps push the sets
//      towards large beliefs). It stops when every target is met or after MAX_GAMES games, and says
//      how many it got. Each file is sorted by class, then belief size.
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomSetup, whiteToMoveCuts } from '../host/db/setups';
import { greedyCover } from '../host/db/classify';
import { join, resolve } from 'node:path';
import { Chess } from 'chessops/chess';
import { parseFen as parseChessopsFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import type { NormalMove } from 'chessops/types';
import { createEngine } from '../host/node';
import { makeUci } from '../host/notation/move';
import { preset } from '../host/record/rules';
import { seededRandom } from '../host/referee/game';
import { GameSession } from '../host/referee/session';
import { runGame } from '../host/players/game';
import { randomPlayerOn } from '../host/players/random';
import type { Player } from '../host/players/player';
import { viewOf, type GameRecord } from '../host/record/record';
import { estimateBelief } from '../host/belief/estimate';
import { solve, type Algorithm, type Answer, type SolveResult } from '../host/solver/solve';
import { verifyStrategy, verdictText } from '../host/verify/verify';
import { makeProblems, parseProblems, type NamedProblem, type ProblemClass } from '../host/solver/problemFile';
import { repoRoot } from '../bench/lib/harness';

const MIN_BELIEF = 2;
const MAX_BELIEF = 100;
const DROP_BELIEF = 10_000;
const MAX_PLIES = 24;
const MAX_GAMES = 1000;
const PER_GAME = 2;
const AGGRESSION = 0.85;
/** Node limits: the incremental searches and the black-box confirmation. */
const INCREMENTAL_LIMIT = 2_000_000;
const BLACK_BOX_LIMIT = 1_000_000;
/** The greedy near-miss search: the node limit of each of its gl-dbu solves (a solve that runs out rejects that position). */
const GREEDY_LIMIT = 400_000;

interface Bucket {
  ply: 3 | 5;
  cls: ProblemClass;
  min: number;
  max: number;
  cap: number;
}
/** How many problems of each ply and class to harvest. */
const TARGET = 80;
/**
 * At most so many problems of each ply, class and belief size: small beliefs are common and easy,
 * so they are capped, and the rest of each class's TARGET must come from larger beliefs.
 */
const BUCKETS: Bucket[] = [
  { ply: 3, cls: 'mate', min: 2, max: 4, cap: 25 },
  { ply: 3, cls: 'mate', min: 5, max: 9, cap: 30 },
  { ply: 3, cls: 'mate', min: 10, max: 100, cap: TARGET },
  { ply: 3, cls: 'near-miss', min: 2, max: 4, cap: 15 },
  { ply: 3, cls: 'near-miss', min: 5, max: 9, cap: 25 },
  { ply: 3, cls: 'near-miss', min: 10, max: 100, cap: TARGET },
  { ply: 5, cls: 'mate', min: 2, max: 4, cap: 40 },
  { ply: 5, cls: 'mate', min: 5, max: 9, cap: 30 },
  { ply: 5, cls: 'mate', min: 10, max: 29, cap: 40 },
  { ply: 5, cls: 'mate', min: 30, max: 100, cap: TARGET },
  { ply: 5, cls: 'near-miss', min: 2, max: 9, cap: 15 },
  { ply: 5, cls: 'near-miss', min: 10, max: 29, cap: 40 },
  { ply: 5, cls: 'near-miss', min: 30, max: 100, cap: TARGET },
];

function usage(): never {
  console.error('usage: node scripts/run-ts.mjs scripts/harvest-set.ts [--seed N] [--out-dir DIR] [--max-games N]');
  process.exit(2);
}

const args = process.argv.slice(2);
let seed = 1;
let outDir: string | undefined;
let maxGames = MAX_GAMES;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--seed' && /^\d+$/.test(args[i + 1] ?? '')) seed = Number(args[++i]);
  else if (args[i] === '--out-dir' && args[i + 1]) outDir = args[++i];
  else if (args[i] === '--max-games' && /^\d+$/.test(args[i + 1] ?? '')) maxGames = Number(args[++i]);
  else usage();
}

const dir = outDir ? resolve(outDir) : join(repoRoot(), 'test/data/problems');
const outPaths = { 3: join(dir, 'set-3ply.json'), 5: join(dir, 'set-5ply.json') } as const;

const rules = preset('berkeley');
const referee = createEngine('wasm', 1024);
const estimator = createEngine('wasm', 1 << 16);
const solver = createEngine('wasm');
referee.setRules(rules);

// ---- White's aggressive policy ----

/** How White rates its move `move` on the true board `pos`: mate first, then a boxed-in black king, checks and captures, safe pieces. */
function rate(pos: Chess, move: NormalMove): number {
  const capture = pos.board.get(move.to)?.color === 'black';
  const after = pos.clone();
  after.play(move);
  if (after.isCheckmate()) return 1000;
  if (after.isEnd()) return -1000; // stalemate, or a draw by material
  const king = after.board.kingOf('black')!;
  const kingMoves = after.dests(king).size();
  // does Black win the moved piece (not defended by White)?
  let hangs = 0;
  const moved = after.board.get(move.to)!;
  if (moved.role !== 'king') {
    for (const [from, dests] of after.allDests()) {
      if (!dests.has(move.to)) continue;
      const taken = after.clone();
      taken.play({ from, to: move.to });
      const retake = [...taken.allDests()].some(([, d]) => d.has(move.to));
      if (!retake) hangs = 1;
      break;
    }
  }
  return -3 * kingMoves + (after.isCheck() ? 2 : 0) + (capture ? 4 : 0) - 8 * hangs;
}

/**
 * White: with probability AGGRESSION the untried attempt rated best on the true board (rate, ties
 * broken at random), else a uniformly random untried one. The harvest's White sees the board:
 * `board` gives it (the FEN of the session's true board); `random` is the game's one stream.
 */
function aggressivePlayer(board: () => string, random: () => number): Player {
  return {
    name: 'aggressive',
    observe() {
      /* it reads the board */
    },
    choose(turn) {
      const open = turn.attempts;
      if (random() < AGGRESSION) {
        const pos = Chess.fromSetup(parseChessopsFen(board()).unwrap()).unwrap();
        let best: number[] = [];
        let bestScore = -Infinity;
        for (const a of open) {
          const move = parseUci(makeUci(a));
          if (!move || !('from' in move) || !pos.isLegal(move)) continue;
          const score = rate(pos, move);
          if (score > bestScore) {
            best = [a];
            bestScore = score;
          } else if (score === bestScore) best.push(a);
        }
        if (best.length) return best[Math.floor(random() * best.length)];
      }
      return open[Math.floor(random() * open.length)];
    },
  };
}

// ---- classification ----

type Work = Record<string, { nodes: number; positions: number }>;
interface Classified {
  cls: ProblemClass;
  /** Confirmed: ipns and the black-box algorithm agree with gl-dbu, the strategies verify. */
  confirmed: boolean;
  /** The work of gl-dbu and, when confirmed, of ipns and the black-box algorithm. */
  work: Work;
  blackBox?: Algorithm;
  /** Near-miss: the positions (indices) one strategy mates in. */
  kept?: number[];
}

let bugs = 0;
const bugLines: string[] = [];
function bug(text: string): void {
  bugs++;
  bugLines.push(text);
  console.log(`    BUG: ${text}`);
}

/** Milliseconds spent, by activity (printed in the summary; never used for a decision). */
const spent = { games: 0, estimate: 0, solve: 0, greedy: 0, verify: 0 };
function timed<T>(what: keyof typeof spent, f: () => T): T {
  const t = performance.now();
  try {
    return f();
  } finally {
    spent[what] += performance.now() - t;
  }
}

function run(problem: NamedProblem, algo: Algorithm, nodes: number): SolveResult {
  return timed('solve', () => solve(solver, problem, algo, { nodes }));
}

function verifies(problem: NamedProblem, result: SolveResult, what: string): boolean {
  if (result.answer !== 'proven') return true;
  const verdict = timed('verify', () => verifyStrategy(problem, result.strategy!));
  if (!verdict.ok) bug(`${problem.id}: the verifier rejects ${what}'s strategy\n${verdictText(verdict)}`);
  return verdict.ok;
}

/**
 * The class of `problem`, or undefined (with the reason printed) when it is neither or not
 * confirmed. gl-dbu answers and, when disproven, the greedy search decides near-miss or neither;
 * only when `wanted(class)` is the answer confirmed (ipns, a black-box algorithm, the verifier) and
 * `confirmed` set: an unwanted class costs no confirmation.
 */
function classify(
  problem: NamedProblem,
  wanted: (cls: ProblemClass) => boolean,
  greedyStart?: number[],
): Classified | undefined {
  const work: Work = {};
  const note = (algo: string, r: SolveResult) => {
    work[algo] = { nodes: r.stats.nodes, positions: r.stats.positions };
  };
  const first = run(problem, 'gl-dbu', INCREMENTAL_LIMIT);
  if (first.answer === 'unknown') {
    console.log('    dropped: gl-dbu ran out of nodes');
    return undefined;
  }
  note('gl-dbu', first);
  const answer: Answer = first.answer;
  let kept: number[] | undefined;
  if (answer === 'disproven') {
    kept = timed('greedy', () => greedyCover(solver, problem, GREEDY_LIMIT, greedyStart));
    if (!kept) {
      console.log('    neither: disproven, and the greedy strategy mates in fewer than half the positions');
      return undefined;
    }
  }
  const cls: ProblemClass = kept ? 'near-miss' : 'mate';
  if (!wanted(cls)) return { cls, work, kept, confirmed: false };
  const ipns = run(problem, 'ipns', INCREMENTAL_LIMIT);
  if (ipns.answer === 'unknown') {
    console.log('    dropped: ipns ran out of nodes');
    return undefined;
  }
  note('ipns', ipns);
  if (ipns.answer !== answer) {
    bug(`${problem.id}: gl-dbu ${answer}, ipns ${ipns.answer}`);
    return undefined;
  }
  let blackBox: Algorithm | undefined;
  for (const algo of ['le-dfs', 'e-pns'] as const) {
    const r = run(problem, algo, BLACK_BOX_LIMIT);
    if (r.answer === 'unknown') continue;
    note(algo, r);
    if (r.answer !== answer) {
      bug(`${problem.id}: gl-dbu ${answer}, ${algo} ${r.answer}`);
      return undefined;
    }
    if (!verifies(problem, r, algo)) return undefined;
    blackBox = algo;
    break;
  }
  if (!blackBox) {
    console.log(`    dropped: le-dfs and e-pns both ran out of ${BLACK_BOX_LIMIT} nodes`);
    return undefined;
  }
  if (!verifies(problem, first, 'gl-dbu') || !verifies(problem, ipns, 'ipns')) return undefined;
  if (kept) {
    const subset = { ...problem, positions: kept.map((i) => problem.positions[i]) };
    const proof = run(subset, 'gl-dbu', INCREMENTAL_LIMIT);
    if (proof.answer !== 'proven') {
      bug(`${problem.id}: gl-dbu proved the kept set during the greedy search, but answers ${proof.answer} now`);
      return undefined;
    }
    const verdict = timed('verify', () => verifyStrategy(subset, proof.strategy!));
    if (!verdict.ok) {
      bug(`${problem.id}: the verifier rejects gl-dbu's strategy on the kept set\n${verdictText(verdict)}`);
      return undefined;
    }
  }
  return { cls, work, blackBox, kept, confirmed: true };
}

// ---- selection ----

const sets: Record<3 | 5, NamedProblem[]> = { 3: [], 5: [] };
const seen = new Set<string>();
const filled = BUCKETS.map(() => 0);
const bucketOf = (ply: number, cls: ProblemClass, size: number) =>
  BUCKETS.findIndex((b) => b.ply === ply && b.cls === cls && size >= b.min && size <= b.max);
const count = (ply: 3 | 5, cls: ProblemClass) => sets[ply].filter((p) => p.class === cls).length;
const open = (ply: 3 | 5, cls: ProblemClass, size: number) => {
  const b = bucketOf(ply, cls, size);
  return b >= 0 && filled[b] < BUCKETS[b].cap && count(ply, cls) < TARGET;
};
const anyOpen = (ply: 3 | 5, size: number) => open(ply, 'mate', size) || open(ply, 'near-miss', size);
const allFilled = () =>
  ([3, 5] as const).every((ply) => count(ply, 'mate') >= TARGET && count(ply, 'near-miss') >= TARGET);
const workText = (w: Work) =>
  Object.entries(w)
    .map(([a, s]) => `${a} ${s.nodes}`)
    .join(', ');

function keep(ply: 3 | 5, problem: NamedProblem, c: Classified, origin: string): void {
  problem.class = c.cls;
  problem.expect = c.cls === 'mate' ? 'proven' : 'disproven';
  const n = problem.positions.length;
  const what =
    c.cls === 'mate'
      ? `a guaranteed mate within ${ply} ply`
      : `no guaranteed mate within ${ply} ply, but one strategy (greedy, gl-dbu, verified) mates in ${c.kept!.length} of the ${n} positions: ${c.kept!.map((i) => i + 1).join(',')}`;
  problem.note =
    `Harvested (scripts/harvest-set.ts --seed ${seed}): ${origin}. White's exact belief (${n} positions): ${what}. ` +
    `gl-dbu, ipns and ${c.blackBox!} agree; nodes made when harvested: ${workText(c.work)}.`;
  sets[ply].push(problem);
  filled[bucketOf(ply, c.cls, n)]++;
  console.log(`    kept: ${ply}-ply ${c.cls}${c.kept ? ` (${c.kept.length}/${n})` : ''}; ${workText(c.work)}`);
}

// ---- games ----

let games = 0;
let points = 0;
const started = performance.now();
const random = seededRandom(seed);

function harvestGame(name: string, start: string, gameSeed: number): void {
  const record = timed('games', () => {
    const names = { white: 'aggressive', black: 'random' };
    const session = new GameSession(referee, { start, maxPlies: MAX_PLIES, names, tags: { Seed: String(gameSeed) } });
    const stream = seededRandom(gameSeed); // both sides draw from it
    const white = aggressivePlayer(() => referee.fen(session.handle), stream);
    return runGame(session, { white, black: randomPlayerOn(stream) });
  });
  games++;
  const taken = { 3: 0, 5: 0 };
  for (const cut of whiteToMoveCuts(record)) {
    if (taken[3] >= PER_GAME && taken[5] >= PER_GAME) break;
    const belief = timed('estimate', () =>
      estimateBelief(estimator, viewOf(cut.record, 'white'), 'bfs', { positions: DROP_BELIEF, work: 20_000_000 }),
    );
    if (belief.outcome !== 'complete') {
      console.log(`  (game abandoned after ${cut.plies} plies: belief over ${DROP_BELIEF} or too costly)`);
      return;
    }
    const size = belief.handles.length;
    if (size < MIN_BELIEF || size > MAX_BELIEF) continue;
    if (!anyOpen(3, size) && !anyOpen(5, size)) continue;
    const positions = belief.handles.map((h) => estimator.fen(h));
    const key = [...positions].sort().join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    points++;
    const origin = `random ${name} setup ${start}, game seed ${gameSeed}, cut after ${cut.plies} plies with White to move`;
    const base = `${name}-s${gameSeed}-p${cut.plies}`;
    console.log(`  ${base}: belief ${size} positions`);
    // 3 ply: kept when its bucket is open; a near-miss is needed (unconfirmed) for the 5-ply set too
    const want5 = taken[5] < PER_GAME && anyOpen(5, size);
    const want3 = taken[3] < PER_GAME;
    const problem: NamedProblem = { id: `3-${base}`, rules, ply: 3, positions };
    const three = classify(problem, (cls) => want3 && open(3, cls, size));
    if (three?.confirmed) {
      keep(3, problem, three, origin);
      taken[3]++;
    }
    if (!want5 || three?.cls === 'mate') continue; // a 3-ply mate is a 5-ply mate too: no harder problem
    // 5 ply: a 3-ply near-miss re-analysed, or a point that is neither at 3 ply harvested directly
    const problem5: NamedProblem = { id: `5-${base}`, rules, ply: 5, positions };
    const five = classify(problem5, (cls) => open(5, cls, size), three?.kept);
    if (five?.confirmed) {
      keep(
        5,
        problem5,
        five,
        `${origin}${three?.cls === 'near-miss' ? '; a 3-ply near-miss re-analysed at 5 ply' : '; harvested directly at 5 ply'}`,
      );
      taken[5]++;
    }
  }
}

console.log(
  `harvest-set: seed ${seed}, 3- and 5-ply mate and near-miss problems from beliefs of ${MIN_BELIEF}-${MAX_BELIEF} positions`,
);
while (games < maxGames && !allFilled()) {
  const setup = randomSetup(random);
  const gameSeed = Math.floor(random() * 1e9);
  console.log(
    `game ${games + 1}: ${setup.name} from ${setup.fen}, seed ${gameSeed} ` +
      `[3-ply ${sets[3].length}, 5-ply ${sets[5].length}, ${((performance.now() - started) / 1000).toFixed(0)} s]`,
  );
  harvestGame(setup.name, setup.fen, gameSeed);
}

// ---- output and summary ----

mkdirSync(dir, { recursive: true });
const order: Record<ProblemClass, number> = { mate: 0, 'near-miss': 1 };
for (const ply of [3, 5] as const) {
  const problems = sets[ply].sort(
    (a, b) => order[a.class!] - order[b.class!] || a.positions.length - b.positions.length || (a.id < b.id ? -1 : 1),
  );
  const text = makeProblems(problems);
  parseProblems(text, outPaths[ply]); // reads back
  writeFileSync(outPaths[ply], text);
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `\n${games} games, ${points} qualifying points, ${(seconds / 60).toFixed(1)} min ` +
    `(${Object.entries(spent)
      .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(0)} s`)
      .join(', ')})`,
);
for (const ply of [3, 5] as const) {
  for (const cls of ['mate', 'near-miss'] as const) {
    const sizes = sets[ply].filter((p) => p.class === cls).map((p) => p.positions.length);
    const mean = sizes.length ? (sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(1) : '-';
    const sorted = [...sizes].sort((a, b) => a - b);
    console.log(
      `  ${ply}-ply ${cls.padEnd(9)} ${String(sizes.length).padStart(4)} problems; belief size min ${sorted[0] ?? '-'}, median ${sorted[sorted.length >> 1] ?? '-'}, mean ${mean}, max ${sorted[sorted.length - 1] ?? '-'}`,
    );
  }
}
console.log(
  `  buckets: ${BUCKETS.map((b, i) => `${b.ply}/${b.cls}/${b.min}-${b.max} ${filled[i]}/${b.cap}`).join(', ')}`,
);
console.log(`  ${bugs} disagreements or rejected strategies${bugLines.length ? ':\n' + bugLines.join('\n') : ''}`);
console.log(`wrote ${outPaths[3]} (${sets[3].length}) and ${outPaths[5]} (${sets[5].length})`);

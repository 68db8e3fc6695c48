// Reply times of a timed player (issue #34): at --time-per-move S, how long each of its moves takes
// from the start of its turn (the runner's deadline minus S) to the return of its legal attempt —
// a whole turn, Illegal retries and the tracking of what it hears included (Parker et al. §5 count
// a move so). Games of the player against random (alternating colours, berkeley) until N moves are
// timed; the distribution (median, p90, p99, max) with the machine's load (os.loadavg, as `uptime`
// prints it) before and after: the times are only as quiet as the machine.
// Usage: npm run bench:reply-times [-- --time-per-move 1 --moves 200 --player krieg --max-plies 200]
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { createEngine } from '../host/node';
import { preset } from '../host/record/rules';
import { START_FEN } from '../host/notation/fen';
import { PlayerEngines } from '../host/players/engines.node';
import { parsePlayerSpec, playerFactory } from '../host/players/registry';
import { runGame } from '../host/players/game';
import { GameSession } from '../host/referee/session';
import type { Player, PlayerSetup } from '../host/players/player';
import { describeMachine, gitState, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const S = Number(option('time-per-move') ?? 1);
const MOVES = Number(option('moves') ?? 200);
const PLAYER = option('player') ?? 'krieg';
const MAX_PLIES = Number(option('max-plies') ?? 200);
const rules = preset('berkeley');
const engines = new PlayerEngines('wasm');

/** The nearest-rank percentile of sorted `xs`. */
const percentile = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(p * xs.length) - 1))];

const loadBefore = loadavg();
const times: number[] = [];
let attempts = 0;
for (let game = 0; times.length < MOVES; game++) {
  const side = game % 2 === 0 ? 'white' : 'black';
  const other = side === 'white' ? 'black' : 'white';
  const setup = (s: 'white' | 'black', name: string, seed: number): PlayerSetup => ({
    side: s,
    rules,
    start: START_FEN,
    seed,
    budget: { timePerMove: S },
    options: parsePlayerSpec(name).options,
  });
  const timed = playerFactory(parsePlayerSpec(PLAYER))(setup(side, PLAYER, 2 * game + 1), engines.for(side, rules));
  const random = playerFactory(parsePlayerSpec('random'))(
    setup(other, 'random', 2 * game + 2),
    engines.for(other, rules),
  );
  // a turn's start is its deadline less S; its reply time is that of its last choice (the legal one)
  const reply = new Map<number, number>();
  const measured: Player = {
    name: timed.name,
    observe: (event) => timed.observe(event),
    choose: (turn) => {
      const choice = timed.choose(turn);
      const start = turn.deadline! - S * 1000;
      reply.set(start, performance.now() - start);
      attempts++;
      return choice;
    },
  };
  const players = side === 'white' ? { white: measured, black: random } : { white: random, black: measured };
  runGame(new GameSession(createEngine('wasm', 16), { maxPlies: MAX_PLIES }), players, { timePerMove: S });
  times.push(...[...reply.values()].slice(0, MOVES - times.length));
  progress(`game ${game + 1}: ${times.length}/${MOVES} moves`);
}
const loadAfter = loadavg();
times.sort((a, b) => a - b);
const s = (ms: number) => Math.round(ms) / 1000;
const stats = {
  median: s(percentile(times, 0.5)),
  p90: s(percentile(times, 0.9)),
  p99: s(percentile(times, 0.99)),
  max: s(times[times.length - 1]),
  over: times.filter((t) => t > S * 1000).length,
};
const root = repoRoot();
const m = machine();
const git = gitState(root, ['assembly', 'host']);
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
writeJson(join(root, 'bench/results/reply-times.json'), {
  player: PLAYER,
  rules: 'berkeley',
  opponent: 'random',
  timePerMove: S,
  moves: times.length,
  attempts,
  seconds: stats,
  load: { before: loadBefore, after: loadAfter },
  machine: m,
  commit: git.commit,
  dirty: git.dirty,
  date: new Date().toISOString(),
});
writeText(
  join(root, 'bench/results/reply-times.md'),
  [
    `# Reply times at --time-per-move ${S}`,
    '',
    `${PLAYER} v random, berkeley, ${times.length} moves (${attempts} attempts, Illegal retries included), the`,
    `time from the start of each turn to its legal attempt. Load average (1, 5, 15 min) ${load(loadBefore)}`,
    `before and ${load(loadAfter)} after, on ${describeMachine(m)} (commit ${git.commit}${git.dirty ? ', dirty' : ''}).`,
    '',
    '| median | p90 | p99 | max | over S |',
    '|---|---|---|---|---|',
    `| ${stats.median} s | ${stats.p90} s | ${stats.p99} s | ${stats.max} s | ${stats.over} of ${times.length} |`,
    '',
  ].join('\n'),
);
console.log(
  `median ${stats.median} s, p90 ${stats.p90} s, p99 ${stats.p99} s, max ${stats.max} s; load ${load(loadAfter)}`,
);

// Endgame technique (issue #34 item 3): krieg's attacker against a lone king, from random legal
// placements drawn from a seed (the attacker to move, the defender not in check; K+B+B v K with
// bishops on both colours), Berkeley rules, games to the end or the ply cap. Per ending and
// defender: mates, mates within 50 moves, the mean and the largest number of the attacker's moves
// to mate, and how the other games ended. Both players know the start (krieg's belief begins
// exact: the king on its square) — unless `--wide`: krieg's source has lost his king (sources.ts
// lostKingSource: one position, his king where he is not), so its technique starts from every square
// his king may stand on, as a long game past the tracker's exact layer leaves it, and no tablebase
// plays (its rows are marked "wide").
// Usage: npm run bench:endgames [-- --games 100 --starts 25 --nodes 300 --max-plies 200
//        --endings krk,kqk,kbbk,kbnk --defenders random,centre,hs --seed 70002 --stubborn 20 --wide]
// --stubborn N: N games per ending (of the same starts) against each defender after the first:
// `centre` (below: a blind lone king that keeps as far from the edges as it can) and HS, or any
// player (krieg).
// The games go to bench/games/endgames-<ending>-<defender>.kpgn (not kept in git; `krieg view` reads them).
import { join } from 'node:path';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { makeRecordKpgn } from '../host/notation/kpgn';
import { makeFenOfPieces } from '../host/notation/fen';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { preset } from '../host/record/rules';
import { parsePlayerSpec, playerFactory } from '../host/players/registry';
import { KriegPlayer } from '../host/players/krieg';
import { lostKingSource } from '../host/players/sources';
import { runGame } from '../host/players/game';
import { GameSession } from '../host/referee/session';
import { PlayerEngines } from '../host/players/engines.node';
import type { PlayerFactory, PlayerSetup } from '../host/players/player';
import { gameSeed } from '../host/referee/seeds';
import { createEngine } from '../host/node';
import { seededRandom } from '../host/referee/game';
import type { GameRecord, Side } from '../host/record/record';
import { describeMachine, gitState, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const GAMES = Number(option('games') ?? 100);
const STARTS = Number(option('starts') ?? 25);
const NODES = Number(option('nodes') ?? 300);
const MAX_PLIES = Number(option('max-plies') ?? 200);
const SEED = Number(option('seed') ?? 70002);
const STUBBORN = Number(option('stubborn') ?? 20);
const ATTACKER = option('attacker') ?? 'krieg';
const ENDINGS = (option('endings') ?? 'krk,kqk,kbbk,kbnk').split(',');
const DEFENDERS = (option('defenders') ?? 'random,centre,hs').split(',');
const WIDE = argv.includes('--wide');
/** The attacker's spec, parsed once. */
const attacker = parsePlayerSpec(ATTACKER);
if (WIDE && attacker.name !== 'krieg') throw new Error('--wide: the attacker must be krieg (its source is replaced)');
/** The acceptance's horizon: mate within this many of the attacker's moves. */
const WITHIN = 50;

/** The attacker's men besides its king, per ending. */
const MEN: Record<string, string> = { krk: 'R', kqk: 'Q', kbbk: 'BB', kbnk: 'BN' };

/** A random legal placement of the ending's men, White (the attacker) to move, Black not in check. */
function placement(ending: string, random: () => number): string {
  for (;;) {
    const board: (string | undefined)[] = new Array(64).fill(undefined);
    const squares: number[] = [];
    const free = () => {
      for (;;) {
        const sq = Math.floor(random() * 64);
        if (!board[sq]) return sq;
      }
    };
    for (const man of ['K', ...MEN[ending], 'k']) {
      const sq = free();
      board[sq] = man;
      squares.push(sq);
    }
    if (ending === 'kbbk') {
      const [b1, b2] = [squares[1], squares[2]];
      if ((((b1 & 7) + (b1 >> 3)) & 1) === (((b2 & 7) + (b2 >> 3)) & 1)) continue;
    }
    const fen = makeFenOfPieces(squares.map((sq) => [sq, board[sq]!] as const));
    const setup = parseFen(fen);
    if (setup.isErr || Chess.fromSetup(setup.value).isErr) continue; // kings adjacent, Black in check
    const pos = Chess.fromSetup(setup.value).unwrap();
    if (pos.isEnd()) continue;
    return fen;
  }
}

interface Row {
  ending: string;
  /** krieg's belief at the start: "exact", or "wide" (its source lost his king: `--wide`). */
  belief?: string;
  defender: string;
  games: number;
  mates: number;
  within: number;
  meanMoves: number;
  maxMoves: number;
  stalemates: number;
  materialDraws: number;
  capped: number;
  ms: number;
  commit?: string;
}

/** The attacker's (White's) legal moves in a game. */
const movesOf = (record: GameRecord) =>
  record.events.filter((e) => e.type === 'attempt' && e.side === 'white' && e.percept.answer === 'legal').length;

/**
 * `centre`: a stubborn lone king, blind like every player: its attempts in order of their
 * destination's distance from the centre (the farthest from every edge first, ties at random), so
 * it stays as far from the edges as the attacker's men let it.
 */
const centrePlayer: PlayerFactory = (setup) => {
  const random = seededRandom(setup.seed);
  const fromEdge = (sq: number) => Math.min(sq & 7, 7 - (sq & 7), sq >> 3, 7 - (sq >> 3));
  return {
    name: 'centre',
    observe() {
      /* its own king's square is all it needs, and the attempts give it */
    },
    choose: (turn) => {
      const best = Math.max(...turn.attempts.map((a) => fromEdge((a >> 6) & 63)));
      const open = turn.attempts.filter((a) => fromEdge((a >> 6) & 63) === best);
      return open[Math.floor(random() * open.length)];
    },
  };
};

const factory = (name: string): PlayerFactory =>
  name === 'centre' ? centrePlayer : playerFactory(parsePlayerSpec(name));

function run(ending: string, defender: string, games: number): Row {
  const random = seededRandom(SEED);
  const starts = Array.from({ length: STARTS }, () => placement(ending, random));
  const row: Row = {
    ending,
    belief: WIDE ? 'wide' : 'exact',
    defender,
    games: 0,
    mates: 0,
    within: 0,
    meanMoves: 0,
    maxMoves: 0,
    stalemates: 0,
    materialDraws: 0,
    capped: 0,
    ms: 0,
  };
  const t0 = performance.now();
  let sum = 0;
  const played: GameRecord[] = [];
  const rules = preset('berkeley');
  const engines = new PlayerEngines('wasm');
  const referee = createEngine('wasm', 16);
  referee.setRules(rules);
  for (let game = 0; game < games; game++) {
    const start = starts[game % STARTS];
    const setup = (side: Side, name: string): PlayerSetup => ({
      side,
      rules,
      start,
      seed: gameSeed(SEED + game, side === 'white' ? 1 : 2),
      budget: { nodes: NODES },
      options: name === 'centre' ? {} : parsePlayerSpec(name).options,
    });
    const whiteSetup = setup('white', ATTACKER);
    const whiteEngine = engines.for('white', rules);
    const white = WIDE
      ? new KriegPlayer(whiteSetup, whiteEngine, lostKingSource(whiteEngine, whiteSetup))
      : playerFactory(attacker)(whiteSetup, whiteEngine);
    const black = factory(defender)(setup('black', defender), engines.for('black', rules));
    const record = runGame(new GameSession(referee, { start, maxPlies: MAX_PLIES }), { white, black });
    played.push({
      ...record,
      white: ATTACKER,
      black: defender,
      tags: { Round: String(game + 1), Seed: String(SEED + game) },
    });
    row.games++;
    const last = record.events[record.events.length - 1];
    const end = last?.type === 'attempt' ? last.percept.end : undefined;
    if (end === 'checkmate' && record.result === '1-0') {
      const moves = movesOf(record);
      row.mates++;
      sum += moves;
      row.maxMoves = Math.max(row.maxMoves, moves);
      if (moves <= WITHIN) row.within++;
    } else if (end === 'stalemate') row.stalemates++;
    else if (end === 'draw-material') row.materialDraws++;
    else row.capped++;
    if ((game + 1) % 10 === 0) progress(`${ending} v ${defender}: ${row.games}/${games} (${row.mates} mates)`);
  }
  const dir = join(repoRoot(), 'bench/games');
  mkdirSync(dir, { recursive: true });
  const name = `endgames-${ending}-${defender}${WIDE ? '-wide' : ''}.kpgn`;
  writeFileSync(join(dir, name), played.map(makeRecordKpgn).join('\n'));
  row.meanMoves = row.mates ? Math.round((10 * sum) / row.mates) / 10 : 0;
  row.ms = Math.round(performance.now() - t0);
  return row;
}

const root = repoRoot();
// the code, the bench's own included, not the results files an earlier bench run left changed
const git = gitState(root, ['assembly', 'host', 'bench', ':!bench/results']);
const commit = `${git.commit}${git.dirty ? '+' : ''}`;
const params = { starts: STARTS, nodes: NODES, maxPlies: MAX_PLIES, seed: SEED, attacker: ATTACKER };
// a run replaces its own rows and keeps the other rows of earlier runs with the same parameters
const jsonPath = join(root, 'bench/results/endgames.json');
let rows: Row[] = [];
if (existsSync(jsonPath)) {
  const earlier = JSON.parse(readFileSync(jsonPath, 'utf8'));
  if (JSON.stringify(earlier.params) === JSON.stringify(params)) rows = earlier.rows;
}
const beliefOf = (r: Row) => r.belief ?? 'exact';
const order = (r: Row) =>
  ['krk', 'kqk', 'kbbk', 'kbnk'].indexOf(r.ending) * 100 +
  (beliefOf(r) === 'wide' ? 10 : 0) +
  ['random', 'centre', 'hs', 'krieg'].indexOf(r.defender);
for (const ending of ENDINGS) {
  for (const [i, defender] of DEFENDERS.entries()) {
    const row = { ...run(ending, defender, i === 0 ? GAMES : STUBBORN), commit };
    rows = [
      ...rows.filter((r) => r.ending !== ending || r.defender !== defender || beliefOf(r) !== row.belief),
      row,
    ].sort((a, b) => order(a) - order(b));
  }
}

const m = machine();
writeJson(jsonPath, { machine: m, params, rows });
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)}%` : '—');
writeText(
  join(root, 'bench/results/endgames.md'),
  [
    '### Endgames: krieg against a lone king',
    '',
    `Machine: ${describeMachine(m)}; written ${new Date().toISOString()}.`,
    '',
    `Berkeley rules; ${ATTACKER} (White, to move) against a lone king, from ${STARTS} random legal placements per ending (seed ${SEED}; the same placements for every defender), ${NODES} nodes a move, games capped at ${MAX_PLIES} plies. Defenders: random; \`centre\`, a blind stubborn king whose attempts go as far from the edges as they can (bench/endgames.ts); HS and krieg, with their sampled beliefs. "Moves": the attacker's legal moves to mate; "material draws": the king took a man (Berkeley's material draw follows). Each row is a run of \`npm run bench:endgames -- --endings E --defenders D,… --games N --stubborn M\` (the first defender N games, the others M), at its commit ("+": uncommitted changes). Rows marked "wide": the same with \`--wide\`, krieg not knowing where his king stands at the start (its source lost his king: the technique starts from every square he may stand on, as a long game past the tracker's exact layer leaves it; no tablebase).`,
    '',
    `| Ending | Defender | Games | Mates | Within ${WITHIN} moves | Mean moves | Max moves | Stalemates | Material draws | Capped | Time | Commit |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.ending.toUpperCase()}${beliefOf(r) === 'wide' ? ' (wide)' : ''} | ${r.defender} | ${r.games} | ${r.mates} (${pct(r.mates, r.games)}) | ${r.within} (${pct(r.within, r.games)}) | ${r.meanMoves} | ${r.maxMoves} | ${r.stalemates} | ${r.materialDraws} | ${r.capped} | ${(r.ms / 1000).toFixed(0)} s | ${r.commit} |`,
    ),
  ].join('\n'),
);

// Endgame tablebases (issue #35; docs/egtb.md): per backend, a table's build time (K+R v K, or
// --ending kqk with --log2 and --graph-log2 as `krieg egtb build` takes them),
// memory (resident set growth), states, longest mate, compressed size and probe time; then
// playouts on WASM against random and against a defender keeping the attacker's belief largest,
// from random start states of the table (a placement the table mates from with the king anywhere,
// the king put on one of its squares): by default (--start anywhere) the table's strategy with the
// attacker's first belief the king anywhere (its first value the start state's: asserted); with
// --start known, krieg with the table in its engine, told the start (its first probe the exact
// state); each mate within the first value probed (asserted). That defender sees the board and the
// attacker's view (an adversary, not a blind player): among its legal moves it takes the one whose
// square the table's next attempt leaves in the largest class of the attacker's set. Then the
// table's strategies from STRATEGIES random states with the king on at most three squares and a
// mate within six moves, each through the independent verifier (asserted).
// Then the cross-check with gl-dbu (the AND-OR solver, which shares no code with the tables; on
// WASM): GLDBU random states of the table with the king on at most three squares, as many valued
// 1, 2, 3, 4, 5 as more or none; a value n ≤ 5 must be proven within 2n − 1 ply and disproven within
// 2n − 3, a larger one or none disproven within 7 and 9 ply, each solve within --gldbu-nodes belief
// nodes and --gldbu-memory MB; an answer past the solver's limits is counted, a contrary one is a
// disagreement (listed, and the bench fails).
// Usage: npm run bench:egtb [-- --backends wasm,js --playouts 100 --probes 10000 --gldbu 1000 --seed 35
// --start anywhere|known --ending krk|kqk --log2 N --graph-log2 N --out NAME (bench/results/NAME.{json,md}; egtb, or egtb-quick
// for smaller counts) --table FILE (a table `krieg egtb build` wrote, loaded instead of built: its
// build time the file's header's where it has one (tables before resumable builds), no memory figure)]
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createEngine } from '../host/node';
import { preset } from '../host/record/rules';
import {
  EGTB_ENTRY_WORDS,
  egtbBuild,
  egtbEntries,
  egtbFollow,
  egtbLoad,
  egtbProbe,
  egtbStartCount,
  type EgtbEnding,
} from '../host/core/egtb';
import { endgameAttempt, endgameBegin, endgameReply, endgameSquares } from '../host/core/endgame';
import { parseFen, type Setup } from '../host/notation/fen';
import { ownBoard } from '../host/referee/ownBoard';
import { encodePercept } from '../host/record/percept';
import { viewOf } from '../host/record/record';
import { replaySetups } from '../host/referee/replay';
import { parseUci } from '../host/notation/move';
import { egtbStrategy } from '../host/players/egtbStrategy';
import { verifyStrategy } from '../host/verify/verify';
import { solveRequest } from '../host/solver/request';
import { encodeTable, setSquares, stateFen, egtbTableName } from '../host/players/egtb';
import { PlayerEngines } from '../host/players/engines.node';
import { parsePlayerSpec, playerFactory } from '../host/players/registry';
import { runGame } from '../host/players/game';
import { GameSession } from '../host/referee/session';
import type { Player, PlayerSetup, Turn } from '../host/players/player';
import type { ViewEvent } from '../host/record/record';
import type { KriegPlayer } from '../host/players/krieg';
import { seededRandom } from '../host/referee/game';
import type { Engine } from '../host/engine';
import { readTable } from '../host/players/egtbFile.node';
import { describeMachine, gitState, machine, progress, repoRoot, writeJson, writeText } from './lib/harness';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const BACKENDS = (option('backends') ?? 'wasm,js').split(',') as ('wasm' | 'js')[];
const PLAYOUTS = Number(option('playouts') ?? 100);
const PROBES = Number(option('probes') ?? 10_000);
const SEED = Number(option('seed') ?? 35);
const STRATEGIES = Number(option('strategies') ?? 200);
const GLDBU = Number(option('gldbu') ?? 1000);
const GLDBU_MEMORY_MB = Number(option('gldbu-memory') ?? 512);
const GLDBU_NODES = Number(option('gldbu-nodes') ?? 400_000);
const ENDING = (option('ending') ?? 'krk') as EgtbEnding;
const LOG2 = Number(option('log2') ?? (ENDING === 'krk' ? 20 : 24));
const GRAPH_LOG2 = option('graph-log2') === undefined ? undefined : Number(option('graph-log2'));
const TABLE = option('table');
/** Playouts' starts: the attacker's first belief the king anywhere (the table's strategy), or krieg told the start (`known`). */
const START = (option('start') ?? 'anywhere') as 'anywhere' | 'known';
if (START !== 'anywhere' && START !== 'known') throw new Error(`--start anywhere|known, not ${START}`);
const NAMES: Record<EgtbEnding, string> = { krk: 'K+R v K', kqk: 'K+Q v K', kbbk: 'K+B+B v K', kbnk: 'K+B+N v K' };
const rules = preset('berkeley');

interface BuildRow {
  backend: string;
  states: number;
  starts: number;
  longest: number;
  buildSeconds: number;
  rssMB: number;
  fileMB: number;
  probeMs: number;
}

function buildOrLoad(backend: 'wasm' | 'js', engine: Engine) {
  if (TABLE) {
    const { header, entries } = readTable(TABLE, ENDING, egtbTableName(rules));
    egtbLoad(engine, ENDING, entries, header.starts);
    return { header, ms: Number(header.built?.seconds ?? NaN) * 1000, rssMB: NaN };
  }
  const rss = process.memoryUsage().rss;
  const t0 = performance.now();
  const built = egtbBuild(engine, ENDING, {
    log2: LOG2,
    graphLog2: GRAPH_LOG2,
    progress: (text) => progress(`${backend}: ${text}`),
  });
  const ms = performance.now() - t0;
  const rssMB = (process.memoryUsage().rss - rss) / 1e6;
  const byValue = [built.states - built.byValue.reduce((a, b) => a + b, 0), ...built.byValue.slice(1)];
  const header = {
    ending: ENDING,
    table: egtbTableName(rules),
    states: built.states,
    starts: built.starts,
    longest: built.longest,
    byValue,
  };
  return { header, ms, rssMB };
}

function build(backend: 'wasm' | 'js', engine: Engine): BuildRow {
  const { header, ms, rssMB } = buildOrLoad(backend, engine);
  const entries = egtbEntries(engine);
  const fileMB = gzipSync(encodeTable(header, entries), { level: 9 }).length / 1e6;
  // probes of random states of the table, each from a position of its men
  const random = seededRandom(SEED);
  const picks = Array.from({ length: PROBES }, () => Math.floor(random() * header.states));
  let probeMs = 0;
  for (const i of picks) {
    const [men, lo, hi] = entries.subarray(i * EGTB_ENTRY_WORDS, i * EGTB_ENTRY_WORDS + 3);
    engine.setFen(0, stateFen(ENDING, men, lo, hi));
    const squares = setSquares(lo, hi);
    const t = performance.now();
    const probe = egtbProbe(engine, 0, squares);
    probeMs += performance.now() - t;
    if (probe.value !== entries[i * EGTB_ENTRY_WORDS + 3])
      throw new Error(`probe ${probe.value} ≠ table ${entries[i * EGTB_ENTRY_WORDS + 3]} at entry ${i}`);
  }
  return {
    backend,
    states: header.states,
    starts: header.starts,
    longest: header.longest,
    buildSeconds: ms / 1000,
    rssMB,
    fileMB,
    probeMs: probeMs / PROBES,
  };
}

/** The defender keeping the attacker's belief largest (above); `table` holds the table, `referee` answers its look-ahead. */
class BeliefDefender implements Player {
  readonly name = 'belief';
  constructor(
    private readonly session: GameSession,
    private readonly table: Engine,
    private readonly referee: Engine,
    private readonly random: () => number,
    /** The attacker's first set: the start state's squares (`anywhere`), or the start's king alone. */
    private readonly startSquares: number[],
  ) {}
  observe(): void {}
  choose(): number {
    const t = this.table;
    const record = this.session.record();
    const setups = replaySetups(t, record, 0);
    const now = setups[setups.length - 1];
    t.setSetup(0, now);
    const moves = t.moves(0);
    // the attacker's set after any reply (the same for every legal one)
    beginAt(t, record.start, this.startSquares, 2);
    for (const event of viewOf(record, 'white').events)
      if (event.type === 'attempt') endgameAttempt(t, parseUci(event.attempt)!, encodePercept(event.percept));
      else if (event.type === 'opponent-move' && event.percept)
        endgameReply(t, encodePercept(event.percept), event.illegal ?? 0);
    endgameReply(t, encodePercept({ answer: 'legal' }), 0);
    const squares = endgameSquares(t);
    const fenWith = (king: number) => withKing(t, now, king, 1);
    fenWith(squares[0]);
    const attempt = egtbProbe(t, 1, squares).attempt;
    if (attempt < 0) return moves[Math.floor(this.random() * moves.length)];
    const heard = (king: number) =>
      JSON.stringify(new GameSession(this.referee, { start: fenWith(king) }).attempt(attempt));
    const classes = new Map<string, number>();
    for (const king of squares) classes.set(heard(king), (classes.get(heard(king)) ?? 0) + 1);
    const size = moves.map((move) => classes.get(heard((move >> 6) & 63)) ?? 0);
    const best = moves.filter((_, i) => size[i] === Math.max(...size));
    return best[Math.floor(this.random() * best.length)];
  }
}

/** `setup` with its black king (if any) on `king` instead, the attacker to move, in record `handle`: its FEN. */
function withKing(engine: Engine, setup: Setup, king: number, handle: number): string {
  const board = setup.board.map((code) => (code === 14 ? 0 : code));
  board[king] = 14;
  engine.setSetup(handle, { ...setup, board, side: 0 });
  return engine.fen(handle);
}

/** Starts `engine`'s metaposition (the attacker's set) from `fen`'s men with the king on `squares`, in records from `base`. */
function beginAt(engine: Engine, fen: string, squares: number[], base: number): void {
  const setup = parseFen(fen);
  squares.forEach((king, i) => withKing(engine, setup, king, base + i));
  if (
    !endgameBegin(
      engine,
      squares.map((_, i) => base + i),
    )
  )
    throw new Error(`no metaposition from ${fen}`);
}

/**
 * The table's strategy played from a start whose king may be anywhere: its first set is the start
 * state's squares, its metaposition (the core's endgame module) follows what it hears, and each
 * attempt is the table's for the state its last attempt led to (egtbFollow), as krieg's technique
 * plays it (host/players/tablebase.ts) — where krieg, told the start, would know the king's square.
 */
class TableAttacker implements Player {
  readonly name = 'table';
  /** The first value probed: the start state's. */
  firstValue = 0;
  private last: number | undefined;
  constructor(
    private readonly engine: Engine,
    start: string,
    squares: number[],
  ) {
    beginAt(engine, start, squares, 0);
  }
  observe(event: ViewEvent): void {
    if (event.type === 'attempt' && event.side === 'white' && !event.percept.end)
      endgameAttempt(this.engine, parseUci(event.attempt)!, encodePercept(event.percept));
    else if (event.type === 'opponent-move' && event.percept && !event.percept.end)
      endgameReply(this.engine, encodePercept(event.percept), event.illegal ?? 0);
  }
  choose(turn: Turn): number {
    const e = this.engine;
    const squares = endgameSquares(e);
    const own = ownBoard(turn.view);
    withKing(e, { ...parseFen(turn.view.start), board: own.board }, squares[0], PROBED);
    const followed = this.last === undefined ? undefined : egtbFollow(e, this.last, PROBED, squares);
    const probe = egtbProbe(e, PROBED, followed ?? squares);
    if (this.firstValue === 0) this.firstValue = probe.value;
    this.last = probe.attempt;
    if (!turn.attempts.includes(probe.attempt)) throw new Error(`the table's attempt ${probe.attempt} is not playable`);
    return probe.attempt;
  }
}
/** The record TableAttacker probes (above the 64 of its first set). */
const PROBED = 64;

interface PlayRow {
  defender: string;
  games: number;
  mates: number;
  withinValue: number;
  meanMoves: number;
  maxMoves: number;
  meanFirstValue: number;
}

function playouts(engines: PlayerEngines, engine: Engine, defender: 'random' | 'belief'): PlayRow {
  const entries = egtbEntries(engine).slice();
  const W = EGTB_ENTRY_WORDS;
  const random = seededRandom(SEED + 1);
  const starts: number[] = [];
  for (let i = 0; i < egtbStartCount(engine); i++) if (entries[i * W + 3] > 0) starts.push(i);
  const table = createEngine('wasm', 128);
  const referee = createEngine('wasm', 16);
  if (defender === 'belief') {
    table.setRules(rules);
    referee.setRules(rules);
    egtbLoad(table, ENDING, entries, egtbStartCount(engine));
  }
  // the table's strategy from the king anywhere (TableAttacker), or krieg told the start
  const attacker = START === 'anywhere' ? createEngine('wasm', 128) : undefined;
  if (attacker) {
    attacker.setRules(rules);
    egtbLoad(attacker, ENDING, entries, egtbStartCount(engine));
  }
  const row: PlayRow = {
    defender,
    games: 0,
    mates: 0,
    withinValue: 0,
    meanMoves: 0,
    maxMoves: 0,
    meanFirstValue: 0,
  };
  for (let g = 0; g < PLAYOUTS; g++) {
    const i = starts[Math.floor(random() * starts.length)];
    const [men, lo, hi, value] = entries.subarray(i * W, i * W + 4);
    const squares = setSquares(lo, hi);
    const king = squares[Math.floor(random() * squares.length)];
    const fen = stateFen(ENDING, men, king < 32 ? 1 << king : 0, king < 32 ? 0 : 1 << (king - 32));
    const setup = (side: 'white' | 'black', name: string): PlayerSetup => ({
      side,
      rules,
      start: fen,
      seed: SEED + g + (side === 'black' ? 10_000 : 0),
      budget: { nodes: 300 },
      options: parsePlayerSpec(name).options,
    });
    const white = attacker
      ? new TableAttacker(attacker, fen, squares)
      : (playerFactory(parsePlayerSpec('krieg'))(setup('white', 'krieg'), engines.for('white', rules)) as KriegPlayer);
    const session = new GameSession(createEngine('wasm', 16), { start: fen, maxPlies: 200 });
    const black =
      defender === 'belief'
        ? new BeliefDefender(session, table, referee, seededRandom(SEED + g), attacker ? squares : [king])
        : playerFactory(parsePlayerSpec('random'))(setup('black', 'random'), engines.for('black', rules));
    const record = runGame(session, { white, black });
    const moves = record.events.filter(
      (e) => e.type === 'attempt' && e.side === 'white' && e.percept.answer === 'legal',
    ).length;
    row.games++;
    const first = white instanceof TableAttacker ? white.firstValue : white.tablebase.firstValue;
    if (attacker && first !== value) throw new Error(`the first probe of start ${i} gave ${first}, the table ${value}`);
    row.meanFirstValue += first;
    if (record.result === '1-0') {
      row.mates++;
      row.meanMoves += moves;
      row.maxMoves = Math.max(row.maxMoves, moves);
      if (first > 0 && moves <= first) row.withinValue++;
    }
    progress(`playouts v ${defender}: ${row.games} of ${PLAYOUTS}, ${row.withinValue} mates within the value`);
  }
  row.meanMoves /= Math.max(1, row.mates);
  row.meanFirstValue /= Math.max(1, row.games);
  if (row.withinValue !== row.games)
    throw new Error(`${row.games - row.withinValue} playouts did not mate within the table's value`);
  return row;
}

interface StrategyRow {
  states: number;
  verified: number;
  byValue: number[];
  meanMs: number;
}

function strategies(engine: Engine): StrategyRow {
  const entries = egtbEntries(engine).slice();
  const W = EGTB_ENTRY_WORDS;
  const referee = createEngine('wasm', 16);
  referee.setRules(rules);
  const random = seededRandom(SEED + 2);
  const row: StrategyRow = { states: 0, verified: 0, byValue: [], meanMs: 0 };
  while (row.states < STRATEGIES) {
    const i = Math.floor(random() * (entries.length / W));
    const [men, lo, hi, value] = entries.subarray(i * W, i * W + 4);
    const squares = setSquares(lo, hi);
    if (value === 0 || value > 6 || squares.length > 3) continue;
    const fenWith = (king: number) =>
      stateFen(ENDING, men, king < 32 ? 1 << king : 0, king < 32 ? 0 : 1 << (king - 32));
    const t = performance.now();
    engine.setFen(1, fenWith(squares[0]));
    const strategy = egtbStrategy(engine, referee, rules, 1, squares, 2);
    const verdict = verifyStrategy({ rules, positions: squares.map(fenWith), ply: 2 * value - 1 }, strategy);
    row.meanMs += performance.now() - t;
    row.states++;
    row.byValue[value] = (row.byValue[value] ?? 0) + 1;
    if (verdict.ok) row.verified++;
    progress(`strategies: ${row.verified} of ${row.states} verified`);
  }
  row.meanMs /= row.states;
  row.byValue = Array.from(row.byValue, (n) => n ?? 0);
  if (row.verified !== row.states) throw new Error(`${row.states - row.verified} strategies failed the verifier`);
  return row;
}

interface CrossRow {
  states: number;
  /** The states sampled by value (1–5, then "more or none"). */
  byValue: number[];
  /** Every answer the solver gave agreed with the table's value. */
  agreed: number;
  /** States where some answer was past the solver's limits (the other answers agreeing). */
  beyond: number;
  /** States of "more or none" disproven within 7 ply, 9 past the limits. */
  sevenOnly: number;
  disagreements: string[];
  solves: number;
  meanMs: number;
}

function crossCheck(engine: Engine): CrossRow {
  const entries = egtbEntries(engine);
  const W = EGTB_ENTRY_WORDS;
  const solver = createEngine('wasm', 64);
  solver.setRules(rules);
  const random = seededRandom(SEED + 3);
  const order = Array.from({ length: entries.length / W }, (_, i) => i);
  const drawn = new Uint8Array(order.length); // a state is drawn once, over both passes
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const quota = Math.ceil(GLDBU / 6);
  const row: CrossRow = {
    states: 0,
    byValue: [0, 0, 0, 0, 0, 0, 0],
    agreed: 0,
    beyond: 0,
    sevenOnly: 0,
    disagreements: [],
    solves: 0,
    meanMs: 0,
  };
  const t0 = performance.now();
  for (const pass of [quota, GLDBU])
    for (const i of order) {
      if (row.states >= GLDBU) break;
      const [men, lo, hi, value] = entries.subarray(i * W, i * W + 4);
      const squares = setSquares(lo, hi);
      const kind = value >= 1 && value <= 5 ? value : 6;
      if (drawn[i] || squares.length > 3 || row.byValue[kind] >= pass) continue;
      drawn[i] = 1;
      row.byValue[kind]++;
      row.states++;
      const positions = squares.map((k) => stateFen(ENDING, men, k < 32 ? 1 << k : 0, k < 32 ? 0 : 1 << (k - 32)));
      const solve = (ply: number) => {
        row.solves++;
        const limits = { memoryBytes: GLDBU_MEMORY_MB * 2 ** 20, nodes: GLDBU_NODES };
        return solveRequest(solver, { rules, positions, ply }, { algorithm: 'gl-dbu', limits }).answer;
      };
      // [ply, the answer the table's value implies]
      const checks: [number, 'proven' | 'disproven'][] =
        kind <= 5
          ? [[2 * value - 1, 'proven'], ...(value > 1 ? [[2 * value - 3, 'disproven'] as [number, 'disproven']] : [])]
          : [
              [7, 'disproven'],
              [9, 'disproven'],
            ];
      let past = false;
      let wrong = false;
      for (const [ply, expected] of checks) {
        const answer = solve(ply);
        if (answer === 'unknown' && kind === 6 && ply === 9) row.sevenOnly++;
        if (answer === 'unknown') past = true;
        else if (answer !== expected) {
          wrong = true;
          row.disagreements.push(
            `${positions.join(' | ')}: table ${value || 'none'}, gl-dbu ${answer} within ${ply} ply`,
          );
        }
      }
      if (!wrong && !past) row.agreed++;
      if (!wrong && past) row.beyond++;
      progress(`gl-dbu: ${row.states} of ${GLDBU} states, ${row.disagreements.length} disagreements`);
    }
  row.meanMs = (performance.now() - t0) / Math.max(1, row.solves);
  if (row.disagreements.length > 0)
    throw new Error(
      `gl-dbu disagrees with the table on ${row.disagreements.length} states:\n${row.disagreements.join('\n')}`,
    );
  return row;
}

const builds: BuildRow[] = [];
let strategyRow: StrategyRow | undefined;
let crossRow: CrossRow | undefined;
const plays: PlayRow[] = [];
for (const backend of BACKENDS) {
  const engines = new PlayerEngines(backend);
  const engine = engines.for('white', rules);
  builds.push(build(backend, engine));
  if (backend === 'wasm' && PLAYOUTS > 0)
    for (const defender of ['random', 'belief'] as const) plays.push(playouts(engines, engine, defender));
  if (backend === 'wasm' && STRATEGIES > 0) strategyRow = strategies(engine);
  if (backend === 'wasm' && GLDBU > 0) crossRow = crossCheck(engine);
}
const root = repoRoot();
const data = {
  machine: machine(),
  git: gitState(root, ['assembly', 'host', 'bench']),
  builds,
  playouts: plays,
  strategies: strategyRow,
  gldbu: crossRow && { ...crossRow, nodes: GLDBU_NODES, memoryMB: GLDBU_MEMORY_MB },
  seed: SEED,
  start: START,
};
const quick = PLAYOUTS < 100 || PROBES < 10_000 || STRATEGIES < 200 || GLDBU < 1000 ? '-quick' : '';
const name = option('out') ?? `egtb${quick}`;
writeJson(join(root, `bench/results/${name}.json`), data);
const lines = [
  `${NAMES[ENDING]} tablebase, Berkeley rules (table dirs-draw); ${describeMachine(data.machine)}`,
  '',
  ...(TABLE
    ? [`The table loaded from ${TABLE} (its build time the file's header's, where it has one), not built here.`, '']
    : []),
  '| backend | states | starts | longest mate | build | resident growth | file (gzip) | probe |',
  '|---|---|---|---|---|---|---|---|',
  ...builds.map(
    (b) =>
      `| ${b.backend} | ${b.states} | ${b.starts} | ${b.longest} moves | ${Number.isNaN(b.buildSeconds) ? 'not measured (loaded)' : `${b.buildSeconds.toFixed(1)} s`} | ${Number.isNaN(b.rssMB) ? 'not measured (loaded)' : `${b.rssMB.toFixed(0)} MB`} | ${b.fileMB.toFixed(2)} MB | ${(b.probeMs * 1000).toFixed(0)} µs |`,
  ),
  '',
  ...(plays.length === 0 ? ['No playouts.'] : []),
  ...plays.map(
    (play) =>
      `Playouts (WASM), ${START === 'anywhere' ? "the table's strategy from the king anywhere (the attacker's first belief: every square of the start state, the king put on one of them)" : 'krieg with the table, told the start (the king on one square of the start state)'} v ${play.defender} from ${play.games} random start states: ${play.mates} mates, ${play.withinValue} within the first value probed (mean ${play.meanFirstValue.toFixed(1)}); moves to mate mean ${play.meanMoves.toFixed(1)}, max ${play.maxMoves}.`,
  ),
  strategyRow
    ? `Strategies (WASM) from ${strategyRow.states} random states (the king on at most 3 squares, mate within 6 moves; by value ${strategyRow.byValue.slice(1).join(', ')}): ${strategyRow.verified} pass the independent verifier within 2 × value − 1 ply; ${strategyRow.meanMs.toFixed(0)} ms each, extraction and verification.`
    : 'No strategies.',
  crossRow
    ? `gl-dbu (WASM, ${GLDBU_NODES} nodes, ${GLDBU_MEMORY_MB} MB a solve) on ${crossRow.states} random states (the king on at most 3 squares; valued 1–5: ${crossRow.byValue.slice(1, 6).join(', ')}, more or none: ${crossRow.byValue[6]}): ${crossRow.agreed} agree on every answer, ${crossRow.beyond} agree where the solver answered and reach past its limits elsewhere (${crossRow.sevenOnly} of "more or none" disproven within 7 ply, 9 past the limits), ${crossRow.disagreements.length} disagree; ${crossRow.solves} solves, ${crossRow.meanMs.toFixed(0)} ms each.`
    : 'No gl-dbu cross-check.',
];
writeText(join(root, `bench/results/${name}.md`), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));

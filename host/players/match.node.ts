// Matches (krieg match): N games between two players with alternating colours (the first player
// has White in the odd games), game i seeded from the match seed and i alone, so a game replays by
// itself and the games come out the same whatever number of workers plays them. Each finished
// game is appended to the output file in game order; a match killed at any moment resumes from
// the games the file holds (a game cut short by the kill is dropped and played again). A game
// still going at the ply cap stops unfinished (*) and counts as a draw.
import { Engine } from '../engine';
import { fail } from '../errors';
import { GamesLog, readGamesLog, gameText, type RunIdentity } from '../io/gamesLog';
import { runTasks } from '../pool/pool';
import { createCore, type BackendName } from '../backends/node';
import { START_FEN } from '../notation/fen';
import { parseKpgn, makeRecordKpgn } from '../notation/kpgn';
import { describeRules, preset, type RuleSet } from '../record/rules';
import type { GameRecord, Side } from '../record/record';
import { gameSeed } from '../referee/seeds';
import { GameSession } from '../referee/session';
import { runGameOrForfeit } from './forfeit';
import { PlayerEngines } from './engines.node';
import { cachedTables } from './egtbFile.node';
import { parsePlayerSpec, type PlayerSpec } from './registry';
import { playerOf } from './ext.node';
import type { PlayerSetup } from './player';
import { summarize, materialTrace, type MatchGame, type MatchSummary } from './matchStats';

/** Everything that decides a match's games (matchParams makes it from the library's MatchOptions). */
export interface MatchParams {
  /** The first and the second player (the first has White in odd games). */
  players: [PlayerSpec, PlayerSpec];
  games: number;
  seed: number;
  rules: RuleSet;
  maxPlies: number;
  /** Per move (a turn, Illegal retries included): work in nodes, or seconds. */
  nodes?: number;
  timePerMove?: number;
  backend: BackendName;
  start?: string;
}

/** Everything that decides the games but their number (a finished match can be extended). */
export function matchKey(p: MatchParams): string {
  const { variant, overrides } = describeRules(p.rules);
  const rules = [variant, ...Object.entries(overrides).map(([k, v]) => `${k}=${v}`)].join(' ');
  const budget = [
    p.nodes !== undefined ? `nodes ${p.nodes}` : '',
    p.timePerMove !== undefined ? `time ${p.timePerMove}s` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${p.players[0].text} v ${p.players[1].text}; ${rules}; seed ${p.seed}; max-plies ${p.maxPlies}; ${budget}${p.start ? `; fen ${p.start}` : ''}`;
}

export const firstIsWhite = (game: number) => game % 2 === 1;

/** The seeds of game `game`: the game's, and each player's stream drawn from it. */
export function gameSeeds(p: MatchParams, game: number): { game: number; white: number; black: number } {
  const seed = gameSeed(p.seed, game);
  return { game: seed, white: gameSeed(seed, 1), black: gameSeed(seed, 2) };
}

/** What a process needs to play games: the referee's engine and the players' engines. */
export class GamePlayer {
  private readonly referee: Engine;
  private readonly engines: PlayerEngines;
  constructor(backend: BackendName) {
    this.referee = new Engine(createCore(backend), 16);
    this.engines = new PlayerEngines(backend);
  }

  /**
   * Plays game `game` of the match; its full record. `onPly` hears the plies played after each. An
   * outside program (ext:) answers in its own time, and forfeits the game if it fails (./forfeit.ts).
   */
  async play(p: MatchParams, game: number, onPly?: (plies: number) => void): Promise<GameRecord> {
    const seeds = gameSeeds(p, game);
    const specs: Record<Side, PlayerSpec> = firstIsWhite(game)
      ? { white: p.players[0], black: p.players[1] }
      : { white: p.players[1], black: p.players[0] };
    const start = p.start ?? START_FEN;
    this.referee.setRules(p.rules);
    const budget = {
      ...(p.nodes !== undefined ? { nodes: p.nodes } : {}),
      ...(p.timePerMove !== undefined ? { timePerMove: p.timePerMove } : {}),
    };
    const make = (side: Side) => {
      const setup: PlayerSetup = {
        side,
        rules: p.rules,
        start,
        seed: seeds[side],
        budget,
        options: specs[side].options,
        tables: cachedTables,
      };
      return playerOf(specs[side])(setup, this.engines.for(side, p.rules));
    };
    const players = { white: make('white'), black: make('black') };
    const tags: Record<string, string> = {
      Event: 'krieg match',
      Round: String(game),
      Seed: String(seeds.game),
      Match: matchKey(p),
    };
    const names = { white: players.white.name, black: players.black.name };
    const session = new GameSession(this.referee, { start, maxPlies: p.maxPlies, names, tags });
    const record = await runGameOrForfeit(session, players, {
      timePerMove: p.timePerMove,
      ...(onPly ? { onPly } : {}),
    });
    // name the players as the match does (with their options)
    const named = { ...record, white: specs.white.text, black: specs.black.text };
    if (named.result === '*')
      named.tags = { ...named.tags, Termination: `stopped at the ${p.maxPlies}-ply cap: adjudicated a draw` };
    return named;
  }
}

/** The text a game takes in the output file (host/io/gamesLog.ts, shared with krieg play). */
export { gameText };

/** The games of a match carry its key in [Match]. */
const matchIdentity = (p: MatchParams): RunIdentity => ({ key: matchKey(p), tag: 'Match', noun: 'match' });

/**
 * The games of a match file: every complete game (its text, parsed), checked to belong to this
 * match in order; `validBytes` is where the last complete game ends (a game cut short follows).
 */
export function readMatchFile(path: string, p: MatchParams): { records: GameRecord[]; validBytes: number } {
  const { records, validBytes } = readGamesLog(path, matchIdentity(p));
  return { records, validBytes };
}

export interface MatchProgress {
  done: number;
  total: number;
  record: GameRecord;
  game: number;
}

/** How often (ms) runMatch reads the plies of the games its workers are playing. */
export const PLY_POLL_MS = 250;

export interface MatchRun {
  /** Every game of the match, those resumed from the file first. */
  records: GameRecord[];
  resumed: number;
}

/**
 * Plays the games of `p` the output file does not hold yet, appending each in order. `jobs` > 1
 * plays them on that many workers of the pool (host/pool/pool.ts), one game a task; the games come
 * back in game order, so the file is the same whatever `jobs` is. `onPly` hears the plies played
 * of the games in progress: after every ply on one job; on workers, read from a shared counter
 * per game every `pollMs` (the games are the same either way).
 */
export async function runMatch(
  p: MatchParams,
  out: string,
  jobs: number,
  onGame?: (progress: MatchProgress) => void,
  onPly?: (game: number, plies: number) => void,
  pollMs = PLY_POLL_MS,
): Promise<MatchRun> {
  const log = new GamesLog(out, matchIdentity(p), p.games); // the file's games (host/io/gamesLog.ts)
  const { records, resumed } = log;
  const first = resumed + 1;
  const write = (record: GameRecord, game: number) => {
    log.append(record);
    onGame?.({ done: records.length, total: p.games, record, game });
  };
  if (first > p.games) return { records, resumed };
  if (jobs <= 1 || p.games - resumed <= 1) {
    const player = new GamePlayer(p.backend);
    for (let game = first; game <= p.games; game++)
      write(await player.play(p, game, onPly && ((plies) => onPly(game, plies))), game);
    return { records, resumed };
  }
  // the workers count each game's plies in shared memory: slot i is game first + i
  const plies = onPly ? new Int32Array(new SharedArrayBuffer(4 * (p.games - resumed))) : undefined;
  const games = Array.from({ length: p.games - resumed }, (_, i): MatchTask => ({
    params: p,
    game: first + i,
    ...(plies ? { plies, slot: i } : {}),
  }));
  let delivered = 0;
  const heard = new Map<number, number>();
  const poll = plies
    ? setInterval(() => {
        // the pool hands the games out in order: past the games started (at most `jobs` of them
        // still at ply 0) every counter is 0
        for (let i = delivered, zeros = 0; i < plies.length && zeros <= jobs; i++) {
          const n = Atomics.load(plies, i);
          if (n === 0) zeros++;
          else if (heard.get(i) !== n) {
            heard.set(i, n);
            onPly!(first + i, n);
          }
        }
      }, pollMs)
    : undefined;
  try {
    await runTasks<MatchTask, string>('match-game', games, {
      jobs,
      onResult: (i, text) => {
        const parsed = parseKpgn(text);
        if (parsed.kind !== 'record')
          throw fail('pool-worker', { text: `a worker returned a view for game ${first + i} of the match` });
        delivered = i + 1;
        heard.delete(i);
        write(parsed.record, first + i);
      },
    });
  } finally {
    if (poll) clearInterval(poll);
  }
  return { records, resumed };
}

/** One game of a match, a task of the pool. */
export interface MatchTask {
  params: MatchParams;
  game: number;
  /** Shared with the parent: the worker keeps the plies played of the game in `plies[slot]`. */
  plies?: Int32Array;
  slot?: number;
}

const gamePlayers = new Map<BackendName, GamePlayer>();

/** A worker's side of runMatch (host/worker.ts): plays one game, its KPGN text. */
export async function playMatchGame(task: MatchTask): Promise<string> {
  let player = gamePlayers.get(task.params.backend);
  if (!player) gamePlayers.set(task.params.backend, (player = new GamePlayer(task.params.backend)));
  const { plies, slot } = task;
  const onPly = plies && slot !== undefined ? (n: number) => void Atomics.store(plies, slot, n) : undefined;
  return makeRecordKpgn(await player.play(task.params, task.game, onPly));
}

/** A match as the library gives it (playMatch): players by name, the rest defaulted as `krieg match` does. */
export interface MatchOptions {
  /** The first and the second player, as `krieg match` names them: `random`, `krieg:mate=100` … */
  players: [string | PlayerSpec, string | PlayerSpec];
  games: number;
  /** The match seed (default 1): game i is played from it and i alone. */
  seed?: number;
  /** Default: the Berkeley rules. */
  rules?: RuleSet;
  /** A game still going after this many plies stops unfinished and counts as a draw (default 300). */
  maxPlies?: number;
  /** Work per move (deterministic games); default DEFAULT_NODES without `timePerMove`. */
  nodes?: number;
  /** Seconds per move. */
  timePerMove?: number;
  /** Default 'wasm'. */
  backend?: BackendName;
  /** The start of every game (FEN; default the initial position). */
  start?: string;
}

/** The parameters of the match `options` describe (its players' names parsed, the defaults filled in). */
export function matchParams(options: MatchOptions): MatchParams {
  const spec = (player: string | PlayerSpec) => (typeof player === 'string' ? parsePlayerSpec(player) : player);
  const players: [PlayerSpec, PlayerSpec] = [spec(options.players[0]), spec(options.players[1])];
  return {
    players,
    games: options.games,
    seed: options.seed ?? 1,
    rules: options.rules ?? preset('berkeley'),
    maxPlies: options.maxPlies ?? 300,
    backend: options.backend ?? 'wasm',
    ...(options.nodes !== undefined ? { nodes: options.nodes } : {}),
    ...(options.timePerMove !== undefined ? { timePerMove: options.timePerMove } : {}),
    ...(options.start !== undefined ? { start: options.start } : {}),
  };
}

/**
 * A match played here, one game after another, kept in memory (runMatch writes a resumable file
 * and may play on workers): the same games `krieg match` plays with these options, and their report.
 */
export async function playMatch(options: MatchOptions): Promise<{
  records: GameRecord[];
  summary: MatchSummary;
  json: Record<string, unknown>;
}> {
  const p = matchParams(options);
  const player = new GamePlayer(p.backend);
  const records: GameRecord[] = [];
  for (let game = 1; game <= p.games; game++) records.push(await player.play(p, game)); // an outside program answers asynchronously
  return { records, ...matchReport(p, { records, resumed: 0 }) };
}

/** The report of a match: its statistics (from the records, so the same for games resumed from the file) and the JSON summary. */
export function matchReport(p: MatchParams, run: MatchRun): { summary: MatchSummary; json: Record<string, unknown> } {
  const engine = new Engine(createCore(p.backend), 8);
  const games: MatchGame[] = run.records.map((record, i) => ({
    record,
    firstIsWhite: firstIsWhite(i + 1),
    material: materialTrace(engine, record),
  }));
  const summary = summarize([p.players[0].text, p.players[1].text], games);
  const json = {
    format: 'krieg-match',
    version: 1,
    match: matchKey(p),
    maxPlies: p.maxPlies,
    budget: { nodes: p.nodes ?? null, timePerMove: p.timePerMove ?? null },
    intervals: 'rates: Wilson score 95%; score: Wilson score 95% of (wins + draws / 2) / games',
    resumed: run.resumed,
    ...summary,
  };
  return { summary, json };
}

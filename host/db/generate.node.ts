// Self-play generation of the checkmate problem database (issue 7; SPEC §7; Russell & Wolfe 2005
// §3). Game after game (game g is played from a seed derived from the database's seed and g):
//   1. the self-play programs (host/players/selfPlay.ts) play it; a game in which White's belief
//      ever exceeds dropBelief positions is dropped (recorded, but no instance is taken from it);
//   2. at each White turn whose belief holds minBelief-maxBelief positions, the belief is
//      classified at `ply` (host/db/classify.ts): a mate or a near-miss instance is stored, with
//      White's view up to that turn (hints included), at most perGame instances a game, the turns
//      with the largest beliefs first;
//   3. each near-miss is re-analysed at `reanalyse` ply (a mate or a near-miss there: its covered
//      positions stay covered) and stored as a deeper instance whose source is the near-miss;
//   4. the game and its instances are committed in one transaction (database.node.ts), and generation
//      stops after the first game at which both targets are met.
// Which instances are stored never depends on the targets or on time, only on the seed and the
// game number, so a run resumed after a kill (from the last committed game) ends with the same
// database as an uninterrupted one, and a finished database can be extended with larger targets.
import { gameSeed } from '../referee/seeds';
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { fail } from '../errors';
import { seededRandom } from '../referee/game';
import { GameSession } from '../referee/session';
import { answerAttempt } from '../core/referee';
import { preset, PRESETS, type RuleSet } from '../record/rules';
import type { GameRecord, View } from '../record/record';
import { makeRecordKpgn, makeViewKpgn } from '../notation/kpgn';
import { viewToJson } from '../notation/recordJson';
import { START_FEN } from '../notation/fen';
import {
  whitePlayer,
  blackPlayer,
  BeliefTooLarge,
  type Oracle,
  type SelfPlayEngines,
  type WhiteTurn,
} from '../players/selfPlay';
import { runGame } from '../players/game';
import { classify, CLASSIFY_LIMITS, type Classified, type Classification, type ClassifyLimits } from './classify';
import { WorkerPool } from '../pool/pool';
import { randomSetup } from './setups';
import { instanceKey, type ProblemDb } from './database.node';
import type { Problem } from '../solver/solve';

export type StartMode = 'endgames' | 'standard';
export const START_MODES: StartMode[] = ['endgames', 'standard'];

/** Everything that decides the database's content (stored in its meta table; a resume must match). */
export interface GenerateParams {
  seed: number;
  variant: string;
  /** endgames: random endgame setups (host/db/setups.ts); standard: the initial position. */
  start: StartMode;
  ply: number;
  /** 0: no re-analysis. */
  reanalyse: number;
  minBelief: number;
  maxBelief: number;
  dropBelief: number;
  maxPlies: number;
  perGame: number;
  classify: ClassifyLimits;
  /** White's hints (host/players/selfPlay.ts); absent: its defaults, 3 a turn, each legal in at most a quarter of the belief. */
  hints?: { max: number; share: number };
  /** White's attack weight (selfPlay.ts WhiteOptions.attack); absent: 0. */
  attack?: number;
  /** Oracle hints a turn (selfPlay.ts: attempts Illegal on the true board, R&W footnote 6); absent: none. */
  oracleHints?: number;
  /**
   * Classify with Berkeley's material wins as mates (Russell & Wolfe's footnote 4). Only for
   * measuring (bench/db-rates.ts): an instance does not record it, so such a database is never written.
   */
  materialWins?: boolean;
}

export const DEFAULT_PARAMS: GenerateParams = {
  seed: 1,
  variant: 'berkeley',
  start: 'endgames',
  ply: 3,
  reanalyse: 5,
  minBelief: 2,
  maxBelief: 100,
  dropBelief: 10_000,
  maxPlies: 80,
  perGame: 2,
  classify: CLASSIFY_LIMITS,
};

export interface Targets {
  mates: number;
  nearMisses: number;
  maxGames: number;
}

export interface Progress {
  game: number;
  /** Games played and dropped so far in the database. */
  played: number;
  dropped: number;
  /** Instances at the main ply: mates, near-misses; and at the re-analysis ply. */
  mates: number;
  nearMisses: number;
  deeper: number;
  /** Instances stored by this game. */
  added: number;
}

export interface SelfPlayWorkers extends SelfPlayEngines {
  /** The engine of the referee, holding the game's true board. */
  referee: Engine;
  /** The engine the classifying searches run in. */
  solver: Engine;
}

/** Checks parameters before generating: plies are odd (the mover's own move ends a mate), a re-analysis deeper. */
export function validateParams(params: GenerateParams): void {
  if (params.ply % 2 === 0)
    throw fail('bad-ply', {
      text: `--ply must be odd (the mover's own moves end a mate: 1, 3, 5 …), got ${params.ply}`,
    });
  if (params.reanalyse % 2 === 0 && params.reanalyse !== 0)
    throw fail('bad-reanalyse', { text: `--reanalyse must be odd (or 0), got ${params.reanalyse}` });
  if (params.reanalyse !== 0 && params.reanalyse <= params.ply)
    throw fail('bad-reanalyse', {
      text: `--reanalyse must be deeper than --ply ${params.ply} (or 0), got ${params.reanalyse}`,
    });
}

/** The engines generation computes in, each on `backend`: the referee's, the players' working and scoring ones, the classifier's. */
export function selfPlayWorkers(backend: BackendName): SelfPlayWorkers {
  const engine = (capacity?: number) => new Engine(createCore(backend), capacity);
  return { referee: engine(1024), work: engine(1 << 17), scorer: engine(256), solver: engine() };
}

/** Compares stored and requested parameters: a resume with others would make a different database. */
export function checkParams(stored: GenerateParams, wanted: GenerateParams, path: string): void {
  for (const key of Object.keys(wanted) as (keyof GenerateParams)[]) {
    if (JSON.stringify(stored[key]) !== JSON.stringify(wanted[key])) {
      throw fail('db-params', { path, key, stored: stored[key], wanted: wanted[key] });
    }
  }
}

export interface Candidate {
  turn: WhiteTurn;
  plies: number;
}

/** The view stored with an instance: White's view at the turn, with tags naming its origin. */
function instanceView(view: View, params: GenerateParams, game: number, plies: number): View {
  return {
    ...view,
    white: 'krieg-white',
    black: 'krieg-black',
    tags: { Event: 'krieg db generate', Seed: String(params.seed), Game: String(game), Plies: String(plies) },
  };
}

/**
 * The generator's oracle (selfPlay.ts Oracle; R&W footnote 6) on the true board of `session`:
 * whether an attempt is legal there (the answer's position goes to the session's scratch record).
 */
function oracleOf(session: GameSession): Oracle {
  return {
    legalOnBoard: (attempt) =>
      answerAttempt(session.referee, session.handle, attempt, session.scratch).answer === 'legal',
  };
}

/** Plays game `game`: its record, whether it was dropped, and White's turns with small beliefs. */
function playOne(workers: SelfPlayWorkers, params: GenerateParams, game: number) {
  const seed = gameSeed(params.seed, game);
  const start = params.start === 'standard' ? START_FEN : randomSetup(seededRandom(seed ^ 0x5bd1e995)).fen;
  const candidates: Candidate[] = [];
  let maxBelief = 0;
  const tags = { Event: 'krieg db generate', Seed: String(params.seed), Game: String(game) };
  const names = { white: 'krieg-white', black: 'krieg-black' };
  // the stored records' tags begin with Seed in a game played to its end, with Event in a dropped one
  const session = new GameSession(workers.referee, {
    start,
    maxPlies: params.maxPlies,
    names,
    tags: { Seed: tags.Seed, Event: tags.Event, Game: tags.Game },
  });
  const random = seededRandom(seed); // the one stream both programs draw from, in turn
  const white = whitePlayer(workers, random, {
    start,
    dropBelief: params.dropBelief,
    reportBelief: params.maxBelief,
    hints: params.hints,
    attack: params.attack,
    oracleHints: params.oracleHints,
    oracle: oracleOf(session),
    onTurn: (turn) => {
      maxBelief = Math.max(maxBelief, turn.size);
      const plies = turn.view.events.filter(
        (e) => e.type === 'opponent-move' || (e.type === 'attempt' && e.percept.answer === 'legal'),
      ).length;
      if (turn.positions && turn.size >= params.minBelief) candidates.push({ turn, plies });
    },
  });
  const black = blackPlayer(workers, random);
  try {
    const record = runGame(session, { white, black });
    return { seed, start, record, dropped: false, maxBelief, candidates };
  } catch (error) {
    if (!(error instanceof BeliefTooLarge)) throw error;
    // a dropped game's record stops where White's belief grew too large
    const record: GameRecord = { ...session.record(), tags };
    return { seed, start, record, dropped: true, maxBelief: params.dropBelief + 1, candidates: [] };
  }
}

/**
 * A game played, with its White turns of small beliefs (largest first) and, for the first
 * `examined` of them, their classification at the main ply (and, for a near-miss, at the
 * re-analysis ply): what a worker computes for the main thread, which stores it.
 */
export interface PlayedGame {
  game: number;
  seed: number;
  start: string;
  record: GameRecord;
  dropped: boolean;
  maxBelief: number;
  candidates: Candidate[];
  examined: number;
  classified: ({ c: Classification; deeper?: Classification } | undefined)[];
}

/**
 * Plays game `game` and classifies its candidates in order (those repeating an earlier candidate
 * of the game skipped) until `wanted` of them are mates or near-misses: which are stored is
 * decided by the database (storeGame), but this is the work, and it needs no database.
 */
export function playAndClassify(
  workers: SelfPlayWorkers,
  params: GenerateParams,
  game: number,
  wanted: number,
): PlayedGame {
  const rules = preset(params.variant);
  workers.referee.setRules(rules);
  const rulesJson = JSON.stringify(rules);
  const played = playOne(workers, params, game);
  // the largest beliefs first: they are rarer, and make the harder problems
  const candidates = [...played.candidates].sort((a, b) => b.turn.size - a.turn.size || a.plies - b.plies);
  const classified: PlayedGame['classified'] = [];
  const seen = new Set<string>();
  let found = 0;
  let examined = 0;
  for (; examined < candidates.length && found < wanted; examined++) {
    const { turn } = candidates[examined];
    const key = instanceKey(params.ply, rulesJson, turn.positions!);
    if (seen.has(key)) continue;
    seen.add(key);
    const result = classifyCandidate(workers, params, rules, turn);
    classified[examined] = result;
    if (result.c.cls === 'mate' || result.c.cls === 'near-miss') found++;
  }
  return { game, ...played, candidates, examined, classified };
}

function classifyCandidate(
  workers: SelfPlayWorkers,
  params: GenerateParams,
  rules: RuleSet,
  turn: WhiteTurn,
): { c: Classification; deeper?: Classification } {
  const problem: Problem = { rules, ply: params.ply, positions: turn.positions!, materialWins: params.materialWins };
  const c = classify(workers.solver, problem, params.classify);
  if (c.cls !== 'near-miss' || !params.reanalyse) return { c };
  return { c, deeper: classify(workers.solver, { ...problem, ply: params.reanalyse }, params.classify, c.covered) };
}

/**
 * Stores a played game and its instances in one transaction: its candidates in order, skipping
 * those of this game or of the database already, at most perGame at the main ply (a candidate the
 * game's player did not classify is classified here).
 */
function storeGame(db: ProblemDb, workers: SelfPlayWorkers, params: GenerateParams, played: PlayedGame): number {
  const rules = preset(params.variant);
  const rulesJson = JSON.stringify(rules);
  const game = played.game;
  const rows: { ply: number; c: Classified; turn: WhiteTurn; plies: number; source?: number }[] = [];
  const seen = new Set<string>();
  for (const [i, { turn, plies }] of played.candidates.entries()) {
    if (rows.filter((r) => r.ply === params.ply).length >= params.perGame) break;
    const key = instanceKey(params.ply, rulesJson, turn.positions!);
    if (seen.has(key) || db.hasKey(key)) continue;
    seen.add(key);
    const { c, deeper } = i < played.examined ? played.classified[i]! : classifyCandidate(workers, params, rules, turn);
    if (c.cls !== 'mate' && c.cls !== 'near-miss') continue;
    rows.push({ ply: params.ply, c, turn, plies });
    if (deeper && (deeper.cls === 'mate' || deeper.cls === 'near-miss'))
      rows.push({ ply: params.reanalyse, c: deeper, turn, plies, source: rows.length - 1 });
  }
  db.transaction(() => {
    db.addGame({
      game,
      gameSeed: played.seed,
      setup: played.start,
      plies: played.record.events.filter((e) => e.type === 'attempt' && e.percept.answer === 'legal').length,
      result: played.record.result,
      dropped: played.dropped,
      maxBelief: played.maxBelief,
      instances: rows.length,
      recordKpgn: makeRecordKpgn(played.record),
    });
    const ids: number[] = [];
    for (const row of rows) {
      const view = instanceView(row.turn.view, params, game, row.plies);
      ids.push(
        db.addInstance({
          key: instanceKey(row.ply, rulesJson, row.turn.positions!),
          rules: params.variant,
          rulesJson,
          ply: row.ply,
          cls: row.c.cls,
          beliefSize: row.turn.size,
          viewKpgn: makeViewKpgn(view),
          viewJson: JSON.stringify(viewToJson(view)),
          positions: row.turn.positions!,
          seed: params.seed,
          game,
          cutPly: row.plies,
          sourceId: row.source === undefined ? null : ids[row.source],
          covered: row.c.covered,
          strategy: row.c.strategy,
          work: row.c.work,
        }),
      );
    }
  });
  return rows.length;
}

/** Generation's running state: the database's counts and the stopping rule. */
function tally(db: ProblemDb, params: GenerateParams, targets: Targets) {
  const count = (ply: number, cls: string) => db.counts().find((c) => c.ply === ply && c.cls === cls)?.count ?? 0;
  const progress = (game: number, added: number): Progress => {
    const { played, dropped } = db.gameCounts();
    return {
      game,
      played,
      dropped,
      added,
      mates: count(params.ply, 'mate'),
      nearMisses: count(params.ply, 'near-miss'),
      deeper: params.reanalyse ? count(params.reanalyse, 'mate') + count(params.reanalyse, 'near-miss') : 0,
    };
  };
  const done = (state: Progress) =>
    (state.mates >= targets.mates && state.nearMisses >= targets.nearMisses) || state.played >= targets.maxGames;
  return { progress, done };
}

/**
 * Generates into `db` (created with `params`; resumed after its last committed game) until both
 * targets are met at the main ply or maxGames games are in the database. `onProgress` is called
 * after every committed game.
 */
export function generate(
  db: ProblemDb,
  workers: SelfPlayWorkers,
  params: GenerateParams,
  targets: Targets,
  onProgress?: (p: Progress) => void,
): Progress {
  if (!(params.variant in PRESETS)) throw fail('bad-variant', { name: params.variant });
  const { progress, done } = tally(db, params, targets);
  let state = progress(db.lastGame(), 0);
  while (!done(state)) {
    const game = db.lastGame() + 1;
    // classified while stored (storeGame), so no candidate is classified in vain
    const added = storeGame(db, workers, params, playAndClassify(workers, params, game, 0));
    state = progress(game, added);
    onProgress?.(state);
  }
  return state;
}

/** Mates or near-misses a worker classifies beyond perGame, in case the database holds some already. */
const SPARE_CLASSIFIED = 1;
/**
 * Games handed to the pool in one run: as many as the targets allow, up to this bound. A run waits
 * for its slowest game, so every run boundary leaves workers idle (96 games as batches of 32 a
 * worker: 1.77x on 2 workers); a long run costs nothing when the targets are met early (the pool
 * hands out a game only when a worker is free, and stopping ends the games in flight).
 */
const GAMES_PER_RUN = 4096;

/**
 * generate() with the games played and classified on `jobs` workers of the pool (a game a task),
 * and stored here, in game order, one transaction each: the same database whatever `jobs` is,
 * and a run killed at any moment resumes from its last committed game as before.
 */
export async function generateOnPool(
  db: ProblemDb,
  workers: SelfPlayWorkers,
  params: GenerateParams,
  targets: Targets,
  options: { backend: BackendName; jobs: number; pool?: WorkerPool },
  onProgress?: (p: Progress) => void,
): Promise<Progress> {
  if (!(params.variant in PRESETS)) throw fail('bad-variant', { name: params.variant });
  const { progress, done } = tally(db, params, targets);
  let state = progress(db.lastGame(), 0);
  const pool = options.pool ?? new WorkerPool(options.jobs);
  try {
    while (!done(state)) {
      const first = db.lastGame() + 1;
      const count = Math.min(GAMES_PER_RUN, Math.max(1, targets.maxGames - state.played));
      const tasks: DbGameTask[] = Array.from({ length: count }, (_, i) => ({
        backend: options.backend,
        params,
        game: first + i,
        wanted: params.perGame + SPARE_CLASSIFIED,
      }));
      await pool.run<DbGameTask, PlayedGame>('db-game', tasks, {
        onResult: (_, played) => {
          const added = storeGame(db, workers, params, played);
          state = progress(played.game, added);
          onProgress?.(state);
          return done(state);
        },
      });
    }
  } finally {
    if (!options.pool) pool.close();
  }
  return state;
}

/** One game of generateOnPool, a task of the pool. */
export interface DbGameTask {
  backend: BackendName;
  params: GenerateParams;
  game: number;
  wanted: number;
}

const poolWorkers = new Map<BackendName, SelfPlayWorkers>();

/** A worker's side of generateOnPool (host/worker.ts). */
export function playDbGame(task: DbGameTask): PlayedGame {
  let workers = poolWorkers.get(task.backend);
  if (!workers) poolWorkers.set(task.backend, (workers = selfPlayWorkers(task.backend)));
  return playAndClassify(workers, task.params, task.game, task.wanted);
}

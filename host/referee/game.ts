// Playing games through the core's referee. Players implement `Player` on the host (any TS
// strategy) or are the core's own random player (randomGame: no boundary crossing per attempt).
import type { Engine } from '../engine';
import { fail, type KriegError } from '../errors';
import { makeUci } from '../notation/move';
import { START_FEN } from '../notation/fen';
import { decodePercept, type Percept } from '../record/percept';
import type { RuleSet } from '../record/rules';
import { SIDES, type GameRecord, type PawnTriesEvent, type RecordEvent, type Result, type Side } from '../record/record';

// core constants (assembly/referee/game.ts)
const EVENT_WORDS = 4;
const EVENT_ATTEMPT = 1;
const EVENT_PAWN_TRIES = 2;
const EVENT_ANY = 3;
const RESULTS: Result[] = ['*', '1-0', '0-1', '1/2-1/2'];
const GAME_STATUS: Record<number, string> = {
  [-1]: 'the game is over', [-2]: 'the game log is full', [-3]: 'no game started',
  [-4]: '"Any?" is not allowed here (rules without it, or after the first attempt of the turn)',
};

function gameError(status: number): KriegError {
  return fail('game-status', { text: GAME_STATUS[status] ?? `game status ${status}` });
}

/** What a player sees when choosing: his attemptable moves and what happened so far this turn. */
export interface TurnContext {
  side: Side;
  /** Attempt codes not Nonsense on the own board (uci via makeUci). */
  attempts: number[];
  /** Attempts already answered this turn, with their answers. */
  tried: { attempt: number; percept: Percept }[];
  /** The answer to "Any?" this turn, if asked. */
  any?: boolean;
  rules: RuleSet;
  /** A source of randomness derived from the game seed. */
  random: () => number;
}

export interface Player {
  readonly name: string;
  /** The next attempt code, or 'any' to ask "Any?" (only before the first attempt, where the rules allow). */
  choose(context: TurnContext): number | 'any';
}

/** Reads the core's event log (from event `from` on) into record events. */
export function readEvents(engine: Engine, from = 0): RecordEvent[] {
  const count = engine.core.exports.gameEventCount();
  const log = engine.view('events');
  const events: RecordEvent[] = [];
  for (let i = from; i < count; i++) {
    const e = i * EVENT_WORDS;
    const type = log[e] & 15;
    const side = SIDES[log[e] >> 4];
    if (type === EVENT_ATTEMPT) events.push({ type: 'attempt', side, attempt: makeUci(log[e + 1]), percept: decodePercept(log[e + 2]) });
    else if (type === EVENT_PAWN_TRIES) events.push(announcedPawnTries(engine.rules, side, log[e + 1], squaresOf(log[e + 2], log[e + 3])));
    else if (type === EVENT_ANY) events.push({ type: 'any', side, yes: log[e + 1] === 1 });
    else throw fail('bad-event', { text: `unknown event type ${type} at event ${i}` });
  }
  return events;
}

/** The part of the pawn-try information the rules announce. */
export function announcedPawnTries(rules: RuleSet, side: Side, count: number, squares: number[]): PawnTriesEvent {
  if (rules.pawnTries === 'count') return { type: 'pawn-tries', side, count };
  if (rules.pawnTries === 'exists') return { type: 'pawn-tries', side, exists: count > 0 };
  if (rules.pawnTries === 'squares') return { type: 'pawn-tries', side, squares };
  throw fail('bad-event', { text: `pawn tries are not announced under pawnTries=${rules.pawnTries}` });
}

export function squaresOf(lo: number, hi: number): number[] {
  const squares: number[] = [];
  for (let sq = 0; sq < 64; sq++) if (((sq < 32 ? lo >>> sq : hi >>> (sq - 32)) & 1) !== 0) squares.push(sq);
  return squares;
}

function finish(engine: Engine, start: string, white: string, black: string, tags: Record<string, string>): GameRecord {
  const x = engine.core.exports;
  return {
    rules: engine.rules, start, white, black, result: RESULTS[x.gameResult()], tags, events: readEvents(engine),
  };
}

export interface GameOptions {
  start?: string;
  maxPlies?: number;
  tags?: Record<string, string>;
  /** Position handle of the true board (handle + 1 is the referee's scratch). */
  handle?: number;
}

/** mulberry32: a small seeded generator for host-side players. */
export function seededRandom(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plays a game between two host players; returns its full record. */
export function playGame(engine: Engine, white: Player, black: Player, seed: number, options: GameOptions = {}): GameRecord {
  const handle = options.handle ?? 0;
  const start = options.start ?? START_FEN;
  const maxPlies = options.maxPlies ?? 400;
  engine.setFen(handle, start);
  const x = engine.core.exports;
  const status = x.gameStart(handle);
  if (status < 0) throw gameError(status);
  const random = seededRandom(seed);
  const players = { white, black };
  let plies = 0;
  while (x.gameResult() === 0 && plies < maxPlies) {
    const side = SIDES[engine.setup(handle).side];
    const context: TurnContext = { side, attempts: [], tried: [], rules: engine.rules, random };
    for (;;) {
      const n = x.generateAttempts(handle);
      context.attempts = Array.from(engine.view('attempts').subarray(0, n));
      const choice = players[side].choose(context);
      if (choice === 'any') {
        const answer = x.gameAskAny();
        if (answer < 0) throw gameError(answer);
        context.any = answer === 1;
        continue;
      }
      const percept = x.gameAttempt(choice);
      if (percept < 0) throw gameError(percept);
      const decoded = decodePercept(percept);
      if (decoded.answer === 'legal') break;
      context.tried.push({ attempt: choice, percept: decoded });
      if (context.tried.length > 1000) throw fail('player-stuck', { player: players[side].name });
    }
    plies++;
  }
  return finish(engine, start, white.name, black.name, { Seed: String(seed), ...options.tags });
}

/** The random player on the host side: uniform over attempts not yet tried this turn. */
export const randomPlayer: Player = {
  name: 'random',
  choose(context) {
    const tried = new Set(context.tried.map((t) => t.attempt));
    const open = context.attempts.filter((a) => !tried.has(a));
    return open[Math.floor(context.random() * open.length)];
  },
};

/** Random self-play entirely in the core (the fast path for benchmarks and property tests). */
export function randomGame(engine: Engine, seed: number, options: GameOptions = {}): GameRecord {
  const handle = options.handle ?? 0;
  const start = options.start ?? START_FEN;
  engine.setFen(handle, start);
  const status = engine.core.exports.playRandomGame(handle, seed | 0, options.maxPlies ?? 400);
  if (status < 0) throw gameError(status);
  return finish(engine, start, 'random', 'random', { Seed: String(seed), ...options.tags });
}

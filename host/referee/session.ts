// One game through the core's referee, step by step: the only host code that plays a game (the
// core's game functions startGame, gameAttempt, gameAskAny, gameResult, gameOver, gameEvents are
// called here and nowhere else). The game runner of the players (host/players/game.ts: krieg
// play, krieg match, the database's self-play), the web page's worker, the record validator
// (validate.ts) and the library drive it: whose turn it is, an attempt or "Any?" of the side to
// move, the views of each side with the events not yet told to it, the record so far and the
// result.
//
// The session holds the true board; what a player may be handed is a view (`view`, `deliver`),
// never the session. Browser-safe: no Node imports.
import type { Engine } from '../engine';
import { fail } from '../errors';
import { START_FEN } from '../notation/fen';
import type { Percept } from '../record/percept';
import type { RuleSet } from '../record/rules';
import {
  viewOf,
  SIDES,
  type GameRecord,
  type RecordEvent,
  type Result,
  type Side,
  type View,
  type ViewEvent,
} from '../record/record';
import { startGame, gameAttempt, gameAskAny, gameResult, gameOver, gameEvents } from '../core/referee';

export interface SessionOptions {
  /** The starting position (FEN); default the initial position. */
  start?: string;
  /** Plies after which the game stops unfinished (*); default none. */
  maxPlies?: number;
  /** The players' names in the record (default "?"). */
  names?: Record<Side, string>;
  /** Header tags of the record (Event, Seed …); never part of a player's view. */
  tags?: Record<string, string>;
  /**
   * Record of the engine holding the true board (default 0); handle + 1 is the referee's scratch,
   * handle + 2 `scratch`, free for the own-board work of the players' turns (turnOf).
   */
  handle?: number;
}

/**
 * A game in progress on the referee of `referee` (its rules are the game's), started from the
 * options' setup when made. The core holds one game per engine: a new session on the same engine
 * ends the previous one.
 */
export class GameSession {
  readonly start: string;
  readonly maxPlies: number;
  readonly handle: number;
  /** A record of the referee's engine free for scratch work between steps (handle + 2). */
  readonly scratch: number;
  readonly names: Record<Side, string>;
  readonly tags: Record<string, string>;
  private legalPlies = 0;
  /** Events of each side's view already told to it (deliver). */
  private readonly told: Record<Side, number> = { white: 0, black: 0 };

  constructor(
    readonly referee: Engine,
    options: SessionOptions = {},
  ) {
    this.start = options.start ?? START_FEN;
    this.maxPlies = options.maxPlies ?? Infinity;
    this.handle = options.handle ?? 0;
    this.scratch = this.handle + 2;
    this.names = options.names ?? { white: '?', black: '?' };
    this.tags = options.tags ?? {};
    referee.setFen(this.handle, this.start);
    startGame(referee, this.handle);
  }

  get rules(): RuleSet {
    return this.referee.rules;
  }

  /** Plies played (legal moves) so far. */
  get plies(): number {
    return this.legalPlies;
  }

  /** The side to move. */
  toMove(): Side {
    return SIDES[this.referee.setup(this.handle).side];
  }

  /** The referee has ended the game (mate, a draw …). */
  ended(): boolean {
    return gameOver(this.referee);
  }

  /** No more steps: the game ended, or stopped unfinished at maxPlies. */
  over(): boolean {
    return this.legalPlies >= this.maxPlies || gameOver(this.referee);
  }

  /** The side to move attempts `attempt` (an attempt code): the referee's answer; a legal one is played. */
  attempt(attempt: number): Percept {
    this.open();
    const percept = gameAttempt(this.referee, attempt);
    if (percept.answer === 'legal') this.legalPlies++;
    return percept;
  }

  /** The side to move asks "Any?" (where the rules allow it, once a turn): is there a legal pawn capture? */
  askAny(): boolean {
    this.open();
    return gameAskAny(this.referee);
  }

  /** The result so far: "*" while the game goes on or when it stopped at maxPlies. */
  result(): Result {
    return gameResult(this.referee);
  }

  /** The full record so far (the true moves and every answer), "*" while the game goes on. */
  record(): GameRecord {
    return gameRecord(this.referee, this.start, this.names, this.tags);
  }

  /** The events of the record so far from the `from`th on (record().events.slice(from)). */
  events(from = 0): RecordEvent[] {
    return gameEvents(this.referee, from);
  }

  /**
   * The view of `side` so far, as a player is handed it: viewOf without the record's tags (they are
   * the game's and both sides': Seed, Match, Round …; each player's random stream is drawn from the
   * game's seed, so none reaches a player).
   */
  view(side: Side): View {
    return { ...viewOf(this.record(), side), tags: {} };
  }

  /** The view of `side` so far and the events of it not told to it before, which count as told from now on. */
  deliver(side: Side): { view: View; events: ViewEvent[] } {
    const view = this.view(side);
    const events = view.events.slice(this.told[side]);
    this.told[side] = view.events.length;
    return { view, events };
  }

  private open(): void {
    if (this.legalPlies >= this.maxPlies)
      throw fail('game-status', { text: `the game stopped unfinished at its ${this.maxPlies}-ply cap` });
  }
}

/**
 * The record of the game the referee of `referee` holds (a session's, or one the core played by
 * itself: randomGame), so far: "*" while it goes on.
 */
export function gameRecord(
  referee: Engine,
  start: string,
  names: Record<Side, string>,
  tags: Record<string, string>,
): GameRecord {
  return {
    rules: referee.rules,
    start,
    white: names.white,
    black: names.black,
    result: gameResult(referee),
    tags: { ...tags },
    events: gameEvents(referee),
  };
}

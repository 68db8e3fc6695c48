// The player interface of krieg's game runner (issue 14), structurally blind: a player is made
// from its setup (side, rules, start, seed, budget) and an engine of its own — never the game's —
// and during the game it receives only the events of its own view (record.ts viewOf) and, when
// it is to move, a Turn built from that view alone. Nothing it is handed leads to the hidden
// board: the referee's engine stays inside the game's session (host/referee/session.ts), which
// the runner (game.ts) drives.
//
// Every player is deterministic given its seed and a node budget; with a time budget it is as
// fast as the machine lets it be.
import type { Engine } from '../engine';
import type { EgtbEnding } from '../core/egtb';
import type { RuleSet } from '../record/rules';
import type { GameRecord, PawnTriesEvent, Result, Side, View, ViewEvent } from '../record/record';
import { viewAttempts } from '../referee/ownBoard';
import { parseUci } from '../notation/move';

/** Work per move (search nodes) when a game is given neither a node nor a time budget. */
export const DEFAULT_NODES = 20_000;
/** Records of a player's engine: room for the exact estimator's layers and the search stack. */
export const PLAYER_CAPACITY = 1 << 17;
/** The players' transposition table: 2^bits entries of 16 bytes. */
export const TABLE_BITS = 18;

export interface PlayerBudget {
  /**
   * Work per move (a turn: every attempt until the legal one, Illegal retries included): search
   * nodes, and as many units of state-estimation work. Deterministic.
   */
  nodes?: number;
  /** Seconds per move (a turn, Illegal retries included, as Parker et al. §5 count it). */
  timePerMove?: number;
}

export interface PlayerSetup {
  side: Side;
  rules: RuleSet;
  /** The starting position (FEN), which both players know. */
  start: string;
  /** The player's own random stream. */
  seed: number;
  budget: PlayerBudget;
  /** Player-specific options (sample size, search depth …), by name. */
  options: Record<string, number>;
  /**
   * Where the player gets an endgame tablebase the first time its game reaches a tabled ending
   * (./tablebase.ts; the CLI's: the cache, egtbFile.node.ts cachedTables). Absent: only a table the
   * caller loaded into the engine.
   */
  tables?: TableSource;
}

/**
 * Loads `ending`'s table `table` (egtbTableName of the rules) into `engine`'s core for probes;
 * false when there is none (the player then plays on without it).
 */
export type TableSource = (engine: Engine, ending: EgtbEnding, table: string) => boolean;

/** What a player is told when it is to move: its view and what follows from it alone. */
export interface Turn {
  /** The player's view so far; it ends with him to move (his attempts rejected this turn included). */
  view: View;
  /** His attempts that are not Nonsense now: own-board moves and pawn capture attempts, less those already rejected this turn (and pawn capture attempts the rules make Nonsense). */
  attempts: number[];
  /** Attempts rejected this turn, in order. */
  tried: number[];
  /** The rules have "Any?" and he has not asked it this turn (he may, before or after attempts). */
  canAskAny: boolean;
  /** performance.now() (ms) at which this move's time is up; absent without a time budget. */
  deadline?: number;
}

export interface Player {
  readonly name: string;
  /** Each new event of the player's view, in order, as it happens. */
  observe(event: ViewEvent): void;
  /** The next attempt (an attempt code), or 'any' to ask "Any?" where the rules allow it. */
  choose(turn: Turn): number | 'any';
  /** Counters for reports (positions evaluated, nodes searched …), summed over the game. */
  stats?(): Record<string, number>;
  /** The game is over (its result; how it ended, when the board did not end it): an outside program is told and stopped. */
  gameOver?(result: Result, termination?: string): void | Promise<void>;
}

/** Makes a player for one game, on an engine that is its own for that game. */
export type PlayerFactory = (setup: PlayerSetup, engine: Engine) => Player;

/** A player whose choice may take its time (a person typing): runGameAsync awaits it. */
export interface AsyncPlayer extends Omit<Player, 'choose'> {
  choose(turn: Turn): number | 'any' | Promise<number | 'any'>;
}
export type AsyncPlayerFactory = (setup: PlayerSetup, engine: Engine) => AsyncPlayer;

/** Attempts rejected in the current turn of the view's owner (since his last legal move or the opponent's move). */
export function triedThisTurn(view: View): number[] {
  let tried: number[] = [];
  for (const event of view.events) {
    if (event.type === 'opponent-move') tried = [];
    else if (event.type === 'attempt' && event.side === view.as) {
      if (event.percept.answer === 'legal') tried = [];
      else tried.push(parseUci(event.attempt)!);
    }
  }
  return tried;
}

/** Events of the current turn of the view's owner, latest first (back to his last legal move or the opponent's move). */
function* thisTurnBackwards(view: View): Generator<ViewEvent> {
  for (let i = view.events.length - 1; i >= 0; i--) {
    const event = view.events[i];
    if (event.type === 'opponent-move' || (event.type === 'attempt' && event.percept.answer === 'legal')) return;
    yield event;
  }
}

/** The pawn-try announcement made before the current turn of the view's owner, if any. */
function announcedTries(view: View): PawnTriesEvent | undefined {
  for (const event of thisTurnBackwards(view)) if (event.type === 'pawn-tries' && event.side === view.as) return event;
  return undefined;
}

/**
 * Does the announcement rule out pawn capture `attempt` (Nonsense under the rules' pawnTryNonsense:
 * Cincinnati's "no", a count of 0, RAND rules 7 and 10)? As the referee judges it (ruledOutBy in
 * assembly/referee/referee.ts): a count of 0 or "no" rules out every pawn capture; squares rule out
 * a capture landing on a square not announced (pawn-squares: made by a pawn standing on one).
 */
function ruledOut(tries: PawnTriesEvent, rules: RuleSet, attempt: number): boolean {
  if (tries.count !== undefined) return tries.count === 0;
  if (tries.exists !== undefined) return !tries.exists;
  const square = rules.pawnTries === 'pawn-squares' ? attempt & 63 : (attempt >> 6) & 63;
  return !(tries.squares ?? []).includes(square);
}

const isPawnCaptureAttempt = (ownBoard: number[], attempt: number) =>
  (ownBoard[attempt & 63] & 7) === 1 && ((attempt ^ (attempt >> 6)) & 7) !== 0;

/** The answer to the owner's "Any?" in this turn, if he asked (once a turn, at any point of it). */
function anyThisTurn(view: View): boolean | undefined {
  for (const event of thisTurnBackwards(view)) if (event.type === 'any' && event.side === view.as) return event.yes;
  return undefined;
}

/**
 * After his own "Any?" answered yes in this turn, the owner must attempt pawn captures: until one
 * is legal (the secret "Any?" of berkeley-any), or until he has attempted one after the question
 * (the open "Any?" of the English rules: rule 11 then leaves him "at liberty to make a legal move
 * with any man"); anything else is Nonsense meanwhile.
 */
function obligedToPawnCaptures(view: View, board: number[]): boolean {
  let pawnCaptureTried = false;
  for (const event of thisTurnBackwards(view)) {
    if (event.type === 'any' && event.side === view.as)
      return event.yes && (view.rules.pawnTries === 'any-secret' || !pawnCaptureTried);
    if (event.type === 'attempt' && event.side === view.as && isPawnCaptureAttempt(board, parseUci(event.attempt)!))
      pawnCaptureTried = true;
  }
  return false;
}

/**
 * The Turn of the view's owner (who must be to move), computed from the view alone; `engine` and
 * `handle` are a scratch record for the own board (viewAttempts).
 */
export function turnOf(view: View, engine: Engine, handle: number, deadline?: number): Turn {
  const tried = triedThisTurn(view);
  const rejected = new Set(tried);
  let attempts = viewAttempts(engine, view, handle).filter((a) => !rejected.has(a));
  const board = engine.setup(handle).board;
  const tries = view.rules.pawnTryNonsense ? announcedTries(view) : undefined;
  if (tries) attempts = attempts.filter((a) => !isPawnCaptureAttempt(board, a) || !ruledOut(tries, view.rules, a));
  if (obligedToPawnCaptures(view, board)) attempts = attempts.filter((a) => isPawnCaptureAttempt(board, a));
  const canAskAny = view.rules.pawnTries.startsWith('any') && anyThisTurn(view) === undefined;
  return { view, attempts, tried, canAskAny, ...(deadline === undefined ? {} : { deadline }) };
}

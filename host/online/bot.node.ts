// krieg bot run: plays krieg's players on Kriegspiel.org (docs/online.md). It polls the bot's games
// (GET /game/mine/active); for each game where it is to move it reads the state, maps it to the
// player's view (kriegspielOrg.ts: one SiteGameView and one player per game, kept across polls),
// hands the player the new events, builds its Turn from the view alone (turnOf, as the local game
// runner does) restricted to the site's allowed moves, and sends the choice (POST move or ask-any).
// The site is the referee: after every attempt the state is read again, so a lost answer, a 500 or
// a restart costs nothing but a read: a game met for the first time (a new one, or every game after
// a restart) gets a player rebuilt from its view. Time per move comes from the site's clock.
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { resetSearch } from '../core/players';
import { makeUci, parseUci } from '../notation/move';
import { gameSeed } from '../referee/seeds';
import type { Side, View } from '../record/record';
import { turnOf, PLAYER_CAPACITY, TABLE_BITS, type Player, type PlayerFactory } from '../players/player';
import { createPlayerEngine } from '../players/engines.node';
import { cachedTables } from '../players/egtbFile.node';
import { playerFactory, type PlayerSpec } from '../players/registry';
import { KriegError } from '../errors';
import { PLAYED_VARIANTS, SiteGameView, type SiteState } from './kriegspielOrg';
import { sleep, transient, type SiteClient, type SiteError, type SiteGame, type SiteMoveResponse } from './client';

/** The site's one time control's increment (ks-backend services/clock_service.py: 25 min + 10 s). */
export const SITE_INCREMENT = 10;
/** Seconds kept in hand: a move is never planned to leave less on the clock. */
const RESERVE = 5;
/** Reads of one game's state in one poll, at most (a guard against a loop): the next poll goes on. */
const MAX_ATTEMPTS_PER_POLL = 500;

export interface BotOptions {
  client: SiteClient;
  player: PlayerSpec;
  /** Makes the player instead of the spec's registry entry (a library caller's own Player). */
  factory?: PlayerFactory;
  /** The variants advertised (POST /bots/profile) and opened in the lobby: a subset of PLAYED_VARIANTS. */
  variants: string[];
  /** Stop after this many games have ended (games already under way count). */
  maxGames?: number;
  /** Keep one open lobby game of the bot's (the site allows one, and expires it after 10 minutes). */
  openLobbyGame?: boolean;
  backend: BackendName;
  /** A node budget per move instead of the clock's time (deterministic: tests). */
  nodes?: number;
  /** The increment of the site's clock, in seconds. */
  increment?: number;
  pollMs?: number;
  /** Records of each player's engine (default: PLAYER_CAPACITY). */
  capacity?: number;
  /** One line per event (never the token). */
  log: (line: string) => void;
  /** Asked between steps: true ends the run. */
  stopped?: () => boolean;
  /** Each game as it ends, with the bot's view of it. */
  onGameOver?: (game: SiteGame, view: View | undefined) => void;
}

/**
 * Seconds for this move: an even share of what is left over the next 30 moves plus most of the
 * increment, never more than a quarter of what is left above the reserve.
 */
export function timeForMove(remaining: number, increment = SITE_INCREMENT): number {
  const spare = Math.max(0, remaining - RESERVE);
  return Math.max(0.05, Math.min(spare / 30 + 0.8 * increment, spare / 4));
}

interface BotGame {
  meta: SiteGame;
  sheet: SiteGameView;
  player?: Player;
  side?: Side;
  /** The last error this game met (logged once until it changes). */
  broken?: string;
  /** The turn being played (the moves made so far) and when its time is up: Illegal retries share the turn's time. */
  turn?: { moves: number; deadline?: number };
}

/** FNV-1a of the game's id: the player's seed, so a game rebuilt after a restart draws the same stream. */
function seedOf(ref: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < ref.length; i++) h = Math.imul(h ^ ref.charCodeAt(i), 0x01000193);
  return gameSeed(h >>> 0, 1);
}

function describe(response: SiteMoveResponse): string {
  const parts = [response.announcement];
  if (response.capture_square) parts.push(`at ${response.capture_square}`);
  if (response.special_announcement) parts.push(response.special_announcement);
  return parts.join(' ');
}

export class Bot {
  private readonly games = new Map<string, BotGame>();
  /** Games that ended (a listing that lags behind a game's end does not bring one back). */
  private readonly ended = new Set<string>();
  private readonly scratch: Engine;
  private finished = 0;
  private lobbyTurn = 0;

  constructor(private readonly options: BotOptions) {
    this.scratch = new Engine(createCore(options.backend), 16);
  }

  private log(line: string): void {
    this.options.log(`${new Date().toISOString()} ${line}`);
  }

  /** Polls and plays until stopped, or until maxGames games have ended. Returns the number of games that ended. */
  async run(): Promise<number> {
    const { client, variants } = this.options;
    await client.advertise(variants);
    this.log(`bot ${client.server}: playing ${this.options.player.text}, variants ${variants.join(', ')}`);
    while (!this.done()) {
      try {
        await this.poll();
      } catch (error) {
        if (!(error instanceof KriegError) || !transient(error as SiteError)) throw error;
        this.log(`poll failed, will retry: ${error.message}`);
      }
      if (this.done()) break;
      await sleep(this.options.pollMs ?? 2000);
    }
    this.log(`bot stops: ${this.finished} game(s) ended`);
    return this.finished;
  }

  private done(): boolean {
    const max = this.options.maxGames;
    return (max !== undefined && this.finished >= max) || this.options.stopped?.() === true;
  }

  /** One round: every game of the bot's, then the lobby. */
  async poll(): Promise<void> {
    const listed = await this.options.client.activeGames();
    const active = new Set<string>();
    for (const meta of listed) {
      if (meta.state !== 'active' || this.ended.has(meta.game_id)) continue;
      active.add(meta.game_id);
      let game = this.games.get(meta.game_id);
      if (!game) {
        game = { meta, sheet: new SiteGameView(meta.game_id, meta.rule_variant) };
        this.games.set(meta.game_id, game);
        this.log(`game ${meta.game_code} (${meta.game_id}): ${meta.rule_variant}, joined the bot's games`);
        if (!PLAYED_VARIANTS.includes(meta.rule_variant)) {
          // not advertised, so not chosen by the site's players: a game from before, resigned rather than lost on time
          await this.options.client.resign(meta.game_id).catch(() => undefined);
          this.log(`game ${meta.game_code}: krieg does not play ${meta.rule_variant}, resigned`);
          continue;
        }
      }
      game.meta = meta;
      // a game whose turn the listing says is the opponent's needs no read (the side is known once read)
      if (game.side && meta.turn && meta.turn !== game.side) continue;
      await this.play(game);
      if (this.done()) return;
    }
    // games no longer listed as active have ended (or were deleted): their final state, once
    for (const [ref, game] of this.games) if (!active.has(ref)) await this.close(game);
    await this.lobby(listed);
  }

  /** Plays `game` while the bot is to move in it. */
  private async play(game: BotGame): Promise<void> {
    const { client } = this.options;
    const ref = game.meta.game_id;
    for (let reads = 0; reads < MAX_ATTEMPTS_PER_POLL; reads++) {
      let state: SiteState;
      try {
        state = await client.state(ref);
      } catch (error) {
        // only a refused token ends the run: a game the site cannot show now is tried again next poll
        if (!(error instanceof KriegError) || (error as SiteError).status === 401) throw error;
        return this.trouble(game, error.message);
      }
      let view: View;
      try {
        this.observe(game, state);
        view = game.sheet.view!;
      } catch (error) {
        if (!(error instanceof KriegError)) throw error;
        // a state krieg cannot read: logged; the game is rebuilt from the next state the site gives
        game.sheet = new SiteGameView(ref, game.meta.rule_variant);
        game.player = undefined;
        return this.trouble(game, error.message);
      }
      if (state.state === 'completed') return this.close(game, state);
      if (state.state !== 'active' || state.turn !== game.side) return;
      const choice = this.choose(game, view, state);
      if (choice === undefined) return;
      try {
        const response = choice === 'any' ? await client.askAny(ref) : await client.move(ref, choice);
        this.log(
          `game ${game.meta.game_code} ${game.side} ${choice === 'any' ? 'Any?' : choice}: ${describe(response)}${response.game_over ? ' (game over)' : ''}`,
        );
      } catch (error) {
        if (!(error instanceof KriegError) || (error as SiteError).status === 401) throw error;
        // a lost answer, a 5xx, NOT_YOUR_TURN, a game that timed out: the next state says what happened
        this.log(`game ${game.meta.game_code} ${choice}: ${error.message}`);
      }
    }
    this.trouble(game, `${MAX_ATTEMPTS_PER_POLL} attempts in one poll`);
  }

  /** Maps `state` and hands the player the events it has not had; makes the player at the game's first state (unless `closing`). */
  private observe(game: BotGame, state: SiteState, closing = false): void {
    const fresh = game.sheet.update(state);
    const view = game.sheet.view!;
    if (!game.player && !closing) {
      const { nodes, backend, capacity } = this.options;
      const engine = createPlayerEngine(backend, capacity ?? PLAYER_CAPACITY);
      engine.setRules(view.rules);
      resetSearch(engine, TABLE_BITS);
      const setup = {
        side: view.as,
        rules: view.rules,
        start: view.start,
        seed: seedOf(game.meta.game_id),
        budget: nodes === undefined ? { timePerMove: timeForMove(state.clock[`${view.as}_remaining`]) } : { nodes },
        options: this.options.player.options,
        tables: cachedTables,
      };
      game.player = (this.options.factory ?? playerFactory(this.options.player))(setup, engine);
      game.side = view.as;
      game.broken = undefined;
      this.log(`game ${game.meta.game_code}: ${game.player.name} plays ${view.as} (${fresh.length} events so far)`);
    }
    for (const event of fresh) game.player?.observe(event);
  }

  /** The player's choice on the site's allowed moves: a UCI move, 'any', or undefined when there is none. */
  private choose(game: BotGame, view: View, state: SiteState): string | 'any' | undefined {
    const moves = view.events.filter(
      (e) => (e.type === 'attempt' && e.percept.answer === 'legal') || (e.type === 'opponent-move' && e.percept),
    ).length;
    if (game.turn?.moves !== moves) {
      const remaining = state.clock[`${game.side!}_remaining`];
      const seconds = this.options.nodes === undefined ? timeForMove(remaining, this.options.increment) : undefined;
      game.turn = { moves, deadline: seconds === undefined ? undefined : performance.now() + 1000 * seconds };
    }
    const deadline = game.turn.deadline;
    this.scratch.setRules(view.rules);
    const turn = turnOf(view, this.scratch, 0, deadline);
    const allowed = new Set(state.allowed_moves);
    let attempts = turn.attempts.filter((a) => allowed.has(makeUci(a)));
    const canAskAny = turn.canAskAny && state.possible_actions.includes('ask_any');
    if (attempts.length === 0 && !canAskAny) {
      // krieg's own board and the site disagree: the game goes on with the site's moves, said once
      attempts = state.allowed_moves.map(parseUci).filter((a): a is number => a !== undefined);
      this.trouble(
        game,
        `none of krieg's ${turn.attempts.length} attempts is among the site's ${state.allowed_moves.length} allowed moves: playing from the site's`,
      );
      if (attempts.length === 0) return undefined;
    }
    const choice = game.player!.choose({ ...turn, attempts, canAskAny });
    if (choice === 'any') return canAskAny ? 'any' : undefined;
    return makeUci(choice);
  }

  /** A game has ended (or left the active list): its result, once. */
  private async close(game: BotGame, state?: SiteState): Promise<void> {
    this.games.delete(game.meta.game_id);
    this.ended.add(game.meta.game_id);
    try {
      state ??= await this.options.client.state(game.meta.game_id);
      this.observe(game, state, true);
    } catch (error) {
      if (!(error instanceof KriegError)) throw error;
      this.log(`game ${game.meta.game_code}: its last state could not be read (${error.message})`);
    }
    const result = state?.result;
    this.log(
      `game ${game.meta.game_code} over: ${result ? `${result.winner ?? 'draw'} (${result.reason ?? '?'})` : 'no result'}`,
    );
    this.finished++;
    this.options.onGameOver?.(
      { ...game.meta, ...(state ? { state: state.state, result: state.result } : {}) },
      game.sheet.view,
    );
  }

  private trouble(game: BotGame, message: string): void {
    if (game.broken === message) return;
    game.broken = message;
    this.log(`game ${game.meta.game_code}: ${message}`);
  }

  /** Keeps one open lobby game while more games are wanted (the site refuses a second one). */
  private async lobby(listed: SiteGame[]): Promise<void> {
    if (!this.options.openLobbyGame || this.done()) return;
    const underWay = listed.filter((g) => g.state === 'active').length;
    if (listed.some((g) => g.state === 'waiting')) return;
    if (this.options.maxGames !== undefined && this.finished + underWay >= this.options.maxGames) return;
    const variants = this.options.variants;
    const variant = variants[this.lobbyTurn++ % variants.length];
    try {
      const created = await this.options.client.createLobbyGame(variant);
      this.log(`lobby: opened game ${created.game_code} (${variant})`);
    } catch (error) {
      if (!(error instanceof KriegError) || !['site-http', 'site-unreachable'].includes(error.code)) throw error;
      this.log(`lobby: ${error.message}`);
    }
  }
}

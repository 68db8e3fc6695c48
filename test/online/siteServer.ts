// A local stand-in for Kriegspiel.org's bot API, for the contract test (contract.test.ts). Its
// routes and shapes are ks-backend's as of commit 7d566bcee3c28ffa9652cf807cc41cfed4f139bf
// (github.com/Kriegspiel/ks-backend): src/app/routers/auth.py (POST /auth/bots/register),
// routers/bot.py (POST /bots/profile), routers/game.py (GET /game/mine/active, GET /game/{id}/state,
// POST /game/{id}/move, /ask-any, /resign, POST /game/create; errors as {"error": {"code",
// "message", "details"}}, FastAPI's 401 as {"detail"}), models/game.py (GameStateResponse,
// MoveResponse, AskAnyResponse, GameMetadataResponse), services/game_service.py (turns, the
// clock's increment on a legal move only, timeouts, one open lobby game a bot) and
// services/state_projection.py (the scoresheet a player is shown: its entries and English texts).
// The referee is krieg's own (the Engine's game functions); the scoresheet is rendered here from the
// referee's events, independently of host/online/kriegspielOrg.ts, which reads it back.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Engine } from '../../host/engine';
import { createCore } from '../../host/backends/node';
import { START_FEN } from '../../host/notation/fen';
import { makeUci, parseUci } from '../../host/notation/move';
import {
  attemptsOf,
  gameAskAny,
  gameAttempt,
  gameEvents,
  gameOver,
  gameResult,
  startGame,
} from '../../host/core/referee';
import { seededRandom } from '../../host/referee/game';
import { ksGameRules } from '../../host/notation/ksGame';
import { turnOf, type Player } from '../../host/players/player';
import { randomPlayer } from '../../host/players/random';
import { other, viewOf, type GameRecord, type RecordEvent, type Side } from '../../host/record/record';
import type { RuleSet } from '../../host/record/rules';

const VARIANTS = ['berkeley', 'berkeley_any', 'cincinnati', 'wild16', 'rand', 'english', 'crazykrieg'];
const CHECK_CODES: [number, string][] = [
  [1, 'CHECK_KNIGHT'],
  [2, 'CHECK_RANK'],
  [4, 'CHECK_FILE'],
  [8, 'CHECK_LONG_DIAGONAL'],
  [16, 'CHECK_SHORT_DIAGONAL'],
];
const TEXT: Record<string, string> = {
  ILLEGAL_MOVE: 'Illegal move',
  REGULAR_MOVE: 'Move complete',
  HAS_ANY: 'Has pawn captures',
  NO_ANY: 'No pawn captures',
  DRAW_STALEMATE: 'Draw by stalemate',
  DRAW_INSUFFICIENT: 'Draw by insufficient material',
  CHECKMATE_WHITE_WINS: 'Checkmate — White wins',
  CHECKMATE_BLACK_WINS: 'Checkmate — Black wins',
  CHECK_RANK: 'Check on rank',
  CHECK_FILE: 'Check on file',
  CHECK_LONG_DIAGONAL: 'Check on long diagonal',
  CHECK_SHORT_DIAGONAL: 'Check on short diagonal',
  CHECK_KNIGHT: 'Check by knight',
  CHECK_DOUBLE: 'Double check',
};
const squareName = (sq: number) => `${'abcdefgh'[sq & 7]}${(sq >> 3) + 1}`;

/** A request the server answers wrongly once: `nth` (1-based) of those matching, before or after acting on it. */
export interface Fault {
  method: string;
  path: RegExp;
  nth: number;
  kind: '500-before' | '500-after' | 'drop-before' | 'drop-after' | '429-before';
  seen?: number;
  fired?: boolean;
}

export interface GameSpec {
  variant: string;
  botSide: Side;
  /** The opponent's seed. */
  seed: number;
  /** After this many plies the opponent's flag falls (a timeout the bot wins). */
  maxPlies: number;
  /** The bot's clock (seconds) and what each of its requests that acts costs it; increment on a legal move. */
  clock?: number;
  cost?: number;
  increment?: number;
  /** The opponent asks "Any?" at the start of a turn with this chance (where the rules have it). */
  anyChance?: number;
}

interface Sim {
  id: string;
  code: string;
  spec: GameSpec;
  rules: RuleSet;
  referee: Engine;
  scratch: Engine;
  opponent: Player;
  random: () => number;
  delivered: number;
  state: 'waiting' | 'active' | 'completed';
  result: { winner: Side | null; reason: string } | null;
  clock: Record<Side, number>;
  plies: number;
  /** Requests that found it (after the lobby: the join). */
  listed: number;
}

export class SiteServer {
  readonly games = new Map<string, Sim>();
  readonly faults: Fault[] = [];
  readonly log: string[] = [];
  bot = { id: 'b1', username: 'kriegbot', token: 'ksbot_b1.s3cret', variants: [] as string[] };
  private server?: Server;
  private next = 1;
  /** Specs of games a person opens against the bot's lobby game, in order. */
  lobbyJoins: GameSpec[] = [];

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: String(error?.stack ?? error) }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://localhost:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const g of this.games.values()) this.games.delete(g.id);
  }

  /** A game against the bot (as a person opens one, selecting the bot): active at once. */
  addGame(spec: GameSpec): string {
    const sim = this.newSim(spec);
    this.begin(sim);
    return sim.id;
  }

  /** The full record of a game, as krieg's referee kept it, with the site's result. */
  record(id: string): GameRecord {
    const sim = this.games.get(id)!;
    const result = sim.result
      ? sim.result.winner === 'white'
        ? '1-0'
        : sim.result.winner === 'black'
          ? '0-1'
          : '1/2-1/2'
      : '*';
    return {
      rules: sim.rules,
      start: START_FEN,
      white: '?',
      black: '?',
      result,
      tags: {},
      events: gameEvents(sim.referee),
    };
  }

  private newSim(spec: GameSpec): Sim {
    const mapped = ksGameRules(spec.variant);
    if ('refused' in mapped) throw new Error(mapped.refused);
    const id = `g${this.next++}`;
    const referee = new Engine(createCore('wasm'), 16);
    referee.setRules(mapped.rules);
    const scratch = new Engine(createCore('wasm'), 16);
    scratch.setRules(mapped.rules);
    const opponentSide = other(spec.botSide);
    const setup = {
      side: opponentSide,
      rules: mapped.rules,
      start: START_FEN,
      seed: spec.seed,
      budget: {},
      options: {},
    };
    const sim: Sim = {
      id,
      code: `K${String(this.next).padStart(5, '2')}`.slice(0, 6),
      spec,
      rules: mapped.rules,
      referee,
      scratch,
      opponent: randomPlayer(setup, scratch),
      random: seededRandom(spec.seed ^ 0x5bd1e995),
      delivered: 0,
      state: 'waiting',
      result: null,
      clock: { white: spec.clock ?? 1500, black: spec.clock ?? 1500 },
      plies: 0,
      listed: 0,
    };
    this.games.set(id, sim);
    return sim;
  }

  private begin(sim: Sim): void {
    sim.referee.setFen(0, START_FEN);
    startGame(sim.referee, 0);
    sim.state = 'active';
    this.opponentPlays(sim);
  }

  private toMove(sim: Sim): Side {
    return sim.referee.setup(0).side === 0 ? 'white' : 'black';
  }

  /** The opponent (krieg's random player on its own view, "Any?" now and then) plays while it is to move. */
  private opponentPlays(sim: Sim): void {
    const side = other(sim.spec.botSide);
    while (sim.state === 'active' && this.toMove(sim) === side) {
      if (sim.rules.pawnTries.startsWith('any') && sim.random() < (sim.spec.anyChance ?? 0)) gameAskAny(sim.referee);
      for (let n = 0; ; n++) {
        if (n > 500) throw new Error('opponent stuck');
        const view = { ...viewOf(this.record(sim.id), side), tags: {} };
        for (const event of view.events.slice(sim.delivered)) sim.opponent.observe(event);
        sim.delivered = view.events.length;
        const choice = sim.opponent.choose(turnOf(view, sim.scratch, 0));
        if (gameAttempt(sim.referee, choice as number).answer === 'legal') break;
      }
      this.afterPly(sim);
    }
  }

  private afterPly(sim: Sim): void {
    sim.plies++;
    if (gameOver(sim.referee)) {
      const r = gameResult(sim.referee);
      const end = [...gameEvents(sim.referee)].reverse().find((e) => e.type === 'attempt' && e.percept.end);
      const reason = end?.type === 'attempt' ? end.percept.end! : 'end';
      sim.state = 'completed';
      sim.result = { winner: r === '1-0' ? 'white' : r === '0-1' ? 'black' : null, reason };
    } else if (sim.plies >= sim.spec.maxPlies) {
      sim.state = 'completed';
      sim.result = { winner: sim.spec.botSide, reason: 'timeout' };
    }
  }

  /** The bot's flag falls when its clock is spent (checked on each request, as get_game_state does). */
  private checkTimeout(sim: Sim): void {
    if (sim.state === 'active' && sim.clock[sim.spec.botSide] <= 0) {
      sim.state = 'completed';
      sim.result = { winner: other(sim.spec.botSide), reason: 'timeout' };
    }
  }

  /** The site's stored move entries (services/game_service.py execute_move) of the referee's events, with turn numbers. */
  private entries(sim: Sim): { side: Side; turn: number; event: RecordEvent }[] {
    const legal = { white: 0, black: 0 };
    const out: { side: Side; turn: number; event: RecordEvent }[] = [];
    for (const event of gameEvents(sim.referee)) {
      if (event.type === 'pawn-tries') continue; // berkeley(-any) announce none
      out.push({ side: event.side, turn: legal[event.side] + 1, event });
      if (event.type === 'attempt' && event.percept.answer === 'legal') legal[event.side]++;
    }
    return out;
  }

  /** state_projection.py _normalize_scoresheet_entry of one stored entry, for the viewer. */
  private entry(sim: Sim, side: Side, event: RecordEvent) {
    const own = side === sim.spec.botSide;
    const messages: string[] = [];
    let kind: string;
    let questionType = 'COMMON';
    if (event.type === 'any') {
      kind = 'ask_any';
      questionType = 'ASK_ANY';
      messages.push(TEXT[event.yes ? 'HAS_ANY' : 'NO_ANY']);
    } else if (event.type === 'attempt') {
      const p = event.percept;
      kind = p.answer === 'illegal' ? 'illegal_move' : p.capture !== undefined ? 'capture' : 'move';
      if (p.answer === 'nonsense') throw new Error('the site stores no Nonsense attempt');
      messages.push(
        p.answer === 'illegal'
          ? TEXT.ILLEGAL_MOVE
          : p.capture !== undefined
            ? `Capture done at ${squareName(p.capture).toUpperCase()}`
            : TEXT.REGULAR_MOVE,
      );
      if (p.end === 'checkmate')
        messages.push(TEXT[side === 'white' ? 'CHECKMATE_WHITE_WINS' : 'CHECKMATE_BLACK_WINS']);
      else if (p.end === 'stalemate') messages.push(TEXT.DRAW_STALEMATE);
      else if (p.end === 'draw-material') messages.push(TEXT.DRAW_INSUFFICIENT);
      else if (p.check) {
        const codes = CHECK_CODES.filter(([bit]) => (p.directions ?? 0) & bit).map(([, code]) => code);
        if (codes.length === 2) messages.push(TEXT.CHECK_DOUBLE);
        messages.push(...codes.map((c) => TEXT[c]));
      }
    } else throw new Error('no pawn tries in these rules');
    const prompt = own
      ? questionType === 'ASK_ANY'
        ? 'Ask any pawn captures'
        : 'Move attempt'
      : questionType === 'ASK_ANY'
        ? 'Opponent asked any pawn captures'
        : 'Opponent move';
    return {
      kind,
      actor: own ? 'self' : 'opponent',
      prompt,
      message: `${prompt} — ${messages.join(' · ')}`,
      messages,
      move_uci: own && event.type === 'attempt' ? event.attempt : null,
      question_type: questionType,
    };
  }

  /**
   * What the bot may attempt now: the own-pieces attempts less those refused this turn; after "Any?",
   * only the pawn captures (yes) or none of them (no), as ks-game's rulesets.py
   * apply_post_answer_constraints narrows possible_to_ask.
   */
  private allowed(sim: Sim): string[] {
    if (sim.state !== 'active' || this.toMove(sim) !== sim.spec.botSide) return [];
    const tried = new Set<string>();
    let any: boolean | undefined;
    for (const e of gameEvents(sim.referee)) {
      if (e.type === 'attempt' && e.percept.answer === 'legal') {
        tried.clear();
        any = undefined;
      } else if (e.type === 'attempt') tried.add(e.attempt);
      else if (e.type === 'any' && e.side === sim.spec.botSide) any = e.yes;
    }
    const board = sim.referee.setup(0).board;
    const pawnCapture = (a: number) => (board[a & 63] & 7) === 1 && ((a ^ (a >> 6)) & 7) !== 0;
    return attemptsOf(sim.referee, 0)
      .filter((a) => any === undefined || pawnCapture(a) === any)
      .map(makeUci)
      .filter((u) => !tried.has(u))
      .sort();
  }

  private askedAny(sim: Sim): boolean {
    const events = gameEvents(sim.referee);
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i];
      if (e.type === 'attempt' && e.percept.answer === 'legal') return false;
      if (e.type === 'any' && e.side === sim.spec.botSide) return true;
    }
    return false;
  }

  private stateOf(sim: Sim) {
    const turns = new Map<number, { turn: number; white: unknown[]; black: unknown[] }>();
    for (const { side, turn, event } of this.entries(sim)) {
      const t = turns.get(turn) ?? { turn, white: [], black: [] };
      turns.set(turn, t);
      t[side].push(this.entry(sim, side, event));
    }
    const sheet = [...turns.values()].sort((a, b) => a.turn - b.turn);
    const myTurn = sim.state === 'active' && this.toMove(sim) === sim.spec.botSide;
    const actions = myTurn ? ['move'] : [];
    if (myTurn && sim.spec.variant === 'berkeley_any' && !this.askedAny(sim)) actions.push('ask_any');
    return {
      game_id: sim.id,
      state: sim.state,
      turn: sim.state === 'active' ? this.toMove(sim) : null,
      move_number: Math.floor(sim.plies / 2) + 1,
      your_color: sim.spec.botSide,
      your_fen: '',
      allowed_moves: this.allowed(sim),
      material_summary: { white: { pieces_remaining: 16 }, black: { pieces_remaining: 16 } },
      reserve_summary: { white: {}, black: {} },
      scoresheet: { viewer_color: sim.spec.botSide, last_move_number: sheet.length, turns: sheet },
      referee_log: [],
      referee_turns: [], // the site repeats the scoresheet's turns here; krieg reads the scoresheet
      possible_actions: actions,
      result: sim.result,
      clock: {
        white_remaining: sim.clock.white,
        black_remaining: sim.clock.black,
        active_color: sim.state === 'active' ? this.toMove(sim) : null,
      },
    };
  }

  private metadata(sim: Sim) {
    const bot = { username: this.bot.username, connected: true, role: 'bot', elo: 1200, ratings: {} };
    const person = { username: 'person', connected: true, role: 'user', elo: 1200, ratings: {} };
    return {
      game_id: sim.id,
      game_code: sim.code,
      rule_variant: sim.spec.variant,
      state: sim.state,
      opponent_type: 'bot',
      white: sim.spec.botSide === 'white' ? bot : sim.state === 'waiting' ? null : person,
      black: sim.spec.botSide === 'black' ? bot : sim.state === 'waiting' ? null : person,
      turn: sim.state === 'active' ? this.toMove(sim) : null,
      move_number: Math.floor(sim.plies / 2) + 1,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      result: sim.result,
      rating_snapshot: null,
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0];
    this.log.push(`${method} ${path}${text ? ` ${text}` : ''} auth=${req.headers.authorization ?? ''}`);
    // every fault counts the requests it matches; the first whose count reaches its nth fires
    const matching = this.faults.filter((f) => !f.fired && f.method === method && f.path.test(path));
    for (const f of matching) f.seen = (f.seen ?? 0) + 1;
    const fault = matching.find((f) => f.seen === f.nth);
    if (fault) fault.fired = true;
    const send = (status: number, body: unknown) => {
      if (fault?.kind === 'drop-after') return void req.socket.destroy();
      if (fault?.kind === '500-after') status = 500;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 500 && fault ? { detail: 'Internal Server Error' } : body));
    };
    if (fault?.kind === 'drop-before') return void req.socket.destroy();
    if (fault?.kind === '500-before') return send(500, { detail: 'Internal Server Error' });
    if (fault?.kind === '429-before') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
      return void res.end(JSON.stringify({ detail: 'Too Many Requests' }));
    }
    const error = (status: number, code: string, message: string) =>
      send(status, { error: { code, message, details: {} } });
    let body: Record<string, unknown> = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      return send(422, { detail: 'invalid JSON' });
    }
    if (method === 'POST' && path === '/auth/bots/register') {
      if (
        typeof body.username !== 'string' ||
        typeof body.owner_email !== 'string' ||
        typeof body.display_name !== 'string'
      )
        return send(422, { detail: [{ msg: 'Field required' }] });
      this.bot = { ...this.bot, username: body.username, variants: (body.supported_rule_variants as string[]) ?? [] };
      return send(201, {
        bot_id: this.bot.id,
        username: body.username,
        display_name: body.display_name,
        owner_email: body.owner_email,
        api_token: this.bot.token,
        message: 'Bot registered. Save this token now; it will not be shown again.',
      });
    }
    if (req.headers.authorization !== `Bearer ${this.bot.token}`)
      return send(401, { detail: 'Authentication required' });
    if (method === 'POST' && path === '/bots/profile') {
      const variants = body.supported_rule_variants as string[];
      if (!Array.isArray(variants) || !variants.length || variants.some((v) => !VARIANTS.includes(v)))
        return send(422, { detail: [{ msg: 'Unsupported rule variant' }] });
      this.bot.variants = variants;
      return send(200, { ok: true, supported_rule_variants: variants });
    }
    if (method === 'GET' && path === '/game/mine/active') {
      for (const sim of this.games.values()) {
        // a person joins the bot's lobby game the second time the bot looks
        if (sim.state === 'waiting' && ++sim.listed >= 2) this.begin(sim);
      }
      const games = [...this.games.values()].filter((g) => g.state !== 'completed').map((g) => this.metadata(g));
      return send(200, { games });
    }
    if (method === 'POST' && path === '/game/create') {
      if (body.opponent_type !== 'human')
        return error(400, 'BOT_CREATE_REQUIRES_HUMAN_OPPONENT', 'Bots can only create open lobby games');
      if ([...this.games.values()].some((g) => g.state === 'waiting'))
        return error(409, 'BOT_ALREADY_HAS_OPEN_GAME', 'A bot can only have one open lobby game at a time');
      const spec = this.lobbyJoins.shift();
      if (!spec) return error(400, 'TEST_NO_MORE_GAMES', 'the test opens no more games');
      const sim = this.newSim({ ...spec, variant: String(body.rule_variant) });
      return send(201, {
        game_id: sim.id,
        game_code: sim.code,
        play_as: spec.botSide,
        rule_variant: body.rule_variant,
        state: 'waiting',
        join_url: `https://kriegspiel.org/join/${sim.code}`,
        game_url: null,
        opponent_type: 'human',
        bot: null,
      });
    }
    const m = /^\/game\/([^/]+)\/(state|move|ask-any|resign)$/.exec(path);
    const sim = m ? this.games.get(m[1]) : undefined;
    if (!m || !sim) return error(404, 'GAME_NOT_FOUND', 'Game not found');
    this.checkTimeout(sim);
    if (method === 'GET' && m[2] === 'state') return send(200, this.stateOf(sim));
    if (method !== 'POST') return send(405, { detail: 'Method Not Allowed' });
    if (sim.state !== 'active') return error(400, 'GAME_NOT_ACTIVE', 'Game is not active');
    const side = sim.spec.botSide;
    if (m[2] === 'resign') {
      sim.state = 'completed';
      sim.result = { winner: other(side), reason: 'resignation' };
      return send(200, { result: sim.result });
    }
    if (this.toMove(sim) !== side) return error(400, 'NOT_YOUR_TURN', 'It is not your turn');
    sim.clock[side] -= sim.spec.cost ?? 1;
    let answer: Record<string, unknown>;
    if (m[2] === 'ask-any') {
      if (!this.stateOf(sim).possible_actions.includes('ask_any'))
        return error(400, 'ACTION_NOT_AVAILABLE', 'Ask any pawn captures is not available in this game');
      const yes = gameAskAny(sim.referee);
      answer = { move_done: false, announcement: yes ? 'HAS_ANY' : 'NO_ANY', has_any: yes };
    } else {
      const uci = String(body.uci ?? '');
      if (uci.length < 4 || uci.length > 5) return send(422, { detail: [{ msg: 'uci: 4 to 5 characters' }] });
      if (!this.allowed(sim).includes(uci)) throw new Error(`the bot attempted ${uci}, which the site does not allow`);
      const p = gameAttempt(sim.referee, parseUci(uci)!);
      answer = {
        move_done: p.answer === 'legal',
        announcement:
          p.answer === 'illegal' ? 'ILLEGAL_MOVE' : p.capture !== undefined ? 'CAPTURE_DONE' : 'REGULAR_MOVE',
        capture_square: p.capture === undefined ? null : squareName(p.capture),
      };
      if (p.answer === 'legal') {
        sim.clock[side] += sim.spec.increment ?? 10;
        this.afterPly(sim);
        this.opponentPlays(sim);
      }
    }
    this.checkTimeout(sim);
    return send(200, {
      special_announcement: null,
      checks: [],
      ...answer,
      turn: sim.state === 'active' ? this.toMove(sim) : null,
      game_over: (sim.state as string) === 'completed',
      clock: this.stateOf(sim).clock,
    });
  }
}

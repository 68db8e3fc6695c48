// The page's engine, in a Web Worker (bundled by scripts/build.mjs into the page's script and
// started from a Blob, so the page works from file:// too). It plays the game — the referee's
// engine with the true board, and the opponent, a player of host/players on an engine of its own —
// and tells the page only the human's view (GameState); it also answers the analyses the page asks
// for (belief of a view, replay of a finished record, checkmate search with progress).
import wasmBytes from '../../build/krieg.wasm';
import { Engine } from '../engine';
import type { Core } from '../abi';
import { createWasmCore } from '../backends/wasm';
import { createJsCore } from '../backends/js';
import { KriegError } from '../errors';
import { START_FEN, makeFen } from '../notation/fen';
import { makeUci, parseUci } from '../notation/move';
import { PRESETS } from '../record/rules';
import { viewOf, SIDES, other, type GameRecord, type Side } from '../record/record';
import { replaySetups } from '../referee/replay';
import { startGame, gameAttempt, gameAskAny, gameResult, gameOver, gameEvents } from '../core/referee';
import { resetSearch } from '../core/players';
import { turnOf, PLAYER_CAPACITY, TABLE_BITS, type Player } from '../players/player';
import { playerFactory, parsePlayerSpec } from '../players/registry';
import { solveRequest } from '../solver/request';
import { beliefSummary } from './belief';
import type { BackendName, GameState, NewGame, Reply, Request, SolveRequest } from './protocol';

/** Attempts in one opponent turn after which it is stuck (as host/players/game.ts). */
const MAX_TURN_ATTEMPTS = 1000;
/** The most positions a view's belief may have for a solve (estimated exactly first). */
const SOLVE_BELIEF_LIMIT = 10_000;
const SOLVE_MEMORY = 128 * 2 ** 20;

let backend: BackendName = 'wasm';
const makeCore = (): Core => (backend === 'wasm' ? createWasmCore(wasmBytes) : createJsCore());
let scratch: Engine | undefined; // analyses: belief, replay, solve
const analysis = () => (scratch ??= new Engine(makeCore(), 2));

/** One game: the referee's engine (record 0 the true board, 1 its scratch, 2 the own-board scratch) and the opponent. */
class Session {
  readonly referee = new Engine(makeCore(), 16);
  private readonly opponent: Player;
  private readonly opponentSide: Side;
  private delivered = 0;
  private last: GameState['last'];
  private opponentMs: number | undefined;

  constructor(readonly game: NewGame) {
    const rules = PRESETS[game.preset];
    this.referee.setRules(rules);
    this.referee.setFen(0, game.start ?? START_FEN);
    startGame(this.referee, 0);
    this.opponentSide = other(game.side);
    const spec = parsePlayerSpec(game.opponent);
    const engine = new Engine(makeCore(), PLAYER_CAPACITY);
    engine.setRules(rules);
    resetSearch(engine, TABLE_BITS);
    this.opponent = playerFactory(spec)(
      {
        side: this.opponentSide,
        rules,
        start: game.start ?? START_FEN,
        seed: game.seed,
        budget: { timePerMove: game.timePerMove },
        options: spec.options,
      },
      engine,
    );
  }

  record(): GameRecord {
    const names = { [this.game.side]: 'you', [this.opponentSide]: this.game.opponent } as Record<Side, string>;
    return {
      rules: this.referee.rules,
      start: this.game.start ?? START_FEN,
      white: names.white,
      black: names.black,
      result: gameResult(this.referee),
      tags: { Event: 'krieg web', Seed: String(this.game.seed) },
      events: gameEvents(this.referee),
    };
  }

  toMove = (): Side => SIDES[this.referee.setup(0).side];
  over = () => gameOver(this.referee);

  /** The opponent hears the events of its view it has not heard yet. */
  private deliver() {
    const view = viewOf(this.record(), this.opponentSide);
    for (const event of view.events.slice(this.delivered)) this.opponent.observe(event);
    this.delivered = view.events.length;
    return view;
  }

  /** The opponent's whole turn (its Illegal retries included), under its time budget. */
  opponentTurn(): void {
    const started = performance.now();
    const deadline = started + this.game.timePerMove * 1000;
    for (let attempts = 0; !this.over() && this.toMove() === this.opponentSide; attempts++) {
      if (attempts >= MAX_TURN_ATTEMPTS) throw new Error(`${this.opponent.name} is stuck`);
      const choice = this.opponent.choose(turnOf(this.deliver(), this.referee, 2, deadline));
      if (choice === 'any') gameAskAny(this.referee);
      else gameAttempt(this.referee, choice);
    }
    this.deliver();
    this.opponentMs = performance.now() - started;
  }

  attempt(uci: string): void {
    const code = parseUci(uci);
    const turn = this.turn();
    if (code === undefined || !turn.attempts.includes(code)) throw new Error(`${uci} is not possible on your board`);
    this.last = gameAttempt(this.referee, code);
  }

  askAny(): void {
    this.last = undefined;
    gameAskAny(this.referee);
  }

  private turn() {
    return turnOf(viewOf(this.record(), this.game.side), this.referee, 2);
  }

  state(): GameState {
    const view = viewOf(this.record(), this.game.side);
    const mine = !this.over() && this.toMove() === this.game.side;
    const turn = mine ? turnOf(view, this.referee, 2) : undefined;
    return {
      view,
      attempts: turn ? turn.attempts.map(makeUci) : [],
      canAskAny: turn?.canAskAny ?? false,
      toMove: this.toMove(),
      over: this.over(),
      result: gameResult(this.referee),
      ...(this.last ? { last: this.last } : {}),
      ...(this.opponentMs === undefined ? {} : { opponentMs: this.opponentMs }),
    };
  }
}

let session: Session | undefined;

function reply(message: Reply): void {
  postMessage(message);
}

/** The true position before the first ply and after each (the record's legal attempts replayed). */
function replayFens(record: GameRecord): string[] {
  return replaySetups(analysis(), record).map(makeFen);
}

function runSolve(id: number, problem: SolveRequest): void {
  const engine = analysis();
  const rules = problem.view?.rules ?? problem.rules;
  if (!rules || (!problem.view && !problem.positions)) throw new Error('nothing to solve');
  engine.setRules(rules);
  let lastProgress = 0;
  const result = solveRequest(
    engine,
    problem.view
      ? { view: problem.view, ply: problem.ply }
      : { rules, positions: problem.positions!, ply: problem.ply },
    {
      algorithm: problem.algorithm,
      limits: { nodes: problem.nodes, memoryBytes: SOLVE_MEMORY },
      belief: { limit: SOLVE_BELIEF_LIMIT },
      onProgress: (stats) => {
        const now = performance.now();
        if (now - lastProgress < 100) return;
        lastProgress = now;
        reply({ id, kind: 'progress', stats });
      },
    },
  );
  reply({
    id,
    kind: 'solved',
    outcome: {
      answer: result.answer,
      ...(result.limit ? { limit: result.limit } : {}),
      stats: result.stats,
      ...(result.strategy ? { strategy: result.strategy } : {}),
      positions: result.positions,
    },
  });
}

function handle(request: Request): void {
  const { id } = request;
  switch (request.kind) {
    case 'init':
      backend = request.backend;
      scratch = undefined;
      session = undefined;
      analysis();
      return reply({ id, kind: 'ready', backend });
    case 'new-game':
      session = new Session(request.game);
      if (session.toMove() !== request.game.side) {
        reply({ id, kind: 'thinking' });
        session.opponentTurn();
      }
      return reply({ id, kind: 'state', state: session.state() });
    case 'attempt':
    case 'any': {
      if (!session) throw new Error('no game');
      if (request.kind === 'any') session.askAny();
      else session.attempt(request.uci);
      if (!session.over() && session.toMove() !== session.game.side) {
        reply({ id, kind: 'state', state: session.state() });
        reply({ id, kind: 'thinking' });
        session.opponentTurn();
      }
      return reply({ id, kind: 'state', state: session.state() });
    }
    case 'reveal': {
      if (!session) throw new Error('no game');
      const record = session.record();
      return reply({ id, kind: 'replay', replay: { record, fens: replayFens(record) } });
    }
    case 'replay':
      return reply({ id, kind: 'replay', replay: { record: request.record, fens: replayFens(request.record) } });
    case 'belief': {
      const engine = analysis();
      engine.setRules(request.view.rules);
      return reply({
        id,
        kind: 'belief',
        belief: beliefSummary(engine, request.view, { cap: request.cap, seed: request.seed }),
      });
    }
    case 'solve':
      return runSolve(id, request.problem);
  }
}

addEventListener('message', (event: MessageEvent<Request>) => {
  try {
    handle(event.data);
  } catch (error) {
    const message =
      error instanceof KriegError
        ? `${error.code}: ${error.message}`
        : String(error instanceof Error ? error.message : error);
    reply({ id: event.data.id, kind: 'error', message });
  }
});

// The page's engine, in a Web Worker (bundled by scripts/build.mjs, with the WASM core's bytes,
// into the page, index.html, and started from a Blob, so the page works from file:// too). It plays
// the game — a GameSession (host/referee/session.ts) on the referee's engine with the true board,
// and the opponent, a player of host/players on an engine of its own, whose turns the game runner
// plays — and tells the page only the human's view (GameState); it also answers the analyses the
// page asks for (belief of a view, replay of a finished record, checkmate search with progress).
import wasmBytes from '../../build/krieg.wasm';
import { Engine } from '../engine';
import type { Core } from '../abi';
import { createWasmCore } from '../backends/wasm';
import { createJsCore } from '../backends/js';
import { KriegError } from '../errors';
import { START_FEN, makeFen } from '../notation/fen';
import { makeUci, parseUci } from '../notation/move';
import { PRESETS } from '../record/rules';
import { viewOf, other, type GameRecord, type Side, type View } from '../record/record';
import { replaySetups } from '../referee/replay';
import { GameSession } from '../referee/session';
import { resetSearch } from '../core/players';
import { turnOf, PLAYER_CAPACITY, TABLE_BITS, type Player } from '../players/player';
import { deliverTo, playTurn } from '../players/game';
import { playerFactory, parsePlayerSpec } from '../players/registry';
import { solveRequest } from '../solver/request';
import { KnowTracker } from './belief';
import { answerTable, fetchedTables, resetTables } from './egtb';
import { plyCount } from './app/words';
import {
  GAME_WORKER,
  type BackendName,
  type GameState,
  type NewGame,
  type Reply,
  type Request,
  type SolveRequest,
} from './protocol';

const SOLVE_MEMORY = 128 * 2 ** 20;
// the worker's start-up, which its first init's reply tells the page (bench/web.ts reports it): the
// build's banner marks its script's start, this its modules' set-up done
performance.mark('krieg-worker-ran');

let backend: BackendName = 'wasm';
/** The WASM core, compiled once from the bytes the worker's script carries (each engine an instance of it). */
let wasm: WebAssembly.Module | undefined;
/** Cores made ahead (instantiated, their tables built), taken by the next engines the worker makes. */
let spares: Core[] = [];
/** The page's init has come (the backend is the page's choice from then on). */
let initialised = false;
function spareCore(): Core {
  const core = backend === 'wasm' ? createWasmCore((wasm ??= new WebAssembly.Module(wasmBytes))) : createJsCore();
  new Engine(core, 2); // builds the core's tables (attacks, keys): its first engine's cost
  if (performance.getEntriesByName('krieg-worker-core').length === 0) performance.mark('krieg-worker-core');
  return core;
}
const makeCore = (): Core => spares.pop() ?? spareCore();
let scratch: Engine | undefined; // analyses: replay, solve
const analysis = () => (scratch ??= new Engine(makeCore(), 2));
/** The Know worker's trackers, one per side, on an engine of their own. */
let trackers: Record<Side, KnowTracker> | undefined;
/** The belief request being answered: a newer one supersedes it. */
let beliefAsked = 0;
/** A belief request is being answered (a follow request waits for none: the tracker is being fed). */
let believing = false;
/** The follow request running: a belief request or a newer follow stops it. */
let following = 0;
/** Milliseconds of tracking between two looks at the messages waiting. */
const TRACK_SLICE_MS = 50;
/** Following the game in the background: slices this long, with pauses as long between (half a core at most). */
const FOLLOW_SLICE_MS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One game: its session (the referee's engine: record 0 the true board, 2 the own-board scratch) and the opponent. */
class Session {
  readonly game: GameSession;
  private readonly opponent: Player;
  private readonly opponentSide: Side;
  private last: GameState['last'];
  private opponentMs: number | undefined;
  private resigned = false;

  constructor(readonly setup: NewGame) {
    const rules = PRESETS[setup.preset];
    const referee = new Engine(makeCore(), 16);
    referee.setRules(rules);
    this.opponentSide = other(setup.side);
    const names = { [setup.side]: 'you', [this.opponentSide]: setup.opponent } as Record<Side, string>;
    const tags = { Event: 'krieg web', Seed: String(setup.seed) };
    this.game = new GameSession(referee, { start: setup.start, names, tags });
    const spec = parsePlayerSpec(setup.opponent);
    const engine = new Engine(makeCore(), PLAYER_CAPACITY);
    engine.setRules(rules);
    resetSearch(engine, TABLE_BITS);
    this.opponent = playerFactory(spec)(
      {
        side: this.opponentSide,
        rules,
        start: setup.start ?? START_FEN,
        seed: setup.seed,
        budget: { timePerMove: setup.timePerMove },
        options: spec.options,
        ...(setup.tables ? { tables: fetchedTables(setup.tables) } : {}),
      },
      engine,
    );
  }

  /** The record so far; after a resignation, lost by the human, as krieg play writes it. */
  record(): GameRecord {
    const record = this.game.record();
    if (!this.resigned) return record;
    const tags = { ...record.tags, Termination: `${this.setup.side === 'white' ? 'White' : 'Black'} resigned` };
    return { ...record, result: this.setup.side === 'white' ? '0-1' : '1-0', tags };
  }

  toMove = (): Side => this.game.toMove();
  over = () => this.resigned || this.game.over();

  resign(): void {
    if (this.over()) throw new Error('the game is over');
    this.resigned = true;
  }

  /** The opponent's whole turn (its Illegal retries included), under its time budget; then it hears it all. */
  opponentTurn(): void {
    const started = performance.now();
    playTurn(this.game, this.opponent, this.setup.timePerMove);
    deliverTo(this.game, this.opponentSide, this.opponent);
    this.opponentMs = performance.now() - started;
  }

  attempt(uci: string): void {
    const code = parseUci(uci);
    const turn = this.turn();
    if (code === undefined || !turn.attempts.includes(code)) throw new Error(`${uci} is not possible on your board`);
    this.last = this.game.attempt(code);
  }

  askAny(): void {
    this.last = undefined;
    this.game.askAny();
  }

  private turn() {
    return turnOf(this.game.view(this.setup.side), this.game.referee, this.game.scratch);
  }

  state(): GameState {
    const view = viewOf(this.record(), this.setup.side);
    const mine = !this.over() && this.toMove() === this.setup.side;
    const turn = mine ? turnOf(view, this.game.referee, this.game.scratch) : undefined;
    return {
      view,
      attempts: turn ? turn.attempts.map(makeUci) : [],
      canAskAny: turn?.canAskAny ?? false,
      toMove: this.toMove(),
      over: this.over(),
      result: this.record().result,
      ...(this.resigned ? { resigned: true } : {}),
      ...(this.last ? { last: this.last } : {}),
      ...(this.opponentMs === undefined ? {} : { opponentMs: this.opponentMs }),
    };
  }
}

let session: Session | undefined;

/** The worker's marks so far and the moment its thread was made, in ms since the epoch. */
const startMarks = (): Record<string, number> =>
  Object.fromEntries([
    ['krieg-worker-origin', performance.timeOrigin],
    ...performance.getEntriesByType('mark').map((m) => [m.name, performance.timeOrigin + m.startTime]),
  ]);

function reply(message: Reply): void {
  postMessage(message);
}

/** The true position before the first ply and after each (the record's legal attempts replayed). */
function replayFens(record: GameRecord): string[] {
  return replaySetups(analysis(), record).map(makeFen);
}

function runSolve(id: number, problem: SolveRequest): void {
  const engine = analysis();
  const { rules, positions, ply } = problem;
  engine.setRules(rules);
  let lastProgress = 0;
  const result = solveRequest(
    engine,
    { rules, positions, ply },
    {
      algorithm: problem.algorithm,
      limits: { nodes: problem.nodes, memoryBytes: SOLVE_MEMORY },
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

/**
 * The belief of `view` from its side's tracker, fed the events it has not had in slices between
 * which newer messages are heard: a newer request supersedes this one (answered 'superseded',
 * which the page ignores), and the tracker keeps what it was fed.
 */
async function answerBelief(id: number, view: View, positions = false): Promise<void> {
  beliefAsked = id;
  believing = true;
  following = 0;
  const tracker = trackerOf(view.as);
  const of = plyCount(view);
  if (positions) tracker.rewind(view);
  let answer = tracker.answer(view);
  const kept = answer !== undefined;
  while (!answer) {
    try {
      const { ply, done } = tracker.feed(view, TRACK_SLICE_MS);
      if (done) answer = tracker.answer(view);
      else reply({ id, kind: 'tracking', ply, of });
    } catch (error) {
      believing = false;
      return reportError(id, error);
    }
    if (!answer) await sleep(0);
    if (beliefAsked !== id) return reply({ id, kind: 'error', message: 'superseded' });
  }
  believing = false;
  const fens = positions ? tracker.exactPositions(view) : undefined;
  reply({ id, kind: 'belief', belief: answer, kept, ...(fens ? { positions: fens } : {}) });
}

function trackerOf(side: Side): KnowTracker {
  trackers ??= (() => {
    const engine = KnowTracker.engine(makeCore());
    return { white: new KnowTracker(engine, 'white'), black: new KnowTracker(engine, 'black') };
  })();
  return trackers[side];
}

/**
 * Follows the game in the background: feeds `view` to its side's tracker in small slices with
 * pauses between, and counts the belief at its end, so that Know answers it from what was kept.
 * A belief request (which feeds the tracker itself) or a newer follow stops it.
 */
async function follow(id: number, view: View): Promise<void> {
  if (believing) return reply({ id, kind: 'error', message: 'superseded' });
  following = id;
  const tracker = trackerOf(view.as);
  try {
    while (!tracker.answer(view)) {
      tracker.feed(view, FOLLOW_SLICE_MS);
      await sleep(FOLLOW_SLICE_MS);
      if (following !== id) return reply({ id, kind: 'error', message: 'superseded' });
    }
  } catch (error) {
    return reportError(id, error);
  } finally {
    if (following === id) following = 0;
  }
  reply({ id, kind: 'followed', ply: plyCount(view) });
}

function reportError(id: number, error: unknown): void {
  const message = String(error instanceof Error ? error.message : error);
  reply({ id, kind: 'error', message, ...(error instanceof KriegError ? { code: error.code } : {}) });
}

function handle(request: Request): void {
  const { id } = request;
  switch (request.kind) {
    case 'init': {
      if (request.backend === 'js' && !request.core) throw new Error('the JavaScript core (portable.js) did not load');
      // the JS core's script (it defines the global the JS backend calls: scripts/build.mjs), from a
      // Blob of the worker's own (from file://, one of the page's is not the worker's to load)
      if (request.core)
        (globalThis as unknown as { importScripts(url: string): void }).importScripts(
          URL.createObjectURL(new Blob([request.core], { type: 'text/javascript' })),
        );
      // the cores the game's worker made ahead, if the page asks for their backend
      const ahead = !initialised && request.backend === 'wasm' ? spares : [];
      const first = !initialised;
      initialised = true;
      backend = request.backend;
      scratch = undefined;
      session = undefined;
      trackers = undefined;
      resetTables();
      believing = false;
      following = 0;
      // one core made now unless made ahead (the reply says the engine works), the others the
      // worker's first task needs (a game: the referee's and the opponent's) right after, before any
      // request is read
      spares = ahead.length > 0 ? ahead : [spareCore()];
      reply({ id, kind: 'ready', backend, ...(first ? { marks: startMarks() } : {}) });
      for (let more = (request.cores ?? 1) - spares.length; more > 0; more--) spares.push(spareCore());
      return;
    }
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
      if (!session.over() && session.toMove() !== session.setup.side) {
        reply({ id, kind: 'state', state: session.state() });
        reply({ id, kind: 'thinking' });
        session.opponentTurn();
      }
      return reply({ id, kind: 'state', state: session.state() });
    }
    case 'resign':
      if (!session) throw new Error('no game');
      session.resign();
      return reply({ id, kind: 'state', state: session.state() });
    case 'reveal': {
      if (!session) throw new Error('no game');
      const record = session.record();
      return reply({ id, kind: 'replay', replay: { record, fens: replayFens(record) } });
    }
    case 'replay':
      return reply({ id, kind: 'replay', replay: { record: request.record, fens: replayFens(request.record) } });
    case 'belief':
      return void answerBelief(id, request.view, request.positions);
    case 'follow':
      return void follow(id, request.view);
    case 'solve':
      return runSolve(id, request.problem);
    case 'tablebase':
      return void answerTable(makeCore, request.query, (what) => reply({ id, kind: 'loading', what })).then(
        (answer) => reply({ id, kind: 'tablebase', ...(answer ? { answer } : {}) }),
        (error) => reportError(id, error),
      );
  }
}

/**
 * The game's worker (index.html starts it, named so, before the page has set itself up) makes the
 * first core of a WASM game as soon as its script has run, in a task of its own (the end of its
 * script, which the page's thread hears, is not held up by it), so that the page's init finds it
 * made (an init that asks for the JS backend drops it). The second is made after the init's reply,
 * as for any worker: made ahead in a task of its own, it ran before an init already waiting.
 */
if (self.name === GAME_WORKER) setTimeout(() => initialised || spares.push(spareCore()));

addEventListener('message', (event: MessageEvent<Request>) => {
  try {
    handle(event.data);
  } catch (error) {
    reportError(event.data.id, error);
  }
});

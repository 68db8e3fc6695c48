// The game session (host/referee/session.ts), on both backends: hand-worked steps (whose turn, the
// answers to legal, blocked and capturing attempts, "Any?"), the delivery of each side's view (every
// event told once, in order, the opponent's moves as the view has them), the fool's mate's result,
// the ply cap, and that the session's steps alone make the game runner's record (host/players/game.ts):
// a game driven step by step with the same players is the same game, and the chessops referee
// (test/referee/replay.ts) accepts it.
import { describe, it, expect } from 'vitest';
import { createEngine, BACKENDS } from '../../host/node';
import { preset } from '../../host/record/rules';
import { parseUci } from '../../host/notation/move';
import { START_FEN } from '../../host/notation/fen';
import { viewOf, type ViewEvent } from '../../host/record/record';
import { GameSession } from '../../host/referee/session';
import { runGame, deliverTo } from '../../host/players/game';
import { turnOf, type Player } from '../../host/players/player';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec, playerFactory } from '../../host/players/registry';
import { KriegError } from '../../host/errors';
import { verifyRecord } from './replay';

const code = (uci: string) => parseUci(uci)!;
const legalMoves = (events: { type: string; percept?: { answer: string } }[]) =>
  events.filter((e) => e.type === 'attempt' && e.percept!.answer === 'legal').length;

describe.each(BACKENDS)('game session on %s', (backend) => {
  it('steps: whose turn, the answers, and each side told its view once, in order', () => {
    const referee = createEngine(backend, 16);
    referee.setRules(preset('berkeley-any'));
    const session = new GameSession(referee, { names: { white: 'W', black: 'B' }, tags: { Event: 'test' } });
    expect([session.toMove(), session.plies, session.over(), session.result()]).toEqual(['white', 0, false, '*']);
    const told: Record<'white' | 'black', ViewEvent[]> = { white: [], black: [] };
    const tell = (side: 'white' | 'black') => told[side].push(...session.deliver(side).events);

    expect(session.attempt(code('e2e4')).answer).toBe('legal');
    expect([session.toMove(), session.plies]).toEqual(['black', 1]);
    tell('white');
    expect(session.deliver('white').events, 'nothing new to tell').toEqual([]);
    expect(session.attempt(code('d7d5')).answer).toBe('legal');
    tell('white');
    // White's view now ends with Black's move, heard as the capture square and check only
    expect(told.white.map((e) => e.type)).toEqual(['attempt', 'opponent-move']);
    expect(session.attempt(code('e4e5')).answer, 'a pawn push onto an empty square').toBe('legal');
    expect(session.askAny(), 'Black has no pawn capture after 2. e5').toBe(false);
    expect(session.attempt(code('d5d4')).answer).toBe('legal');
    expect(session.attempt(code('e1e3')).answer, 'not a king move on any board').toBe('nonsense');
    expect(session.attempt(code('d2d3')).answer).toBe('legal');
    expect(session.askAny(), 'Black: d4 takes nothing, e... no pawn of White in reach').toBe(false);
    expect(session.attempt(code('d4d3')).answer, 'blocked by the pawn on d3').toBe('illegal');
    expect(session.attempt(code('d4e3')).answer, 'a pawn capture of an empty square').toBe('illegal');
    expect(session.attempt(code('e7e6')).answer).toBe('legal');
    expect([session.toMove(), session.plies]).toEqual(['white', 6]);
    tell('white');
    tell('black');

    const record = session.record();
    expect([record.white, record.black, record.result, record.start]).toEqual(['W', 'B', '*', START_FEN]);
    expect(record.tags).toEqual({ Event: 'test' });
    expect(legalMoves(record.events)).toBe(6);
    for (const side of ['white', 'black'] as const) {
      const view = session.view(side);
      expect(view.tags, 'no tags in what a player is handed').toEqual({});
      expect(view.events).toEqual(viewOf(record, side).events);
      expect(told[side], `${side} told its whole view`).toEqual(view.events);
    }
    // White heard Black's two Illegal attempts of its third turn with its move
    const heard = told.white
      .filter((e) => e.type === 'opponent-move')
      .map((e) => e.type === 'opponent-move' && e.illegal);
    expect(heard).toEqual([0, 0, 2]);
    expect(session.events(record.events.length - 1)).toEqual(record.events.slice(-1));
    verifyRecord(record, 6, new Map()); // (stopped after 6 plies, as at a cap)
  });

  it("the fool's mate: Black wins, the game is over, the last answers told to both", () => {
    const referee = createEngine(backend, 16);
    referee.setRules(preset('berkeley'));
    const session = new GameSession(referee);
    for (const uci of ['f2f3', 'e7e5', 'g2g4', 'd8h4']) expect(session.attempt(code(uci)).answer).toBe('legal');
    expect([session.ended(), session.over(), session.result()]).toEqual([true, true, '0-1']);
    const last = session.deliver('white').events.at(-1)!;
    expect(last.type === 'opponent-move' && last.percept?.end).toBe('checkmate');
    expect(session.view('black').result).toBe('0-1');
    expect(() => session.attempt(code('e1f2'))).toThrow(KriegError);
  });

  it('stops at its ply cap: unfinished (*), no further attempt', () => {
    const referee = createEngine(backend, 16);
    referee.setRules(preset('berkeley'));
    const session = new GameSession(referee, { maxPlies: 3 });
    const engines = new PlayerEngines(backend);
    const players = { white: random('white', 1, engines), black: random('black', 2, engines) };
    const record = runGame(session, players);
    expect([session.plies, session.over(), session.ended(), record.result]).toEqual([3, true, false, '*']);
    expect(legalMoves(record.events)).toBe(3);
    expect(() => session.attempt(code('e7e5'))).toThrow(/3-ply cap/);
  });

  it("a game driven step by step with the same players is the runner's game, and the chessops referee accepts it", () => {
    const referee = createEngine(backend, 16);
    const engines = new PlayerEngines(backend);
    for (const [variant, seed] of [
      ['berkeley', 1],
      ['cincinnati', 2],
      ['english', 3],
    ] as const) {
      const rules = preset(variant);
      referee.setRules(rules);
      const make = () => ({
        white: random('white', seed, engines, rules),
        black: random('black', seed + 50, engines, rules),
      });
      const options = { maxPlies: 120, names: { white: 'random', black: 'random' }, tags: { Seed: String(seed) } };
      const run = runGame(new GameSession(referee, options), make());

      const session = new GameSession(referee, options);
      const players = make();
      while (!session.over()) {
        const side = session.toMove();
        for (;;) {
          const view = deliverTo(session, side, players[side]);
          const choice = players[side].choose(turnOf(view, referee, session.scratch));
          if (choice === 'any') session.askAny();
          else if (session.attempt(choice).answer === 'legal') break;
        }
      }
      expect(session.record(), variant).toEqual(run);
      expect(run.tags).toEqual({ Seed: String(seed) });
      verifyRecord(run, 120, new Map());
    }
  });
});

/** The random player of `side` (its own engine), seeded. */
function random(side: 'white' | 'black', seed: number, engines: PlayerEngines, rules = preset('berkeley')): Player {
  const setup = { side, rules, start: START_FEN, seed, budget: {}, options: {} };
  return playerFactory(parsePlayerSpec('random'))(setup, engines.for(side, rules));
}

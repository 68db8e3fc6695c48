// The engine protocol (docs/protocol.md) in process: krieg engine's server (serveEngine) answers a
// driver's lines — the handshake, a game's events and "go", and an error line for each line it
// cannot take, after which it goes on — and a player served through it chooses, turn by turn, what
// the same player chooses in the game runner (the turns rebuilt from the events alone); the specs
// of outside programs (ext:…) and their command lines.
import { describe, expect, it } from 'vitest';
import { BACKENDS, createEngine } from '../../host/node';
import { preset } from '../../host/record/rules';
import { START_FEN } from '../../host/notation/fen';
import { makeUci } from '../../host/notation/move';
import { eventToJson } from '../../host/notation/recordJson';
import { runGame } from '../../host/players/game';
import { GameSession } from '../../host/referee/session';
import { PlayerEngines } from '../../host/players/engines.node';
import { parsePlayerSpec, playerFactory, splitCommand, EXT_LIMITS } from '../../host/players/registry';
import { serveEngine } from '../../host/players/engineServer.node';
import { gameSeed } from '../../host/referee/seeds';
import type { Player, PlayerSetup, Turn } from '../../host/players/player';
import type { Side, ViewEvent } from '../../host/record/record';

async function* linesOf(lines: string[]): AsyncGenerator<string> {
  for (const line of lines) yield line;
}

/** The server's answers to `lines`, parsed. */
async function serve(lines: (string | object)[], player = 'random', backend: 'wasm' | 'js' = 'wasm') {
  const out: Record<string, unknown>[] = [];
  await serveEngine(
    linesOf(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))),
    (line) => out.push(JSON.parse(line)),
    parsePlayerSpec(player),
    backend,
  );
  return out;
}

const HELLO = { type: 'hello', protocol: 1 };
const game = (side: Side, extra: object = {}) => ({
  type: 'game',
  variant: 'berkeley',
  rules: preset('berkeley'),
  side,
  start: START_FEN,
  seed: 7,
  budget: { nodes: 200 },
  ...extra,
});

describe('krieg engine (serveEngine)', () => {
  it('answers the handshake with its protocol version and name, and "ready" to a game', async () => {
    const out = await serve([HELLO, game('white'), { type: 'quit' }], 'krieg:depth=0');
    expect(out).toEqual([{ type: 'hello', protocol: 1, name: 'krieg (krieg:depth=0)' }, { type: 'ready' }]);
  });

  it('answers "go" with an attempt that is not Nonsense: at the start, one of the 20 moves', async () => {
    const out = await serve([HELLO, game('white'), { type: 'go', attempts: [], tried: [], canAskAny: false }]);
    expect(out[2].type).toBe('attempt');
    const legal = createEngine('wasm', 4);
    legal.setFen(0, START_FEN);
    expect(legal.movesUci(0)).toContain(out[2].attempt);
  });

  it('answers each line it cannot take with one error naming what is wrong, and goes on', async () => {
    const out = await serve([
      'not json',
      '[1,2]',
      '{"protocol":1}',
      { type: 'hello', protocol: 2 },
      { type: 'go' },
      { type: 'dance' },
      game('white', { side: 'red' }),
      game('white', { rules: { pawnTries: 'sometimes' } }),
      game('white', { start: '8/8/8/8/8/8/8/8 w - - 0 1' }),
      game('white', { budget: { nodes: -1 } }),
      HELLO,
      game('black'),
      { type: 'event', event: { type: 'attempt', side: 'white' } },
      { type: 'go' }, // Black, before White has moved
    ]);
    const errors = out.filter((m) => m.type === 'error').map((m) => String(m.message));
    expect(errors, JSON.stringify(errors)).toHaveLength(12);
    expect(errors[0]).toBe('a line that is not JSON');
    expect(errors[1]).toBe('a line that is not a JSON object');
    expect(errors[2]).toBe('a line that is an object without a "type"');
    expect(errors[3]).toBe('krieg engine speaks protocol 1, not 2');
    expect(errors[4]).toMatch(/no game is going on/);
    expect(errors[5]).toBe('unknown message type "dance"');
    expect(errors[6]).toMatch(/"side" must be "white" or "black"/);
    expect(errors[7]).toMatch(/pawn-tries/);
    expect(errors[8]).toMatch(/king/i);
    expect(errors[9]).toMatch(/budget.nodes/);
    expect(errors[10]).toBe('event.attempt: missing field "attempt"');
    expect(errors[11]).toMatch(/white to move, not black/);
    expect(out.filter((m) => m.type !== 'error').map((m) => m.type)).toEqual(['hello', 'ready']);
  });

  it('takes the rules as a preset name, or as flags over it', async () => {
    const out = await serve([HELLO, { ...game('white'), rules: undefined, variant: 'wild16' }, { type: 'quit' }]);
    expect(out[1]).toEqual({ type: 'ready' });
    const over = await serve([HELLO, { ...game('white'), variant: 'rand', rules: { castling: false } }]);
    expect(over[1]).toEqual({ type: 'ready' });
  });
});

describe.each(BACKENDS)('a player served over the protocol, on %s', (backend) => {
  it('chooses what it chooses in process, turn by turn (krieg, 300 nodes, a seeded game)', async () => {
    // the game in process, recording every turn krieg:sample=8 (White) is handed and its choice
    const rules = preset('berkeley');
    const engines = new PlayerEngines(backend);
    const seed = gameSeed(21, 1);
    const setup = (side: Side, s: number, name: string): PlayerSetup => ({
      side,
      rules,
      start: START_FEN,
      seed: s,
      budget: { nodes: 300 },
      options: parsePlayerSpec(name).options,
    });
    const inner = playerFactory(parsePlayerSpec('krieg:sample=8'))(
      setup('white', seed, 'krieg:sample=8'),
      engines.for('white', rules),
    );
    const script: (string | object)[] = [HELLO, game('white', { seed, budget: { nodes: 300 } })];
    const choices: string[] = [];
    const spy: Player = {
      name: 'spy',
      observe(event) {
        script.push({ type: 'event', event: eventToJson(event) });
        inner.observe(event);
      },
      choose(turn: Turn) {
        script.push({
          type: 'go',
          attempts: turn.attempts.map(makeUci),
          tried: turn.tried.map(makeUci),
          canAskAny: turn.canAskAny,
        });
        const choice = inner.choose(turn);
        choices.push(choice === 'any' ? 'any' : makeUci(choice));
        return choice;
      },
    };
    const black = playerFactory(parsePlayerSpec('random'))(setup('black', 5, 'random'), engines.for('black', rules));
    runGame(new GameSession(createEngine(backend, 16), { maxPlies: 12 }), { white: spy, black });
    expect(choices.length).toBeGreaterThanOrEqual(6);
    // the same lines to a fresh server: the same attempts
    const out = await serve([...script, { type: 'quit' }], 'krieg:sample=8', backend);
    expect(out.slice(2).map((m) => (m.type === 'any' ? 'any' : m.attempt))).toEqual(choices);
  });
});

describe('outside programs: ext:…', () => {
  it('splits the command as a shell splits words, quotes and backslashes kept literal', () => {
    expect(splitCommand(`python3  bot.py`)).toEqual(['python3', 'bot.py']);
    expect(splitCommand(`python3 'my bot.py' "a \\"b\\"" c\\ d ''`)).toEqual([
      'python3',
      'my bot.py',
      'a "b"',
      'c d',
      '',
    ]);
    expect(() => splitCommand(`python3 'bot.py`)).toThrow("unclosed ' in python3 'bot.py");
  });

  it('takes limits in seconds before the command, and refuses unknown or bad ones', () => {
    const spec = parsePlayerSpec('ext:python3 bot.py --depth=2');
    expect(spec).toEqual({
      name: 'ext',
      options: EXT_LIMITS,
      text: 'ext:python3 bot.py --depth=2',
      command: ['python3', 'bot.py', '--depth=2'],
    });
    expect(parsePlayerSpec('ext:move=2.5,startup=3:./bot').options).toEqual({ ...EXT_LIMITS, move: 2.5, startup: 3 });
    expect(() => parsePlayerSpec('ext:moves=2:./bot')).toThrow(
      "ext has no limit 'moves' (it has: startup, grace, move)",
    );
    expect(() => parsePlayerSpec('ext:move=0:./bot')).toThrow(
      "move must be seconds above 0 and at most 86400, got '0'",
    );
    expect(() => parsePlayerSpec('ext:')).toThrow("player 'ext:' names no program");
    expect(() => playerFactory(parsePlayerSpec('ext:./bot'))).toThrow(/krieg match and krieg play only/);
  });
});

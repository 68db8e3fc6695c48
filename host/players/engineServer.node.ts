// The engine side of the engine protocol (docs/protocol.md; krieg engine): any player of krieg's
// serves a driver over lines. It keeps the view the driver tells it (the game's rules, side and
// start, then each event) and on "go" hands its player the Turn computed from that view alone
// (turnOf, as the game runner does), so a player served here chooses what it would choose in
// process: the same setup (seed, budget, options), the same events, the same turns.
import { Engine } from '../engine';
import { KriegError, fail } from '../errors';
import { createCore, type BackendName } from '../backends/node';
import { START_FEN } from '../notation/fen';
import { makeUci } from '../notation/move';
import { eventFromJson } from '../notation/recordJson';
import { preset, withOverrides, type RuleSet } from '../record/rules';
import type { Result, Side, View } from '../record/record';
import { PlayerEngines } from './engines.node';
import { cachedTables } from './egtbFile.node';
import { playerOf } from './ext.node';
import { DEFAULT_NODES, turnOf, type AsyncPlayer, type PlayerBudget } from './player';
import type { PlayerSpec } from './registry';
import { PROTOCOL_VERSION, readMessage, lineOf, type EngineMessage, type Message } from './engineProtocol';

interface Game {
  player: AsyncPlayer;
  view: View;
}

const RESULTS: Result[] = ['1-0', '0-1', '1/2-1/2', '*'];
const bad = (reason: string) => fail('protocol-bad-line', { reason });

function sideOf(value: unknown): Side {
  if (value !== 'white' && value !== 'black')
    throw bad(`"side" must be "white" or "black", got ${JSON.stringify(value)}`);
  return value;
}

/** The game's rules: `rules` (every flag, or those that differ from `variant`) over the preset `variant` (default berkeley). */
function rulesOf(message: Message): RuleSet {
  const base = preset(typeof message.variant === 'string' ? message.variant : 'berkeley');
  const rules = message.rules;
  if (rules === undefined) return base;
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) throw bad('"rules" must be an object');
  return withOverrides(base, rules as Record<string, unknown>);
}

function budgetOf(value: unknown): PlayerBudget {
  if (value === undefined) return { nodes: DEFAULT_NODES };
  if (typeof value !== 'object' || value === null) throw bad('"budget" must be an object');
  const { nodes, timePerMove } = value as { nodes?: unknown; timePerMove?: unknown };
  if (nodes !== undefined && !(Number.isInteger(nodes) && (nodes as number) > 0))
    throw bad(`"budget.nodes" must be a positive integer, got ${JSON.stringify(nodes)}`);
  if (timePerMove !== undefined && !(typeof timePerMove === 'number' && timePerMove > 0))
    throw bad(`"budget.timePerMove" must be seconds above 0, got ${JSON.stringify(timePerMove)}`);
  if (nodes === undefined && timePerMove === undefined) return { nodes: DEFAULT_NODES };
  return {
    ...(nodes !== undefined ? { nodes: nodes as number } : {}),
    ...(timePerMove !== undefined ? { timePerMove: timePerMove as number } : {}),
  };
}

/**
 * Serves `spec` (any player but a person) to the driver whose lines are `lines`, writing each
 * answer with `write` (a line without its newline), until "quit" or the end of the input. A line
 * it cannot take is answered {"type":"error"} and otherwise ignored.
 */
export async function serveEngine(
  lines: AsyncIterable<string>,
  write: (line: string) => void,
  spec: PlayerSpec,
  backend: BackendName,
): Promise<void> {
  const engines = new PlayerEngines(backend);
  const scratch = new Engine(createCore(backend), 8); // the own board of turnOf
  const say = (message: EngineMessage) => write(lineOf(message));
  let game: Game | undefined;
  const needGame = (): Game => {
    if (!game) throw bad('no game is going on (send "game" first)');
    return game;
  };

  const handle = async (message: Message): Promise<boolean> => {
    switch (message.type) {
      case 'hello':
        if (message.protocol !== PROTOCOL_VERSION)
          throw bad(`krieg engine speaks protocol ${PROTOCOL_VERSION}, not ${JSON.stringify(message.protocol)}`);
        say({ type: 'hello', protocol: PROTOCOL_VERSION, name: `krieg (${spec.text})` });
        return true;
      case 'game': {
        const rules = rulesOf(message);
        const side = sideOf(message.side);
        const start = message.start === undefined ? START_FEN : String(message.start);
        scratch.setFen(0, start); // a position the core takes (kings, pawns, the side not to move not in check)
        const seed = message.seed ?? 0;
        if (!Number.isInteger(seed)) throw bad(`"seed" must be an integer, got ${JSON.stringify(seed)}`);
        const setup = {
          side,
          rules,
          start,
          seed: seed as number,
          budget: budgetOf(message.budget),
          options: spec.options,
          tables: cachedTables,
        };
        await game?.player.gameOver?.('*');
        scratch.setRules(rules);
        game = {
          player: playerOf(spec)(setup, engines.for(side, rules)),
          view: { rules, start, as: side, white: '?', black: '?', result: '*', tags: {}, events: [] },
        };
        say({ type: 'ready' });
        return true;
      }
      case 'event': {
        const { player, view } = needGame();
        const event = eventFromJson(message.event);
        view.events.push(event);
        player.observe(event);
        return true;
      }
      case 'go': {
        const { player, view } = needGame();
        const timeMs = message.timeMs;
        if (timeMs !== undefined && !(typeof timeMs === 'number' && timeMs >= 0))
          throw bad(`"timeMs" must be milliseconds, got ${JSON.stringify(timeMs)}`);
        const deadline = timeMs === undefined ? undefined : performance.now() + timeMs;
        const choice = await player.choose(turnOf(view, scratch, 0, deadline));
        say(choice === 'any' ? { type: 'any' } : { type: 'attempt', attempt: makeUci(choice) });
        return true;
      }
      case 'end': {
        const result = RESULTS.find((r) => r === message.result) ?? '*';
        const termination = typeof message.termination === 'string' ? message.termination : undefined;
        await needGame().player.gameOver?.(result, termination);
        game = undefined;
        return true;
      }
      case 'error': // the driver gives up on the game
        await game?.player.gameOver?.('*');
        game = undefined;
        return true;
      case 'quit':
        await game?.player.gameOver?.('*');
        return false;
      default:
        throw bad(`unknown message type ${JSON.stringify(message.type)}`);
    }
  };

  for await (const line of lines) {
    if (line.trim() === '') continue;
    const message = readMessage(line);
    try {
      if (typeof message === 'string') throw bad(`a line that is ${message}`);
      if (!(await handle(message))) return;
    } catch (error) {
      if (!(error instanceof KriegError)) throw error;
      say({ type: 'error', message: error.message });
    }
  }
  await game?.player.gameOver?.('*');
}

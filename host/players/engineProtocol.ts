// The engine protocol (docs/protocol.md): JSON lines between a driver (the referee's side: krieg
// match, krieg play) and an engine (a player: krieg engine, or any outside program). The driver
// tells the engine the rules, its colour, the start and each event of its own view, in the JSON
// form of records and views (host/notation/recordJson.ts), and asks for an attempt; the engine
// answers with one (UCI) or "any". Both sides' messages are objects with a "type".
import type { RuleSet } from '../record/rules';
import type { Result, Side } from '../record/record';
import type { PlayerBudget } from './player';

/** The protocol's version: the driver's hello names it, the engine's hello repeats it. */
export const PROTOCOL_VERSION = 1;
/** The longest line either side may send (characters): a view's longest event is far shorter. */
export const MAX_LINE = 1 << 20;

/** Driver → engine. */
export type DriverMessage =
  | { type: 'hello'; protocol: number }
  | {
      type: 'game';
      /** The preset the rules are, or the one they differ least from; `rules` holds every flag. */
      variant: string;
      rules: RuleSet;
      side: Side;
      /** The start position (FEN). */
      start: string;
      /** The engine's own random stream (krieg's players use it: the same seed, the same game). */
      seed: number;
      budget: PlayerBudget;
    }
  | { type: 'event'; event: Record<string, unknown> }
  | {
      type: 'go';
      /** The attempts that are not Nonsense now (UCI), those rejected this turn left out. */
      attempts: string[];
      /** Attempts rejected this turn, in order. */
      tried: string[];
      /** Whether the engine may answer "any" (the rules have "Any?" and it was not asked this turn). */
      canAskAny: boolean;
      /** Milliseconds left for this move (a turn, Illegal retries included), under a time budget. */
      timeMs?: number;
    }
  | { type: 'end'; result: Result; termination?: string }
  | { type: 'quit' }
  | { type: 'error'; message: string };

/** Engine → driver. */
export type EngineMessage =
  | { type: 'hello'; protocol: number; name: string; author?: string }
  | { type: 'ready' }
  | { type: 'attempt'; attempt: string }
  | { type: 'any' }
  | { type: 'info'; text: string }
  | { type: 'error'; message: string };

/** A message as read: a JSON object with a string "type". */
export type Message = Record<string, unknown> & { type: string };

/** One line of either side as a message, or the reason it is not one (each side words its own error). */
export function readMessage(line: string): Message | string {
  if (line.length > MAX_LINE) return `a line of ${line.length} characters (at most ${MAX_LINE})`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  if (typeof (value as { type?: unknown }).type !== 'string') return 'an object without a "type"';
  return value as Message;
}

/** A line as a message quotes it: JSON-quoted, cut after 120 characters. */
export function quoteLine(line: string): string {
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}…` : line);
}

/** A message as a line (no newline inside: JSON escapes it). */
export const lineOf = (message: DriverMessage | EngineMessage): string => JSON.stringify(message);

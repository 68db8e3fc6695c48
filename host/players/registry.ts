// The players by name, as the command line names them: `aosp`, or with options `hs:sample=64,depth=2`.
import { fail, type KriegError } from '../errors';
import type { PlayerFactory } from './player';
import { randomPlayer } from './random';
import { rwPlayer } from './rw';
import { SamplingPlayer, SAMPLING_DEFAULTS, type SamplingKind } from './sampling';
import { SamplerSource, trackerSource } from './sources';
import { kriegPlayer, KRIEG_DEFAULTS } from './krieg';

export const PLAYER_NAMES = ['random', 'rw', 'los', 'aos', 'aosp', 'hs', 'krieg', 'human'] as const;
export type PlayerName = (typeof PLAYER_NAMES)[number];

export const PLAYER_HELP: Record<PlayerName, string> = {
  random: 'uniform over the attempts that are not Nonsense',
  rw: "the problem database's White: exact belief, 2-ply evaluation, hints",
  los: 'Parker et al.: positions consistent with the last observation',
  aos: 'Parker et al.: random histories consistent with every observation',
  aosp: 'Parker et al.: a pool of all-observation-consistent positions',
  hs: 'Parker et al.: AOSP topped up with last-observation positions',
  krieg: 'HS, and a guaranteed-mate search while the exact belief is small',
  human: "you: the referee's answers printed, attempts typed in UCI",
};

/** Options each player takes (name=value after a colon), with their defaults. */
export const PLAYER_OPTIONS: Partial<Record<PlayerName, Record<string, number>>> = {
  los: { ...SAMPLING_DEFAULTS },
  aos: { ...SAMPLING_DEFAULTS },
  aosp: { ...SAMPLING_DEFAULTS },
  hs: { ...SAMPLING_DEFAULTS },
  krieg: { ...KRIEG_DEFAULTS },
};

/** A player as named on the command line (parsePlayerSpec): its name, its options with their defaults filled in, the text. */
export interface PlayerSpec {
  /** A player of krieg's, or `ext`: an outside program speaking the engine protocol (docs/protocol.md). */
  name: PlayerName | 'ext';
  options: Record<string, number>;
  text: string;
  /** `ext`: the program and its arguments. */
  command?: string[];
}

/** The prefix of an outside program's spec: `ext:python3 bot.py`, or with limits `ext:move=30,grace=2:python3 bot.py`. */
export const EXT_PREFIX = 'ext:';
/**
 * An outside program's limits, in seconds (host/players/ext.ts): `startup` to start and answer the
 * handshake, `grace` past the deadline of a move under --time-per-move, `move` for each answer
 * without a time budget.
 */
export const EXT_LIMITS: Record<string, number> = { startup: 10, grace: 1, move: 60 };
/** The longest limit an outside program may be given (seconds). */
const MAX_EXT_LIMIT = 86_400;

/**
 * Splits a command line into words as a shell does for quotes and backslashes ('…', "…", \x),
 * with nothing else of a shell (no variables, globs or pipes: run `sh -c '…'` for those).
 */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      let quoted = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== c; j++) {
        if (c === '"' && text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) j++;
        quoted += text[j];
      }
      if (j >= text.length) throw fail('bad-player', { text: `unclosed ${c} in ${text}` });
      word = (word ?? '') + quoted;
      i = j;
    } else if (c === '\\' && i + 1 < text.length) word = (word ?? '') + text[++i];
    else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** `ext:[limit=seconds,…:]command`: an outside program (docs/protocol.md). */
function parseExtSpec(text: string): PlayerSpec {
  let rest = text.slice(EXT_PREFIX.length);
  const options = { ...EXT_LIMITS };
  const limits = /^([a-z]+=[^,:\s]*(?:,[a-z]+=[^,:\s]*)*):(.*)$/s.exec(rest);
  if (limits) {
    for (const part of limits[1].split(',')) {
      const [key, value] = part.split('=');
      if (!(key in EXT_LIMITS))
        throw fail('bad-player', {
          text: `player '${text}': ext has no limit '${key}' (it has: ${Object.keys(EXT_LIMITS).join(', ')})`,
        });
      const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
      if (!(seconds > 0 && seconds <= MAX_EXT_LIMIT))
        throw fail('bad-player', {
          text: `player '${text}': ${key} must be seconds above 0 and at most ${MAX_EXT_LIMIT}, got '${value}'`,
        });
      options[key] = seconds;
    }
    rest = limits[2];
  }
  let command: string[];
  try {
    command = splitCommand(rest);
  } catch (error) {
    throw (error as KriegError).within(`player '${text}'`);
  }
  if (command.length === 0)
    throw fail('bad-player', { text: `player '${text}' names no program (e.g. 'ext:python3 bot.py')` });
  return { name: 'ext', options, text, command };
}

/**
 * Parses `name` or `name:key=value,key=value`, or an outside program `ext:command`; errors name
 * what is wrong.
 */
export function parsePlayerSpec(text: string): PlayerSpec {
  if (text.startsWith(EXT_PREFIX)) return parseExtSpec(text);
  const [name, rest] = text.split(/:(.*)/s, 2);
  if (!(PLAYER_NAMES as readonly string[]).includes(name)) {
    throw fail('bad-player', { text: `unknown player '${name}' (known: ${PLAYER_NAMES.join(', ')})` });
  }
  const known = PLAYER_OPTIONS[name as PlayerName] ?? {};
  const options: Record<string, number> = { ...known };
  for (const part of rest ? rest.split(',') : []) {
    const match = /^([a-z]+)=(\d+)$/.exec(part.trim());
    if (!match) throw fail('bad-player', { text: `player '${text}': expected name=integer options, got '${part}'` });
    if (!(match[1] in known)) {
      throw fail('bad-player', {
        text: `player '${name}' has no option '${match[1]}'${Object.keys(known).length ? ` (it has: ${Object.keys(known).join(', ')})` : ''}`,
      });
    }
    options[match[1]] = Number(match[2]);
  }
  if ('sample' in options && (options.sample < 1 || options.sample > 1024))
    throw fail('bad-player', { text: `player '${text}': sample must be 1 to 1024` });
  if ('depth' in options && options.depth > 20)
    throw fail('bad-player', { text: `player '${text}': depth must be 0 to 20` });
  return { name: name as PlayerName, options, text };
}

const samplingPlayer =
  (kind: SamplingKind): PlayerFactory =>
  (setup, engine) => {
    const source = kind === 'aos' ? new SamplerSource(engine, setup) : trackerSource(engine, setup);
    return new SamplingPlayer(kind, setup, engine, source, kind, {
      sample: setup.options.sample,
      depth: setup.options.depth,
    });
  };

/**
 * The factory of a program (`human` is made by krieg play on the terminal: humanPlayer of ./human;
 * `ext` by playerOf of ./ext, which spawns it).
 */
export function playerFactory(spec: PlayerSpec): PlayerFactory {
  switch (spec.name) {
    case 'random':
      return randomPlayer;
    case 'rw':
      return rwPlayer;
    case 'los':
    case 'aos':
    case 'aosp':
    case 'hs':
      return samplingPlayer(spec.name);
    case 'krieg':
      return kriegPlayer;
    case 'human':
      throw fail('bad-player', { text: 'the human player needs a terminal (krieg play)' });
    case 'ext':
      throw fail('bad-player', { text: 'an outside program (ext:) plays in krieg match and krieg play only' });
  }
}

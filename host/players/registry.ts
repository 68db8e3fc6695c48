// The players by name, as the command line names them: `aosp`, or with options `hs:sample=64,depth=2`.
import { fail } from '../errors';
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
  name: PlayerName;
  options: Record<string, number>;
  text: string;
}

/** Parses `name` or `name:key=value,key=value`; errors name what is wrong. */
export function parsePlayerSpec(text: string): PlayerSpec {
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

/** The factory of a program (`human` is made by krieg play on the terminal: humanPlayer of ./human). */
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
  }
}

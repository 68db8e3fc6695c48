// Numbers given as text (command-line options and arguments): checked, or an error naming the option
// and its range (id bad-<name>, exit 2).
import { optionError } from '../errors';

/** Parses an integer from `min` to `max`, or throws a KriegError naming it. */
export function parseCount(name: string, text: string | number, min = 0, max = 64): number {
  const value = typeof text === 'number' ? text : /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) throw optionError(name, min, max, text);
  return value;
}

/** A positive number of seconds, as milliseconds (undefined when not given). */
export function parseSeconds(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!(value > 0) || value > 1e7) throw optionError(name, 0, 1e7, text, 'seconds');
  return value * 1000;
}

/** The time limit of belief, infoset and solve on a game file when --limit-time is not given. */
export const DEFAULT_LIMIT_SECONDS = 60;

/**
 * A time limit in seconds, as milliseconds: `0` for none (undefined), no text for `defaultSeconds`
 * (`isDefault` then says so, for the message that tells how to raise it).
 */
export function parseTimeLimit(
  name: string,
  text: string | undefined,
  defaultSeconds = DEFAULT_LIMIT_SECONDS,
): { ms: number | undefined; isDefault: boolean } {
  if (text === undefined) return { ms: defaultSeconds * 1000, isDefault: true };
  if (/^\s*0*(\.0*)?\s*$/.test(text) && /\d/.test(text)) return { ms: undefined, isDefault: false };
  return { ms: parseSeconds(name, text), isDefault: false };
}

/** How a time limit reads in a message: the option's value, or the default and how to change it. */
export function timeLimitText(ms: number, isDefault: boolean): string {
  return isDefault
    ? `the default time limit of ${ms / 1000} s (--limit-time S for another, --limit-time 0 for none)`
    : `the time limit of ${ms / 1000} s (--limit-time)`;
}

/** A negative number, which follows an option as its value (as yargs-parser reads one). */
const NEGATIVE = /^-(\d+(\.\d+)?|\.\d+)$/;

/**
 * The first option of `args` given without a value, by name (e.g. `algo` for `--algo` as the last
 * word or followed by another option), or undefined. `takesValue` says which names take one (not the
 * flags); long names in camelCase are read in kebab-case, as yargs reads them. yargs itself would
 * give such an option its default (or an empty string) without a word.
 */
export function optionWithoutValue(args: string[], takesValue: (name: string) => boolean): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === '--') break;
    const long = /^--([^-=][^=]*)$/.exec(word);
    const short = /^-([A-Za-z])$/.exec(word);
    const name = long ? long[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) : short?.[1];
    if (name === undefined || !takesValue(name)) continue;
    const next = args[i + 1];
    const isOption = (w: string) => (long ? /^-/ : /^(-|--)[^-]/).test(w) && !NEGATIVE.test(w);
    if (next === undefined || isOption(next)) return name;
  }
  return undefined;
}

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

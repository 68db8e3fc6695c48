// The benches' command line, read from process.argv: `--name value` options (repeatable ones
// too), bare `--flag`s, `--quick` (the reduced run, whose results files are named *-quick) and
// the databases a bench measures.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The value after `--name` (its first occurrence), or undefined. */
export function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Every value given after `--name`, in order (the option repeated). */
export function options(name: string): string[] {
  return process.argv.flatMap((a, i, all) => (a === name && all[i + 1] ? [all[i + 1]] : []));
}

/**
 * `--name N`: a whole number of at least `min`, or `fallback` when the option is absent. Anything
 * else ends the bench before it measures: one line on stderr naming the option, exit 2.
 */
export function integerOption(name: string, fallback: number, min = 1): number {
  const text = option(name);
  if (text === undefined && !flag(name)) return fallback;
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < min) {
    console.error(
      `${name} takes a whole number of at least ${min}, got ${text === undefined ? 'nothing' : JSON.stringify(text)}`,
    );
    process.exit(2);
  }
  return value;
}

export function flag(name: string): boolean {
  return process.argv.includes(name);
}

/** `--quick`: the bench's reduced run (a smoke test; its results are not the README's). */
export const quick = flag('--quick');

/** The databases to measure: each `--db FILE` given, else the shipped databases (those present). */
export function databaseArgs(root: string): string[] {
  const given = options('--db');
  return given.length
    ? given
    : ['data/problems.sqlite', 'data/problems-standard.sqlite'].map((f) => join(root, f)).filter(existsSync);
}

// Shared CLI pieces: backend option, error reporting (one line, non-zero exit, no stack trace).
import type { Argv } from 'yargs';
import { KriegError } from '../errors';
import { BACKENDS, type BackendName } from '../backends/node';

export const EXIT_USAGE = 2; // bad input: FEN, depth, unknown option
export const EXIT_FAILURE = 1; // anything unexpected

export function withBackend<T>(y: Argv<T>) {
  return y.option('backend', {
    choices: BACKENDS as BackendName[], default: 'wasm' as BackendName,
    describe: 'core to run: the WebAssembly build or the plain-JS build of the same source',
  });
}

/** Runs a command body, turning KriegErrors into one line on stderr and exit code 2. */
export async function runCommand(body: () => void | Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof KriegError) {
      process.stderr.write(`krieg: ${error.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`krieg: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_FAILURE;
    }
  }
}

/** Parses a non-negative integer argument, or throws a KriegError naming it. */
export function parseCount(name: string, text: string | number, min = 0, max = 64): number {
  const value = typeof text === 'number' ? text : /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new KriegError(`bad-${name}`, `${name} must be an integer from ${min} to ${max}, got '${text}'`);
  }
  return value;
}

// Shared CLI pieces: backend option, error reporting (one line, non-zero exit, no stack trace).
import type { Argv } from 'yargs';
import { KriegError, EXIT, optionError } from '../errors';
import { BACKENDS, type BackendName } from '../backends/node';

/** The epilogue of the commands that estimate or search from a view. */
export const EXIT_CODES_TEXT = `Exit codes: ${EXIT.ok} complete, ${EXIT.inconsistent} the view is inconsistent (nothing fits it), ${EXIT.limit} a limit was reached (the result printed is partial), ${EXIT.badInput} bad input, ${EXIT.internal} internal error.`;

export function withBackend<T>(y: Argv<T>) {
  return y.option('backend', {
    choices: BACKENDS as BackendName[], default: 'wasm' as BackendName,
    describe: 'core to run: the WebAssembly build or the plain-JS build of the same source',
  });
}

/**
 * Runs a command body: a KriegError becomes one line on stderr and the exit code the error registry
 * gives its id (host/errors.ts); anything else is an internal error (exit 1). The only place errors
 * turn into exits.
 */
export async function runCommand(body: () => void | Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof KriegError) finishWith(error.exitCode, error.message);
    else finishWith(EXIT.internal, `internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Ends the command with `exitCode` and `krieg: message` on stderr (the output already printed stays). */
export function finishWith(exitCode: number, message: string): void {
  process.stderr.write(`krieg: ${message}\n`);
  process.exitCode = exitCode;
}

/** Parses a non-negative integer argument, or throws a KriegError naming it. */
export function parseCount(name: string, text: string | number, min = 0, max = 64): number {
  const value = typeof text === 'number' ? text : /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw optionError(name, min, max, text);
  }
  return value;
}

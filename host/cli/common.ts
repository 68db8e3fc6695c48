// Shared CLI pieces: the backend, database and game options, error reporting (one line, the exit
// code of the error registry, no stack trace), progress lines.
import type { Argv } from 'yargs';
import { KriegError, EXIT } from '../errors';
import { BACKENDS, type BackendName } from '../backends/node';
import { DEFAULT_DB } from '../db/paths';

/** The epilogue of the commands that estimate or search from a view. */
export const EXIT_CODES_TEXT = `Exit codes: ${EXIT.ok} complete, ${EXIT.inconsistent} the view is inconsistent (nothing fits it), ${EXIT.limit} a limit was reached (the result printed is partial), ${EXIT.badInput} bad input, ${EXIT.internal} internal error.`;

export function withBackend<T>(y: Argv<T>) {
  return y.option('backend', {
    choices: BACKENDS as BackendName[],
    default: 'wasm' as BackendName,
    describe: 'core to run: the WebAssembly build or the plain-JS build of the same source',
  });
}

export function withDbOption<T>(y: Argv<T>, describe = 'the problem database file') {
  return y.option('db', { type: 'string', describe, defaultDescription: `${DEFAULT_DB} of the krieg package` });
}

/** The options naming one player's view of one game of a file (belief, infoset). */
export function withGameSelection<T>(y: Argv<T>) {
  return y
    .positional('file', { type: 'string', describe: 'a KPGN or JSON file of records or views, or a ks-game save' })
    .option('as', {
      choices: ['white', 'black'] as const,
      describe: "whose view (required for a record; a view file is its own side's)",
    })
    .option('game', { type: 'string', describe: 'game N of the file (1-based)', defaultDescription: '1' });
}

/**
 * Where the commands write: stdout and stderr by default; the tests redirect them to run commands
 * in-process (test/lib/cli.ts).
 */
export const io = {
  out: (text: string): void => {
    process.stdout.write(text);
  },
  err: (text: string): void => {
    process.stderr.write(text);
  },
};

/** A line of output. */
export function say(line: string): void {
  io.out(`${line}\n`);
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
  io.err(`krieg: ${message}\n`);
  process.exitCode = exitCode;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}

/** A throttled progress line on stderr, when stderr is a terminal (or KRIEG_PROGRESS is set). */
export function progressLine(what: string): { update: (text: string) => void; done: () => void } {
  const tty = Boolean(process.stderr.isTTY);
  if (!tty && !process.env.KRIEG_PROGRESS) return { update: () => {}, done: () => {} };
  const started = performance.now();
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const now = performance.now();
      if (now - last < (tty ? 200 : 1000) || now - started < 500) return;
      last = now;
      shown = true;
      const line = `${what}: ${text}, ${((now - started) / 1000).toFixed(1)} s`;
      io.err(tty ? `\r\x1b[K${line}` : `${line}\n`);
    },
    done() {
      if (shown && tty) io.err('\r\x1b[K');
    },
  };
}

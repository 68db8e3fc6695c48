// Shared CLI pieces: the backend, database and game options, error reporting (one line, the exit
// code of the error registry, no stack trace), progress lines.
import type { Argv } from 'yargs';
import cliProgress from 'cli-progress';
import { KriegError, EXIT } from '../errors';
import { BACKENDS, type BackendName } from '../backends/node';
import { DEFAULT_DB } from '../db/paths.node';
import { parseCount } from '../io/args';
import { defaultJobs, MAX_JOBS } from '../pool/pool';

/** The epilogue of the commands that estimate or search from a view. */
export const EXIT_CODES_TEXT = `Exit codes: ${EXIT.ok} complete, ${EXIT.inconsistent} the view is inconsistent (nothing fits it), ${EXIT.limit} a limit was reached (the result printed is partial), ${EXIT.badInput} bad input, ${EXIT.internal} internal error.`;

export function withBackend<T>(y: Argv<T>) {
  return y.option('backend', {
    choices: BACKENDS as BackendName[],
    default: 'wasm' as BackendName,
    describe: 'core to run: the WebAssembly build or the plain-JS build of the same source',
  });
}

/** --db: the database a command reads (default: the shipped one) or, with `writes`, the one it writes (no default: the shipped databases are read-only). */
export function withDbOption<T>(y: Argv<T>, describe = 'the problem database file', writes = false) {
  return y.option('db', {
    type: 'string',
    describe: writes ? `${describe} (required: the shipped databases are read-only)` : describe,
    defaultDescription: writes ? undefined : `${DEFAULT_DB} of the krieg package`,
  });
}

/** The `--jobs` option (`.option('jobs', jobsSpec(…))`): `what` runs on that many worker threads. */
export function jobsSpec(what: string) {
  return {
    type: 'string',
    describe: `${what} (1 to ${MAX_JOBS}); the results do not depend on it`,
    defaultDescription: `the number of cores, ${defaultJobs()} here`,
  } as const;
}

/** The number of workers `--jobs` asks for (bad values are exit 2). */
export function jobsOption(text: string | undefined): number {
  return text === undefined ? defaultJobs() : parseCount('jobs', text, 1, MAX_JOBS);
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

/** `text` on one line: control characters (newlines in an echoed FEN or tag, a report's lines) escaped as \n, \t, \xNN. */
export function oneLine(text: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return text.replace(/[\x00-\x1f\x7f]/g, (c) => named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Ends the command with `exitCode` and `krieg: message` on stderr (the output already printed stays). */
export function finishWith(exitCode: number, message: string): void {
  io.err(`krieg: ${oneLine(message)}\n`);
  process.exitCode = exitCode;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}

/**
 * How long commands report progress on stderr: `quiet` is the global --quiet (or KRIEG_QUIET=1 in
 * the environment, which the tests set); on a terminal the line is redrawn every `ttyMs`, elsewhere
 * (CI logs, pipes) a plain line is written after `delayMs` and then every `everyMs`, so no command
 * stays silent for more than a few seconds.
 */
export const progressSettings = { quiet: false, ttyMs: 200, delayMs: 2000, everyMs: 5000 };

/** Whether progress is shown at all (not --quiet, not KRIEG_QUIET). */
export function showProgress(): boolean {
  return !progressSettings.quiet && !process.env.KRIEG_QUIET;
}

export interface Progress {
  update: (text: string) => void;
  done: () => void;
}

/**
 * A throttled progress line on stderr, `what: text, N.N s`: redrawn in place on a terminal, a plain
 * line every few seconds elsewhere; nothing with --quiet.
 */
export function progressLine(what: string): Progress {
  if (!showProgress()) return { update: () => {}, done: () => {} };
  const tty = Boolean(process.stderr.isTTY);
  const { ttyMs, delayMs, everyMs } = progressSettings;
  const started = performance.now();
  let last = -Infinity;
  let shown = false;
  return {
    update(text) {
      const now = performance.now();
      if (now - started < (tty ? Math.min(500, delayMs) : delayMs) || now - last < (tty ? ttyMs : everyMs)) return;
      last = now;
      shown = true;
      const line = `${what}: ${text}, ${((now - started) / 1000).toFixed(1)} s`;
      io.err(tty ? `\r\x1b[K${line}` : `krieg ${line}\n`);
    },
    done() {
      if (shown && tty) io.err('\r\x1b[K');
    },
  };
}

/** A counter of work items on stderr, with the interface of a cli-progress bar (start, update, stop). */
export interface ProgressBar {
  start(total: number, value: number, payload?: Record<string, unknown>): void;
  update(value: number, payload?: Record<string, unknown>): void;
  stop(): void;
}

/**
 * A progress bar on stderr: `format` is cli-progress's ({bar}, {value}, {total}, {eta} and payload
 * fields). On a terminal the bar; elsewhere the same fields as a plain line every few seconds
 * (progressLine), so a short run prints nothing; nothing with --quiet.
 */
export function progressBar(what: string, format: string): ProgressBar {
  if (process.stderr.isTTY && showProgress()) {
    const bar = new cliProgress.SingleBar({ format, stream: process.stderr }, cliProgress.Presets.shades_classic);
    return {
      start: (total, value, payload) => bar.start(total, value, payload),
      update: (value, payload) => bar.update(value, payload),
      stop: () => bar.stop(),
    };
  }
  const line = progressLine(what);
  let fields: Record<string, unknown> = {};
  const text = () =>
    format
      .replace(/^\S+ \{bar\} /, '')
      .replace(/ \| eta \{eta\w*\}s?/, '')
      .replace(/\{(\w+)\}/g, (_, key: string) => String(fields[key] ?? ''));
  return {
    start(total, value, payload) {
      fields = { ...fields, ...payload, total, value };
    },
    update(value, payload) {
      fields = { ...fields, ...payload, value };
      line.update(text());
    },
    stop: () => line.done(),
  };
}

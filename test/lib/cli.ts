// Running `krieg` in the tests: in this process through the command line's own entry
// (host/cli/program.ts, the sources), which most CLI tests use, or as a child process running the
// built dist/cli.js (kept fresh by test/lib/globalSetup.ts), which the smoke tests use; and the
// one-line failure every command must give.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runCli } from '../../host/cli/program';
import { io } from '../../host/cli/common';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `krieg args…` in this process, in directory `cwd`, without the progress line on stderr:
 * what it wrote to stdout and stderr, and its exit code. One run at a time (the tests of a file run
 * in sequence; each file has its own process).
 */
export async function krieg(args: string[], cwd = ROOT): Promise<CliRun> {
  const saved = { out: io.out, err: io.err, cwd: process.cwd(), progress: process.env.KRIEG_PROGRESS };
  let stdout = '';
  let stderr = '';
  io.out = (text) => {
    stdout += text;
  };
  io.err = (text) => {
    stderr += text;
  };
  delete process.env.KRIEG_PROGRESS;
  process.exitCode = undefined;
  process.chdir(cwd);
  try {
    await runCli(args);
    return { status: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    io.out = saved.out;
    io.err = saved.err;
    process.chdir(saved.cwd);
    if (saved.progress !== undefined) process.env.KRIEG_PROGRESS = saved.progress;
    process.exitCode = undefined;
  }
}

/** Runs the built `node dist/cli.js args…` as a child process in `cwd` (with `input` on its standard input), without the progress line. */
export function kriegProcess(args: string[], cwd = ROOT, input?: string): CliRun {
  const env = { ...process.env };
  delete env.KRIEG_PROGRESS;
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env,
    timeout: 120_000,
    ...(input === undefined ? {} : { input }),
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A failure: exit code `code`, and exactly one `krieg: …` line on stderr with no stack trace. */
export function expectOneLine(run: CliRun, code: number): string {
  expect(run.stderr, 'no stack trace').not.toMatch(/^\s+at /m);
  const lines = run.stderr.replace(/\n$/, '').split('\n');
  expect(lines, `stderr must be one line, got:\n${run.stderr}`).toHaveLength(1);
  expect(lines[0]).toMatch(/^krieg: \S/);
  expect(run.status, run.stderr).toBe(code);
  return lines[0];
}

// Running `krieg` in the tests: in this process through the command line's own entry
// (host/cli/program.ts, the sources), which most CLI tests use, or as a child process running the
// built dist/cli.js (kept fresh by test/lib/globalSetup.ts), which the smoke tests use; and the
// one-line failure every command must give.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
 * Runs `krieg args…` in this process, in directory `cwd`, without progress on stderr (KRIEG_QUIET)
 * unless `progress`: what it wrote to stdout and stderr, and its exit code. One run at a time (the
 * tests of a file run in sequence; each file has its own process).
 */
export async function krieg(args: string[], cwd = ROOT, progress = false): Promise<CliRun> {
  const saved = { out: io.out, err: io.err, cwd: process.cwd(), quiet: process.env.KRIEG_QUIET };
  let stdout = '';
  let stderr = '';
  io.out = (text) => {
    stdout += text;
  };
  io.err = (text) => {
    stderr += text;
  };
  if (progress) delete process.env.KRIEG_QUIET;
  else process.env.KRIEG_QUIET = '1';
  process.exitCode = undefined;
  process.chdir(cwd);
  try {
    await runCli(args);
    return { status: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    io.out = saved.out;
    io.err = saved.err;
    process.chdir(saved.cwd);
    if (saved.quiet === undefined) delete process.env.KRIEG_QUIET;
    else process.env.KRIEG_QUIET = saved.quiet;
    process.exitCode = undefined;
  }
}

/**
 * Runs the built `node dist/cli.js args…` as a child process in `cwd` (with `input` on its standard
 * input), without progress (KRIEG_QUIET). No timeout: a slow machine makes it slow, not failed.
 */
export function kriegProcess(args: string[], cwd = ROOT, input?: string): CliRun {
  const env = { ...process.env, KRIEG_QUIET: '1' };
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env,
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

/**
 * Waits until the games file `out` holds `games` complete-looking games ([Event] tags), then
 * SIGKILLs `child` (a run of the built CLI writing it) and waits for it to exit. Fails when the
 * run ends first.
 */
export async function killWhenGames(child: ChildProcess, out: string, games: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      const written = existsSync(out) ? (readFileSync(out, 'utf8').match(/^\[Event /gm) ?? []).length : 0;
      if (written >= games) {
        clearInterval(timer);
        child.kill('SIGKILL');
        resolve();
      }
    }, 10);
    child.on('exit', () => {
      clearInterval(timer);
      reject(new Error('the run finished before it could be killed'));
    });
  });
  await new Promise((resolve) => child.on('exit', resolve));
}

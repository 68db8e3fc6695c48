// Shared by the tests that run the built CLI (dist/cli.js, kept fresh by test/lib/globalSetup.ts):
// running `krieg`, and the one-line failure every command must give.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli.js');

export interface CliRun { status: number | null; stdout: string; stderr: string }

/** Runs `krieg args…` in `cwd`, without the progress line on stderr. */
export function krieg(args: string[], cwd = ROOT): CliRun {
  const env = { ...process.env };
  delete env.KRIEG_PROGRESS;
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
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

// Shared by the tests that run the built CLI (dist/cli.js) or the web bundle: freshness of build
// outputs, running `krieg`, and the one-line failure every command must give.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist/cli.js');

/** Newest modification time (ms) of a file or of every file below a directory; 0 if missing. */
export function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Rebuilds dist/cli.js when it is missing or older than host/. */
export function ensureCliBuilt(): void {
  if (newest(CLI) >= newest(join(ROOT, 'host'))) return;
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), 'cli'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`building dist/cli.js failed:\n${build.stdout}${build.stderr}`);
}

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

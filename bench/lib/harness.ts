// Shared bench helpers: machine description, timing, medians and writing results files.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

/** Repository root (bench/lib/ is two levels down; the bundle in .cache/ is one level down). */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    try {
      return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' }).trim();
    } catch {
      dir = join(dir, '..');
    }
  }
  return process.cwd();
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  platform: string;
  release: string;
  arch: string;
  node: string;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    node: process.version,
  };
}

export function describeMachine(m: Machine): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, ${m.platform} ${m.release} ${m.arch}, Node ${m.node}`;
}

/**
 * Short HEAD commit, and whether tracked files under `paths` (the code being measured) differ from
 * it. Untracked files and other paths (README, results) do not count.
 */
export function gitState(root: string, paths: string[]): { commit: string; dirty: boolean } {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  let commit = 'unknown';
  let dirty = false;
  try {
    commit = git('rev-parse', '--short', 'HEAD');
  } catch {
    /* not a git checkout */
  }
  try {
    dirty = git('status', '--porcelain', '--untracked-files=no', '--', ...paths).length > 0;
  } catch {
    /* ignore */
  }
  return { commit, dirty };
}

/**
 * A hash of the code a bench measures, as it is on disk: every file the bench's bundle takes in
 * outside bench/ (host/, the built JS core, …; packages excluded) and the `built` files it loads
 * at run time (build/krieg.wasm; dist/worker.js for a bench on the worker pool). A store of
 * measurements made under it stays valid across commits that change nothing the bench runs, and
 * never outlives a change to what it runs, committed or not.
 */
export async function measuredCode(root: string, entry: string, built = ['build/krieg.wasm']): Promise<string> {
  const esbuild = await import('esbuild');
  const { metafile } = await esbuild.build({
    entryPoints: [entry],
    absWorkingDir: root, // input paths relative to the repository
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const files = Object.keys(metafile.inputs)
    .filter((f) => !f.startsWith('bench/'))
    .sort();
  const hash = createHash('sha256');
  for (const file of [...files, ...built]) hash.update(`${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs fn once and returns its result and wall time in milliseconds. */
export function timed<T>(fn: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

export function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

export function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text.endsWith('\n') ? text : `${text}\n`);
}

export function writeJson(path: string, data: unknown): void {
  writeText(path, JSON.stringify(data, null, 2));
}

/** Formats a count with comma grouping: 119060324 -> "119,060,324". */
export function group(n: number): string {
  return n.toLocaleString('en-US');
}

/** A duration for humans: "350 ms", "4.5s", "23s". */
export function seconds(ms: number): string {
  if (ms < 1000) return `${ms.toFixed(0)} ms`;
  return ms >= 10_000 ? `${(ms / 1000).toFixed(0)}s` : `${(ms / 1000).toFixed(1)}s`;
}

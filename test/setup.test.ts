// The project's own set-up scripts, as a user meets them (issue #38): build outputs replaced whole,
// so a command started during a rebuild never reads a half-written file; `npx krieg` in a clone
// runs the build `npm install` made instead of installing and building the clone again; `npm pack`
// packs that build; the browser's apt-get waits for a package manager another apt-get holds.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/cli';
// @ts-expect-error a plain ES module of the set-up scripts, without types
import { aptGet } from '../scripts/apt.mjs';

const BUILD = join(ROOT, 'scripts/build.mjs');

/** The whole content of an open file, read through its descriptor (the file it was when opened). */
function readWhole(fd: number): Buffer {
  const size = fstatSync(fd).size;
  const buffer = Buffer.alloc(size);
  let at = 0;
  while (at < size) at += readSync(fd, buffer, at, size - at, at);
  return buffer;
}

describe('the build', () => {
  it('replaces each output whole: a reader holding the old file keeps it intact', () => {
    const outputs = [
      'build/krieg.wasm',
      'build/krieg.js',
      'dist/krieg.js',
      'dist/cli.js',
      'dist/worker.js',
      'dist/web/app.js',
      'dist/web/index.html',
    ].map((p) => join(ROOT, p));
    // a reader that opened each output before the rebuild (as a command started during it would)
    const held = outputs.map((path) => {
      const fd = openSync(path, 'r');
      return { path, fd, before: readWhole(fd), inode: fstatSync(fd).ino };
    });
    try {
      // every step but the type declarations (a directory swapped whole, and the slowest step)
      const build = spawnSync(process.execPath, [BUILD, 'wasm', 'js', 'lib', 'cli', 'web'], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(build.status, build.stderr).toBe(0);
      for (const { path, fd, before, inode } of held) {
        // written in place, the old file would be truncated and rewritten under the reader
        expect(readWhole(fd).equals(before), `${path}: the old file was rewritten in place`).toBe(true);
        expect(statSync(path).ino, `${path}: not replaced by a rename`).not.toBe(inode);
        expect(statSync(path).size, path).toBeGreaterThan(0);
      }
      expect(statSync(join(ROOT, 'dist/cli.js')).mode & 0o111, 'dist/cli.js stays executable').toBe(0o111);
      expect(
        spawnSync('ls', [join(ROOT, 'build'), join(ROOT, 'dist')], { encoding: 'utf8' }).stdout,
        'no temporary left behind',
      ).not.toMatch(/\.tmp|\.old/);
    } finally {
      for (const { fd } of held) closeSync(fd);
    }
  });

  it('under npm pack rebuilds only stale outputs: the package is what npm install built', () => {
    // fresh first (another test of this file may have rebuilt some outputs, leaving later steps stale)
    const fresh = spawnSync(process.execPath, [BUILD, '--stale'], { cwd: ROOT, encoding: 'utf8' });
    expect(fresh.status, fresh.stderr).toBe(0);
    const pack = spawnSync(process.execPath, [BUILD], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_command: 'pack' },
    });
    expect(pack.status, pack.stderr).toBe(0);
    expect(pack.stdout).toContain('npm pack: packing the build npm install made');
    expect(pack.stdout, 'nothing rebuilt').not.toMatch(/^built /m);
  });
});

describe('npx krieg in a clone', () => {
  it('finds the clone’s own build, without installing anything', () => {
    const link = join(ROOT, 'node_modules/.bin/krieg');
    expect(realpathSync(link)).toBe(realpathSync(join(ROOT, 'dist/cli.js')));
    // --no-install: npx fails rather than install the clone as a file: package and build it again
    const run = spawnSync('npx', ['--no-install', 'krieg', 'moves', 'startpos'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('20 legal moves');
  });
});

describe('apt-get for the browser', () => {
  const QUIET = { stdout: 'ignore', report: () => {} };
  it('waits while another apt-get holds the lock, then goes on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'krieg-apt-'));
    try {
      // a stand-in apt-get: locked for its first two calls, then done
      const fake = join(dir, 'apt-get');
      writeFileSync(
        fake,
        `#!/bin/sh\nn=$(cat "${dir}/calls" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/calls"\n` +
          `if [ $n -le 2 ]; then echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1 (apt-get)" >&2; exit 100; fi\n` +
          `echo "installed $*"\n`,
        { mode: 0o755 },
      );
      expect(aptGet(['install', 'chromium'], { command: fake, pollMs: 10, ...QUIET })).toBe(0);
      expect(readFileSync(join(dir, 'calls'), 'utf8').trim()).toBe('3');
      // still locked at the end of the wait: apt-get's own failure, after the wait
      writeFileSync(join(dir, 'calls'), '-100');
      expect(aptGet(['update'], { command: fake, pollMs: 10, waitMs: 50, ...QUIET })).toBe(100);
      // another failure is not waited for
      const broken = join(dir, 'broken');
      writeFileSync(broken, '#!/bin/sh\necho "E: Unable to locate package chromium" >&2; exit 100\n', { mode: 0o755 });
      expect(aptGet(['install', 'chromium'], { command: broken, pollMs: 10_000, ...QUIET })).toBe(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The built executable (dist/cli.js, as `npx krieg` runs it), spawned: a handful of commands end to
// end, with their exit codes, one-line errors and a closed pipe. The other CLI tests run the same
// command line in-process (test/lib/cli.ts); this file proves the bundle is that command line.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, expectOneLine, kriegProcess } from '../lib/cli';

let DIR = '';
const krieg = (args: string[]) => kriegProcess(args, DIR);
const TWO_ROOKS = ['7k/8/6K1/8/8/8/8/R7 w - - 0 1', '5k2/8/6K1/8/8/8/8/R7 w - - 0 1'];

beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'krieg-smoke-'));
});
afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

describe('dist/cli.js', () => {
  it('counts perft and lists moves', () => {
    const perft = krieg(['perft', 'startpos', '3']);
    expect(perft.status, perft.stderr).toBe(0);
    expect(perft.stdout).toMatch(/^nodes: 8902$/m);
    const moves = krieg(['moves', 'startpos', '--json', '--backend', 'js']);
    expect(moves.status, moves.stderr).toBe(0);
    expect(JSON.parse(moves.stdout).moves).toHaveLength(20);
  });

  it('explains itself, and refuses bad input with one line and exit 2', () => {
    const help = krieg(['--help']);
    expect(help.status).toBe(0);
    for (const command of ['perft', 'belief', 'solve', 'verify', 'db'])
      expect(help.stdout).toContain(`krieg ${command}`);
    expect(expectOneLine(krieg(['perft', 'startpos', 'x']), 2)).toMatch(/depth must be an integer/);
    expect(expectOneLine(krieg(['bogus']), 2)).toMatch(/Unknown argument: bogus/);
  });

  it('plays, estimates a belief, solves and verifies', () => {
    expect(krieg(['play', '--games', '1', '--seed', '3', '--max-plies', '4', '--out', 'g.kpgn']).status).toBe(0);
    const belief = krieg(['belief', 'g.kpgn', '--as', 'white']);
    expect(belief.status, belief.stderr).toBe(0);
    expect(belief.stdout).toMatch(/^positions: \d+$/m);
    const solve = krieg(['solve', '--positions', ...TWO_ROOKS, '--ply', '3', '--algo', 'gl-dbu', '--out', 's.json']);
    expect(solve.status, solve.stderr).toBe(0);
    expect(solve.stdout).toMatch(/^answer: proven/m);
    const verify = krieg(['verify', '-', 's.json', '--positions', ...TWO_ROOKS]);
    expect(verify.status, verify.stderr).toBe(0);
    const shipped = krieg(['db', 'show', '4']);
    expect(shipped.status, shipped.stderr).toBe(0);
    expect(shipped.stdout).toMatch(/^instance 4 of /);
  });

  it('ends quietly when the reader closes the pipe', () => {
    const run = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" db list | head -n 1`], {
      cwd: DIR,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\s*id\s+ply\s+class/);
    expect(run.stderr).toBe('');
  });
});

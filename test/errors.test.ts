// The error registry (host/errors.ts) is the one place errors are defined: every KriegError the host
// throws is made there (by id, with its template and exit code), and the command line's exit codes
// come from it.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, KriegError, errorIds, fail, optionError, setupError } from '../host/errors';
import { ROOT } from './lib/cli';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the error registry', () => {
  it('is the only place a KriegError is constructed', () => {
    const outside = files(join(ROOT, 'host')).filter(
      (f) => !f.endsWith('host/errors.ts') && /new KriegError\(/.test(readFileSync(f, 'utf8')),
    );
    expect(outside).toEqual([]);
  });

  it('gives each id one exit code: bad input 2, an inconsistent view 3, bugs 1', () => {
    const ids = errorIds();
    expect(new Set(ids.map((e) => e.id)).size).toBe(ids.length);
    const exit = Object.fromEntries(ids.map((e) => [e.id, e.exitCode]));
    expect(exit['bad-fen']).toBe(EXIT.badInput);
    expect(exit.inconsistent).toBe(EXIT.inconsistent);
    expect(exit['player-stuck']).toBe(EXIT.internal);
    expect(exit['setup-king-count']).toBe(EXIT.badInput);
  });

  it('makes messages from templates and keeps the id and exit code through added context', () => {
    const error = fail('no-file', { path: 'games.kpgn' });
    expect([error.code, error.message, error.exitCode]).toEqual(['no-file', 'games.kpgn: no such file', EXIT.badInput]);
    const within = fail('inconsistent', { text: 'the view is inconsistent' }).within('games.kpgn');
    expect(within).toBeInstanceOf(KriegError);
    expect([within.code, within.message, within.exitCode]).toEqual([
      'inconsistent',
      'games.kpgn: the view is inconsistent',
      EXIT.inconsistent,
    ]);
    expect(optionError('depth', 0, 20, 'x').message).toBe("depth must be an integer from 0 to 20, got 'x'");
    expect(optionError('depth', 0, 20, 'x').code).toBe('bad-depth');
    expect(setupError(2).code).toBe('setup-king-count');
  });
});

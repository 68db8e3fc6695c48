// docs/api/ (the API reference, committed) is what scripts/api-docs.mjs makes of host/node.ts and
// the doc comments now: `npm run docs:api` after changing an export or its comment.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './lib/cli';

describe('docs/api/', () => {
  it('is not stale', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts/api-docs.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
  }, 300_000);
});

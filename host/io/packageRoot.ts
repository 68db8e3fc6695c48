// The package root: found by walking up to package.json, because this code runs both from source
// (host/, under vitest) and bundled into dist/cli.js and dist/worker.js, which sit at other depths.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the nearest directory above this module holding package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('krieg: package.json not found above the running module');
    dir = parent;
  }
  return dir;
}

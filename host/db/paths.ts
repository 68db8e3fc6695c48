// Where the shipped problem database lives: data/problems.sqlite at the package root. The root is
// found by walking up to package.json, because this code runs both from source (host/db/, under
// vitest) and bundled into dist/cli.js, which sit at different depths.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_DB = 'data/problems.sqlite';

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

/** The default database file (absolute); it need not exist. */
export function defaultDbPath(): string {
  return join(packageRoot(), DEFAULT_DB);
}

/**
 * The shipped database that file `path` is, under whatever name (relative, through `..`, a symlink
 * or a hard link: the same device and inode as a data/*.sqlite of the package), or undefined.
 */
export function shippedDbAt(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const file = statSync(path);
  const data = join(packageRoot(), 'data');
  if (!existsSync(data)) return undefined;
  for (const name of readdirSync(data).filter((n) => n.endsWith('.sqlite'))) {
    const shipped = statSync(join(data, name));
    if (shipped.dev === file.dev && shipped.ino === file.ino) return `data/${name}`;
  }
  return undefined;
}

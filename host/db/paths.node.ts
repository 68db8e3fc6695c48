// Where the shipped problem database lives: data/problems.sqlite at the package root.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../io/packageRoot';

export const DEFAULT_DB = 'data/problems.sqlite';

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

// Files: read only when they exist as regular files, written atomically (a temporary file renamed
// into place), every failure one KriegError naming the file.
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fail } from '../errors';

/** The text of `path`, or a KriegError (no-file) when it is not a regular file. */
export function readTextFile(path: string): string {
  if (!existsSync(path) || !statSync(path).isFile()) throw fail('no-file', { path });
  return readFileSync(path, 'utf8');
}

const WRITE_ERRORS: Record<string, string> = {
  ENOENT: 'no such directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the device',
  EISDIR: 'it is a directory',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a directory',
};

/**
 * Writes atomically: a temporary file renamed into place, so a failure leaves nothing half-written
 * (the temporary file is removed) and is reported as a KriegError naming the file.
 */
export function writeAtomically(path: string, content: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    const e = error as NodeJS.ErrnoException;
    if (!e.code) throw error;
    throw fail('write-failed', { path, why: WRITE_ERRORS[e.code] ?? e.code });
  }
}

/** True when `a` and `b` are the same file (same path, or a link to it). */
export function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  if (!existsSync(a) || !existsSync(b)) return false;
  const [sa, sb] = [statSync(a), statSync(b)];
  return sa.dev === sb.dev && sa.ino === sb.ino;
}

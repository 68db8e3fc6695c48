// Files: read only when they exist as regular files, written atomically (a temporary file renamed
// into place), every failure one KriegError naming the file.
import {
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fail } from '../errors';

/** The largest text file read whole (game records, problems, strategies): far beyond any real one, well inside V8's string limit. */
export const MAX_TEXT_BYTES = 64 * 2 ** 20;

const READ_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EIO: 'input/output error',
};

/** The text of `path`, or a KriegError: no-file when it is not a regular file, read-failed when it cannot be read or is too large. */
export function readTextFile(path: string): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw fail('no-file', { path });
    size = stat.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw fail('no-file', { path });
    if (code === undefined) throw error;
    throw fail('read-failed', { path, why: READ_ERRORS[code] ?? code });
  }
  if (size > MAX_TEXT_BYTES)
    throw fail('read-failed', {
      path,
      why: `${(size / 2 ** 20).toFixed(0)} MiB; krieg reads files up to ${MAX_TEXT_BYTES / 2 ** 20} MiB: split it`,
    });
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw fail('read-failed', { path, why: READ_ERRORS[code] ?? code });
  }
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

/** Whether process `pid` is running (signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the temporaries `<name>.<pid>.tmp` a killed writer of `path` left behind (its process is gone). */
function removeStaleTemporaries(path: string): void {
  const name = basename(path);
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(`${name}.`) || !entry.endsWith('.tmp')) continue;
    const pid = Number(entry.slice(name.length + 1, -'.tmp'.length));
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid))
      rmSync(join(dirname(path), entry), { force: true });
  }
}

/**
 * Writes atomically: a temporary file renamed into place, so a failure leaves nothing half-written
 * (the temporary file is removed) and is reported as a KriegError naming the file. A symbolic link
 * is written through (its target replaced, the link kept); a read-only file is refused, not
 * replaced; temporaries left by killed writers of the same file are removed.
 */
export function writeAtomically(path: string, content: string | Uint8Array): void {
  let target = path;
  if (existsSync(path)) {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
    if ((statSync(target).mode & 0o222) === 0) throw fail('write-failed', { path, why: 'it is read-only' });
  }
  removeStaleTemporaries(target);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, target);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // the temporary was never made (its directory is missing or not one)
    }
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

// Files: read only when they exist as regular files, written atomically (a temporary file renamed
// into place), every failure one KriegError naming the file.
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
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

/** The error for `error`, thrown reading `path`: no-file when it is missing, read-failed naming why it cannot be read. */
function readError(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return fail('no-file', { path });
  if (code === undefined) return error;
  return fail('read-failed', { path, why: READ_ERRORS[code] ?? code });
}

/**
 * The size of `path` when krieg may read it: a regular file up to MAX_TEXT_BYTES; otherwise a
 * KriegError (no-file when there is no such file, read-failed naming a directory, a file too large
 * or the error).
 */
export function readableSize(path: string): number {
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    throw readError(path, error);
  }
  if (stat.isDirectory()) throw fail('read-failed', { path, why: READ_ERRORS.EISDIR });
  if (!stat.isFile()) throw fail('no-file', { path });
  const size = stat.size;
  if (size > MAX_TEXT_BYTES)
    throw fail('read-failed', {
      path,
      why: `${(size / 2 ** 20).toFixed(0)} MiB; krieg reads files up to ${MAX_TEXT_BYTES / 2 ** 20} MiB: split it`,
    });
  return size;
}

/** The text of `path`, or a KriegError: no-file when it is not a regular file, read-failed when it cannot be read or is too large. */
export function readTextFile(path: string): string {
  readableSize(path);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw readError(path, error);
  }
}

/**
 * A file read in pieces, never held whole (a games file scanned for one game): the bytes from an
 * offset, the text of a range; every failure a KriegError naming the file. Close it when done.
 */
export class FileReader {
  private constructor(
    readonly path: string,
    readonly size: number,
    private readonly fd: number,
  ) {}

  static open(path: string): FileReader {
    const size = readableSize(path);
    try {
      return new FileReader(path, size, openSync(path, 'r'));
    } catch (error) {
      throw readError(path, error);
    }
  }

  /** Reads into `buffer` (from its start) the bytes from `position`: how many (0 at the end). */
  read(buffer: Uint8Array, position: number, length = buffer.length): number {
    try {
      return readSync(this.fd, buffer, 0, Math.min(length, buffer.length), position);
    } catch (error) {
      throw readError(this.path, error);
    }
  }

  /** The text (UTF-8) of bytes [start, end). */
  text(start: number, end: number): string {
    const buffer = Buffer.alloc(end - start);
    let done = 0;
    while (done < buffer.length) {
      const n = this.read(buffer.subarray(done), start + done);
      if (n === 0) break;
      done += n;
    }
    return buffer.toString('utf8', 0, done);
  }

  close(): void {
    closeSync(this.fd);
  }
}

export const WRITE_ERRORS: Record<string, string> = {
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
export function writeAtomically(path: string, content: string | Uint8Array | readonly Uint8Array[]): void {
  let target = path;
  if (existsSync(path)) {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
    const stat = statSync(target);
    // renaming onto a directory fails with EISDIR, or EBUSY for '.': say what it is, whatever the path
    if (stat.isDirectory()) throw fail('write-failed', { path, why: WRITE_ERRORS.EISDIR });
    if ((stat.mode & 0o222) === 0) throw fail('write-failed', { path, why: 'it is read-only' });
  }
  removeStaleTemporaries(target);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    if (typeof content === 'string' || content instanceof Uint8Array) writeFileSync(temporary, content);
    else writeChunks(temporary, content);
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

/** Writes `chunks` one after another into a new file (a large file: no copy of them joined). */
function writeChunks(path: string, chunks: readonly Uint8Array[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const chunk of chunks)
      for (let done = 0; done < chunk.length;)
        done += writeSync(fd, chunk, done, Math.min(chunk.length - done, 1 << 26));
  } finally {
    closeSync(fd);
  }
}

/** True when `a` and `b` are the same file (same path, or a link to it). */
export function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  if (!existsSync(a) || !existsSync(b)) return false;
  const [sa, sb] = [statSync(a), statSync(b)];
  return sa.dev === sb.dev && sa.ino === sb.ino;
}

// Tablebase files (host/players/egtb.ts's format, gzip-compressed): where they live, writing them
// whole (a temporary file renamed into place), reading them back into a core, and the cache as the
// players' TableSource.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { fail } from '../errors';
import { writeAtomically } from '../io/files';
import { packageRoot } from '../io/packageRoot';
import { egtbLoad, type EgtbEnding } from '../core/egtb';
import type { Engine } from '../engine';
import type { TableSource } from './player';
import { decodeTable, encodeTable, type EgtbHeader } from './egtb';

/** The tablebase directory: $KRIEG_EGTB_DIR, else .cache/egtb under the package root. */
export function egtbDir(): string {
  return process.env.KRIEG_EGTB_DIR || join(packageRoot(), '.cache', 'egtb');
}

/** The file of `ending`'s table `table` (egtbTableName) in `dir`. */
export function egtbPath(dir: string, ending: EgtbEnding, table: string): string {
  return join(dir, `${ending}-${table}.egtb.gz`);
}

/** Writes a table whole; its size in bytes. */
export function saveTable(path: string, header: EgtbHeader, entries: Int32Array): number {
  const bytes = gzipSync(encodeTable(header, entries), { level: 9 });
  mkdirSync(join(path, '..'), { recursive: true });
  writeAtomically(path, bytes);
  return bytes.length;
}

/** Reads a table's file. */
export function readTable(
  path: string,
  ending: EgtbEnding,
  table: string,
): { header: EgtbHeader; entries: Int32Array } {
  if (!existsSync(path)) throw fail('no-egtb', { path, ending, table });
  let bytes: Uint8Array;
  try {
    bytes = gunzipSync(readFileSync(path));
  } catch {
    throw fail('bad-egtb', { path, why: 'not gzip' });
  }
  const read = decodeTable(bytes, path);
  if (read.header.ending !== ending || read.header.table !== table)
    throw fail('bad-egtb', { path, why: `it holds ${read.header.ending} ${read.header.table}` });
  return read;
}

/** Loads a table's file into the engine's core for probes; its header. */
export function loadTable(engine: Engine, path: string, ending: EgtbEnding, table: string): EgtbHeader {
  const { header, entries } = readTable(path, ending, table);
  egtbLoad(engine, ending, entries, header.starts);
  return header;
}

/**
 * The players' tables (the CLI's krieg play, match and engine): the cache's (egtbDir(), looked up
 * when a game reaches the ending); false when the rules' table of the ending is not built there.
 */
export const cachedTables: TableSource = (engine, ending, table) => {
  const path = egtbPath(egtbDir(), ending, table);
  if (!existsSync(path)) return false;
  loadTable(engine, path, ending, table);
  return true;
};

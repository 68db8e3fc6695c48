// Damaging problem databases on purpose (the fault tests of issue #18 §7, F4 and F7): a byte
// changed inside a row's text in the file itself, which SQLite's quick_check does not see, and
// rows rewritten with sql.js and signed again, as a buggy writer would leave them (so that the
// shape checks, not the checksums, are what refuses them).
import type { Database } from 'sql.js';
import { expect } from 'vitest';
import { ProblemDb, TABLES, rowChecksum, type ResultRow } from '../../host/db/database.node';
import { KriegError } from '../../host/errors';

/**
 * `bytes` with one byte changed at offset `k` of the first place the text `inside` is stored (an
 * ASCII letter or digit, its lowest bit flipped: still a character, a different one); undefined
 * when the text is not stored in one piece.
 */
export function damageInside(bytes: Uint8Array, inside: string, k: number): Uint8Array | undefined {
  const at = Buffer.from(bytes).indexOf(Buffer.from(inside, 'utf8'));
  if (at < 0) return undefined;
  const damaged = new Uint8Array(bytes);
  for (let i = 0; i < inside.length; i++) {
    const j = at + ((k + i) % inside.length);
    if (/[A-Za-z0-9]/.test(String.fromCharCode(damaged[j]))) {
      damaged[j] ^= 1;
      return damaged;
    }
  }
  return undefined;
}

/** Gives every row of `db` the checksum of what it holds now (after a test changed it with SQL). */
export function signAgain(db: Database): void {
  for (const table of TABLES) {
    for (const [rowid, ...values] of db.exec(`SELECT rowid, * FROM ${table}`)[0]?.values ?? []) {
      values.pop();
      db.run(`UPDATE ${table} SET checksum = ? WHERE rowid = ?`, [rowChecksum(table, values), rowid]);
    }
  }
}

/** Opening `path` is refused with exit 2: the message (it fails the test if the database opens). */
export async function openRefusal(path: string): Promise<string> {
  try {
    (await ProblemDb.open(path)).close();
  } catch (error) {
    expect(error).toBeInstanceOf(KriegError);
    expect((error as KriegError).exitCode).toBe(2);
    return (error as KriegError).message;
  }
  throw new Error(`${path} opened`);
}

/** A results-table row for test databases. */
export const SAMPLE_RESULT: ResultRow = {
  instanceId: 1,
  algorithm: 'gl-dbu',
  backend: 'wasm',
  answer: 'proven',
  nodes: 12,
  positions: 34,
  ms: 1.5,
  limitMs: null,
  machine: 'test',
  gitCommit: null,
  runAt: '2026-01-01T00:00:00Z',
};

// Damaging problem databases on purpose (the fault tests of issue #18 §7, F4 and F7): a byte
// changed inside a row's text in the file itself, which SQLite's quick_check does not see, and
// rows rewritten with sql.js and signed again, as a buggy writer would leave them (so that the
// shape checks, not the checksums, are what refuses them).
import type { Database } from 'sql.js';
import { TABLES, rowChecksum } from '../../host/db/database';

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

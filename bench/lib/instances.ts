// Instances of a problem database as the benches use them: a sample of each ply and class, evenly
// spread over the ids (which follow generation order), with their problem, stored view and the
// features algorithm selection reads (host/solver/auto.ts). bench/solve.ts, bench/figures.ts and
// bench/auto.ts take their problems from here.
import { ProblemDb } from '../../host/db/database.node';
import { parseRecordJson } from '../../host/notation/recordJson';
import { parseRulesJson } from '../../host/record/rules';
import type { View } from '../../host/record/record';
import type { Problem } from '../../host/solver/solve';
import type { ProblemClass } from '../../host/solver/problemFile';

export interface BenchInstance {
  /** The database's file name without directory and extension (problems, problems-standard). */
  db: string;
  /** `${db}:${id}`: unique across databases. */
  key: string;
  id: number;
  game: number;
  ply: number;
  cls: ProblemClass;
  size: number;
  problem: Problem;
  view?: View;
}

export const dbName = (path: string): string => path.replace(/^.*\//, '').replace(/\.sqlite$/, '');

/**
 * `perClass` instances of each ply and class of the database at `path` (all of them when fewer, or
 * when perClass is Infinity), evenly spread over the ids; `plies` restricts the depths.
 */
export async function sampleInstances(path: string, perClass: number, plies?: number[]): Promise<BenchInstance[]> {
  const db = await ProblemDb.open(path);
  try {
    const name = dbName(path);
    const depths = plies ?? [...new Set(db.counts().map((c) => c.ply))].sort((a, b) => a - b);
    const out: BenchInstance[] = [];
    for (const ply of depths) {
      for (const cls of ['mate', 'near-miss'] as const) {
        const rows = db.instances({ ply, cls });
        const k = Math.min(perClass, rows.length);
        for (let i = 0; i < k; i++) {
          const row = rows[Math.floor(((i + 0.5) * rows.length) / k)];
          const parsed = parseRecordJson(row.viewJson);
          out.push({
            db: name,
            key: `${name}:${row.id}`,
            id: row.id,
            game: row.game,
            ply,
            cls,
            size: row.beliefSize,
            problem: { rules: parseRulesJson(row.rulesJson), ply, positions: row.positions },
            view: parsed.kind === 'view' ? parsed.view : undefined,
          });
        }
      }
    }
    return out;
  } finally {
    db.close();
  }
}

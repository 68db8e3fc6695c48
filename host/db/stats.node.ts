// Statistics of a problem database (`krieg db stats`, npm run db:stats): rule sets, games played and
// dropped, instances and belief sizes per ply and class, the generation parameters.
import { statSync } from 'node:fs';
import { fail } from '../errors';
import { SCHEMA_VERSION, type ProblemDb } from './database.node';

export interface SizeStats {
  instances: number;
  mean: number;
  median: number;
  max: number;
}

function sizeStats(sizes: number[]): SizeStats {
  const sorted = [...sizes].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0;
  return {
    instances: sorted.length,
    mean: Math.round(mean * 10) / 10,
    median,
    max: sorted.length ? sorted[sorted.length - 1] : 0,
  };
}

export function statsOf(db: ProblemDb, path: string) {
  const summaries = db.summaries();
  const games = db.gameTally();
  const rules: Record<string, number> = {};
  for (const s of summaries) rules[s.rules] = (rules[s.rules] ?? 0) + 1;
  let params: Record<string, unknown>;
  try {
    params = db.params();
  } catch (error) {
    throw fail('db-corrupt', { where: path, what: `meta 'params': ${(error as Error).message}` });
  }
  const groups = db.counts().map(({ ply, cls }) => ({
    ply,
    class: cls,
    beliefSize: sizeStats(summaries.filter((s) => s.ply === ply && s.cls === cls).map((s) => s.beliefSize)),
  }));
  return {
    database: path,
    schemaVersion: SCHEMA_VERSION,
    bytes: statSync(path).size,
    rules,
    games: { ...games, instancesPerGame: games.played ? Math.round((summaries.length / games.played) * 100) / 100 : 0 },
    instances: groups,
    all: sizeStats(summaries.map((s) => s.beliefSize)),
    params,
  };
}

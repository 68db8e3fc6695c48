// Deeper re-analysis of a database's near-misses (Russell & Wolfe §3: "by simply re-analysing our
// 3-ply near-miss problems at 5 ply"; their site also listed 7- and 9-ply problems): every
// near-miss at `from` ply is classified again at `to` ply (host/db/classify.ts, node limits only,
// so deterministic), its covered positions kept covered, and a mate or near-miss found is stored
// as a `to`-ply instance whose source is the near-miss (same belief, view and game). One
// transaction per source, and the meta key `reanalysed:FROM-TO` records the last source done, so a
// run killed at any point resumes where it stopped and ends with the same database.
import type { Engine } from '../engine';
import { fail } from '../errors';
import { parseRulesJson } from '../record/rules';
import { classify, type ClassifyLimits } from './classify';
import { instanceKey, type ProblemDb } from './database.node';

export interface ReanalyseProgress {
  done: number;
  total: number;
  stored: number;
  mates: number;
  nearMisses: number;
}

const metaKey = (from: number, to: number) => `reanalysed:${from}-${to}`;

/**
 * Re-analyses the near-misses at `from` ply at `to` ply, in id order, until `maxStored` new
 * instances are stored or every near-miss is done; returns the tally.
 */
export function reanalyse(
  db: ProblemDb,
  solver: Engine,
  from: number,
  to: number,
  limits: ClassifyLimits,
  maxStored = Infinity,
  onProgress?: (p: ReanalyseProgress) => void,
): ReanalyseProgress {
  if (to <= from || to % 2 === 0)
    throw fail('bad-reanalyse', { text: `the re-analysis depth must be odd and deeper than ${from}, got ${to}` });
  const sources = db.instances({ ply: from, cls: 'near-miss' });
  if (!sources.length)
    throw fail('no-instances', { text: `${db.path ?? 'the database'} has no ${from}-ply near-misses to re-analyse` });
  const stored = () =>
    db
      .counts()
      .filter((c) => c.ply === to)
      .reduce((s, c) => s + c.count, 0);
  const tally = (done: number): ReanalyseProgress => ({
    done,
    total: sources.length,
    stored: stored(),
    mates: db.counts().find((c) => c.ply === to && c.cls === 'mate')?.count ?? 0,
    nearMisses: db.counts().find((c) => c.ply === to && c.cls === 'near-miss')?.count ?? 0,
  });
  const last = Number(db.meta(metaKey(from, to)) ?? 0);
  let done = sources.filter((s) => s.id <= last).length;
  let added = 0;
  for (const source of sources) {
    if (source.id <= last) continue;
    if (added >= maxStored) break;
    const problem = { rules: parseRulesJson(source.rulesJson), ply: to, positions: source.positions };
    const c = classify(solver, problem, limits, source.covered);
    const key = instanceKey(to, source.rulesJson, source.positions);
    db.transaction(() => {
      if ((c.cls === 'mate' || c.cls === 'near-miss') && !db.hasKey(key)) {
        db.addInstance({
          key,
          rules: source.rules,
          rulesJson: source.rulesJson,
          ply: to,
          cls: c.cls,
          beliefSize: source.beliefSize,
          viewKpgn: source.viewKpgn,
          viewJson: source.viewJson,
          positions: source.positions,
          seed: source.seed,
          game: source.game,
          cutPly: source.cutPly,
          sourceId: source.id,
          covered: c.covered,
          strategy: c.strategy,
          work: c.work,
        });
        added++;
      }
      db.setMeta(metaKey(from, to), String(source.id));
    });
    done++;
    onProgress?.(tally(done));
  }
  return tally(done);
}

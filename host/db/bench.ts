// Benchmarking solvers on the database's instances (`krieg db bench`): every run recorded in the
// results table (algorithm, backend, answer, nodes, positions, time, time limit, machine, commit),
// one transaction per instance, so an interrupted run keeps what it measured.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { Engine } from '../engine';
import { solve, type Algorithm } from '../solver/solve';
import type { InstanceRow, ProblemDb } from './database';
import { problemOfInstance } from './instances';

/** The machine a result was measured on: CPU model, cores, Node. */
function machineName(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, Node ${process.version}`;
}

/** The krieg commit measured, when running from a git checkout. */
function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export interface BenchTally {
  solved: number;
  ms: number;
}

/**
 * Runs every algorithm on every instance of `rows` (a time limit of `limitMs` each), recording each
 * run; returns per algorithm the instances answered and their time. An answer that contradicts an
 * instance's class is a solver bug: an internal error, not bad input.
 */
export function benchInstances(
  db: ProblemDb,
  engine: Engine,
  rows: InstanceRow[],
  algorithms: Algorithm[],
  limitMs: number,
  onInstance?: (done: number) => void,
): Record<string, BenchTally> {
  const machine = machineName();
  const commit = gitCommit();
  const tally: Record<string, BenchTally> = {};
  rows.forEach((row, i) => {
    const problem = problemOfInstance(db, row);
    db.transaction(() => {
      for (const algorithm of algorithms) {
        const r = solve(engine, problem, algorithm, { timeMs: limitMs });
        db.addResult({
          instanceId: row.id,
          algorithm,
          backend: engine.backend,
          answer: r.answer,
          nodes: r.stats.nodes,
          positions: r.stats.positions,
          ms: r.stats.ms,
          limitMs,
          machine,
          gitCommit: commit,
          runAt: new Date().toISOString(),
        });
        if (r.answer !== 'unknown' && r.answer !== problem.expect) {
          throw new Error(
            `solver disagreement: ${algorithm} answers ${r.answer} on instance ${row.id}, stored as a ${row.cls}`,
          ); // internal, exit 1
        }
        const t = (tally[algorithm] ??= { solved: 0, ms: 0 });
        if (r.answer !== 'unknown') {
          t.solved++;
          t.ms += r.stats.ms;
        }
      }
    });
    onInstance?.(i + 1);
  });
  return tally;
}

// Benchmarking solvers on the database's instances (`krieg db bench`): every run recorded in the
// results table (algorithm, backend, answer, nodes, positions, time, time limit, machine, commit),
// one transaction per instance, so an interrupted run keeps what it measured.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { Engine } from '../engine';
import { createCore, type BackendName } from '../backends/node';
import { solve, type Algorithm, type Problem } from '../solver/solve';
import { runTasks } from '../pool/pool';
import type { InstanceRow, ProblemDb } from './database.node';
import { problemOfInstance } from './instances.node';

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

/** One algorithm's run on an instance. */
export interface BenchRun {
  algorithm: Algorithm;
  answer: string;
  nodes: number;
  positions: number;
  ms: number;
}

/** Runs every algorithm on `problem`, a time limit of `limitMs` each. */
export function solveInstance(engine: Engine, problem: Problem, algorithms: Algorithm[], limitMs: number): BenchRun[] {
  return algorithms.map((algorithm) => {
    const r = solve(engine, problem, algorithm, { timeMs: limitMs });
    return { algorithm, answer: r.answer, nodes: r.stats.nodes, positions: r.stats.positions, ms: r.stats.ms };
  });
}

/** Records an instance's runs in one transaction and adds them to `tally`. */
function recordInstance(
  db: ProblemDb,
  row: InstanceRow,
  expect: string | undefined,
  runs: BenchRun[],
  context: { backend: string; limitMs: number; machine: string; commit: string | null; concurrency: number },
  tally: Record<string, BenchTally>,
): void {
  db.transaction(() => {
    for (const r of runs) {
      db.addResult({
        instanceId: row.id,
        algorithm: r.algorithm,
        backend: context.backend,
        answer: r.answer,
        nodes: r.nodes,
        positions: r.positions,
        ms: r.ms,
        limitMs: context.limitMs,
        machine:
          context.concurrency > 1 ? `${context.machine}, ${context.concurrency} solves at once` : context.machine,
        gitCommit: context.commit,
        runAt: new Date().toISOString(),
      });
      if (r.answer !== 'unknown' && r.answer !== expect) {
        throw new Error(
          `solver disagreement: ${r.algorithm} answers ${r.answer} on instance ${row.id}, stored as a ${row.cls}`,
        ); // internal, exit 1
      }
      const t = (tally[r.algorithm] ??= { solved: 0, ms: 0 });
      if (r.answer !== 'unknown') {
        t.solved++;
        t.ms += r.ms;
      }
    }
  });
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
  const context = { backend: engine.backend, limitMs, machine: machineName(), commit: gitCommit(), concurrency: 1 };
  const tally: Record<string, BenchTally> = {};
  rows.forEach((row, i) => {
    const problem = problemOfInstance(db, row);
    recordInstance(db, row, problem.expect, solveInstance(engine, problem, algorithms, limitMs), context, tally);
    onInstance?.(i + 1);
  });
  return tally;
}

/**
 * benchInstances with the instances solved on `jobs` workers of the pool and recorded here, in
 * instance order. The answers and node counts are those of one worker; the times are not (solves
 * running side by side share the machine), so each result names its concurrency in `machine`.
 */
export async function benchInstancesOnPool(
  db: ProblemDb,
  rows: InstanceRow[],
  algorithms: Algorithm[],
  limitMs: number,
  options: { backend: BackendName; jobs: number },
  onInstance?: (done: number) => void,
): Promise<Record<string, BenchTally>> {
  const context = {
    backend: options.backend,
    limitMs,
    machine: machineName(),
    commit: gitCommit(),
    concurrency: options.jobs,
  };
  const tally: Record<string, BenchTally> = {};
  const problems = rows.map((row) => problemOfInstance(db, row));
  const tasks: BenchTask[] = problems.map((problem) => ({ backend: options.backend, problem, algorithms, limitMs }));
  await runTasks<BenchTask, BenchRun[]>('db-bench', tasks, {
    jobs: options.jobs,
    onResult: (i, runs) => {
      recordInstance(db, rows[i], problems[i].expect, runs, context, tally);
      onInstance?.(i + 1);
    },
  });
  return tally;
}

/** One instance of benchInstancesOnPool, a task of the pool. */
export interface BenchTask {
  backend: BackendName;
  problem: Problem;
  algorithms: Algorithm[];
  limitMs: number;
}

const engines = new Map<BackendName, Engine>();

/** A worker's side of benchInstancesOnPool (host/worker.ts). */
export function benchTask(task: BenchTask): BenchRun[] {
  let engine = engines.get(task.backend);
  if (!engine) engines.set(task.backend, (engine = new Engine(createCore(task.backend))));
  return solveInstance(engine, task.problem, task.algorithms, task.limitMs);
}

// The worker pool: tasks run on Node worker threads, each worker with its own cores (WASM
// instances or JS cores from createJsCore: module state is per core, so workers never share one),
// handed out from one shared queue (a worker takes the next task when it finishes one: dynamic
// load balancing, Gupta, Richards & Sarood 2010 section 4), results delivered in task order, so a
// caller that folds them in order gets the same answer whatever the number of workers and however
// they were scheduled. The task kinds are the handlers of host/worker.ts (the worker script,
// bundled to dist/worker.js).
//
// Failures: a task that throws rejects the run with its error (a KriegError keeps its id and exit
// code; anything else is an internal error, exit 1); a worker that dies (killed, out of memory,
// process.exit) rejects it with `pool-worker` (exit 1). Either way the other workers are
// terminated and no later result is delivered, so a caller that writes only from results writes
// nothing past the failure. Tasks are not retried: a task fails the same way again (the work is
// deterministic), and a worker killed from outside means the machine is in trouble.
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fail, reviveError, KriegError, EXIT } from '../errors';
import { packageRoot } from '../io/packageRoot';

/** The most workers `--jobs` may ask for (each holds its own engines: tens of MB). */
export const MAX_JOBS = 256;

/** The default number of workers: the cores Node may use. */
export function defaultJobs(): number {
  return availableParallelism();
}

/** The worker script: dist/worker.js of the package (built by scripts/build.mjs), from the bundle or the sources. */
export function workerScript(): string {
  const script = join(packageRoot(), 'dist', 'worker.js');
  if (!existsSync(script)) throw fail('pool-worker', { text: `${script} is missing: run npm run build` });
  return script;
}

/** A message to a worker: run task `id` of run `run`, of `kind`, on `input`. */
export interface TaskMessage {
  run: number;
  id: number;
  kind: string;
  input: unknown;
}

/** A worker's answer to task `id`: its output, or its error. */
export interface ReplyMessage {
  run: number;
  id: number;
  output?: unknown;
  error?: { code: string; message: string; exitCode: number };
}

export interface RunOptions<O> {
  /** Called with each task's output in task order; returning true stops the run (the remaining tasks are dropped). */
  onResult: (index: number, output: O) => boolean | void;
  /** Stop after this many milliseconds: the run resolves with `stopped: 'time'` and the results delivered so far. */
  timeMs?: number;
}

export interface PoolRun {
  /** Results delivered (tasks 0 … delivered − 1). */
  delivered: number;
  /** Why the run ended before the last task: a callback asked to stop, or the time limit. */
  stopped?: 'callback' | 'time';
}

/**
 * Worker threads that run tasks, one run at a time. A run that fails, reaches its time limit or is
 * stopped by its callback terminates the workers (a task may be running long); the next run
 * starts new ones. A run that ends with its last task leaves them idle for the next.
 */
export class WorkerPool {
  private workers: Worker[] = [];
  private runs = 0;
  private onMessage: (worker: Worker, reply: ReplyMessage) => void = () => {};
  private onDeath: (error: Error) => void = () => {};

  constructor(
    readonly jobs: number,
    private readonly script = workerScript(),
  ) {}

  private start(count: number): Worker[] {
    while (this.workers.length < count) {
      const worker = new Worker(this.script);
      worker.on('message', (reply: ReplyMessage) => this.onMessage(worker, reply));
      worker.on('error', (error) =>
        this.onDeath(
          fail('pool-worker', { text: `a worker failed: ${error instanceof Error ? error.message : error}` }),
        ),
      );
      worker.on('exit', (code) => {
        const i = this.workers.indexOf(worker);
        if (i < 0) return; // closed
        this.workers.splice(i, 1);
        this.onDeath(fail('pool-worker', { text: `a worker ended with exit code ${code} mid-task` }));
      });
      worker.unref(); // an idle pool does not keep the process alive
      this.workers.push(worker);
    }
    return this.workers.slice(0, count);
  }

  /** Ends every worker (the pool may be used again: it starts new ones). */
  close(): void {
    const workers = this.workers;
    this.workers = [];
    for (const w of workers) void w.terminate();
  }

  /**
   * Runs task `kind` on each of `inputs` on up to `jobs` workers; `onResult` sees the outputs in
   * task order.
   */
  run<I, O>(kind: string, inputs: readonly I[], options: RunOptions<O>): Promise<PoolRun> {
    if (inputs.length === 0) return Promise.resolve({ delivered: 0 });
    const workers = this.start(Math.max(1, Math.min(this.jobs, inputs.length)));
    for (const w of workers) w.ref();
    const run = ++this.runs;
    return new Promise((resolve, reject) => {
      const finished = new Map<number, O>();
      let next = 0; // the next task to hand out
      let delivered = 0;
      let over = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const end = (outcome: { run?: PoolRun; error?: Error }) => {
        if (over) return;
        over = true;
        if (timer) clearTimeout(timer);
        this.onMessage = () => {};
        this.onDeath = () => {};
        if (outcome.error || outcome.run?.stopped)
          this.close(); // tasks may still be running
        else for (const w of workers) w.unref();
        if (outcome.error) reject(outcome.error);
        else resolve(outcome.run!);
      };
      const handOut = (worker: Worker) => {
        if (next >= inputs.length) return;
        const id = next++;
        worker.postMessage({ run, id, kind, input: inputs[id] } satisfies TaskMessage);
      };
      this.onDeath = (error) => end({ error });
      this.onMessage = (worker, reply) => {
        if (reply.run !== run) return; // a task of a run stopped early
        if (reply.error) {
          end({ error: reviveError(reply.error) });
          return;
        }
        finished.set(reply.id, reply.output as O);
        while (finished.has(delivered)) {
          const output = finished.get(delivered)!;
          finished.delete(delivered);
          let stop: boolean | void;
          try {
            stop = options.onResult(delivered, output);
          } catch (error) {
            end({ error: error as Error });
            return;
          }
          delivered++;
          if (stop) {
            end({ run: { delivered, stopped: 'callback' } });
            return;
          }
        }
        if (delivered >= inputs.length) end({ run: { delivered } });
        else handOut(worker);
      };
      if (options.timeMs !== undefined)
        timer = setTimeout(() => end({ run: { delivered, stopped: 'time' } }), Math.max(1, options.timeMs));
      for (const w of workers) handOut(w);
    });
  }
}

/**
 * Runs task `kind` on each of `inputs` on `jobs` workers started for the run (or on `pool`'s);
 * `onResult` sees the outputs in task order.
 */
export async function runTasks<I, O>(
  kind: string,
  inputs: readonly I[],
  options: RunOptions<O> & { jobs: number; pool?: WorkerPool },
): Promise<PoolRun> {
  const pool = options.pool ?? new WorkerPool(options.jobs);
  try {
    return await pool.run(kind, inputs, options);
  } finally {
    if (!options.pool) pool.close();
  }
}

/** The error a worker sends back for `error` (a KriegError keeps its id and exit code). */
export function replyError(error: unknown): NonNullable<ReplyMessage['error']> {
  if (error instanceof KriegError) return { code: error.code, message: error.message, exitCode: error.exitCode };
  return {
    code: 'internal',
    message: `internal error in a worker: ${error instanceof Error ? error.message : String(error)}`,
    exitCode: EXIT.internal,
  };
}

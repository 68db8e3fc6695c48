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
import { packageRoot } from '../db/paths';

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

/** A message to a worker: run task `id` of `kind` on `input`. */
export interface TaskMessage {
  id: number;
  kind: string;
  input: unknown;
}

/** A worker's answer to task `id`: its output, or its error. */
export interface ReplyMessage {
  id: number;
  output?: unknown;
  error?: { code: string; message: string; exitCode: number };
}

export interface PoolOptions<O> {
  /** Workers to start (at most one per task). */
  jobs: number;
  /** Called with each task's output in task order; returning true stops the run (the remaining tasks are dropped). */
  onResult: (index: number, output: O) => boolean | void;
  /** Stop after this many milliseconds: the run resolves with `stopped: 'time'` and the results delivered so far. */
  timeMs?: number;
  /** The worker script (tests give a faulty one). */
  script?: string;
}

export interface PoolRun {
  /** Results delivered (tasks 0 … delivered − 1). */
  delivered: number;
  /** Why the run ended before the last task: a callback asked to stop, or the time limit. */
  stopped?: 'callback' | 'time';
}

/**
 * Runs task `kind` on each of `inputs` on `options.jobs` workers; `onResult` sees the outputs in
 * task order. Workers are started for the run and terminated at its end.
 */
export function runTasks<I, O>(kind: string, inputs: readonly I[], options: PoolOptions<O>): Promise<PoolRun> {
  const jobs = Math.max(1, Math.min(options.jobs, inputs.length));
  if (inputs.length === 0) return Promise.resolve({ delivered: 0 });
  const script = options.script ?? workerScript();
  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    const finished = new Map<number, O>();
    let next = 0; // the next task to hand out
    let delivered = 0;
    let over = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = (outcome: { run?: PoolRun; error?: Error }) => {
      if (over) return;
      over = true;
      if (timer) clearTimeout(timer);
      for (const w of workers) void w.terminate();
      if (outcome.error) reject(outcome.error);
      else resolve(outcome.run!);
    };
    const handOut = (worker: Worker) => {
      if (over || next >= inputs.length) return;
      const id = next++;
      worker.postMessage({ id, kind, input: inputs[id] } satisfies TaskMessage);
    };
    if (options.timeMs !== undefined)
      timer = setTimeout(() => end({ run: { delivered, stopped: 'time' } }), Math.max(1, options.timeMs));
    for (let j = 0; j < jobs; j++) {
      const worker = new Worker(script);
      workers.push(worker);
      worker.on('message', (reply: ReplyMessage) => {
        if (over) return;
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
      });
      worker.on('error', (error) =>
        end({
          error: fail('pool-worker', { text: `a worker failed: ${error instanceof Error ? error.message : error}` }),
        }),
      );
      worker.on('exit', (code) => {
        if (!over) end({ error: fail('pool-worker', { text: `a worker ended with exit code ${code} mid-task` }) });
      });
      handOut(worker);
    }
  });
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

// The worker pool (host/pool/pool.ts): results in task order whatever the finishing order; a task
// that throws in the real worker (host/worker.ts) is an internal error (exit 1), a worker that
// dies mid-task is `pool-worker` (exit 1), and in both cases no result after the failure is
// delivered; a callback stops a run and the pool runs again; a time limit stops a run;
// `--jobs` 0, negative or absurd is exit 2 (one line).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WorkerPool, runTasks, MAX_JOBS } from '../../host/pool/pool';
import { KriegError, EXIT } from '../../host/errors';
import { krieg, expectOneLine } from '../lib/cli';

const DYING = fileURLToPath(new URL('./dyingWorker.mjs', import.meta.url));

describe('the worker pool', () => {
  it('delivers results in task order, however the tasks finish', async () => {
    const pool = new WorkerPool(3, DYING);
    const seen: number[] = [];
    const inputs = [40, 5, 25, 1, 30, 2, 10, 0].map((ms, value) => ({ ms, value }));
    const run = await pool.run<{ ms: number; value: number }, number>('echo', inputs, {
      onResult: (i, out) => {
        expect(out).toBe(i);
        seen.push(out);
      },
    });
    pool.close();
    expect(run).toEqual({ delivered: 8 });
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('reports a worker that dies mid-task as pool-worker (exit 1), nothing delivered after it', async () => {
    const seen: number[] = [];
    const inputs = [{ value: 0 }, { value: 1 }, { die: true, ms: 0 }, { value: 3, ms: 50 }, { value: 4 }];
    const error = await runTasks('echo', inputs, {
      jobs: 2,
      pool: new WorkerPool(2, DYING),
      onResult: (i) => void seen.push(i),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KriegError);
    expect((error as KriegError).code).toBe('pool-worker');
    expect((error as KriegError).exitCode).toBe(EXIT.internal);
    expect((error as KriegError).message).toMatch(/exit code 7/);
    expect(seen.every((i) => i < 2)).toBe(true);
  });

  it('reports a worker that throws outside any task as pool-worker (exit 1)', async () => {
    const error = await runTasks('echo', [{ throw: true }], {
      jobs: 1,
      pool: new WorkerPool(1, DYING),
      onResult: () => {},
    }).catch((e: KriegError) => e);
    expect((error as KriegError).code).toBe('pool-worker');
    expect((error as KriegError).exitCode).toBe(EXIT.internal);
  });

  it('reports a task that throws in the real worker as an internal error (exit 1)', async () => {
    const error = await runTasks('split', [{ backend: 'wasm', view: null }], { jobs: 1, onResult: () => {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KriegError);
    expect((error as KriegError).exitCode).toBe(EXIT.internal);
    expect((error as KriegError).message).toMatch(/^internal error in a worker: /);
    const unknown = await runTasks('no-such-kind', [1], { jobs: 1, onResult: () => {} }).catch((e: KriegError) => e);
    expect((unknown as KriegError).message).toMatch(/no task kind 'no-such-kind'/);
  });

  it('stops a run when the callback says so, and runs again', async () => {
    const pool = new WorkerPool(2, DYING);
    const inputs = Array.from({ length: 20 }, (_, value) => ({ value, ms: 5 }));
    const first = await pool.run('echo', inputs, { onResult: (i) => i === 4 });
    expect(first).toEqual({ delivered: 5, stopped: 'callback' });
    const seen: number[] = [];
    const second = await pool.run<unknown, number>('echo', inputs.slice(0, 6), {
      onResult: (_, v) => void seen.push(v),
    });
    pool.close();
    expect(second).toEqual({ delivered: 6 });
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('stops a run at its time limit with the results delivered so far', async () => {
    const inputs = [{ value: 0 }, { value: 1, ms: 60_000 }, { value: 2 }];
    const run = await runTasks('echo', inputs, {
      jobs: 1,
      pool: new WorkerPool(1, DYING),
      timeMs: 200,
      onResult: () => {},
    });
    // the first answer may come after the limit (a worker's start-up): never the one of the long task
    expect(run.stopped).toBe('time');
    expect(run.delivered).toBeLessThanOrEqual(1);
  });
});

describe.each([
  ['infoset', ['infoset', 'bench/data/belief-plies.kpgn', '--as', 'white', '--count']],
  ['belief', ['belief', 'bench/data/belief-plies.kpgn', '--as', 'white']],
  ['match', ['match', 'random', 'random', '--games', '2', '--out', '/nonexistent/m.kpgn']],
  ['db generate', ['db', 'generate', '--db', '/nonexistent/g.sqlite']],
  ['db bench', ['db', 'bench', '--db', '/nonexistent/g.sqlite']],
])('krieg %s --jobs', (_, args) => {
  it.each(['0', '-1', String(MAX_JOBS + 1), '1e9', 'two'])('--jobs %s is exit 2 (one line)', async (jobs) => {
    const run = await krieg([...args, `--jobs=${jobs}`]);
    expect(expectOneLine(run, EXIT.badInput)).toMatch(/jobs/);
    expect(run.stdout).toBe('');
  });
});

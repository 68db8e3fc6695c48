// The machine's own ceiling for a 2-worker speed-up: one workload run by two independent processes
// at once, against the same workload run by one process alone. Two processes share no code path,
// queue or message, only the machine (caches, memory bandwidth, the hypervisor's scheduling of
// its virtual processors), so 2 × alone / together is the most any 2-worker pool can reach on this
// machine for that work: a pool below 1.8× where this ceiling is too is held back by the machine,
// not by the pool.
//
// The bench runs its own bundle again as the child (`<bundle> --ceiling-child <workload…>`): the
// child prepares the workload and runs it once to warm up, says "ready", waits for "go" on its
// standard input (so two children start together), runs it `RUNS` times and prints its times.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Timed runs per child (after the warm-up). */
const RUNS = 2;
export const CEILING_FLAG = '--ceiling-child';

/** A workload the child runs: prepared once, then run (and timed) warm. */
export type Workload = () => Promise<unknown> | unknown;

/** The child's side: warm up, wait for "go", run RUNS times, print the times as JSON. */
export async function ceilingChild(workload: Workload): Promise<void> {
  await workload();
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await workload();
    ms.push(performance.now() - t0);
  }
  process.stdout.write(JSON.stringify({ ms }) + '\n');
}

/** Starts `count` children on `args`, starts their timed runs together, and returns each child's total time. */
async function runTogether(bundle: string, args: string[], count: number): Promise<number[]> {
  const children = Array.from({ length: count }, () => {
    const child = spawn(process.execPath, [bundle, CEILING_FLAG, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const next = async (): Promise<string> => {
      const line = await lines.next();
      if (line.done) throw new Error(`ceiling child ${args.join(' ')} ended without an answer`);
      return line.value;
    };
    return { child, next };
  });
  try {
    for (const { next } of children) if ((await next()) !== 'ready') throw new Error('ceiling child: expected "ready"');
    for (const { child } of children) child.stdin!.write('go\n');
    return await Promise.all(
      children.map(async ({ next }) => (JSON.parse(await next()).ms as number[]).reduce((a, x) => a + x, 0)),
    );
  } finally {
    // a child that failed leaves the other still running: none outlives the measurement
    for (const { child } of children) if (child.exitCode === null) child.kill();
  }
}

export interface Ceiling {
  /** Time of the timed runs, one process alone. */
  aloneMs: number;
  /** Time of the slower of two processes running the same runs at once. */
  togetherMs: number;
  /** 2 × alone / together: the best 2-worker speed-up this machine allows for this work. */
  speedup: number;
}

/** Measures the ceiling of the workload the child makes of `args` (bundle: the running bench's own file). */
export async function measureCeiling(bundle: string, args: string[]): Promise<Ceiling> {
  const [aloneMs] = await runTogether(bundle, args, 1);
  const together = await runTogether(bundle, args, 2);
  const togetherMs = Math.max(...together);
  return { aloneMs: aloneMs!, togetherMs, speedup: (2 * aloneMs!) / togetherMs };
}

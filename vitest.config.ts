import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Suites that share their worker's process and modules with the suites run before them in it
 * (isolate: false): a fresh process importing the library anew costs a suite about 1 s of CPU
 * (25 of these suites: 67-75 s of CPU isolated, 42-46 s shared), which the two cores of the CI
 * machine now pay once per worker. Their directories hold no module mocks, no stubbed globals and
 * nothing that outlives a suite (working directory and environment restored); a new directory, or
 * a suite that mocks a module, stays in the isolated project (docs/testing.md).
 */
const SHARED = [
  'test/{chess,notation,verify,referee,belief,solver,bench,db,online}/**/*.test.ts',
  'test/{abi,constants,errors,docs,checkLayers}.test.ts',
];

/** What both projects run with. */
const COMMON = {
  // one test file per core: vitest's default leaves one core to its main thread, which on a
  // 2-core CI machine runs the files one at a time while that core idles (the projects share them)
  maxWorkers: availableParallelism(),
  // tests run in a random order within each file (the seed is printed): none may depend on another
  sequence: { shuffle: { files: false, tests: true } },
  // correctness is bounded by node and work budgets, never the clock: these timeouts only catch a
  // hang, with an hour's margin, so a loaded machine makes the suite slow, not failed
  testTimeout: 3_600_000,
  hookTimeout: 3_600_000,
};

export default defineConfig({
  test: {
    // build outputs older than their sources are rebuilt once, before any suite (the suites test them)
    globalSetup: ['test/lib/globalSetup.ts'],
    maxWorkers: COMMON.maxWorkers,
    // the JSON report is what .ci/run reads to print its closing "N passed, N failed" line
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      { test: { ...COMMON, name: 'shared', include: SHARED, isolate: false } },
      { test: { ...COMMON, name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
    ],
  },
});

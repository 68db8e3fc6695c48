import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // build outputs older than their sources are rebuilt once, before any suite (the suites test them)
    globalSetup: ['test/lib/globalSetup.ts'],
    // tests run in a random order within each file (the seed is printed): none may depend on another
    sequence: { shuffle: { files: false, tests: true } },
    // one test file per core: vitest's default leaves one core to its main thread, which on a
    // 2-core CI machine runs the files one at a time while that core idles
    maxWorkers: availableParallelism(),
    // correctness is bounded by node and work budgets, never the clock: these timeouts only catch a
    // hang, with an hour's margin, so a loaded machine makes the suite slow, not failed
    testTimeout: 3_600_000,
    hookTimeout: 3_600_000,
    // the JSON report is what .ci/run reads to print its closing "N passed, N failed" line
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // build outputs older than their sources are rebuilt once, before any suite (the suites test them)
    globalSetup: ['test/lib/globalSetup.ts'],
    // tests run in a random order within each file (the seed is printed): none may depend on another
    sequence: { shuffle: { files: false, tests: true } },
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // the JSON report is what .ci/run reads to print its closing "N passed, N failed" line
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});

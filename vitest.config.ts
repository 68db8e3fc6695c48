import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/lib/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // the JSON report is what .ci/run reads to print its closing "N passed, N failed" line
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});

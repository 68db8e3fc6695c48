// Prints the closing line CI reads, "N passed, N failed[, N skipped]", from a vitest JSON report.
// Exits non-zero when the report is missing or records a failure.
import { readFileSync, existsSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
if (!existsSync(file)) {
  console.log(`no test report at ${file}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
// a file that failed to load has no failed test of its own: count it once as a failure
const brokenFiles = (report.testResults ?? []).filter(
  (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

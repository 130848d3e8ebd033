// Prints the plain closing line CI reads ("tests: N passed, N failed, N skipped") from vitest's JSON
// reports, and exits non-zero when a report is missing or shows a failure.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`missing test report ${file}`);
    process.exitCode = 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  if (!report.success) process.exitCode = 1;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);

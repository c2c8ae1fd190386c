// A web-test-runner reporter that writes the number of passed and failed tests to a JSON file,
// so `test/run.ts` can print one summary line over every runner. A test file that fails to load
// counts as one failure, so a broken import can never look like a green run.
import { writeFileSync } from 'node:fs';

function count(suite, totals) {
  if (!suite) return;
  for (const test of suite.tests ?? []) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites ?? []) count(child, totals);
}

export function countReporter(file) {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        const before = totals.passed + totals.failed;
        count(session.testResults, totals);
        const ran = totals.passed + totals.failed - before;
        if (session.errors?.length || (ran === 0 && session.passed === false)) totals.failed++;
      }
      if (file) writeFileSync(file, JSON.stringify(totals));
    },
  };
}

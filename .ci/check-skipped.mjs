// Fails the CI run when a required test was skipped or a required suite did not run.
// Usage: node .ci/check-skipped.mjs <vitest json report>
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// The only suites allowed to skip: live cloud tests that need a vendor key.
const allowedSkip = [/E2B live/i];
// Suites that must have run with at least one passing test.
const required = [
  /sandbox-adapters\/test\/local\//,
  /sandbox-adapters\/test\/docker\//,
  /sandbox-adapters\/test\/e2b\//,
  /runtime\/test\/.*mcp/,
  /runtime\/test\/eval\//,
  /runtime\/test\/cli\/eval-example/,
  /runtime\/test\/example-dataset\//,
  /sandbox-adapters\/test\/optional-peer\//,
  /examples\/test\//,
];

const problems = [];
for (const file of report.testResults) {
  for (const test of file.assertionResults) {
    if (['skipped', 'pending', 'todo', 'disabled'].includes(test.status)) {
      const name = `${file.name} › ${test.fullName}`;
      if (!allowedSkip.some((re) => re.test(name))) problems.push(`skipped: ${name}`);
    }
  }
}
for (const pattern of required) {
  const ran = report.testResults.some(
    (file) => pattern.test(file.name) && file.assertionResults.some((t) => t.status === 'passed'),
  );
  if (!ran) problems.push(`required suite did not run: ${pattern}`);
}
if (report.numFailedTests > 0 || report.success === false)
  problems.push(`${report.numFailedTests} failed tests`);
if (problems.length > 0) {
  console.error(`CI check failed:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`CI check: ${report.numPassedTests} passed, ${report.numPendingTests} skipped (allowed)`);

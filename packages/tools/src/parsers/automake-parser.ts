/**
 * The Automake parallel test harness (`make check`; jq): `PASS: tests/jqtest`, `FAIL:`, `SKIP:`,
 * `XFAIL:` (expected failure: skipped), `XPASS:` (unexpected pass: failed), `ERROR:` (a hard
 * error: `error`). The official SWE-bench v4.1.0 `parse_log_jq` reads the PASS/FAIL lines. Counts
 * from the `Testsuite summary` block (`# TOTAL: 3`, `# PASS: 2`, `# SKIP:`, `# XFAIL:`, `# FAIL:`,
 * `# XPASS:`, `# ERROR:`; failed = FAIL + XPASS + ERROR, skipped = SKIP + XFAIL).
 * @module
 */
import { isCutCopy } from './cut-copy.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const result = /^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): (\S.*)$/;
const count = /^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):\s+(\d+)$/;

/** Parses automake test-harness output. Pure; never throws. */
export function parseAutomake(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const counts = new Map<string, number>();
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    const summary = count.exec(line);
    if (summary) {
      counts.set(summary[1] as string, Number(summary[2]));
      continue;
    }
    const match = result.exec(line);
    if (!match || isCutCopy(lines, index)) continue;
    const name = match[2] as string; // TAP-driven names (`tests/x.test 3 - title`) kept whole
    const kind = match[1] as string;
    if (kind === 'PASS') collector.add(name, 'passed');
    else if (kind === 'SKIP') collector.add(name, 'skipped');
    else if (kind === 'XFAIL') collector.add(name, 'skipped', { outcome: 'xfailed' });
    else if (kind === 'XPASS') {
      collector.add(name, 'failed', { outcome: 'xpassed' });
      collector.fail(name, 'XPASS: passed but was expected to fail');
    } else if (kind === 'ERROR') {
      collector.add(name, 'error');
      collector.fail(name, 'ERROR: the test could not run (hard error)');
    } else {
      collector.add(name, 'failed');
      collector.fail(name, `FAIL (see ${name.split(' ')[0]}.log)`);
    }
  }
  if (counts.has('PASS') && counts.has('FAIL')) {
    const failed = (counts.get('FAIL') ?? 0) + (counts.get('XPASS') ?? 0) + (counts.get('ERROR') ?? 0);
    collector.counts = {
      passed: counts.get('PASS'),
      failed,
      skipped: (counts.get('SKIP') ?? 0) + (counts.get('XFAIL') ?? 0),
      ...(counts.has('TOTAL') ? { total: counts.get('TOTAL') } : {}),
    };
  }
  return collector.finish('automake');
}

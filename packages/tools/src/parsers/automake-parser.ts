/**
 * The Automake parallel test harness (`make check`; jq): `PASS: tests/jqtest`, `FAIL:`, `SKIP:`,
 * `XFAIL:` (expected failure: skipped), `XPASS:` (unexpected pass: failed), `ERROR:` (a hard
 * error: `error`). The official SWE-bench v4.1.0 `parse_log_jq` reads the PASS/FAIL lines. A
 * TAP-driven test (`tap-driver.sh`) prints one line per TAP result, `PASS: tests/x.tap 3 -
 * title`, named by all of it but the directive (`# SKIP …`, `# TODO …`). A failure's message
 * names its log by Automake's default rule (`tests/x` and `tests/x.test` log to `tests/x.log`,
 * `tests/x.sh` to `tests/x.sh.log`); a TAP result's, test-suite.log. Counts
 * from the `Testsuite summary` block (`# TOTAL: 3`, `# PASS: 2`, `# SKIP:`, `# XFAIL:`, `# FAIL:`,
 * `# XPASS:`, `# ERROR:`; failed = FAIL + XPASS + ERROR, skipped = SKIP + XFAIL).
 * @module
 */
import { isCutCopy } from './cut-copy.js';
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const result = /^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): (\S.*)$/;
// `(?<!\s)`: tried from the first space of a run only (linear on a long run of spaces).
const directive = /(?<!\s)\s+#\s*(?:SKIP|TODO)\b.*$/i;
const tapResult = /^\S+ \d+(?:\s|$)/;
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
    const name = (match[2] as string).replace(directive, '');
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
      collector.fail(name, `FAIL (see ${logOf(name)})`);
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

/** Where the harness logged `name`: Automake's default, `.test` replaced by `.log`, else `.log` added. */
function logOf(name: string): string {
  return tapResult.test(name) ? 'test-suite.log' : `${name.replace(/\.test$/, '')}.log`;
}

/**
 * Cucumber `--format progress` output (jekyll). Per scenario, the official SWE-bench v4.1.0
 * `parse_log_cucumber` reads `name ....F` lines (jekyll's own progress formatter); stock
 * cucumber's progress format prints only step marks, so its failures are named from `Failing
 * Scenarios:` (`cucumber features/x.feature:5 # Scenario: adding badly` → `features/x.feature:5`
 * … named `Scenario: adding badly`). Counts from `N scenarios (1 failed, 1 undefined, 1 passed)`
 * (undefined and pending are skipped; failed as printed).
 * @module
 */
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const dotted = /^(.*\S) \.+([.F])$/;
const failing = /^cucumber (\S+) # (.+)$/;
const scenarios = /^(\d+) scenarios? \((.*)\)$/;
const noScenarios = /^0 scenarios$/;

/** Parses cucumber progress output. Pure; never throws. */
export function parseCucumber(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let failedStep = '';
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    const total = scenarios.exec(line);
    if (total) {
      const words = readCountWords(total[2] as string);
      const failed = words.get('failed') ?? 0;
      const skipped =
        (words.get('undefined') ?? 0) + (words.get('pending') ?? 0) + (words.get('skipped') ?? 0);
      collector.counts = { total: Number(total[1]), passed: words.get('passed') ?? 0, failed, skipped };
      continue;
    }
    if (noScenarios.test(line)) {
      collector.counts = { total: 0, passed: 0, failed: 0, skipped: 0 };
      continue;
    }
    if (line === '(::) failed steps (::)') {
      failedStep =
        lines
          .slice(index + 1, index + 4)
          .map((text) => text.trim())
          .find((text) => text !== '') ?? '';
      continue;
    }
    const scenario = failing.exec(line);
    if (scenario) {
      const name = scenario[2] as string;
      collector.add(name, 'failed');
      collector.fail(name, failedStep || (scenario[1] as string));
      continue;
    }
    const dots = dotted.exec(line);
    if (dots) collector.add(dots[1] as string, dots[2] === '.' ? 'passed' : 'failed');
  }
  return collector.finish('cucumber');
}

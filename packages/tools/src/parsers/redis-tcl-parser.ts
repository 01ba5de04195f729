/**
 * The Tcl test runner of redis and valkey (`./runtest --single unit/x`): `[ok]: name (1 ms)`,
 * `[err]: name in tests/unit/x.tcl` (the ` in file` dropped, as the official SWE-bench v4.1.0
 * `parse_log_redis` does), `[skip]:`/`[ignore]:` (skipped); when the log's `[ok]` lines end
 * with a duration, one without it was cut and is not counted, and `[exception]: …` (the test
 * client died: an `error` named by the unit the runner was in, its last `Testing unit/x` line
 * that no `[N/M done]: unit/x` line closed, else `exception`; tests that ran in the unit before
 * it keep their own results). The runner prints no counts, so none are given. The line after an
 * `[err]:` is its message.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const result = /^\[(ok|err|skip|ignore)\]:\s(.+?)(\s\(\d+\s*m?s\))?$/;
const exception = /^\[exception\]:\s*(.*)$/;
const testing = /^Testing (\S+)$/;
const done = /^\[\d+\/\d+ done\]: (\S+) \(/;

/** Parses redis/valkey runtest output. Pure; never throws. */
export function parseRedisTcl(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let current: string | undefined;
  // Recent runners end every [ok] line with its duration: then one without it was cut short.
  const timed = lines.some((line) => /^\s*\[ok\]:\s.*\s\(\d+\s*m?s\)\s*$/.test(line));
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim();
    const match = result.exec(line);
    if (match) {
      const kind = match[1] as string;
      if (kind === 'ok') {
        if (match[3] !== undefined || !timed) collector.add(match[2] as string, 'passed');
      } else if (kind === 'err') {
        const name = (match[2] as string).replace(/(?<!\s)\s+in\s+\S+$/, '');
        collector.add(name, 'failed');
        collector.fail(name, (lines[index + 1] as string | undefined)?.trim() ?? '');
      } else collector.add(match[2] as string, 'skipped');
      continue;
    }
    const died = exception.exec(line);
    if (died) {
      const name = current ?? 'exception';
      collector.add(name, 'error');
      collector.fail(
        name,
        `${died[1] as string} ${(lines[index + 1] as string | undefined)?.trim() ?? ''}`.trim(),
      );
      continue;
    }
    const running = testing.exec(line);
    if (running?.[1] !== undefined) current = running[1];
    else if (done.exec(line)?.[1] === current) current = undefined;
  }
  return collector.finish('redis-tcl');
}

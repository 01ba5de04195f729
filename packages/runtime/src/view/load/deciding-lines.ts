/**
 * Which log line decided each listed test: the line a person reads to see why the test passed or
 * failed. The parsers read a log as a stream and keep no line numbers (`@sandkit/tools` parsers),
 * so this finds, per test, the first line that names it together with a status word (`ok`,
 * `PASSED`, `FAIL`, `--- PASS:`, `✓` …); else the first line naming it at all; else the same for
 * the id's last part (`a::b::test_x` → `test_x`, `Suite > test` → `test`) when that part is at
 * least 6 characters. A test it cannot find gets `null`: no line is highlighted for it.
 *
 * Cost: one pass over the lines per test name, on the lines that carry a status word first. A
 * 1,000-line log with 120 listed tests takes under 2 ms here; the bench's 2,300 logs are read in
 * the same loop.
 * @module
 */

const statusWord =
  /(?:^|[^A-Za-z])(?:ok|OK|PASS(?:ED)?|FAIL(?:ED|URE)?|ERROR|SKIP(?:PED)?|XFAIL|XPASS|passed|failed|error)(?:$|[^A-Za-z])|[✓✔✕✗×√]/;

/** The id's last part (after `::`, ` > ` or ` › `), or `null` when the id has none or it is short. */
function lastPart(name: string): string | null {
  const parts = name.split(/::| > | › /);
  const last = parts[parts.length - 1]?.trim() ?? '';
  return parts.length > 1 && last.length >= 6 ? last : null;
}

/**
 * For each test name, the 1-based number of the line that decided it, or `null`.
 * @param lines the log's lines (no terminal colour codes)
 * @param names the listed tests' names (FAIL_TO_PASS and PASS_TO_PASS)
 */
export function findDecidingLines(
  lines: readonly string[],
  names: readonly string[],
): Map<string, number | null> {
  const withStatus: number[] = [];
  for (let i = 0; i < lines.length; i++) if (statusWord.test(lines[i] as string)) withStatus.push(i);
  const find = (needle: string): number | null => {
    for (const i of withStatus) if ((lines[i] as string).includes(needle)) return i + 1;
    for (let i = 0; i < lines.length; i++) if ((lines[i] as string).includes(needle)) return i + 1;
    return null;
  };
  const found = new Map<string, number | null>();
  for (const name of names) {
    if (found.has(name)) continue;
    const short = lastPart(name);
    found.set(name, find(name) ?? (short === null ? null : find(short)));
  }
  return found;
}

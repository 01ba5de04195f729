/**
 * Names tests that a parser kept apart by their owner (a go package, a cargo test binary): a name
 * that ran under two owners is qualified by its owner, a name only one owner has stays bare.
 * @module
 */
import type { ParsedTest, ParsedTestOutput, TestStatus } from './test-output-types.js';

const separator = '\u0000';
const rank: Record<TestStatus, number> = { skipped: 0, passed: 1, failed: 2, error: 3 };

/** The collector key of test `name` run under `owner` (`''`: no owner, the key is the name). */
export function ownerKey(owner: string, name: string): string {
  return owner === '' ? name : `${owner}${separator}${name}`;
}

/**
 * Renames the tests and failures of `parsed` (keyed by {@link ownerKey}) in place. `resolve` maps
 * a key's owner to the name printed for it, `undefined` when unknown (output cut before it): such
 * a test joins the last known owner of its name, so a copy is never a second test. Two keys that
 * end with one name merge, the worst status winning.
 */
export function nameByOwner(
  parsed: ParsedTestOutput,
  resolve: (owner: string) => string | undefined,
  qualify: (owner: string, name: string) => string,
): ParsedTestOutput {
  const split = (key: string): { owner: string | undefined; name: string } => {
    const at = key.indexOf(separator);
    return at < 0
      ? { owner: undefined, name: key }
      : { owner: resolve(key.slice(0, at)), name: key.slice(at + 1) };
  };
  const owners = new Map<string, Set<string>>();
  for (const test of parsed.tests) {
    const { owner, name } = split(test.name);
    if (owner === undefined) continue;
    const set = owners.get(name) ?? new Set<string>();
    set.add(owner);
    owners.set(name, set);
  }
  const rename = (key: string): string => {
    const { owner, name } = split(key);
    const set = owners.get(name);
    if (set === undefined || set.size < 2) return name;
    return qualify(owner ?? ([...set].at(-1) as string), name);
  };
  const tests = new Map<string, ParsedTest>();
  for (const test of parsed.tests) {
    const name = rename(test.name);
    const existing = tests.get(name);
    if (existing === undefined) tests.set(name, { ...test, name });
    else if (rank[test.status] > rank[existing.status]) tests.set(name, { ...test, name });
  }
  const failures = new Map<string, string>();
  for (const failure of parsed.failures) {
    const name = rename(failure.name);
    if (!failures.has(name) || failures.get(name) === '') failures.set(name, failure.message);
  }
  parsed.tests = [...tests.values()];
  parsed.failures = [...failures].map(([name, message]) => ({ name, message }));
  return parsed;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput, TestFramework } from '../../src/parsers/test-output-types.js';

// Issue 26 section 4: counts are the runner's own, never derived. Fixtures are real runner output
// made here (each one's first line names the command and version).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');
const parse = (name: string, framework: TestFramework): ParsedTestOutput =>
  parseTestOutput(fixture(name), { framework });
const counts = (parsed: ParsedTestOutput) => ({
  passed: parsed.passed,
  failed: parsed.failed,
  skipped: parsed.skipped,
  total: parsed.total,
});
const statuses = (parsed: ParsedTestOutput) =>
  Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]));

describe('parseCtest', () => {
  describe('when a test exits with its SKIP_RETURN_CODE', () => {
    it('counts it as skipped, not passed, although CTest’s percentage line counts it as passed', () => {
      const parsed = parse('ctest-skip-return-code.txt', 'ctest');
      expect(statuses(parsed)).toEqual({
        passes: 'passed',
        skips: 'skipped',
        fails: 'failed',
        disabled: 'skipped',
        needsfile: 'error',
      });
      expect(counts(parsed)).toEqual({ passed: 1, failed: 2, skipped: 2, total: 5 });
    });

    it('counts it as skipped when CTest prints 100% tests passed', () => {
      const parsed = parse('ctest-all-skips-pass.txt', 'ctest');
      expect(statuses(parsed)).toEqual({ passes: 'passed', skips: 'skipped' });
      expect(counts(parsed)).toEqual({ passed: 1, failed: 0, skipped: 1, total: 2 });
    });

    it('gives no passed count when the output was cut before CTest’s did-not-run list', () => {
      const text = fixture('ctest-all-skips-pass.txt');
      const cut = text.slice(0, text.indexOf('The following tests did not run:'));
      const parsed = parseTestOutput(cut, { framework: 'ctest' });
      expect(counts(parsed)).toEqual({ passed: undefined, failed: 0, skipped: undefined, total: 2 });
    });
  });
});

describe('parseTap on prove -v output', () => {
  const parsed = parse('prove-todo-subtest.txt', 'tap');

  it('is detected as TAP', () => {
    expect(parseTestOutput(fixture('prove-todo-subtest.txt')).framework).toBe('tap');
  });

  it('counts a not ok # TODO point as an expected failure, not a failure', () => {
    expect(statuses(parsed)['t/todo.t > expected failure']).toBe('skipped');
    expect(parsed.failures.map((failure) => failure.name)).toEqual([
      't/fail.t > really fails',
      't/fail.t > group > inner bad',
    ]);
    expect(parsed.failed).toBe(2);
  });

  it('takes the total from prove’s Tests= (top-level points), not from a subtest’s inner points', () => {
    expect(counts(parsed)).toEqual({ passed: undefined, failed: 2, skipped: undefined, total: 7 });
  });

  it('keeps tests of one name in two files apart, by file', () => {
    expect(statuses(parsed)).toEqual({
      't/fail.t > really fails': 'failed',
      't/fail.t > group > inner ok': 'passed',
      't/fail.t > group > inner bad': 'failed',
      't/fail.t > 3': 'skipped',
      't/todo.t > passes': 'passed',
      't/todo.t > expected failure': 'skipped',
      't/todo.t > unexpected pass': 'skipped',
      't/todo.t > group > inner one': 'passed',
      't/todo.t > group > inner two': 'passed',
    });
  });
});

describe('parseGoTest', () => {
  describe('when two packages each have a test of one name', () => {
    it.each(['go-same-name-v.txt', 'go-same-name-json.txt'])(
      '%s: keeps them two tests named by their package, and counts both',
      (name) => {
        const parsed = parse(name, 'go');
        expect(statuses(parsed)).toEqual({
          'example.com/m/a.TestX': 'passed',
          'example.com/m/b.TestX': 'failed',
        });
        expect(parsed.failures).toEqual([{ name: 'example.com/m/b.TestX', message: 'boom' }]);
        expect(counts(parsed)).toEqual({ passed: 1, failed: 1, skipped: 0, total: 2 });
      },
    );

    it('counts a package’s output printed twice once (a copy is not a second package)', () => {
      const lines = fixture('go-same-name-v.txt').split('\n');
      const packageA = lines.slice(1, 5); // === RUN … ok  example.com/m/a
      const parsed = parseTestOutput([...lines, ...packageA].join('\n'), { framework: 'go' });
      expect(statuses(parsed)).toEqual({
        'example.com/m/a.TestX': 'passed',
        'example.com/m/b.TestX': 'failed',
      });
      expect(counts(parsed)).toEqual({ passed: 1, failed: 1, skipped: 0, total: 2 });
    });
  });
});

describe('parseCargo', () => {
  describe('when two crates of a workspace each have a test of one name', () => {
    it('keeps them two tests named by their crate, and counts both', () => {
      const parsed = parse('cargo-workspace-same-name.txt', 'cargo');
      expect(statuses(parsed)).toEqual({
        'alpha tests::it_works': 'passed',
        'beta tests::it_works': 'failed',
      });
      expect(parsed.failures.map((failure) => failure.name)).toEqual(['beta tests::it_works']);
      expect(parsed.failures[0]?.message).toMatch(/panicked at beta\/src\/lib\.rs:4:21:.*boom/);
      expect(counts(parsed)).toEqual({ passed: 1, failed: 1, skipped: 0, total: 2 });
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { ParsedTestOutput, TestFramework } from '../../src/parsers/test-output-types.js';
import { testFrameworks } from '../../src/parsers/test-output-types.js';

const fixtures = join(import.meta.dirname, '../fixtures/runners');
const fixture = (name: string): string => readFileSync(join(fixtures, name), 'utf8');
const statusOf = (parsed: ParsedTestOutput, name: string) =>
  parsed.tests.find((test) => test.name === name)?.status;
const counts = (parsed: ParsedTestOutput) => ({
  passed: parsed.passed,
  failed: parsed.failed,
  skipped: parsed.skipped,
  total: parsed.total,
});

describe('parseTestOutput', () => {
  describe('when given real output of each runner (fixtures/runners, made by generate.sh)', () => {
    it.each<
      [
        string,
        TestFramework,
        Partial<{ passed: number; failed: number; skipped: number; total: number }> | undefined,
        Array<[string, string]>,
      ]
    >([
      [
        'jest-verbose.txt',
        'jest',
        { passed: 3, failed: 2, skipped: 2, total: 7 },
        [
          ['math › nested group › add(2, 2) = 5 [table]', 'failed'],
          ['math › adds two numbers', 'passed'],
          ['math › skipped case', 'skipped'],
        ],
      ],
      [
        'jest-default.txt',
        'jest',
        { passed: 3, failed: 2, skipped: 2, total: 7 },
        [['math › subtracts - badly', 'failed']],
      ],
      [
        'vitest-verbose.txt',
        'vitest',
        { passed: 3, failed: 2, skipped: 2, total: 7 },
        [
          ['math.test.js > math > nested group > add(1, 1) = 2 [table]', 'passed'],
          ['math.test.js > math > subtracts - badly', 'failed'],
          ['math.test.js > math > todo case', 'skipped'],
        ],
      ],
      [
        'vitest-default.txt',
        'vitest',
        { passed: 3, failed: 2, skipped: 2, total: 7 },
        [['math.test.js > math > nested group > add(2, 2) = 5 [table]', 'failed']],
      ],
      [
        'vitest-color.txt',
        'vitest',
        { passed: 3, failed: 2, skipped: 2, total: 7 },
        [['math.test.js > math > subtracts - badly', 'failed']],
      ],
      [
        'mocha-spec.txt',
        'mocha',
        { passed: 2, failed: 2, skipped: 2, total: 6 },
        [
          ['math nested group add(2, 2) = 5 [table]', 'failed'],
          ['math adds two numbers', 'passed'],
          ['math pending case', 'skipped'],
        ],
      ],
      [
        'node-test-spec.txt',
        'node',
        { passed: 3, failed: 2, skipped: 2, total: 7 },
        [
          ['math > nested group > add(2, 2) = 5 [table]', 'failed'],
          ['top level fine', 'passed'],
          ['math > skipped case', 'skipped'],
        ],
      ],
      [
        'node-test-tap.txt',
        'node',
        { passed: 3, failed: 2, skipped: 2, total: 7 },
        [
          ['math > subtracts - badly', 'failed'],
          ['math > nested group > add(1, 1) = 2 [table]', 'passed'],
          ['math > todo case', 'skipped'],
        ],
      ],
      [
        'pytest-ra.txt',
        'pytest',
        { passed: 6, failed: 3, skipped: 2, total: 11 },
        [
          ["tests/test_fmt.py::test_render[file-'str' object has no attribute-q]", 'passed'],
          ['tests/test_fmt.py::test_render[x [1] - y-brackets]', 'failed'],
          ['tests/test_fmt.py::TestOuter::TestInner::test_deep', 'failed'],
          ['tests/test_fmt.py::test_error', 'error'],
        ],
      ],
      [
        'pytest-verbose.txt',
        'pytest',
        { passed: 6, failed: 3, skipped: 2, total: 11 },
        [
          ['tests/test_fmt.py::test_render[a b-expected 2]', 'passed'],
          ['tests/test_fmt.py::test_skipped', 'skipped'],
          ['tests/test_nested.py::test_inner_session', 'passed'],
        ],
      ],
      [
        'pytest-quiet.txt',
        'pytest',
        { passed: 5, failed: 3, skipped: 2, total: 10 },
        [
          ['tests/test_fmt.py::test_render[x [1] - y-brackets]', 'failed'],
          ['tests/test_fmt.py::TestOuter::TestInner::test_deep', 'failed'],
          ['tests/test_fmt.py::test_error', 'error'],
        ],
      ],
      ['pytest-quiet-pass.txt', 'pytest', { passed: 1, failed: 0, skipped: 0, total: 1 }, []],
      [
        'pytest-color.txt',
        'pytest',
        { passed: 5, failed: 3, skipped: 2, total: 10 },
        [
          ['tests/test_fmt.py::test_render[x [1] - y-brackets]', 'failed'],
          ['tests/test_fmt.py::TestOuter::test_shallow', 'passed'],
        ],
      ],
      [
        'cargo-test.txt',
        'cargo',
        { passed: 5, failed: 2, skipped: 1, total: 8 },
        [
          ['src/lib.rs - twice (line 10)', 'failed'],
          ['src/lib.rs - add (line 3)', 'passed'],
          ['tests::nested::deep', 'passed'],
          ['tests::slow', 'skipped'],
        ],
      ],
      [
        'go-test-v.txt',
        'go',
        { passed: 2, failed: 2, skipped: 1, total: 5 },
        [
          ['TestTable/two_plus_two_-_wrong', 'failed'],
          ['TestTable/one_plus_one', 'passed'],
          ['TestSkipped', 'skipped'],
        ],
      ],
      [
        'go-test-json.txt',
        'go',
        { passed: 2, failed: 2, skipped: 1, total: 5 },
        [
          ['TestTable/two_plus_two_-_wrong', 'failed'],
          ['TestAdd', 'passed'],
        ],
      ],
      // Plain go lists every failure and no pass (issue 11, E01): failed only.
      ['go-test.txt', 'go', { failed: 2 }, [['TestTable/two_plus_two_-_wrong', 'failed']]],
      [
        'unittest-verbose.txt',
        'unittest',
        { passed: 2, failed: 2, skipped: 2, total: 6 },
        [
          ['test_documented (test_calc.CalcTests.test_documented)', 'passed'],
          ['test_error (test_calc.CalcTests.test_error)', 'error'],
          ['test_skip (test_calc.CalcTests.test_skip)', 'skipped'],
        ],
      ],
      [
        'django-verbose.txt',
        'django',
        { passed: 2, failed: 2, skipped: 1, total: 5 },
        [
          ['test_discount (shop.tests.PriceTests.test_discount)', 'failed'],
          ['test_user (shop.tests.DbTests.test_user)', 'passed'],
          ['test_payment (shop.tests.PriceTests.test_payment)', 'skipped'],
        ],
      ],
      [
        'sympy-verbose.txt',
        'sympy',
        { passed: 1, failed: 2, skipped: 2, total: 5 },
        [
          ['test_wrong', 'failed'],
          ['test_raises', 'error'],
          ['test_expand', 'passed'],
          ['test_skipped', 'skipped'],
        ],
      ],
      ['sympy-default.txt', 'sympy', { passed: 1, failed: 2, skipped: 2, total: 5 }, []],
    ])(
      '%s: detected as %s, with the summary counts and whole test names',
      (file, framework, expected, tests) => {
        const parsed = parseTestOutput(fixture(file));
        expect(parsed.framework).toBe(framework);
        if (expected === undefined)
          expect(counts(parsed)).toEqual({
            passed: undefined,
            failed: undefined,
            skipped: undefined,
            total: undefined,
          });
        else expect(counts(parsed)).toEqual(expected);
        for (const [name, status] of tests) expect(statusOf(parsed, name), name).toBe(status);
        expect(parseTestOutput(fixture(file), { framework })).toEqual(parsed);
      },
    );

    it.each([
      [
        'jest-verbose.txt',
        'math › subtracts - badly',
        'expect(received).toBe(expected) // Object.is equality',
      ],
      [
        'vitest-verbose.txt',
        'math.test.js > math > subtracts - badly',
        'AssertionError: expected 1 to be 3 // Object.is equality',
      ],
      [
        'mocha-spec.txt',
        'math subtracts - badly',
        'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      ],
      ['node-test-tap.txt', 'math > subtracts - badly', 'Expected values to be strictly equal:'],
      ['pytest-ra.txt', 'tests/test_fmt.py::test_error', 'RuntimeError: fixture - broke'],
      ['pytest-verbose.txt', 'tests/test_fmt.py::TestOuter::TestInner::test_deep', 'assert (1 + 1) == 3'],
      [
        'cargo-test.txt',
        'tests::fails',
        'panicked at src/lib.rs:21:18: assertion `left == right` failed: 1 + 1 - is not 3',
      ],
      ['go-test-json.txt', 'TestTable/two_plus_two_-_wrong', 'Add(2, 2) = 4, want 5'],
      ['unittest-verbose.txt', 'test_sub (test_calc.CalcTests.test_sub)', 'AssertionError: 1 != 3'],
      ['django-verbose.txt', 'test_error (shop.tests.DbTests.test_error)', 'ValueError: broken fixture'],
      ['sympy-default.txt', 'test_raises', 'ValueError: bad input'],
    ])('%s: gives %s its first error line', (file, name, message) => {
      const parsed = parseTestOutput(fixture(file));
      expect(parsed.failures).toContainEqual({ name, message: expect.stringContaining(message) });
    });

    it('pytest: ignores the tests and summary of a session nested in captured output (pytester), the outer summary wins', () => {
      const parsed = parseTestOutput(fixture('pytest-ra.txt'));
      expect(parsed.tests.some((test) => test.name.startsWith('test_inner_session.py::'))).toBe(false);
      expect(parsed.total).toBe(11);
    });

    it('unittest/Django: keeps the docstring printed in place of the name as the description', () => {
      const parsed = parseTestOutput(fixture('django-verbose.txt'));
      expect(
        parsed.tests.find((test) => test.name === 'test_discount (shop.tests.PriceTests.test_discount)')
          ?.description,
      ).toBe('Discounts never go below zero.');
    });
  });

  describe('B01: pytest parametrised ids with spaces, brackets and " - "', () => {
    const input = [
      'tests/test_fmt.py::test_render[a b-expected 1] PASSED                    [ 50%]',
      'tests/test_fmt.py::test_render[a b-expected 2] FAILED                    [100%]',
      '=========================== short test summary info ============================',
      'PASSED tests/test_fmt.py::test_render[a b-expected 1]',
      'FAILED tests/test_fmt.py::test_render[a b-expected 2] - AssertionError: 3 != 4',
    ].join('\n');

    it('B01: keeps two whole ids, the summary and verbose lines mapping to the same key', () => {
      const parsed = parseTestOutput(input, { framework: 'pytest' });
      expect(parsed.tests).toEqual([
        { name: 'tests/test_fmt.py::test_render[a b-expected 1]', status: 'passed' },
        { name: 'tests/test_fmt.py::test_render[a b-expected 2]', status: 'failed' },
      ]);
      expect(parsed.failures).toEqual([
        { name: 'tests/test_fmt.py::test_render[a b-expected 2]', message: 'AssertionError: 3 != 4' },
      ]);
      expect(parseTestOutput(input).framework).toBe('pytest');
    });

    it.each([
      ["t.py::test_x[file-'str' object has no attribute]", 'FAILED'],
      ['t.py::test_x[x [1] - y]', 'PASSED'],
      ['t.py::test_x[a] - b]', 'FAILED'],
      ['t.py::test_x[[nested] [list]]', 'ERROR'],
      ['t.py::Test::test_y[PASSED - FAILED]', 'PASSED'],
      ['t.py::test_z[ leading space]', 'FAILED'],
    ])('B01: keeps %s whole in both the verbose and the -rA forms', (id, word) => {
      const status = word === 'PASSED' ? 'passed' : word === 'FAILED' ? 'failed' : 'error';
      const verboseLine = `${id} ${word}  [100%]`;
      const summaryLine = `${word} ${id} - Error: x - y [1]`;
      expect(parseTestOutput(verboseLine, { framework: 'pytest' }).tests).toEqual([{ name: id, status }]);
      const both = parseTestOutput(`${verboseLine}\n${summaryLine}`, { framework: 'pytest' });
      expect(both.tests).toEqual([{ name: id, status }]);
      if (status !== 'passed') expect(both.failures).toEqual([{ name: id, message: 'Error: x - y [1]' }]);
      // Alone, a summary line is ambiguous only when a parameter holds an unbalanced "] - ".
      if (!id.includes('] - b]'))
        expect(parseTestOutput(summaryLine, { framework: 'pytest' }).tests).toEqual([{ name: id, status }]);
    });
  });

  describe('B03: vitest Tests line', () => {
    it('B03: reads each count whatever the order, ignoring the Test Files line', () => {
      const parsed = parseTestOutput(
        ' Test Files  1 failed | 3 passed (4)\n      Tests  7 passed | 1 failed | 2 skipped | 1 todo (11)\n',
      );
      expect(parsed.framework).toBe('vitest');
      expect(counts(parsed)).toEqual({ passed: 7, failed: 1, skipped: 3, total: 11 });
    });

    // Issue 11: with no failed test, the failed files of the Test Files line failed outside any
    // test (a file that did not load, a hook): each counts as a failure, never failed = 0.
    it.each([
      ['      Tests  1 failed | 7 passed (8)', { passed: 7, failed: 1, skipped: 0, total: 8 }],
      ['      Tests  2 skipped | 7 passed (9)', { passed: 7, failed: 9, skipped: 2, total: 18 }],
      ['      Tests  12 passed (12)', { passed: 12, failed: 9, skipped: 0, total: 21 }],
    ])('B03: %s', (line, expected) => {
      expect(
        counts(parseTestOutput(` Test Files  9 failed | 9 passed (18)\n${line}\n`, { framework: 'vitest' })),
      ).toEqual(expected);
    });
  });

  describe('B04: ANSI escape sequences', () => {
    it('B04: strips CSI colours before reading the vitest summary and pytest verbose lines', () => {
      const vitest = parseTestOutput(
        '\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[32m12 passed\x1b[39m\x1b[22m\x1b[90m (12)\x1b[39m\n',
      );
      expect(vitest).toMatchObject({ framework: 'vitest', passed: 12, failed: 0, total: 12 });
      const pytest = parseTestOutput(
        'tests/test_a.py::test_one \x1b[32mPASSED\x1b[0m\x1b[32m                      [100%]\x1b[0m\n',
        {
          framework: 'pytest',
        },
      );
      expect(pytest.tests).toEqual([{ name: 'tests/test_a.py::test_one', status: 'passed' }]);
    });

    it('B04: strips OSC hyperlinks and titles too', () => {
      const text =
        '\x1b]0;title\x07\x1b]8;;file:///x\x07tests/t.py::test_a\x1b]8;;\x07 \x1b[31mFAILED\x1b[0m [100%]\n\x1b[31m==== 1 failed in 0.1s ====\x1b[0m\n';
      const parsed = parseTestOutput(text);
      expect(parsed).toMatchObject({
        framework: 'pytest',
        failed: 1,
        total: 1,
        tests: [{ name: 'tests/t.py::test_a', status: 'failed' }],
      });
    });

    it('B04: reads the real coloured fixtures like the plain ones', () => {
      expect(fixture('vitest-color.txt')).toContain('\x1b[');
      expect(fixture('pytest-color.txt')).toContain('\x1b[');
      expect(counts(parseTestOutput(fixture('vitest-color.txt')))).toEqual(
        counts(parseTestOutput(fixture('vitest-default.txt'))),
      );
    });
  });

  describe('B06: cargo test with several binaries', () => {
    const input = [
      '     Running unittests src/lib.rs (target/debug/deps/mylib-0f1e2d)',
      'running 3 tests',
      'test tests::a ... ok',
      'test tests::b ... ok',
      'test tests::c ... ignored',
      'test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      '',
      '     Running tests/api.rs (target/debug/deps/api-9a8b7c)',
      'running 2 tests',
      'test get_ok ... ok',
      'test post_ok ... ok',
      'test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
      '',
      '   Doc-tests mylib',
      'running 1 test',
      'test src/lib.rs - add (line 3) ... ok',
      'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.12s',
    ].join('\n');

    it('B06: sums every test result line and reads 0 failed as zero', () => {
      const parsed = parseTestOutput(input);
      expect(parsed.framework).toBe('cargo');
      expect(counts(parsed)).toEqual({ passed: 5, failed: 0, skipped: 1, total: 6 });
      expect(parsed.failures).toEqual([]);
      expect(statusOf(parsed, 'src/lib.rs - add (line 3)')).toBe('passed');
      expect(parsed.tests.filter((test) => test.status === 'passed')).toHaveLength(5);
    });
  });

  describe('when nothing is recognised', () => {
    it('returns unknown with no counts, never zeros', () => {
      const parsed = parseTestOutput('make: *** [all] Error 2\nsegmentation fault\n');
      expect(parsed).toEqual({ framework: 'unknown', tests: [], failures: [] });
    });

    it('omits counts when the runner printed no summary (a run cut short)', () => {
      const parsed = parseTestOutput('tests/t.py::test_a PASSED [ 50%]\n', { framework: 'pytest' });
      expect(counts(parsed)).toEqual({
        passed: undefined,
        failed: undefined,
        skipped: undefined,
        total: undefined,
      });
    });
  });

  describe('properties', () => {
    const fragments = [
      ...[
        'pytest-ra.txt',
        'cargo-test.txt',
        'vitest-verbose.txt',
        'jest-verbose.txt',
        'go-test-json.txt',
        'django-verbose.txt',
        'sympy-verbose.txt',
        'node-test-tap.txt',
        'mocha-spec.txt',
      ].flatMap((file) => fixture(file).split('\n').slice(0, 60)),
      'test result: FAILED. 1 passed; 2 failed; 0 ignored',
      '      Tests  3 passed | 1 failed (4)',
      '=== 1 failed, 2 passed in 0.1s ===',
      'Ran 3 tests in 0.1s',
      'FAILED (failures=1, errors=2)',
      '\x1b[31m',
      '[',
      ']',
      ' - ',
    ];
    const line = fc.oneof(
      fc.constantFrom(...fragments),
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
    );
    const text = fc.array(line, { maxLength: 40 }).map((lines) => lines.join('\n'));
    const framework = fc.option(fc.constantFrom(...testFrameworks), { nil: undefined });

    it('never throws, and never reports negative, fractional or invented counts', () => {
      fc.assert(
        fc.property(text, framework, (input, chosen) => {
          const parsed = parseTestOutput(input, chosen ? { framework: chosen } : {});
          const numbers = [...input.matchAll(/\d+/g)].reduce((sum, match) => sum + Number(match[0]), 0);
          for (const key of ['passed', 'failed', 'skipped', 'total'] as const) {
            const value = parsed[key];
            if (value === undefined) continue;
            expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
            // Counts come from numbers printed in the text, or (go -v/-json) from listed results.
            expect(value).toBeLessThanOrEqual(parsed.framework === 'go' ? parsed.tests.length : numbers);
          }
          const names = parsed.tests.map((test) => test.name);
          expect(new Set(names).size).toBe(names.length);
          expect(names.every((name) => name.length > 0)).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  });
});

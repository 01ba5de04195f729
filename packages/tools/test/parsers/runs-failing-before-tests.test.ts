import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { TestFramework, TestStatus } from '../../src/parsers/test-output-types.js';

// Issue 26 section 4, "runs that fail before any test", for every runner: a file that does not
// load or compile, a setup that throws before its tests start, a test path that is not there.
// Such a run is never green (no failure and failed 0) and never "no tests": an entry names what
// broke and says why. Every fixture is real output of the runner, made by
// fixtures/runners/generate-before-tests.sh, most beside a file that passes (a parser reading only
// that part reports green). The kinds issue 11 covered (pytest collection errors, unittest and
// Django import errors, jest/vitest/node/mocha load errors, go and cargo build errors of one
// package among others) are in failure-kinds.test.ts.
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');

type Entry = [name: string, status: TestStatus, message: string | RegExp];
interface Row {
  fixture: string;
  framework: TestFramework;
  /** Whether detection finds the runner; when not (a bare compiler or Ruby error), it is given. */
  detected: boolean;
  kind: string;
  entries: Entry[];
  /** The runner's own counts, when it prints them. */
  counts?: { passed?: number; failed: number; skipped?: number; total?: number };
}

const rows: Row[] = [
  {
    fixture: 'minitest-before-tests.txt',
    framework: 'minitest',
    detected: false,
    kind: 'a test file whose require fails (LoadError, no minitest output at all)',
    entries: [
      [
        '/tmp/suite/mt/test/test_broken.rb',
        'error',
        'cannot load such file -- /tmp/suite/mt/test/missing_helper (LoadError)',
      ],
    ],
  },
  {
    fixture: 'minitest-setup-error.txt',
    framework: 'minitest',
    detected: true,
    kind: 'a setup that raises',
    entries: [['TestDb#test_reads', 'error', 'IOError: database unavailable']],
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
  },
  {
    fixture: 'test-unit-before-tests.txt',
    framework: 'test-unit',
    detected: true,
    kind: 'a class whose self.startup raises (its tests print no mark; test-unit says "100% passed")',
    entries: [['TestDb', 'error', 'IOError: database unavailable']],
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
  },
  {
    fixture: 'rspec-before-context.txt',
    framework: 'rspec',
    detected: true,
    kind: 'a before(:context) hook that raises',
    entries: [
      ['Db reads a row', 'failed', 'IOError: database unavailable'],
      ['Db writes a row', 'failed', 'IOError: database unavailable'],
    ],
    counts: { passed: 1, failed: 2, skipped: 0, total: 3 },
  },
  {
    fixture: 'rspec-json-before-context.txt',
    framework: 'rspec-json',
    detected: true,
    kind: 'a before(:context) hook that raises (--format json)',
    entries: [['Db reads a row', 'failed', 'database unavailable']],
    counts: { passed: 1, failed: 2, skipped: 0, total: 3 },
  },
  {
    fixture: 'prove-before-tests.txt',
    framework: 'tap',
    detected: true,
    kind: 'prove: a script that dies at compile time (a missing module), no TAP at all',
    entries: [['t/broken.t', 'error', 'Non-zero exit status: 2; Parse errors: No plan found in TAP output']],
    counts: { failed: 1, total: 1 },
  },
  {
    fixture: 'prove-before-tests-verbose.txt',
    framework: 'tap',
    detected: true,
    kind: 'prove -v: the same, and the passing file keeps its own name',
    entries: [
      ['t/broken.t', 'error', 'Non-zero exit status: 2; Parse errors: No plan found in TAP output'],
      ['t/ok.t > fine', 'passed', ''],
    ],
    counts: { failed: 1, total: 1 },
  },
  {
    fixture: 'prove-died-midway.txt',
    framework: 'tap',
    detected: true,
    kind: 'prove: a script that dies after 1 of its 3 planned points',
    entries: [
      [
        't/broken.t',
        'error',
        'Non-zero exit status: 255; Parse errors: Bad plan.  You planned 3 tests but ran 1.',
      ],
    ],
    counts: { failed: 1, total: 2 },
  },
  {
    fixture: 'catch2-compile-error.txt',
    framework: 'catch2',
    detected: false,
    kind: 'g++ && ./tests: the test file does not compile, no binary runs',
    entries: [
      [
        'tests.cpp',
        'error',
        'tests.cpp:3:37: error: ‘add’ was not declared in this scope; did you mean ‘fadd’?',
      ],
    ],
  },
  {
    fixture: 'junit-xml-catch2-compile-error.txt',
    framework: 'junit-xml',
    detected: false,
    kind: 'g++ && ./tests -r junit: no report, only the compiler errors',
    entries: [
      [
        'tests.cpp',
        'error',
        'tests.cpp:3:37: error: ‘add’ was not declared in this scope; did you mean ‘fadd’?',
      ],
      ['junit-xml', 'error', /^no JUnit XML document in the output: the runner wrote no report/],
    ],
  },
  {
    fixture: 'ctest-build-failed.txt',
    framework: 'ctest',
    detected: true,
    kind: 'ctest after a build in which one test target did not compile',
    entries: [['broken', 'error', 'Unable to find executable: /tmp/suite/cpp/build/broken_test']],
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
  },
  {
    fixture: 'junit-xml-ctest-not-run.txt',
    framework: 'junit-xml',
    detected: true,
    kind: 'ctest --output-junit: the same (ctest writes it as status="notrun" with a <skipped>)',
    entries: [['broken', 'error', 'Unable to find executable: /tmp/suite/cpp/build/broken_test']],
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
  },
  {
    fixture: 'ctest-not-run-kinds.txt',
    framework: 'ctest',
    detected: true,
    kind: 'ctest: two skips, a DISABLED test and a missing REQUIRED_FILES',
    entries: [
      ['needsfile', 'error', 'Unable to find required file: /nonexistent'],
      ['skips', 'skipped', ''],
      ['skipregex', 'skipped', ''],
      ['disabled', 'skipped', ''],
    ],
    counts: { passed: 1, failed: 2, skipped: 3, total: 6 },
  },
  {
    fixture: 'junit-xml-ctest-not-run-kinds.txt',
    framework: 'junit-xml',
    detected: true,
    kind: 'ctest --output-junit of the same run: the counts agree with its console',
    entries: [
      ['needsfile', 'error', 'Unable to find required file: /nonexistent'],
      ['skips', 'skipped', ''],
      ['skipregex', 'skipped', ''],
      ['disabled', 'skipped', ''],
    ],
    counts: { passed: 1, failed: 2, skipped: 3, total: 6 },
  },
  ...(['tree', 'flat'] as const).map(
    (details): Row => ({
      fixture: `junit5-before-all-${details}.txt`,
      framework: 'junit5',
      detected: true,
      kind: `JUnit 5 console (--details=${details}): a @BeforeAll that throws, its tests never start`,
      entries: [['JUnit Jupiter:DbTest', 'failed', 'java.lang.IllegalStateException: database unavailable']],
      counts: { passed: 1, failed: 1, skipped: 0, total: 3 },
    }),
  ),
  {
    fixture: 'junit5-class-not-found.txt',
    framework: 'junit5',
    detected: true,
    kind: 'JUnit 5 console: --select-class of a class that does not exist (usage and an exception)',
    entries: [
      [
        'junit5',
        'error',
        "org.junit.platform.commons.JUnitException: TestEngine with ID 'junit-platform-suite' failed to discover tests (caused by java.lang.ClassNotFoundException: com.example.Missing)",
      ],
    ],
  },
  {
    fixture: 'junit-xml-junit5-before-all.txt',
    framework: 'junit-xml',
    detected: true,
    kind: 'JUnit 5 --reports-dir: the same @BeforeAll',
    entries: [['com.example.DbTest.readsARow()', 'error', 'database unavailable']],
    counts: { passed: 1, failed: 2, skipped: 0, total: 3 },
  },
  {
    fixture: 'maven-before-all.txt',
    framework: 'maven',
    detected: true,
    kind: 'mvn test (Surefire 2.22): the same @BeforeAll',
    entries: [['com.example.DbTest', 'error', 'java.lang.IllegalStateException: database unavailable']],
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
  },
  {
    fixture: 'junit-xml-surefire-before-all.txt',
    framework: 'junit-xml',
    detected: true,
    kind: 'Surefire TEST-*.xml: the same @BeforeAll',
    entries: [['com.example.DbTest', 'error', 'database unavailable']],
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
  },
  {
    fixture: 'phpunit-before-class.txt',
    framework: 'phpunit',
    detected: true,
    kind: 'PHPUnit: setUpBeforeClass throws',
    entries: [['DbTest::testReadsARow', 'error', /^RuntimeException: database unavailable/]],
    counts: { passed: 1, failed: 1, skipped: 1, total: 3 },
  },
  {
    fixture: 'phpunit-testdox-before-class.txt',
    framework: 'phpunit',
    detected: true,
    kind: 'PHPUnit --testdox: setUpBeforeClass throws',
    entries: [['Db > Reads a row', 'failed', 'RuntimeException: database unavailable']],
    counts: { passed: 1, failed: 1, skipped: 1, total: 3 },
  },
  {
    fixture: 'phpunit-missing-bootstrap.txt',
    framework: 'phpunit',
    detected: true,
    kind: 'PHPUnit: a --bootstrap file that is not there',
    entries: [['missing/bootstrap.php', 'error', 'Cannot open file "missing/bootstrap.php".']],
  },
  {
    fixture: 'phpunit-missing-test-file.txt',
    framework: 'phpunit',
    detected: true,
    kind: 'PHPUnit: a test file that is not there',
    entries: [['tests/MissingTest.php', 'error', 'Cannot open file "tests/MissingTest.php".']],
  },
  {
    fixture: 'phpunit-missing-config.txt',
    framework: 'phpunit',
    detected: false,
    kind: 'PHPUnit: a --configuration it cannot read',
    entries: [['missing.xml', 'error', 'Could not read "missing.xml".']],
  },
  {
    fixture: 'junit-xml-phpunit-before-class.txt',
    framework: 'junit-xml',
    detected: true,
    kind: 'phpunit --log-junit: setUpBeforeClass throws',
    entries: [['DbTest::testReadsARow', 'error', 'DbTest::testReadsARow']],
    counts: { passed: 1, failed: 1, skipped: 1, total: 3 },
  },
  {
    fixture: 'junit-xml-node-load-error.txt',
    framework: 'junit-xml',
    detected: true,
    kind: 'node --test --test-reporter=junit: a file that does not load',
    entries: [['/tmp/suite/nd/broken.test.mjs', 'failed', 'test failed']],
    counts: { passed: 1, failed: 1, skipped: 0, total: 2 },
  },
  {
    fixture: 'pytest-conftest-error.txt',
    framework: 'pytest',
    detected: true,
    kind: 'pytest: a conftest.py that does not import (exit 4, no summary line)',
    entries: [
      ['/tmp/suite/py/tests/conftest.py', 'error', "ModuleNotFoundError: No module named 'missing_plugin'"],
    ],
  },
  {
    fixture: 'pytest-path-not-found.txt',
    framework: 'pytest',
    detected: true,
    kind: 'pytest: a test file that is not there ("no tests ran", exit 4)',
    entries: [['tests/test_gone.py', 'error', 'file or directory not found: tests/test_gone.py']],
    // pytest's own summary: "no tests ran"
    counts: { passed: 0, failed: 0, skipped: 0, total: 0 },
  },
  {
    fixture: 'pytest-node-id-not-found.txt',
    framework: 'pytest',
    detected: true,
    kind: 'pytest: a node id that names no test',
    entries: [
      [
        '/tmp/suite/py/tests/test_ok.py::test_gone',
        'error',
        'not found: /tmp/suite/py/tests/test_ok.py::test_gone',
      ],
    ],
    counts: { passed: 0, failed: 0, skipped: 0, total: 0 },
  },
  {
    fixture: 'junit-xml-pytest-collect-error.txt',
    framework: 'junit-xml',
    detected: true,
    kind: 'pytest --junitxml: a test module that does not import',
    entries: [['pytest > tests.test_broken', 'error', 'collection failure']],
    counts: { passed: 0, failed: 1, skipped: 0, total: 1 },
  },
  {
    fixture: 'unittest-module-not-found.txt',
    framework: 'unittest',
    detected: true,
    kind: 'unittest: a module name that does not exist',
    entries: [
      [
        'test_gone (unittest.loader._FailedTest.test_gone)',
        'error',
        "ModuleNotFoundError: No module named 'tests.test_gone'",
      ],
    ],
    counts: { passed: 0, failed: 1, skipped: 0, total: 1 },
  },
  {
    fixture: 'cargo-lib-compile-error.txt',
    framework: 'cargo',
    detected: true,
    kind: 'cargo test: the library itself does not compile',
    entries: [
      ['tiny (lib test)', 'error', 'error: could not compile `tiny` (lib test) due to 1 previous error'],
    ],
  },
  ...(['', '-json'] as const).map(
    (json): Row => ({
      fixture: `go-only-package-build-failed${json}.txt`,
      framework: 'go',
      detected: true,
      kind: `go test${json === '' ? '' : ' -json'}: the only package's test file does not compile`,
      entries: [['example.com/tiny', 'error', './tiny_test.go:6:18: undefined: want']],
      counts: { failed: 1 },
    }),
  ),
  {
    fixture: 'vitest-no-test-files.txt',
    framework: 'vitest',
    detected: true,
    kind: 'vitest run of a test file that is not there (exit 1)',
    entries: [['missing.test.js', 'error', 'No test files found, exiting with code 1']],
  },
  {
    fixture: 'jest-no-tests-found.txt',
    framework: 'jest',
    detected: false,
    kind: 'jest of a test file that is not there (exit 1)',
    entries: [['missing.test.js', 'error', 'No tests found, exiting with code 1']],
  },
  {
    fixture: 'node-test-file-not-found.txt',
    framework: 'node',
    detected: false,
    kind: 'node --test of a file that is not there (exit 1)',
    entries: [['/tmp/suite/np/missing.test.mjs', 'error', "Could not find '/tmp/suite/np/missing.test.mjs'"]],
  },
  {
    fixture: 'go-pattern-not-found.txt',
    framework: 'go',
    detected: false,
    kind: 'go test of a package directory that is not there',
    entries: [
      ['./missing/...', 'error', 'pattern ./missing/...: lstat ./missing/: no such file or directory'],
    ],
    counts: { failed: 1 },
  },
];

describe('runs that fail before any test, per runner (issue 26 section 4)', () => {
  it.each(rows)('$fixture ($framework): $kind', (row) => {
    const text = fixture(row.fixture);
    const parsed = parseTestOutput(text, { framework: row.framework });
    if (row.detected) expect(parseTestOutput(text)).toEqual(parsed);
    expect(parsed.framework).toBe(row.framework);
    // Never green: something failed, and it is named.
    expect(parsed.failures.length).toBeGreaterThan(0);
    for (const [name, status, message] of row.entries) {
      expect(parsed.tests.find((test) => test.name === name)?.status, name).toBe(status);
      if (status !== 'failed' && status !== 'error') continue;
      const failure = parsed.failures.find((entry) => entry.name === name);
      expect(failure?.message, name).toEqual(
        typeof message === 'string' ? message : expect.stringMatching(message),
      );
    }
    const counts = {
      passed: parsed.passed,
      failed: parsed.failed,
      skipped: parsed.skipped,
      total: parsed.total,
    };
    expect(counts).toEqual({
      passed: undefined,
      failed: undefined,
      skipped: undefined,
      total: undefined,
      ...row.counts,
    });
  });
});

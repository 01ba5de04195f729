import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTestOutput } from '../../src/parsers/parse-test-output.js';
import type { TestFramework, TestStatus } from '../../src/parsers/test-output-types.js';

// Issue 11, the kinds: for every runner, in its plain and machine-readable forms, a file, suite or
// package that fails to load, compile, collect or set up, and a failing hook, is a failure or an
// error with a name and a message, never failed = 0; a test that was running when its process
// died is named. Every fixture is real runner output (fixtures/runners/generate.sh).
const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/runners', name), 'utf8');

type Entry = [name: string, status: TestStatus, message: string | RegExp];
type Row = [fixture: string, framework: TestFramework, kinds: string, entries: Entry[]];

const unittestNames = (long: boolean, owner: string, test: string): string =>
  long ? `${test} (${owner}.${test})` : `${test} (${owner})`;
const unittestRows: Row[] = (['38', '39', '310', '311', '312', '313'] as const).map((version) => {
  const long = Number(version) >= 311;
  return [
    `unittest-py${version}-kinds.txt`,
    'unittest',
    'module import error, setUpClass, setUpModule, failed subtest',
    [
      [
        unittestNames(long, 'unittest.loader._FailedTest', 'test_broken'),
        'error',
        "ModuleNotFoundError: No module named 'missing_module'",
      ],
      ['setUpClass (test_n.Setup)', 'error', 'RuntimeError: setUpClass broke'],
      ['setUpModule (test_mod)', 'error', 'OSError: setUpModule broke'],
      [unittestNames(long, 'test_n.T', 'test_a_sub'), 'failed', 'AssertionError: 1 == 1'],
    ],
  ];
});
const djangoRows: Row[] = (['39', '310', '311', '312'] as const).map((version) => {
  const long = Number(version) >= 311;
  return [
    `django-py${version}-kinds.txt`,
    'django',
    'module import error, setUpTestData, failed subtest',
    [
      [
        unittestNames(long, 'unittest.loader._FailedTest', 'tests_broken'),
        'error',
        "ModuleNotFoundError: No module named 'missing_module'",
      ],
      ['setUpClass (shop.tests.DataTests)', 'error', 'RuntimeError: setUpTestData broke'],
      [unittestNames(long, 'shop.tests.PriceTests', 'test_a_sub'), 'failed', 'AssertionError: 1 == 1'],
    ],
  ];
});
const goEntries = (verbose: boolean): Entry[] => [
  ['example.com/m/b', 'error', 'b/b_test.go:5:32: undefined: missing'],
  ['example.com/m/c', 'error', /^c\/c_test.go:6:2: no required module provides package/],
  verbose
    ? ['TestPanics', 'failed', 'panic: assignment to entry in nil map']
    : ['example.com/m/gp', 'failed', 'panic: assignment to entry in nil map'],
  ['TestOwnPanic', 'failed', /^panic: runtime error: index out of range \[3\] with length 0/],
  ['example.com/m/tm', 'failed', 'database unavailable: connection refused'],
];
const pytestKinds: Entry[] = [
  ['test_broken.py', 'error', "ModuleNotFoundError: No module named 'missing_module'"],
  ['test_hooks.py::test_needs_module', 'error', 'RuntimeError: setup_module broke'],
  ['test_teardown.py::test_with_teardown', 'error', 'OSError: teardown broke'],
];
const jsHook = 'cannot connect to db';

const rows: Row[] = [
  ['pytest-collect-error.txt', 'pytest', 'collection error (run interrupted)', [pytestKinds[0] as Entry]],
  [
    'pytest-collect-error-rN.txt',
    'pytest',
    'collection error, no short summary (-rN)',
    [pytestKinds[0] as Entry],
  ],
  [
    'pytest-kinds-verbose.txt',
    'pytest',
    'collection error, setup_module hook, fixture teardown (-v)',
    pytestKinds,
  ],
  [
    'pytest-kinds-xdist.txt',
    'pytest',
    'collection error, setup_module hook, fixture teardown (-v -n 2)',
    pytestKinds,
  ],
  [
    'pytest-xdist-crash.txt',
    'pytest',
    'xdist worker crash (-v)',
    [['test_crash.py::test_dies', 'failed', "worker 'gw1' crashed while running 'test_crash.py::test_dies'"]],
  ],
  [
    'pytest-xdist-crash-plain.txt',
    'pytest',
    'xdist worker crash (no -v, -rN)',
    [['test_crash.py::test_dies', 'failed', "worker 'gw1' crashed while running 'test_crash.py::test_dies'"]],
  ],
  ...unittestRows,
  ...djangoRows,
  [
    'sympy-import-error.txt',
    'sympy',
    'test file import error',
    [['sympy/polys/tests/test_broken.py', 'error', "ModuleNotFoundError: No module named 'missing_module'"]],
  ],
  [
    'sympy-import-error-verbose.txt',
    'sympy',
    'test file import error (-v)',
    [['sympy/polys/tests/test_broken.py', 'error', "ModuleNotFoundError: No module named 'missing_module'"]],
  ],
  [
    'jest-kinds.txt',
    'jest',
    'suite fails to load, beforeAll hook',
    [
      ['src/broken.test.js', 'error', "Cannot find module './missing' from 'src/broken.test.js'"],
      ['db › reads a row', 'failed', jsHook],
    ],
  ],
  [
    'jest-kinds-verbose.txt',
    'jest',
    'suite fails to load, beforeAll hook (--verbose)',
    [
      ['src/broken.test.js', 'error', "Cannot find module './missing' from 'src/broken.test.js'"],
      ['db › reads a row', 'failed', jsHook],
    ],
  ],
  [
    'jest-worker-killed.txt',
    'jest',
    'worker killed by SIGKILL',
    [
      [
        './a.test.js',
        'error',
        /^A jest worker process \(pid=\d+\) was terminated by another process: signal=SIGKILL/,
      ],
    ],
  ],
  [
    'vitest-kinds-default.txt',
    'vitest',
    'file fails to load, beforeAll hook (default reporter)',
    [
      [
        'src/broken.test.js',
        'error',
        "Error: Cannot find module './missing.js' imported from /tmp/suite/vk/src/broken.test.js",
      ],
      ['src/hook.test.js > db', 'failed', `Error: ${jsHook}`],
    ],
  ],
  [
    'vitest-kinds-verbose.txt',
    'vitest',
    'file fails to load, beforeAll hook (verbose reporter)',
    [
      [
        'src/broken.test.js',
        'error',
        "Error: Cannot find module './missing.js' imported from /tmp/suite/vk/src/broken.test.js",
      ],
      ['src/hook.test.js > db', 'failed', `Error: ${jsHook}`],
    ],
  ],
  [
    'vitest-unhandled.txt',
    'vitest',
    'error thrown outside any test (unhandled)',
    [['unhandled errors', 'error', 'Error: late failure outside the test']],
  ],
  [
    'node-kinds-spec.txt',
    'node',
    'file fails to load, before hook (spec reporter)',
    [
      [
        '/tmp/suite/nk/broken.test.mjs',
        'failed',
        /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '\/tmp\/suite\/nk\/missing.mjs'/,
      ],
      ['db', 'failed', `Error: ${jsHook}`],
    ],
  ],
  [
    'node-kinds-tap.txt',
    'node',
    'file fails to load, before hook (TAP reporter)',
    [
      [
        '/tmp/suite/nk/broken.test.mjs',
        'failed',
        /^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '\/tmp\/suite\/nk\/missing.mjs'/,
      ],
      ['db', 'failed', jsHook],
    ],
  ],
  [
    'go-kinds.txt',
    'go',
    'build failed, setup failed, goroutine panic, own panic, TestMain exit (plain)',
    goEntries(false),
  ],
  [
    'go-kinds-v.txt',
    'go',
    'build failed, setup failed, goroutine panic, own panic, TestMain exit (-v)',
    goEntries(true),
  ],
  [
    'go-kinds-json.txt',
    'go',
    'build failed, setup failed, goroutine panic, own panic, TestMain exit (-json)',
    goEntries(true),
  ],
  [
    'cargo-build-error.txt',
    'cargo',
    'integration test does not compile',
    [
      [
        'crashy (test "broken")',
        'error',
        'error[E0425]: cannot find function `missing` in crate `crashy` at tests/broken.rs:2:40',
      ],
    ],
  ],
  [
    'cargo-double-panic.txt',
    'cargo',
    'panic while panicking aborts the binary',
    [
      [
        'tests::double_panic',
        'failed',
        /^panicked at src\/lib.rs:14:9: first panic \(the test binary then died: signal: 6, SIGABRT/,
      ],
    ],
  ],
];

describe('failures outside tests and crashed tests, per runner (issue 11 kinds)', () => {
  it.each(rows)('%s (%s): %s', (file, framework, _kinds, entries) => {
    const text = fixture(file);
    const parsed = parseTestOutput(text);
    expect(parsed.framework).toBe(framework);
    expect(parseTestOutput(text, { framework })).toEqual(parsed);
    expect(parsed.failed).not.toBe(0);
    for (const [name, status, message] of entries) {
      expect(parsed.tests.find((test) => test.name === name)?.status, name).toBe(status);
      const failure = parsed.failures.find((entry) => entry.name === name);
      expect(failure?.message, name).toEqual(
        typeof message === 'string' ? message : expect.stringMatching(message),
      );
    }
  });

  it('mocha: a spec file that fails to load (no summary) and a failing "before all" hook both count', () => {
    const load = parseTestOutput(fixture('mocha-load-error.txt'));
    expect(load.framework).toBe('mocha');
    expect(load.failures).toEqual([
      { name: '/tmp/suite/mk/broken.spec.js', message: "Error: Cannot find module './missing'" },
    ]);
    const hook = parseTestOutput(fixture('mocha-hook.txt'));
    expect(hook).toMatchObject({ passed: 1, failed: 1 });
    expect(hook.failures).toEqual([
      { name: 'db "before all" hook for "reads a row"', message: `Error: ${jsHook}` },
    ]);
  });

  it('cargo nextest: a test killed by a signal or aborted by a double panic is failed and named, a compile error counts, counts from Summary', () => {
    // nextest cannot be installed here (no crates registry): the lines have the shapes nextest's
    // reporter prints (its recorded snapshots, e.g. integration__record_replay__replay_output_not_captured.snap).
    const run = [
      '    Starting 4 tests across 2 binaries (1 test skipped)',
      '        PASS [   0.004s] (1/4) crashy tests::fine',
      '        FAIL [   0.006s] (2/4) crashy tests::fails',
      '--- STDERR:              crashy tests::fails ---',
      "thread 'tests::fails' panicked at src/lib.rs:21:18:",
      'assertion `left == right` failed',
      '     SIGABRT [   0.010s] (3/4) crashy tests::double_panic',
      '     SIGSEGV [   0.012s] (4/4) crashy::segfault segfaults',
      '────────────',
      '     Summary [   0.020s] 4 tests run: 1 passed, 3 failed, 1 skipped',
      '        FAIL [   0.006s] (2/4) crashy tests::fails',
      '     SIGABRT [   0.010s] (3/4) crashy tests::double_panic',
      '     SIGSEGV [   0.012s] (4/4) crashy::segfault segfaults',
      'error: test run failed',
    ].join('\n');
    const parsed = parseTestOutput(run);
    expect(parsed.framework).toBe('cargo');
    expect(parsed).toMatchObject({ passed: 1, failed: 3, skipped: 1, total: 5 });
    expect(Object.fromEntries(parsed.tests.map((test) => [test.name, test.status]))).toEqual({
      'tests::fine': 'passed',
      'tests::fails': 'failed',
      'tests::double_panic': 'failed',
      segfaults: 'failed',
    });
    expect(parsed.failures).toEqual([
      { name: 'tests::double_panic', message: 'killed by a signal (SIGABRT)' },
      { name: 'segfaults', message: 'killed by a signal (SIGSEGV)' },
      { name: 'tests::fails', message: 'panicked at src/lib.rs:21:18: assertion `left == right` failed' },
    ]);
    // A target that does not compile stops nextest before any test runs: cargo's own lines.
    const build = fixture('cargo-build-error.txt').split('\n').slice(0, 12).join('\n');
    const broken = parseTestOutput(
      `${build}\nerror: command \`cargo test --no-run --message-format json-render-diagnostics\` exited with code 101\n`,
    );
    expect(broken.failures).toEqual([
      {
        name: 'crashy (test "broken")',
        message: 'error[E0425]: cannot find function `missing` in crate `crashy` at tests/broken.rs:2:40',
      },
    ]);
  });

  it('go 1.24+ -json: a build failure reported as build-output / FailedBuild events is an error with the compiler line', () => {
    // Event shapes as go's own script test cmd/go/testdata/script/test_json_build.txt expects them
    // (go 1.24, GODEBUG=gotestjsonbuildtext=0); the go here is 1.19, which prints build errors as text.
    const input = [
      '{"ImportPath":"m/builderror [m/builderror.test]","Action":"build-output","Output":"# m/builderror [m/builderror.test]\\n"}',
      '{"ImportPath":"m/builderror [m/builderror.test]","Action":"build-output","Output":"builderror/main_test.go:3:11: undefined: y\\n"}',
      '{"ImportPath":"m/builderror [m/builderror.test]","Action":"build-fail"}',
      '{"Time":"2024-11-17T07:00:51Z","Action":"start","Package":"m/builderror"}',
      '{"Time":"2024-11-17T07:00:51Z","Action":"output","Package":"m/builderror","Output":"FAIL\\tm/builderror [build failed]\\n"}',
      '{"Time":"2024-11-17T07:00:51Z","Action":"fail","Package":"m/builderror","Elapsed":0,"FailedBuild":"m/builderror [m/builderror.test]"}',
    ].join('\n');
    const parsed = parseTestOutput(input, { framework: 'go' });
    expect(parsed.tests).toEqual([{ name: 'm/builderror', status: 'error' }]);
    expect(parsed.failures).toEqual([
      { name: 'm/builderror', message: 'builderror/main_test.go:3:11: undefined: y' },
    ]);
    expect(parsed.failed).toBe(1);
  });
});

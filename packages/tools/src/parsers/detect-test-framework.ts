/**
 * Recognises which runner printed some output, from signatures near its start and end (so a
 * 50 MB log is not scanned once per runner).
 * @module
 */
import { junitXmlSignature } from './junit-xml-parser.js';
import { junit5ConsoleSignature } from './junit5-console-parser.js';
import { rspecJsonSignature } from './rspec-json-parser.js';
import type { TestFramework } from './test-output-types.js';

const sampleBytes = 256 * 1024;

/** Ordered: the first runner whose signature matches wins. */
const signatures: ReadonlyArray<[TestFramework, RegExp]> = [
  ['jest-json', /^\{"num(?:Failed|Total)TestSuites":\d+|^\[(?:PASSED|FAILED|PENDING)\] \S/m],
  ['doctest-xml', /^<doctest binary=/m],
  ['junit-xml', junitXmlSignature],
  ['rspec-json', rspecJsonSignature],
  ['junit5', junit5ConsoleSignature],
  // The launcher's usage, printed with its exception when discovery failed (nothing ran).
  ['junit5', /^Usage: ConsoleLauncher \[OPTIONS\]$/m],
  [
    'catch2',
    /^test cases:\s+\d+ \||^All tests passed \(\d+ assertions? in \d+ test cases?\)$|^(?:Passed|Failed) (?:all )?\d+ test cases?\b|<testcase classname="[^"]*" name="[^"]*" time="[\d.]+" status="run"/m,
  ],
  [
    'ctest',
    /^\s*\d+\/\d+ Test\s+#\d+: |^\[==========\] Running \d+ tests? from |^\d+% tests passed, \d+ tests? failed out of \d+$/m,
  ],
  [
    'phpunit',
    /^PHPUnit \d+\.\d+|^(?:PHP )?Fatal error: {1,2}Uncaught \w+|^Tests: \d+, Assertions: \d+|^OK \(\d+ tests?, \d+ assertions?\)$/m,
  ],
  [
    'maven',
    /^\[INFO\] (?:Scanning for projects|BUILD (?:SUCCESS|FAILURE)|Building )|^\[(?:INFO|ERROR)\] Tests run: \d+, Failures: \d+/m,
  ],
  ['ant-junit', /^\s*\[junit\] |^Buildfile: \S+\.xml$/m],
  ['gradle', /^> Task :|^BUILD (?:SUCCESSFUL|FAILED) in |^\d+ tests? completed, \d+ failed/m],
  ['karma', /Starting browser|^TOTAL: (?:\d+ FAILED, )?\d+ SUCCESS$|\) Executed \d+ of \d+/m],
  ['jasmine', /^\d+ specs?, \d+ failures?/m],
  ['rspec', /^\d+ examples?, \d+ failures?/m],
  ['test-unit', /^\d+ tests, \d+ assertions, \d+ failures, \d+ errors, \d+ pendings/m],
  [
    'minitest',
    /^\d+ runs, \d+ assertions, \d+ failures, \d+ errors, \d+ skips$|^\S+#\S+ = [\d.]+ s = [.FES]$/m,
  ],
  ['cucumber', /^\d+ scenarios? \(|^\d+ steps? \(/m],
  ['redis-tcl', /^\[(?:ok|err|skip|ignore|exception)\]: /m],
  ['automake', /^Testsuite summary for |^# TOTAL: \d+$/m],
  ['micropython', /^\d+ tests performed \(\d+ individual testcases\)$|^(?:pass|FAIL|skip) {2}\S+\.py ?$/m],
  ['tap', /^(?:not )?ok \d+ [^-\s#]|^Bail out!|^Files=\d+, Tests=\d+, .* wallclock secs /m], // prove's summary line
  ['go', /^\{"Time":"[^"]*","Action":"/m],
  [
    'cargo',
    /^test result: (?:ok|FAILED)\. \d+ passed|^error: could not compile `[^`]+` \((?:lib )?test|^\s+Running (?:unittests )?\S+ \(\S*target\/\S+\)$|^\s+(?:Summary \[\s*[\d.]+s\] \d+ tests? run:|Starting \d+ tests? across \d+ binar)/m,
  ],
  [
    'pytest',
    /^=+ (?:test session starts|(?!tests finished: ).*\b(?:passed|failed|errors?|no tests ran)\b.* in [\d.]+(?:s| seconds)(?: \([^)]*\))?) =+$/m,
  ],
  // A conftest.py that does not import: pytest exits 4 before its session header.
  ['pytest', /^ImportError while loading conftest '.+'\.$/m],
  // -q: its progress lines (`..F.s                [ 40%]`); the summary then has no border.
  ['pytest', /^[.FEsxX]+ +\[ *\d+%\]$/m],
  [
    'pytest',
    /^\S+\.py::\S.* (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b|^(?:PASSED|FAILED|ERROR|XFAIL|XPASS) \S+\.py::/m,
  ],
  ['sympy', /tests finished: \d+ passed|^=+ test process starts =+$/m],
  ['vitest', /^\s*Test Files\s+\d+ |^\s*Tests\s+\d+ \w+.*\(\d+\)\s*$|^ RUN {1,2}v\d/m],
  ['jest', /^Tests:\s+.*\d+ total|^(?:PASS|FAIL) \S+\.(?:[jt]sx?|mjs|cjs)\b/m],
  ['mocha', /^\s+\d+ passing \(\d|^ ?Exception during run: /m],
  ['node', /^(?:#|ℹ) tests \d+$|^TAP version 1[34]$/m],
  [
    'django',
    /^(?:System check identified|Creating test database for alias|Testing against Django installed in)/m,
  ],
  ['unittest', /^Ran \d+ tests? in [\d.]+s$|^\w+ \([\w.]+\) \.\.\. (?:ok|FAIL|ERROR)$/m],
  ['go', /^(?:ok|FAIL|---)\s+\S+|^=== RUN\s/m],
  ['rspec', /^.+ - (?:\.\/\S+ - )?(?:passed|failed|pending)$/m],
  ['automake', /^(?:PASS|FAIL|XFAIL|XPASS|SKIP|ERROR): [\w.+-]*\/?[\w.+-]+(?: \d+ .*)?$/m],
];

/** The runner that printed `text` (ANSI already stripped), or `undefined`. Pure; never throws. */
export function detectTestFramework(text: string): TestFramework | undefined {
  const sample =
    text.length <= 2 * sampleBytes
      ? text
      : `${text.slice(0, sampleBytes)}\n${text.slice(text.length - sampleBytes)}`;
  for (const [framework, signature] of signatures) {
    if (framework === 'go' && signature.source.startsWith('^(?:ok')) {
      if (
        /^--- (?:PASS|FAIL|SKIP): /m.test(sample) ||
        /^(?:ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\)|\[)/m.test(sample)
      )
        return 'go';
      continue;
    }
    if (signature.test(sample)) return framework;
  }
  return undefined;
}

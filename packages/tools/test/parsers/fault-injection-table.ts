/**
 * The table the parser fault-injection property runs over: one row per real runner fixture
 * (`../fixtures/runners`, made by generate.sh). A new parser joins the property by adding a row
 * for each of its fixtures; see NOTE-11.md.
 * @module
 */
import type { TestFramework } from '../../src/parsers/test-output-types.js';

/** One fixture of one runner. */
export interface FaultInjectionRow {
  /** The parser to use (also what detection must find in the intact fixture). */
  framework: TestFramework;
  /** File name under `test/fixtures/runners/`. */
  fixture: string;
  /** Passed tests the intact log holds: its summary's passes, or the passed tests it lists when it has no summary. */
  passes: number;
  /**
   * Passes printed anywhere in the log when that is more than `passes`: a session nested in
   * captured output (pytester) prints its own, which a damaged log can no longer tell apart.
   */
  passesPrinted?: number;
  /**
   * Matches the runner's own whole summary line when it says something failed (anchored), or
   * `undefined` for a runner that prints none. While such a line survives, failed is never 0.
   */
  saysFailed: RegExp | undefined;
}

/** The runners' own "something failed" summary lines. */
export const says: Partial<Record<TestFramework, RegExp>> = {
  pytest: /^=+ .*\b[1-9]\d* (?:failed|errors?)\b.* in [\d.]+s(?: \([^)]*\))? =+$/,
  unittest: /^FAILED \(.*\b(?:failures|errors)=[1-9]\d*.*\)$/,
  django: /^FAILED \(.*\b(?:failures|errors)=[1-9]\d*.*\)$/,
  // One line, or the first of two when the runner wraps it (it then ends with ", ").
  sympy: /^=*\s*tests finished: .*\b[1-9]\d* (?:failed|exceptions)\b.*(?: in [\d.]+ seconds =*\s*|, ?)$/,
  jest: /^(?:Tests|Test Suites):\s+.*\b[1-9]\d* failed\b.*\d+ total$/,
  vitest: /^\s*(?:Tests|Test Files)\s+.*\b[1-9]\d* failed\b.*\(\d+\)$|^\s*Errors\s+[1-9]\d* errors?$/,
  mocha: /^\s+[1-9]\d* failing$|^ ?Exception during run: \w*Error\b.*$/,
  node: /^(?:#|ℹ) (?:fail|cancelled) [1-9]\d*$/,
  cargo:
    /^test result: FAILED\. \d+ passed; [1-9]\d* failed;.*finished in [\d.]+s$|^error: could not compile `[^`]+`.* due to \d+ previous errors?$|^\s*process didn't exit successfully: .*\(signal: \d+, SIG\w+: [^)]*\)$/,
  go: /^FAIL\t\S+(?:\t[\d.]+s| \[(?:build|setup) failed\])$|^\{"Time":"[^"]+","Action":"fail","Package":"[^"]+","Elapsed":[\d.]+\}$/,
};

/** Every real fixture of the parsers, with what its intact log holds. */
export const faultInjectionTable: readonly FaultInjectionRow[] = [
  { framework: 'cargo', fixture: 'cargo-build-error.txt', passes: 0, saysFailed: says.cargo },
  { framework: 'cargo', fixture: 'cargo-double-panic.txt', passes: 1, saysFailed: says.cargo },
  { framework: 'cargo', fixture: 'cargo-test.txt', passes: 5, saysFailed: says.cargo },
  { framework: 'django', fixture: 'django-py310-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-py311-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-py312-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-py39-kinds.txt', passes: 1, saysFailed: says.django },
  { framework: 'django', fixture: 'django-verbose.txt', passes: 2, saysFailed: says.django },
  { framework: 'go', fixture: 'go-kinds-json.txt', passes: 3, saysFailed: says.go },
  { framework: 'go', fixture: 'go-kinds-v.txt', passes: 3, saysFailed: says.go },
  { framework: 'go', fixture: 'go-kinds.txt', passes: 0, saysFailed: says.go },
  { framework: 'go', fixture: 'go-test-json.txt', passes: 2, saysFailed: says.go },
  { framework: 'go', fixture: 'go-test-v.txt', passes: 2, saysFailed: says.go },
  { framework: 'go', fixture: 'go-test.txt', passes: 0, saysFailed: says.go },
  { framework: 'jest', fixture: 'jest-default.txt', passes: 3, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-kinds-verbose.txt', passes: 1, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-kinds.txt', passes: 1, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-verbose.txt', passes: 3, saysFailed: says.jest },
  { framework: 'jest', fixture: 'jest-worker-killed.txt', passes: 2, saysFailed: says.jest },
  { framework: 'mocha', fixture: 'mocha-hook.txt', passes: 1, saysFailed: says.mocha },
  { framework: 'mocha', fixture: 'mocha-load-error.txt', passes: 0, saysFailed: says.mocha },
  { framework: 'mocha', fixture: 'mocha-spec.txt', passes: 2, saysFailed: says.mocha },
  { framework: 'node', fixture: 'node-kinds-spec.txt', passes: 1, saysFailed: says.node },
  { framework: 'node', fixture: 'node-kinds-tap.txt', passes: 1, saysFailed: says.node },
  { framework: 'node', fixture: 'node-test-spec.txt', passes: 3, saysFailed: says.node },
  { framework: 'node', fixture: 'node-test-tap.txt', passes: 3, saysFailed: says.node },
  { framework: 'pytest', fixture: 'pytest-collect-error-rN.txt', passes: 0, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-collect-error.txt', passes: 0, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-color.txt', passes: 5, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-kinds-verbose.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-kinds-xdist.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-ra.txt', passes: 6, passesPrinted: 7, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose-classic.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose-count.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose-progress.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-verbose.txt', passes: 6, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-classic.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-count.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-crash-plain.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-crash.txt', passes: 2, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-plain.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'pytest', fixture: 'pytest-xdist-progress.txt', passes: 1, saysFailed: says.pytest },
  { framework: 'sympy', fixture: 'sympy-default.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'sympy', fixture: 'sympy-import-error-verbose.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'sympy', fixture: 'sympy-import-error.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'sympy', fixture: 'sympy-verbose.txt', passes: 1, saysFailed: says.sympy },
  { framework: 'unittest', fixture: 'unittest-py310-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py311-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py312-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py313-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py38-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-py39-kinds.txt', passes: 3, saysFailed: says.unittest },
  { framework: 'unittest', fixture: 'unittest-verbose.txt', passes: 2, saysFailed: says.unittest },
  { framework: 'vitest', fixture: 'vitest-color.txt', passes: 3, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-default.txt', passes: 3, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-kinds-default.txt', passes: 1, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-unhandled.txt', passes: 2, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-kinds-verbose.txt', passes: 1, saysFailed: says.vitest },
  { framework: 'vitest', fixture: 'vitest-verbose.txt', passes: 3, saysFailed: says.vitest },
];

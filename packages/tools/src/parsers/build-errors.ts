/**
 * A C/C++ build that failed before any test binary ran: the suite of a compiled runner (Catch2,
 * doctest, a JUnit report written by a binary that was never built) then prints only the
 * compiler's and linker's diagnostics. They are read in GCC's and Clang's one-line form
 * (`file:line:col: error: message`, `file:line: error: …`, `fatal error:`), and the linker's
 * (`/usr/bin/ld: …: undefined reference to …`, `collect2: error: ld returned 1 exit status`,
 * `clang: error: linker command failed …`), each file once with its first error.
 * @module
 */
import type { ParsedTestOutput } from './test-output-types.js';

const compilerError = /^(\S[^:]*?):(\d+)(?::(\d+))?: (?:fatal )?error: (.+)$/;
const linkerError = /^(?:\S*\/)?(?:ld|ld\.lld|ld\.gold|lld)(?:: .*?)?: (.*undefined reference to .*)$/;
const linkerFailed =
  /^(?:collect2|clang(?:\+\+)?|g\+\+|c\+\+): error: (.*(?:ld returned|linker command failed).*)$/;

/**
 * When `parsed` holds nothing from the runner (no test, no failure, no counts) and `lines` hold
 * compiler or linker errors: `parsed` with an `error` per file named by it (`tests.cpp`, or `ld`
 * for the link), its first error line as the message. Otherwise `parsed` unchanged. Pure.
 */
export function withBuildErrors(parsed: ParsedTestOutput, lines: readonly string[]): ParsedTestOutput {
  if (parsed.tests.length > 0 || parsed.failures.length > 0 || parsed.total !== undefined) return parsed;
  if (parsed.passed !== undefined || parsed.failed !== undefined) return parsed;
  const found = new Map<string, string>();
  for (const raw of lines) {
    const line = raw.trimEnd();
    const compiled = compilerError.exec(line);
    if (compiled) {
      const file = compiled[1] as string;
      if (!found.has(file)) found.set(file, line);
      continue;
    }
    const linked = linkerError.exec(line) ?? linkerFailed.exec(line);
    if (linked && !found.has('ld')) found.set('ld', line);
  }
  if (found.size === 0) return parsed;
  const entries = [...found];
  return {
    ...parsed,
    tests: entries.map(([name]) => ({ name, status: 'error' as const })),
    failures: entries.map(([name, message]) => ({ name, message })),
  };
}

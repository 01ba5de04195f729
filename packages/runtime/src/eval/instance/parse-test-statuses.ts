/**
 * Test output → SWE-bench status map, through the run_tests parsers of `@sandkit/tools`.
 * ANSI escape sequences (CSI and OSC) are stripped first, so coloured output grades the same as
 * plain output (B04).
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { getTestStatusMap, parseTestOutput, type TestFramework, testFrameworks } from '@sandkit/tools';
import { type TestStatus, toTestStatus } from './grade.js';

const ansi = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Removes CSI and OSC escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ansi, '');
}

/**
 * Parses `output` with the parser named `framework` into test id → status, ids kept whole.
 * @throws SandkitError `invalid_option` when this build of `@sandkit/tools` has no such parser.
 */
export function parseTestStatuses(output: string, framework: string): Map<string, TestStatus> {
  if (!(testFrameworks as readonly string[]).includes(framework))
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `no "${framework}" parser in this build of @sandkit/tools (known: ${testFrameworks.join(', ')})`,
    });
  const parsed = parseTestOutput(stripAnsi(output), { framework: framework as TestFramework });
  return new Map(Object.entries(getTestStatusMap(parsed)).map(([id, status]) => [id, toTestStatus(status)]));
}

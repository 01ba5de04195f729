/**
 * Test output → SWE-bench status map, through the run_tests parsers of `@sandkit/tools`.
 * ANSI escape sequences (CSI and OSC) are stripped first, so coloured output grades the same as
 * plain output (B04).
 * @module
 */
import { getTestStatusMap, parseTestOutput } from '@sandkit/tools';
import type { TestFramework } from '../load/swe-bench-instance.js';
import { type TestStatus, toTestStatus } from './grade.js';

const ansi = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Removes CSI and OSC escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(ansi, '');
}

/** Parses `output` with `framework`'s parser into test id → status, ids kept whole. */
export function parseTestStatuses(output: string, framework: TestFramework): Map<string, TestStatus> {
  const parsed = parseTestOutput(stripAnsi(output), { framework });
  return new Map(Object.entries(getTestStatusMap(parsed)).map(([id, status]) => [id, toTestStatus(status)]));
}

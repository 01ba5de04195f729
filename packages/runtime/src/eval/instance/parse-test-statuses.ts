/**
 * Test output → SWE-bench status map, through the run_tests parsers of `@sandkit/tools`.
 * ANSI escape sequences (CSI and OSC) are stripped first, so coloured output grades the same as
 * plain output (B04). Only the parsers are imported (`@sandkit/tools/parsers`), so a grading worker
 * thread loads no tools.
 * @module
 */
import {
  getTestStatuses,
  type ParsedTestOutput,
  parsePytestPieces,
  parseTestOutput,
  type TestFramework,
  testFrameworks,
} from '@sandkit/tools/parsers';
import { type TestStatus, toTestStatus } from './grade.js';

const ansi = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Removes CSI and OSC escape sequences (the text itself when it holds no ESC). */
export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ansi, '') : text;
}

/** Whether this build of `@sandkit/tools` has a parser named `name`. */
export function isTestFramework(name: string): name is TestFramework {
  return (testFrameworks as readonly string[]).includes(name);
}

/** Parses `output` with the parser named `framework` into test id → status, ids kept whole. Pure; never throws. */
export function parseTestStatuses(output: string, framework: TestFramework): Map<string, TestStatus> {
  return statusesOf(parseTestOutput(stripAnsi(output), { framework }));
}

/**
 * `parseTestStatuses(pieces.join(''), 'pytest')` without joining them, for a log decoded in pieces
 * (see `parsePytestPieces`): every piece but the last ends with `\n`, and none holds an ESC. Pure;
 * never throws.
 */
export function parsePytestStatusesOfPieces(pieces: Iterable<string>): Map<string, TestStatus> {
  return statusesOf(parsePytestPieces(pieces));
}

/** A parse's statuses by whole id, as {@link parseTestStatuses} returns them. */
function statusesOf(parsed: ParsedTestOutput): Map<string, TestStatus> {
  // The parser's map, its statuses renamed in place (a key set again keeps its place).
  const statuses = getTestStatuses(parsed) as Map<string, string> as Map<string, TestStatus>;
  let arrayIndexIds = false;
  for (const [id, status] of statuses) {
    statuses.set(id, parsedStatuses[status] ?? toTestStatus(status));
    if (!arrayIndexIds && isArrayIndex(id)) arrayIndexIds = true;
  }
  return arrayIndexIds ? arrayIndexesFirst(statuses) : statuses;
}

/** `toTestStatus` of each status word the parsers give, looked up instead of upper-cased per test. */
const parsedStatuses: Partial<Record<string, TestStatus>> = {
  passed: 'PASSED',
  failed: 'FAILED',
  skipped: 'SKIPPED',
  error: 'ERROR',
};

/** Whether `id` is an array index (`0`, `17`, below 2³² − 1), a key an object orders first. */
function isArrayIndex(id: string): boolean {
  const first = id.charCodeAt(0);
  if (first < 48 || first > 57) return false;
  return /^(?:0|[1-9]\d{0,9})$/.test(id) && Number(id) < 4294967295;
}

/**
 * The order the statuses had when they went through an object (`Object.entries`): array-index ids
 * first, ascending, then the others as named. Kept so a runner that names tests `1`, `2`, … grades
 * and reports collisions in the same order as before.
 */
function arrayIndexesFirst(statuses: Map<string, TestStatus>): Map<string, TestStatus> {
  const indexes = [...statuses.keys()].filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  const ordered = new Map<string, TestStatus>(indexes.map((id) => [id, statuses.get(id) as TestStatus]));
  for (const [id, status] of statuses) if (!ordered.has(id)) ordered.set(id, status);
  return ordered;
}

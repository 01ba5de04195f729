/**
 * pytest output: the verbose form (`path::test[params] PASSED  [ 50%]`), the `-rA` short test
 * summary (`FAILED path::test[params] - message`), xdist lines (`[gw0] [ 50%] PASSED id`) and the
 * final `=== 2 failed, 6 passed in 0.1s ===` line. A session started inside a test (pytester's
 * `runpytest`, printed in captured output) is nested: its lines and summary are ignored, and the
 * outermost session's last summary wins.
 * @module
 */
import { readNodeId } from './pytest-node-id.js';
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestStatus } from './test-output-types.js';

type Word = 'PASSED' | 'FAILED' | 'ERROR' | 'SKIPPED' | 'XFAIL' | 'XPASS';
const words = new Set<string>(['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS']);
const sessionStart = /^=+ test session starts =+$/;
const finalSummary = /^=+ (.*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|no tests ran)\b.*) in [\d.]+s(?: \([^)]*\))? =+$/;
const sectionHeader = /^_{3,} (.+?) _{3,}$/;
const xdist = /^\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.*)$/;

/** Parses pytest output. Pure; never throws. */
export function parsePytest(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const sectionMessages = new Map<string, string>();
  let depth = 0;
  let section: string | undefined;
  for (const line of lines) {
    if (line.length === 0) continue;
    const first = line.charCodeAt(0);
    if (first === 61 /* = */) {
      if (sessionStart.test(line)) {
        depth++;
        continue;
      }
      const summary = finalSummary.exec(line);
      if (summary) {
        if (depth <= 1) collector.counts = summaryCounts(summary[1] as string);
        if (depth > 0) depth--;
      }
      section = undefined;
      continue;
    }
    if (depth > 1) continue;
    if (first === 95 /* _ */) {
      section = sectionHeader.exec(line)?.[1]?.replace(/^ERROR at \w+ of /, '');
      continue;
    }
    if (first === 69 /* E */ && section !== undefined && line.startsWith('E ') && !sectionMessages.has(section)) {
      sectionMessages.set(section, line.slice(1).trim());
      continue;
    }
    readResultLine(line, collector);
  }
  const parsed = collector.finish('pytest');
  for (const failure of parsed.failures) {
    if (failure.message !== '') continue;
    failure.message = sectionMessages.get(headerName(failure.name)) ?? '';
  }
  return parsed;
}

function readResultLine(line: string, collector: TestCollector): void {
  const space = line.indexOf(' ');
  if (space < 0) return;
  const head = line.slice(0, space);
  if (words.has(head)) {
    // -rA short summary: WORD id[ - message]; SKIPPED lines carry a location, not an id.
    if (head === 'SKIPPED') return;
    const rest = line.slice(space + 1);
    const known = knownId(rest, collector);
    if (known !== undefined) {
      record(collector, head as Word, known, rest.slice(known.length + 3));
      return;
    }
    const read = readNodeId(rest);
    if (!read || !(read.id.includes('::') || head === 'ERROR')) return;
    record(collector, head as Word, read.id, read.rest.startsWith(' - ') ? read.rest.slice(3) : read.rest.trim());
    return;
  }
  const parallel = line.startsWith('[gw') ? xdist.exec(line) : null;
  if (parallel) {
    const read = readNodeId(parallel[2] as string);
    if (read) record(collector, parallel[1] as Word, read.id, '');
    return;
  }
  if (!line.includes('::')) return;
  const read = readNodeId(line);
  const match = read ? /^ (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/.exec(read.rest) : null;
  if (read && match) {
    record(collector, match[1] as Word, read.id, '');
    return;
  }
  // Unbalanced brackets in the parameters: the status is the last word before the progress column.
  const verbose = verboseFallback.exec(line);
  if (verbose) record(collector, verbose[2] as Word, verbose[1] as string, '');
}

const verboseFallback = /^(\S.*::.*\S) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?: \(.*\))?\s+\[\s*\d+%\]$/;

/**
 * A summary line's id when a verbose line already named it: the whole rest, or the part before
 * one of its ` - ` separators. Resolves ids whose parameters hold an unbalanced `]` and ` - `.
 */
function knownId(rest: string, collector: TestCollector): string | undefined {
  let at = rest.indexOf(' - ');
  while (at >= 0) {
    const candidate = rest.slice(0, at);
    if (candidate.includes('[') && collector.statusOf(candidate) !== undefined) return candidate;
    at = rest.indexOf(' - ', at + 3);
  }
  return undefined;
}

function record(collector: TestCollector, word: Word, id: string, message: string): void {
  const status: TestStatus =
    word === 'PASSED' || word === 'XPASS' ? 'passed' : word === 'FAILED' ? 'failed' : word === 'ERROR' ? 'error' : 'skipped';
  const outcome = word === 'XFAIL' ? 'xfailed' : word === 'XPASS' ? 'xpassed' : undefined;
  collector.add(id, status, outcome ? { outcome } : {});
  if (status === 'failed' || status === 'error') collector.fail(id, message);
}

function summaryCounts(text: string): { passed: number; failed: number; skipped: number; total: number } {
  const counts = readCountWords(text);
  const get = (word: string): number => counts.get(word) ?? 0;
  const passed = get('passed') + get('xpassed');
  const failed = get('failed') + get('error') + get('errors');
  const skipped = get('skipped') + get('xfailed');
  return { passed, failed, skipped, total: passed + failed + skipped };
}

/** The name pytest prints in a FAILURES section header for a node id (`Class.test[x]`). */
function headerName(id: string): string {
  const parts = id.split('::').slice(1);
  return parts.join('.');
}

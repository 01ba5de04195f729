/**
 * mocha's `spec` reporter: `✔ title` (or `✓`), `- title` (pending), `N) title` (failing),
 * nested by indentation; counts from `N passing (…)`, `N failing`, `N pending`. Names are mocha's
 * full titles (suite titles and the test title joined by spaces).
 *
 * Failures outside any test count: a failing hook is mocha's own failing entry (`db "before all"
 * hook for "reads a row"`), and a spec file that fails to load (` Exception during run: Error: …`,
 * after which mocha prints no summary) is an `error` named by the file the stack points into
 * (outside node_modules and node internals), with the error line as its message.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const passing = /^\s+(\d+) passing \(/;
const failing = /^\s+(\d+) failing$/;
const pending = /^\s+(\d+) pending$/;
const testLine = /^(\s+)(?:(✔|✓)|(-)|(\d+)\)) (.+?)(?: \(\d+ms\))?$/;
const exceptionDuringRun = /^\s*Exception during run: (.+)$/;
const stackFile = /^\s+at (?:.*? \()?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/;

/** Parses mocha spec output. Pure; never throws. */
export function parseMocha(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const failedByNumber = new Map<string, string>();
  let groups: Array<{ indent: number; name: string }> = [];
  let counts: { passed?: number; failed?: number; skipped?: number } | undefined;
  let details = false;
  let detailsStart = lines.length;
  let index = 0;
  for (; index < lines.length; index++) {
    const line = lines[index] as string;
    const exception = exceptionDuringRun.exec(line);
    if (exception) {
      const name = loadedFile(lines, index + 1) ?? 'Exception during run';
      collector.add(name, 'error');
      collector.fail(name, exception[1] as string);
      continue;
    }
    // The count lines are read wherever they are (a damaged log may have them out of order).
    const pass = passing.exec(line);
    if (pass) {
      counts = { ...counts, passed: Number(pass[1]) };
      continue;
    }
    const fail = failing.exec(line);
    if (fail) {
      counts = { ...counts, failed: Number(fail[1]) };
      details = true; // the failure details follow
      detailsStart = Math.min(detailsStart, index + 1);
      continue;
    }
    const skip = pending.exec(line);
    if (skip) {
      counts = { ...counts, skipped: Number(skip[1]) };
      continue;
    }
    if (details || counts?.passed !== undefined) continue;
    if (line.trim() === '') continue;
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    groups = groups.filter((group) => group.indent < indent);
    const test = testLine.exec(line);
    if (test && indent >= 2) {
      const name = [...groups.map((group) => group.name), test[5] as string].join(' ');
      if (test[2]) collector.add(name, 'passed');
      else if (test[3]) collector.add(name, 'skipped');
      else {
        collector.add(name, 'failed');
        failedByNumber.set(test[4] as string, name);
      }
    } else if (indent >= 2) {
      groups.push({ indent, name: line.trim() });
    }
  }
  // Failure details: "  1) suite\n       title:\n\n      Error: message"
  for (index = detailsStart; index < lines.length; index++) {
    const header = /^\s+(\d+)\) /.exec(lines[index] as string);
    const name = header ? failedByNumber.get(header[1] as string) : undefined;
    if (!name) continue;
    let cursor = index;
    while (cursor < lines.length && !(lines[cursor] as string).endsWith(':')) cursor++;
    for (cursor++; cursor < lines.length; cursor++) {
      const text = (lines[cursor] as string).trim();
      if (text !== '') {
        collector.fail(name, text);
        break;
      }
    }
  }
  if (counts?.passed !== undefined) {
    const { passed, failed = 0, skipped = 0 } = counts;
    collector.counts = { passed, failed, skipped, total: passed + failed + skipped };
  } else if (counts?.failed !== undefined) {
    collector.counts = { failed: counts.failed }; // the passing line is lost: the other counts are unknown
  }
  return collector.finish('mocha');
}

/** The first file of a load error's stack that is the project's own (not node_modules, not node:). */
function loadedFile(lines: readonly string[], start: number): string | undefined {
  for (let index = start; index < Math.min(lines.length, start + 40); index++) {
    const frame = stackFile.exec(lines[index] as string);
    const file = frame?.[1]?.replace(/^file:\/\//, '');
    if (file !== undefined && !file.includes('/node_modules/')) return file;
  }
  return undefined;
}

/**
 * `cargo test` output. Each test binary (unit tests, every integration test file, then
 * `Doc-tests`) prints its own `test result: ok. 2 passed; 0 failed; 1 ignored; …` line: the counts
 * are the SUM of all of them, each number read next to its own word (so `0 failed` is zero, not a
 * failure). Per-test lines `test NAME ... ok|FAILED|ignored`; doc-test names keep their spaces
 * (`src/lib.rs - add (line 3)`). Failure messages come from the `---- NAME stdout ----` blocks.
 * @module
 */
import { readCountWords, TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const resultLine = /^test (.+) \.\.\. (ok|FAILED|ignored|bench)(?:, .*)?$/;
const summaryLine = /^test result: (?:ok|FAILED)\. (.*)$/;
const stdoutBlock = /^---- (.+) stdout ----$/;

/** Parses cargo test output. Pure; never throws. */
export function parseCargo(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let summaries = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const result = resultLine.exec(line);
    if (result) {
      const name = result[1] as string;
      const status = result[2];
      collector.add(name, status === 'FAILED' ? 'failed' : status === 'ignored' ? 'skipped' : 'passed');
      continue;
    }
    const summary = summaryLine.exec(line);
    if (summary) {
      const words = readCountWords(summary[1] as string);
      passed += words.get('passed') ?? 0;
      failed += words.get('failed') ?? 0;
      skipped += words.get('ignored') ?? 0;
      summaries++;
      continue;
    }
    const block = stdoutBlock.exec(line);
    if (block) collector.fail(block[1] as string, panicMessage(lines, index + 1));
  }
  if (summaries > 0) collector.counts = { passed, failed, skipped, total: passed + failed + skipped };
  return collector.finish('cargo');
}

/** The panic line and the message line after it, from a failure's stdout block. */
function panicMessage(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 30); index++) {
    const line = lines[index] as string;
    if (line.startsWith('---- ') || line === 'failures:') break;
    if (/^thread '.*' (?:\(\d+\) )?panicked at /.test(line)) {
      const next = (lines[index + 1] ?? '').trim();
      return next === '' ? line : `${line} ${next}`;
    }
  }
  return '';
}

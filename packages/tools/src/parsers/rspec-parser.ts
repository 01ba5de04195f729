/**
 * RSpec output: the lines SWE-bench's jq transforms of `rspec -f j` print (v4.1.0
 * constants/ruby.py `FASTLANE_/FPM_/RUBOCOP_RSPEC_JQ_TRANSFORM`: `description - status` or
 * `description - id - status`; official `parse_log_rspec_transformed_json` names a test by all
 * that precedes the last ` - status`), and plain progress/documentation output.
 *
 * Plain output: the documentation format's nested lines give passes (full descriptions, groups
 * joined by spaces; listed only when the summary line is there too), `(FAILED - N)` and
 * `(PENDING: …)`; every format's `rspec ./spec/x_spec.rb:3
 * # full description` lines name the failures, with the message from the `Failures:` list.
 * Counts from `N examples, N failures[, N pending][, N errors occurred outside of examples]`
 * (failed includes the errors outside examples; passed = examples − failures − pending). An
 * error outside examples (`An error occurred while loading ./spec/x_spec.rb.`, or in a
 * `before(:suite)` hook) is an `error` named by the file or hook.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

const jqLine = /^(.+) - (passed|failed|pending)$/;
const summary =
  /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$/;
const rerun = /^rspec (\S+) # (.+)$/;
const outside = /^An error occurred (?:while loading (\S+?)\.?(?: - Did you mean\?)?|in an? (.+?) hook)\.?$/;
const numbered = /^\s+(\d+)\) (.+)$/;

/** Parses RSpec output. Pure; never throws. */
export function parseRspec(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const messages = new Map<string, string>();
  let section: 'pending' | 'failures' | undefined;
  let documentation: Array<{ indent: number; text: string }> = [];
  let listing = true; // documentation lines come before the Pending:/Failures:/Finished lines
  let sawPending = false;
  const documentedPasses: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const total = summary.exec(line);
    if (total) {
      const examples = Number(total[1]);
      const failures = Number(total[2]);
      const pendingCount = Number(total[3] ?? 0);
      const errors = Number(total[4] ?? 0);
      collector.counts = {
        total: examples,
        failed: failures + errors,
        skipped: pendingCount,
        passed: Math.max(0, examples - failures - pendingCount),
      };
      listing = false;
      continue;
    }
    const jq = jqLine.exec(line.trim());
    if (jq && !line.startsWith(' ')) {
      const status = jq[2] as string;
      if (status === 'pending') sawPending = true;
      collector.add(
        jq[1] as string,
        status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'skipped',
      );
      continue;
    }
    const failedExample = rerun.exec(line);
    if (failedExample) {
      collector.add(failedExample[2] as string, 'failed');
      continue;
    }
    const error = outside.exec(line.trim());
    if (error) {
      const name = error[1] ?? `${error[2] as string} hook`;
      collector.add(name, 'error');
      collector.fail(name, errorMessage(lines, index + 1));
      listing = false;
      continue;
    }
    if (/^Pending: /.test(line)) {
      section = 'pending';
      sawPending = true;
      listing = false;
      continue;
    }
    if (/^Failures:$/.test(line)) {
      section = 'failures';
      listing = false;
      continue;
    }
    if (/^Finished in /.test(line)) {
      section = undefined;
      listing = false;
      continue;
    }
    if (section === 'failures') {
      const entry = numbered.exec(line);
      if (entry) messages.set(entry[2] as string, errorMessage(lines, index + 1));
      continue;
    }
    if (!listing || section !== undefined || line.trim() === '') continue;
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    documentation = documentation.filter((group) => group.indent < indent);
    const text = line.trim();
    const next = nextNonEmpty(lines, index + 1);
    const nextIndent = next === undefined ? 0 : (/^ */.exec(next)?.[0].length ?? 0);
    const marker = /^(.*?) \((FAILED - \d+|PENDING: .*)\)$/.exec(text);
    if (marker === null && nextIndent > indent) {
      documentation.push({ indent, text });
      continue;
    }
    if (documentation.length === 0 && marker === null) continue; // not a documentation line
    const name = [...documentation.map((group) => group.text), marker ? (marker[1] as string) : text].join(
      ' ',
    );
    if (marker === null) documentedPasses.push(name);
    else if ((marker[2] as string).startsWith('FAILED')) collector.add(name, 'failed');
    else {
      collector.add(name, 'skipped');
      sawPending = true;
    }
  }
  for (const [name, message] of messages)
    if (collector.statusOf(name) !== undefined) collector.fail(name, message);
  // Without the summary the log was cut short: a documentation line cut before its `(FAILED - N)`
  // cannot be told from a pass, so none is listed.
  if (collector.counts !== undefined) for (const name of documentedPasses) collector.add(name, 'passed');
  // A summary without its pending part while pending examples were printed was cut short: its
  // pending count (and so the passes) is unknown.
  if (collector.counts !== undefined && collector.counts.skipped === 0 && sawPending) {
    const { failed, total } = collector.counts;
    collector.counts = { failed, total };
  }
  return collector.finish('rspec');
}

function nextNonEmpty(lines: readonly string[], start: number): string | undefined {
  for (let index = start; index < lines.length; index++)
    if ((lines[index] as string).trim() !== '') return lines[index];
  return undefined;
}

/** The error of a failure entry: the line after `SomeError:`, else the expectation's first line. */
function errorMessage(lines: readonly string[], start: number): string {
  let fallback = '';
  for (let index = start; index < Math.min(lines.length, start + 15); index++) {
    const text = (lines[index] as string).trim();
    if (/^\d+\) /.test(text) || /^(?:Finished in|Failures:|Failed examples:)/.test(text)) break;
    if (/^[A-Z][\w:]*(?:Error|Exception)\w*:$/.test(text)) {
      const next = (lines[index + 1] as string | undefined)?.trim();
      return next ? `${text} ${next}` : text;
    }
    if (fallback === '' && text !== '' && !text.startsWith('Failure/Error:') && !text.startsWith('#'))
      fallback = text;
  }
  return fallback;
}

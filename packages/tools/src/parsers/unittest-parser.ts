/**
 * Python unittest verbose output (`python -m unittest -v`), which Django's `runtests.py
 * --verbosity 2` prints too. A result line is `NAME ... ok|FAIL|ERROR|skipped '…'|expected
 * failure|unexpected success`, where NAME is `test_x (module.Class)` (Python < 3.11) or
 * `test_x (module.Class.test_x)` (3.11+), kept as printed, as SWE-bench's log parsers key it.
 * A test with a docstring prints its name alone on one line and `First docstring line ... ok` on
 * the next: the name is taken from the line before, the docstring kept as `description`. When
 * other output lands between `... ` and the status (Django's "System check identified…"), the
 * bare status line that follows is given to the pending test. Counts come from `Ran N tests` and
 * the `OK`/`FAILED (failures=1, errors=1, skipped=1, expected failures=1)` line after it.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTest, ParsedTestOutput, TestStatus } from './test-output-types.js';

const nameOnly = /^(\w+ \([\w.]+\))$/;
const resultLine = /^(.*?) \.\.\. (.*)$/;
const ranLine = /^Ran (\d+) tests? in /;
const verdict = /^(OK|FAILED)(?: \((.*)\))?$/;
const errorHeader = /^(FAIL|ERROR): (\w+ \([\w.]+\))/;

type Outcome = { status: TestStatus; outcome?: ParsedTest['outcome'] };

/** Reads the status word after ` ... `, or `undefined` when the text is not a status. */
function readStatus(text: string): Outcome | undefined {
  const value = text.trim();
  if (value === 'ok' || value === 'OK') return { status: 'passed' };
  if (value === 'FAIL') return { status: 'failed' };
  if (value === 'ERROR') return { status: 'error' };
  if (value === 'expected failure') return { status: 'skipped', outcome: 'xfailed' };
  if (value === 'unexpected success') return { status: 'failed', outcome: 'xpassed' };
  if (value.startsWith('skipped') || value.startsWith('skip ')) return { status: 'skipped' };
  return undefined;
}

/** Parses unittest / Django verbose output. Pure; never throws. */
export function parseUnittest(lines: readonly string[], framework: 'unittest' | 'django' = 'unittest'): ParsedTestOutput {
  const collector = new TestCollector();
  let pending: string | undefined;
  let previous = '';
  let ran: number | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trimEnd();
    const result = resultLine.exec(line);
    if (result) {
      let name = result[1] as string;
      let description: string | undefined;
      const above = nameOnly.exec(previous);
      if (above && !nameOnly.test(name) && !/ \([\w.]+\)$/.test(name)) {
        description = name;
        name = above[1] as string;
      }
      const status = readStatus(result[2] as string);
      if (status) {
        record(collector, name, status, description);
        pending = undefined;
      } else {
        pending = name;
        // The status may follow later output on the same line (`… System check … ok`).
        const tail = / (ok|FAIL|ERROR)$/.exec(result[2] as string);
        if (tail) {
          record(collector, name, readStatus(tail[1] as string) as Outcome, description);
          pending = undefined;
        }
      }
    } else if (pending !== undefined) {
      const status = readStatus(line);
      if (status) {
        record(collector, pending, status);
        pending = undefined;
      }
    }
    const header = errorHeader.exec(line);
    if (header) collector.fail(header[2] as string, tracebackMessage(lines, index + 1));
    const count = ranLine.exec(line);
    if (count) ran = Number(count[1]);
    const end = ran === undefined ? null : verdict.exec(line);
    if (end && ran !== undefined) collector.counts = verdictCounts(ran, end[2] ?? '');
    previous = line;
  }
  return collector.finish(framework);
}

function record(collector: TestCollector, name: string, outcome: Outcome, description?: string): void {
  const extra: Omit<ParsedTest, 'name' | 'status'> = {};
  if (outcome.outcome) extra.outcome = outcome.outcome;
  if (description !== undefined) extra.description = description;
  collector.add(name, outcome.status, extra);
}

/** The last line of the traceback below a `FAIL:`/`ERROR:` header (the exception message). */
function tracebackMessage(lines: readonly string[], start: number): string {
  let message = '';
  for (let index = start; index < Math.min(lines.length, start + 200); index++) {
    const line = lines[index] as string;
    if (/^={20,}$/.test(line) || (/^-{20,}$/.test(line) && message !== '' && index > start + 2)) break;
    if (line.trim() !== '' && !/^-{20,}$/.test(line)) message = line.trim();
  }
  return message;
}

function verdictCounts(ran: number, details: string): { passed: number; failed: number; skipped: number; total: number } {
  const get = (word: string): number => Number(new RegExp(`\\b${word}=(\\d+)`).exec(details)?.[1] ?? 0);
  const failed = get('failures') + get('errors') + get('unexpected successes');
  const skipped = get('skipped') + get('expected failures');
  return { passed: Math.max(0, ran - failed - skipped), failed, skipped, total: ran };
}

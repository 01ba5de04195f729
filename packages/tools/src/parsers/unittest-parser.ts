/**
 * Python unittest verbose output (`python -m unittest -v`), which Django's `runtests.py
 * --verbosity 2` prints too. A result line is `NAME ... ok|FAIL|ERROR|skipped '…'|expected
 * failure|unexpected success`, where NAME is `test_x (module.Class)` (Python < 3.11) or
 * `test_x (module.Class.test_x)` (3.11+), kept as printed, as SWE-bench's log parsers key it.
 * A test with a docstring prints its name alone on one line and `First docstring line ... ok` on
 * the next: the name is taken from the line before, the docstring kept as `description`. When
 * other output lands between `... ` and the status (Django's "System check identified…"), the
 * bare status line that follows is given to the pending test; a test that prints without a final
 * newline gets its status glued on (`test_x (m.T) ... partialok`, `partialFAIL`, `partialskipped
 * '…'`), and is read with it. Counts come from `Ran N tests` and
 * the `OK`/`FAILED (failures=1, errors=1, skipped=1, expected failures=1)` line after it.
 *
 * Subtests, on every Python: up to 3.10 a test whose subtests failed prints no status of its own,
 * so the next test's name follows on the same line (`test_a (m.T) ... test_b (m.T) ... ok`); from
 * 3.11 the parent line ends at `... ` and each failed subtest gets an indented line
 * `  test_a (m.T.test_a) (i=1) ... FAIL`. Either way the test takes its status from its subtest
 * lines and its `FAIL:`/`ERROR:` blocks. Failures outside any test are named as unittest names
 * them: `setUpClass (m.Class)`, `setUpModule (m)`, `test_x (unittest.loader._FailedTest)` for a
 * module that fails to import; each is an `error` with the exception line as its message.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTest, ParsedTestOutput, TestStatus } from './test-output-types.js';

const nameOnly = /^(\w+ \([\w.]+\))$/;
const resultLine = /^(.*?) \.\.\. (.*)$/;
const ranLine = /^Ran (\d+) tests? in /;
/** `OK`, `OK (skipped=1)`, `FAILED (failures=1)`: unittest never prints FAILED without its details. */
const verdict = /^(?:OK|FAILED(?= ))(?: \((.*)\))?$/;
const errorHeader = /^(FAIL|ERROR): (\w+ \([\w.]+\))/;
/** A name followed by ` ... ` at the start of what is left of a result line. */
const chainedName = /^(\w+ \([\w.]+\)) \.\.\. ?(.*)$/;
/** A subtest's own name: `test_x (m.T.test_x) (i=1)` or `test_x (m.T) [msg] (i=1)`. */
const subtestName = /^(\w+ \([\w.]+\)) (?:\[.*\] )?\(.*\)$/;
/** Errors that unittest reports outside any counted test (class and module fixtures). */
const fixtureError = /^(?:setUpClass|tearDownClass|setUpModule|tearDownModule) \(/;

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
export function parseUnittest(
  lines: readonly string[],
  framework: 'unittest' | 'django' = 'unittest',
): ParsedTestOutput {
  const collector = new TestCollector();
  let pending: string | undefined;
  let previous = '';
  let ran: number | undefined;
  /** Every distinct `FAIL:`/`ERROR:` header (subtest parameters included), the names it gives, and fixture errors. */
  const headers = new Set<string>();
  const failing = new Set<string>();
  const fixtureErrors = new Set<string>();
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trimEnd();
    const result = resultLine.exec(line);
    if (result) {
      let name = (result[1] as string).trim();
      let rest = result[2] as string;
      let description: string | undefined;
      const above = nameOnly.exec(previous);
      if (above && !nameOnly.test(name) && !/ \([\w.]+\)$/.test(name) && !subtestName.test(name)) {
        description = name;
        name = above[1] as string;
      }
      // Python <= 3.10: a test with failed subtests has no status; the next test starts on its line.
      for (
        let chained = chainedName.exec(rest);
        chained && readStatus(rest) === undefined;
        chained = chainedName.exec(rest)
      ) {
        name = chained[1] as string;
        rest = chained[2] as string;
        description = undefined;
      }
      if (nameOnly.test(rest.trim())) {
        // …and that next test has a docstring: its description comes on the next line.
        pending = undefined;
        previous = rest.trim();
        continue;
      }
      // Python >= 3.11: a subtest's own line gives its parent's status.
      const subtest = subtestName.exec(name);
      if (subtest) name = subtest[1] as string;
      // A result line is a test's only when it names one (or its docstring follows the name).
      if (description === undefined && !nameOnly.test(name)) {
        previous = line;
        continue;
      }
      const status = readStatus(rest);
      if (status) {
        record(collector, name, status, description);
        pending = undefined;
      } else {
        pending = name;
        // The status may follow later output on the same line (`… System check … ok`), glued to
        // it when the test printed without a final newline (`partialok`, `partialskipped 'x'`).
        // A glued word may be the output's own end (`book`): the test stays pending, so a status
        // on the next line still counts (the worse one wins).
        const tail = /( ?)(ok|FAIL|ERROR|skipped '.*'|expected failure|unexpected success)$/.exec(rest);
        if (tail) {
          record(collector, name, readStatus(tail[2] as string) as Outcome, description);
          if (tail[1] === ' ') pending = undefined;
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
    if (header) {
      // The block gives the status of a test that printed none (subtests, fixtures, load errors).
      const name = header[2] as string;
      collector.add(name, header[1] === 'FAIL' ? 'failed' : 'error');
      collector.fail(name, tracebackMessage(lines, index + 1));
      if (fixtureError.test(name)) fixtureErrors.add(name);
      else failing.add(name);
      if (/\)$/.test(line)) headers.add(line);
    }
    const count = ranLine.exec(line);
    if (count) ran = Number(count[1]);
    const end = ran === undefined ? null : verdict.exec(line);
    if (end && ran !== undefined)
      collector.counts = verdictCounts(
        ran,
        end[1] ?? '',
        headers.size - failing.size - fixtureErrors.size,
        fixtureErrors.size,
      );
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

/**
 * Counts from `Ran N tests` and the verdict. `failures=`/`errors=` count each failed subtest and
 * each class or module fixture error, which `Ran` does not count as tests: passes are the tests
 * run minus the distinct tests that failed, where a block read for a subtest of a test already
 * counted (`repeats`) or for a fixture does not take a pass away. Blocks lost from a cut log only
 * make the passes fewer, never more.
 */
function verdictCounts(
  ran: number,
  details: string,
  repeats: number,
  fixtureErrors: number,
): { passed: number; failed: number; skipped: number; total: number } {
  const get = (word: string): number => Number(new RegExp(`\\b${word}=(\\d+)`).exec(details)?.[1] ?? 0);
  const failed = get('failures') + get('errors') + get('unexpected successes');
  const skipped = get('skipped') + get('expected failures');
  const failedRuns = Math.max(0, failed - fixtureErrors - Math.max(0, repeats));
  return { passed: Math.max(0, ran - failedRuns - skipped), failed, skipped, total: ran };
}

/**
 * sandkit's status maps (`sandkit grade`'s path) against the maps the official SWE-bench v4.1.0
 * log parsers produced from the same logs (`../fixtures/official-parsers/statuses.json`, written by
 * `scripts/official-grading/run.sh`; see `parser-parity-cases.ts`). Where grading would tell them
 * apart, the case is named below with why; sandkit is never laxer than the official grader.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../eval-test-helpers.js';
import { type ParserParityCase, parserParityCases, sandkitStatuses } from './parser-parity-cases.js';
import { diffStatusMaps, gradingDifferences, type OfficialStatusesFile } from './status-map-diff.js';

const file = JSON.parse(
  readFileSync(join(repoRoot, 'packages/runtime/test/eval/fixtures/official-parsers/statuses.json'), 'utf8'),
) as OfficialStatusesFile;
const cases = new Map(parserParityCases().map((entry) => [`${entry.log}\t${entry.repo}`, entry]));

/** Official ids sandkit grades as failing where the official grader does not, and why. */
const stricter: Array<{ log: RegExp; repo?: RegExp; ids: string[]; why: string }> = [
  ...[
    { log: /runners\/pytest-ra\.txt$/, repo: /^(?!mwaskom\/seaborn$)/ },
    { log: /runners\/pytest-color\.txt$/, repo: /astropy|scikit-learn|sphinx/ },
  ].map((where) => ({
    ...where,
    ids: ['[1]'],
    why: '`SKIPPED [1] file:line: reason` summary lines: the official id is the count `[1]`',
  })),
  {
    log: /runners\/pytest-ra\.txt$/,
    ids: ['test_inner_session.py::test_a'],
    why: 'a nested pytest session (pytester) printed in captured output: the official parser reads its lines as tests, sandkit does not',
  },
  {
    log: /runners\/pytest-kinds-verbose\.txt$/,
    repo: /seaborn/,
    ids: ['test_teardown.py::test_with_teardown'],
    why: 'official loses an error: parse_log_seaborn reads only PASSED and FAILED, so a test whose teardown errored stays PASSED',
  },
  {
    log: /runners\/pytest-xdist-classic\.txt$/,
    repo: /seaborn/,
    ids: ['[gw0]'],
    why: 'xdist `[gw0] PASSED test` lines: parse_log_seaborn takes the worker tag as the id',
  },
  {
    log: /runners\/django-py3(9|10)-kinds\.txt$/,
    ids: ['test_a_sub (shop.tests.PriceTests) ... test_b_ok (shop.tests.PriceTests)'],
    why: 'a failed subtest leaves `test_a_sub (…) ... ` unfinished and the next test prints on the same line: the official id spans both',
  },
  {
    log: /public-lite-37\/glm-5\.3-zcode-campaign\/django__django-11001\/test_output\.txt$/,
    ids: [
      'test_order_by_multiline_sql (expressions.tests.BasicExpressionsTests) ... test_order_of_operations (expressions.tests.BasicExpressionsTests)',
    ],
    why: 'the same in a public official run: an erroring subtest leaves `test_order_by_multiline_sql (…) ... ` unfinished and test_order_of_operations, which passed, prints on its line',
  },
  {
    log: /public-lite-37\/glm-5\.3-zcode-campaign\/django__django-12308\/test_output\.txt$/,
    ids: [
      'test_json_display_for_field (admin_utils.tests.UtilsTests) ... test_label_for_field (admin_utils.tests.UtilsTests)',
    ],
    why: 'the same in a public official run: test_json_display_for_field errors in a subtest and test_label_for_field, which passed, prints on its line',
  },
  ...[
    ['default', ['add(1, 1) = 2 [table]', 'adds two numbers', 'ok.test.js (1 test)', 'skipped case']],
    ['kinds-default', ['reads a row', 'src/ok.test.js (1 test)']],
    ['unhandled', ['late.test.js (2 tests)']],
  ].map(([name, ids]) => ({
    log: new RegExp(`runners/vitest-${name}\\.txt$`),
    ids: ids as string[],
    why: 'vitest default reporter (vuejs/core runs `--reporter=verbose`): the official parser reads bare titles and file lines',
  })),
  {
    log: /runners\/vitest-retry-verbose\.txt$/,
    ids: ['flaky.test.js > calc > flaky 27ms (retry x1)'],
    why: "a retried test's `(retry x1)` suffix: parse_log_vitest (v4.1.0 javascript.py) strips a duration only at the line's end, so its id keeps ` 27ms (retry x1)`; sandkit names the test without it (as it does the same test without retries)",
  },
  {
    log: /(runners\/tap-mocha\.txt|axios__axios-4731\/test_output\.txt)$/,
    ids: ['math skipped one # SKIP -'],
    why: 'TAP directive: the official id keeps `# SKIP …` and counts the skipped test PASSED; sandkit drops the directive',
  },
  {
    log: /runners\/tap-node-subtests\.txt$/,
    ids: ['- is skipped # SKIP not now', '- passes', '- todo one # TODO', '- top level'],
    why: "node's TAP reporter (neither row's producer: three.js runs QUnit, axios mocha -R tap): official ids keep `- ` and directives, subtests bare",
  },
  {
    log: /runners\/phpunit-testdox\.txt$/,
    ids: ['None > Adds numbers', 'None > Pairs with data set "same"', 'None > Skipped'],
    why: 'PHPUnit 9 testdox: parse_log_phpunit expects PHPUnit 10 `Name (Class)` suite headers, so on PHPUnit 9 every id starts `None > `',
  },
  {
    log: /runners\/doctest-xml\.txt$/,
    ids: ['throws > inside'],
    why: 'official loses a failure: parse_log_doctest passes a subcase with no failed <Expression>, even when it threw (<Exception>)',
  },
];

/** The named differences of `entry` (several may apply to one log). */
function namedFor(entry: ParserParityCase): Array<(typeof stricter)[number]> {
  return stricter.filter((row) => row.log.test(entry.log) && (row.repo?.test(entry.repo) ?? true));
}

describe('the official SWE-bench parsers and sandkit grade', () => {
  it('were run on exactly the current cases (rerun scripts/official-grading/run.sh when this fails)', () => {
    expect(file.cases.map((row) => `${row.log}\t${row.repo}`).sort()).toEqual([...cases.keys()].sort());
  });

  const used = new Set<(typeof stricter)[number]>();
  describe.each(file.cases.map((row) => [`${row.log.split('/').at(-1)} × ${row.repo}`, row] as const))(
    '%s',
    (_name, row) => {
      it('grades every official id at least as strictly, and differs only where named', () => {
        const entry = cases.get(`${row.log}\t${row.repo}`) as ParserParityCase;
        expect(row.error).toBeUndefined();
        const official = file.maps[row.statuses as number] as Record<string, string>;
        const ours = sandkitStatuses(entry);
        const { laxer, stricter: strict } = gradingDifferences(official, ours, entry.failOnly);
        expect(laxer).toEqual([]);
        const named = namedFor(entry);
        for (const row of named) used.add(row);
        expect(strict).toEqual(named.flatMap((row) => row.ids).sort());
      });
    },
  );

  it('names no difference that no case shows', () => {
    expect(stricter.filter((row) => !used.has(row)).map((row) => row.why)).toEqual([]);
  });

  it('agrees id for id and status for status on go test and plain pytest output', () => {
    const exact = file.cases.filter((row) => {
      const official = file.maps[row.statuses as number] as Record<string, string>;
      const entry = cases.get(`${row.log}\t${row.repo}`) as ParserParityCase;
      return Object.keys(official).length > 0 && diffStatusMaps(official, sandkitStatuses(entry)) === null;
    });
    const logs = new Set(exact.map((row) => row.log.split('/').at(-1)));
    for (const log of ['go-test-v.txt', 'go-test.txt', 'pytest-xdist-plain.txt', 'pytest-collect-error.txt'])
      expect(logs).toContain(log);
  });
});

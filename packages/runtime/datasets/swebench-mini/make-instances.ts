/**
 * Regenerates `instances.jsonl` from the task overlays in `tasks/<instance_id>/{gold,tests}/`:
 * each overlay holds whole files after the fix (gold) or after the new tests (tests); the patches
 * are `git diff`s of those files against the instance's base commit. The FAIL_TO_PASS and
 * PASS_TO_PASS lists below were written by hand and are checked by the runtime's eval tests
 * (gold resolves every instance; without a patch every FAIL_TO_PASS test fails and every
 * PASS_TO_PASS test passes).
 *
 * Usage (maintainers, after editing a snapshot or a task): `pnpm tsx packages/runtime/datasets/swebench-mini/make-instances.ts`
 * @module
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildExampleRepos as buildMiniRepos,
  exampleDatasetDir as miniDatasetDir,
} from '../../src/example-dataset/build-example-repos.js';

interface Task {
  instance_id: string;
  snapshot: string;
  test_framework: 'node' | 'pytest' | 'unittest';
  test_cmd?: string;
  problem_statement: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
}

const unittestId = (module: string, cls: string, name: string): string => `${name} (${module}.${cls}.${name})`;

const tasks: Task[] = [
  {
    instance_id: 'sandkit-mini__pager-1',
    snapshot: '01-initial',
    test_framework: 'node',
    test_cmd: 'node --test test/',
    problem_statement:
      'The last page goes missing.\n\nWith 5 items and 2 per page, `paginate(items, 3, 2)` returns `[]` instead of `[5]`, and `pageCount(21, 10)` says 2 pages. A partial last page is never counted.',
    FAIL_TO_PASS: ['pageCount counts a partial last page', 'paginate returns the partial last page'],
    PASS_TO_PASS: [
      'pageCount of an exact multiple',
      'pageCount rejects a zero page size',
      'paginate returns the first page',
      'paginate returns nothing for page 0',
      'truncate keeps short text',
      'truncate shortens long text with an ellipsis',
    ],
  },
  {
    instance_id: 'sandkit-mini__pager-2',
    snapshot: '02-count-code-points',
    test_framework: 'node',
    test_cmd: 'node --test test/',
    problem_statement:
      'truncate() adds an ellipsis to text that already fits.\n\nSince truncate counts code points, `truncate("abcde", 5)` returns `"abcd…"`; a label of exactly `max` characters should come back unchanged, as it did before.',
    FAIL_TO_PASS: ['truncate keeps text of exactly max characters'],
    PASS_TO_PASS: [
      'pageCount of an exact multiple',
      'pageCount rejects a zero page size',
      'paginate returns the first page',
      'paginate returns nothing for page 0',
      'pageCount counts a partial last page',
      'paginate returns the partial last page',
      'truncate keeps short text',
      'truncate shortens long text with an ellipsis',
      'truncate never splits an emoji',
    ],
  },
  {
    instance_id: 'sandkit-mini__durations-1',
    snapshot: '01-initial',
    test_framework: 'pytest',
    problem_statement:
      'format_duration(0) returns an empty string.\n\nA zero duration is shown as nothing at all in the UI; it should read `0s`.',
    FAIL_TO_PASS: ['tests/test_format.py::test_format_zero'],
    PASS_TO_PASS: [
      'tests/test_format.py::test_format[5400-1h 30m]',
      'tests/test_format.py::test_format[45-45s]',
      'tests/test_format.py::test_format[3661-1h 1m 1s]',
      'tests/test_format.py::test_format_rejects_negative',
    ],
  },
  {
    instance_id: 'sandkit-mini__durations-2',
    snapshot: '02-parse-with-regex',
    test_framework: 'pytest',
    problem_statement:
      'parse_duration no longer accepts upper-case units.\n\nAfter the switch to a regular expression, `parse_duration("2H 5M")` raises `ValueError: cannot parse duration`. The docstring still promises `2H`, and it worked before.',
    FAIL_TO_PASS: ['tests/test_parse.py::test_parse[2H 5M-7500]'],
    PASS_TO_PASS: [
      'tests/test_parse.py::test_parse[1h 30m-5400]',
      'tests/test_parse.py::test_parse[45s-45]',
      'tests/test_parse.py::test_parse[2h 0m 5s-7205]',
      'tests/test_parse.py::test_parse_empty_is_zero',
      'tests/test_parse.py::test_parse_rejects[10]',
      'tests/test_parse.py::test_parse_rejects[1x]',
      'tests/test_parse.py::test_parse_rejects[h]',
    ],
  },
  {
    instance_id: 'sandkit-mini__ledger-1',
    snapshot: '01-initial',
    test_framework: 'unittest',
    problem_statement:
      'Entries on the boundary date are left out.\n\n`balance(until)` is documented as "on or before until" and `between(start, end)` as "both included", but an entry dated exactly `until` / `end` is not counted.',
    FAIL_TO_PASS: [
      unittestId('tests.test_book', 'BalanceTest', 'test_balance_includes_the_until_date'),
      unittestId('tests.test_book', 'BetweenTest', 'test_between_includes_the_end_date'),
    ],
    PASS_TO_PASS: [
      unittestId('tests.test_book', 'BalanceTest', 'test_balance_after_every_entry'),
      unittestId('tests.test_book', 'BalanceTest', 'test_balance_before_any_entry'),
      unittestId('tests.test_book', 'BetweenTest', 'test_between_sorts_by_date'),
    ],
  },
  {
    instance_id: 'sandkit-mini__ledger-2',
    snapshot: '02-inclusive-dates',
    test_framework: 'unittest',
    problem_statement:
      'Negative amounts with cents are parsed wrong.\n\n`parse_amount("-1.50")` returns -50 and `parse_amount("-0.50")` returns 50: the cents are added to a negative whole part instead of sharing its sign.',
    FAIL_TO_PASS: [
      unittestId('tests.test_money', 'ParseAmountTest', 'test_negative_amount'),
      unittestId('tests.test_money', 'ParseAmountTest', 'test_negative_amount_below_one'),
    ],
    PASS_TO_PASS: [
      unittestId('tests.test_money', 'FormatAmountTest', 'test_negative'),
      unittestId('tests.test_money', 'ParseAmountTest', 'test_one_decimal_digit'),
      unittestId('tests.test_money', 'ParseAmountTest', 'test_rejects_three_decimals'),
      unittestId('tests.test_money', 'ParseAmountTest', 'test_whole_and_cents'),
    ],
  },
];

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
}

/** The diff that turns the base tree into the base tree plus `overlay`'s files. */
function diffOverlay(repoDir: string, overlay: string): string {
  git(repoDir, ['reset', '-q', '--hard']);
  cpSync(overlay, repoDir, { recursive: true });
  git(repoDir, ['add', '-A']);
  return git(repoDir, ['diff', '--cached', '--no-color', '--no-ext-diff']);
}

const work = mkdtempSync(join(tmpdir(), 'swebench-mini-'));
try {
  const repos = buildMiniRepos(join(work, 'repos'));
  const lines = tasks.map((task) => {
    const key = task.instance_id.replace(/-\d+$/, '');
    const built = repos.find((repo) => repo.repo === key.replace('__', '/'));
    if (built === undefined) throw new Error(`no repository for ${task.instance_id}`);
    const base = built.commits[task.snapshot];
    if (base === undefined) throw new Error(`no snapshot ${task.snapshot} in ${built.repo}`);
    const tree = join(work, task.instance_id);
    git(work, ['clone', '-q', built.dir, tree]);
    git(tree, ['checkout', '-q', '--detach', base]);
    const patch = diffOverlay(tree, join(miniDatasetDir, 'tasks', task.instance_id, 'gold'));
    const testPatch = diffOverlay(tree, join(miniDatasetDir, 'tasks', task.instance_id, 'tests'));
    return JSON.stringify({
      instance_id: task.instance_id,
      repo: built.repo,
      base_commit: base,
      patch,
      test_patch: testPatch,
      problem_statement: task.problem_statement,
      hints_text: '',
      created_at: '2024-01-01T00:00:00Z',
      version: '1.0',
      environment_setup_commit: base,
      FAIL_TO_PASS: JSON.stringify(task.FAIL_TO_PASS),
      PASS_TO_PASS: JSON.stringify(task.PASS_TO_PASS),
      test_framework: task.test_framework,
      ...(task.test_cmd === undefined ? {} : { test_cmd: task.test_cmd }),
    });
  });
  writeFileSync(join(miniDatasetDir, 'instances.jsonl'), `${lines.join('\n')}\n`);
  process.stdout.write(`wrote ${lines.length} instances to ${join(miniDatasetDir, 'instances.jsonl')}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

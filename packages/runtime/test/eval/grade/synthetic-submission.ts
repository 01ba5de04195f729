/**
 * A synthetic SWE-bench submission in the official layout, for `bench/grade-throughput.ts` and the
 * growth test of `sandkit grade` (`grade-growth.test.ts`): per instance a `test_output.txt`, a
 * `patch.diff` and an official `report.json` beside it, and its dataset row.
 *
 * Two kinds of instance, as the two parsers that read most of a real submission:
 * - `django` (django/django 3.0, `parse_log_django`): the official script's trace, `git show`'s mode
 *   changes (a real django log holds ~850 KB of them, see the grade fixtures' README), then
 *   `runtests.py --verbosity 2` lines `test_k (app_j.tests.Class) ... ok`;
 * - `pytest` (pydata/xarray 2022.06, `parse_log_pytest`): pytest `-rA` status lines
 *   `PASSED xarray/tests/test_m.py::test_k[param]` between captured output.
 *
 * The official report is what SWE-bench's `get_eval_tests_report` writes for the instance, except
 * where an instance is made to differ from sandkit: `differ` of its listed tests are put in the
 * other list (official failure where sandkit passes: the `unexplained` / verdict-reasons path),
 * `merged` Django tests print on the line of an erroring one (official failure: the log-line
 * explanation), `missing` of its listed tests never ran and are listed by a prefix of a logged id
 * (pytest: `prefix_matches`). Everything is deterministic in the seed.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one synthetic instance holds. */
export interface SyntheticSpec {
  kind: 'django' | 'pytest';
  /** Tests in FAIL_TO_PASS and PASS_TO_PASS together (FAIL_TO_PASS: a tenth, at least 1). */
  listed: number;
  /** Tests run that no list names, beside the listed ones. @default listed / 4 */
  unlisted?: number;
  /** Bytes of output beside the status lines (git show, pip, captured output). @default 20,000 */
  noiseBytes?: number;
  /** Fraction of the listed tests the official report puts in the other list. @default 0 */
  differ?: number;
  /** Listed tests that print on the line of an erroring test (django only). @default 0 */
  merged?: number;
  /** Fraction of the listed tests absent from the log, each a prefix of a logged id (pytest only). @default 0 */
  missing?: number;
}

/** One instance's files and dataset row. */
export interface SyntheticInstance {
  id: string;
  row: Record<string, string>;
  log: string;
  report: string;
}

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const django = {
  repo: 'django/django',
  version: '3.0',
  command: './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1',
};
const pytest = { repo: 'pydata/xarray', version: '2022.06', command: 'pytest -rA xarray/tests' };

/** Builds instance number `n` of `spec`. */
export function syntheticInstance(n: number, spec: SyntheticSpec): SyntheticInstance {
  const rand = random(n * 7919 + 17);
  const kind = spec.kind === 'django' ? django : pytest;
  const id = spec.kind === 'django' ? `django__django-${20_000 + n}` : `pydata__xarray-${20_000 + n}`;
  const listed = Math.max(1, spec.listed);
  const unlisted = spec.unlisted ?? Math.floor(listed / 4);
  const f2pCount = Math.max(1, Math.floor(listed / 10));
  const testId = (k: number): string =>
    spec.kind === 'django'
      ? `test_case_${k}_${(k * 2654435761) % 9973} (app_${k % 37}.tests.Suite${k % 11}Tests)`
      : `xarray/tests/test_mod_${k % 41}.py::TestThing${k % 13}::test_case_${k}[param-${k % 7}]`;
  const total = listed + unlisted;
  const missing = spec.kind === 'pytest' ? Math.floor(listed * (spec.missing ?? 0)) : 0;
  const merged = spec.kind === 'django' ? Math.min(spec.merged ?? 0, Math.floor(listed / 3)) : 0;
  /** Listed tests sandkit sees fail (their list: failure for both). */
  const failing = new Set<number>();
  for (let k = 0; k < listed; k++) if (rand() < 0.02) failing.add(k);
  /** Listed tests whose official report is the other list. */
  const differs = new Set<number>();
  for (let k = 0; k < listed; k++) if (rand() < (spec.differ ?? 0)) differs.add(k);
  /** Listed tests absent from the log, listed as a prefix of the logged id (pytest). */
  const absent = new Set<number>();
  for (let k = 0; k < missing; k++) absent.add(Math.floor((k * listed) / missing));
  /** A merged pair: test k errors with a subtest and k + 1 prints on its line (django). */
  const mergedInto = new Map<number, number>();
  for (let m = 0; m < merged; m++) {
    const k = Math.floor(((m + 0.5) * listed) / merged) - 1;
    if (k >= 0 && k + 1 < listed && !mergedInto.has(k) && !mergedInto.has(k - 1)) mergedInto.set(k, k + 1);
  }
  const mergedSecond = new Set(mergedInto.values());

  const out: string[] = [
    '+ source /opt/miniconda3/bin/activate',
    '+ conda activate testbed',
    '+ cd /testbed',
    '+ git show',
    `commit ${'c'.repeat(40)}`,
  ];
  let noise = 0;
  const noiseBytes = spec.noiseBytes ?? 20_000;
  while (noise < noiseBytes) {
    const file = `diff --git a/pkg/module_${noise % 9973}/file_${Math.floor(rand() * 1e6)}.py b/pkg/module_${noise % 9973}/file.py`;
    out.push(file, 'old mode 100644', 'new mode 100755');
    noise += file.length + 34;
  }
  out.push(
    '+ git apply -v -',
    'Checking patch tests/test_thing.py...',
    'Applied patch tests/test_thing.py cleanly.',
    "+ : '>>>>> Start Test Output'",
    `+ ${kind.command}`,
  );
  const statusOf = (k: number): 'ok' | 'FAIL' => (k < listed && failing.has(k) ? 'FAIL' : 'ok');
  if (spec.kind === 'django') {
    out.push("Creating test database for alias 'default'...");
    for (let k = 0; k < total; k++) {
      if (mergedSecond.has(k)) continue;
      const next = mergedInto.get(k);
      if (next !== undefined) out.push(`${testId(k)} ... ${testId(next)} ... ok`);
      else out.push(`${testId(k)} ... ${statusOf(k)}`);
    }
    for (const k of mergedInto.keys()) out.push('', '='.repeat(70), `ERROR: ${testId(k)} (subtest=1)`);
    out.push('-'.repeat(70), `Ran ${total} tests in 12.345s`, '', 'OK');
  } else {
    out.push('============================= test session starts ==============================');
    for (let k = 0; k < total; k++) {
      const name = absent.has(k) ? `${testId(k)}-extra` : testId(k);
      out.push(`captured output of test ${k}: ${'x'.repeat(40)}`);
      out.push(`${statusOf(k) === 'ok' ? 'PASSED' : 'FAILED'} ${name}`);
    }
    out.push(`=== ${total} passed in 12.34s ===`);
  }
  out.push("+ : '>>>>> End Test Output'", '+ git checkout tests/test_thing.py');
  const log = `${out.join('\n')}\n`;

  // Sandkit's lists, then the official report's.
  const ids = Array.from({ length: listed }, (_, k) =>
    absent.has(k) ? testId(k).slice(0, testId(k).indexOf('[')) : testId(k),
  );
  const sandkitOk = (k: number): boolean => !failing.has(k) && !absent.has(k) && !mergedInto.has(k);
  const officialOk = (k: number): boolean =>
    (differs.has(k) ? !sandkitOk(k) : sandkitOk(k)) && !mergedSecond.has(k);
  const lists = {
    FAIL_TO_PASS: { success: [] as string[], failure: [] as string[] },
    PASS_TO_PASS: { success: [] as string[], failure: [] as string[] },
  };
  for (let k = 0; k < listed; k++) {
    const list = k < f2pCount ? lists.FAIL_TO_PASS : lists.PASS_TO_PASS;
    (officialOk(k) ? list.success : list.failure).push(ids[k] as string);
  }
  const resolved = lists.FAIL_TO_PASS.failure.length === 0 && lists.PASS_TO_PASS.failure.length === 0;
  const report = JSON.stringify(
    {
      [id]: {
        patch_is_None: false,
        patch_exists: true,
        patch_successfully_applied: true,
        resolved,
        tests_status: {
          ...lists,
          FAIL_TO_FAIL: { success: [], failure: [] },
          PASS_TO_FAIL: { success: [], failure: [] },
        },
      },
    },
    null,
    4,
  );
  const row = {
    instance_id: id,
    repo: kind.repo,
    version: kind.version,
    base_commit: 'a'.repeat(40),
    patch: 'diff --git a/x b/x\n',
    test_patch: 'diff --git a/tests/test_thing.py b/tests/test_thing.py\n',
    FAIL_TO_PASS: JSON.stringify(ids.slice(0, f2pCount)),
    PASS_TO_PASS: JSON.stringify(ids.slice(f2pCount)),
  };
  return { id, row, log, report };
}

/**
 * The mix of a leaderboard submission, instance `n` of it: list lengths with a long tail (most
 * instances list 10 to 60 tests, about one in twenty over 300, up to 2,500), django and pytest
 * logs of 30 to 400 KB (about 100 KB on average, as a real submission's 48 MB over 483 logs),
 * one instance in ten with official lists that differ from sandkit's on some tests, one in
 * fifty on all of them.
 */
export function leaderboardSpec(n: number): SyntheticSpec {
  const rand = random(n * 104729 + 3);
  const [u, v, w, x] = [rand(), rand(), rand(), rand()];
  const listed = 10 + Math.floor(50 * v) + Math.floor(2440 * u ** 40);
  const kind = w < 0.5 ? 'django' : 'pytest';
  return {
    kind,
    listed,
    noiseBytes: Math.floor(30_000 + 370_000 * x ** 3),
    differ: n % 50 === 7 ? 1 : n % 10 === 3 ? 0.2 : 0,
    merged: kind === 'django' && n % 10 === 5 ? 3 : 0,
    missing: kind === 'pytest' && n % 10 === 9 ? 0.1 : 0,
  };
}

/** Where {@link writeSubmission} put a submission. */
export interface WrittenSubmission {
  dataset: string;
  /** The `--logs` directory (`logs/run_evaluation/<run>/<model>/<id>/` below it). */
  logs: string;
  ids: string[];
  /** Bytes of every `test_output.txt`, and of every `report.json`. */
  logBytes: number;
  reportBytes: number;
}

/**
 * Writes `count` instances (`spec(n)` each, default {@link leaderboardSpec}) under `dir`: the
 * dataset as `dataset.jsonl`, one directory per instance with `test_output.txt`, `patch.diff`
 * and the official `report.json`. Each instance is made and written before the next, so memory
 * stays that of one.
 */
export function writeSubmission(
  dir: string,
  count: number,
  spec: (n: number) => SyntheticSpec = leaderboardSpec,
): WrittenSubmission {
  const logs = join(dir, 'logs');
  const model = join(logs, 'run_evaluation/synthetic/model');
  const rows: string[] = [];
  const ids: string[] = [];
  let logBytes = 0;
  let reportBytes = 0;
  for (let n = 0; n < count; n++) {
    const one = syntheticInstance(n, spec(n));
    const at = join(model, one.id);
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, 'test_output.txt'), one.log);
    writeFileSync(join(at, 'patch.diff'), one.row.patch as string);
    writeFileSync(join(at, 'report.json'), one.report);
    logBytes += Buffer.byteLength(one.log);
    reportBytes += Buffer.byteLength(one.report);
    rows.push(JSON.stringify(one.row));
    ids.push(one.id);
  }
  const dataset = join(dir, 'dataset.jsonl');
  writeFileSync(dataset, `${rows.join('\n')}\n`);
  return { dataset, logs, ids, logBytes, reportBytes };
}

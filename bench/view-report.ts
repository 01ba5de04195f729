/**
 * view-report: the `sandkit view` report of a synthetic 2,300-instance eval in headless Chromium
 * (Debian's, through playwright-core, as the tests drive it), against a plain HTML table of the
 * same rows with no script, in the same run and browser. Goals (issue #25): interactive in ≤ 2 s,
 * a filter keystroke answered in ≤ 200 ms, and a 500-instance eval's report under 20 MB.
 *
 * The eval directory is what `sandkit eval --out` writes, made here: `results.jsonl`, and per
 * instance `report.json` (2 FAIL_TO_PASS, 30 PASS_TO_PASS), a ~24 KB pytest `-rA` `test_output.txt`
 * (so its log is windowed), `patch.diff` and `eval.log`; 62% resolved, 28% unresolved, 5% patch
 * did not apply, 5% empty patch, over 12 repositories.
 *
 * Measured per round: `writeViewReport` (read the directory, render the file); the report's load
 * to `performance.mark('sandkit-ready')` and to the first frame after it (interactive), against the
 * static table's load to its first frame; each filter query typed into the box, from the input
 * event to the next frame (the new rows painted), against the naive filter on the static table
 * (each row's `hidden` set from its text), same queries.
 *
 * Run: `pnpm tsx bench/view-report.ts [instances=2300] [rounds=3]`
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../packages/runtime/test/view/chromium.js';
import { writeViewReport } from '../packages/runtime/src/view/write-view-report.js';
import { median, time } from './bench-stats.js';

const count = Number(process.argv[2] ?? 2300);
const rounds = Number(process.argv[3] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'bench-view-'));
const repos = [
  'django/django',
  'sympy/sympy',
  'astropy/astropy',
  'psf/requests',
  'pytest-dev/pytest',
  'sphinx-doc/sphinx',
  'scikit-learn/scikit-learn',
  'matplotlib/matplotlib',
  'pydata/xarray',
  'pallets/flask',
  'pylint-dev/pylint',
  'mwaskom/seaborn',
];

/** One instance's files in `dir`; its results.jsonl line. */
function writeInstance(dir: string, i: number): string {
  const repo = repos[i % repos.length] as string;
  const id = `${repo.replace('/', '__')}-${10000 + i}`;
  const roll = (i * 37) % 100;
  const status = roll < 62 ? 'resolved' : roll < 90 ? 'unresolved' : roll < 95 ? 'error' : 'empty_patch';
  const f2p = [`tests/test_mod${i}.py::test_fix_a`, `tests/test_mod${i}.py::test_fix_b`];
  const p2p = Array.from({ length: 30 }, (_, k) => `tests/test_mod${i}.py::test_keep_${k}`);
  const failedF2p = status === 'unresolved' ? [f2p[1] as string] : [];
  const own = join(dir, 'instances', id);
  mkdirSync(own, { recursive: true });
  if (status === 'resolved' || status === 'unresolved') {
    const lines = [
      "+ : '>>>>> Start Test Output'",
      '+ pytest -rA tests',
      '============================= test session starts ==============================',
    ];
    for (let k = 0; k < 320; k++) lines.push(`captured output line ${k} of ${id} ${'x'.repeat(50)}`);
    lines.push('=========================== short test summary info ============================');
    for (const name of [...f2p, ...p2p])
      lines.push(`${failedF2p.includes(name) ? 'FAILED' : 'PASSED'} ${name}`);
    lines.push(
      `========================= ${failedF2p.length} failed, ${31 - failedF2p.length} passed in 1.23s =========================`,
      "+ : '>>>>> End Test Output'",
    );
    writeFileSync(join(own, 'test_output.txt'), `${lines.join('\n')}\n`);
    const report = {
      [id]: {
        patch_is_None: false,
        patch_exists: true,
        patch_successfully_applied: true,
        resolved: status === 'resolved',
        patch_applied_with: 'git apply',
        tests_status: {
          FAIL_TO_PASS: { success: f2p.filter((t) => !failedF2p.includes(t)), failure: failedF2p },
          PASS_TO_PASS: { success: p2p, failure: [] },
          FAIL_TO_FAIL: { success: [], failure: [] },
          PASS_TO_FAIL: { success: [], failure: [] },
        },
      },
    };
    writeFileSync(join(own, 'report.json'), JSON.stringify(report, null, 4));
  }
  if (status !== 'empty_patch') {
    const body = Array.from({ length: 12 }, (_, k) => ` context line ${k}`).join('\n');
    writeFileSync(
      join(own, 'patch.diff'),
      `diff --git a/src/mod${i}.py b/src/mod${i}.py\n--- a/src/mod${i}.py\n+++ b/src/mod${i}.py\n@@ -1,14 +1,14 @@\n${body}\n-old = ${i}\n+new = ${i}\n`,
    );
    writeFileSync(
      join(own, 'eval.log'),
      `[0.100s] model patch: exit ${status === 'error' ? 1 : 0}\n  output:\n    Checking patch src/mod${i}.py...\n    ${status === 'error' ? 'error: patch failed' : '::sandkit-applied-with git apply'}\n[0.200s] finished\n`,
    );
  }
  return JSON.stringify({
    instance_id: id,
    model_name_or_path: 'bench-model',
    status,
    ...(status === 'error' ? { error_kind: 'patch_apply', error: 'the model patch did not apply' } : {}),
    infra_error: false,
    patch_method: status === 'resolved' || status === 'unresolved' ? 'git apply' : null,
    patch_files: [],
    skipped_binary_files: [],
    patch_offsets: [],
    missing_tests: [],
    prefix_matches: [],
    tests_timed_out: false,
    f2p: { success: 2 - failedF2p.length, total: 2 },
    p2p: { success: status === 'resolved' || status === 'unresolved' ? 30 : 0, total: 30 },
    duration_ms: 1000 + ((i * 7919) % 90000),
    finished_at: '2026-12-04T00:00:00.000Z',
  });
}

function writeEvalDir(n: number): string {
  const dir = join(work, `eval-${n}`);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(writeInstance(dir, i));
  writeFileSync(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

/** The baseline page: the same rows as a static table, no script. */
function writeStaticTable(dir: string, n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const repo = repos[i % repos.length] as string;
    rows.push(
      `<tr><td><a href="#x">${repo.replace('/', '__')}-${10000 + i}</a></td><td>${repo}</td><td>status</td><td>2/2</td><td>30/30</td><td>git apply</td><td>1.0 s</td></tr>`,
    );
  }
  const file = join(dir, 'static.html');
  writeFileSync(
    file,
    `<!doctype html><html><head><meta charset="utf-8"></head><body><input id="q"><table><tbody>${rows.join('')}</tbody></table></body></html>`,
  );
  return file;
}

const queries = [
  'd',
  'dj',
  'dja',
  'django',
  'django__django-1',
  'django__django-10',
  'FAIL_TO_PASS failed',
  'status:resolved',
  'patch did not apply',
  'sympy',
  'zzz',
  '',
];

const nextFrame = `new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))`;

async function main(): Promise<void> {
  console.log(
    `view-report: ${count} instances, ${rounds} rounds, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const dir = writeEvalDir(count);
  const small = writeEvalDir(500);
  const staticFile = writeStaticTable(work, count);
  const report = join(work, 'report.html');
  const writes: number[] = [];
  for (let r = 0; r < rounds; r++)
    writes.push(await time(() => writeViewReport({ dirs: [dir], out: report })));
  const smallReport = await writeViewReport({ dirs: [small], out: join(work, 'report-500.html') });
  const browser = await launchChromium();
  const ready: number[] = [];
  const interactive: number[] = [];
  const staticLoad: number[] = [];
  const filter: number[] = [];
  const naive: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(pathToFileURL(report).href);
      await page.waitForSelector('body[data-ready="true"]');
      const t = (await page.evaluate(
        `(async () => { const ready = performance.getEntriesByName('sandkit-ready')[0].startTime; await ${nextFrame}; return [ready, performance.now()]; })()`,
      )) as [number, number];
      ready.push(t[0]);
      interactive.push(t[1]);
      for (const q of queries)
        filter.push(
          (await page.evaluate(
            `(async () => { const input = document.querySelector('input.filter'); const t0 = performance.now(); input.value = ${JSON.stringify(q)}; input.dispatchEvent(new Event('input')); document.body.offsetHeight; await ${nextFrame}; return performance.now() - t0; })()`,
          )) as number,
        );
      if (errors.length > 0) throw new Error(`the report logged errors: ${errors.join('; ')}`);
      await page.close();
      const base = await browser.context.newPage();
      await base.goto(pathToFileURL(staticFile).href);
      staticLoad.push(
        (await base.evaluate(`(async () => { await ${nextFrame}; return performance.now(); })()`)) as number,
      );
      for (const q of queries)
        naive.push(
          (await base.evaluate(
            `(async () => { const q = ${JSON.stringify(q.toLowerCase())}; const t0 = performance.now(); for (const tr of document.querySelectorAll('tbody tr')) tr.hidden = !tr.textContent.toLowerCase().includes(q); document.body.offsetHeight; await ${nextFrame}; return performance.now() - t0; })()`,
          )) as number,
        );
      await base.close();
    }
  } finally {
    await browser.close();
  }
  const bytes = statSync(report).size;
  const f = (ms: number): string => `${ms.toFixed(0)} ms`;
  console.log(
    `writeViewReport (${count} instances): median ${f(median(writes))} (${writes.map(f).join(', ')})`,
  );
  console.log(
    `file: ${(bytes / 1e6).toFixed(2)} MB for ${count}; ${(smallReport.bytes / 1e6).toFixed(2)} MB for 500 (goal < 20 MB)`,
  );
  console.log(
    `ready mark: median ${f(median(ready))}; interactive (first frame after): median ${f(median(interactive))}, max ${f(Math.max(...interactive))} (goal ≤ 2000 ms)`,
  );
  console.log(
    `baseline static table, first frame: median ${f(median(staticLoad))}; ratio interactive / static ${(median(interactive) / median(staticLoad)).toFixed(2)}×`,
  );
  console.log(
    `filter (${filter.length} keystrokes): median ${f(median(filter))}, max ${f(Math.max(...filter))} (goal ≤ 200 ms)`,
  );
  console.log(
    `baseline naive filter on the static table: median ${f(median(naive))}, max ${f(Math.max(...naive))}; ratio of medians ${(median(filter) / median(naive)).toFixed(2)}×`,
  );
  if (process.env.KEEP_BENCH === undefined) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}

await main();

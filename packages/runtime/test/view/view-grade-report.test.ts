/**
 * `sandkit grade` over the project's public official log fixtures (`public-lite-37`), and over an
 * official-layout log made here whose test names, log lines and patch carry `<script>` and
 * `<img onerror>` markup; both reports opened in headless Chromium from disk. Any console error,
 * page error or dialog fails, and no injected script may run.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempDir } from '../eval/eval-test-helpers.js';
import { launchChromium, type TestBrowser } from './chromium.js';
import { openReport, type ReportPage, screenshot, visibleIds } from './report-page.js';

const fixtures = join(repoRoot, 'packages/runtime/test/eval/fixtures/grade');

let dir: string;
let cleanup: () => Promise<void>;
let browser: TestBrowser;
let graded: { code: number | null; stdout: string; stderr: string };
const opened: ReportPage[] = [];
const open = async (file: string, fragment = ''): Promise<ReportPage> => {
  const page = await openReport(browser.context, file, fragment);
  opened.push(page);
  return page;
};

/** Markup a log, a test name or a patch could carry; each would set `window.__pwned` if it ran. */
const script = '<script>window.__pwned=1</script>';
const img = '<img src=x onerror="window.__pwned=2">';
const injectedId = 'psf__requests-90009';
const passing = `test_ids.py::test_inject[${script}]`;
const missing = `test_ids.py::test_gone[${img}]`;

/** An instance in the official layout whose dataset row, log and patch.diff carry markup. */
async function writeInjection(root: string): Promise<{ dataset: string; logs: string }> {
  const logs = join(root, 'logs', 'run_evaluation', 'inject');
  const instanceDir = join(logs, 'model-x', injectedId);
  await mkdir(instanceDir, { recursive: true });
  const dataset = join(root, 'dataset.jsonl');
  const row = {
    instance_id: injectedId,
    repo: 'psf/requests',
    base_commit: '0123456789abcdef0123456789abcdef01234567',
    patch: 'diff --git a/src/fix.py b/src/fix.py\n',
    test_patch:
      'diff --git a/test_ids.py b/test_ids.py\n--- a/test_ids.py\n+++ b/test_ids.py\n@@ -1 +1 @@\n-import pytest\n+import pytest  # changed\n',
    FAIL_TO_PASS: JSON.stringify([passing]),
    PASS_TO_PASS: JSON.stringify([missing]),
    version: '2.0',
    environment_setup_commit: '0123456789abcdef0123456789abcdef01234567',
  };
  await writeFile(dataset, `${JSON.stringify(row)}\n`);
  await writeFile(
    join(instanceDir, 'test_output.txt'),
    [
      "+ : '>>>>> Start Test Output'",
      '+ pytest -rA test_ids.py',
      `a log line that prints ${img} and ${script}`,
      '=========================== short test summary info ============================',
      `PASSED ${passing}`,
      '============================== 1 passed in 0.10s ===============================',
      "+ : '>>>>> End Test Output'",
      '',
    ].join('\n'),
  );
  await writeFile(
    join(instanceDir, 'patch.diff'),
    [
      'diff --git a/src/fix.py b/src/fix.py',
      '--- a/src/fix.py',
      '+++ b/src/fix.py',
      '@@ -1 +1 @@',
      `-old = "${script}"`,
      `+new = "${img}"`,
      '',
    ].join('\n'),
  );
  return { dataset, logs };
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('view-grade'));
  const injection = await writeInjection(join(dir, 'inject'));
  const [publicRun, injectRun, noView, launched] = await Promise.all([
    runCli([
      'grade',
      '--dataset',
      join(fixtures, 'dataset-public-lite-37.jsonl'),
      '--logs',
      join(fixtures, 'logs/run_evaluation/public-lite-37'),
      '--out',
      join(dir, 'public'),
    ]),
    runCli([
      'grade',
      '--dataset',
      injection.dataset,
      '--logs',
      injection.logs,
      '--out',
      join(dir, 'inject-out'),
    ]),
    runCli([
      'grade',
      '--dataset',
      injection.dataset,
      '--logs',
      injection.logs,
      '--out',
      join(dir, 'no-view'),
      '--no-view',
    ]),
    launchChromium(),
  ]);
  browser = launched;
  for (const run of [publicRun, injectRun, noView]) expect(run.code, run.stderr).toBe(0);
  expect(noView.stdout).not.toContain('Report:');
  expect(existsSync(join(dir, 'no-view', 'report.html'))).toBe(false);
  expect(existsSync(join(dir, 'no-view', 'results.jsonl'))).toBe(true);
  graded = publicRun;
}, 180_000);
afterEach(async () => {
  const errors = opened.flatMap((p) => p.errors);
  await Promise.all(opened.splice(0).map((p) => p.page.close()));
  expect(errors).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await cleanup();
});

describe('the report of sandkit grade over a public official run', () => {
  it('is printed under the summary, and shows the official agreement of every instance', async () => {
    const file = join(dir, 'public', 'report.html');
    expect(graded.stdout.trimEnd().endsWith(`Report: ${file}`)).toBe(true);
    const { page } = await open(file);
    expect(await page.locator('[data-total="instances"] .card-value').textContent()).toBe('15');
    expect(await page.locator('[data-total="resolved"] .card-value').textContent()).toBe('8');
    const official = await page.locator('.instance-table tbody tr td:last-child').allInnerTexts();
    expect(official).toEqual(new Array(15).fill('agrees'));
    await page.fill('input.filter', 'official agrees django');
    expect(await visibleIds(page)).toHaveLength(13);
  });

  it('opens an instance with the official verdict, the test sandkit reads elsewhere and why, and deciding lines for its tests', async () => {
    const { page } = await open(join(dir, 'public', 'report.html'), 'django__django-11001');
    expect(await page.locator('[data-official]').getAttribute('data-official')).toBe('agrees');
    const difference = await page.locator('[data-official] li').textContent();
    expect(difference).toContain(
      'test_order_of_operations (expressions.tests.BasicExpressionsTests) (FAIL_TO_PASS): official failure, sandkit success',
    );
    expect(difference).toContain('parse_log_django');
    const f2p = page.locator('[data-list="FAIL_TO_PASS"] li');
    expect(await f2p.count()).toBe(2);
    // the official log lists each test on a "... ok" / "... FAIL" line: every listed test has one
    const p2p = await page.locator('[data-list="PASS_TO_PASS"] li').count();
    expect(p2p).toBe(118);
    expect(await page.locator('.tests .line-link').count()).toBe(120);
    await page.locator('[data-list="FAIL_TO_PASS"] .line-link').first().click();
    await screenshot(page, dir, 'grade-instance');
  });
});

describe('a report of logs, test names and a patch that carry markup', () => {
  it('shows the markup as text, marks the test missing from the log, and runs no injected script', async () => {
    const { page } = await open(join(dir, 'inject-out', 'report.html'), injectedId);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    // the viewer is the one script that is not JSON data: nothing injected
    expect(await page.locator('script:not([type="application/json"])').count()).toBe(1);
    const tests = await page
      .locator('.tests li')
      .evaluateAll((items) =>
        items.map((li) => `${li.getAttribute('data-status')} ${li.querySelector('code')?.textContent}`),
      );
    expect(tests).toEqual([`passed ${passing}`, `missing ${missing}`]);
    expect(await page.locator('[data-reason]').textContent()).toContain(
      `1 PASS_TO_PASS test(s) missing from the log: ${missing}`,
    );
    expect(await page.locator('.log').textContent()).toContain(`a log line that prints ${img} and ${script}`);
    expect(await page.locator('.ln.hl-passed').textContent()).toContain(`PASSED ${passing}`);
    const diff = await page.locator('.diff').textContent();
    expect(diff).toContain(`old = "${script}"`);
    expect(diff).toContain(`new = "${img}"`);
    await page.goto(`${page.url().split('#')[0]}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('input.filter', '<script>');
    expect(await visibleIds(page)).toEqual([]);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});

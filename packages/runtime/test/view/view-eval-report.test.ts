/**
 * `sandkit eval --example` (the embedded dataset's gold and prediction runs, run once for the file)
 * and the reports it writes, opened in headless Chromium from disk: totals, the filter, sorting,
 * an instance by its fragment, its FAIL_TO_PASS / PASS_TO_PASS lists, the diff with the patch
 * chain, the highlighted test output, and gold against wrong side by side. Any console error fails.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../eval/eval-test-helpers.js';
import { launchChromium, type TestBrowser } from './chromium.js';
import { openReport, type ReportPage, screenshot, visibleIds } from './report-page.js';

let dir: string;
let cleanup: () => Promise<void>;
let browser: TestBrowser;
let stdout: string;
const opened: ReportPage[] = [];
const open = async (file: string, fragment = ''): Promise<ReportPage> => {
  const page = await openReport(browser.context, file, fragment);
  opened.push(page);
  return page;
};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('view-eval'));
  const [run, launched] = await Promise.all([
    runCli([
      'eval',
      '--example',
      '--out',
      join(dir, 'out'),
      '--cache-dir',
      join(dir, 'cache'),
      '--workers',
      '2',
    ]),
    launchChromium(),
  ]);
  browser = launched;
  expect(run.stderr).not.toMatch(/sandkit eval:/);
  expect(run.code).toBe(0);
  stdout = run.stdout;
}, 240_000);
afterEach(async () => {
  // every page of a test must have run without a console error, a page error or a dialog
  const errors = opened.flatMap((p) => p.errors);
  await Promise.all(opened.splice(0).map((p) => p.page.close()));
  expect(errors).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await cleanup();
});

const wrong = (): string => join(dir, 'out', 'wrong', 'report.html');

describe('sandkit eval --example', () => {
  it("prints the paths of both runs' reports and of their comparison under the summaries", () => {
    const tail = stdout.slice(stdout.lastIndexOf('Reports (open in a browser):'));
    expect(tail).toContain(join(dir, 'out', 'gold', 'report.html'));
    expect(tail).toContain(`${join(dir, 'out', 'compare.html')} (gold against wrong)`);
    expect(stdout.indexOf('Reports (open in a browser):')).toBeGreaterThan(
      stdout.lastIndexOf('Resolved: 3 of 6'),
    );
    for (const file of [wrong(), join(dir, 'out', 'gold', 'report.html'), join(dir, 'out', 'compare.html')])
      expect(existsSync(file), file).toBe(true);
  });
});

describe('the report of an eval', () => {
  it('shows the totals, the resolved rate with and without infrastructure errors, and the breakdowns', async () => {
    const { page } = await open(wrong());
    const total = (name: string) => page.locator(`[data-total="${name}"] .card-value`).textContent();
    expect(await total('instances')).toBe('6');
    expect(await total('resolved')).toBe('3');
    expect(await total('rate')).toBe('50.0%');
    expect(await total('rate-without-infra')).toBe('50.0%');
    expect(await total('infra')).toBe('0');
    const byStatus = await page.locator('[data-breakdown="By status"] tbody tr').allInnerTexts();
    expect(byStatus.map((row) => row.replace(/\s+/g, ' ').trim()).sort()).toEqual([
      'empty_patch 1',
      'resolved 3',
      'unresolved 2',
    ]);
    const repos = await page
      .locator('[data-breakdown="by repository"] tbody tr td:first-child')
      .allInnerTexts();
    expect(repos).toEqual(['sandkit-mini/durations', 'sandkit-mini/ledger', 'sandkit-mini/pager']);
    await screenshot(page, dir, 'eval-overview');
  });

  it('filters to one status, by "FAIL_TO_PASS failed" and by id, and sorts by time', async () => {
    const { page } = await open(wrong());
    expect(await visibleIds(page)).toHaveLength(6);
    await page.selectOption('select.status-choice', 'unresolved');
    expect((await visibleIds(page)).sort()).toEqual(['sandkit-mini__durations-1', 'sandkit-mini__ledger-1']);
    await page.selectOption('select.status-choice', '');
    await page.getByRole('button', { name: 'FAIL_TO_PASS failed' }).click();
    expect(await visibleIds(page)).toEqual(['sandkit-mini__ledger-1']);
    await page.fill('input.filter', 'pager');
    expect((await visibleIds(page)).sort()).toEqual(['sandkit-mini__pager-1', 'sandkit-mini__pager-2']);
    expect(await page.locator('[data-shown]').getAttribute('data-shown')).toBe('2');
    await page.fill('input.filter', 'status:resolved');
    expect(await visibleIds(page)).toHaveLength(3);
    await page.fill('input.filter', '');
    await page.locator('th', { hasText: 'time' }).click();
    const times = (await page.locator('.instance-table tbody tr td:nth-child(7)').allInnerTexts()).map(
      parseFloat,
    );
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('opens an instance by its fragment: verdict and why, F2P/P2P with statuses, the diff, the deciding lines', async () => {
    const { page } = await open(wrong(), 'sandkit-mini__ledger-1');
    expect(await page.locator('[data-verdict]').textContent()).toBe('unresolved');
    expect(await page.locator('[data-reason]').textContent()).toMatch(
      /^Unresolved: 1 FAIL_TO_PASS test\(s\) failed: test_between_includes_the_end_date/,
    );
    const statuses = async (list: string) =>
      page
        .locator(`[data-list="${list}"] li`)
        .evaluateAll((items) =>
          items.map((li) => `${li.getAttribute('data-status')} ${li.getAttribute('data-test')}`),
        );
    expect(await statuses('FAIL_TO_PASS')).toEqual([
      'passed test_balance_includes_the_until_date (tests.test_book.BalanceTest.test_balance_includes_the_until_date)',
      'failed test_between_includes_the_end_date (tests.test_book.BetweenTest.test_between_includes_the_end_date)',
    ]);
    expect(await statuses('PASS_TO_PASS')).toHaveLength(3);
    expect(await page.locator('.d2h-file-name').first().textContent()).toBe('ledger/book.py');
    expect(await page.locator('.d2h-ins').count()).toBeGreaterThan(0);
    expect(await page.locator('.patch-chain').getAttribute('data-patch-method')).toBe('git apply');
    // the failed test's deciding line is its unittest result line, highlighted as failed
    const failedLine = page.locator('.ln.hl-failed');
    expect(await failedLine.count()).toBe(1);
    expect(await failedLine.textContent()).toMatch(/test_between_includes_the_end_date .* \.\.\. FAIL$/);
    expect(await page.locator('.ln.hl-passed').count()).toBe(4);
    await screenshot(page, dir, 'eval-instance');
  });

  it('names the step of the patch chain that applied a patch only patch --fuzz=5 applies', async () => {
    const { page } = await open(wrong(), 'sandkit-mini__pager-1');
    const steps = await page
      .locator('.patch-chain li')
      .evaluateAll((items) => items.map((li) => `${li.className} ${li.querySelector('code')?.textContent}`));
    expect(steps).toEqual([
      'not-applied git apply',
      'not-applied git apply --reject',
      'applied patch --fuzz=5',
    ]);
    await page.locator('.patch-chain li').first().locator('summary').click();
    expect(await page.locator('.patch-chain li').first().locator('pre').textContent()).toContain(
      'patch does not apply',
    );
  });

  it('shows an empty patch as such, with no tests', async () => {
    const { page } = await open(wrong(), 'sandkit-mini__ledger-2');
    expect(await page.locator('[data-verdict]').textContent()).toBe('empty_patch');
    expect(await page.locator('[data-reason]').textContent()).toMatch(/no patch/);
  });

  it('goes back to the table from an instance, and to an instance from the table', async () => {
    const { page } = await open(wrong());
    await page.getByRole('link', { name: 'sandkit-mini__durations-1' }).click();
    await page.waitForSelector('[data-instance="sandkit-mini__durations-1"]');
    expect(page.url()).toMatch(/#sandkit-mini__durations-1$/);
    await page.getByRole('link', { name: '← all instances' }).click();
    await page.waitForSelector('.instance-table');
  });
});

describe('sandkit view A B (gold against wrong)', () => {
  it('lists the instances that changed verdict both ways and opens one side by side', async () => {
    const compare = join(dir, 'out', 'compare.html');
    const { page } = await open(compare);
    const lost = await page.locator('[data-changes="lost"] li a').allInnerTexts();
    expect(lost.sort()).toEqual([
      'sandkit-mini__durations-1',
      'sandkit-mini__ledger-1',
      'sandkit-mini__ledger-2',
    ]);
    expect(await page.locator('[data-changes="gained"] li').count()).toBe(0);
    await page.getByRole('button', { name: 'changed', exact: true }).click();
    expect(await visibleIds(page)).toHaveLength(3);
    await screenshot(page, dir, 'compare-overview');
    await page.locator('[data-changes="lost"] a', { hasText: 'sandkit-mini__ledger-1' }).click();
    await page.waitForSelector('.side-by-side [data-side="B"] [data-verdict]');
    expect(await page.locator('[data-side="A"] [data-verdict]').textContent()).toBe('resolved');
    expect(await page.locator('[data-side="B"] [data-verdict]').textContent()).toBe('unresolved');
    await screenshot(page, dir, 'compare-instance');
  });
});

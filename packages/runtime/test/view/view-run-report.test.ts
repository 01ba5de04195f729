/**
 * `sandkit run --example --eval` (the scripted model stand-in, with a price so that cost is
 * known) and a run whose stand-in calls a tool that does not exist, both through the real CLI,
 * and their reports opened in headless Chromium from disk: cost, tokens and steps as charts, the
 * exit statuses, the verdicts from `--eval`, and one trajectory step by step, errors marked.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unknownToolScript } from '../../src/run/stand-in/scripts.js';
import { startModelStandIn } from '../../src/run/stand-in/start-model-stand-in.js';
import { miniInstances, runCli, tempDir } from '../eval/eval-test-helpers.js';
import { launchChromium, type TestBrowser } from './chromium.js';
import { openReport, type ReportPage, screenshot, visibleIds } from './report-page.js';

let dir: string;
let cleanup: () => Promise<void>;
let browser: TestBrowser;
let exampleStdout: string;
const opened: ReportPage[] = [];
const open = async (file: string, fragment = ''): Promise<ReportPage> => {
  const page = await openReport(browser.context, file, fragment);
  opened.push(page);
  return page;
};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('view-run'));
  const cache = join(dir, 'cache');
  const env = { XDG_CACHE_HOME: join(dir, 'xdg'), ANTHROPIC_API_KEY: 'stand-in' };
  const [example, launched] = await Promise.all([
    runCli(
      [
        'run',
        '--example',
        '--eval',
        '--price',
        'input=3,output=15',
        '--out',
        join(dir, 'example'),
        '--cache-dir',
        cache,
      ],
      env,
    ),
    launchChromium(),
  ]);
  browser = launched;
  expect(example.code, example.stderr).toBe(0);
  exampleStdout = example.stdout;
  const standIn = await startModelStandIn({ script: unknownToolScript() });
  try {
    const unknown = await runCli(
      [
        'run',
        '--dataset',
        miniInstances,
        '--repos',
        join(cache, 'swebench-mini'),
        '--model',
        'anthropic:stand-in',
        '--base-url',
        standIn.baseURL,
        '--instance-ids',
        'sandkit-mini__pager-1',
        '--out',
        join(dir, 'unknown-tool'),
      ],
      env,
    );
    expect(unknown.code, unknown.stderr).toBe(0);
  } finally {
    await standIn.close();
  }
}, 240_000);
afterEach(async () => {
  const errors = opened.flatMap((p) => p.errors);
  await Promise.all(opened.splice(0).map((p) => p.page.close()));
  expect(errors).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await cleanup();
});

const example = (): string => join(dir, 'example', 'report.html');

describe('the report of sandkit run', () => {
  it('is printed at the end, and shows cost, tokens and steps as charts with the verdicts of --eval', async () => {
    expect(exampleStdout.trimEnd().endsWith(`Report: ${example()}`)).toBe(true);
    const { page } = await open(example());
    expect(await page.locator('[data-total="instances"] .card-value').textContent()).toBe('6');
    expect(await page.locator('[data-total="resolved"] .card-value').textContent()).toBe('6');
    expect(await page.locator('[data-total="steps"] .card-value').textContent()).toBe('12');
    expect(await page.locator('[data-total="cost"] .card-value').textContent()).toMatch(/^\$0\.0\d{3}$/);
    for (const chart of ['cost per instance (USD)', 'tokens per instance', 'steps per instance'])
      expect(await page.locator(`[data-chart="${chart}"] canvas`).count(), chart).toBe(1);
    const exits = await page.locator('[data-breakdown="By exit status"] tbody tr').allInnerTexts();
    expect(exits.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual(['submitted 6']);
    await page.locator('th', { hasText: 'tokens' }).click();
    const tokens = (await page.locator('.instance-table tbody tr td:nth-child(10)').allInnerTexts()).map(
      (t) => Number(t.replace(/,/g, '')),
    );
    expect(tokens).toEqual([...tokens].sort((a, b) => b - a));
    await page.fill('input.filter', 'submitted ledger');
    expect((await visibleIds(page)).sort()).toEqual(['sandkit-mini__ledger-1', 'sandkit-mini__ledger-2']);
    await screenshot(page, dir, 'run-overview');
  });

  it('opens an instance with its trajectory: each step, the tool call with its arguments and result, tokens and cost, the final patch', async () => {
    const { page } = await open(example(), 'sandkit-mini__ledger-1');
    expect(await page.locator('[data-verdict]').textContent()).toBe('resolved');
    const steps = page.locator('.trajectory [data-step]');
    expect(await steps.count()).toBe(2);
    const first = steps.first();
    expect(await first.locator('.step-head').textContent()).toMatch(
      /^step 1 · tool-calls · \d+ in \/ \d+ out tokens · \$0\.\d{4}$/,
    );
    const call = first.locator('[data-tool="apply_diff"]');
    expect(await call.locator('details').first().locator('pre').textContent()).toContain(
      'diff --git a/ledger/book.py',
    );
    expect(await call.locator('details').nth(1).locator('pre').textContent()).toContain('"hunksApplied": 1');
    expect(await steps.nth(1).locator('.model-text').textContent()).toBe('done');
    expect(await page.locator('.trajectory .d2h-file-header .d2h-file-name').textContent()).toBe(
      'ledger/book.py',
    );
    // the diff's file list scrolls to the file and keeps the instance's fragment
    await page.locator('.trajectory .d2h-file-list a').click();
    expect(page.url()).toMatch(/#sandkit-mini__ledger-1$/);
    expect(await page.locator('[data-instance="sandkit-mini__ledger-1"]').count()).toBe(1);
    expect(await page.locator('.tests .line-link').count()).toBeGreaterThan(0);
    await screenshot(page, dir, 'run-trajectory');
  });

  it('marks a tool call that failed as an error, with its message', async () => {
    const { page } = await open(join(dir, 'unknown-tool', 'report.html'), 'sandkit-mini__pager-1');
    const call = page.locator('[data-tool="no_such_tool"]');
    expect(await call.getAttribute('class')).toBe('call error');
    expect(await page.locator('.step.has-error').count()).toBe(1);
    expect(await call.textContent()).toMatch(/no_such_tool/);
    expect(await page.locator('[data-reason]').textContent()).toMatch(
      /^Agent run ended as submitted; not graded/,
    );
  });
});

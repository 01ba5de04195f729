/**
 * Opening a `sandkit view` report in the test browser as a person would: from disk (`file://`),
 * waiting until the viewer has drawn the page; and screenshots, written where
 * `SANDKIT_SCREENSHOTS` says (CI keeps them) or beside the test's temp files.
 * @module
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openPage } from './chromium.js';

/** A report page and the errors it logged. */
export interface ReportPage {
  page: Page;
  errors: string[];
}

/** Opens `file` (at `#fragment` when given) and waits for the viewer's `data-ready`. */
export async function openReport(context: BrowserContext, file: string, fragment = ''): Promise<ReportPage> {
  const opened = await openPage(context);
  await opened.page.goto(
    `${pathToFileURL(file).href}${fragment === '' ? '' : `#${encodeURIComponent(fragment)}`}`,
  );
  await opened.page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  return opened;
}

/** Takes a full-page screenshot named `name` into `dir` (or `$SANDKIT_SCREENSHOTS`) and checks it holds a picture. */
export async function screenshot(page: Page, dir: string, name: string): Promise<string> {
  const file = join(process.env.SANDKIT_SCREENSHOTS ?? dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect((await stat(file)).size).toBeGreaterThan(10_000);
  return file;
}

/** The visible rows' instance ids of the instance table. */
export async function visibleIds(page: Page): Promise<string[]> {
  return page.locator('.instance-table tbody tr td:first-child').allInnerTexts();
}

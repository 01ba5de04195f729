/**
 * Debian's Chromium (`/usr/bin/chromium`, installed by scripts/setup.sh) driven by playwright-core:
 * never a downloaded browser. The flags keep it off this machine's closed network (no background
 * requests, no component updates); each launch gets a fresh profile directory. Every page records
 * its console errors and uncaught exceptions, which the tests require to be none.
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where Debian's package puts the browser. */
export const chromiumPath = '/usr/bin/chromium';

/** A running browser, its profile directory and a way to close both. */
export interface TestBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium with a new profile. */
export async function launchChromium(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'sandkit-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1400, height: 900 },
  });
  const browser = context.browser() as Browser;
  return {
    browser,
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** A page whose console errors, page errors and dialogs (an injected `alert`) are collected. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, errors };
}

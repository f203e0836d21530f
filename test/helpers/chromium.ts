// Debian's headless Chromium, driven by playwright-core, for the tests that open an HTML report
// as a person would: from file://, the network closed, every console error and request kept.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Outside CI a machine without Debian's chromium skips; in CI (.ci/run installs it) it must run. */
export function chromiumSkip(env: NodeJS.ProcessEnv): string | false {
  return env.CI === undefined && !existsSync(CHROMIUM)
    ? 'chromium is missing: apt-get install chromium (bash .ci/run does)'
    : false;
}

/** An opened report: its page, what it logged as errors and every URL it requested. */
export interface OpenedReport {
  readonly page: Page;
  readonly url: string;
  readonly errors: readonly string[];
  readonly requests: readonly string[];
  readonly close: () => Promise<void>;
}

/**
 * Opens `file` in headless Chromium with a fresh profile and no background networking, and waits
 * until its charts are drawn (`data-charts="ready"`).
 */
export async function openReport(file: string): Promise<OpenedReport> {
  const profile = mkdtempSync(join(tmpdir(), 'barrage-chromium-'));
  const browser: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
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
  });
  const close = async (): Promise<void> => {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    const url = pathToFileURL(file).href;
    await page.goto(url);
    await page.waitForSelector('html[data-charts="ready"]', { timeout: 20_000 });
    return { page, url, errors, requests, close };
  } catch (error) {
    await close();
    throw error;
  }
}

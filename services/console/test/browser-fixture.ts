/**
 * The set-up every console browser test file shares: a console harness (ledger, console, Chromium) started
 * before the file's tests and stopped after them, an admin, a reviewer and a site, and optionally a browser
 * session logged in as one of the two.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { useHarness } from '@kasa/testkit/jest';
import { startConsoleHarness, type ConsoleHarness, type TestOperator, type TestSite } from './harness.js';

export interface ConsoleBrowser {
  h: ConsoleHarness;
  admin: TestOperator;
  reviewer: TestOperator;
  site: TestSite;
  /** Only with `loggedInAs`: the browser context logged in as that operator, and its page. */
  context: BrowserContext;
  page: Page;
}

/**
 * Registers the file's beforeAll and afterAll; the answer is filled in by beforeAll, so read it inside tests
 * and hooks (`const { h, page } = setup;` at the top of a test). Stopping the harness closes Chromium, and
 * with it the session.
 */
export function useConsoleBrowser(options: { loggedInAs?: 'admin' | 'reviewer' } = {}): ConsoleBrowser {
  return useHarness(startConsoleHarness, async (h) => {
    const [admin, reviewer, site] = await Promise.all([h.createOperator('ADMIN'), h.createOperator('REVIEWER'), h.createSite()]);
    const session = options.loggedInAs ? await h.login(options.loggedInAs === 'admin' ? admin : reviewer) : {};
    return { admin, reviewer, site, ...session } as Omit<ConsoleBrowser, 'h'>;
  });
}

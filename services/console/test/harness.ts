/**
 * A real ledger and a real console on free ports over a fresh database and Redis prefix, and a real
 * Chromium. Data is provisioned over HTTP: the ops API (bootstrap token) for sites, operators and bank
 * transfers, the ledger's internal API (as the gateway calls it) for partner creates.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLedger, type LedgerService } from '@kasa/ledger';
import {
  createTestEnvironment,
  type HttpResult,
  launchChromium,
  Scenario,
  type ScenarioOperator,
  type ScenarioSite,
  type TestEnvironment,
} from '@kasa/testkit';
import { startConsole, type ConsoleService } from '../src/index.js';

export type TestSite = ScenarioSite;
export type TestOperator = ScenarioOperator;

export interface ConsoleHarness {
  env: TestEnvironment;
  ledger: LedgerService;
  console: ConsoleService;
  browser: Browser;
  /** The ops API as the bootstrap admin (or `token`). */
  ops(method: string, path: string, body?: unknown, token?: string): Promise<HttpResult>;
  createSite(overrides?: Record<string, unknown>): Promise<TestSite>;
  createOperator(role: 'REVIEWER' | 'ADMIN'): Promise<TestOperator>;
  createDeposit(site: TestSite, amount: number, extra?: Record<string, string>): Promise<{ intentId: string; referenceNo: string }>;
  createWithdrawal(site: TestSite, amount: number): Promise<{ withdrawalId: string; referenceNo: string }>;
  /** Records a bank transfer whose description carries `reference`. */
  transfer(reference: string, amount: number): Promise<HttpResult>;
  /** Puts `amount` on the site's available balance: a deposit, its transfer and its approval. */
  fund(site: TestSite, amount: number): Promise<void>;
  /** A fresh browser context logged in as `operator`, its page on the review queue. */
  login(operator: TestOperator): Promise<{ context: BrowserContext; page: Page }>;
  stop(): Promise<void>;
}

export async function startConsoleHarness(): Promise<ConsoleHarness> {
  // Chromium starts in its own process while the database is migrated and the services start (closed again if
  // they fail to).
  const launching = launchChromium();
  launching.catch(() => undefined);
  const started = (async () => {
    // A loopback webhook host is allowed so a test can create a site with a webhook URL (no DNS here).
    const env = await createTestEnvironment({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
    const ledger = await startLedger(env.config, 0);
    const consoleService = await startConsole({ ...env.config, ledgerUrl: ledger.url }, 0);
    return { env, ledger, consoleService };
  })();
  started.catch(() => launching.then((browser) => browser.close()).catch(() => undefined));
  const { env, ledger, consoleService } = await started;
  const browser = await launching;
  const scenario = new Scenario({
    ledgerUrl: ledger.url,
    opsToken: env.config.opsBootstrapToken,
    internalToken: env.config.internalToken,
    slugPrefix: 'c',
  });

  const h: ConsoleHarness = {
    env,
    ledger,
    console: consoleService,
    browser,
    ops: (method, path, body, token) => scenario.ops(method, path, body, token),
    createSite: (overrides) => scenario.createSite(overrides),
    createOperator: (role) => scenario.createOperator(role),
    createDeposit: (site, amount, extra) => scenario.createDeposit(site.siteId, amount, extra),
    createWithdrawal: (site, amount) => scenario.createWithdrawal(site.siteId, amount),
    transfer: (reference, amount) => scenario.transfer(reference, amount),
    fund: (site, amount) => scenario.fund(site.siteId, amount),
    // The console opens on the dashboard; the tests start on the review queue, so they ask for it.
    login: (operator) => loginInBrowser(browser, consoleService.url, operator, '/review'),
    async stop() {
      await browser.close();
      await consoleService.stop();
      await ledger.stop();
      await env.cleanup();
    },
  };

  await scenario.createReceivingAccount();
  return h;
}

export type { HttpResult };

/**
 * A new browser context logged in to the console at `consoleUrl` through its login form, as `operator`; on `next` when
 * given (else wherever the console opens), in a browser that prefers `locale`. Its confirm dialogs are accepted.
 */
export async function loginInBrowser(
  browser: Browser,
  consoleUrl: string,
  operator: TestOperator,
  next?: string,
  locale: 'en-US' | 'tr-TR' = 'en-US',
): Promise<{ context: BrowserContext; page: Page }> {
  // The browser's language picks the console's (English unless it prefers Turkish): said, not left to the machine.
  const context = await browser.newContext({ baseURL: consoleUrl, locale });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
  // By field name, not label: the form speaks the browser's language.
  await page.locator('input[name="email"]').fill(operator.email);
  await page.locator('input[name="password"]').fill(operator.password);
  await page.locator('form[action="/login"] button[type="submit"]').click();
  if (next) await page.waitForURL(`**${next}`, { timeout: 10_000 });
  else await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 10_000 });
  return { context, page };
}

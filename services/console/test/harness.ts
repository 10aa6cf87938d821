/**
 * A real ledger and a real console on free ports over a fresh database and Redis prefix, and a real
 * Chromium. Data is provisioned over HTTP: the ops API (bootstrap token) for sites, operators and bank
 * transfers, the ledger's internal API (as the gateway calls it) for partner creates.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, expectStatus, httpJson, type HttpResult, launchChromium, makeTrIban, type TestEnvironment } from '@kasa/testkit';
import { startConsole, type ConsoleService } from '../src/index.js';

export interface TestSite {
  siteId: string;
  slug: string;
}

export interface TestOperator {
  operatorId: string;
  email: string;
  password: string;
}

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

let counter = 0;
const unique = () => `${process.pid}-${(counter += 1)}-${randomUUID().slice(0, 6)}`;

export async function startConsoleHarness(): Promise<ConsoleHarness> {
  // A loopback webhook host is allowed so a test can create a site with a webhook URL (no DNS here).
  const env = await createTestEnvironment({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const ledger = await startLedger(env.config, 0);
  const consoleService = await startConsole({ ...env.config, ledgerUrl: ledger.url }, 0);
  const browser = await launchChromium();
  const bootstrap = env.config.opsBootstrapToken;
  const internal = (method: string, path: string, body?: unknown) =>
    httpJson(`${ledger.url}/internal/v1${path}`, method, { 'x-internal-token': env.config.internalToken }, body);
  const partnerCreate = async (site: TestSite, kind: 'deposits' | 'withdrawals', request: Record<string, string>) => {
    const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    return expectStatus(
      await internal('POST', `/sites/${site.siteId}/${kind}`, { idempotencyKey: randomUUID(), fingerprint, request }),
      201,
      `create ${kind}`,
    ).body;
  };

  const h: ConsoleHarness = {
    env,
    ledger,
    console: consoleService,
    browser,
    ops: (method, path, body, token = bootstrap) => httpJson(`${ledger.url}/ops/v1${path}`, method, { authorization: `Bearer ${token}` }, body),
    async createSite(overrides = {}) {
      const slug = `c-${unique()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
      const site = expectStatus(await h.ops('POST', '/sites', { slug, name: `Site ${slug}`, ...overrides }), 201, 'create site');
      return { siteId: site.body.siteId, slug };
    },
    async createOperator(role) {
      const email = `op-${unique()}@kasa.test`;
      const password = `pw-${randomUUID()}`;
      const created = expectStatus(
        await h.ops('POST', '/operators', { email, name: `Operator ${role}`, role, password }),
        201,
        'create operator',
      );
      return { operatorId: created.body.operatorId, email, password };
    },
    createDeposit: (site, amount, extra = {}) =>
      partnerCreate(site, 'deposits', { externalUserId: `u-${unique()}`, amount: String(amount), ...extra }),
    createWithdrawal: (site, amount) =>
      partnerCreate(site, 'withdrawals', {
        externalUserId: `u-${unique()}`,
        amount: String(amount),
        targetIban: makeTrIban(7_000_000 + counter),
        targetHolderName: 'Ayşe Yılmaz',
      }),
    transfer: (reference, amount) =>
      h.ops('POST', '/bank-transfers', {
        bankTxId: `tx-${unique()}`,
        amount: String(amount),
        senderName: 'Ayşe Yılmaz',
        senderIban: makeTrIban(4_200_000 + counter),
        description: `Havale ${reference} yatirim`,
        receivedAt: new Date().toISOString(),
      }),
    async fund(site, amount) {
      const intent = await h.createDeposit(site, amount);
      expectStatus(await h.transfer(intent.referenceNo, amount), 201, 'fund transfer');
      expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, {}), 200, 'fund approve');
    },
    async login(operator) {
      const context = await browser.newContext({ baseURL: consoleService.url });
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(operator.email);
      await page.getByLabel('Password').fill(operator.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL('**/review', { timeout: 10_000 });
      return { context, page };
    },
    async stop() {
      await browser.close();
      await consoleService.stop();
      await ledger.stop();
      await env.cleanup();
    },
  };

  expectStatus(
    await h.ops('POST', '/receiving-accounts', {
      bankName: 'Test Bankası',
      holderName: 'Kasa Ödeme A.Ş.',
      iban: makeTrIban(Math.floor(Math.random() * 1e9)),
    }),
    201,
    'receiving account',
  );
  return h;
}

/** Polls `probe` until it returns a truthy value, at most `timeoutMs`; every wait in these tests is bounded. */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type { HttpResult };

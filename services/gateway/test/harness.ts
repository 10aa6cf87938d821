/**
 * Starts a real ledger and gateway on free ports over a fresh database and Redis prefix, and provisions
 * sites through the real ops API. Every test file builds its own and tears it down.
 */
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, httpJson, makeTrIban, type TestEnvironment } from '@kasa/testkit';
import { startGateway, type GatewayService } from '../src/index.js';

export interface Harness {
  env: TestEnvironment;
  ledger: LedgerService;
  gateway: GatewayService;
  /** Creates a site (with one API key) through the ops API. */
  createSite(overrides?: Record<string, unknown>): Promise<TestSite>;
  ops(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

export interface TestSite {
  siteId: string;
  slug: string;
  apiKey: string;
  apiKeyId: string;
}

let siteCounter = 0;

/** `receivingAccount` replaces the names of the one receiving account every deposit is sent to. */
export async function startHarness(
  envOverrides: Record<string, string> = {},
  options: { receivingAccount?: { bankName?: string; holderName?: string } } = {},
): Promise<Harness> {
  const env = await createTestEnvironment(envOverrides);
  const ledger = await startLedger(env.config, 0);
  const gateway = await startGateway({ ...env.config, ledgerUrl: ledger.url }, 0);
  const ops = (method: string, path: string, body?: unknown) =>
    httpJson(`${ledger.url}${path}`, method, { authorization: `Bearer ${env.config.opsBootstrapToken}` }, body);
  const account = await ops('POST', '/ops/v1/receiving-accounts', {
    bankName: 'Test Bankası',
    holderName: 'Kasa Ödeme Hizmetleri A.Ş.',
    iban: makeTrIban(Date.now() % 1e9),
    ...options.receivingAccount,
  });
  if (account.status !== 201) throw new Error(`receiving account: ${JSON.stringify(account.body)}`);
  return {
    env,
    ledger,
    gateway,
    ops,
    async createSite(overrides = {}) {
      siteCounter += 1;
      const slug = `site-${process.pid}-${siteCounter}-${Math.random().toString(36).slice(2, 7)}`;
      const site = await ops('POST', '/ops/v1/sites', { slug, name: `Test ${slug}`, ...overrides });
      if (site.status !== 201) throw new Error(`create site: ${JSON.stringify(site.body)}`);
      const key = await ops('POST', `/ops/v1/sites/${site.body.siteId}/api-keys`, {});
      if (key.status !== 201) throw new Error(`issue key: ${JSON.stringify(key.body)}`);
      return { siteId: site.body.siteId, slug, apiKey: key.body.apiKey, apiKeyId: key.body.apiKeyId };
    },
    async stop() {
      await gateway.stop();
      await ledger.stop();
      await env.cleanup();
    },
  };
}

export const validIban = makeTrIban;

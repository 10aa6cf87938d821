/**
 * Starts a real ledger and gateway on free ports over a fresh database and Redis prefix, and provisions
 * sites through the real ops API. Every test file builds its own and tears it down.
 */
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, httpJson, makeTrIban, Scenario, type TestEnvironment } from '@kasa/testkit';
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

/** `receivingAccount` replaces the names of the one receiving account every deposit is sent to. */
export async function startHarness(
  envOverrides: Record<string, string> = {},
  options: { receivingAccount?: { bankName?: string; holderName?: string } } = {},
): Promise<Harness> {
  const env = await createTestEnvironment(envOverrides);
  const ledger = await startLedger(env.config, 0);
  const gateway = await startGateway({ ...env.config, ledgerUrl: ledger.url }, 0);
  const scenario = new Scenario({
    ledgerUrl: ledger.url,
    opsToken: env.config.opsBootstrapToken,
    internalToken: env.config.internalToken,
    slugPrefix: 'site',
  });
  // Paths here are absolute (`/ops/v1/...`), as the gateway tests write them.
  const ops = (method: string, path: string, body?: unknown) =>
    httpJson(`${ledger.url}${path}`, method, { authorization: `Bearer ${env.config.opsBootstrapToken}` }, body);
  await scenario.createReceivingAccount({
    holderName: 'Kasa Ödeme Hizmetleri A.Ş.',
    iban: makeTrIban(Date.now() % 1e9),
    ...options.receivingAccount,
  });
  return {
    env,
    ledger,
    gateway,
    ops,
    async createSite(overrides = {}) {
      const site = await scenario.createSite(overrides);
      return { ...site, ...(await scenario.issueApiKey(site.siteId)) };
    },
    async stop() {
      await gateway.stop();
      await ledger.stop();
      await env.cleanup();
    },
  };
}

export const validIban = makeTrIban;

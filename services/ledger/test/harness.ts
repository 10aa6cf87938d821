/**
 * A real ledger on a free port over a fresh database and Redis prefix; everything is driven over HTTP:
 * the ops API for operators, the internal API (as the gateway calls it) for partner creates.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createTestEnvironment, expectStatus, httpJson, type HttpResult, makeTrIban, type TestEnvironment } from '@kasa/testkit';
import { startLedger, type LedgerService } from '../src/index.js';

export interface TestSite {
  siteId: string;
  slug: string;
}

export interface TestOperator {
  operatorId: string;
  email: string;
  password: string;
  token: string;
}

export interface LedgerHarness {
  env: TestEnvironment;
  ledger: LedgerService;
  /** Calls the ops API; `token` defaults to the bootstrap admin token. */
  ops(method: string, path: string, body?: unknown, token?: string): Promise<HttpResult>;
  internal(method: string, path: string, body?: unknown): Promise<HttpResult>;
  createSite(overrides?: Record<string, unknown>): Promise<TestSite>;
  createOperator(role: 'REVIEWER' | 'ADMIN'): Promise<TestOperator>;
  createDeposit(site: TestSite, amount: string | number): Promise<{ intentId: string; referenceNo: string; expiresAt: string }>;
  createWithdrawal(site: TestSite, amount: string | number): Promise<{ withdrawalId: string; referenceNo: string }>;
  /** Records a bank transfer whose description carries `reference` (pass '' for none). */
  transfer(reference: string, amount: string | number, overrides?: Record<string, unknown>): Promise<HttpResult>;
  /** Puts `amount` on the site's available balance: a deposit, its transfer and its approval. */
  fund(site: TestSite, amount: string | number): Promise<void>;
  /** Stops the ledger, runs `whileDown` (e.g. lose Redis state), then starts a new one on the same database and Redis. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

let counter = 0;
const unique = () => `${process.pid}-${(counter += 1)}-${randomUUID().slice(0, 6)}`;

export async function startLedgerHarness(envOverrides: Record<string, string> = {}): Promise<LedgerHarness> {
  const env = await createTestEnvironment(envOverrides);
  let ledger = await startLedger(env.config, 0);
  const bootstrap = env.config.opsBootstrapToken;

  const h: LedgerHarness = {
    env,
    get ledger() {
      return ledger;
    },
    ops: (method, path, body, token = bootstrap) => httpJson(`${ledger.url}/ops/v1${path}`, method, { authorization: `Bearer ${token}` }, body),
    internal: (method, path, body) => httpJson(`${ledger.url}/internal/v1${path}`, method, { 'x-internal-token': env.config.internalToken }, body),
    async createSite(overrides = {}) {
      const slug = `s-${unique()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
      const site = expectStatus(await h.ops('POST', '/sites', { slug, name: `Site ${slug}`, ...overrides }), 201, 'create site');
      return { siteId: site.body.siteId, slug };
    },
    async createOperator(role) {
      const email = `op-${unique()}@kasa.test`;
      const password = `pw-${randomUUID()}`;
      const created = expectStatus(await h.ops('POST', '/operators', { email, name: `Operator ${role}`, role, password }), 201, 'create operator');
      const session = expectStatus(await h.ops('POST', '/login', { email, password }, ''), 201, 'login');
      return { operatorId: created.body.operatorId, email, password, token: session.body.token };
    },
    async createDeposit(site, amount) {
      const request = { externalUserId: `u-${unique()}`, amount: String(amount) };
      const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      const created = await h.internal('POST', `/sites/${site.siteId}/deposits`, { idempotencyKey: randomUUID(), fingerprint, request });
      return expectStatus(created, 201, 'create deposit').body;
    },
    async createWithdrawal(site, amount) {
      const request = { externalUserId: `u-${unique()}`, amount: String(amount), targetIban: makeTrIban(counter + 7_000_000), targetHolderName: 'Ayşe Yılmaz' };
      const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
      const created = await h.internal('POST', `/sites/${site.siteId}/withdrawals`, { idempotencyKey: randomUUID(), fingerprint, request });
      return expectStatus(created, 201, 'create withdrawal').body;
    },
    transfer(reference, amount, overrides = {}) {
      return h.ops('POST', '/bank-transfers', {
        bankTxId: `tx-${unique()}`,
        amount: String(amount),
        senderName: 'Ayşe Yılmaz',
        senderIban: makeTrIban(4_200_000 + counter),
        description: reference ? `Havale ${reference} yatirim` : 'Havale',
        receivedAt: new Date().toISOString(),
        ...overrides,
      });
    },
    async fund(site, amount) {
      const intent = await h.createDeposit(site, amount);
      expectStatus(await h.transfer(intent.referenceNo, amount), 201, 'fund transfer');
      expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, {}), 200, 'fund approve');
    },
    async restart(whileDown) {
      await ledger.stop();
      await whileDown?.();
      ledger = await startLedger(env.config, 0);
    },
    async stop() {
      await ledger.stop();
      await env.cleanup();
    },
  };

  expectStatus(
    await h.ops('POST', '/receiving-accounts', { bankName: 'Test Bankası', holderName: 'Kasa Ödeme A.Ş.', iban: makeTrIban(Math.floor(Math.random() * 1e9)) }),
    201,
    'receiving account',
  );
  return h;
}

/** Polls `probe` until it returns a truthy value, at most `timeoutMs`; every wait in these tests is bounded. */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type { HttpResult };

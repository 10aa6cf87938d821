/**
 * A real ledger on a free port over a fresh database and Redis prefix; everything is driven over HTTP:
 * the ops API for operators, the internal API (as the gateway calls it) for partner creates.
 */
import { createTestEnvironment, type HttpResult, Scenario, type TestEnvironment } from '@kasa/testkit';
import { startLedger, type LedgerService } from '../src/index.js';
import type { Logger } from '@kasa/logger';
import { systemClock, type Clock } from '../src/shared/clock.js';

/**
 * A clock the test moves by hand, for the ledger's decisions by time (expiry, the sweep's cut-off): it stands
 * still until {@link TestClock.advance}, so a test moves past an expiry instead of sleeping until it passes.
 */
export class TestClock implements Clock {
  private ms: number;

  constructor(start = new Date()) {
    this.ms = start.getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}

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
  /** The ledger's clock: the system clock unless the test passed its own. */
  clock: Clock;
  /** Calls the ops API; `token` defaults to the bootstrap admin token. */
  ops(method: string, path: string, body?: unknown, token?: string): Promise<HttpResult>;
  internal(method: string, path: string, body?: unknown): Promise<HttpResult>;
  createSite(overrides?: Record<string, unknown>): Promise<TestSite>;
  createOperator(role: 'REVIEWER' | 'ADMIN'): Promise<TestOperator>;
  /** `extra`: more fields of the partner's create body (externalUserId, externalUserLabel, ...). */
  createDeposit(
    site: TestSite,
    amount: string | number,
    extra?: Record<string, unknown>,
  ): Promise<{ intentId: string; referenceNo: string; expiresAt: string }>;
  createWithdrawal(
    site: TestSite,
    amount: string | number,
    extra?: Record<string, unknown>,
  ): Promise<{ withdrawalId: string; referenceNo: string }>;
  /** Records a bank transfer whose description carries `reference` (pass '' for none), received now by the ledger's clock. */
  transfer(reference: string, amount: string | number, overrides?: Record<string, unknown>): Promise<HttpResult>;
  /** Puts `amount` on the site's available balance: a deposit, its transfer and its approval. */
  fund(site: TestSite, amount: string | number): Promise<void>;
  /** Stops the ledger, runs `whileDown` (e.g. lose Redis state), then starts a new one on the same database and Redis. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface LedgerHarnessOptions {
  /** The ledger's clock, kept across restarts; pass a {@link TestClock} to move time instead of sleeping. */
  clock?: Clock;
  /** The ledger's logger (a test reading what was logged); the configured one unless given. */
  logger?: Logger;
}

export async function startLedgerHarness(
  envOverrides: Record<string, string> = {},
  options: LedgerHarnessOptions = {},
): Promise<LedgerHarness> {
  const env = await createTestEnvironment(envOverrides);
  const clock = options.clock ?? systemClock;
  const overrides = { clock, ...(options.logger ? { logger: options.logger } : {}) };
  let ledger = await startLedger(env.config, 0, overrides);
  const scenario = new Scenario({
    ledgerUrl: () => ledger.url,
    opsToken: env.config.opsBootstrapToken,
    internalToken: env.config.internalToken,
  });

  const h: LedgerHarness = {
    env,
    get ledger() {
      return ledger;
    },
    clock,
    ops: (method, path, body, token) => scenario.ops(method, path, body, token),
    internal: (method, path, body) => scenario.internal(method, path, body),
    createSite: (overrides) => scenario.createSite(overrides),
    async createOperator(role) {
      const operator = await scenario.createOperator(role);
      return { ...operator, token: await scenario.login(operator) };
    },
    createDeposit: (site, amount, extra) => scenario.createDeposit(site.siteId, amount, extra),
    createWithdrawal: (site, amount, extra) => scenario.createWithdrawal(site.siteId, amount, extra),
    transfer: (reference, amount, overrides) =>
      scenario.transfer(reference, amount, { receivedAt: clock.now().toISOString(), ...overrides }),
    fund: (site, amount) => scenario.fund(site.siteId, amount),
    async restart(whileDown) {
      await ledger.stop();
      await whileDown?.();
      ledger = await startLedger(env.config, 0, overrides);
    },
    async stop() {
      await ledger.stop();
      await env.cleanup();
    },
  };

  await scenario.createReceivingAccount();
  return h;
}

export { eventually } from '@kasa/testkit';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type { HttpResult };

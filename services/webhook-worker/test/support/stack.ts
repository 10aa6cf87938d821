/**
 * The whole delivery path for a test: a real ledger and gateway (the gateway's test harness), an HTTPS
 * receiver with the test's own CA, and the webhook worker in-process trusting that CA.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { KasaConfig } from '@kasa/config';
import { startHarness, type Harness, type TestSite } from '../../../gateway/test/harness.js';
import { emitEvents } from '../../../ledger/test/emit-event.js';
import { startWorker, type WebhookWorkerService, type WorkerOverrides } from '../../src/index.js';
import { makeTestTls, startReceiver, type Receiver, type Respond, type TestTls } from './receiver.js';

/** Settings that make retries and recovery quick enough for a test, without changing any code. */
export const FAST_DELIVERY_ENV: Record<string, string> = {
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
  WEBHOOK_RETRY_DELAY_MS: '150',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_CONCURRENCY: '20',
  OUTBOX_RELAY_INTERVAL_MS: '300',
  OUTBOX_RELAY_GRACE_MS: '300',
  OUTBOX_RELAY_LOST_JOB_AFTER_MS: '1500',
  // Tests that look at DEAD events keep them; auto-replay.test.ts turns it on.
  WEBHOOK_AUTO_REPLAY_WINDOW_HOURS: '0',
};

export interface Stack {
  h: Harness;
  tls: TestTls;
  receiver: Receiver;
  worker: WebhookWorkerService | null;
  startWorker(overrides?: WorkerOverrides, config?: Partial<KasaConfig>): Promise<WebhookWorkerService>;
  stop(): Promise<void>;
}

export async function startStack(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<Stack> {
  const tls = makeTestTls();
  const h = await startHarness({ ...FAST_DELIVERY_ENV, ...env });
  const receiver = await startReceiver(tls);
  const stack: Stack = {
    h,
    tls,
    receiver,
    worker: null,
    async startWorker(overrides = {}, config = {}) {
      const worker = await startWorker({ ...h.env.config, ...config }, 0, { ca: tls.ca, ...overrides });
      stack.worker = worker;
      return worker;
    },
    async stop() {
      await stack.worker?.stop();
      await receiver.close();
      await h.stop();
      tls.cleanup();
    },
  };
  if (options.worker !== false) await stack.startWorker();
  return stack;
}

/** PUT /site/webhook-config through the gateway; returns the response body. */
export async function configureWebhook(h: Harness, site: TestSite, webhookUrl: string, rotateSecret?: boolean) {
  const response = await request(h.gateway.url)
    .put('/api/v1/external/site/webhook-config')
    .set('authorization', `Bearer ${site.apiKey}`)
    .send({ webhookUrl, ...(rotateSecret === undefined ? {} : { rotateSecret }) });
  if (response.status !== 200) throw new Error(`webhook config: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { webhookUrl: string; webhookSecret: string | null; rotatedAt: string };
}

/** Creates a deposit intent through the gateway and returns its id. */
export async function createDeposit(h: Harness, site: TestSite): Promise<string> {
  const response = await request(h.gateway.url)
    .post('/api/v1/external/deposits')
    .set('authorization', `Bearer ${site.apiKey}`)
    .set('idempotency-key', randomUUID())
    .send({ externalUserId: 'user-1', amount: '150000' });
  if (response.status !== 201) throw new Error(`create deposit: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.intentId as string;
}

/** Polls `check` until it returns a truthy value or the deadline passes (then fails with `what`). */
/** A new site whose webhook goes to `path` on the stack's receiver (the receiver's `respond` decides its answers). */
export async function siteAt(stack: Stack, path: string): Promise<TestSite> {
  const site = await stack.h.createSite();
  await configureWebhook(stack.h, site, stack.receiver.url.replace('/webhooks/kasa', path));
  return site;
}

/** One `intent.approved` event of a new deposit of `site`, in the outbox; its event id. */
export async function emitApproved(stack: Stack, site: TestSite): Promise<string> {
  const intentId = await createDeposit(stack.h, site);
  const [payload] = await emitEvents(stack.h.ledger, [{ siteId: site.siteId, type: 'intent.approved' as const, entityId: intentId }]);
  return payload!.eventId;
}

export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 15_000, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export type { Respond };

/**
 * One deposit followed through the logs: the gateway and the ledger run in this process with their winston
 * output captured (createLogger's `stream`), a partner creates a deposit through the gateway with its own
 * X-Request-Id, an operator records the matching bank transfer and approves the deposit through the ops
 * API, each with a request id of its own. Filtering the JSON lines by a request id must find that request's
 * access lines and business steps, and the outbox event must carry the id of the request that caused it.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startGateway, type GatewayService } from '@kasa/gateway';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createLogger } from '@kasa/logger';
import { createTestEnvironment, expectStatus, httpJson, makeTrIban, Scenario, type TestEnvironment } from '@kasa/testkit';
import { startWorker, type WebhookWorkerService } from '../../services/webhook-worker/src/index.js';
import { makeTestTls, startReceiver, type Receiver, type TestTls } from '../../services/webhook-worker/test/support/receiver.js';

type Line = Record<string, unknown> & { service: string; level: string; message: string };

const raw: string[] = [];
function capture(service: string) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return createLogger({ service, level: 'debug', stream });
}
const lines = (): Line[] => raw.map((text) => JSON.parse(text) as Line);

let env: TestEnvironment;
let ledger: LedgerService;
let gateway: GatewayService;
let worker: WebhookWorkerService;
let tls: TestTls;
let receiver: Receiver;
let site: { siteId: string; apiKey: string };
const consoleOutput = ['log', 'info', 'warn', 'error'].map((method) => jest.spyOn(console, method as 'log'));

beforeAll(async () => {
  env = await createTestEnvironment({ LOG_LEVEL: 'debug', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost' });
  ledger = await startLedger(env.config, 0, { logger: capture('ledger') });
  gateway = await startGateway({ ...env.config, ledgerUrl: ledger.url }, 0, { logger: capture('gateway') });
  tls = makeTestTls();
  receiver = await startReceiver(tls);
  worker = await startWorker(env.config, 0, { ca: tls.ca, logger: capture('webhook-worker') });
  const scenario = new Scenario({ ledgerUrl: ledger.url, opsToken: env.config.opsBootstrapToken, internalToken: env.config.internalToken });
  await scenario.createReceivingAccount();
  const created = await scenario.createSite();
  site = { siteId: created.siteId, apiKey: (await scenario.issueApiKey(created.siteId)).apiKey };
  const configured = await httpJson(
    `${gateway.url}/api/v1/external/site/webhook-config`,
    'PUT',
    { authorization: `Bearer ${site.apiKey}` },
    { webhookUrl: receiver.url },
  );
  expectStatus(configured, 200, 'webhook config');
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  tls?.cleanup();
  await gateway?.stop();
  await ledger?.stop();
  await env?.cleanup();
});

/** The lines of one request id, waiting until `expected` of them are there (each is written as its step ends). */
async function linesOf(requestId: string, expected: string[]): Promise<Line[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const found = lines().filter((line) => line.requestId === requestId);
    if (expected.every((message) => found.some((line) => line.message === message)) || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ops = (path: string, requestId: string, body: unknown) =>
  httpJson(
    `${ledger.url}/ops/v1${path}`,
    'POST',
    { authorization: `Bearer ${env.config.opsBootstrapToken}`, 'x-request-id': requestId },
    body,
  );

describe('a deposit followed through the logs by request id', () => {
  it('finds the access lines, the business steps and the outbox event of each request', async () => {
    const createId = `partner-create-${randomUUID()}`;
    const transferId = `ops-transfer-${randomUUID()}`;
    const approveId = `ops-approve-${randomUUID()}`;
    const senderIban = makeTrIban(Math.floor(Math.random() * 1e9));

    const created = await httpJson(
      `${gateway.url}/api/v1/external/deposits`,
      'POST',
      { authorization: `Bearer ${site.apiKey}`, 'idempotency-key': randomUUID(), 'x-request-id': createId },
      { externalUserId: 'user-1', amount: '150000' },
    );
    expectStatus(created, 201, 'create deposit');
    expect(created.headers.get('x-request-id')).toBe(createId);
    const { intentId, referenceNo } = created.body as { intentId: string; referenceNo: string };

    expectStatus(
      await ops('/bank-transfers', transferId, {
        bankTxId: `tx-${randomUUID()}`,
        amount: '150000',
        senderName: 'Ayşe Yılmaz',
        senderIban,
        description: `Havale ${referenceNo}`,
        receivedAt: new Date().toISOString(),
      }),
      201,
      'record transfer',
    );
    const approved = expectStatus(await ops(`/intents/${intentId}/approve`, approveId, {}), 200, 'approve');
    const eventId = (approved.body as { eventId: string }).eventId;

    // The partner's create: both services' access lines, the ledger's business step.
    const create = await linesOf(createId, ['http request', 'deposit created']);
    expect(create).toContainEqual(
      expect.objectContaining({
        service: 'gateway',
        message: 'http request',
        method: 'POST',
        route: '/api/v1/external/deposits',
        status: 201,
        siteId: site.siteId,
      }),
    );
    expect(create).toContainEqual(
      expect.objectContaining({
        service: 'ledger',
        message: 'http request',
        method: 'POST',
        route: '/internal/v1/sites/:siteId/deposits',
        status: 201,
        siteId: site.siteId,
      }),
    );
    expect(create).toContainEqual(
      expect.objectContaining({
        service: 'ledger',
        message: 'deposit created',
        siteId: site.siteId,
        intentId,
        referenceNo,
        amount: '150000',
      }),
    );
    for (const line of create.filter((l) => l.message === 'http request')) expect(typeof line.durationMs).toBe('number');

    // The operator's transfer: matched to the intent.
    const transfer = await linesOf(transferId, ['http request', 'bank transfer recorded']);
    expect(transfer).toContainEqual(
      expect.objectContaining({ service: 'ledger', message: 'http request', route: '/ops/v1/bank-transfers', status: 201 }),
    );
    expect(transfer).toContainEqual(
      expect.objectContaining({ message: 'bank transfer recorded', status: 'MATCHED', intentId, intentStatus: 'PENDING_REVIEW' }),
    );

    // The approval: the step, the event written in its transaction, the event handed to the queue.
    const approval = await linesOf(approveId, ['http request', 'deposit approved', 'outbox event written', 'outbox event enqueued']);
    expect(approval).toContainEqual(
      expect.objectContaining({ message: 'http request', route: '/ops/v1/intents/:intentId/approve', status: 200 }),
    );
    expect(approval).toContainEqual(expect.objectContaining({ message: 'deposit approved', intentId, siteId: site.siteId, eventId }));
    expect(approval).toContainEqual(
      expect.objectContaining({ message: 'outbox event written', eventId, type: 'intent.approved', entityId: intentId }),
    );
    expect(approval).toContainEqual(expect.objectContaining({ message: 'outbox event enqueued', eventId, by: 'publisher' }));

    // The worker's attempt that the partner answered with 2xx carries the same request id.
    const delivered = await linesOf(approveId, ['webhook delivered']);
    expect(delivered).toContainEqual(
      expect.objectContaining({ service: 'webhook-worker', message: 'webhook delivered', eventId, siteId: site.siteId, statusCode: 200 }),
    );
    expect(receiver.deliveries.map((d) => d.eventId)).toContain(eventId);

    // The create wrote no event; the approval's event carries the approval's request id.
    const events = await ledger.deps.db.outboxEvent.findMany({ where: { entityId: intentId } });
    expect(events.map((event) => ({ id: event.id, requestId: event.requestId }))).toEqual([{ id: eventId, requestId: approveId }]);

    // Every captured line is one JSON object; no path with an id, no secret, no full IBAN.
    expect(raw.length).toBeGreaterThan(10);
    for (const text of raw) expect(() => JSON.parse(text) as unknown).not.toThrow();
    const all = raw.join('\n');
    for (const secret of [site.apiKey, env.config.internalToken, env.config.opsBootstrapToken, senderIban])
      expect(all).not.toContain(secret);
    for (const line of lines().filter((l) => l.message === 'http request')) {
      expect(String(line.route)).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    }
  });

  it('logs probes at debug level only, and nothing reaches the console outside the JSON log', async () => {
    const probeId = `probe-${randomUUID()}`;
    await fetch(`${gateway.url}/healthz`, { headers: { 'x-request-id': probeId } });
    expect(await linesOf(probeId, ['http request'])).toEqual([
      expect.objectContaining({ service: 'gateway', level: 'debug', route: '/healthz', status: 200 }),
    ]);
    for (const spy of consoleOutput) expect(spy.mock.calls).toEqual([]);
  });
});

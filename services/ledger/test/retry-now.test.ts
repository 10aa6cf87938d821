/**
 * Retry now (docs/webhooks.md, Retries): an operator brings a PENDING event's next attempt forward. The ledger,
 * the real webhook worker and an HTTPS receiver run for real; the retry delay is ten minutes, so an attempt
 * that happens within the test happened because it was brought forward. Also the operators' bulk replay of a
 * site's DEAD events.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deliveryJobId } from '@kasa/queue';
import { startWorker, type WebhookWorkerService } from '../../webhook-worker/src/index.js';
import { makeTestTls, startReceiver, type Receiver, type TestTls } from '../../webhook-worker/test/support/receiver.js';
import { waitFor } from '../../webhook-worker/test/support/stack.js';
import { emitEvents } from './emit-event.js';
import { startLedgerHarness, type LedgerHarness, type TestOperator, type TestSite } from './harness.js';

const RETRY_DELAY_MS = 10 * 60 * 1000;

let h: LedgerHarness;
let tls: TestTls;
let receiver: Receiver;
let worker: WebhookWorkerService;
let reviewer: TestOperator;
/** How each site's path answers its n-th request (from 1); 200 for a path not here. */
const answers = new Map<string, (n: number) => number>();

beforeAll(async () => {
  tls = makeTestTls();
  h = await startLedgerHarness({
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_RETRY_DELAY_MS: String(RETRY_DELAY_MS),
    WEBHOOK_TIMEOUT_MS: '5000',
  });
  receiver = await startReceiver(tls, (delivery) => {
    const answer = answers.get(delivery.path);
    return answer ? answer(receiver.deliveries.filter((d) => d.path === delivery.path).length) : 200;
  });
  worker = await startWorker(h.env.config, 0, { ca: tls.ca });
  reviewer = await h.createOperator('REVIEWER');
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await h?.stop();
  tls?.cleanup();
});

interface EventBody {
  eventId: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: Array<{ attemptNo: number; statusCode: number | null }>;
}

const eventOf = async (eventId: string) => (await h.ops('GET', `/events/${eventId}`)).body as EventBody;
const retryNow = (eventId: string) => h.ops('POST', `/events/${eventId}/retry-now`, {}, reviewer.token);

/** A site whose webhooks go to their own path of the receiver, answered by `answer`, and one intent.approved event of it, published. */
async function pendingEvent(answer: (n: number) => number): Promise<{ site: TestSite; path: string; eventId: string }> {
  const path = `/webhooks/${randomUUID()}`;
  answers.set(path, answer);
  const site = await h.createSite({ webhookUrl: `https://localhost:${receiver.port}${path}` });
  const { intentId } = await h.createDeposit(site, 25000, { externalUserId: 'user-42', externalUserLabel: 'Ayşe Yılmaz' });
  const [payload] = await emitEvents(h.ledger, [{ siteId: site.siteId, type: 'intent.approved', entityId: intentId }]);
  return { site, path, eventId: payload!.eventId };
}

/** Waits until the event has made `attempts` attempts and its job waits out the retry delay in BullMQ's delayed set. */
async function waitingToRetry(eventId: string, attempts: number): Promise<EventBody> {
  const event = await waitFor(`attempt ${attempts} of ${eventId}`, async () => {
    const read = await eventOf(eventId);
    return read.attemptCount === attempts ? read : null;
  });
  await waitFor('the delayed retry', async () => (await h.ledger.deps.webhookQueue.getJob(deliveryJobId(eventId)))?.isDelayed());
  return event;
}

const auditOf = (eventId: string, action: string) =>
  h.ledger.deps.db.auditLog.findMany({ where: { entityType: 'outbox_event', entityId: eventId, action }, orderBy: { createdAt: 'asc' } });

describe('POST /ops/v1/events/:eventId/retry-now', () => {
  it('delivers a PENDING event waiting out its retry delay at once, as its next attempt, and audits it', async () => {
    const { eventId } = await pendingEvent((n) => (n === 1 ? 500 : 200));
    const waiting = await waitingToRetry(eventId, 1);
    expect(waiting.status).toBe('PENDING');
    expect(Date.parse(waiting.nextAttemptAt!)).toBeGreaterThan(Date.now() + RETRY_DELAY_MS / 2);

    const response = await retryNow(eventId);
    expect(response.status).toBe(202);
    // The operators' view names the deposit's user, which the webhook's data does not carry.
    expect(response.body).toMatchObject({
      eventId,
      status: 'PENDING',
      attemptCount: 1,
      user: { externalUserId: 'user-42', externalUserLabel: 'Ayşe Yılmaz' },
    });
    expect(Date.parse((response.body as EventBody).nextAttemptAt!)).toBeLessThanOrEqual(Date.now());

    const delivered = await waitFor('the delivery', async () => {
      const read = await eventOf(eventId);
      return read.status === 'DELIVERED' ? read : null;
    });
    expect(delivered.attemptCount).toBe(2);
    expect(delivered.attempts.map((a) => [a.attemptNo, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    const audit = await auditOf(eventId, 'EVENT.RETRY_NOW');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'OPERATOR', actorId: reviewer.operatorId });
    expect(audit[0]!.metadata).toMatchObject({ attemptCount: 1, cycle: 0, outcome: 'promoted' });

    // Delivered: nothing left to bring forward; the answer points to replay and nothing is audited.
    const refused = await retryNow(eventId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'invalid_transition' });
    expect((refused.body as { detail: string }).detail).toContain('replay');
    expect(await auditOf(eventId, 'EVENT.RETRY_NOW')).toHaveLength(1);
  });

  it('never adds an attempt: retried now seven times, the eighth attempt still ends the cycle DEAD', async () => {
    const { path, eventId } = await pendingEvent(() => 503);
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      await waitingToRetry(eventId, attempt);
      expect((await retryNow(eventId)).status).toBe(202);
    }
    const dead = await waitFor('the last attempt', async () => {
      const read = await eventOf(eventId);
      return read.status === 'DEAD' ? read : null;
    });
    expect(dead.attemptCount).toBe(8);
    expect(dead.attempts.map((a) => a.attemptNo)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(receiver.deliveries.filter((d) => d.path === path)).toHaveLength(8);

    const refused = await retryNow(eventId);
    expect(refused.status).toBe(409);
    expect((refused.body as { detail: string }).detail).toContain(`/events/${eventId}/replay`);
    expect(await auditOf(eventId, 'EVENT.RETRY_NOW')).toHaveLength(7);
    expect((await eventOf(eventId)).attemptCount).toBe(8);
  });

  it('answers 404 for an unknown or malformed id, and 401 without a token', async () => {
    expect((await retryNow(randomUUID())).status).toBe(404);
    expect((await retryNow('not-an-id')).status).toBe(404);
    expect((await h.ops('POST', `/events/${randomUUID()}/retry-now`, {}, 'no-such-token')).status).toBe(401);
  });
});

describe('GET /ops/v1/events/:eventId of a broken row', () => {
  it('answers 500 rather than show an event whose stored type or payload the contract does not describe', async () => {
    const site = await h.createSite();
    const { intentId } = await h.createDeposit(site, 25000);
    const [payload] = await emitEvents(h.ledger, [{ siteId: site.siteId, type: 'intent.approved', entityId: intentId }], false);
    const eventId = payload!.eventId;
    expect((await h.ops('GET', `/events/${eventId}`)).status).toBe(200);

    await h.ledger.deps.db.outboxEvent.update({ where: { id: eventId }, data: { type: 'intent.renamed' } });
    expect((await h.ops('GET', `/events/${eventId}`)).status).toBe(500);

    // A known type whose body is another kind's: a withdrawal's event carrying a deposit.
    await h.ledger.deps.db.outboxEvent.update({
      where: { id: eventId },
      data: {
        type: 'withdrawal.sent',
        payload: { eventId, type: 'withdrawal.sent', createdAt: payload!.createdAt, livemode: true, data: { intentId, currency: 'TRY' } },
      },
    });
    expect((await h.ops('GET', `/events/${eventId}`)).status).toBe(500);
  });
});

describe('POST /ops/v1/sites/:siteId/events/replay-dead', () => {
  it("replays every DEAD event of the site, and only that site's, each audited with the operator", async () => {
    const { site, path, eventId } = await pendingEvent(() => 500);
    const other = await pendingEvent(() => 500);
    // Eight failed attempts each, brought forward, so both events are DEAD within the test.
    for (const id of [eventId, other.eventId]) {
      for (let attempt = 1; attempt <= 7; attempt += 1) {
        await waitingToRetry(id, attempt);
        expect((await retryNow(id)).status).toBe(202);
      }
      await waitFor('DEAD', async () => (await eventOf(id)).status === 'DEAD');
    }
    answers.delete(path);

    const response = await h.ops('POST', `/sites/${site.siteId}/events/replay-dead`, {}, reviewer.token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ replayed: 1, eventIds: [eventId] });
    await waitFor('the new cycle delivered', async () => (await eventOf(eventId)).status === 'DELIVERED');
    expect((await eventOf(other.eventId)).status).toBe('DEAD');
    const audit = await auditOf(eventId, 'EVENT.REPLAYED');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorType: 'OPERATOR', actorId: reviewer.operatorId });

    // Nothing DEAD is left: a second run replays nothing.
    expect((await h.ops('POST', `/sites/${site.siteId}/events/replay-dead`, {}, reviewer.token)).body).toEqual({
      replayed: 0,
      eventIds: [],
    });
  });

  it('answers 404 for an unknown site', async () => {
    expect((await h.ops('POST', `/sites/${randomUUID()}/events/replay-dead`, {}, reviewer.token)).status).toBe(404);
  });
});

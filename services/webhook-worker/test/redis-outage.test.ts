import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startPrivateRedis, type PrivateRedis } from '@kasa/testkit';
import { emitMany } from '../../ledger/test/emit-event.js';
import { configureWebhook, createDeposit, startStack, waitFor, type Stack } from './support/stack.js';

let redis: PrivateRedis;
let stack: Stack;
beforeAll(async () => {
  // A Redis of this test's own: it is killed and restarted empty (nothing is persisted), like a crash.
  redis = await startPrivateRedis();
  stack = await startStack({ REDIS_URL: redis.url, WEBHOOK_RETRY_DELAY_MS: '2000' });
});
// Stopping after the outage may have to wait out bounded reconnects; give it room on a loaded machine.
afterAll(async () => {
  await stack?.stop();
  await redis?.stop();
}, 120_000);

describe('a Redis outage', () => {
  it('delivers every event: jobs Redis lost and events created while it was down', async () => {
    const site = await stack.h.createSite();
    await configureWebhook(stack.h, site, stack.receiver.url);
    const intentId = await createDeposit(stack.h, site);
    const db = stack.h.ledger.deps.db;
    let receiverUp = false;
    stack.receiver.respond = () => (receiverUp ? 200 : 503);

    // Enqueued while Redis is up; their first attempt fails, so their jobs wait in Redis for a retry.
    const before = await emitMany(stack.h.ledger, { siteId: site.siteId, type: 'intent.approved', entityId: intentId }, 10);
    await waitFor(
      'a first attempt of every early event',
      async () => (await db.deliveryAttempt.count({ where: { event: { siteId: site.siteId } } })) >= 10,
    );

    await redis.kill();
    const started = Date.now();
    const during = await emitMany(stack.h.ledger, { siteId: site.siteId, type: 'intent.rejected', entityId: intentId }, 10);
    const unqueued = await db.outboxEvent.count({ where: { id: { in: during.map((p) => p.eventId) }, enqueuedAt: null } });
    expect(unqueued).toBe(10);
    // The transaction committed and the caller was let go after a bounded wait, not held until Redis returns.
    expect(Date.now() - started).toBeLessThan(5_000);
    await redis.restart();
    receiverUp = true;

    const all = [...before, ...during].map((p) => p.eventId);
    await waitFor(
      'every event DELIVERED after Redis came back empty',
      async () => (await db.outboxEvent.count({ where: { id: { in: all }, status: 'DELIVERED' } })) === all.length,
      30_000,
      200,
    );
    const delivered = new Set(stack.receiver.deliveries.filter((d) => d.signature && d.rawBody.length > 0).map((d) => d.eventId));
    for (const eventId of all) expect(delivered.has(eventId)).toBe(true);
  }, 90_000);
});

/**
 * Each partner's delivery health on the operators' desk (`GET /ops/v1/delivery-health`, the dashboard's
 * failing partners), from real deliveries: the worker posts over TLS to a receiver that fails one site and
 * answers the other, then the failing site recovers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestSite } from '../../gateway/test/harness.js';
import { emitApproved, siteAt as siteAtOf, startStack, waitFor, type Stack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  // Three attempts a cycle, quickly: a failing site goes DEAD within the test.
  stack = await startStack({ WEBHOOK_MAX_ATTEMPTS: '3' });
});
afterAll(async () => {
  await stack?.stop();
});

interface Health {
  siteId: string;
  attempts: number;
  succeeded: number;
  successRate: number | null;
  failingSince: string | null;
  lastFailure: { at: string; statusCode: number | null; error: string | null } | null;
  deadEvents: number;
  pendingEvents: number;
}

const siteAt = (path: string) => siteAtOf(stack, path);
const emit = (site: TestSite) => emitApproved(stack, site);

const eventIs = (eventId: string, status: 'DELIVERED' | 'DEAD') =>
  waitFor(
    `event ${eventId} ${status}`,
    async () => (await stack.h.ledger.deps.db.outboxEvent.findUnique({ where: { id: eventId } }))?.status === status || null,
    20_000,
  );

async function health(site: TestSite): Promise<Health> {
  const res = await stack.h.ops('GET', `/ops/v1/delivery-health?siteId=${site.siteId}`);
  expect(res.status).toBe(200);
  return res.body.data[0] as Health;
}

describe('delivery health', () => {
  it('shows a failing partner with its last error and DEAD count, a healthy one at 100 %, and the failing one recovering', async () => {
    let brokenUp = true;
    const previous = stack.receiver.respond;
    stack.receiver.respond = (delivery, index) => {
      if (delivery.path === '/broken') return brokenUp ? 503 : 200;
      return previous(delivery, index);
    };
    const broken = await siteAt('/broken');
    const healthy = await siteAt('/healthy');
    const quiet = await siteAt('/quiet');

    const before = new Date();
    const dead = await emit(broken);
    await eventIs(dead, 'DEAD');
    await eventIs(await emit(healthy), 'DELIVERED');

    const failing = await health(broken);
    expect(failing).toMatchObject({ attempts: 3, succeeded: 0, successRate: 0, deadEvents: 1, pendingEvents: 0 });
    expect(failing.lastFailure?.statusCode).toBe(503);
    expect(new Date(failing.failingSince as string).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(await health(healthy)).toMatchObject({ attempts: 1, succeeded: 1, successRate: 1, failingSince: null, deadEvents: 0 });
    // No traffic is not a failure.
    expect(await health(quiet)).toMatchObject({ attempts: 0, successRate: null, failingSince: null, lastFailure: null });

    const dashboard = (await stack.h.ops('GET', '/ops/v1/dashboard')).body;
    expect(dashboard.failingPartners.count).toBeGreaterThanOrEqual(1);
    expect(dashboard.deadEvents.count).toBe(await stack.h.ledger.deps.db.outboxEvent.count({ where: { status: 'DEAD' } }));

    // The partner fixes its endpoint: the next delivery succeeds, it is no longer failing, the DEAD event stays counted.
    brokenUp = false;
    await eventIs(await emit(broken), 'DELIVERED');
    const recovered = await health(broken);
    expect(recovered).toMatchObject({ attempts: 4, succeeded: 1, successRate: 0.25, failingSince: null, deadEvents: 1 });
    expect(recovered.lastFailure?.statusCode).toBe(503);
    stack.receiver.respond = previous;
  });
});

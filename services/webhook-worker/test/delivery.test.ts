import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import request from 'supertest';
import {
  isValidStandardWebhook,
  isValidWebhook,
  toStandardWebhooksSecret,
  verifyStandardWebhook,
  verifyWebhook,
} from '@kasa/webhook-signing';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { verifyWebhook as sdkVerifyWebhook, WebhookVerificationError as SdkVerificationError } from '@kasa/sdk';
import type { TestSite } from '../../gateway/test/harness.js';
import { emitEvents } from '../../ledger/test/emit-event.js';
import { configureWebhook, createDeposit, startStack, waitFor, type Stack } from './support/stack.js';
import type { ReceivedDelivery } from './support/receiver.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ WEBHOOK_SITE_CONCURRENCY: '4' }, { worker: false });
  // Connect-time DNS goes through an injected resolver: one name rebinds to a private address.
  await stack.startWorker({
    resolve: async (host) => (host === 'rebind.kasa.test' ? [{ address: '10.0.0.1', family: 4 }] : lookup(host, { all: true })),
  });
});
afterAll(async () => {
  await stack?.stop();
});

const api = (site: TestSite) => ({
  get: (path: string) => request(stack.h.gateway.url).get(`/api/v1/external${path}`).set('authorization', `Bearer ${site.apiKey}`),
  replay: (eventId: string, key: string) =>
    request(stack.h.gateway.url)
      .post(`/api/v1/external/events/${eventId}/replay`)
      .set('authorization', `Bearer ${site.apiKey}`)
      .set('idempotency-key', key),
});

async function siteWithWebhook(path = '/webhooks/kasa') {
  const site = await stack.h.createSite();
  const config = await configureWebhook(stack.h, site, stack.receiver.url.replace('/webhooks/kasa', path));
  return { site, secret: config.webhookSecret as string };
}

async function emitFor(site: TestSite, count = 1) {
  const intentId = await createDeposit(stack.h, site);
  const payloads = await emitEvents(
    stack.h.ledger,
    Array.from({ length: count }, () => ({ siteId: site.siteId, type: 'intent.approved' as const, entityId: intentId })),
  );
  return { intentId, payloads };
}

const deliveriesOf = (eventId: string): ReceivedDelivery[] => stack.receiver.deliveries.filter((d) => d.eventId === eventId);

/** Waits on the database (polling the API would spend the key's rate limit), then reads through the API. */
async function eventStatus(site: TestSite, eventId: string, status: 'PENDING' | 'DELIVERED' | 'DEAD') {
  const db = stack.h.ledger.deps.db;
  await waitFor(`event ${eventId} ${status}`, async () => (await db.outboxEvent.findUnique({ where: { id: eventId } }))?.status === status);
  const response = await api(site).get(`/events/${eventId}`);
  expect(response.status).toBe(200);
  return response.body;
}

describe('webhook delivery', () => {
  it('delivers a signed event whose data is the status lookup record, with Service-Event-Id equal to the payload eventId', async () => {
    const { site, secret } = await siteWithWebhook();
    const { intentId, payloads } = await emitFor(site);
    const eventId = payloads[0]!.eventId;
    const event = await eventStatus(site, eventId, 'DELIVERED');

    const [delivery] = deliveriesOf(eventId);
    expect(delivery).toBeDefined();
    const body = JSON.parse(delivery!.rawBody.toString('utf8'));
    expect(delivery!.eventId).toBe(body.eventId);
    expect(delivery!.contentType).toBe('application/json');
    expect(Object.keys(body)).toEqual(['eventId', 'type', 'createdAt', 'livemode', 'data']);
    expect(body.livemode).toBe(true);
    expect(() =>
      verifyWebhook({ header: delivery!.signature, eventId: delivery!.eventId, rawBody: delivery!.rawBody, secrets: secret }),
    ).not.toThrow();
    expect(
      isValidWebhook({
        header: delivery!.signature,
        eventId: delivery!.eventId,
        rawBody: Buffer.from(`${delivery!.rawBody} `),
        secrets: secret,
      }),
    ).toBe(false);
    const lookup = await api(site).get(`/intents/${intentId}`);
    expect(body.data).toEqual(lookup.body);
    expect(body.type).toBe('intent.approved');

    expect(event).toMatchObject({ eventId, type: 'intent.approved', status: 'DELIVERED', attemptCount: 1, deadAt: null });
    expect(event.deliveredAt).not.toBeNull();
    expect(event.payload).toEqual(body);
    expect(event.attempts).toEqual([
      expect.objectContaining({ attemptNo: 1, statusCode: 200, error: null, responseBody: 'ok', url: stack.receiver.url }),
    ]);
  });

  it('retries a failing receiver and delivers on the third attempt with the same eventId', async () => {
    const { site } = await siteWithWebhook('/flaky');
    const failing = new Map<string, number>();
    const previous = stack.receiver.respond;
    stack.receiver.respond = (delivery, index) => {
      if (delivery.path !== '/flaky') return previous(delivery, index);
      const seen = (failing.get(delivery.eventId ?? '') ?? 0) + 1;
      failing.set(delivery.eventId ?? '', seen);
      return seen <= 2 ? 500 : 200;
    };
    const { payloads } = await emitFor(site);
    const eventId = payloads[0]!.eventId;
    const event = await eventStatus(site, eventId, 'DELIVERED');

    const received = deliveriesOf(eventId);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((d) => JSON.parse(d.rawBody.toString()).eventId))).toEqual(new Set([eventId]));
    expect(event.attemptCount).toBe(3);
    expect(event.attempts.map((a: { attemptNo: number; statusCode: number }) => [a.attemptNo, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('marks an event DEAD after exactly 8 failed attempts, lists it as DEAD, and replay delivers it once the receiver recovers', async () => {
    const { site } = await siteWithWebhook('/down');
    let down = true;
    const previous = stack.receiver.respond;
    stack.receiver.respond = (delivery, index) => (delivery.path === '/down' ? (down ? 503 : 200) : previous(delivery, index));
    const { payloads } = await emitFor(site);
    const eventId = payloads[0]!.eventId;
    const dead = await eventStatus(site, eventId, 'DEAD');
    expect(dead.attemptCount).toBe(8);
    expect(dead.attempts).toHaveLength(8);
    expect(dead.deadAt).not.toBeNull();
    expect(deliveriesOf(eventId)).toHaveLength(8);

    const list = await api(site).get('/events?status=DEAD');
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { eventId: string }) => e.eventId)).toEqual([eventId]);
    expect((await api(site).get('/events?status=DELIVERED')).body.data).toEqual([]);

    down = false;
    const key = randomUUID();
    const replay = await api(site).replay(eventId, key);
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ eventId, status: 'PENDING', deadAt: null });
    const delivered = await eventStatus(site, eventId, 'DELIVERED');
    expect(delivered.attempts).toHaveLength(9);
    expect(delivered.attempts[8]).toMatchObject({ attemptNo: 9, statusCode: 200 });
    expect(deliveriesOf(eventId).at(-1)!.eventId).toBe(eventId);

    const again = await api(site).replay(eventId, key);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(deliveriesOf(eventId)).toHaveLength(9);
  });

  it('keeps deliveries verifiable through a secret rotation while retries are in flight', async () => {
    const { site, secret: oldSecret } = await siteWithWebhook('/rotating');
    let held = [oldSecret];
    const rejected: ReceivedDelivery[] = [];
    let failFirst = true;
    const previous = stack.receiver.respond;
    stack.receiver.respond = (delivery, index) => {
      if (delivery.path !== '/rotating') return previous(delivery, index);
      // Verify with the new secret first, fall back to the old one (docs/webhooks.md, Rotate without downtime).
      if (!isValidWebhook({ header: delivery.signature, eventId: delivery.eventId, rawBody: delivery.rawBody, secrets: held })) {
        rejected.push(delivery);
        return 401;
      }
      if (failFirst) {
        failFirst = false;
        return 500;
      }
      return 200;
    };
    // A slower retry cadence keeps the retry in flight while the secret changes.
    const { payloads } = await emitFor(site, 3);
    await waitFor('first failed attempt', () => stack.receiver.deliveries.some((d) => d.path === '/rotating'));
    const rotated = await configureWebhook(stack.h, site, stack.receiver.url.replace('/webhooks/kasa', '/rotating'));
    expect(rotated.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.webhookSecret).not.toBe(oldSecret);
    held = [rotated.webhookSecret as string, oldSecret];
    for (const { eventId } of payloads) await eventStatus(site, eventId, 'DELIVERED');
    expect(rejected).toEqual([]);

    const kept = await configureWebhook(stack.h, site, stack.receiver.url.replace('/webhooks/kasa', '/rotating'), false);
    expect(kept.webhookSecret).toBeNull();
    held = [rotated.webhookSecret as string];
    const later = await emitFor(site);
    const laterId = later.payloads[0]!.eventId;
    await eventStatus(site, laterId, 'DELIVERED');
    const [delivery] = deliveriesOf(laterId);
    // Still signed with the rotated secret, and with the previous one as a second v1 during the overlap.
    expect(delivery!.signature!.match(/v1=/g)).toHaveLength(2);
    for (const only of [rotated.webhookSecret as string, oldSecret]) {
      expect(isValidWebhook({ header: delivery!.signature, eventId: laterId, rawBody: delivery!.rawBody, secrets: only })).toBe(true);
    }
    expect(rejected).toEqual([]);
  });

  it('carries Standard Webhooks headers that the standardwebhooks and svix libraries verify, before and after a rotation', async () => {
    const { site, secret } = await siteWithWebhook('/standard');
    const verifyWithEveryLibrary = (delivery: ReceivedDelivery, held: string) => {
      const body = delivery.rawBody.toString('utf8');
      const viaStandard = new StandardWebhook(toStandardWebhooksSecret(held)).verify(body, delivery.headers) as { eventId: string };
      // svix 2 returns nothing and throws when no signature verifies.
      expect(() => new SvixWebhook(toStandardWebhooksSecret(held)).verify(body, delivery.headers)).not.toThrow();
      expect(() => verifyStandardWebhook({ headers: delivery.headers, rawBody: delivery.rawBody, secrets: held })).not.toThrow();
      // The partner SDK, given all the headers (Service-Signature wins) and given only the standard ones.
      expect(sdkVerifyWebhook({ secret: held, headers: delivery.headers, rawBody: delivery.rawBody }).eventId).toBe(viaStandard.eventId);
      const standardOnly = Object.fromEntries(Object.entries(delivery.headers).filter(([name]) => name.startsWith('webhook-')));
      expect(sdkVerifyWebhook({ secret: held, headers: standardOnly, rawBody: delivery.rawBody }).eventId).toBe(viaStandard.eventId);
      // The key bytes given raw are the same key: { format: 'raw' } with the UTF-8 of the Kasa secret.
      expect(() => new SvixWebhook(Buffer.from(held, 'utf8'), { format: 'raw' }).verify(body, delivery.headers)).not.toThrow();
      return viaStandard.eventId;
    };
    // A changed body is refused by every verifier: both libraries, this package (both schemes) and the SDK.
    const expectTamperedRefused = (delivery: ReceivedDelivery, held: string) => {
      const tampered = delivery.rawBody.toString('utf8').replace('"intent.approved"', '"intent.rejected"');
      expect(tampered).not.toBe(delivery.rawBody.toString('utf8'));
      expect(() => new StandardWebhook(toStandardWebhooksSecret(held)).verify(tampered, delivery.headers)).toThrow();
      expect(() => new SvixWebhook(toStandardWebhooksSecret(held)).verify(tampered, delivery.headers)).toThrow();
      expect(isValidStandardWebhook({ headers: delivery.headers, rawBody: tampered, secrets: held })).toBe(false);
      expect(isValidWebhook({ header: delivery.signature, eventId: delivery.eventId, rawBody: tampered, secrets: held })).toBe(false);
      expect(() => sdkVerifyWebhook({ secret: held, headers: delivery.headers, rawBody: tampered })).toThrow(SdkVerificationError);
    };
    const first = (await emitFor(site)).payloads[0]!.eventId;
    await eventStatus(site, first, 'DELIVERED');
    const [delivery] = deliveriesOf(first);
    expect(delivery!.headers['webhook-id']).toBe(first);
    expect(delivery!.headers['webhook-timestamp']).toBe(/^t=(\d+),/.exec(delivery!.signature ?? '')?.[1]);
    expect(verifyWithEveryLibrary(delivery!, secret)).toBe(first);
    // A changed body or another site's secret is refused by the libraries too.
    expectTamperedRefused(delivery!, secret);

    const rotated = (await configureWebhook(stack.h, site, stack.receiver.url.replace('/webhooks/kasa', '/standard')))
      .webhookSecret as string;
    const second = (await emitFor(site)).payloads[0]!.eventId;
    await eventStatus(site, second, 'DELIVERED');
    const [afterRotation] = deliveriesOf(second);
    expect(afterRotation!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const held of [rotated, secret]) {
      expect(verifyWithEveryLibrary(afterRotation!, held)).toBe(second);
      expectTamperedRefused(afterRotation!, held);
    }
  });

  it('keeps delivering to other sites while one partner is slow', async () => {
    const slow = await siteWithWebhook('/slow');
    const fast = await siteWithWebhook('/fast');
    const previous = stack.receiver.respond;
    stack.receiver.respond = async (delivery, index) => {
      if (delivery.path === '/slow') {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return 200;
      }
      return previous(delivery, index);
    };
    const slowEvents = await emitFor(slow.site, 12);
    const started = Date.now();
    const fastEvents = await emitFor(fast.site, 5);
    for (const { eventId } of fastEvents.payloads) await eventStatus(fast.site, eventId, 'DELIVERED');
    expect(Date.now() - started).toBeLessThan(1_800);
    const slowDelivered = slowEvents.payloads.filter((p) => deliveriesOf(p.eventId).length > 0).length;
    expect(slowDelivered).toBeLessThan(12);
    for (const { eventId } of slowEvents.payloads) await eventStatus(slow.site, eventId, 'DELIVERED');
  }, 60_000);

  it('refuses at send time a URL that is a private address or whose name now resolves to one', async () => {
    const { site } = await siteWithWebhook('/never');
    for (const url of ['https://10.0.0.1/hook', 'https://rebind.kasa.test/hook']) {
      // As if the URL had passed the check when it was configured (public then, rebound now).
      await stack.h.ledger.deps.db.site.update({ where: { id: site.siteId }, data: { webhookUrl: url } });
      const { payloads } = await emitFor(site);
      const eventId = payloads[0]!.eventId;
      await waitFor('a refused attempt', async () => (await stack.h.ledger.deps.db.deliveryAttempt.count({ where: { eventId } })) > 0);
      const event = (await api(site).get(`/events/${eventId}`)).body;
      expect(event.attempts[0]).toMatchObject({ attemptNo: 1, statusCode: null, url });
      expect(event.attempts[0].error).toMatch(/refused|ERR_WEBHOOK_ADDRESS_BLOCKED/);
    }
    expect(stack.receiver.deliveries.filter((d) => d.path === '/never')).toEqual([]);
  });
});

describe('worker operations', () => {
  it('answers health, readiness and metrics with the queue backlog gauge and delivery counters', async () => {
    const worker = stack.worker!;
    expect((await request(worker.url).get('/healthz')).status).toBe(200);
    const ready = await request(worker.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ postgres: 'ok', redis: 'ok', schema: 'ok', consumer: 'ok' });
    const metrics = await request(worker.url).get('/metrics');
    expect(metrics.text).toMatch(/^kasa_webhook_queue_waiting\{service="webhook-worker"\} \d+$/m);
    expect(metrics.text).toMatch(/^kasa_webhook_delivery_attempts_total\{[^}]*outcome="delivered"[^}]*\} [1-9]\d*$/m);
    expect(metrics.text).toContain('kasa_webhook_delivery_duration_seconds_bucket');
  });
});

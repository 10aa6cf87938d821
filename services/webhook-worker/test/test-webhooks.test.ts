/**
 * Test webhooks (docs/webhooks.md, Send a test webhook): the partner's `POST /test/webhooks` and the operators'
 * `POST /ops/v1/sites/:siteId/test-webhook` send a signed sample right away, through the same sender the worker
 * delivers with (@kasa/webhook-sender), to a real HTTPS receiver whose CA the ledger trusts through
 * WEBHOOK_CA_FILE, as an operator would configure it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { verifyWebhook as sdkVerifyWebhook } from '@kasa/sdk';
import { verifyWebhook } from '@kasa/webhook-signing';
import { startHarness, type Harness, type TestSite } from '../../gateway/test/harness.js';
import { makeTestTls, startReceiver, type Receiver, type TestTls } from './support/receiver.js';
import { configureWebhook, FAST_DELIVERY_ENV } from './support/stack.js';

let h: Harness;
let tls: TestTls;
let receiver: Receiver;

beforeAll(async () => {
  tls = makeTestTls();
  h = await startHarness({ ...FAST_DELIVERY_ENV, WEBHOOK_CA_FILE: tls.caFile });
  receiver = await startReceiver(tls);
});

afterAll(async () => {
  await receiver?.close();
  await h?.stop();
  tls?.cleanup();
});

const testWebhook = (site: TestSite, body: unknown) =>
  request(h.gateway.url)
    .post('/api/v1/external/test/webhooks')
    .set('authorization', `Bearer ${site.apiKey}`)
    .send(body as object);

/** A site with its webhook URL at the receiver under a path of its own; returns the site and its secret. */
async function configuredSite(): Promise<{ site: TestSite; secret: string; path: string }> {
  const site = await h.createSite();
  const path = `/webhooks/${randomUUID()}`;
  const { webhookSecret } = await configureWebhook(h, site, `https://localhost:${receiver.port}${path}`);
  return { site, secret: webhookSecret!, path };
}

describe('POST /api/v1/external/test/webhooks', () => {
  it('delivers a signed ping that verifies with the signing package and the SDK, and writes no event', async () => {
    const { site, secret, path } = await configuredSite();
    const response = await testWebhook(site, { type: 'ping' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ delivered: true, statusCode: 200, durationMs: expect.any(Number), error: null });

    const delivery = receiver.deliveries.find((d) => d.path === path);
    expect(delivery).toBeDefined();
    const body = JSON.parse(delivery!.rawBody.toString('utf8'));
    expect(body).toMatchObject({ eventId: delivery!.eventId, type: 'ping', test: true, data: {} });
    expect(delivery!.headers['webhook-id']).toBe(delivery!.eventId);
    expect(() =>
      verifyWebhook({ header: delivery!.signature, eventId: delivery!.eventId, rawBody: delivery!.rawBody, secrets: secret }),
    ).not.toThrow();
    const verified = sdkVerifyWebhook({ secret, headers: delivery!.headers, rawBody: delivery!.rawBody });
    expect(verified).toMatchObject({ eventId: delivery!.eventId, type: 'ping', test: true });

    const events = await request(h.gateway.url).get('/api/v1/external/events').set('authorization', `Bearer ${site.apiKey}`);
    expect(events.body.data).toEqual([]);
  });

  it('sends a sample of an event type with the record of its kind', async () => {
    const { site, path } = await configuredSite();
    expect((await testWebhook(site, { type: 'intent.topped_up' })).body.delivered).toBe(true);
    expect((await testWebhook(site, { type: 'withdrawal.returned' })).body.delivered).toBe(true);
    const bodies = receiver.deliveries.filter((d) => d.path === path).map((d) => JSON.parse(d.rawBody.toString('utf8')));
    expect(bodies[0]).toMatchObject({ type: 'intent.topped_up', test: true, data: { status: 'APPROVED' }, topUp: { amount: '50000' } });
    expect(bodies[1]).toMatchObject({ type: 'withdrawal.returned', test: true, data: { status: 'RETURNED' } });
  });

  it('reports a receiver answering 500 as not delivered, with its status', async () => {
    const { site, path } = await configuredSite();
    receiver.respond = (delivery) => (delivery.path === path ? 500 : 200);
    try {
      const response = await testWebhook(site, { type: 'intent.approved' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ delivered: false, statusCode: 500, error: null });
    } finally {
      receiver.respond = () => 200;
    }
  });

  it('reports an unreachable URL with the error and no status', async () => {
    const site = await h.createSite();
    const closed = await startReceiver(tls);
    await closed.close();
    await configureWebhook(h, site, `https://localhost:${closed.port}/webhooks/kasa`);
    const response = await testWebhook(site, { type: 'ping' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ delivered: false, statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('answers 409 webhook_not_configured for a site with no webhook URL', async () => {
    const site = await h.createSite();
    const response = await testWebhook(site, { type: 'ping' });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ error: 'conflict', reason: 'webhook_not_configured' });
  });

  it('refuses an unknown type with 400', async () => {
    const { site } = await configuredSite();
    const response = await testWebhook(site, { type: 'intent.exploded' });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toBe('type');
  });

  it("sends to the calling site's URL only, signed with its own secret", async () => {
    const a = await configuredSite();
    const b = await configuredSite();
    expect((await testWebhook(b.site, { type: 'ping' })).body.delivered).toBe(true);
    const [delivery] = receiver.deliveries.filter((d) => d.path === b.path).slice(-1);
    expect(receiver.deliveries.filter((d) => d.path === a.path)).toHaveLength(0);
    expect(() =>
      verifyWebhook({ header: delivery!.signature, eventId: delivery!.eventId, rawBody: delivery!.rawBody, secrets: a.secret }),
    ).toThrow();
  });
});

describe('POST /ops/v1/sites/:siteId/test-webhook', () => {
  it("sends the same signed sample to the site's URL for an operator", async () => {
    const { site, secret, path } = await configuredSite();
    const response = await h.ops('POST', `/ops/v1/sites/${site.siteId}/test-webhook`, { type: 'intent.received' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ delivered: true, statusCode: 200 });
    const delivery = receiver.deliveries.filter((d) => d.path === path).at(-1)!;
    expect(JSON.parse(delivery.rawBody.toString('utf8'))).toMatchObject({
      type: 'intent.received',
      test: true,
      data: { status: 'PENDING_REVIEW' },
    });
    expect(() =>
      verifyWebhook({ header: delivery.signature, eventId: delivery.eventId, rawBody: delivery.rawBody, secrets: secret }),
    ).not.toThrow();
  });

  it('answers 404 for a site that does not exist', async () => {
    const response = await h.ops('POST', `/ops/v1/sites/${randomUUID()}/test-webhook`, { type: 'ping' });
    expect(response.status).toBe(404);
  });
});

/**
 * Event subscriptions (docs/webhooks.md, Choose your events): `eventTypes` of the webhook config. The SPEC's five
 * are always sent and must be listed; the opt-in ones are added by listing them; an omitted list keeps the choice.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { startHarness, type Harness, type TestSite } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.2' });
});
afterAll(async () => {
  await h?.stop();
});

const URL_OK = 'https://127.0.0.2:9443/webhooks/kasa';
const SPEC_FIVE = ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned'];

const put = (site: TestSite, body: unknown) =>
  request(h.gateway.url)
    .put('/api/v1/external/site/webhook-config')
    .set('authorization', `Bearer ${site.apiKey}`)
    .send(body as object);
const get = (site: TestSite) =>
  request(h.gateway.url).get('/api/v1/external/site/webhook-config').set('authorization', `Bearer ${site.apiKey}`);

describe('eventTypes of the webhook config', () => {
  it('is the SPEC five for a site that never chose', async () => {
    const site = await h.createSite();
    expect((await get(site)).body).toEqual({ webhookUrl: null, rotatedAt: null, eventTypes: SPEC_FIVE });
  });

  it('adds the opt-in types listed, answers them on PUT and GET, and keeps them when a PUT omits the list', async () => {
    const site = await h.createSite();
    const chosen = await put(site, { webhookUrl: URL_OK, eventTypes: [...SPEC_FIVE, 'intent.auto_cancelled', 'intent.topped_up'] });
    expect(chosen.status).toBe(200);
    expect(chosen.body.eventTypes).toEqual([...SPEC_FIVE, 'intent.auto_cancelled', 'intent.topped_up']);
    expect((await get(site)).body.eventTypes).toEqual([...SPEC_FIVE, 'intent.auto_cancelled', 'intent.topped_up']);

    const kept = await put(site, { webhookUrl: URL_OK, rotateSecret: false });
    expect(kept.body.eventTypes).toEqual([...SPEC_FIVE, 'intent.auto_cancelled', 'intent.topped_up']);

    const narrowed = await put(site, { webhookUrl: URL_OK, rotateSecret: false, eventTypes: [...SPEC_FIVE] });
    expect(narrowed.body.eventTypes).toEqual(SPEC_FIVE);
    expect((await h.ledger.deps.db.site.findUniqueOrThrow({ where: { id: site.siteId } })).webhookEventTypes).toEqual([]);
  });

  it('refuses an unknown type with 400 and changes nothing', async () => {
    const site = await h.createSite();
    const response = await put(site, { webhookUrl: URL_OK, eventTypes: [...SPEC_FIVE, 'intent.exploded'] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_failed' });
    expect(response.body.errors[0].field).toMatch(/^eventTypes/);
    expect((await get(site)).body).toEqual({ webhookUrl: null, rotatedAt: null, eventTypes: SPEC_FIVE });
  });

  it('refuses a list that leaves out a SPEC type with 400 naming it', async () => {
    const site = await h.createSite();
    const response = await put(site, { webhookUrl: URL_OK, eventTypes: ['intent.approved', 'intent.rejected', 'intent.received'] });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { field: 'eventTypes', message: expect.stringContaining('withdrawal.sent, withdrawal.rejected, withdrawal.returned') },
    ]);
    expect((await get(site)).body.webhookUrl).toBeNull();
  });

  it('audits the choice with the webhook config change', async () => {
    const site = await h.createSite();
    await put(site, { webhookUrl: URL_OK, eventTypes: [...SPEC_FIVE, 'intent.received'] });
    const [audit] = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: site.siteId, action: 'SITE.WEBHOOK_CONFIG_ROTATED' } });
    expect(audit?.metadata).toMatchObject({ eventTypes: [...SPEC_FIVE, 'intent.received'] });
  });
});

/**
 * An admin changes a site's settings (`PATCH /ops/v1/sites/:siteId`): a reviewer is refused, every change is
 * audited with its before and after, bad settings change nothing, and a new rate limit applies at the
 * gateway from its very next request, although the gateway had the old one cached.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { Scenario } from '@kasa/testkit';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let scenario: Scenario;
beforeAll(async () => {
  h = await startHarness();
  scenario = new Scenario({ ledgerUrl: h.ledger.url, opsToken: h.env.config.opsBootstrapToken, internalToken: h.env.config.internalToken });
});
afterAll(async () => {
  await h?.stop();
});

const policy = (res: request.Response) => String(res.headers['ratelimit-policy']);

describe('site settings', () => {
  it('refuses a reviewer, audits an admin, and the gateway applies a new rate limit at once', async () => {
    const site = await h.createSite({ rateLimitPerMinute: 1000 });
    const list = () => request(h.gateway.url).get('/api/v1/external/intents?limit=1').set('authorization', `Bearer ${site.apiKey}`);
    // The gateway has the site's key cached with 1000 a minute.
    expect(policy(await list())).toBe('"default";q=1000;w=60');

    const reviewer = await scenario.createOperator('REVIEWER');
    const reviewerToken = await scenario.login(reviewer);
    const refused = await scenario.ops('PATCH', `/sites/${site.siteId}`, { rateLimitPerMinute: 2 }, reviewerToken);
    expect(refused.status).toBe(403);

    const changed = await h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { rateLimitPerMinute: 2, name: 'Yeni Ad' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ rateLimitPerMinute: 2, name: 'Yeni Ad', webhookSecret: null });

    // The very next request counts against 2 a minute: one was already spent, so the third is refused.
    expect(policy(await list())).toBe('"default";q=2;w=60');
    const third = await list();
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();

    const audit = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: site.siteId, action: 'SITE.SETTINGS_CHANGED' } });
    expect(audit).toHaveLength(1);
    expect(audit[0]?.metadata).toEqual({
      before: { name: expect.any(String), rateLimitPerMinute: 1000 },
      after: { name: 'Yeni Ad', rateLimitPerMinute: 2 },
    });
    expect(audit[0]?.actorType).toBe('OPERATOR');
  });

  it('changes nothing on bad settings, audits nothing when nothing changes, and removes a return URL', async () => {
    const site = await h.createSite({ minAmount: '1000', maxAmount: '500000', returnUrl: 'https://ornek.example/cuzdan' });
    const before = await h.ops('GET', `/ops/v1/sites/${site.siteId}`);
    for (const [body, field] of [
      [{ minAmount: '600000' }, 'minAmount'],
      [{ maxAmount: '999' }, 'maxAmount'],
      [{ rateLimitPerMinute: 0 }, 'rateLimitPerMinute'],
      [{ returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
      [{ slug: 'renamed' }, 'slug'],
      [{}, null],
    ] as const) {
      const res = await h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await h.ops('GET', `/ops/v1/sites/${site.siteId}`)).body).toEqual(before.body);

    const same = await h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { maxAmount: '500000' });
    expect(same.status).toBe(200);
    const removed = await h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { returnUrl: null, maxAmount: '700000' });
    expect(removed.body).toMatchObject({ returnUrl: null, maxAmount: '700000' });
    const audit = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: site.siteId, action: 'SITE.SETTINGS_CHANGED' } });
    expect(audit.map((entry) => entry.metadata)).toEqual([
      { before: { maxAmount: '500000', returnUrl: 'https://ornek.example/cuzdan' }, after: { maxAmount: '700000', returnUrl: null } },
    ]);
    expect((await h.ops('PATCH', `/ops/v1/sites/00000000-0000-4000-8000-000000000000`, { name: 'X y' })).status).toBe(404);
  });
});

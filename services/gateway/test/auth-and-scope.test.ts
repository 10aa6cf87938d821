import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { authCacheKey } from '@kasa/contracts';
import request from 'supertest';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let siteA: TestSite;
let siteB: TestSite;

beforeAll(async () => {
  h = await startHarness();
  siteA = await h.createSite();
  siteB = await h.createSite();
});
afterAll(async () => {
  await h?.stop();
});

const listPath = '/api/v1/external/intents';

describe('API-key authentication', () => {
  it('answers 401 unauthorized without an Authorization header', async () => {
    const res = await request(h.gateway.url).get(listPath);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, error: 'unauthorized', type: expect.any(String), title: expect.any(String) });
    expect(res.body.requestId).toBe(res.headers['x-request-id']);
  });

  it.each([
    ['a non-Bearer scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a key without the sk_live_ prefix', 'Bearer sk_test_demo_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['a key with no secret part', 'Bearer sk_live_demo'],
    ['a key whose secret is too short', 'Bearer sk_live_demo_short'],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 for a malformed key: %s', async (_name, header) => {
    const res = await request(h.gateway.url).get(listPath).set('authorization', header);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it('answers 401 for a well-formed key nobody issued', async () => {
    const forged = `sk_live_${siteA.slug}_${'A'.repeat(43)}`;
    const res = await request(h.gateway.url).get(listPath).set('authorization', `Bearer ${forged}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it("answers 401 for a real key presented under another site's slug", async () => {
    const secret = siteA.apiKey.slice(`sk_live_${siteA.slug}_`.length);
    const res = await request(h.gateway.url).get(listPath).set('authorization', `Bearer sk_live_${siteB.slug}_${secret}`);
    expect(res.status).toBe(401);
  });

  it('refuses a revoked key from the very next request on, though it worked (and was cached) before', async () => {
    const site = await h.createSite();
    const api = partner(h.gateway.url, site);
    expect((await api.get(listPath)).status).toBe(200);
    expect((await api.get(listPath)).status).toBe(200);
    const revoked = await h.ops('DELETE', `/ops/v1/api-keys/${site.apiKeyId}`);
    expect(revoked.status).toBe(200);
    const res = await api.get(listPath);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('unauthorized');
  });

  it('keeps a revoked key refused after the Redis cache entry is gone', async () => {
    const site = await h.createSite();
    await h.ops('DELETE', `/ops/v1/api-keys/${site.apiKeyId}`);
    await h.ledger.deps.redis.del(...(await h.ledger.deps.redis.keys(`${h.env.redisPrefix}:auth:*`)));
    expect((await partner(h.gateway.url, site).get(listPath)).status).toBe(401);
  });

  // A Redis Cluster client once handed the key's GET another command's reply during a failover: another key's entry or a
  // rate-limit script's numbers. Neither may act for the key, nor fail the request.
  const cacheKeyOf = (site: TestSite) => authCacheKey(h.env.redisPrefix, createHash('sha256').update(site.apiKey).digest('hex'));

  it("never acts for the site named by another key's cache entry found under the key", async () => {
    const owner = await h.createSite();
    const ownersIntent = await partner(h.gateway.url, owner).createDeposit();
    expect(ownersIntent.status).toBe(201);
    const ownersEntry = await h.ledger.deps.redis.get(cacheKeyOf(owner));
    expect(JSON.parse(ownersEntry as string)).toMatchObject({ siteSlug: owner.slug });
    const site = await h.createSite();
    await h.ledger.deps.redis.set(cacheKeyOf(site), ownersEntry as string);

    const listed = await partner(h.gateway.url, site).get(listPath);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    const created = await partner(h.gateway.url, site).createDeposit();
    expect(created.status).toBe(201);
    expect((await partner(h.gateway.url, site).get(`${listPath}/${created.body.intentId}`)).status).toBe(200);
    expect((await partner(h.gateway.url, owner).get(`${listPath}/${created.body.intentId}`)).status).toBe(404);
  });

  it.each([
    ['a rate-limit reply', '12,59000'],
    ['a number', '12'],
    ['a principal without a site', '{"rateLimitPerMinute":600}'],
    ['JSON null', 'null'],
  ])('serves the key from the ledger when its cache entry is %s', async (_name, stray) => {
    const site = await h.createSite();
    await h.ledger.deps.redis.set(cacheKeyOf(site), stray);
    const listed = await partner(h.gateway.url, site).get(listPath);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
  });
});

describe('site scope', () => {
  it("answers another site's intent exactly like a missing one", async () => {
    const created = await partner(h.gateway.url, siteA).createDeposit();
    expect(created.status).toBe(201);
    const asB = partner(h.gateway.url, siteB);
    const other = await asB.get(`/api/v1/external/intents/${created.body.intentId}`).set('x-request-id', 'req-scope-test-1');
    const missing = await asB.get('/api/v1/external/intents/00000000-0000-4000-8000-000000000000').set('x-request-id', 'req-scope-test-1');
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('not_found');
    expect(other.text).toBe(missing.text);
    expect(other.headers['content-type']).toBe(missing.headers['content-type']);
    const malformed = await asB.get('/api/v1/external/intents/not-a-uuid').set('x-request-id', 'req-scope-test-1');
    expect(malformed.text).toBe(missing.text);
  });

  it("answers another site's withdrawal exactly like a missing one", async () => {
    const created = await partner(h.gateway.url, siteA).createWithdrawal();
    expect(created.status).toBe(201);
    const asB = partner(h.gateway.url, siteB);
    const other = await asB.get(`/api/v1/external/withdrawals/${created.body.withdrawalId}`).set('x-request-id', 'req-scope-test-2');
    const missing = await asB
      .get('/api/v1/external/withdrawals/00000000-0000-4000-8000-000000000000')
      .set('x-request-id', 'req-scope-test-2');
    expect(other.status).toBe(404);
    expect(other.text).toBe(missing.text);
    const own = await partner(h.gateway.url, siteA).get(`/api/v1/external/withdrawals/${created.body.withdrawalId}`);
    expect(own.status).toBe(200);
  });

  it("never lists another site's records", async () => {
    const a = await partner(h.gateway.url, siteA).createDeposit();
    const listB = await partner(h.gateway.url, siteB).get('/api/v1/external/intents?limit=100');
    expect(listB.status).toBe(200);
    expect(listB.body.data.map((i: { intentId: string }) => i.intentId)).not.toContain(a.body.intentId);
    const wA = await partner(h.gateway.url, siteA).createWithdrawal();
    const wListB = await partner(h.gateway.url, siteB).get('/api/v1/external/withdrawals?limit=100');
    expect(wListB.body.data.map((w: { withdrawalId: string }) => w.withdrawalId)).not.toContain(wA.body.withdrawalId);
  });
});

describe('request ids', () => {
  it('keeps a well-formed incoming X-Request-Id and makes one otherwise', async () => {
    const kept = await partner(h.gateway.url, siteA).get(listPath).set('x-request-id', 'partner-req-123456');
    expect(kept.headers['x-request-id']).toBe('partner-req-123456');
    const replaced = await partner(h.gateway.url, siteA).get(listPath).set('x-request-id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

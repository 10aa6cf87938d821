import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { startPrivateRedis, type PrivateRedis } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { ISO_MS, partner, UUID } from './partner-client.js';

let redis: PrivateRedis;
let h: Harness;
let site: TestSite;

// A Redis of this file's own, so FLUSHALL is real and disturbs no other test file.
beforeAll(async () => {
  redis = await startPrivateRedis();
  h = await startHarness({ REDIS_URL: redis.url, DEPOSIT_INTENT_TTL_SECONDS: '1800' });
  site = await h.createSite({ depositTtlSeconds: 900 });
});
afterAll(async () => {
  await h?.stop();
  await redis?.stop();
});

async function countDeposits(siteId: string): Promise<number> {
  return h.ledger.deps.db.deposit.count({ where: { siteId } });
}

describe('POST /api/v1/external/deposits', () => {
  it('answers 201 with every SPEC field in the right type and format', async () => {
    const before = Date.now();
    const res = await partner(h.gateway.url, site).createDeposit({ externalUserLabel: 'Ayşe Y.', currency: 'TRY', amount: '250075' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['amount', 'currency', 'depositUrl', 'expiresAt', 'intentId', 'referenceNo']);
    expect(res.body.intentId).toMatch(UUID);
    expect(res.body.referenceNo).toMatch(/^KD[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(res.body.amount).toBe('250075');
    expect(res.body.currency).toBe('TRY');
    expect(res.body.expiresAt).toMatch(ISO_MS);
    const ttl = new Date(res.body.expiresAt).getTime() - before;
    expect(ttl).toBeGreaterThan(899_000);
    expect(ttl).toBeLessThan(905_000);
    const url = new URL(res.body.depositUrl);
    expect(`${url.protocol}//${url.host}`).toBe(h.env.config.publicBaseUrl);
    const token = url.pathname.replace('/deposit/', '');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The database keeps only the token's hash.
    const row = await h.ledger.deps.db.deposit.findUniqueOrThrow({ where: { id: res.body.intentId } });
    expect(row.depositTokenHash).not.toContain(token);
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).not.toContain(token);
  });

  it('defaults currency to TRY and returns the lookup record with the SPEC fields', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '100000' });
    const read = await partner(h.gateway.url, site).get(`/api/v1/external/intents/${created.body.intentId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      intentId: created.body.intentId,
      referenceNo: created.body.referenceNo,
      status: 'RESERVED',
      amount: '100000',
      currency: 'TRY',
      approvedAt: null,
      rejectedAt: null,
      rejectedReason: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it('refuses a missing Idempotency-Key with 400 idempotency_key_missing and creates nothing', async () => {
    const before = await countDeposits(site.siteId);
    const res = await partner(h.gateway.url, site).createDeposit({}, null);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('idempotency_key_missing');
    expect(await countDeposits(site.siteId)).toBe(before);
  });

  it('refuses an Idempotency-Key longer than 255 characters', async () => {
    const res = await partner(h.gateway.url, site).createDeposit({}, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  });

  it('replays the same record for the same key and body, marked Idempotent-Replayed', async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createDeposit({ amount: '120000' }, key);
    const again = await partner(h.gateway.url, site).createDeposit({ amount: '120000' }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
  });

  it("keeps no deposit page token in Redis: the replay's link comes from the ledger's own record", async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createDeposit({ amount: '121000' }, key);
    const token = (first.body.depositUrl as string).split('/deposit/')[1] as string;
    expect(token.length).toBeGreaterThan(20);
    const client = new Redis(redis.url);
    try {
      // Every value the suite wrote, read as it is stored.
      const found: string[] = [];
      for (const name of await client.keys('*')) {
        const type = await client.type(name);
        const value =
          type === 'string'
            ? await client.get(name)
            : type === 'hash'
              ? JSON.stringify(await client.hgetall(name))
              : type === 'list'
                ? JSON.stringify(await client.lrange(name, 0, -1))
                : type === 'zset'
                  ? JSON.stringify(await client.zrange(name, '0', '-1'))
                  : '';
        if (value?.includes(token)) found.push(name);
      }
      expect(found).toEqual([]);
    } finally {
      client.disconnect();
    }
    const again = await partner(h.gateway.url, site).createDeposit({ amount: '121000' }, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const changed = await partner(h.gateway.url, site).createDeposit({ amount: '121001' }, key);
    expect(changed.status).toBe(422);
  });

  it('treats a reordered but equal body as the same request', async () => {
    const key = randomUUID();
    const api = partner(h.gateway.url, site);
    const first = await api.post('/api/v1/external/deposits').set('idempotency-key', key).send({ amount: '130000', externalUserId: 'u-7' });
    const again = await api.post('/api/v1/external/deposits').set('idempotency-key', key).send({ externalUserId: 'u-7', amount: '130000' });
    expect(again.body.intentId).toBe(first.body.intentId);
  });

  it('answers 422 idempotency_key_reused for the same key with a different body', async () => {
    const key = randomUUID();
    await partner(h.gateway.url, site).createDeposit({ amount: '120000' }, key);
    const before = await countDeposits(site.siteId);
    const res = await partner(h.gateway.url, site).createDeposit({ amount: '999999' }, key);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('idempotency_key_reused');
    expect(await countDeposits(site.siteId)).toBe(before);
  });

  it('scopes keys to the site: two sites may use the same key', async () => {
    const other = await h.createSite();
    const key = randomUUID();
    const a = await partner(h.gateway.url, site).createDeposit({}, key);
    const b = await partner(h.gateway.url, other).createDeposit({}, key);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.intentId).not.toBe(a.body.intentId);
  });

  it('produces exactly one record from 20 concurrent requests with one key', async () => {
    const concurrentSite = await h.createSite();
    const key = randomUUID();
    const api = partner(h.gateway.url, concurrentSite);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.createDeposit({ amount: '140000' }, key)));
    const statuses = results.map((r) => r.status);
    for (const status of statuses) expect([201, 409]).toContain(status);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.intentId)).size).toBe(1);
    for (const conflict of results.filter((r) => r.status === 409)) expect(conflict.body.error).toBe('idempotency_key_in_use');
    expect(await countDeposits(concurrentSite.siteId)).toBe(1);
    const settled = await api.createDeposit({ amount: '140000' }, key);
    expect(settled.status).toBe(201);
    expect(settled.body.intentId).toBe(created[0]?.body.intentId);
  });

  it('sends Redis no idempotency entry for a create: the ledger alone decides its key', async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createDeposit({ amount: '155000' }, key);
    expect(first.status).toBe(201);
    const withdrawal = await partner(h.gateway.url, site).createWithdrawal({}, key);
    expect(withdrawal.status).toBe(201);
    const admin = new Redis(redis.url);
    const entries = await admin.keys(`${h.env.redisPrefix}:idem:*`);
    admin.disconnect();
    expect(entries).toEqual([]);
    const again = await partner(h.gateway.url, site).createDeposit({ amount: '155000' }, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('still returns the original record after FLUSHALL, and still refuses a different body', async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createDeposit({ amount: '160000' }, key);
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    const retry = await partner(h.gateway.url, site).createDeposit({ amount: '160000' }, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    const admin2 = new Redis(redis.url);
    await admin2.flushall();
    admin2.disconnect();
    const changed = await partner(h.gateway.url, site).createDeposit({ amount: '170000' }, key);
    expect(changed.status).toBe(422);
    expect(changed.body.error).toBe('idempotency_key_reused');
  });
});

describe('POST /api/v1/external/withdrawals', () => {
  it('answers 201 with withdrawalId and referenceNo, and the lookup shows PENDING_REVIEW', async () => {
    const res = await partner(h.gateway.url, site).createWithdrawal({ targetIban: 'tr33 0006 1005 1978 6457 8413 26', amount: '75000' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['referenceNo', 'withdrawalId']);
    expect(res.body.withdrawalId).toMatch(UUID);
    expect(res.body.referenceNo).toMatch(/^KW[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    const read = await partner(h.gateway.url, site).get(`/api/v1/external/withdrawals/${res.body.withdrawalId}`);
    expect(read.body).toEqual({
      withdrawalId: res.body.withdrawalId,
      referenceNo: res.body.referenceNo,
      status: 'PENDING_REVIEW',
      amount: '75000',
      currency: 'TRY',
      sentAt: null,
      rejectedAt: null,
      rejectedReason: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      returnedAt: null,
      returnReason: null,
    });
    const row = await h.ledger.deps.db.withdrawal.findUniqueOrThrow({ where: { id: res.body.withdrawalId } });
    expect(row.targetIban).toBe('TR330006100519786457841326');
  });

  it('replays, refuses a changed body, and survives FLUSHALL like deposits', async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createWithdrawal({}, key);
    expect((await partner(h.gateway.url, site).createWithdrawal({}, key)).body).toEqual(first.body);
    expect((await partner(h.gateway.url, site).createWithdrawal({ amount: '60000' }, key)).status).toBe(422);
    const admin = new Redis(redis.url);
    await admin.flushall();
    admin.disconnect();
    const retry = await partner(h.gateway.url, site).createWithdrawal({}, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await h.ledger.deps.db.withdrawal.count({ where: { siteId: site.siteId, idempotencyKey: key } })).toBe(1);
  });

  it('produces exactly one withdrawal from 20 concurrent requests with one key', async () => {
    const key = randomUUID();
    const api = partner(h.gateway.url, site);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.createWithdrawal({}, key)));
    expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.withdrawalId)).size).toBe(1);
    expect(await h.ledger.deps.db.withdrawal.count({ where: { siteId: site.siteId, idempotencyKey: key } })).toBe(1);
  });
});

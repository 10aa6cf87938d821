/**
 * IDEMPOTENCY_LOST_RECORD_GUARD (a write database with asynchronous replicas): a deposit create retried with a key the
 * partner was answered for, after the ledger lost the record it named (a failover to an asynchronous replica that had
 * not received it; simulated here by deleting the row): the gateway remembers the answer in Redis, so the ledger
 * refuses with 409 `idempotency_record_lost` instead of minting a second id. Also what the remembered keys cost: a
 * claim left by a gateway that died mid-request, and the entry's size and lifetime.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fingerprintOf, parseRequest } from '@kasa/contracts';
import { STALE_CLAIM_MS } from '../src/idempotency/idempotency.js';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;

beforeAll(async () => {
  h = await startHarness({ IDEMPOTENCY_LOST_RECORD_GUARD: 'true' });
  site = await h.createSite();
});
afterAll(async () => {
  await h?.stop();
});

/** What a failover to a replica that never received the create leaves: no row for the key. */
async function loseRecord(intentId: string): Promise<void> {
  await h.ledger.deps.pool.query('DELETE FROM deposit_intents WHERE id = $1', [intentId]);
}

async function depositsWithKey(key: string): Promise<number> {
  return h.ledger.deps.db.deposit.count({ where: { siteId: site.siteId, idempotencyKey: key } });
}

describe('a retried create whose record the ledger lost', () => {
  it('answers 409 conflict idempotency_record_lost and creates nothing, so the key never names a second intent', async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createDeposit({ amount: '120000' }, key);
    expect(first.status).toBe(201);
    await loseRecord(first.body.intentId);

    const retry = await partner(h.gateway.url, site).createDeposit({ amount: '120000' }, key);
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ error: 'conflict', reason: 'idempotency_record_lost' });
    expect(retry.body.intentId).toBeUndefined();
    expect(await depositsWithKey(key)).toBe(0);
    // Retrying again changes nothing: the answer is the same, and still nothing is created.
    const again = await partner(h.gateway.url, site).createDeposit({ amount: '120000' }, key);
    expect(again.status).toBe(409);
    expect(await depositsWithKey(key)).toBe(0);
    const lookup = await partner(h.gateway.url, site).get(`/api/v1/external/intents/${first.body.intentId}`);
    expect(lookup.status).toBe(404);
  });

  it('still replays the same intent when the ledger has the record', async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createDeposit({ amount: '130000' }, key);
    const retry = await partner(h.gateway.url, site).createDeposit({ amount: '130000' }, key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.intentId).toBe(first.body.intentId);
    expect(retry.body.depositUrl).toBe(first.body.depositUrl);
  });

  it('refuses another body for the key with 422, lost record or not', async () => {
    const key = randomUUID();
    const first = await partner(h.gateway.url, site).createDeposit({ amount: '140000' }, key);
    await loseRecord(first.body.intentId);
    const other = await partner(h.gateway.url, site).createDeposit({ amount: '140001' }, key);
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('idempotency_key_reused');
    expect(await depositsWithKey(key)).toBe(0);
  });
});

describe('the remembered keys', () => {
  it('serves a retry within seconds when the gateway that claimed the key died mid-request', async () => {
    const key = randomUUID();
    const body = { externalUserId: 'u-crash', amount: '155000' };
    // What a gateway killed mid-request leaves behind: its claim on the key, never finished or released.
    void h.gateway.deps.idempotency.run(
      { siteId: site.siteId, route: 'deposits', key, fingerprint: fingerprintOf(parseRequest('createDeposit', body)) },
      () => new Promise(() => undefined),
    );
    const early = await partner(h.gateway.url, site).createDeposit(body, key);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('idempotency_key_in_use');
    await new Promise((resolve) => setTimeout(resolve, STALE_CLAIM_MS + 100));
    const retry = await partner(h.gateway.url, site).createDeposit(body, key);
    expect(retry.status).toBe(201);
    const again = await partner(h.gateway.url, site).createDeposit(body, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.intentId).toBe(retry.body.intentId);
    expect(await depositsWithKey(key)).toBe(1);
    // The key's entry is compact: a short fingerprint (a deposit's answer holds a page link, so not the answer),
    // expiring within 24 hours.
    const entries = await h.gateway.deps.redis.keys(`${h.env.redisPrefix}:idem:${site.siteId}:deposits:*`);
    const entryKey = entries.find((name) => name.length < 200);
    expect(entryKey).toBeDefined();
    const ttl = await h.gateway.deps.redis.ttl(entryKey!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
  });
});

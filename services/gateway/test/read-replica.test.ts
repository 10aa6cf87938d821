/**
 * DATABASE_READ_URL: partner lists come from the read replica, lookups too, and a record the replica has not
 * received yet is found on the primary. The "replica" here is a second database that never catches up, the
 * worst lag there is, so every answer shows where it came from.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dropDatabase, ensureDatabase, migrate } from '@kasa/db';
import { TEST_POSTGRES_BASE } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

const replicaUrl = `${TEST_POSTGRES_BASE}/kasa_t_replica_${randomBytes(6).toString('hex')}`;
let h: Harness;
let site: TestSite;

beforeAll(async () => {
  await ensureDatabase(replicaUrl);
  await migrate(replicaUrl);
  h = await startHarness({ DATABASE_READ_URL: replicaUrl });
  site = await h.createSite({ rateLimitPerMinute: 100000 });
});
afterAll(async () => {
  await h?.stop();
  // Stopping the ledger closes the replica's pool too.
  expect(h.ledger.deps.readPool?.ended).toBe(true);
  await dropDatabase(replicaUrl);
});

describe('a read replica', () => {
  it('serves lists, and a lookup of a record it does not have yet falls back to the primary', async () => {
    const api = partner(h.gateway.url, site);
    const created = await api.createDeposit({ amount: '150000' });
    expect(created.status).toBe(201);
    // The lookup finds the new record although the replica has never seen it.
    const lookup = await api.get(`/api/v1/external/intents/${created.body.intentId}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.intentId).toBe(created.body.intentId);
    // The list is the replica's: it has not caught up, so it is empty, while the primary has the record.
    const list = await api.get('/api/v1/external/intents');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect(await h.ledger.deps.db.depositIntent.count({ where: { siteId: site.siteId } })).toBe(1);
  });

  it('does not change where the record is written', async () => {
    expect(h.ledger.deps.readPool).not.toBeNull();
    const rows = await h.ledger.deps.readPool!.query('SELECT count(*)::int AS n FROM deposit_intents');
    expect(rows.rows[0]).toEqual({ n: 0 });
  });
});

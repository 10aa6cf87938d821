/**
 * DATABASE_READ_URL: partner lists come from the read replica; lookups always read the primary, so a lookup
 * never shows a state older than one Kasa already reported. The "replica" here is a second database that
 * never catches up, the worst lag there is, so every answer shows where it came from. (A real streaming
 * replica, its delay and a stopped replica: test/engines/read-replica.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dropDatabase, ensureDatabase, migrate } from '@kasa/db';
import { Scenario, TEST_POSTGRES_BASE } from '@kasa/testkit';
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
  it('serves lists, and lookups read the primary, so a record the replica does not have yet is found', async () => {
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
    expect(await h.ledger.deps.db.deposit.count({ where: { siteId: site.siteId } })).toBe(1);
  });

  it('does not change where the record is written', async () => {
    expect(h.ledger.deps.readPool).not.toBeNull();
    const rows = await h.ledger.deps.readPool!.query('SELECT count(*)::int AS n FROM deposit_intents');
    expect(rows.rows[0]).toEqual({ n: 0 });
  });

  it('shows the approval in a lookup while the replica still holds the record as it was before', async () => {
    const api = partner(h.gateway.url, site);
    const created = await api.createDeposit({ amount: '150000' });
    const intentId = created.body.intentId as string;
    const scenario = new Scenario({
      ledgerUrl: h.ledger.url,
      opsToken: h.env.config.opsBootstrapToken,
      internalToken: h.env.config.internalToken,
    });
    expect((await scenario.transfer(created.body.referenceNo, '150000')).status).toBe(201);
    // The replica receives the record as it is now, awaiting review (its site and account rows are not copied:
    // replica mode skips the foreign-key triggers, as a replica applying WAL does).
    const { rows } = await h.ledger.deps.pool.query('SELECT row_to_json(d) AS row FROM deposit_intents d WHERE id = $1', [intentId]);
    const client = await h.ledger.deps.readPool!.connect();
    try {
      await client.query('SET session_replication_role = replica');
      await client.query('INSERT INTO deposit_intents SELECT * FROM json_populate_record(NULL::deposit_intents, $1)', [rows[0].row]);
    } finally {
      client.release(true);
    }
    await scenario.approveDeposit(intentId);

    const lookup = await api.get(`/api/v1/external/intents/${intentId}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.status).toBe('APPROVED');
    // The list is the replica's older copy: lists may lag, lookups never.
    const list = await api.get('/api/v1/external/intents');
    expect(list.body.data.map((item: { intentId: string; status: string }) => [item.intentId, item.status])).toEqual([
      [intentId, 'PENDING_REVIEW'],
    ]);
  });
});

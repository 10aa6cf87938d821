/**
 * The ledger alone decides a create's idempotency key, straight at its internal API (real HTTP, real
 * PostgreSQL, no gateway in front): one record per key however many creates race, a replay for a retry after
 * commit, 422 for another body, and 409 `idempotency_key_in_use` while the key's first create is still in
 * flight.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dropDatabase, ensureDatabase } from '@kasa/db';
import { startPgBouncer, TEST_POSTGRES_BASE, type PgBouncer } from '@kasa/testkit';
import { startLedgerHarness, type HttpResult, type LedgerHarness, type TestSite } from './harness.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

const envelope = (idempotencyKey: string, request: Record<string, unknown>) => ({
  idempotencyKey,
  fingerprint: sha256Hex(JSON.stringify(request)),
  request,
});

describe('create idempotency decided by the ledger', () => {
  let h: LedgerHarness;
  let site: TestSite;

  beforeAll(async () => {
    h = await startLedgerHarness();
    site = await h.createSite();
  });

  afterAll(async () => {
    await h.stop();
  });

  const createDeposit = (key: string, request: Record<string, unknown>) =>
    h.internal('POST', `/sites/${site.siteId}/deposits`, envelope(key, request));
  const createWithdrawal = (key: string, request: Record<string, unknown>) =>
    h.internal('POST', `/sites/${site.siteId}/withdrawals`, envelope(key, request));
  const recordsUnder = async (table: 'deposit_intents' | 'withdrawals', key: string) =>
    Number(
      (
        await h.ledger.deps.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE site_id = $1 AND idempotency_key = $2`, [
          site.siteId,
          key,
        ])
      ).rows[0]?.n,
    );

  /** Exactly one create made the record; every other answer replays it or says the key is in flight. */
  const expectOneRecord = (results: HttpResult[], idOf: (body: Record<string, string>) => string) => {
    const created = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'false');
    expect(created).toHaveLength(1);
    const id = idOf(created[0]?.body);
    for (const result of results) {
      if (result.status === 201) expect(idOf(result.body)).toBe(id);
      else expect([result.status, result.body.error]).toEqual([409, 'idempotency_key_in_use']);
    }
  };

  it('makes exactly one deposit intent from concurrent creates with one key; the others replay it or get 409', async () => {
    const key = randomUUID();
    const request = { externalUserId: 'u-race', amount: '150000' };
    const results = await Promise.all(Array.from({ length: 12 }, () => createDeposit(key, request)));
    expectOneRecord(results, (body) => body.intentId as string);
    expect(await recordsUnder('deposit_intents', key)).toBe(1);
  });

  it('makes exactly one withdrawal from concurrent creates with one key', async () => {
    const key = randomUUID();
    const request = {
      externalUserId: 'u-race',
      amount: '150000',
      targetIban: 'TR330006100519786457841326',
      targetHolderName: 'Ayşe Yılmaz',
    };
    const results = await Promise.all(Array.from({ length: 12 }, () => createWithdrawal(key, request)));
    expectOneRecord(results, (body) => body.withdrawalId as string);
    expect(await recordsUnder('withdrawals', key)).toBe(1);
  });

  it('replays a committed create with the same status and body, marked Idempotent-Replayed', async () => {
    const key = randomUUID();
    const request = { externalUserId: 'u-retry', amount: '250000' };
    const first = await createDeposit(key, request);
    const retry = await createDeposit(key, request);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBe('false');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('rejects a reused idempotency key with a different body and creates nothing more', async () => {
    const key = randomUUID();
    expect((await createDeposit(key, { externalUserId: 'u-reuse', amount: '150000' })).status).toBe(201);
    const other = await createDeposit(key, { externalUserId: 'u-reuse', amount: '150001' });
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('idempotency_key_reused');
    expect(await recordsUnder('deposit_intents', key)).toBe(1);
  });

  it('answers 409 idempotency_key_in_use while the key is held by a create not yet committed, and creates once it is free', async () => {
    const key = randomUUID();
    const request = { externalUserId: 'u-in-flight', amount: '150000' };
    // A create in flight holds the key's transaction lock until it commits (site-scoped.repository.ts): hold it here.
    const inFlight = await h.ledger.deps.pool.connect();
    try {
      await inFlight.query('BEGIN');
      await inFlight.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${site.siteId}:deposit_intents:${key}`]);
      const refused = await createDeposit(key, request);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe('idempotency_key_in_use');
      expect(await recordsUnder('deposit_intents', key)).toBe(0);
      // Another key of the same site is not held up.
      expect((await createDeposit(randomUUID(), request)).status).toBe(201);
    } finally {
      await inFlight.query('ROLLBACK');
      inFlight.release();
    }
    const created = await createDeposit(key, request);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBe('false');
  });

  it('still replays only an existing record when the gateway says it answered the key before', async () => {
    const key = randomUUID();
    const request = { externalUserId: 'u-answered', amount: '150000' };
    const first = await createDeposit(key, request);
    const replay = await h.internal('POST', `/sites/${site.siteId}/deposits`, { ...envelope(key, request), answeredBefore: true });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const lost = await h.internal('POST', `/sites/${site.siteId}/deposits`, { ...envelope(randomUUID(), request), answeredBefore: true });
    expect(lost.status).toBe(409);
    expect(lost.body.reason).toBe('idempotency_record_lost');
  });
});

describe('create idempotency behind PgBouncer in transaction mode', () => {
  const database = `kasa_t_idem_bouncer_${randomBytes(6).toString('hex')}`;
  let bouncer: PgBouncer;
  let h: LedgerHarness;
  let site: TestSite;

  beforeAll(async () => {
    // Fewer server connections than the ledger has clients: a create's statement and the test's held lock, or two
    // creates, run on different server connections.
    bouncer = await startPgBouncer({ upstreamPort: 5432, poolSize: 4 });
    await ensureDatabase(`${TEST_POSTGRES_BASE}/${database}`);
    h = await startLedgerHarness({ DATABASE_URL: `${bouncer.baseUrl}/${database}`, DATABASE_POOL_MODE: 'transaction' });
    site = await h.createSite();
  }, 60_000);

  afterAll(async () => {
    await h?.stop().catch(() => undefined);
    await bouncer?.stop();
    await dropDatabase(`${TEST_POSTGRES_BASE}/${database}`);
  }, 60_000);

  const createDeposit = (key: string, request: Record<string, unknown>) =>
    h.internal('POST', `/sites/${site.siteId}/deposits`, envelope(key, request));

  it('makes one record from concurrent same-key creates, 409 while the key is held, and a replay after', async () => {
    const key = randomUUID();
    const request = { externalUserId: 'u-bouncer', amount: '150000' };
    const results = await Promise.all(Array.from({ length: 12 }, () => createDeposit(key, request)));
    const created = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'false');
    expect(created).toHaveLength(1);
    for (const result of results) {
      if (result.status !== 201) expect([result.status, result.body.error]).toEqual([409, 'idempotency_key_in_use']);
    }
    const replay = await createDeposit(key, request);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(created[0]?.body);

    const held = randomUUID();
    const inFlight = await h.ledger.deps.pool.connect();
    try {
      await inFlight.query('BEGIN');
      await inFlight.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${site.siteId}:deposit_intents:${held}`]);
      expect((await createDeposit(held, request)).status).toBe(409);
    } finally {
      await inFlight.query('ROLLBACK');
      inFlight.release();
    }
    expect((await createDeposit(held, request)).status).toBe(201);
  });
});

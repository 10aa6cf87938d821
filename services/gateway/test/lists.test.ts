import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;
const TOTAL = 230;

// Records are inserted straight into the database with spread, partly identical, timestamps, so the walk
// is tested on ties too; a few are made through the API to show those appear in the same lists.
beforeAll(async () => {
  h = await startHarness();
  // Walking 230 records one per page needs far more than the default 60 requests a minute.
  site = await h.createSite({ rateLimitPerMinute: 100000 });
  for (let i = 0; i < 3; i += 1) expect((await partner(h.gateway.url, site).createDeposit()).status).toBe(201);
  await h.ledger.deps.db.$executeRawUnsafe(
    `INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, currency, external_user_id,
       receiving_account_id, deposit_token_hash, expires_at, idempotency_key, idempotency_fingerprint, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'KDL' || lpad(g::text, 7, '0'),
       (ARRAY['RESERVED','PENDING_REVIEW','APPROVED','REJECTED','AUTO_CANCELLED','LATE_ARRIVAL'])[1 + g % 6]::"DepositStatus",
       1000 + g, 1000 + g, 'TRY', 'u' || g, (SELECT id FROM receiving_bank_accounts LIMIT 1), md5(g::text) || md5((g * 7)::text),
       now(), 'list-' || g, repeat('0', 64), timestamptz '2026-01-01T00:00:00Z' + (g / 3) * interval '1 second', now()
     FROM generate_series(1, $2::int) AS g`,
    site.siteId,
    TOTAL - 3,
  );
});
afterAll(async () => {
  await h?.stop();
});

async function walk(limit: number, query = '', onPage?: (page: number) => Promise<void>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page += 1) {
    const qs = new URLSearchParams(query);
    qs.set('limit', String(limit));
    if (cursor) qs.set('cursor', cursor);
    const res = await partner(h.gateway.url, site).get(`/api/v1/external/intents?${qs.toString()}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((item: { intentId: string }) => item.intentId));
    cursor = res.body.nextCursor;
    if (onPage) await onPage(page);
    if (cursor === null) return ids;
  }
  throw new Error('the walk did not end');
}

async function allIdsNewestFirst(where = ''): Promise<string[]> {
  const rows = await h.ledger.deps.db.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT id::text FROM deposit_intents WHERE site_id = $1::uuid ${where} ORDER BY created_at DESC, id DESC`,
    site.siteId,
  );
  return rows.map((row) => row.id);
}

describe('GET /api/v1/external/intents pagination', () => {
  it.each([[1], [3], [100]])('walks the whole range newest first with no gap and no duplicate, %i per page', async (limit) => {
    const ids = await walk(limit);
    expect(ids).toEqual(await allIdsNewestFirst());
    expect(new Set(ids).size).toBe(TOTAL);
  });

  it('defaults to 50 per page and shows both requestedAmount and amount', async () => {
    const res = await partner(h.gateway.url, site).get('/api/v1/external/intents');
    expect(res.body.data).toHaveLength(50);
    expect(res.body.data[0]).toEqual(expect.objectContaining({ requestedAmount: expect.any(String), amount: expect.any(String) }));
    expect(typeof res.body.nextCursor).toBe('string');
  });

  it('misses and repeats nothing while new records are inserted between pages', async () => {
    const before = await allIdsNewestFirst();
    const ids = await walk(7, '', async (page) => {
      if (page % 5 === 0) await partner(h.gateway.url, site).createDeposit();
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of before) expect(ids).toContain(id);
  });
});

describe('filters', () => {
  it('treats createdFrom as inclusive and createdTo as exclusive on exact timestamps', async () => {
    const from = '2026-01-01T00:00:10.000Z';
    const to = '2026-01-01T00:00:20.000Z';
    const ids = await walk(100, `createdFrom=${from}&createdTo=${to}`);
    const expected = await allIdsNewestFirst(`AND created_at >= '${from}' AND created_at < '${to}'`);
    expect(ids).toEqual(expected);
    expect(expected.length).toBe(30); // seconds 10..19, three records each
    const atFrom = await allIdsNewestFirst(`AND created_at = '${from}'`);
    const atTo = await allIdsNewestFirst(`AND created_at = '${to}'`);
    for (const id of atFrom) expect(ids).toContain(id);
    for (const id of atTo) expect(ids).not.toContain(id);
  });

  it('filters by a comma-separated list of statuses', async () => {
    const ids = await walk(100, 'status=APPROVED,REJECTED');
    expect(ids).toEqual(await allIdsNewestFirst(`AND status IN ('APPROVED', 'REJECTED')`));
    const res = await partner(h.gateway.url, site).get('/api/v1/external/intents?status=APPROVED,REJECTED&limit=100');
    for (const item of res.body.data) expect(['APPROVED', 'REJECTED']).toContain(item.status);
  });

  it('filters withdrawals by status with the same contract', async () => {
    const created = await partner(h.gateway.url, site).createWithdrawal();
    const pending = await partner(h.gateway.url, site).get('/api/v1/external/withdrawals?status=PENDING_REVIEW');
    expect(pending.body.data.map((w: { withdrawalId: string }) => w.withdrawalId)).toContain(created.body.withdrawalId);
    expect(pending.body.data[0]).toEqual(expect.objectContaining({ requestedAmount: '50000', amount: '50000' }));
    const sent = await partner(h.gateway.url, site).get('/api/v1/external/withdrawals?status=SENT');
    expect(sent.body).toEqual({ data: [], nextCursor: null });
  });
});

describe('list validation', () => {
  const refused = async (path: string, field: string) => {
    const res = await partner(h.gateway.url, site).get(path);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
  };

  it.each([
    ['an unknown status', '/api/v1/external/intents?status=PAID', 'status'],
    ['a withdrawal status on the intent list', '/api/v1/external/intents?status=SENT', 'status'],
    ['an intent status on the withdrawal list', '/api/v1/external/withdrawals?status=RESERVED', 'status'],
    ['a limit of 0', '/api/v1/external/intents?limit=0', 'limit'],
    ['a limit of 101', '/api/v1/external/intents?limit=101', 'limit'],
    ['a limit of abc', '/api/v1/external/intents?limit=abc', 'limit'],
    ['a createdFrom that is not a timestamp', '/api/v1/external/intents?createdFrom=yesterday', 'createdFrom'],
    ['an unknown parameter', '/api/v1/external/intents?sort=asc', 'sort'],
    ['a repeated parameter', '/api/v1/external/intents?limit=5&limit=6', 'limit'],
  ])('refuses %s', async (_name, path, field) => {
    await refused(path, field);
  });

  it('refuses a tampered cursor', async () => {
    const first = await partner(h.gateway.url, site).get('/api/v1/external/intents?limit=2');
    const cursor: string = first.body.nextCursor;
    const [payload, signature] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    decoded.t = '2030-01-01T00:00:00.000Z';
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
    await refused(`/api/v1/external/intents?limit=2&cursor=${forged}`, 'cursor');
    await refused(`/api/v1/external/intents?limit=2&cursor=${cursor.slice(0, -2)}xx`, 'cursor');
    await refused('/api/v1/external/intents?limit=2&cursor=garbage', 'cursor');
  });

  it('refuses a cursor reused with other filters, but allows another page size', async () => {
    const first = await partner(h.gateway.url, site).get('/api/v1/external/intents?limit=2&status=APPROVED');
    const cursor = encodeURIComponent(first.body.nextCursor);
    await refused(`/api/v1/external/intents?limit=2&status=REJECTED&cursor=${cursor}`, 'cursor');
    await refused(`/api/v1/external/intents?limit=2&cursor=${cursor}`, 'cursor');
    await refused(`/api/v1/external/intents?limit=2&status=APPROVED&createdFrom=2026-01-01T00:00:00.000Z&cursor=${cursor}`, 'cursor');
    await refused(`/api/v1/external/withdrawals?limit=2&cursor=${cursor}`, 'cursor');
    const resized = await partner(h.gateway.url, site).get(`/api/v1/external/intents?limit=5&status=APPROVED&cursor=${cursor}`);
    expect(resized.status).toBe(200);
  });

  it("refuses another site's cursor", async () => {
    const other = await h.createSite({ rateLimitPerMinute: 100000 });
    await partner(h.gateway.url, other).createDeposit();
    await partner(h.gateway.url, other).createDeposit();
    const page = await partner(h.gateway.url, other).get('/api/v1/external/intents?limit=1');
    const res = await partner(h.gateway.url, site).get(
      `/api/v1/external/intents?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`,
    );
    expect(res.status).toBe(400);
  });
});

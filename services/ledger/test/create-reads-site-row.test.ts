/**
 * A partner create is one insert that reads the site's row (and the receiving account's) itself: a limit or an
 * account changed by another process (here: straight in the database, which no cache of this ledger hears about)
 * holds from the very next create, not after a cache's lifetime.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a create checks the site and the account as the database has them', () => {
  let h: LedgerHarness;

  beforeAll(async () => {
    h = await startLedgerHarness();
  });

  afterAll(async () => {
    await h.stop();
  });

  const create = (site: TestSite, path: 'deposits' | 'withdrawals', request: Record<string, unknown>) =>
    h.internal('POST', `/sites/${site.siteId}/${path}`, {
      idempotencyKey: randomUUID(),
      fingerprint: sha256Hex(JSON.stringify(request)),
      request,
    });
  const sql = (text: string, values: unknown[] = []) => h.ledger.deps.pool.query(text, values);
  const iban = 'TR330006100519786457841326';

  it('refuses an amount above a maximum lowered a moment ago, for deposits and withdrawals, and creates nothing', async () => {
    const site = await h.createSite();
    // Warm the ledger's copy of the site with the old limits.
    expect((await create(site, 'deposits', { externalUserId: 'u', amount: '500000' })).status).toBe(201);
    await sql('UPDATE sites SET max_amount = 200000 WHERE id = $1', [site.siteId]);

    const deposit = await create(site, 'deposits', { externalUserId: 'u', amount: '500000' });
    expect(deposit.status).toBe(400);
    expect(deposit.body.error).toBe('validation_failed');
    expect(deposit.body.errors).toEqual([{ field: 'amount', message: 'must be between 1000 and 200000 (minor units)' }]);
    const withdrawal = await create(site, 'withdrawals', {
      externalUserId: 'u',
      amount: '500000',
      targetIban: iban,
      targetHolderName: 'A B',
    });
    expect(withdrawal.status).toBe(400);
    const counted = await sql(
      'SELECT (SELECT count(*) FROM deposit_intents WHERE site_id = $1)::int AS d, (SELECT count(*) FROM withdrawals WHERE site_id = $1)::int AS w',
      [site.siteId],
    );
    expect(counted.rows[0]).toEqual({ d: 1, w: 0 });
    expect((await create(site, 'deposits', { externalUserId: 'u', amount: '200000' })).status).toBe(201);
  });

  it('refuses an amount larger than any bigint with the site limits, not a database error', async () => {
    const site = await h.createSite();
    const refused = await create(site, 'deposits', { externalUserId: 'u', amount: '9'.repeat(30) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.field).toBe('amount');
  });

  it('expires an intent after the TTL the site has at the create', async () => {
    const site = await h.createSite();
    await sql('UPDATE sites SET deposit_ttl_seconds = 120 WHERE id = $1', [site.siteId]);
    const before = h.clock.now().getTime();
    const created = await create(site, 'deposits', { externalUserId: 'u', amount: '150000' });
    expect(created.status).toBe(201);
    const expiresIn = new Date(created.body.expiresAt as string).getTime() - before;
    expect(expiresIn).toBeGreaterThanOrEqual(120_000);
    expect(expiresIn).toBeLessThan(180_000);
  });

  it('hands out no receiving account deactivated a moment ago, and answers 503 when none is left', async () => {
    const site = await h.createSite();
    const second = await h.ops('POST', '/receiving-accounts', {
      bankName: 'Second Bank',
      holderName: 'Kasa Odeme A.S.',
      iban: makeTrIban(424242),
    });
    expect(second.status).toBe(201);
    // Warm the ledger's list with both accounts, then deactivate every account but the second behind its back.
    expect((await create(site, 'deposits', { externalUserId: 'u', amount: '150000' })).status).toBe(201);
    await sql('UPDATE receiving_bank_accounts SET active = (id = $1)', [second.body.id]);
    for (let i = 0; i < 4; i += 1) {
      const created = await create(site, 'deposits', { externalUserId: 'u', amount: '150000' });
      expect(created.status).toBe(201);
      const row = await sql('SELECT receiving_account_id::text AS id FROM deposit_intents WHERE id = $1', [created.body.intentId]);
      expect(row.rows[0]?.id).toBe(second.body.id);
    }
    await sql('UPDATE receiving_bank_accounts SET active = false');
    const none = await create(site, 'deposits', { externalUserId: 'u', amount: '150000' });
    expect(none.status).toBe(503);
    await sql('UPDATE receiving_bank_accounts SET active = true');
  });
});

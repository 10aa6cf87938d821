/**
 * The postings benchmark's records (bench/lib/clone-records.ts): copies of a paid deposit and of a withdrawal made by
 * SQL must be records the ledger treats as its own, each with its own reference and money, approved through the ops
 * API like the one they copy, and leave the journal check clean.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { clonePaidDeposits, cloneWithdrawals } from '../../../bench/lib/clone-records.js';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
let sql: pg.Pool;
let site: TestSite;
beforeAll(async () => {
  h = await startLedgerHarness();
  sql = new pg.Pool({ connectionString: h.env.databaseUrl, max: 2 });
  site = await h.createSite();
});
afterAll(async () => {
  await sql?.end();
  await h?.stop();
});

describe('records cloned for the postings benchmark', () => {
  it('are deposits waiting for review with their own reference and transfer, approved as the one they copy', async () => {
    const template = await h.createDeposit(site, 10_000);
    expect((await h.transfer(template.referenceNo, 10_000)).status).toBe(201);
    const ids = await clonePaidDeposits(sql, template.intentId, 5);
    expect(new Set(ids).size).toBe(5);
    const { rows } = await sql.query<{ reference_no: string; status: string; received: string; transfers: string }>(
      `SELECT d.reference_no, d.status::text, d.received_amount::text AS received,
         (SELECT count(*) FROM bank_transfers t WHERE t.intent_id = d.id)::text AS transfers
       FROM deposit_intents d WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
    expect(new Set(rows.map((row) => row.reference_no)).size).toBe(5);
    expect(rows.every((row) => row.reference_no !== template.referenceNo && row.reference_no.length <= 16)).toBe(true);
    expect(rows.map((row) => [row.status, row.received, row.transfers])).toEqual(Array(5).fill(['PENDING_REVIEW', '10000', '1']));
    for (const id of ids) expect((await h.ops('POST', `/intents/${id}/approve`, {})).status).toBe(200);
    const balance = await h.ops('GET', `/sites/${site.siteId}/balance`);
    expect(balance.body).toMatchObject({ available: '50000' });
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true });
  });

  it('are withdrawals waiting for approval, reserved on approval as the one they copy', async () => {
    const own = await h.createSite();
    await h.fund(own, 5_000);
    const template = await h.createWithdrawal(own, 1_000);
    const ids = await cloneWithdrawals(sql, template.withdrawalId, 3);
    expect(new Set([...ids, template.withdrawalId]).size).toBe(4);
    for (const id of ids) expect((await h.ops('POST', `/withdrawals/${id}/approve`, {})).status).toBe(200);
    const balance = await h.ops('GET', `/sites/${own.siteId}/balance`);
    expect(balance.body).toMatchObject({ available: '2000', reserved: '3000' });
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true });
  });

  it('makes nothing for a count of zero', async () => {
    const template = await h.createWithdrawal(site, 1_000);
    expect(await cloneWithdrawals(sql, template.withdrawalId, 0)).toEqual([]);
  });
});

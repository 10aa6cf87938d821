/**
 * Money is created only by money that arrived: an approval can never credit more than the transfers
 * matched or assigned to the intent, and the journal check catches a credit that has no money behind it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectStatus } from '@kasa/testkit';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
beforeAll(async () => {
  h = await startLedgerHarness();
});
afterAll(async () => {
  await h?.stop();
});

const balanceOf = async (site: TestSite) => expectStatus(await h.ops('GET', `/sites/${site.siteId}/balance`), 200, 'balance').body;
const depositOf = async (intentId: string) => expectStatus(await h.ops('GET', `/intents/${intentId}`), 200, 'intent').body;

async function depositWithMoney(site: TestSite, requested: number, ...transfers: number[]) {
  const intent = await h.createDeposit(site, requested);
  for (const amount of transfers) expectStatus(await h.transfer(intent.referenceNo, amount), 201, 'transfer');
  return intent;
}

describe('approving a deposit', () => {
  it('refuses a credit above the money received, changes nothing, and the journal stays ok', async () => {
    const site = await h.createSite();
    const intent = await depositWithMoney(site, 200000, 200000);
    const before = await balanceOf(site);

    const huge = await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '999999999999999999' });
    expect(huge.status).toBe(409);
    expect(huge.body.error).toBe('conflict');
    expect(huge.body.reason).toBe('amount_exceeds_received');
    expect(huge.body.errors).toEqual([{ field: 'amount', message: 'must not exceed the 200000 kuruş (2.000,00 ₺) received' }]);
    const oneMore = await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '200001' });
    expect(oneMore.status).toBe(409);

    expect(await balanceOf(site)).toEqual(before);
    expect((await depositOf(intent.intentId)).status).toBe('PENDING_REVIEW');
    const entries = await h.ledger.deps.db.journalEntry.count({ where: { siteId: site.siteId } });
    expect(entries).toBe(0);
    const audit = await h.ledger.deps.db.auditLog.count({ where: { entityId: intent.intentId, action: 'INTENT.APPROVED' } });
    expect(audit).toBe(0);
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });

    const exact = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '200000' }), 200, 'approve');
    expect(exact.body.amount).toBe('200000');
    expect((await balanceOf(site)).available).toBe('200000');
  });

  it('credits at most the sum of several transfers for one intent', async () => {
    const site = await h.createSite();
    const intent = await depositWithMoney(site, 300000, 100000, 150000);
    expect((await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '250001' })).status).toBe(409);
    const approved = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, {}), 200, 'approve');
    expect(approved.body).toMatchObject({ amount: '250000', requestedAmount: '300000', status: 'APPROVED' });
  });

  it('credits everything that arrived by default when more arrived than was requested', async () => {
    const site = await h.createSite();
    const intent = await depositWithMoney(site, 100000, 150000);
    const approved = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, {}), 200, 'approve');
    expect(approved.body).toMatchObject({ amount: '150000', requestedAmount: '100000' });
    expect((await balanceOf(site)).available).toBe('150000');
  });

  it('lets an operator credit less than arrived', async () => {
    const site = await h.createSite();
    const intent = await depositWithMoney(site, 80000, 80000);
    const approved = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '75000' }), 200, 'approve');
    expect(approved.body).toMatchObject({ amount: '75000', requestedAmount: '80000' });
  });

  it('refuses two racing approvals from crediting twice', async () => {
    const site = await h.createSite();
    const intent = await depositWithMoney(site, 50000, 50000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => h.ops('POST', `/intents/${intent.intentId}/approve`, {})));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect((await balanceOf(site)).available).toBe('50000');
  });
});

describe('the journal check', () => {
  it('fails on a database where a credit was inserted without money', async () => {
    const db = h.ledger.deps.db;
    const site = await h.createSite();
    const intent = await h.createDeposit(site, 500000);
    expect((await h.ops('GET', '/journal/check')).body.ok).toBe(true);

    // What a route that forgot the rule would write: an approved intent, its balanced journal lines and
    // balances, all consistent with each other, but no transfer behind them.
    const transactionId = randomUUID();
    await db.$transaction([
      db.deposit.update({ where: { id: intent.intentId }, data: { status: 'APPROVED', amount: 500000n, approvedAt: new Date() } }),
      db.journalEntry.createMany({
        data: [
          {
            transactionId,
            siteId: site.siteId,
            account: 'bank_clearing',
            amount: 500000n,
            entityType: 'deposit_intent',
            entityId: intent.intentId,
          },
          {
            transactionId,
            siteId: site.siteId,
            account: 'site_available',
            amount: -500000n,
            entityType: 'deposit_intent',
            entityId: intent.intentId,
          },
        ],
      }),
      db.siteBalance.createMany({
        data: [
          { siteId: site.siteId, account: 'bank_clearing', balance: 500000n },
          { siteId: site.siteId, account: 'site_available', balance: -500000n },
        ],
      }),
    ]);

    const report = expectStatus(await h.ops('GET', '/journal/check'), 200, 'check').body;
    expect(report.ok).toBe(false);
    expect([...report.problems].sort((x, y) => x.detail.source.localeCompare(y.detail.source))).toEqual([
      {
        kind: 'unbacked_credit',
        detail: { siteId: site.siteId, intentId: intent.intentId, source: 'journal', credited: '500000', received: '0' },
      },
      {
        kind: 'unbacked_credit',
        detail: { siteId: site.siteId, intentId: intent.intentId, source: 'record', credited: '500000', received: '0' },
      },
    ]);

    // Undo, so the other tests' checks stay meaningful.
    await db.$transaction([
      db.journalEntry.deleteMany({ where: { transactionId } }),
      db.siteBalance.deleteMany({ where: { siteId: site.siteId } }),
      db.deposit.update({ where: { id: intent.intentId }, data: { status: 'RESERVED', amount: 500000n, approvedAt: null } }),
    ]);
    expect((await h.ops('GET', '/journal/check')).body.ok).toBe(true);
  });

  it('fails when a journal credit points at an intent of another site', async () => {
    const db = h.ledger.deps.db;
    const [a, b] = [await h.createSite(), await h.createSite()];
    const intent = await depositWithMoney(a, 10000, 10000);
    const transactionId = randomUUID();
    await db.$transaction([
      db.journalEntry.createMany({
        data: [
          {
            transactionId,
            siteId: b.siteId,
            account: 'bank_clearing',
            amount: 10000n,
            entityType: 'deposit_intent',
            entityId: intent.intentId,
          },
          {
            transactionId,
            siteId: b.siteId,
            account: 'site_available',
            amount: -10000n,
            entityType: 'deposit_intent',
            entityId: intent.intentId,
          },
        ],
      }),
    ]);
    const report = (await h.ops('GET', '/journal/check')).body;
    expect(report.problems).toContainEqual({
      kind: 'unbacked_credit',
      detail: { siteId: b.siteId, intentId: intent.intentId, source: 'journal', credited: '10000', received: '10000' },
    });
    await db.journalEntry.deleteMany({ where: { transactionId } });
  });
});

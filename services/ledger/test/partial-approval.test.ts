/**
 * No money off the books: approving a deposit for less than arrived says what happens to the rest, in the same
 * transaction. `return` (the default) asks for the remainder to go back to its sender(s); `set_aside` holds it on the
 * deposit with a reason. The journal check proves received = credited + returned or in return + set aside.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectStatus } from '@kasa/testkit';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
beforeAll(async () => {
  h = await startLedgerHarness();
});
afterAll(async () => {
  await h?.stop();
});

const depositOf = async (intentId: string) => expectStatus(await h.ops('GET', `/intents/${intentId}`), 200, 'intent').body;
const available = async (site: TestSite) =>
  expectStatus(await h.ops('GET', `/sites/${site.siteId}/balance`), 200, 'balance').body.available as string;
const returnsOf = (intentId: string) => h.ledger.deps.db.senderReturn.findMany({ where: { intentId }, orderBy: { createdAt: 'asc' } });
const journalOk = async () => expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });

async function depositWithMoney(
  site: TestSite,
  requested: number,
  ...transfers: Array<{ amount: number; senderName: string; at: string }>
) {
  const intent = await h.createDeposit(site, requested);
  const recorded = [];
  for (const { amount, senderName, at } of transfers) {
    recorded.push(expectStatus(await h.transfer(intent.referenceNo, amount, { senderName, receivedAt: at }), 201, 'transfer').body);
  }
  return { intent, transfers: recorded };
}

const minutesAgo = (minutes: number) => new Date(h.ledger.deps.clock.now().getTime() - minutes * 60_000).toISOString();

describe('approving a deposit for less than arrived', () => {
  it('returns the remainder by default: a return PENDING_REVIEW to the sender, in the same transaction', async () => {
    const site = await h.createSite();
    const { intent, transfers } = await depositWithMoney(site, 60000, { amount: 60000, senderName: 'AYSE YILMAZ', at: minutesAgo(5) });
    const approved = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '45000' }), 200, 'approve');
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '45000', remainder: { action: 'return', amount: '15000' } });
    const [made, ...others] = await returnsOf(intent.intentId);
    expect(others).toEqual([]);
    expect(made).toMatchObject({
      status: 'PENDING_REVIEW',
      amount: 15000n,
      senderName: 'AYSE YILMAZ',
      bankTransferId: transfers[0].bankTransferId,
    });
    expect(approved.body.remainder.returnIds).toEqual([made?.id]);
    // The transfer stays its deposit's: the deposit kept the rest of it.
    expect((await depositOf(intent.intentId)).bankTransfers[0].status).toBe('MATCHED');
    expect(await available(site)).toBe('45000');
    await journalOk();

    // The return goes through its own review and payout; the books stay exact at every step.
    const returned = expectStatus(await h.ops('GET', `/sender-returns/${made?.id}`), 200, 'return').body;
    expect(returned).toMatchObject({ intentId: intent.intentId, amount: '15000' });
    expectStatus(await h.ops('POST', `/sender-returns/${made?.id}/approve`, {}), 200, 'approve return');
    await journalOk();
    expectStatus(await h.ops('POST', `/sender-returns/${made?.id}/mark-sent`, { bankTxId: 'RET-1' }), 200, 'sent');
    expect((await depositOf(intent.intentId)).bankTransfers[0].status).toBe('MATCHED');
    await journalOk();
  });

  it("takes the remainder from the latest transfers first, each return to that transfer's sender", async () => {
    const site = await h.createSite();
    const { intent, transfers } = await depositWithMoney(
      site,
      100000,
      { amount: 50000, senderName: 'FIRST SENDER', at: minutesAgo(30) },
      { amount: 30000, senderName: 'SECOND SENDER', at: minutesAgo(20) },
      { amount: 20000, senderName: 'THIRD SENDER', at: minutesAgo(10) },
    );
    const approved = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '40000' }), 200, 'approve');
    expect(approved.body.remainder).toMatchObject({ action: 'return', amount: '60000' });
    const made = await h.ledger.deps.db.senderReturn.findMany({ where: { intentId: intent.intentId } });
    const bySender = Object.fromEntries(made.map((r) => [r.senderName, [r.amount, r.bankTransferId]]));
    expect(bySender).toEqual({
      'THIRD SENDER': [20000n, transfers[2].bankTransferId],
      'SECOND SENDER': [30000n, transfers[1].bankTransferId],
      'FIRST SENDER': [10000n, transfers[0].bankTransferId],
    });
    await journalOk();
  });

  it("rolls the approval and the remainder's returns back together when the transaction fails", async () => {
    const site = await h.createSite();
    const { intent } = await depositWithMoney(site, 60000, { amount: 60000, senderName: 'AYSE YILMAZ', at: minutesAgo(5) });
    const create = jest.spyOn(h.ledger.deps.senderReturns, 'create').mockRejectedValueOnce(new Error('disk full'));
    try {
      const failed = await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '10000' });
      expect(failed.status).toBe(500);
    } finally {
      create.mockRestore();
    }
    expect((await depositOf(intent.intentId)).status).toBe('PENDING_REVIEW');
    expect(await returnsOf(intent.intentId)).toEqual([]);
    expect(await h.ledger.deps.db.journalEntry.count({ where: { siteId: site.siteId } })).toBe(0);
    await journalOk();
  });

  it('sets the remainder aside with a reason, recorded on the deposit and audited', async () => {
    const site = await h.createSite();
    const { intent } = await depositWithMoney(site, 60000, { amount: 60000, senderName: 'AYSE YILMAZ', at: minutesAgo(5) });
    const approved = expectStatus(
      await h.ops('POST', `/intents/${intent.intentId}/approve`, {
        amount: '50000',
        remainder: { action: 'set_aside', reason: 'fee agreed with the site' },
      }),
      200,
      'approve',
    );
    expect(approved.body.remainder).toEqual({ action: 'set_aside', amount: '10000', reason: 'fee agreed with the site', returnIds: [] });
    const row = await h.ledger.deps.db.deposit.findUniqueOrThrow({ where: { id: intent.intentId } });
    expect(row).toMatchObject({ remainderSetAside: 10000n, remainderSetAsideReason: 'fee agreed with the site' });
    expect(await returnsOf(intent.intentId)).toEqual([]);
    const audit = await h.ledger.deps.db.auditLog.findFirstOrThrow({ where: { entityId: intent.intentId, action: 'INTENT.APPROVED' } });
    expect(audit.metadata).toMatchObject({ remainder: { action: 'set_aside', amount: '10000', reason: 'fee agreed with the site' } });
    await journalOk();
  });

  it('refuses to set the remainder aside without a reason and changes nothing', async () => {
    const site = await h.createSite();
    const { intent } = await depositWithMoney(site, 60000, { amount: 60000, senderName: 'AYSE YILMAZ', at: minutesAgo(5) });
    for (const remainder of [{ action: 'set_aside' }, { action: 'set_aside', reason: '   ' }]) {
      const refused = await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '50000', remainder });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['remainder.reason']);
    }
    expect((await h.ops('POST', `/intents/${intent.intentId}/approve`, { remainder: { action: 'keep' } })).status).toBe(400);
    expect((await depositOf(intent.intentId)).status).toBe('PENDING_REVIEW');
    expect(await h.ledger.deps.db.journalEntry.count({ where: { siteId: site.siteId } })).toBe(0);
    await journalOk();
  });

  it('needs nothing when approving exactly what arrived', async () => {
    const site = await h.createSite();
    const { intent } = await depositWithMoney(site, 60000, { amount: 60000, senderName: 'AYSE YILMAZ', at: minutesAgo(5) });
    const approved = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '60000' }), 200, 'approve');
    expect(approved.body.remainder).toBeNull();
    expect(await returnsOf(intent.intentId)).toEqual([]);
    await journalOk();
  });

  it('keeps 599.99 TRY on the books when 1 kuruş of a 600 TRY transfer is approved', async () => {
    const site = await h.createSite();
    const { intent } = await depositWithMoney(site, 60000, { amount: 60000, senderName: 'AYSE YILMAZ', at: minutesAgo(5) });
    const approved = expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '1' }), 200, 'approve');
    expect(approved.body.remainder).toMatchObject({ action: 'return', amount: '59999' });
    const [made] = await returnsOf(intent.intentId);
    expect(made?.amount).toBe(59999n);
    await journalOk();

    // Rejecting that return keeps the money with us: it is set aside on the deposit with the rejection's reason.
    expectStatus(await h.ops('POST', `/sender-returns/${made?.id}/reject`, { reason: 'IBAN closed' }), 200, 'reject return');
    const row = await h.ledger.deps.db.deposit.findUniqueOrThrow({ where: { id: intent.intentId } });
    expect(row.remainderSetAside).toBe(59999n);
    expect(row.remainderSetAsideReason).toContain('IBAN closed');
    expect((await depositOf(intent.intentId)).bankTransfers[0].status).toBe('MATCHED');
    await journalOk();
  });

  it('reports money off the books as unaccounted_money', async () => {
    const site = await h.createSite();
    const { intent } = await depositWithMoney(site, 60000, { amount: 60000, senderName: 'AYSE YILMAZ', at: minutesAgo(5) });
    expectStatus(
      await h.ops('POST', `/intents/${intent.intentId}/approve`, { amount: '50000', remainder: { action: 'set_aside', reason: 'held' } }),
      200,
      'approve',
    );
    // What the old approval did: the remainder on no books.
    await h.ledger.deps.db.deposit.update({
      where: { id: intent.intentId },
      data: { remainderSetAside: null, remainderSetAsideReason: null },
    });
    try {
      const report = (await h.ops('GET', '/journal/check')).body;
      expect(report.problems).toContainEqual({
        kind: 'unaccounted_money',
        detail: { intentId: intent.intentId, bankTransferId: 'null', received: '60000', credited: '50000', returned: '0', setAside: '0' },
      });
    } finally {
      await h.ledger.deps.db.deposit.update({
        where: { id: intent.intentId },
        data: { remainderSetAside: 10000n, remainderSetAsideReason: 'held' },
      });
    }
    await journalOk();
  });
});

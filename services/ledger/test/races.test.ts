/** Operators colliding on one record: exactly one wins, the rest get 409, and money moves once. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

// The ledger's clock: the expiry race moves it past a one-second expiry instead of sleeping.
const clock = new TestClock();
let h: LedgerHarness;
let site: TestSite;
beforeAll(async () => {
  // Late means late here: these tests send money a second after a one-second expiry, so no clock-skew allowance.
  h = await startLedgerHarness({ ARRIVAL_CLOCK_SKEW_SECONDS: '0' }, { clock });
  site = await h.createSite();
});
afterAll(async () => {
  await h?.stop();
});

const N = 20;
const statuses = (answers: Array<{ status: number }>) => answers.map((a) => a.status).sort((a, b) => a - b);
const journalTransactions = async (entityId: string) =>
  new Set((await h.ledger.deps.db.journalEntry.findMany({ where: { entityId } })).map((e) => e.transactionId)).size;

describe('concurrent operators', () => {
  it('20 concurrent approvals of one intent: one APPROVED, one event, one journal transaction', async () => {
    const created = await h.createDeposit(site, 33000);
    await h.transfer(created.referenceNo, 33000);
    const answers = await Promise.all(Array.from({ length: N }, () => h.ops('POST', `/intents/${created.intentId}/approve`, {})));
    expect(statuses(answers)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect((await h.ops('GET', `/intents/${created.intentId}`)).body.status).toBe('APPROVED');
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { entityId: created.intentId } })).toBe(1);
    expect(await journalTransactions(created.intentId)).toBe(1);
    expect(await h.ledger.deps.db.auditLog.count({ where: { entityId: created.intentId, action: 'INTENT.APPROVED' } })).toBe(1);
  });

  it('approve and reject racing on one intent: exactly one decision and one event', async () => {
    const created = await h.createDeposit(site, 12000);
    await h.transfer(created.referenceNo, 12000);
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 2 === 0
          ? h.ops('POST', `/intents/${created.intentId}/approve`, {})
          : h.ops('POST', `/intents/${created.intentId}/reject`, { reason: 'race' }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const events = await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: created.intentId } });
    expect(events).toHaveLength(1);
    const final = (await h.ops('GET', `/intents/${created.intentId}`)).body.status;
    expect(events[0]?.type).toBe(final === 'APPROVED' ? 'intent.approved' : 'intent.rejected');
    expect(await journalTransactions(created.intentId)).toBe(final === 'APPROVED' ? 1 : 0);
  });

  it('20 concurrent approvals of one withdrawal: one APPROVED and one reservation', async () => {
    const funded = await h.createSite();
    await h.fund(funded, 100000);
    const { withdrawalId } = await h.createWithdrawal(funded, 40000);
    const answers = await Promise.all(Array.from({ length: N }, () => h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {})));
    expect(statuses(answers)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(await journalTransactions(withdrawalId)).toBe(1);
    expect((await h.ops('GET', `/sites/${funded.siteId}/balance`)).body).toMatchObject({ available: '60000', reserved: '40000' });
  });

  it('20 concurrent mark-sent calls: one SENT, one withdrawal.sent, one settlement', async () => {
    const funded = await h.createSite();
    await h.fund(funded, 100000);
    const { withdrawalId } = await h.createWithdrawal(funded, 40000);
    await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {});
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => h.ops('POST', `/withdrawals/${withdrawalId}/mark-sent`, { bankTxId: `OUT-${i}` })),
    );
    expect(statuses(answers)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { entityId: withdrawalId, type: 'withdrawal.sent' } })).toBe(1);
    expect(await journalTransactions(withdrawalId)).toBe(2);
  });

  it('20 withdrawals approved at once against a balance that covers 10: exactly 10 succeed', async () => {
    const funded = await h.createSite();
    await h.fund(funded, 10000);
    const withdrawals = await Promise.all(Array.from({ length: N }, () => h.createWithdrawal(funded, 1000)));
    const answers = await Promise.all(withdrawals.map((w) => h.ops('POST', `/withdrawals/${w.withdrawalId}/approve`, {})));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(10);
    expect((await h.ops('GET', `/sites/${funded.siteId}/balance`)).body).toMatchObject({ available: '0', reserved: '10000' });
  });

  it('20 concurrent recordings of one bank transfer: one row, counted once', async () => {
    const created = await h.createDeposit(site, 55000);
    const body = {
      bankTxId: `race-${created.intentId}`,
      amount: '55000',
      senderName: 'Zeynep Kaya',
      senderIban: 'TR330006100519786457841326',
      description: `odeme ${created.referenceNo}`,
      receivedAt: clock.now().toISOString(),
    };
    const answers = await Promise.all(Array.from({ length: N }, () => h.ops('POST', '/bank-transfers', body)));
    expect(statuses(answers)).toEqual([...Array(N - 1).fill(200), 201]);
    expect(new Set(answers.map((a) => a.body.bankTransferId)).size).toBe(1);
    expect(await h.ledger.deps.db.bankTransfer.count({ where: { bankTxId: body.bankTxId } })).toBe(1);
    expect((await h.ops('GET', `/intents/${created.intentId}`)).body).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '55000' });
    expect(
      await h.ledger.deps.db.auditLog.count({
        where: { action: 'BANK_TRANSFER.RECORDED', metadata: { path: ['bankTxId'], equals: body.bankTxId } },
      }),
    ).toBe(1);
  });

  it('an expiry racing a late transfer: the intent ends LATE_ARRIVAL with the money, cancelled at most once', async () => {
    const quick = await h.createSite({ depositTtlSeconds: 1 });
    const intents = await Promise.all(Array.from({ length: 10 }, () => h.createDeposit(quick, 10000)));
    clock.advance(1_300);
    await Promise.all(intents.flatMap((i) => [h.transfer(i.referenceNo, 10000), h.ledger.deps.expiries.cancelIfDue(i.intentId)]));
    const ids = intents.map((i) => i.intentId);
    const rows = await h.ledger.deps.db.deposit.findMany({ where: { id: { in: ids } } });
    for (const row of rows) expect(row).toMatchObject({ status: 'LATE_ARRIVAL', receivedAmount: 10000n });
    for (const id of ids) {
      expect(await h.ledger.deps.db.auditLog.count({ where: { entityId: id, action: 'INTENT.AUTO_CANCELLED' } })).toBeLessThanOrEqual(1);
    }
  });
});

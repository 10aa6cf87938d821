/**
 * Returns to senders on a real ledger: money no deposit kept goes back through its own review (asked for,
 * approved, sent, or rejected), each step one transaction with its house journal posting and audit entry;
 * money a deposit kept never goes back; the journal check covers the house journal.
 */
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const houseLegs = async (returnId: string) =>
  (await setup.h.ledger.deps.senderReturns.houseEntriesOf(returnId)).map((leg) => `${leg.account} ${leg.amount.toString()}`);
const actionsOf = async (entityId: string) =>
  (await setup.h.ledger.deps.db.auditLog.findMany({ where: { entityId }, orderBy: { createdAt: 'asc' } })).map((entry) => entry.action);
const transferStatus = async (id: string) => (await setup.h.ops('GET', `/bank-transfers/${id}`)).body.status as string;

describe('returns to senders', () => {
  it('sends an unmatched transfer back: asked, approved, sent, with house journal and audit, and the check green', async () => {
    const { h } = setup;
    const loose = await h.transfer('', 45000, { senderName: 'MEHMET DEMIR' });
    const asked = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/return`, {
      reason: 'No deposit; the sender asked for it back',
    });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({
      status: 'PENDING_REVIEW',
      amount: '45000',
      senderName: 'MEHMET DEMIR',
      senderIban: loose.body.senderIban,
    });
    const returnId = asked.body.returnId as string;
    expect(await transferStatus(loose.body.bankTransferId)).toBe('RETURNING');
    // Out of the queues: not assignable, not set aside, not asked for twice.
    const intent = await h.createDeposit(setup.site, 45000);
    const assign = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/assign`, { intentId: intent.intentId });
    expect(assign.status).toBe(409);
    expect(assign.body.reason).toBe('transfer_settled');
    const again = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/return`, { reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('transfer_not_returnable');
    expect(await houseLegs(returnId)).toEqual([]);
    expect((await h.ops('GET', '/dashboard')).body.returnsToReview.count).toBeGreaterThanOrEqual(1);

    const early = await h.ops('POST', `/sender-returns/${returnId}/mark-sent`, {});
    expect(early.status).toBe(409);
    expect(early.body.reason).toBe('invalid_transition');
    expect((await h.ops('POST', `/sender-returns/${returnId}/approve`, {})).body.status).toBe('APPROVED');
    expect(await houseLegs(returnId)).toEqual(['bank_clearing 45000', 'sender_refunds_payable -45000']);
    const sent = await h.ops('POST', `/sender-returns/${returnId}/mark-sent`, { bankTxId: 'EFT-RETURN-1' });
    expect(sent.body).toMatchObject({ status: 'SENT', sentBankTxId: 'EFT-RETURN-1' });
    expect(await transferStatus(loose.body.bankTransferId)).toBe('RETURNED');
    expect((await houseLegs(returnId)).sort()).toEqual(
      ['bank_clearing 45000', 'refunds_settled -45000', 'sender_refunds_payable -45000', 'sender_refunds_payable 45000'].sort(),
    );
    expect(await actionsOf(returnId)).toEqual(['SENDER_RETURN.REQUESTED', 'SENDER_RETURN.APPROVED', 'SENDER_RETURN.SENT']);
    expect((await h.ops('POST', `/sender-returns/${returnId}/reject`, { reason: 'too late' })).status).toBe(409);
    // No site's books moved, and the journal check (house journal included) is green.
    expect(await h.ledger.deps.db.journalEntry.count({ where: { entityId: returnId } })).toBe(0);
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
  });

  it("returns a rejected deposit's money, never an approved one's, and a rejection after approval reverses the booking", async () => {
    const { h, site } = setup;
    const rejected = await h.createDeposit(site, 20000);
    const paid = await h.transfer(rejected.referenceNo, 20000);
    expect((await h.ops('POST', `/bank-transfers/${paid.body.bankTransferId}/return`, { reason: 'x' })).status).toBe(409);
    await h.ops('POST', `/intents/${rejected.intentId}/reject`, { reason: 'Sender is not the user' });
    const asked = await h.ops('POST', `/bank-transfers/${paid.body.bankTransferId}/return`, { reason: 'Rejected deposit' });
    expect(asked.status).toBe(201);

    const approvedDeposit = await h.createDeposit(site, 30000);
    const kept = await h.transfer(approvedDeposit.referenceNo, 30000);
    await h.ops('POST', `/intents/${approvedDeposit.intentId}/approve`, {});
    const refused = await h.ops('POST', `/bank-transfers/${kept.body.bankTransferId}/return`, { reason: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('transfer_not_returnable');
    expect(refused.body.detail).toContain('no deposit kept');

    // Approved, then rejected: the booking is reversed and the transfer is back where it was.
    const returnId = asked.body.returnId as string;
    await h.ops('POST', `/sender-returns/${returnId}/approve`, {});
    const withdrawn = await h.ops('POST', `/sender-returns/${returnId}/reject`, { reason: 'The user sent a new deposit for it' });
    expect(withdrawn.body).toMatchObject({ status: 'REJECTED', rejectedReason: 'The user sent a new deposit for it' });
    expect(await transferStatus(paid.body.bankTransferId)).toBe('MATCHED');
    const legs = await h.ledger.deps.senderReturns.houseEntriesOf(returnId);
    expect(legs.reduce((sum, leg) => sum + leg.amount, 0n)).toBe(0n);
    expect(legs.filter((leg) => leg.account === 'bank_clearing').reduce((sum, leg) => sum + leg.amount, 0n)).toBe(0n);
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });

    const listed = await h.ops('GET', '/sender-returns?status=REJECTED');
    expect(listed.body.data.map((r: { returnId: string }) => r.returnId)).toContain(returnId);
    expect((await h.ops('GET', '/sender-returns/not-a-return')).status).toBe(404);
    expect((await h.ops('POST', '/bank-transfers/nope/return', { reason: 'x' })).status).toBe(404);
    expect((await h.ops('POST', `/bank-transfers/${kept.body.bankTransferId}/return`, {})).status).toBe(400);
  });

  it('reports a house journal that disagrees with the returns', async () => {
    const { h } = setup;
    const loose = await h.transfer('', 1234);
    const asked = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/return`, { reason: 'x' });
    await h.ops('POST', `/sender-returns/${asked.body.returnId}/approve`, {});
    // A posting written behind the ledger's back (as a buggy route might) is caught by the check.
    await h.ledger.deps.db.houseJournalEntry.create({
      data: {
        transactionId: '00000000-0000-4000-8000-000000000001',
        account: 'bank_clearing',
        amount: 1n,
        entityType: 'sender_return',
        entityId: asked.body.returnId,
        livemode: true,
      },
    });
    const report = (await h.ops('GET', '/journal/check')).body;
    expect(report.ok).toBe(false);
    expect(report.problems.map((p: { kind: string; detail: { journal?: string } }) => [p.kind, p.detail.journal])).toEqual(
      expect.arrayContaining([
        ['unbalanced_transaction', 'house'],
        ['record_mismatch', 'house'],
      ]),
    );
    await h.ledger.deps.db.houseJournalEntry.deleteMany({ where: { transactionId: '00000000-0000-4000-8000-000000000001' } });
    expect((await h.ops('GET', '/journal/check')).body.ok).toBe(true);
  });
});

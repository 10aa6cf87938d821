/**
 * The incoming-money desk on a real ledger: one deposit paid by three transfers (two by reference, one
 * without, set aside and then assigned), with its state, events, journal and audit; setting a transfer aside
 * (what it may and may not do); and the sender-name check shown before approval.
 */
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const auditOf = (entityId: string) =>
  setup.h.ledger.deps.db.auditLog.findMany({
    where: { entityId },
    orderBy: { createdAt: 'asc' },
    select: { action: true, metadata: true },
  });

describe('split funding', () => {
  it('credits one deposit from three transfers, once, with one event, one journal posting and an audit trail', async () => {
    const { h, site } = setup;
    const intent = await h.createDeposit(site, 10000, { externalUserLabel: 'Ayşe Yılmaz' });
    const first = await h.transfer(intent.referenceNo, 4000, { senderName: 'AYSE YILMAZ' });
    expect(first.body).toMatchObject({ status: 'MATCHED', intent: { status: 'PENDING_REVIEW', receivedAmount: '4000' } });
    const waitingSince = first.body.intent.awaitingReviewSince as string;
    const second = await h.transfer(intent.referenceNo, 3500, { senderName: 'AYSE YILMAZ' });
    expect(second.body.intent).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '7500', awaitingReviewSince: waitingSince });

    // The third came without the reference: the desk sets it aside, then finds its deposit and assigns it.
    const third = await h.transfer('', 2500, { senderName: 'AYSE YILMAZ' });
    expect(third.body.status).toBe('UNMATCHED');
    const aside = await h.ops('POST', `/bank-transfers/${third.body.bankTransferId}/set-aside`, {
      reason: 'Asked the user for the reference',
    });
    expect(aside.body).toMatchObject({ status: 'SET_ASIDE', setAsideReason: 'Asked the user for the reference' });
    const assigned = await h.ops('POST', `/bank-transfers/${third.body.bankTransferId}/assign`, { intentId: intent.intentId });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ status: 'ASSIGNED', setAsideReason: null, intent: { receivedAmount: '10000' } });

    const detail = (await h.ops('GET', `/intents/${intent.intentId}`)).body;
    expect(detail).toMatchObject({ requestedAmount: '10000', receivedAmount: '10000', senderNameMismatch: [] });
    expect(detail.bankTransfers.map((t: { amount: string }) => t.amount).sort()).toEqual(['2500', '3500', '4000']);

    const approved = await h.ops('POST', `/intents/${intent.intentId}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '10000' });
    const events = await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: intent.intentId } });
    expect(events.map((e) => [e.type, (e.payload as { data: { amount: string } }).data.amount])).toEqual([['intent.approved', '10000']]);
    const journal = await h.ledger.deps.journal.entriesOf('deposit_intent', intent.intentId);
    expect(journal.map((leg) => [leg.account, leg.amount.toString()]).sort()).toEqual([
      ['bank_clearing', '10000'],
      ['site_available', '-10000'],
    ]);
    expect((await auditOf(intent.intentId)).map((entry) => entry.action)).toEqual([
      'INTENT.PENDING_REVIEW',
      'INTENT.TRANSFER_ADDED',
      'INTENT.TRANSFER_ADDED',
      'INTENT.APPROVED',
    ]);
    expect((await auditOf(third.body.bankTransferId)).map((entry) => [entry.action, (entry.metadata as { to?: string }).to])).toEqual([
      ['BANK_TRANSFER.RECORDED', undefined],
      ['BANK_TRANSFER.SET_ASIDE', 'SET_ASIDE'],
      ['BANK_TRANSFER.ASSIGNED', 'ASSIGNED'],
    ]);
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
  });
});

describe('set aside', () => {
  it('takes only an unmatched transfer, needs a reason, moves no money and leaves the unmatched count', async () => {
    const { h, site } = setup;
    const before = (await h.ops('GET', '/dashboard')).body.unmatchedTransfers.count as number;
    const loose = await h.transfer('', 7777);
    expect((await h.ops('GET', '/dashboard')).body.unmatchedTransfers.count).toBe(before + 1);
    expect((await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/set-aside`, { reason: '  ' })).status).toBe(400);
    expect((await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/set-aside`, {})).status).toBe(400);
    const journalBefore = await h.ledger.deps.db.journalEntry.count();
    expect((await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/set-aside`, { reason: 'Compliance hold' })).status).toBe(200);
    const again = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/set-aside`, { reason: 'again' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict', reason: 'transfer_settled' });
    expect(await h.ledger.deps.db.journalEntry.count()).toBe(journalBefore);
    expect((await h.ops('GET', '/dashboard')).body.unmatchedTransfers.count).toBe(before);
    const listed = await h.ops('GET', '/bank-transfers?status=SET_ASIDE');
    expect(listed.body.data.map((t: { bankTransferId: string }) => t.bankTransferId)).toContain(loose.body.bankTransferId);

    const intent = await h.createDeposit(site, 5000);
    const matched = await h.transfer(intent.referenceNo, 5000);
    const matchedAside = await h.ops('POST', `/bank-transfers/${matched.body.bankTransferId}/set-aside`, { reason: 'no' });
    expect(matchedAside.status).toBe(409);
    expect(matchedAside.body).toMatchObject({ error: 'conflict', reason: 'transfer_settled' });
    expect((await h.ops('POST', '/bank-transfers/not-an-id/set-aside', { reason: 'no' })).status).toBe(404);
  });
});

describe('sender name check', () => {
  it("flags money from someone whose name does not resemble the user's, in the queue and the detail", async () => {
    const { h, site } = setup;
    const flagged = await h.createDeposit(site, 6000, { externalUserLabel: 'Ayşe Yılmaz' });
    await h.transfer(flagged.referenceNo, 6000, { senderName: 'MEHMET DEMIR' });
    const unlabelled = await h.createDeposit(site, 6000);
    await h.transfer(unlabelled.referenceNo, 6000, { senderName: 'MEHMET DEMIR' });

    const queue = await h.ops('GET', `/intents?siteId=${site.siteId}&status=PENDING_REVIEW&limit=100`);
    const byId = new Map(queue.body.data.map((i: { intentId: string }) => [i.intentId, i]));
    expect(byId.get(flagged.intentId)).toMatchObject({ senderNameMismatch: ['MEHMET DEMIR'] });
    expect(byId.get(unlabelled.intentId)).toMatchObject({ senderNameMismatch: null });
    expect((await h.ops('GET', `/intents/${flagged.intentId}`)).body.senderNameMismatch).toEqual(['MEHMET DEMIR']);
    // A hint, not a block: the operator may still approve after checking.
    expect((await h.ops('POST', `/intents/${flagged.intentId}/approve`, {})).status).toBe(200);
  });
});

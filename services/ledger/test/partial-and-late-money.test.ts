/**
 * Partial and late money on a real ledger: a deposit paid in part waits for the rest out of the review queue and
 * comes back when the rest arrives; money for an approved deposit is credited as a top-up with its own event,
 * journal posting and audit, or refused with advice; the assign refusal for a decided deposit says what to do.
 */
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const auditActions = async (entityId: string) =>
  (await setup.h.ledger.deps.db.auditLog.findMany({ where: { entityId }, orderBy: { createdAt: 'asc' }, select: { action: true } })).map(
    (entry) => entry.action,
  );

const queueIds = async (waiting: 'true' | 'false') =>
  (
    (await setup.h.ops('GET', `/intents?status=PENDING_REVIEW,LATE_ARRIVAL&waiting=${waiting}&limit=100`)).body.data as Array<{
      intentId: string;
    }>
  ).map((i) => i.intentId);

describe('wait for the rest', () => {
  it('takes a short deposit out of the review queue until the rest arrives, then brings it back with the sum', async () => {
    const { h, site } = setup;
    const intent = await h.createDeposit(site, 100000);
    const first = await h.transfer(intent.referenceNo, 60000);
    expect(first.body.intent).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '60000', waitingForRestSince: null });
    const before = (await h.ops('GET', '/dashboard')).body;

    const waiting = await h.ops('POST', `/intents/${intent.intentId}/wait-for-rest`);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '60000' });
    expect(typeof waiting.body.waitingForRestSince).toBe('string');
    expect(await queueIds('true')).toContain(intent.intentId);
    expect(await queueIds('false')).not.toContain(intent.intentId);
    const during = (await h.ops('GET', '/dashboard')).body;
    expect(during.depositsToReview.count).toBe(before.depositsToReview.count - 1);
    expect(during.waitingForRest.count).toBe(before.waitingForRest.count + 1);

    // Asking again changes nothing and writes no second audit entry.
    const again = await h.ops('POST', `/intents/${intent.intentId}/wait-for-rest`);
    expect(again.status).toBe(200);
    expect(again.body.waitingForRestSince).toBe(waiting.body.waitingForRestSince);
    expect((await auditActions(intent.intentId)).filter((a) => a === 'INTENT.WAITING_FOR_REST')).toHaveLength(1);

    // No webhook for waiting: the partner hears about the decision.
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { entityId: intent.intentId } })).toBe(0);

    // The rest arrives: back in the queue, with the sum and a fresh waiting time, marked as a split.
    const rest = await h.transfer(intent.referenceNo, 40000);
    expect(rest.body.matchReasons).toContain('split');
    expect(rest.body.intent).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '100000', waitingForRestSince: null });
    expect(Date.parse(rest.body.intent.awaitingReviewSince)).toBeGreaterThanOrEqual(Date.parse(waiting.body.waitingForRestSince));
    expect(await queueIds('false')).toContain(intent.intentId);
    expect(await queueIds('true')).not.toContain(intent.intentId);

    const approved = await h.ops('POST', `/intents/${intent.intentId}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '100000' });
    expect(await auditActions(intent.intentId)).toEqual([
      'INTENT.PENDING_REVIEW',
      'INTENT.WAITING_FOR_REST',
      'INTENT.TRANSFER_ADDED',
      'INTENT.APPROVED',
    ]);
  });

  it('can still be approved for what arrived or rejected while it waits', async () => {
    const { h, site } = setup;
    const intent = await h.createDeposit(site, 50000);
    await h.transfer(intent.referenceNo, 20000);
    expect((await h.ops('POST', `/intents/${intent.intentId}/wait-for-rest`)).status).toBe(200);
    const approved = await h.ops('POST', `/intents/${intent.intentId}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '20000' });
    expect(await queueIds('true')).not.toContain(intent.intentId);
    const other = await h.createDeposit(site, 50000);
    await h.transfer(other.referenceNo, 10000);
    await h.ops('POST', `/intents/${other.intentId}/wait-for-rest`);
    const rejected = await h.ops('POST', `/intents/${other.intentId}/reject`, { reason: 'The rest never came' });
    expect(rejected.body.status).toBe('REJECTED');
  });

  it('is refused with a clear 409 when nothing is missing or the deposit is not in review, and 404 for no deposit', async () => {
    const { h, site } = setup;
    const full = await h.createDeposit(site, 30000);
    await h.transfer(full.referenceNo, 30000);
    const notShort = await h.ops('POST', `/intents/${full.intentId}/wait-for-rest`);
    expect(notShort.status).toBe(409);
    expect(notShort.body).toMatchObject({ error: 'conflict', reason: 'invalid_transition' });
    expect(notShort.body.detail).toMatch(/no rest to wait for/);
    const reserved = await h.createDeposit(site, 30000);
    const early = await h.ops('POST', `/intents/${reserved.intentId}/wait-for-rest`);
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatch(/RESERVED/);
    expect((await h.ops('POST', '/intents/00000000-0000-4000-8000-000000000000/wait-for-rest')).status).toBe(404);
    expect((await h.ops('POST', '/intents/not-a-uuid/wait-for-rest')).status).toBe(404);
    expect((await h.ops('GET', `/intents/${full.intentId}`)).body.waitingForRestSince).toBeNull();
  });
});

describe('money for an approved deposit', () => {
  it('is shown with its deposit, and credited as a top-up with its own event, journal posting and audit', async () => {
    const { h, site } = setup;
    const intent = await h.createDeposit(site, 100000);
    await h.transfer(intent.referenceNo, 60000);
    await h.ops('POST', `/intents/${intent.intentId}/approve`, {});
    const balanceBefore = (await h.ops('GET', `/sites/${site.siteId}/balance`)).body;

    const late = await h.transfer(intent.referenceNo, 40000);
    expect(late.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'intent_closed', intent: null });
    const detail = (await h.ops('GET', `/bank-transfers/${late.body.bankTransferId}`)).body;
    expect(detail.closedIntent).toEqual({
      intentId: intent.intentId,
      referenceNo: intent.referenceNo,
      status: 'APPROVED',
      siteId: site.siteId,
    });

    // Assigning is refused, and the refusal says what to do instead.
    const assign = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/assign`, { intentId: intent.intentId });
    expect(assign.status).toBe(409);
    expect(assign.body).toMatchObject({ error: 'conflict', reason: 'intent_decided' });
    expect(assign.body.detail).toMatch(/top-up/);

    // A site that does not receive intent.topped_up would not hear of the money: the top-up is refused, nothing changes.
    const unheard = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/top-up`, { intentId: intent.intentId });
    expect(unheard.status).toBe(409);
    expect(unheard.body).toMatchObject({ error: 'conflict', reason: 'invalid_transition' });
    expect(unheard.body.detail).toMatch(/does not receive intent\.topped_up; return the money to its sender instead/);
    expect((await h.ops('GET', `/bank-transfers/${late.body.bankTransferId}`)).body.status).toBe('UNMATCHED');

    await h.ledger.deps.db.site.update({ where: { id: site.siteId }, data: { webhookEventTypes: ['intent.topped_up'] } });
    const toppedUp = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/top-up`, { intentId: intent.intentId });
    expect(toppedUp.status).toBe(200);
    expect(toppedUp.body).toMatchObject({
      status: 'ASSIGNED',
      intentId: intent.intentId,
      matchReasons: ['reference_exact', 'top_up'],
      intent: { status: 'APPROVED', amount: '100000', receivedAmount: '100000', requestedAmount: '100000' },
    });
    const events = await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: intent.intentId }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['intent.approved', 'intent.topped_up']);
    const payload = events[1]?.payload as { eventId: string; data: { amount: string }; topUp: Record<string, string> };
    expect(payload.eventId).toBe(toppedUp.body.eventId);
    expect(payload.data.amount).toBe('100000');
    expect(payload.topUp).toEqual({ amount: '40000', bankTransferId: late.body.bankTransferId, receivedAt: late.body.receivedAt });

    const balanceAfter = (await h.ops('GET', `/sites/${site.siteId}/balance`)).body;
    expect(BigInt(balanceAfter.available) - BigInt(balanceBefore.available)).toBe(40000n);
    const journal = await h.ledger.deps.journal.entriesOf('deposit_intent', intent.intentId);
    expect(journal.filter((leg) => leg.account === 'bank_clearing').map((leg) => leg.amount.toString())).toEqual(['60000', '40000']);
    expect(await auditActions(intent.intentId)).toContain('INTENT.TOPPED_UP');
    expect(await auditActions(late.body.bankTransferId)).toEqual(['BANK_TRANSFER.RECORDED', 'BANK_TRANSFER.TOPPED_UP']);
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });

    // Once credited it cannot be credited again.
    const twice = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/top-up`, { intentId: intent.intentId });
    expect(twice.status).toBe(409);
    expect(twice.body.reason).toBe('transfer_settled');
  });

  it('refuses a top-up of a rejected or undecided deposit and of an unknown one, changing nothing', async () => {
    const { h, site } = setup;
    const rejected = await h.createDeposit(site, 20000);
    await h.transfer(rejected.referenceNo, 20000);
    await h.ops('POST', `/intents/${rejected.intentId}/reject`, { reason: 'Wrong sender' });
    const late = await h.transfer(rejected.referenceNo, 20000);
    const detail = (await h.ops('GET', `/bank-transfers/${late.body.bankTransferId}`)).body;
    expect(detail.closedIntent).toMatchObject({ status: 'REJECTED' });
    const refused = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/top-up`, { intentId: rejected.intentId });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/Return the money to the sender/);
    const assign = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/assign`, { intentId: rejected.intentId });
    expect(assign.body.detail).toMatch(/Return the money to the sender/);

    const open = await h.createDeposit(site, 20000);
    const undecided = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/top-up`, { intentId: open.intentId });
    expect(undecided.status).toBe(409);
    expect(undecided.body.detail).toMatch(/assign the transfer to it instead/);
    const unknown = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/top-up`, {
      intentId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(400);
    expect((await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/top-up`, {})).status).toBe(400);
    const after = (await h.ops('GET', `/bank-transfers/${late.body.bankTransferId}`)).body;
    expect(after).toMatchObject({ status: 'UNMATCHED', intentId: null });
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { type: 'intent.topped_up', entityId: rejected.intentId } })).toBe(0);
  });
});

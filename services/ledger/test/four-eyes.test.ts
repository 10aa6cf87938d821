import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedgerHarness, TestClock, type LedgerHarness, type TestOperator } from './harness.js';

// Above 1.000,00 TL a payout needs two operators here; a lone first approval stands for an hour.
const THRESHOLD = 100000;
const WINDOW_SECONDS = 3600;

let h: LedgerHarness;
let clock: TestClock;
let ayse: TestOperator;
let mehmet: TestOperator;
beforeAll(async () => {
  clock = new TestClock();
  h = await startLedgerHarness(
    { DUAL_APPROVAL_ABOVE_KURUS: String(THRESHOLD), DUAL_APPROVAL_WINDOW_SECONDS: String(WINDOW_SECONDS) },
    { clock },
  );
  ayse = await h.createOperator('REVIEWER');
  mehmet = await h.createOperator('REVIEWER');
});
afterAll(async () => {
  await h?.stop();
});

const auditOf = (entityId: string) => h.ledger.deps.db.auditLog.findMany({ where: { entityId }, orderBy: { createdAt: 'asc' } });
const eventsOf = (entityId: string) => h.ledger.deps.db.outboxEvent.findMany({ where: { entityId } });
const balanceOf = async (siteId: string) => (await h.ops('GET', `/sites/${siteId}/balance`)).body;
const approve = (path: string, operator: TestOperator) => h.ops('POST', `${path}/approve`, {}, operator.token);

describe('four-eyes on withdrawals', () => {
  it('approves at or below the threshold with one operator', async () => {
    const site = await h.createSite();
    await h.fund(site, 500000);
    const { withdrawalId } = await h.createWithdrawal(site, THRESHOLD);
    const approved = await approve(`/withdrawals/${withdrawalId}`, ayse);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', approvals: { required: 1, given: [{ operatorId: ayse.operatorId }] } });
    expect((await auditOf(withdrawalId)).map((entry) => entry.action)).toEqual(['WITHDRAWAL.APPROVED']);
  });

  it('above it: a first approval moves nothing, the same operator is refused, a second operator approves', async () => {
    const site = await h.createSite();
    await h.fund(site, 500000);
    const { withdrawalId } = await h.createWithdrawal(site, 250000);
    const path = `/withdrawals/${withdrawalId}`;

    const before = await h.ops('GET', path);
    expect(before.body.approvals).toEqual({ required: 2, given: [] });

    const first = await approve(path, ayse);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('PENDING_REVIEW');
    expect(first.body.approvals).toEqual({
      required: 2,
      given: [
        {
          operatorId: ayse.operatorId,
          email: ayse.email,
          at: clock.now().toISOString(),
          expiresAt: new Date(clock.now().getTime() + WINDOW_SECONDS * 1000).toISOString(),
        },
      ],
    });
    // Nothing reserved, nothing told to the partner, the first approval audited as such.
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '500000', reserved: '0' });
    expect(await eventsOf(withdrawalId)).toEqual([]);
    const [firstAudit] = await auditOf(withdrawalId);
    expect(firstAudit).toMatchObject({
      action: 'WITHDRAWAL.FIRST_APPROVAL',
      actorId: ayse.operatorId,
      metadata: { from: 'PENDING_REVIEW', to: 'PENDING_REVIEW', approvalsRequired: '2', approvedBy: ayse.email },
    });
    // The queue shows it waiting for its second approval.
    const queue = await h.ops('GET', `/withdrawals?siteId=${site.siteId}&status=PENDING_REVIEW`);
    expect(queue.body.data[0]).toMatchObject({ withdrawalId, approvals: { required: 2, given: [{ operatorId: ayse.operatorId }] } });

    const again = await approve(path, ayse);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('second_approver_required');
    expect(again.body.detail).toContain('a different operator must give the second');
    expect((await auditOf(withdrawalId)).length).toBe(1);
    expect((await h.ops('GET', path)).body).toMatchObject({
      status: 'PENDING_REVIEW',
      approvals: { given: [{ operatorId: ayse.operatorId }] },
    });

    const second = await approve(path, mehmet);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'APPROVED' });
    expect(second.body.approvals.given.map((given: { operatorId: string }) => given.operatorId)).toEqual([
      ayse.operatorId,
      mehmet.operatorId,
    ]);
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '250000', reserved: '250000' });
    const audit = await auditOf(withdrawalId);
    expect(audit.map((entry) => entry.action)).toEqual(['WITHDRAWAL.FIRST_APPROVAL', 'WITHDRAWAL.APPROVED']);
    expect(audit[1]).toMatchObject({ actorId: mehmet.operatorId, metadata: { approvedBy: `${ayse.email}, ${mehmet.email}` } });
    // Who approved stays on the record.
    expect((await h.ops('GET', path)).body.approvals).toMatchObject({
      required: 2,
      given: [{ email: ayse.email }, { email: mehmet.email }],
    });
  });

  it('tells a site that chose withdrawal.approved once, on the second approval, never on the first', async () => {
    const site = await h.createSite();
    await h.ledger.deps.db.site.update({ where: { id: site.siteId }, data: { webhookEventTypes: ['withdrawal.approved'] } });
    await h.fund(site, 500000);
    const { withdrawalId } = await h.createWithdrawal(site, 250000);
    const path = `/withdrawals/${withdrawalId}`;

    expect((await approve(path, ayse)).body).toMatchObject({ status: 'PENDING_REVIEW', eventId: null });
    expect(await eventsOf(withdrawalId)).toEqual([]);
    const second = await approve(path, mehmet);
    expect(second.body.status).toBe('APPROVED');
    const events = await eventsOf(withdrawalId);
    expect(events.map((event) => event.type)).toEqual(['withdrawal.approved']);
    expect(second.body.eventId).toBe(events[0]!.id);
  });

  it('a lone first approval expires after the window: the next approval is a first one again', async () => {
    const site = await h.createSite();
    await h.fund(site, 500000);
    const { withdrawalId } = await h.createWithdrawal(site, 300000);
    const path = `/withdrawals/${withdrawalId}`;
    expect((await approve(path, ayse)).body.status).toBe('PENDING_REVIEW');

    clock.advance(WINDOW_SECONDS * 1000 + 1000);
    expect((await h.ops('GET', path)).body.approvals).toEqual({ required: 2, given: [] });
    const afterExpiry = await approve(path, mehmet);
    expect(afterExpiry.body).toMatchObject({ status: 'PENDING_REVIEW', approvals: { given: [{ operatorId: mehmet.operatorId }] } });
    expect(await balanceOf(site.siteId)).toMatchObject({ reserved: '0' });

    // Ayşe's expired approval does not count against her: hers is now the second.
    const approved = await approve(path, ayse);
    expect(approved.body.status).toBe('APPROVED');
    expect((await auditOf(withdrawalId)).map((entry) => entry.action)).toEqual([
      'WITHDRAWAL.FIRST_APPROVAL',
      'WITHDRAWAL.FIRST_APPROVAL',
      'WITHDRAWAL.APPROVED',
    ]);
  });

  it("a site's own threshold replaces the default, and null restores it", async () => {
    const site = await h.createSite();
    await h.fund(site, 900000);
    const raised = await h.ops('PATCH', `/sites/${site.siteId}`, { dualApprovalAbove: '400000' });
    expect(raised.status).toBe(200);
    expect(raised.body.dualApprovalAbove).toBe('400000');
    const small = await h.createWithdrawal(site, 300000);
    expect((await approve(`/withdrawals/${small.withdrawalId}`, ayse)).body.status).toBe('APPROVED');

    const lowered = await h.ops('PATCH', `/sites/${site.siteId}`, { dualApprovalAbove: '0' });
    expect(lowered.body.dualApprovalAbove).toBe('0');
    const tiny = await h.createWithdrawal(site, 5000);
    expect((await approve(`/withdrawals/${tiny.withdrawalId}`, ayse)).body.status).toBe('PENDING_REVIEW');

    const restored = await h.ops('PATCH', `/sites/${site.siteId}`, { dualApprovalAbove: null });
    expect(restored.body.dualApprovalAbove).toBeNull();
    const another = await h.createWithdrawal(site, 5000);
    expect((await approve(`/withdrawals/${another.withdrawalId}`, ayse)).body.status).toBe('APPROVED');

    const bad = await h.ops('PATCH', `/sites/${site.siteId}`, { dualApprovalAbove: '-1' });
    expect(bad.status).toBe(400);
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.dualApprovalAbove).toBeNull();
  });
});

describe('four-eyes on returns to senders', () => {
  it('a return above the threshold needs two operators; below it one', async () => {
    const big = await h.transfer('', 200000, { senderName: 'MEHMET DEMIR' });
    const asked = await h.ops('POST', `/bank-transfers/${big.body.bankTransferId}/return`, { reason: 'No deposit' });
    const path = `/sender-returns/${asked.body.returnId}`;
    expect(asked.body.approvals).toEqual({ required: 2, given: [] });
    expect((await h.ops('GET', path)).body.approvals).toEqual({ required: 2, given: [] });

    const first = await approve(path, mehmet);
    expect(first.body).toMatchObject({ status: 'PENDING_REVIEW', approvals: { required: 2, given: [{ operatorId: mehmet.operatorId }] } });
    const again = await approve(path, mehmet);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('second_approver_required');
    const second = await approve(path, ayse);
    expect(second.body.status).toBe('APPROVED');
    expect((await auditOf(asked.body.returnId)).map((entry) => entry.action)).toEqual([
      'SENDER_RETURN.REQUESTED',
      'SENDER_RETURN.FIRST_APPROVAL',
      'SENDER_RETURN.APPROVED',
    ]);
    const check = await h.ops('GET', '/journal/check');
    expect(check.body.ok).toBe(true);

    const small = await h.transfer('', 9000, { senderName: 'AYSE KAYA' });
    const smallReturn = await h.ops('POST', `/bank-transfers/${small.body.bankTransferId}/return`, { reason: 'No deposit' });
    expect((await approve(`/sender-returns/${smallReturn.body.returnId}`, ayse)).body.status).toBe('APPROVED');
  });
});

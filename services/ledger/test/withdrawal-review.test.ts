import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedgerHarness, type LedgerHarness } from './harness.js';

let h: LedgerHarness;
beforeAll(async () => {
  h = await startLedgerHarness();
});
afterAll(async () => {
  await h?.stop();
});

const eventsOf = (entityId: string) => h.ledger.deps.db.outboxEvent.findMany({ where: { entityId }, orderBy: { createdAt: 'asc' } });
const balanceOf = async (siteId: string) => (await h.ops('GET', `/sites/${siteId}/balance`)).body;

describe('withdrawal flow', () => {
  it('creates, approves, marks sent and marks returned, emitting withdrawal.sent then withdrawal.returned', async () => {
    const site = await h.createSite();
    await h.fund(site, 500000);
    const { withdrawalId } = await h.createWithdrawal(site, 120000);

    const detail = await h.ops('GET', `/withdrawals/${withdrawalId}`);
    expect(detail.body).toMatchObject({ status: 'PENDING_REVIEW', siteBalance: { available: '500000' } });
    expect(detail.body.targetIban).toMatch(/^TR\d{24}$/);

    expect((await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {})).body.status).toBe('APPROVED');
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '380000', reserved: '120000', paidOutTotal: '0' });

    const sent = await h.ops('POST', `/withdrawals/${withdrawalId}/mark-sent`, { bankTxId: 'EFT-2026-1' });
    expect(sent.body).toMatchObject({ status: 'SENT', sentBankTxId: 'EFT-2026-1' });
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '380000', reserved: '0', paidOutTotal: '120000' });

    const returned = await h.ops('POST', `/withdrawals/${withdrawalId}/mark-returned`, { reason: 'IBAN closed' });
    expect(returned.body).toMatchObject({ status: 'RETURNED', returnedReason: 'IBAN closed' });
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '500000', reserved: '0', paidOutTotal: '0' });

    const events = await eventsOf(withdrawalId);
    expect(events.map((e) => e.type)).toEqual(['withdrawal.sent', 'withdrawal.returned']);
    const lookup = await h.internal('GET', `/sites/${site.siteId}/withdrawals/${withdrawalId}`);
    expect((events[1]?.payload as { data: unknown }).data).toEqual(lookup.body);
    expect((events[0]?.payload as { data: { status: string; sentAt: string } }).data).toMatchObject({
      status: 'SENT',
      sentAt: sent.body.sentAt,
    });
  });

  it('rejects before approval with withdrawal.rejected and the reason', async () => {
    const site = await h.createSite();
    const { withdrawalId } = await h.createWithdrawal(site, 5000);
    const rejected = await h.ops('POST', `/withdrawals/${withdrawalId}/reject`, { reason: 'KYC incomplete' });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectedReason: 'KYC incomplete' });
    const [event] = await eventsOf(withdrawalId);
    expect(event?.type).toBe('withdrawal.rejected');
    expect((event?.payload as { data: { rejectedReason: string } }).data.rejectedReason).toBe('KYC incomplete');
  });

  it('rejects after approval, releasing the reserved amount', async () => {
    const site = await h.createSite();
    await h.fund(site, 10000);
    const { withdrawalId } = await h.createWithdrawal(site, 8000);
    await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {});
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '2000', reserved: '8000' });
    const rejected = await h.ops('POST', `/withdrawals/${withdrawalId}/reject`, { reason: 'Fraud check' });
    expect(rejected.body.status).toBe('REJECTED');
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '10000', reserved: '0' });
    expect((await eventsOf(withdrawalId)).map((e) => e.type)).toEqual(['withdrawal.rejected']);
  });
});

describe('balance check', () => {
  it('refuses an approval past the available balance with 409, changing nothing', async () => {
    const site = await h.createSite();
    await h.fund(site, 10000);
    const { withdrawalId } = await h.createWithdrawal(site, 10001);
    const refused = await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('insufficient_balance');
    expect(refused.body.detail).toContain('available balance (10000)');
    expect(refused.body.errors).toEqual([{ field: 'amount', message: 'exceeds the available balance of 10000' }]);
    expect((await h.ops('GET', `/withdrawals/${withdrawalId}`)).body.status).toBe('PENDING_REVIEW');
    expect(await balanceOf(site.siteId)).toMatchObject({ available: '10000', reserved: '0' });
    expect(await h.ledger.deps.db.auditLog.count({ where: { entityId: withdrawalId } })).toBe(0);
  });

  it('approves exactly the available balance, and then nothing more', async () => {
    const site = await h.createSite();
    await h.fund(site, 10000);
    const first = await h.createWithdrawal(site, 10000);
    const second = await h.createWithdrawal(site, 1000);
    expect((await h.ops('POST', `/withdrawals/${first.withdrawalId}/approve`, {})).status).toBe(200);
    expect((await h.ops('POST', `/withdrawals/${second.withdrawalId}/approve`, {})).status).toBe(409);
  });

  it('refuses any approval on a site that never received money', async () => {
    const site = await h.createSite();
    const { withdrawalId } = await h.createWithdrawal(site, 1000);
    const refused = await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('available balance (0)');
  });

  it('keeps sites apart: one site’s money does not fund another’s withdrawal', async () => {
    const rich = await h.createSite();
    const poor = await h.createSite();
    await h.fund(rich, 100000);
    const { withdrawalId } = await h.createWithdrawal(poor, 1000);
    expect((await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {})).status).toBe(409);
  });

  it('lists every site with its balances', async () => {
    const site = await h.createSite();
    await h.fund(site, 4321);
    const all = await h.ops('GET', '/balances');
    const money = { currency: 'TRY', available: '4321', reserved: '0', receivedTotal: '4321', paidOutTotal: '0', adjustedTotal: '0' };
    expect(all.body.data.find((b: { siteId: string }) => b.siteId === site.siteId)).toEqual({
      siteId: site.siteId,
      slug: site.slug,
      name: `Site ${site.slug}`,
      livemode: true,
      ...money,
    });
  });
});

describe('review queues', () => {
  it('lists withdrawals waiting for review across sites, newest first, with a cursor', async () => {
    const site = await h.createSite();
    const created = [];
    for (let i = 0; i < 3; i += 1) created.push(await h.createWithdrawal(site, 1000 + i));
    const first = await h.ops('GET', `/withdrawals?status=PENDING_REVIEW&siteId=${site.siteId}&limit=2`);
    expect(first.body.data.map((w: { withdrawalId: string }) => w.withdrawalId)).toEqual([
      created[2]?.withdrawalId,
      created[1]?.withdrawalId,
    ]);
    const second = await h.ops('GET', `/withdrawals?status=PENDING_REVIEW&siteId=${site.siteId}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ withdrawalId: created[0]?.withdrawalId })], nextCursor: null });
    const mismatched = await h.ops('GET', `/withdrawals?status=APPROVED&siteId=${site.siteId}&limit=2&cursor=${first.body.nextCursor}`);
    expect(mismatched.status).toBe(400);
  });

  it('rejects an unknown status filter with validation_failed', async () => {
    const answer = await h.ops('GET', '/intents?status=PAID');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('validation_failed');
  });
});

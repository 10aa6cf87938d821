/**
 * Every legal transition of both state machines (docs/api.md, States; docs/operations.md) and every illegal one: an illegal
 * action answers 409 and changes nothing (row, audit, events, journal, balance).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { processExpiryJob } from '../src/expiry/expiry.worker.js';
import { eventually, startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

// The ledger's clock: tests move it past an intent's one-second expiry instead of sleeping.
const clock = new TestClock();
let h: LedgerHarness;
let site: TestSite;
let expiringSite: TestSite;
beforeAll(async () => {
  // Late means late here: money a second after a one-second expiry, so no clock-skew allowance.
  h = await startLedgerHarness({ EXPIRY_SWEEP_INTERVAL_MS: '300', ARRIVAL_CLOCK_SKEW_SECONDS: '0' }, { clock });
  site = await h.createSite();
  expiringSite = await h.createSite({ depositTtlSeconds: 1 });
  await h.fund(site, 50_000_000);
});
afterAll(async () => {
  await h?.stop();
});

const WITHDRAWAL_STATUSES = ['PENDING_REVIEW', 'APPROVED', 'SENT', 'REJECTED', 'RETURNED'] as const;
type DepositStatus = 'RESERVED' | 'PENDING_REVIEW' | 'AUTO_CANCELLED' | 'LATE_ARRIVAL' | 'APPROVED' | 'REJECTED';
type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

const status = async (path: string): Promise<string> => (await h.ops('GET', path)).body.status;

async function depositIn(target: DepositStatus): Promise<string> {
  const expiring = target === 'AUTO_CANCELLED' || target === 'LATE_ARRIVAL';
  const created = await h.createDeposit(expiring ? expiringSite : site, 10000);
  const id = created.intentId;
  if (target === 'RESERVED') return id;
  if (expiring) {
    clock.advance(2_000);
    await eventually(async () => (await status(`/intents/${id}`)) === 'AUTO_CANCELLED', 15_000, 'auto-cancel');
    if (target === 'AUTO_CANCELLED') return id;
    expect((await h.transfer(created.referenceNo, 10000)).body.intent.status).toBe('LATE_ARRIVAL');
    return id;
  }
  expect((await h.transfer(created.referenceNo, 10000)).body.intent.status).toBe('PENDING_REVIEW');
  if (target === 'APPROVED') expect((await h.ops('POST', `/intents/${id}/approve`, {})).status).toBe(200);
  if (target === 'REJECTED') expect((await h.ops('POST', `/intents/${id}/reject`, { reason: 'test' })).status).toBe(200);
  return id;
}

const WITHDRAWAL_ACTIONS = {
  approve: { path: 'approve', body: {} },
  reject: { path: 'reject', body: { reason: 'Holder name does not match' } },
  markSent: { path: 'mark-sent', body: { bankTxId: 'OUT-1' } },
  markReturned: { path: 'mark-returned', body: { reason: 'Account closed' } },
} as const;
type WithdrawalAction = keyof typeof WITHDRAWAL_ACTIONS;

const actOnWithdrawal = (id: string, action: WithdrawalAction) =>
  h.ops('POST', `/withdrawals/${id}/${WITHDRAWAL_ACTIONS[action].path}`, WITHDRAWAL_ACTIONS[action].body);

async function withdrawalIn(target: WithdrawalStatus): Promise<string> {
  const { withdrawalId: id } = await h.createWithdrawal(site, 5000);
  const path: Record<WithdrawalStatus, WithdrawalAction[]> = {
    PENDING_REVIEW: [],
    APPROVED: ['approve'],
    SENT: ['approve', 'markSent'],
    REJECTED: ['reject'],
    RETURNED: ['approve', 'markSent', 'markReturned'],
  };
  for (const action of path[target]) expect((await actOnWithdrawal(id, action)).status).toBe(200);
  return id;
}

async function snapshot(entityId: string) {
  const db = h.ledger.deps.db;
  return {
    intent: await db.deposit.findUnique({ where: { id: entityId } }),
    withdrawal: await db.withdrawal.findUnique({ where: { id: entityId } }),
    audit: await db.auditLog.count({ where: { entityId } }),
    events: await db.outboxEvent.count({ where: { entityId } }),
    journal: await db.journalEntry.count({ where: { entityId } }),
    balance: (await h.ops('GET', `/sites/${site.siteId}/balance`)).body,
  };
}

describe('deposit intent: legal transitions', () => {
  it('RESERVED -> PENDING_REVIEW when a transfer arrives before expiry', async () => {
    expect(await status(`/intents/${await depositIn('PENDING_REVIEW')}`)).toBe('PENDING_REVIEW');
  });

  it('RESERVED -> AUTO_CANCELLED at expiry, with no money', async () => {
    const id = await depositIn('AUTO_CANCELLED');
    const row = (await h.ops('GET', `/intents/${id}`)).body;
    expect(row.cancelledAt).not.toBeNull();
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { entityId: id } })).toBe(0);
  });

  it('AUTO_CANCELLED -> LATE_ARRIVAL when money arrives after expiry', async () => {
    expect(await status(`/intents/${await depositIn('LATE_ARRIVAL')}`)).toBe('LATE_ARRIVAL');
  });

  it.each(['PENDING_REVIEW', 'LATE_ARRIVAL'] as const)('%s -> APPROVED credits the site and emits intent.approved', async (from) => {
    const id = await depositIn(from);
    const before = await snapshot(id);
    const approved = await h.ops('POST', `/intents/${id}/approve`, {});
    expect(approved.body.status).toBe('APPROVED');
    const after = await snapshot(id);
    expect(after.events - before.events).toBe(1);
    expect(after.journal - before.journal).toBe(2);
    const types = (await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } })).map(
      (e) => e.type,
    );
    expect(types).toEqual(['intent.approved']);
  });

  it.each(['PENDING_REVIEW', 'LATE_ARRIVAL'] as const)('%s -> REJECTED emits intent.rejected and moves no money', async (from) => {
    const id = await depositIn(from);
    const rejected = await h.ops('POST', `/intents/${id}/reject`, { reason: 'Third-party payment' });
    expect(rejected.body.status).toBe('REJECTED');
    const types = (await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } })).map(
      (e) => e.type,
    );
    expect(types).toEqual(['intent.rejected']);
    expect(await h.ledger.deps.db.journalEntry.count({ where: { entityId: id } })).toBe(0);
  });
});

describe('deposit intent: illegal transitions answer 409 and change nothing', () => {
  const cases = (['RESERVED', 'AUTO_CANCELLED', 'APPROVED', 'REJECTED'] as const).flatMap((from) =>
    (['approve', 'reject'] as const).map((action) => [action, from] as const),
  );
  it.each(cases)('%s from %s', async (action, from) => {
    const id = await depositIn(from);
    const before = await snapshot(id);
    const answer = await h.ops('POST', `/intents/${id}/${action}`, action === 'reject' ? { reason: 'x' } : { amount: '10000' });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: 'conflict', reason: 'invalid_transition' });
    expect(answer.body.detail).toContain(from);
    expect(await snapshot(id)).toEqual(before);
  });

  it('does not cancel an intent money arrived for, even after its expiry passes', async () => {
    const created = await h.createDeposit(expiringSite, 10000);
    await h.transfer(created.referenceNo, 10000);
    clock.advance(2_000);
    // A sweep now, past the expiry (the repeatable sweep does the same on its interval).
    await processExpiryJob(h.ledger.deps, { kind: 'sweep' });
    expect(await status(`/intents/${created.intentId}`)).toBe('PENDING_REVIEW');
  });

  it('answers 404 for an unknown or malformed intent id', async () => {
    expect((await h.ops('POST', '/intents/00000000-0000-4000-8000-000000000000/approve', {})).status).toBe(404);
    expect((await h.ops('POST', '/intents/nope/reject', { reason: 'x' })).status).toBe(404);
  });
});

describe('withdrawal: legal transitions', () => {
  const available = async () => BigInt((await h.ops('GET', `/sites/${site.siteId}/balance`)).body.available);
  const reserved = async () => BigInt((await h.ops('GET', `/sites/${site.siteId}/balance`)).body.reserved);

  it('PENDING_REVIEW -> APPROVED reserves the amount and emits no event', async () => {
    const id = await withdrawalIn('PENDING_REVIEW');
    const [a0, r0] = [await available(), await reserved()];
    expect((await actOnWithdrawal(id, 'approve')).body.status).toBe('APPROVED');
    expect([await available(), await reserved()]).toEqual([a0 - 5000n, r0 + 5000n]);
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { entityId: id } })).toBe(0);
  });

  it('PENDING_REVIEW -> REJECTED emits withdrawal.rejected and moves no money', async () => {
    const id = await withdrawalIn('PENDING_REVIEW');
    const a0 = await available();
    expect((await actOnWithdrawal(id, 'reject')).body).toMatchObject({ status: 'REJECTED', rejectedReason: 'Holder name does not match' });
    expect(await available()).toBe(a0);
    expect(
      (await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } })).map((e) => e.type),
    ).toEqual(['withdrawal.rejected']);
  });

  it('APPROVED -> REJECTED releases the reservation and emits withdrawal.rejected', async () => {
    const id = await withdrawalIn('APPROVED');
    const [a0, r0] = [await available(), await reserved()];
    expect((await actOnWithdrawal(id, 'reject')).body.status).toBe('REJECTED');
    expect([await available(), await reserved()]).toEqual([a0 + 5000n, r0 - 5000n]);
    expect(
      (await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } })).map((e) => e.type),
    ).toEqual(['withdrawal.rejected']);
  });

  it('APPROVED -> SENT settles the reservation and emits withdrawal.sent with sentAt', async () => {
    const id = await withdrawalIn('APPROVED');
    const [a0, r0] = [await available(), await reserved()];
    const sent = await actOnWithdrawal(id, 'markSent');
    expect(sent.body).toMatchObject({ status: 'SENT', sentBankTxId: 'OUT-1' });
    expect(sent.body.sentAt).not.toBeNull();
    expect([await available(), await reserved()]).toEqual([a0, r0 - 5000n]);
    const [event] = await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
    expect(event?.type).toBe('withdrawal.sent');
    expect((event?.payload as { data: { sentAt: string } }).data.sentAt).toBe(sent.body.sentAt);
  });

  it('SENT -> RETURNED credits the site back and emits withdrawal.returned', async () => {
    const id = await withdrawalIn('SENT');
    const a0 = await available();
    expect((await actOnWithdrawal(id, 'markReturned')).body).toMatchObject({ status: 'RETURNED', returnedReason: 'Account closed' });
    expect(await available()).toBe(a0 + 5000n);
    expect(
      (await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } })).map((e) => e.type),
    ).toEqual(['withdrawal.sent', 'withdrawal.returned']);
  });
});

describe('withdrawal: illegal transitions answer 409 and change nothing', () => {
  const legal: Record<WithdrawalAction, WithdrawalStatus[]> = {
    approve: ['PENDING_REVIEW'],
    reject: ['PENDING_REVIEW', 'APPROVED'],
    markSent: ['APPROVED'],
    markReturned: ['SENT'],
  };
  const cases = (Object.keys(WITHDRAWAL_ACTIONS) as WithdrawalAction[]).flatMap((action) =>
    WITHDRAWAL_STATUSES.filter((from) => !legal[action].includes(from)).map((from) => [action, from] as const),
  );

  it('covers all 15 illegal pairs (20 pairs less the 5 legal ones)', () => {
    expect(cases).toHaveLength(15);
  });

  it.each(cases)('%s from %s', async (action, from) => {
    const id = await withdrawalIn(from);
    const before = await snapshot(id);
    const answer = await actOnWithdrawal(id, action);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: 'conflict', reason: 'invalid_transition' });
    expect(answer.body.detail).toContain(from);
    expect(await snapshot(id)).toEqual(before);
  });
});

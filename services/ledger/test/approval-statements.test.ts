/**
 * The approve paths' fewer statements keep their meaning: the record locked and read, or written and read back, in one
 * statement is the record Prisma reads, field for field and type for type; the journal's one-statement posting writes the entries and the
 * balance rows, and its guarded account is still never overdrawn nor created in debit.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDatabase, type Database } from '@kasa/db';
import { DepositReviewRepository } from '../src/deposits/deposit-review.repository.js';
import { Postings } from '../src/journal/accounts.js';
import { JournalRepository } from '../src/journal/journal.repository.js';
import { WithdrawalReviewRepository } from '../src/withdrawals/withdrawal-review.repository.js';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
let database: Database;
let site: TestSite;
beforeAll(async () => {
  h = await startLedgerHarness();
  database = createDatabase({ connectionString: h.env.databaseUrl, max: 4 });
  site = await h.createSite();
});
afterAll(async () => {
  await database?.close();
  await h?.stop();
});

const balances = async (siteId: string) =>
  Object.fromEntries(
    (await database.prisma.siteBalance.findMany({ where: { siteId } })).map((row) => [row.account, row.balance]),
  ) as Record<string, bigint>;

describe('a record locked and read in one statement', () => {
  it('is the deposit Prisma reads, waiting for review and approved with a remainder set aside', async () => {
    const repository = new DepositReviewRepository(database.prisma);
    const deposit = await h.createDeposit(site, 10_000, { externalUserLabel: 'Ayşe' });
    expect((await h.transfer(deposit.referenceNo, 12_000)).status).toBe(201);
    const waiting = await database.prisma.$transaction((tx) => repository.lockDeposit(tx, deposit.intentId));
    expect(waiting).toEqual(await database.prisma.deposit.findUnique({ where: { id: deposit.intentId } }));
    expect(waiting?.status).toBe('PENDING_REVIEW');
    expect(typeof waiting?.requestedAmount).toBe('bigint');

    const body = { amount: '10000', remainder: { action: 'set_aside', reason: 'kept for the user' } };
    expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, body)).status).toBe(200);
    const approved = await database.prisma.$transaction((tx) => repository.lockDeposit(tx, deposit.intentId));
    expect(approved).toEqual(await database.prisma.deposit.findUnique({ where: { id: deposit.intentId } }));
    expect(approved?.remainderSetAside).toBe(2_000n);
    expect(approved?.approvedAt).toBeInstanceOf(Date);
  });

  it('is the withdrawal Prisma reads, with its approvals', async () => {
    const repository = new WithdrawalReviewRepository(database.prisma);
    await h.fund(site, 50_000);
    const withdrawal = await h.createWithdrawal(site, 5_000);
    expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);
    const locked = await database.prisma.$transaction((tx) => repository.lockWithdrawal(tx, withdrawal.withdrawalId));
    expect(locked).toEqual(await database.prisma.withdrawal.findUnique({ where: { id: withdrawal.withdrawalId } }));
    expect(locked?.status).toBe('APPROVED');
    expect(Array.isArray(locked?.approvals)).toBe(true);
  });

  it('is null for an id with no row', async () => {
    const repository = new DepositReviewRepository(database.prisma);
    const missing = await database.prisma.$transaction((tx) => repository.lockDeposit(tx, '00000000-0000-4000-8000-000000000000'));
    expect(missing).toBeNull();
  });
});

describe('a record written and read back in one statement', () => {
  it('is the deposit Prisma reads after the write, and null once its status moved', async () => {
    const repository = new DepositReviewRepository(database.prisma);
    const deposit = await h.createDeposit(site, 4_000);
    expect((await h.transfer(deposit.referenceNo, 4_000)).status).toBe(201);
    const approvedAt = new Date('2026-01-02T03:04:05.678Z');
    const written = await database.prisma.$transaction((tx) =>
      repository.updateDeposit(tx, deposit.intentId, 'PENDING_REVIEW', {
        status: 'APPROVED',
        amount: 4_000n,
        approvedAt,
        rejectedReason: null,
      }),
    );
    expect(written).toEqual(await database.prisma.deposit.findUnique({ where: { id: deposit.intentId } }));
    expect(written).toMatchObject({ status: 'APPROVED', amount: 4_000n, approvedAt });
    const again = await database.prisma.$transaction((tx) =>
      repository.updateDeposit(tx, deposit.intentId, 'PENDING_REVIEW', { status: 'REJECTED' }),
    );
    expect(again).toBeNull();
    expect((await database.prisma.deposit.findUnique({ where: { id: deposit.intentId } }))?.status).toBe('APPROVED');
  });

  it("is the withdrawal Prisma reads after the write, its approvals' JSON included", async () => {
    const repository = new WithdrawalReviewRepository(database.prisma);
    const withdrawal = await h.createWithdrawal(site, 2_000);
    const approvals = [{ operatorId: 'op-1', email: 'ayse@kasa.test', at: '2026-01-02T03:04:05.678Z' }];
    const written = await database.prisma.$transaction((tx) =>
      repository.updateWithdrawal(tx, withdrawal.withdrawalId, 'PENDING_REVIEW', { approvals }),
    );
    expect(written).toEqual(await database.prisma.withdrawal.findUnique({ where: { id: withdrawal.withdrawalId } }));
    expect(written?.approvals).toEqual(approvals);
    expect(written?.status).toBe('PENDING_REVIEW');
  });

  it('refuses a field the model does not have and an operation object, writing nothing', async () => {
    const repository = new DepositReviewRepository(database.prisma);
    const deposit = await h.createDeposit(site, 3_000);
    const before = await database.prisma.deposit.findUnique({ where: { id: deposit.intentId } });
    await expect(
      database.prisma.$transaction((tx) => repository.updateDeposit(tx, deposit.intentId, 'RESERVED', { amount: { increment: 1n } })),
    ).rejects.toThrow(/only plain values/);
    await expect(
      database.prisma.$transaction((tx) =>
        repository.updateDeposit(tx, deposit.intentId, 'RESERVED', { nonsense: 1 } as unknown as { amount: bigint }),
      ),
    ).rejects.toThrow(/no field nonsense/);
    expect(await database.prisma.deposit.findUnique({ where: { id: deposit.intentId } })).toEqual(before);
  });
});

describe('a journal posting in one statement', () => {
  it('writes two balanced entries and moves both balance rows', async () => {
    const own = await h.createSite();
    const journal = new JournalRepository(database.prisma);
    const entityId = (await h.createDeposit(own, 7_000)).intentId;
    const posted = await database.prisma.$transaction((tx) => journal.post(tx, Postings.depositApproved(own.siteId, entityId, 7_000n)));
    expect(posted.ok).toBe(true);
    const entries = await database.prisma.journalEntry.findMany({ where: { entityId }, orderBy: { account: 'asc' } });
    expect(entries.map((entry) => [entry.account, entry.amount])).toEqual([
      ['bank_clearing', 7_000n],
      ['site_available', -7_000n],
    ]);
    expect(new Set(entries.map((entry) => entry.transactionId))).toEqual(new Set([posted.ok ? posted.transactionId : '']));
    expect(await balances(own.siteId)).toEqual({ bank_clearing: 7_000n, site_available: -7_000n });
  });

  it('refuses a guarded debit past the balance, and one on a site with no balance row, in a transaction the caller rolls back', async () => {
    const own = await h.createSite();
    const journal = new JournalRepository(database.prisma);
    const withdrawalId = (await h.createWithdrawal(own, 1_000)).withdrawalId;
    const reserve = (amount: bigint) =>
      database.prisma.$transaction(async (tx) => {
        const result = await journal.post(tx, Postings.withdrawalReserved(own.siteId, withdrawalId, amount), 'site_available');
        if (!result.ok) throw Object.assign(new Error('refused'), { result });
        return result;
      });
    // No site_available row yet: refused, never created in debit.
    await expect(reserve(1_000n)).rejects.toMatchObject({ result: { ok: false, account: 'site_available', balance: 0n } });
    expect(await balances(own.siteId)).toEqual({});

    await h.fund(own, 3_000);
    await expect(reserve(3_001n)).rejects.toMatchObject({ result: { ok: false, account: 'site_available', balance: -3_000n } });
    expect(await balances(own.siteId)).toEqual({ bank_clearing: 3_000n, site_available: -3_000n });

    // Five concurrent reservations of 1,000 against 3,000 available: exactly three pass.
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => reserve(1_000n)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    expect(await balances(own.siteId)).toEqual({ bank_clearing: 3_000n, site_available: 0n, site_reserved: -3_000n });
    // The refused postings left nothing: three transactions of two entries each.
    const entries = await database.prisma.journalEntry.findMany({ where: { entityId: withdrawalId } });
    expect(entries).toHaveLength(6);
    expect(new Set(entries.map((entry) => entry.transactionId)).size).toBe(3);
    expect(entries.reduce((sum, entry) => sum + entry.amount, 0n)).toBe(0n);
  });
});

describe("an approval's audit entry and event, written in its posting's statement", () => {
  it("are the deposit approval's rows: the event PENDING with its request id, the audit entry naming the posting", async () => {
    const deposit = await h.createDeposit(site, 6_000);
    expect((await h.transfer(deposit.referenceNo, 6_000)).status).toBe(201);
    const approved = await h.ops('POST', `/intents/${deposit.intentId}/approve`, {});
    expect(approved.status).toBe(200);
    const entries = await database.prisma.journalEntry.findMany({ where: { entityId: deposit.intentId } });
    expect(entries).toHaveLength(2);
    const transactionId = entries[0]?.transactionId;
    const audits = await database.prisma.auditLog.findMany({ where: { entityId: deposit.intentId, action: 'INTENT.APPROVED' } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ entityType: 'deposit_intent', siteId: site.siteId });
    expect(audits[0]?.metadata).toMatchObject({ journalTransactionId: transactionId, amount: '6000', to: 'APPROVED' });
    const event = await database.prisma.outboxEvent.findUnique({ where: { id: approved.body.eventId } });
    expect(event).toMatchObject({
      siteId: site.siteId,
      type: 'intent.approved',
      entityId: deposit.intentId,
      status: 'PENDING',
      attemptCount: 0,
      requestId: approved.headers.get('x-request-id'),
    });
    expect(event?.updatedAt.getTime()).toBeGreaterThanOrEqual(event?.createdAt.getTime() ?? Infinity);
    expect(event?.payload).toMatchObject({
      eventId: approved.body.eventId,
      type: 'intent.approved',
      createdAt: event?.createdAt.toISOString(),
      livemode: true,
      data: { intentId: deposit.intentId, status: 'APPROVED', amount: '6000' },
    });
  });

  it('are rolled back with the posting a withdrawal approval is refused for', async () => {
    const own = await h.createSite();
    await h.fund(own, 3_000);
    const withdrawal = await h.createWithdrawal(own, 2_000);
    const other = await h.createWithdrawal(own, 2_000);
    expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);
    const refused = await h.ops('POST', `/withdrawals/${other.withdrawalId}/approve`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('insufficient_balance');
    expect(await database.prisma.auditLog.count({ where: { entityId: other.withdrawalId } })).toBe(0);
    expect(await database.prisma.journalEntry.count({ where: { entityId: other.withdrawalId } })).toBe(0);
    const approvedAudit = await database.prisma.auditLog.findFirst({
      where: { entityId: withdrawal.withdrawalId, action: 'WITHDRAWAL.APPROVED' },
    });
    const reserved = await database.prisma.journalEntry.findFirst({ where: { entityId: withdrawal.withdrawalId } });
    expect(approvedAudit?.metadata).toMatchObject({ journalTransactionId: reserved?.transactionId, amount: '2000' });
  });
});

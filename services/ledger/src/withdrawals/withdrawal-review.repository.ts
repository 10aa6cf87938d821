import { Prisma, type PrismaClient, type Withdrawal, type WithdrawalStatus } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockAndRead, updateAndRead } from '../shared/row-lock.repository.js';
import { amountWhere, reviewWhere, type ReviewListFilter } from '../site-records/review-filters.js';
import { siteScopeWhere, type SiteScope } from '../shared/site-scope.js';

type Tx = Prisma.TransactionClient;

/**
 * Row access for the withdrawals' transitions and the operators' lists: lock, decide from the locked status,
 * one UPDATE conditional on it (concurrent actions queue on the lock; every one after the first sees the new status).
 */
export class WithdrawalReviewRepository {
  constructor(private readonly db: PrismaClient) {}

  /** The payout batch the withdrawal's money went out in (its file was made for the bank), or null. */
  async batchOf(tx: Tx, withdrawalId: string): Promise<string | null> {
    return (await tx.payoutBatchItem.findUnique({ where: { withdrawalId }, select: { batchId: true } }))?.batchId ?? null;
  }

  /** Locks the withdrawal and reads it, in one statement. */
  lockWithdrawal(tx: Tx, id: string): Promise<Withdrawal | null> {
    return lockAndRead<Withdrawal>(tx, 'withdrawals', Prisma.WithdrawalScalarFieldEnum, ['status'], id);
  }

  /** Locks many withdrawals at once, in id order (two runs over overlapping sets never deadlock); the missing are left out. */
  async lockWithdrawals(tx: Tx, ids: readonly string[]): Promise<Map<string, Withdrawal>> {
    if (ids.length === 0) return new Map();
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM withdrawals WHERE id = ANY(${[...ids]}::uuid[]) ORDER BY id FOR UPDATE`;
    if (locked.length === 0) return new Map();
    const rows = await tx.withdrawal.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Many withdrawals marked SENT in one statement, each conditional on the status it was locked in; returns those written. */
  async markSentMany(
    tx: Tx,
    rows: ReadonlyArray<{ id: string; from: WithdrawalStatus; sentAt: Date; sentBankTxId: string }>,
  ): Promise<Map<string, Withdrawal>> {
    if (rows.length === 0) return new Map();
    const written = await tx.$queryRaw<Array<{ id: string }>>`
      UPDATE withdrawals w SET status = 'SENT', sent_at = u.sent_at, sent_bank_tx_id = u.sent_bank_tx_id, updated_at = now()
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.from)}::text[],
        ${rows.map((r) => r.sentAt.toISOString())}::timestamptz[], ${rows.map((r) => r.sentBankTxId)}::text[])
        AS u(id, from_status, sent_at, sent_bank_tx_id)
      WHERE w.id = u.id AND w.status = u.from_status::"WithdrawalStatus"
      RETURNING w.id::text`;
    if (written.length === 0) return new Map();
    const updated = await tx.withdrawal.findMany({ where: { id: { in: written.map((row) => row.id) } } });
    return new Map(updated.map((row) => [row.id, row]));
  }

  /** The withdrawal's conditional write, in one statement returning the row (see {@link updateAndRead}). */
  updateWithdrawal(tx: Tx, id: string, from: WithdrawalStatus, data: Prisma.WithdrawalUpdateManyMutationInput): Promise<Withdrawal | null> {
    return updateAndRead<Withdrawal>(tx, 'withdrawals', Prisma.WithdrawalScalarFieldEnum, ['status'], ['approvals'], id, from, data);
  }

  findWithdrawal(id: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findUnique({ where: { id } });
  }

  /** The site the withdrawal belongs to, for the operator-scope guard; null when there is no such withdrawal. */
  async siteOfRecord(id: string): Promise<string | null> {
    return (await this.db.withdrawal.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
  }

  /** Withdrawals across sites (or one), in the window's order; `db`: the ops list's transaction (its statement timeout). */
  listWithdrawals(
    filter: ReviewListFilter<WithdrawalStatus>,
    window: ListWindow,
    scope: SiteScope,
    db: PrismaClient | Tx = this.db,
  ): Promise<Withdrawal[]> {
    return db.withdrawal.findMany(
      keysetPage({ ...reviewWhere(filter), ...amountWhere('amount', filter), ...siteScopeWhere(scope) }, window),
    );
  }
}

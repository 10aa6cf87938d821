import type { Prisma, PrismaClient, Withdrawal, WithdrawalStatus } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';
import { amountWhere, reviewWhere, updateFrom, type ReviewListFilter } from '../site-records/review-filters.js';
import { siteScopeWhere, type SiteScope } from '../operators/site-scope.js';

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

  async lockWithdrawal(tx: Tx, id: string): Promise<Withdrawal | null> {
    return (await lockRow(tx, 'withdrawals', id)) ? tx.withdrawal.findUnique({ where: { id } }) : null;
  }

  /** The withdrawal's conditional write (see {@link updateFrom}). */
  updateWithdrawal(tx: Tx, id: string, from: WithdrawalStatus, data: Prisma.WithdrawalUpdateManyMutationInput): Promise<Withdrawal | null> {
    return updateFrom((args) => tx.withdrawal.update(args), id, from, data);
  }

  findWithdrawal(id: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findUnique({ where: { id } });
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

import type { DepositIntent, DepositStatus, Prisma, PrismaClient, Withdrawal, WithdrawalStatus } from '@kasa/db';
import { keysetWhere, NEWEST_FIRST, type ListWindow } from './keyset.js';

type Tx = Prisma.TransactionClient;

/** Prisma's "record to update not found" (P2025) means the status condition did not hold. */
function nullWhenNoRow(error: unknown): null {
  if ((error as { code?: string }).code === 'P2025') return null;
  throw error;
}

/**
 * Row access for state transitions. A transition locks its record (`SELECT ... FOR UPDATE`), decides from
 * the locked status, then writes with one UPDATE conditional on that status: concurrent actions on one
 * record queue on the lock and every one after the first sees the new status.
 */
export class ReviewRepository {
  constructor(private readonly db: PrismaClient) {}

  async lockIntent(tx: Tx, id: string): Promise<DepositIntent | null> {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM deposit_intents WHERE id = ${id}::uuid FOR UPDATE`;
    return locked.length === 0 ? null : tx.depositIntent.findUnique({ where: { id } });
  }

  /** Locks the intents whose reference numbers are given (a transfer description may name several). */
  async lockIntentsByReference(tx: Tx, referenceNos: string[]): Promise<DepositIntent[]> {
    if (referenceNos.length === 0) return [];
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM deposit_intents WHERE reference_no = ANY(${referenceNos}::text[]) ORDER BY id FOR UPDATE`;
    return locked.length === 0 ? [] : tx.depositIntent.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
  }

  /**
   * The conditional write, one `UPDATE ... WHERE id = $1 AND status = $2 RETURNING *`; null when the row is
   * no longer in `from` (never after a lock, but checked rather than assumed).
   */
  async updateIntent(
    tx: Tx,
    id: string,
    from: DepositStatus,
    data: Prisma.DepositIntentUpdateManyMutationInput,
  ): Promise<DepositIntent | null> {
    return tx.depositIntent.update({ where: { id, status: from }, data: { ...data, updatedAt: new Date() } }).catch(nullWhenNoRow);
  }

  async lockWithdrawal(tx: Tx, id: string): Promise<Withdrawal | null> {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM withdrawals WHERE id = ${id}::uuid FOR UPDATE`;
    return locked.length === 0 ? null : tx.withdrawal.findUnique({ where: { id } });
  }

  async updateWithdrawal(
    tx: Tx,
    id: string,
    from: WithdrawalStatus,
    data: Prisma.WithdrawalUpdateManyMutationInput,
  ): Promise<Withdrawal | null> {
    return tx.withdrawal.update({ where: { id, status: from }, data: { ...data, updatedAt: new Date() } }).catch(nullWhenNoRow);
  }

  findIntent(id: string): Promise<DepositIntent | null> {
    return this.db.depositIntent.findUnique({ where: { id } });
  }

  findWithdrawal(id: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findUnique({ where: { id } });
  }

  /** Review queues across sites (or one), newest first. */
  listIntents(filter: ReviewListFilter<DepositStatus>, window: ListWindow): Promise<DepositIntent[]> {
    return this.db.depositIntent.findMany({
      where: { ...reviewWhere(filter), ...keysetWhere(window) },
      orderBy: NEWEST_FIRST,
      take: window.limit,
    });
  }

  listWithdrawals(filter: ReviewListFilter<WithdrawalStatus>, window: ListWindow): Promise<Withdrawal[]> {
    return this.db.withdrawal.findMany({
      where: { ...reviewWhere(filter), ...keysetWhere(window) },
      orderBy: NEWEST_FIRST,
      take: window.limit,
    });
  }
}

/** Filters of the review lists: a site, statuses, and a reference number (normalised by the caller). */
export interface ReviewListFilter<Status> {
  siteId?: string;
  statuses?: Status[];
  referenceNo?: string;
}

function reviewWhere<Status>(filter: ReviewListFilter<Status>) {
  return {
    ...(filter.siteId ? { siteId: filter.siteId } : {}),
    ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
    ...(filter.referenceNo ? { referenceNo: filter.referenceNo } : {}),
  };
}

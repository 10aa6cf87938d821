import type { Deposit, DepositStatus, Prisma, PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';
import { amountWhere, reviewWhere, updateFrom, type ReviewListFilter } from '../site-records/review-filters.js';

type Tx = Prisma.TransactionClient;

/**
 * Row access for the intents' transitions and the operators' lists. A transition locks its intent
 * (`SELECT ... FOR UPDATE`), decides from the locked status, then writes with one UPDATE conditional on that
 * status: concurrent actions on one intent queue on the lock and every one after the first sees the new status.
 */
export class DepositReviewRepository {
  constructor(private readonly db: PrismaClient) {}

  async lockDeposit(tx: Tx, id: string): Promise<Deposit | null> {
    return (await lockRow(tx, 'deposit_intents', id)) ? tx.deposit.findUnique({ where: { id } }) : null;
  }

  /** Locks the intents whose reference numbers are given (a transfer description may name several). */
  async lockDepositsByReference(tx: Tx, referenceNos: string[]): Promise<Deposit[]> {
    if (referenceNos.length === 0) return [];
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM deposit_intents WHERE reference_no = ANY(${referenceNos}::text[]) ORDER BY id FOR UPDATE`;
    return locked.length === 0 ? [] : tx.deposit.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
  }

  /** The deposits with these references, read without a lock (a suggestion moves nothing). */
  findDepositsByReference(tx: Tx, referenceNos: string[]): Promise<Deposit[]> {
    if (referenceNos.length === 0) return Promise.resolve([]);
    return tx.deposit.findMany({ where: { referenceNo: { in: referenceNos } } });
  }

  /** The intent's conditional write (see {@link updateFrom}). */
  updateDeposit(tx: Tx, id: string, from: DepositStatus, data: Prisma.DepositUpdateManyMutationInput): Promise<Deposit | null> {
    return updateFrom((args) => tx.deposit.update(args), id, from, data);
  }

  /** The intent's status, read in the caller's transaction without a lock; null when there is no such intent. */
  async statusOf(tx: Tx, id: string): Promise<DepositStatus | null> {
    return (await tx.deposit.findUnique({ where: { id }, select: { status: true } }))?.status ?? null;
  }

  findDeposit(id: string): Promise<Deposit | null> {
    return this.db.deposit.findUnique({ where: { id } });
  }

  /** Deposits across sites (or one), in the window's order; the amount range is on the requested amount. */
  listDeposits(filter: ReviewListFilter<DepositStatus>, window: ListWindow): Promise<Deposit[]> {
    return this.db.deposit.findMany(keysetPage({ ...reviewWhere(filter), ...amountWhere('requestedAmount', filter) }, window));
  }

  /** The intents with the sender name of every transfer credited to them, for the sender-name check. */
  async withSenderNames<Row extends { id: string }>(rows: Row[]): Promise<Array<Row & { senderNames: string[] }>> {
    if (rows.length === 0) return [];
    const transfers = await this.db.bankTransfer.findMany({
      where: { intentId: { in: rows.map((row) => row.id) } },
      select: { intentId: true, senderName: true },
    });
    const names = new Map<string, string[]>();
    for (const t of transfers) if (t.intentId) names.set(t.intentId, [...(names.get(t.intentId) ?? []), t.senderName]);
    return rows.map((row) => ({ ...row, senderNames: names.get(row.id) ?? [] }));
  }
}

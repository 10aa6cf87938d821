import { Prisma, type DepositIntent, type DepositStatus, type PrismaClient, type Withdrawal, type WithdrawalStatus } from '@kasa/db';
import { keysetPage, type ListWindow } from './keyset.js';

type Tx = Prisma.TransactionClient;

/** Takes the row lock on one record (`SELECT ... FOR UPDATE`) for the rest of the transaction; false when there is no such row. */
export async function lockRow(
  tx: Tx,
  table: 'deposit_intents' | 'withdrawals' | 'bank_transfers' | 'sender_returns' | 'sites',
  id: string,
): Promise<boolean> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>(
    Prisma.sql`SELECT id::text FROM ${Prisma.raw(table)} WHERE id = ${id}::uuid FOR UPDATE`,
  );
  return locked.length > 0;
}

/** Prisma's "record to update not found" (P2025) means the status condition did not hold. */
function nullWhenNoRow(error: unknown): null {
  if ((error as { code?: string }).code === 'P2025') return null;
  throw error;
}

/**
 * The conditional write, one `UPDATE ... WHERE id = $1 AND status = $2 RETURNING *` through the table's
 * `update`, with a fresh updatedAt; null when the row is no longer in `from` (never after a lock, but
 * checked rather than assumed).
 */
function updateFrom<Status, Data extends object, Row>(
  update: (args: { where: { id: string; status: Status }; data: Data & { updatedAt: Date } }) => Promise<Row>,
  id: string,
  from: Status,
  data: Data,
): Promise<Row | null> {
  return update({ where: { id, status: from }, data: { ...data, updatedAt: new Date() } }).catch(nullWhenNoRow);
}

/**
 * Row access for state transitions. A transition locks its record (`SELECT ... FOR UPDATE`), decides from
 * the locked status, then writes with one UPDATE conditional on that status: concurrent actions on one
 * record queue on the lock and every one after the first sees the new status.
 */
export class ReviewRepository {
  constructor(private readonly db: PrismaClient) {}

  async lockIntent(tx: Tx, id: string): Promise<DepositIntent | null> {
    return (await lockRow(tx, 'deposit_intents', id)) ? tx.depositIntent.findUnique({ where: { id } }) : null;
  }

  /** Locks the intents whose reference numbers are given (a transfer description may name several). */
  async lockIntentsByReference(tx: Tx, referenceNos: string[]): Promise<DepositIntent[]> {
    if (referenceNos.length === 0) return [];
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM deposit_intents WHERE reference_no = ANY(${referenceNos}::text[]) ORDER BY id FOR UPDATE`;
    return locked.length === 0 ? [] : tx.depositIntent.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
  }

  /** The intent's conditional write (see {@link updateFrom}). */
  updateIntent(tx: Tx, id: string, from: DepositStatus, data: Prisma.DepositIntentUpdateManyMutationInput): Promise<DepositIntent | null> {
    return updateFrom((args) => tx.depositIntent.update(args), id, from, data);
  }

  async lockWithdrawal(tx: Tx, id: string): Promise<Withdrawal | null> {
    return (await lockRow(tx, 'withdrawals', id)) ? tx.withdrawal.findUnique({ where: { id } }) : null;
  }

  /** The withdrawal's conditional write (see {@link updateFrom}). */
  updateWithdrawal(tx: Tx, id: string, from: WithdrawalStatus, data: Prisma.WithdrawalUpdateManyMutationInput): Promise<Withdrawal | null> {
    return updateFrom((args) => tx.withdrawal.update(args), id, from, data);
  }

  findIntent(id: string): Promise<DepositIntent | null> {
    return this.db.depositIntent.findUnique({ where: { id } });
  }

  findWithdrawal(id: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findUnique({ where: { id } });
  }

  /** Deposits across sites (or one), in the window's order; the amount range is on the requested amount. */
  listIntents(filter: ReviewListFilter<DepositStatus>, window: ListWindow): Promise<DepositIntent[]> {
    return this.db.depositIntent.findMany(keysetPage({ ...reviewWhere(filter), ...amountWhere('requestedAmount', filter) }, window));
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

  listWithdrawals(filter: ReviewListFilter<WithdrawalStatus>, window: ListWindow): Promise<Withdrawal[]> {
    return this.db.withdrawal.findMany(keysetPage({ ...reviewWhere(filter), ...amountWhere('amount', filter) }, window));
  }
}

/** Filters of the deposit and withdrawal lists (reference normalized by the caller; amounts in kuruş, inclusive). */
export interface ReviewListFilter<Status> {
  siteId?: string;
  statuses?: Status[];
  referenceNo?: string;
  externalUserId?: string;
  amountMin?: bigint;
  amountMax?: bigint;
}

function reviewWhere<Status>(filter: ReviewListFilter<Status>) {
  return {
    ...(filter.siteId ? { siteId: filter.siteId } : {}),
    ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
    ...(filter.referenceNo ? { referenceNo: filter.referenceNo } : {}),
    ...(filter.externalUserId ? { externalUserId: filter.externalUserId } : {}),
  };
}

function amountWhere<Field extends string>(field: Field, { amountMin, amountMax }: { amountMin?: bigint; amountMax?: bigint }) {
  if (amountMin === undefined && amountMax === undefined) return {};
  return {
    [field]: { ...(amountMin !== undefined ? { gte: amountMin } : {}), ...(amountMax !== undefined ? { lte: amountMax } : {}) },
  } as Record<Field, { gte?: bigint; lte?: bigint }>;
}

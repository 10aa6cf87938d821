import { Prisma, type BalanceAdjustment, type BalanceAdjustmentStatus, type PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockAndRead, updateAndRead } from '../shared/row-lock.repository.js';
import { siteScopeWhere, type SiteScope } from '../shared/site-scope.js';
import type { LiveRecords, QueueHead } from '../desk/desk.repository.js';

type Tx = Prisma.TransactionClient;

/** A proposal as the use case hands it over: the rest (status, timestamps) are the table's defaults. */
export type NewBalanceAdjustment = Pick<
  BalanceAdjustment,
  'siteId' | 'referenceNo' | 'direction' | 'amount' | 'reason' | 'proposedByOperatorId' | 'proposedByEmail'
>;

/**
 * Row access for balance adjustments: the proposal's insert, and for the review the lock, the decision read on the
 * locked row and one UPDATE conditional on its status; the operators' list and the operator-scope guard's question.
 */
export class BalanceAdjustmentRepository {
  constructor(private readonly db: PrismaClient) {}

  /** Inserts a proposal in the caller's transaction (a reference drawn twice fails its unique index: the caller retries). */
  create(tx: Tx, adjustment: NewBalanceAdjustment): Promise<BalanceAdjustment> {
    return tx.balanceAdjustment.create({ data: adjustment });
  }

  /** A proposal still waiting with the same site, direction, amount and reason (a form sent twice), or null. */
  findWaitingTwin(tx: Tx, adjustment: Pick<BalanceAdjustment, 'siteId' | 'direction' | 'amount' | 'reason'>) {
    return tx.balanceAdjustment.findFirst({
      where: { ...adjustment, status: 'PENDING_REVIEW' },
      select: { referenceNo: true, proposedByEmail: true, proposedByOperatorId: true },
    });
  }

  /** Locks the adjustment and reads it, in one statement. */
  lock(tx: Tx, id: string): Promise<BalanceAdjustment | null> {
    return lockAndRead<BalanceAdjustment>(tx, 'balance_adjustments', Prisma.BalanceAdjustmentScalarFieldEnum, ENUMS, id);
  }

  /** The adjustment's conditional write, in one statement returning the row (see {@link updateAndRead}). */
  update(
    tx: Tx,
    id: string,
    from: BalanceAdjustmentStatus,
    data: Prisma.BalanceAdjustmentUpdateManyMutationInput,
  ): Promise<BalanceAdjustment | null> {
    return updateAndRead<BalanceAdjustment>(tx, 'balance_adjustments', Prisma.BalanceAdjustmentScalarFieldEnum, ENUMS, [], id, from, data);
  }

  find(id: string): Promise<BalanceAdjustment | null> {
    return this.db.balanceAdjustment.findUnique({ where: { id } });
  }

  /** The site the adjustment belongs to, for the operator-scope guard; null when there is no such adjustment. */
  async siteOfRecord(id: string): Promise<string | null> {
    return (await this.db.balanceAdjustment.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
  }

  /** Adjustments across sites (or one), in the window's order; `db`: the ops list's transaction (its statement timeout). */
  list(
    filter: { statuses?: BalanceAdjustmentStatus[]; siteId?: string; referenceNo?: string },
    window: ListWindow,
    scope: SiteScope,
    db: PrismaClient | Tx = this.db,
  ): Promise<BalanceAdjustment[]> {
    return db.balanceAdjustment.findMany(
      keysetPage(
        {
          ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
          ...(filter.siteId ? { siteId: filter.siteId } : {}),
          ...(filter.referenceNo ? { referenceNo: filter.referenceNo } : {}),
          ...siteScopeWhere(scope),
        },
        window,
      ),
    );
  }

  /**
   * The desk's queue of adjustments in `status` among `live` (the desk's live sites of the operator's scope): how many,
   * and the one proposed first, which has waited longest for its second admin. `db`: the dashboard's transaction.
   */
  async queueHead(status: BalanceAdjustmentStatus, live: LiveRecords, db: PrismaClient | Tx = this.db): Promise<QueueHead> {
    const where = { status, ...live };
    const count = await db.balanceAdjustment.count({ where });
    const oldest = await db.balanceAdjustment.findFirst({ where, orderBy: [{ createdAt: 'asc' }], select: { id: true, createdAt: true } });
    return { count, oldestAt: oldest?.createdAt ?? null, oldestId: oldest?.id ?? null };
  }
}

/** The enum columns, read as text by the raw lock and write. */
const ENUMS = ['status', 'direction'];

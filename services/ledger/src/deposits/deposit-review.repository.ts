import { Prisma, type Deposit, type DepositStatus, type PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { columnsOf, lockAndRead, updateAndRead } from '../shared/row-lock.repository.js';
import { amountWhere, reviewWhere, type ReviewListFilter } from '../site-records/review-filters.js';
import { siteScopeWhere, type SiteScope } from '../shared/site-scope.js';

type Tx = Prisma.TransactionClient;
type Db = PrismaClient | Tx;

/**
 * Row access for the intents' transitions and the operators' lists. A transition locks its intent
 * (`SELECT ... FOR UPDATE`), decides from the locked status, then writes with one UPDATE conditional on that
 * status: concurrent actions on one intent queue on the lock and every one after the first sees the new status.
 */
export class DepositReviewRepository {
  constructor(private readonly db: PrismaClient) {}

  /** Locks the intent and reads it, in one statement. */
  lockDeposit(tx: Tx, id: string): Promise<Deposit | null> {
    return lockAndRead<Deposit>(tx, 'deposit_intents', Prisma.DepositScalarFieldEnum, ['status'], id);
  }

  /** Locks the intents with these ids, in id order (a batch of transitions); by id. */
  async lockDeposits(tx: Tx, ids: readonly string[]): Promise<Map<string, Deposit>> {
    if (ids.length === 0) return new Map();
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM deposit_intents WHERE id = ANY(${[...ids]}::uuid[]) ORDER BY id FOR UPDATE`;
    if (locked.length === 0) return new Map();
    const rows = await tx.deposit.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Locks the intents whose reference numbers are given (a transfer description may name several). */
  async lockDepositsByReference(tx: Tx, referenceNos: string[], livemode = true): Promise<Deposit[]> {
    if (referenceNos.length === 0) return [];
    // Real money pays live deposits only, and the sandbox's simulated money test deposits only (docs/sandbox.md).
    // Locked and read in one statement: the rows read are the versions locked.
    return tx.$queryRaw<Deposit[]>`
      SELECT ${columnsOf(Prisma.DepositScalarFieldEnum, ['status'], 'd')} FROM deposit_intents d JOIN sites s ON s.id = d.site_id
      WHERE d.reference_no = ANY(${referenceNos}::text[]) AND s.livemode = ${livemode}
      ORDER BY d.id FOR UPDATE OF d`;
  }

  /**
   * The sandbox's "expire now": a RESERVED intent's expiry moved to `at`, so the expiry transition takes it at once.
   * False when it is not RESERVED (paid, decided or already cancelled).
   */
  async expireAt(id: string, at: Date): Promise<boolean> {
    const { count } = await this.db.deposit.updateMany({
      where: { id, status: 'RESERVED' },
      data: { expiresAt: at, updatedAt: new Date() },
    });
    return count === 1;
  }

  /** Whether the deposit's site is live (false: a sandbox's test deposit). */
  async isLive(tx: Tx, deposit: { siteId: string }): Promise<boolean> {
    const site = await tx.site.findUnique({ where: { id: deposit.siteId }, select: { livemode: true } });
    return site?.livemode ?? true;
  }

  /** The deposits with these references, read without a lock (a suggestion moves nothing). */
  findDepositsByReference(tx: Tx, referenceNos: string[], livemode = true): Promise<Deposit[]> {
    if (referenceNos.length === 0) return Promise.resolve([]);
    return tx.$queryRaw<Deposit[]>`
      SELECT ${columnsOf(Prisma.DepositScalarFieldEnum, ['status'], 'd')} FROM deposit_intents d JOIN sites s ON s.id = d.site_id
      WHERE d.reference_no = ANY(${referenceNos}::text[]) AND s.livemode = ${livemode}`;
  }

  /** The intent's conditional write, in one statement returning the row (see {@link updateAndRead}). */
  updateDeposit(tx: Tx, id: string, from: DepositStatus, data: Prisma.DepositUpdateManyMutationInput): Promise<Deposit | null> {
    return updateAndRead<Deposit>(tx, 'deposit_intents', Prisma.DepositScalarFieldEnum, ['status'], [], id, from, data);
  }

  /**
   * Adds `amount` to an APPROVED deposit's set-aside remainder (money it holds that was neither credited nor returned),
   * with `reason` as the latest why; the caller holds the deposit locked. False when the deposit is not APPROVED.
   */
  async setRemainderAside(tx: Tx, id: string, amount: bigint, reason: string): Promise<boolean> {
    const written = await tx.$executeRaw`
      UPDATE deposit_intents SET remainder_set_aside = COALESCE(remainder_set_aside, 0) + ${amount},
        remainder_set_aside_reason = LEFT(${reason}, 500), remainder_set_aside_at = now(), updated_at = now()
      WHERE id = ${id}::uuid AND status = 'APPROVED'`;
    return written === 1;
  }

  /**
   * Writes the money that arrived to intents this transaction holds locked, in one statement: each row's status,
   * received amount and queue times, conditional on the status it was locked in (see {@link updateDeposit}).
   * Returns how many were written.
   */
  async writeArrivals(tx: Tx, rows: ReadonlyArray<{ from: DepositStatus; to: Deposit }>): Promise<number> {
    if (rows.length === 0) return 0;
    const iso = (date: Date | null) => date?.toISOString() ?? null;
    return tx.$executeRaw`
      UPDATE deposit_intents d SET status = u.status::"DepositStatus", received_amount = u.received_amount, cancelled_at = u.cancelled_at,
        awaiting_review_since = u.awaiting_review_since, waiting_for_rest_since = u.waiting_for_rest_since, updated_at = u.updated_at
      FROM unnest(${rows.map((r) => r.to.id)}::uuid[], ${rows.map((r) => r.from)}::text[], ${rows.map((r) => r.to.status)}::text[],
        ${rows.map((r) => r.to.receivedAmount?.toString() ?? null)}::bigint[], ${rows.map((r) => iso(r.to.cancelledAt))}::timestamptz[],
        ${rows.map((r) => iso(r.to.awaitingReviewSince))}::timestamptz[], ${rows.map((r) => iso(r.to.waitingForRestSince))}::timestamptz[],
        ${rows.map((r) => r.to.updatedAt.toISOString())}::timestamptz[])
        AS u(id, from_status, status, received_amount, cancelled_at, awaiting_review_since, waiting_for_rest_since, updated_at)
      WHERE d.id = u.id AND d.status = u.from_status::"DepositStatus"`;
  }

  /**
   * Approves intents this transaction holds locked, in one statement: status, credited amount and approval time,
   * each conditional on the status it was locked in (see {@link updateDeposit}). Returns the rows written, by id.
   */
  async approveDeposits(
    tx: Tx,
    rows: ReadonlyArray<{ id: string; from: DepositStatus; to: DepositStatus; amount: bigint; approvedAt: Date }>,
  ): Promise<Map<string, Deposit>> {
    if (rows.length === 0) return new Map();
    const written = await tx.$queryRaw<Array<{ id: string }>>`
      UPDATE deposit_intents d SET status = u.status::"DepositStatus", amount = u.amount, approved_at = u.approved_at, updated_at = now()
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.from)}::text[], ${rows.map((r) => r.to)}::text[],
        ${rows.map((r) => r.amount.toString())}::bigint[], ${rows.map((r) => r.approvedAt.toISOString())}::timestamptz[])
        AS u(id, from_status, status, amount, approved_at)
      WHERE d.id = u.id AND d.status = u.from_status::"DepositStatus"
      RETURNING d.id::text`;
    if (written.length === 0) return new Map();
    const updated = await tx.deposit.findMany({ where: { id: { in: written.map((row) => row.id) } } });
    return new Map(updated.map((row) => [row.id, row]));
  }

  /** The intent's status, read in the caller's transaction without a lock; null when there is no such intent. */
  async statusOf(tx: Tx, id: string): Promise<DepositStatus | null> {
    return (await tx.deposit.findUnique({ where: { id }, select: { status: true } }))?.status ?? null;
  }

  findDeposit(id: string): Promise<Deposit | null> {
    return this.db.deposit.findUnique({ where: { id } });
  }

  /** The site the intent belongs to, for the operator-scope guard; null when there is no such intent. */
  async siteOfRecord(id: string): Promise<string | null> {
    return (await this.db.deposit.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
  }

  /**
   * Deposits across sites (or one), in the window's order; the amount range is on the requested amount. `waiting`:
   * only the intents waiting for the rest of their money (true) or only the others (false). `db`: the ops list's
   * transaction (its statement timeout).
   */
  listDeposits(
    filter: ReviewListFilter<DepositStatus> & { waiting?: boolean },
    window: ListWindow,
    scope: SiteScope,
    db: Db = this.db,
  ): Promise<Deposit[]> {
    const waiting = filter.waiting === undefined ? {} : { waitingForRestSince: filter.waiting ? { not: null } : null };
    return db.deposit.findMany(
      keysetPage({ ...reviewWhere(filter), ...amountWhere('requestedAmount', filter), ...waiting, ...siteScopeWhere(scope) }, window),
    );
  }

  /** The intents with the sender name of every transfer credited to them, for the sender-name check. */
  async withSenderNames<Row extends { id: string }>(rows: Row[], db: Db = this.db): Promise<Array<Row & { senderNames: string[] }>> {
    if (rows.length === 0) return [];
    const transfers = await db.bankTransfer.findMany({
      where: { intentId: { in: rows.map((row) => row.id) } },
      select: { intentId: true, senderName: true },
    });
    const names = new Map<string, string[]>();
    for (const t of transfers) if (t.intentId) names.set(t.intentId, [...(names.get(t.intentId) ?? []), t.senderName]);
    return rows.map((row) => ({ ...row, senderNames: names.get(row.id) ?? [] }));
  }
}

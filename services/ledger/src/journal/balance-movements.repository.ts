import { Prisma, type PrismaClient } from '@kasa/db';
import type { CursorPosition } from '../shared/cursor.js';

type Tx = Prisma.TransactionClient;

/** One snapshot for a statement's day (read only): its opening balances and its movements agree. */
export const STATEMENT_SNAPSHOT = { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead };

/** One movement of a site's `available` or `reserved` balance: a journal leg with what caused it, as read. */
export interface BalanceMovementRow {
  id: string;
  account: string;
  /** The leg as the journal holds it: a credit (negative) grows a liability such as `site_available`. */
  amount: bigint;
  entityType: string;
  entityId: string;
  createdAt: Date;
  /** The posting's kind read off its legs (BALANCE_TRANSACTION_TYPES); null when its legs match no posting of the chart. */
  type: string | null;
  /** The deposit's, withdrawal's or adjustment's reference; null when the entry names no record of its own site. */
  referenceNo: string | null;
}

/** The balances a partner sees, as journal accounts. */
const PARTNER_ACCOUNTS = ['site_available', 'site_reserved'];

/**
 * The posting a leg belongs to, named from its two legs (accounts.ts, Postings): the only place that reads a journal
 * transaction back into a business event. A leg of any other shape (three legs, an account pair the chart never
 * posts, a deposit posting on the reserved balance) is null, and the journal check names it (`unclassified_movement`).
 */
const MOVEMENT_TYPE = Prisma.sql`
  CASE
    WHEN o.legs <> 1 THEN NULL
    WHEN e.entity_type = 'deposit_intent' AND e.account = 'site_available' AND o.account = 'bank_clearing' AND e.amount < 0
      THEN 'deposit'
    WHEN e.entity_type = 'withdrawal' AND e.account IN ('site_available', 'site_reserved')
      AND o.account IN ('site_available', 'site_reserved') AND o.account <> e.account
      THEN CASE WHEN (e.account = 'site_available') = (e.amount > 0) THEN 'withdrawal_reserved' ELSE 'withdrawal_released' END
    WHEN e.entity_type = 'withdrawal' AND e.account = 'site_reserved' AND o.account = 'payouts_settled' AND e.amount > 0
      THEN 'withdrawal_sent'
    WHEN e.entity_type = 'withdrawal' AND e.account = 'site_available' AND o.account = 'payouts_settled' AND e.amount < 0
      THEN 'withdrawal_returned'
    WHEN e.entity_type = 'balance_adjustment' AND e.account = 'site_available' AND o.account = 'adjustments'
      THEN 'adjustment'
  END`;

/** The reference of the record a movement is about (its deposit, withdrawal or adjustment), from {@link MOVEMENT_JOINS}. */
const MOVEMENT_REFERENCE = Prisma.sql`COALESCE(d.reference_no, w.reference_no, a.reference_no)`;

/** The movements' columns, from `journal_entries e` and the joins of {@link MOVEMENT_JOINS}. */
const MOVEMENT_COLUMNS = Prisma.sql`
  e.id::text AS id, e.account, e.amount, e.entity_type AS "entityType", e.entity_id::text AS "entityId",
  e.created_at AS "createdAt", ${MOVEMENT_TYPE} AS type, ${MOVEMENT_REFERENCE} AS "referenceNo"`;

// The posting's other legs, and the record it is about, only if it is the same site's.
const MOVEMENT_JOINS = Prisma.sql`
  CROSS JOIN LATERAL (
    SELECT MIN(x.account) AS account, COUNT(*) AS legs FROM journal_entries x WHERE x.transaction_id = e.transaction_id AND x.id <> e.id
  ) o
  LEFT JOIN deposit_intents d ON e.entity_type = 'deposit_intent' AND d.id = e.entity_id AND d.site_id = e.site_id
  LEFT JOIN withdrawals w ON e.entity_type = 'withdrawal' AND w.id = e.entity_id AND w.site_id = e.site_id
  LEFT JOIN balance_adjustments a ON e.entity_type = 'balance_adjustment' AND a.id = e.entity_id AND a.site_id = e.site_id`;

/**
 * A site's balance movements, read only for the site it is given: the partner's list and daily statement
 * (balance-statements.use-case.ts) and the journal check's `unclassified_movement`. Every read names `site_id`,
 * and a test key's site is its sandbox twin, so a key never reads another site's or another mode's movements.
 */
export class BalanceMovementRepository {
  constructor(private readonly db: PrismaClient) {}

  /** One newest-first page over (created_at, id), within `[createdFrom, createdTo)` and after the cursor's position. */
  page(
    siteId: string,
    window: { createdFrom?: Date; createdTo?: Date; after?: CursorPosition; limit: number },
  ): Promise<BalanceMovementRow[]> {
    const from = window.createdFrom ? Prisma.sql`AND e.created_at >= ${window.createdFrom}` : Prisma.empty;
    const to = window.createdTo ? Prisma.sql`AND e.created_at < ${window.createdTo}` : Prisma.empty;
    const after = window.after
      ? Prisma.sql`AND (e.created_at, e.id) < (${window.after.createdAt}, ${window.after.id}::uuid)`
      : Prisma.empty;
    return this.db.$queryRaw<BalanceMovementRow[]>`
      SELECT ${MOVEMENT_COLUMNS}
      FROM journal_entries e ${MOVEMENT_JOINS}
      WHERE e.site_id = ${siteId}::uuid AND e.account IN (${Prisma.join(PARTNER_ACCOUNTS)}) ${from} ${to} ${after}
      ORDER BY e.created_at DESC, e.id DESC
      LIMIT ${window.limit}`;
  }

  /**
   * One day of a site's statement, in the caller's snapshot ({@link STATEMENT_SNAPSHOT}) so the opening balances and the
   * movements agree: the balances of both accounts before `from`, and every movement in `[from, to)`, oldest first.
   */
  async day(
    tx: Tx,
    siteId: string,
    from: Date,
    to: Date,
  ): Promise<{ livemode: boolean; opening: Partial<Record<string, bigint>>; movements: BalanceMovementRow[] } | null> {
    const site = await tx.site.findUnique({ where: { id: siteId }, select: { livemode: true } });
    if (!site) return null;
    const opening = await tx.$queryRaw<Array<{ account: string; total: bigint }>>`
      SELECT account, SUM(amount)::bigint AS total FROM journal_entries
      WHERE site_id = ${siteId}::uuid AND account IN (${Prisma.join(PARTNER_ACCOUNTS)}) AND created_at < ${from}
      GROUP BY account`;
    const movements = await tx.$queryRaw<BalanceMovementRow[]>`
      SELECT ${MOVEMENT_COLUMNS}
      FROM journal_entries e ${MOVEMENT_JOINS}
      WHERE e.site_id = ${siteId}::uuid AND e.account IN (${Prisma.join(PARTNER_ACCOUNTS)})
        AND e.created_at >= ${from} AND e.created_at < ${to}
      ORDER BY e.created_at, e.id`;
    return { livemode: site.livemode, opening: Object.fromEntries(opening.map((row) => [row.account, row.total])), movements };
  }

  /**
   * Whether a transaction that could still write an entry dated before `until` is open: any transaction of this
   * database (but this session's) that began before it. A posting's `created_at` is taken inside its transaction,
   * so once none is left, no entry dated before `until` can appear any more and the days before it are final.
   */
  async writerOpenSince(until: Date): Promise<boolean> {
    const rows = await this.db.$queryRaw<Array<{ open: boolean }>>`
      SELECT EXISTS (
        SELECT 1 FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND xact_start < ${until}
      ) AS open`;
    return rows[0]?.open ?? true;
  }

  /** Movements of any site whose legs match no posting of the chart, or that name no record of their own site. */
  unclassified(): Promise<
    Array<{ siteId: string; entryId: string; transactionId: string; account: string; entityType: string; entityId: string }>
  > {
    return this.db.$queryRaw`
      SELECT e.site_id::text AS "siteId", e.id::text AS "entryId", e.transaction_id::text AS "transactionId", e.account,
        e.entity_type AS "entityType", e.entity_id::text AS "entityId"
      FROM journal_entries e ${MOVEMENT_JOINS}
      WHERE e.account IN (${Prisma.join(PARTNER_ACCOUNTS)})
        AND (${MOVEMENT_TYPE} IS NULL OR ${MOVEMENT_REFERENCE} IS NULL)
      ORDER BY e.created_at, e.id`;
  }
}

import { Prisma, type PrismaClient } from '@kasa/db';
import { senderReturnScopeWhere, siteScopeWhere, transferScopeWhere, type SiteScope } from '../shared/site-scope.js';
import { returnModeWhere } from '../returns/sender-return.repository.js';

/** The pool, or the dashboard's transaction (its statement timeout). */
export type DeskDb = PrismaClient | Prisma.TransactionClient;
type Db = DeskDb;

/**
 * Which records of a site-owned table a queue counts, spread into its `where`: live sites' only, since sandboxes'
 * records and simulated money are nobody's work (docs/sandbox.md), and a scoped operator's sites' only. The desk
 * applies it to its own queues and hands it to each kind that declares one (review/record-kind.ts, `desk`).
 */
export function liveRecordsWhere(scope: SiteScope) {
  return { site: { livemode: true }, ...siteScopeWhere(scope) };
}
export type LiveRecords = ReturnType<typeof liveRecordsWhere>;

/** One site's webhook deliveries as the operators' desk sees them. */
export interface DeliveryHealthRow {
  siteId: string;
  slug: string;
  name: string;
  webhookUrl: string | null;
  attempts: number;
  succeeded: number;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  /** The first failed attempt after the last success, while the latest attempt failed; null when healthy. */
  failingSince: Date | null;
  lastFailureAt: Date | null;
  lastFailureStatus: number | null;
  lastFailureError: string | null;
  dead: number;
  pending: number;
}

/** How many wait and since when, with the record that has waited longest. */
export interface QueueHead {
  count: number;
  oldestAt: Date | null;
  oldestId: string | null;
}

// An attempt delivered when the partner answered 2xx, exactly as the worker decides (deliver-event.job.ts).
const DELIVERED = Prisma.sql`coalesce(a.status_code BETWEEN 200 AND 299, false)`;

/**
 * The reads behind the dashboard and the partners' delivery health: counts with the oldest item of every
 * queue that needs an operator, and per site its recent delivery attempts. All aggregate queries on
 * indexed columns; nothing here writes.
 */
export class DeskRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Every site's deliveries (of the scope's sites, for a scoped operator): attempts and successes since `since`, the last
   * failure, failing since, DEAD and PENDING now.
   */
  async deliveryHealth(since: Date, scope: SiteScope, siteId?: string, db: Db = this.db): Promise<DeliveryHealthRow[]> {
    const conditions = [
      ...(siteId ? [Prisma.sql`s.id = ${siteId}::uuid`] : []),
      ...(scope ? [Prisma.sql`s.id = ANY(${[...scope]}::uuid[])`] : []),
    ];
    const rows = await db.$queryRaw<Array<Record<string, unknown>>>`
      SELECT s.id::text AS site_id, s.slug, s.name, s.webhook_url,
             coalesce(w.attempts, 0)::int AS attempts, coalesce(w.succeeded, 0)::int AS succeeded,
             latest.started_at AS last_attempt_at, ok.last_success_at,
             CASE WHEN latest.delivered THEN NULL ELSE failing.since END AS failing_since,
             failure.started_at AS last_failure_at, failure.status_code AS last_failure_status, failure.error AS last_failure_error,
             (SELECT count(*) FROM outbox_events e WHERE e.site_id = s.id AND e.status = 'DEAD')::int AS dead,
             (SELECT count(*) FROM outbox_events e WHERE e.site_id = s.id AND e.status = 'PENDING')::int AS pending
      FROM sites s
      LEFT JOIN LATERAL (
        SELECT count(*) AS attempts, count(*) FILTER (WHERE ${DELIVERED}) AS succeeded
        FROM delivery_attempts a JOIN outbox_events e ON e.id = a.event_id
        WHERE e.site_id = s.id AND a.started_at >= ${since}
      ) w ON true
      LEFT JOIN LATERAL (
        SELECT a.started_at, ${DELIVERED} AS delivered
        FROM delivery_attempts a JOIN outbox_events e ON e.id = a.event_id
        WHERE e.site_id = s.id ORDER BY a.started_at DESC LIMIT 1
      ) latest ON true
      LEFT JOIN LATERAL (
        SELECT max(a.started_at) AS last_success_at
        FROM delivery_attempts a JOIN outbox_events e ON e.id = a.event_id
        WHERE e.site_id = s.id AND ${DELIVERED}
      ) ok ON true
      LEFT JOIN LATERAL (
        SELECT min(a.started_at) AS since
        FROM delivery_attempts a JOIN outbox_events e ON e.id = a.event_id
        WHERE e.site_id = s.id AND NOT ${DELIVERED} AND a.started_at > coalesce(ok.last_success_at, '-infinity'::timestamptz)
      ) failing ON true
      LEFT JOIN LATERAL (
        SELECT a.started_at, a.status_code, a.error
        FROM delivery_attempts a JOIN outbox_events e ON e.id = a.event_id
        WHERE e.site_id = s.id AND NOT ${DELIVERED} ORDER BY a.started_at DESC LIMIT 1
      ) failure ON true
      ${conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty}
      ORDER BY s.created_at, s.id`;
    return rows.map((row) => ({
      siteId: row.site_id as string,
      slug: row.slug as string,
      name: row.name as string,
      webhookUrl: row.webhook_url as string | null,
      attempts: row.attempts as number,
      succeeded: row.succeeded as number,
      lastAttemptAt: row.last_attempt_at as Date | null,
      lastSuccessAt: row.last_success_at as Date | null,
      failingSince: row.failing_since as Date | null,
      lastFailureAt: row.last_failure_at as Date | null,
      lastFailureStatus: row.last_failure_status as number | null,
      lastFailureError: row.last_failure_error as string | null,
      dead: row.dead as number,
      pending: row.pending as number,
    }));
  }

  /**
   * The queues written for the first kinds, each with its count and the item that has waited longest (the kinds that
   * declare a queue count it themselves: review/record-kind.ts, `desk`). Sandboxes' records and simulated money are
   * nobody's work: they are left out (docs/sandbox.md). A scoped operator's counts are of its sites' records only;
   * unmatched transfers are the house's, so none of them count. One statement after another: the dashboard reads them
   * in one transaction, one connection, where statements sent at once are not supported.
   */
  async queueHeads(scope: SiteScope, db: Db = this.db) {
    const live = liveRecordsWhere(scope);
    const head = (count: number, oldest: { id: string; at: Date | null } | null): QueueHead => ({
      count,
      oldestAt: oldest?.at ?? null,
      oldestId: oldest?.id ?? null,
    });
    // An intent waiting for the rest of its money is out of the review queues, in a queue of its own.
    const deposits = async (status: 'PENDING_REVIEW' | 'LATE_ARRIVAL' | 'WAITING') => {
      const where =
        status === 'WAITING'
          ? { status: { in: ['PENDING_REVIEW' as const, 'LATE_ARRIVAL' as const] }, waitingForRestSince: { not: null }, ...live }
          : { status, waitingForRestSince: null, ...live };
      const count = await db.deposit.count({ where });
      const oldest = await db.deposit.findFirst({
        where,
        orderBy: [{ awaitingReviewSince: { sort: 'asc', nulls: 'first' } }, { createdAt: 'asc' }],
        select: { id: true, awaitingReviewSince: true, createdAt: true },
      });
      return head(count, oldest && { id: oldest.id, at: oldest.awaitingReviewSince ?? oldest.createdAt });
    };
    // Withdrawals and returns both wait for review since they were asked for, then to be sent since their approval.
    type Payout = { id: string; createdAt: Date; approvedAt: Date | null } | null;
    const payoutQueue = async (
      status: 'PENDING_REVIEW' | 'APPROVED',
      count: () => Promise<number>,
      oldest: (orderBy: object[]) => Promise<Payout>,
    ) => {
      const total = await count();
      const first = await oldest(status === 'APPROVED' ? [{ approvedAt: 'asc' }, { createdAt: 'asc' }] : [{ createdAt: 'asc' }]);
      return head(total, first && { id: first.id, at: status === 'APPROVED' ? (first.approvedAt ?? first.createdAt) : first.createdAt });
    };
    const payoutFields = { id: true, createdAt: true, approvedAt: true } as const;
    const withdrawals = (status: 'PENDING_REVIEW' | 'APPROVED') =>
      payoutQueue(
        status,
        () => db.withdrawal.count({ where: { status, ...live } }),
        (orderBy) =>
          db.withdrawal.findFirst({
            where: { status, ...live },
            orderBy: orderBy,
            select: payoutFields,
          }),
      );
    // Returns of simulated money are the simulator's (played out at once), never an operator's.
    const liveReturns = { ...returnModeWhere('live'), ...senderReturnScopeWhere(scope) };
    const returns = (status: 'PENDING_REVIEW' | 'APPROVED') =>
      payoutQueue(
        status,
        () => db.senderReturn.count({ where: { status, ...liveReturns } }),
        (orderBy) =>
          db.senderReturn.findFirst({
            where: { status, ...liveReturns },
            orderBy: orderBy,
            select: payoutFields,
          }),
      );
    const unmatchedWhere = { status: 'UNMATCHED' as const, livemode: true, ...transferScopeWhere(scope) };
    const unmatchedCount = await db.bankTransfer.count({ where: unmatchedWhere });
    const unmatched = await db.bankTransfer.findFirst({
      where: unmatchedWhere,
      orderBy: [{ createdAt: 'asc' }],
      select: { id: true, createdAt: true },
    });
    // Hand entries the bank's own line disagreed with (bank-transfers/hand-entries.ts): house-wide, like unmatched money.
    const differenceWhere = { handEntry: true, bankLineDifference: { not: Prisma.AnyNull }, ...transferScopeWhere(scope) };
    const differenceCount = await db.bankTransfer.count({ where: differenceWhere });
    const difference = await db.bankTransfer.findFirst({
      where: differenceWhere,
      orderBy: [{ createdAt: 'asc' }],
      select: { id: true, createdAt: true },
    });
    const deadCount = await db.outboxEvent.count({ where: { status: 'DEAD', ...live } });
    const dead = await db.outboxEvent.findFirst({
      where: { status: 'DEAD', ...live },
      orderBy: [{ deadAt: 'asc' }, { createdAt: 'asc' }],
      select: { id: true, deadAt: true, createdAt: true },
    });
    return {
      depositsToReview: await deposits('PENDING_REVIEW'),
      lateArrivals: await deposits('LATE_ARRIVAL'),
      waitingForRest: await deposits('WAITING'),
      unmatchedTransfers: head(unmatchedCount, unmatched && { id: unmatched.id, at: unmatched.createdAt }),
      bankLineDifferences: head(differenceCount, difference && { id: difference.id, at: difference.createdAt }),
      withdrawalsToReview: await withdrawals('PENDING_REVIEW'),
      withdrawalsToSend: await withdrawals('APPROVED'),
      deadEvents: head(deadCount, dead && { id: dead.id, at: dead.deadAt ?? dead.createdAt }),
      returnsToReview: await returns('PENDING_REVIEW'),
      returnsToSend: await returns('APPROVED'),
    };
  }

  /**
   * Events the webhook auto-replay replayed since `since` (its `EVENT.REPLAYED` audit entries by the SYSTEM rule
   * `actorId`), with the first of them and its site.
   */
  async autoReplayed(since: Date, actorId: string, scope: SiteScope, db: Db = this.db): Promise<QueueHead> {
    const where = { action: 'EVENT.REPLAYED', actorType: 'SYSTEM' as const, actorId, createdAt: { gte: since }, ...siteScopeWhere(scope) };
    const count = await db.auditLog.count({ where });
    const first = await db.auditLog.findFirst({ where, orderBy: [{ createdAt: 'asc' }], select: { siteId: true, createdAt: true } });
    return { count, oldestAt: first?.createdAt ?? null, oldestId: first?.siteId ?? null };
  }
}

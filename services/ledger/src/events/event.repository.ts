import type { DeliveryAttempt, EventStatus, OutboxEvent, Prisma, PrismaClient } from '@kasa/db';
import type { CursorPosition } from '../shared/cursor.js';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { siteScopeWhere, type SiteScope } from '../shared/site-scope.js';

/** The audit action that opens a new delivery cycle; counting them gives an event's current cycle. */
export const EVENT_REPLAYED = 'EVENT.REPLAYED';

export type EventRow = Pick<
  OutboxEvent,
  'id' | 'siteId' | 'type' | 'status' | 'payload' | 'attemptCount' | 'lastAttemptAt' | 'deliveredAt' | 'deadAt' | 'createdAt'
>;
export type AttemptRow = Pick<DeliveryAttempt, 'attemptNo' | 'url' | 'startedAt' | 'durationMs' | 'statusCode' | 'error' | 'responseBody'>;
export type EventWithAttempts = EventRow & { attempts: AttemptRow[] };

/** The columns an event view needs (never its request id). */
export const EVENT_FIELDS = {
  id: true,
  siteId: true,
  type: true,
  status: true,
  payload: true,
  attemptCount: true,
  lastAttemptAt: true,
  deliveredAt: true,
  deadAt: true,
  createdAt: true,
} as const;

const ATTEMPT_FIELDS = {
  attemptNo: true,
  url: true,
  startedAt: true,
  durationMs: true,
  statusCode: true,
  error: true,
  responseBody: true,
} as const;

/** The partner's end user a deposit or withdrawal is for. */
export interface EventUser {
  externalUserId: string;
  externalUserLabel: string | null;
}

/** Filters of an event list; `siteId` undefined lists every site (ops only). */
export interface EventFilter {
  siteId?: string;
  /** An operator's scope (shared/site-scope.ts): only these sites' events; null or absent: every site. */
  scope?: SiteScope;
  statuses?: EventStatus[];
  types?: string[];
}

type Db = PrismaClient | Prisma.TransactionClient;

/** Reads of the delivery ledger (outbox events and their attempts) and the relay's queries. */
export class EventRepository {
  constructor(private readonly db: PrismaClient) {}

  /** A page of events; `db`: the ops list's transaction (its statement timeout), the pool for the partner's list. */
  list(filter: EventFilter, window: ListWindow, db: Db = this.db): Promise<EventRow[]> {
    const where = {
      ...(filter.siteId ? { siteId: filter.siteId } : {}),
      ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
      ...(filter.types ? { type: { in: filter.types } } : {}),
      ...siteScopeWhere(filter.scope ?? null),
    };
    return db.outboxEvent.findMany({ ...keysetPage(where, window), select: EVENT_FIELDS });
  }

  /** The event with its attempts, oldest attempt first; `siteId` scopes the read (another site's is null). */
  find(eventId: string, siteId?: string, db: Db = this.db): Promise<EventWithAttempts | null> {
    return db.outboxEvent.findFirst({
      where: { id: eventId, ...(siteId ? { siteId } : {}) },
      select: { ...EVENT_FIELDS, attempts: { select: ATTEMPT_FIELDS, orderBy: { attemptNo: 'asc' } } },
    });
  }

  /** The site the event belongs to, for the operator-scope guard; null when there is no such event. */
  async siteOfRecord(id: string): Promise<string | null> {
    return (await this.db.outboxEvent.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
  }

  /** Puts a DELIVERED or DEAD event back to PENDING for a new delivery cycle; false when it is still being delivered. */
  async reopen(tx: Prisma.TransactionClient, eventId: string): Promise<boolean> {
    const updated = await tx.outboxEvent.updateMany({
      where: { id: eventId, status: { in: ['DELIVERED', 'DEAD'] } },
      data: { status: 'PENDING', enqueuedAt: null, deadAt: null },
    });
    return updated.count === 1;
  }

  /** The current delivery cycle of each event: how many times it has been replayed. */
  async cycles(eventIds: string[], db: Db = this.db): Promise<Map<string, number>> {
    const cycles = new Map(eventIds.map((id) => [id, 0]));
    if (eventIds.length === 0) return cycles;
    const counts = await db.auditLog.groupBy({
      by: ['entityId'],
      where: { action: EVENT_REPLAYED, entityType: 'outbox_event', entityId: { in: eventIds } },
      _count: { _all: true },
    });
    for (const row of counts) cycles.set(row.entityId, row._count._all);
    return cycles;
  }

  /**
   * When each PENDING event was last replayed (the start of its current delivery cycle; none when never
   * replayed), for its `nextAttemptAt`. DELIVERED and DEAD events need no lookup: they have no next attempt.
   */
  async replayTimes(rows: ReadonlyArray<Pick<EventRow, 'id' | 'status'>>, db: Db = this.db): Promise<Map<string, Date>> {
    const ids = rows.filter((row) => row.status === 'PENDING').map((row) => row.id);
    if (ids.length === 0) return new Map();
    const latest = await db.auditLog.groupBy({
      by: ['entityId'],
      where: { action: EVENT_REPLAYED, entityType: 'outbox_event', entityId: { in: ids } },
      _max: { createdAt: true },
    });
    return new Map(latest.flatMap((row) => (row._max.createdAt ? [[row.entityId, row._max.createdAt] as const] : [])));
  }

  /**
   * Puts the site's oldest `limit` DEAD events created in `[since, until)` (after `after`, a scan position) back
   * to PENDING for a new delivery cycle, in one statement, and answers them oldest first. The rows are locked in
   * that order before the update, so two replays of one site wait on each other rather than deadlock, and an
   * event that stopped being DEAD meanwhile (replayed by someone else) is skipped: each is reopened once.
   */
  async reopenDead(
    tx: Prisma.TransactionClient,
    siteId: string,
    window: { since: Date; until: Date; after?: CursorPosition },
    limit: number,
  ): Promise<Array<{ id: string; createdAt: Date }>> {
    const { since, until, after } = window;
    const afterCreatedAt = after?.createdAt ?? null;
    const afterId = after?.id ?? null;
    const rows = await tx.$queryRaw<Array<{ id: string; created_at: Date }>>`
      WITH picked AS (
        SELECT id FROM outbox_events
        WHERE site_id = ${siteId}::uuid AND status = 'DEAD' AND created_at >= ${since} AND created_at < ${until}
          AND (${afterCreatedAt}::timestamptz IS NULL
            OR (created_at, id) > (${afterCreatedAt}::timestamptz, ${afterId}::uuid))
        ORDER BY created_at, id
        LIMIT ${limit}
        FOR UPDATE
      )
      UPDATE outbox_events e
      SET status = 'PENDING', enqueued_at = NULL, dead_at = NULL, updated_at = ${new Date()}
      FROM picked
      WHERE e.id = picked.id AND e.status = 'DEAD'
      RETURNING e.id, e.created_at`;
    return rows
      .map((row) => ({ id: row.id, createdAt: row.created_at }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Where each of these events' delivery stands: its status and its latest attempt's start. */
  deliveryProgress(eventIds: string[]): Promise<Array<{ id: string; status: EventStatus; lastAttemptAt: Date | null }>> {
    return this.db.outboxEvent.findMany({
      where: { id: { in: eventIds } },
      select: { id: true, status: true, lastAttemptAt: true },
    });
  }

  /** PENDING events nobody enqueued (a crash or a Redis outage after commit), oldest first, with the request that wrote them. */
  unenqueued(changedBefore: Date, limit: number): Promise<Array<{ id: string; requestId: string | null }>> {
    return this.db.outboxEvent.findMany({
      where: { status: 'PENDING', enqueuedAt: null, updatedAt: { lt: changedBefore } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { id: true, requestId: true },
    });
  }

  /** PENDING events enqueued before `enqueuedBefore`, oldest first, after `after` (a scan position). */
  pendingEnqueuedBefore(
    enqueuedBefore: Date,
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<Array<{ id: string; createdAt: Date; requestId: string | null }>> {
    return this.db.outboxEvent.findMany({
      where: {
        status: 'PENDING',
        enqueuedAt: { lt: enqueuedBefore },
        ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { id: true, createdAt: true, requestId: true },
    });
  }

  /**
   * The outbox backlog for the metrics: PENDING events not handed to the queue yet, and since when the
   * oldest of them has waited (`updated_at`: written, or reopened by a replay). Served by the
   * `(enqueued_at, created_at)` index: only the NULL end of it is read.
   */
  async outboxBacklog(): Promise<{ count: number; oldestSince: Date | null }> {
    const result = await this.db.outboxEvent.aggregate({
      where: { status: 'PENDING', enqueuedAt: null },
      _count: { _all: true },
      _min: { updatedAt: true },
    });
    return { count: result._count._all, oldestSince: result._min.updatedAt };
  }

  /** How many events are DEAD (every attempt failed, not replayed since); the `(status, created_at)` index counts them. */
  deadCount(): Promise<number> {
    return this.db.outboxEvent.count({ where: { status: 'DEAD' } });
  }

  /**
   * The end users of the deposits (`intentIds`) and withdrawals (`withdrawalIds`) that events report on, by record id:
   * the webhook's data does not carry them, the operators' event views do.
   */
  async usersOf(intentIds: string[], withdrawalIds: string[], db: Db = this.db): Promise<Map<string, EventUser>> {
    const select = { id: true, externalUserId: true, externalUserLabel: true } as const;
    // One after the other: on a list's transaction, its one connection takes one statement at a time.
    const deposits = intentIds.length > 0 ? await db.deposit.findMany({ where: { id: { in: intentIds } }, select }) : [];
    const withdrawals = withdrawalIds.length > 0 ? await db.withdrawal.findMany({ where: { id: { in: withdrawalIds } }, select }) : [];
    return new Map(
      [...deposits, ...withdrawals].map((row) => [
        row.id,
        { externalUserId: row.externalUserId, externalUserLabel: row.externalUserLabel },
      ]),
    );
  }

  /** Which of `eventIds` are still PENDING right now. */
  async stillPending(eventIds: string[]): Promise<string[]> {
    if (eventIds.length === 0) return [];
    const rows = await this.db.outboxEvent.findMany({ where: { id: { in: eventIds }, status: 'PENDING' }, select: { id: true } });
    return rows.map((row) => row.id);
  }
}

import type { Prisma, PrismaClient } from '@kasa/db';
import { toDepositRecord } from '../deposits/deposit.views.js';
import { sitesReceiving, writeEventsIfSubscribed, type WrittenOutboxEvent } from '../outbox/outbox.repository.js';
import type { Clock } from '../shared/clock.js';

export interface CancelledDeposit {
  id: string;
  siteId: string;
}

/** What a cancellation committed: the intents cancelled and the `intent.auto_cancelled` events written for them. */
export interface Cancellation {
  cancelled: CancelledDeposit[];
  events: WrittenOutboxEvent[];
}

const SYSTEM_ACTOR_ID = 'deposit-expiry';

/**
 * The expiry transition RESERVED -> AUTO_CANCELLED. Both paths are one conditional UPDATE (still RESERVED,
 * past `expiresAt` by the ledger's clock, no money recorded) with its audit rows in the same statement's
 * transaction, so a job that runs twice, or a job and the sweeper together, cancel an intent once. The
 * cut-off is the clock's now, passed as a parameter (also written as `cancelled_at`), never the database's
 * `now()`: the ledger decides by one clock, which a test can move (docs/adr/0016-ledger-clock.md).
 */
export class ExpiryRepository {
  constructor(
    private readonly db: PrismaClient,
    private readonly clock: Clock,
  ) {}

  /** The cut-off as an unambiguous instant (UTC, whatever the session's time zone). */
  private cutOff(): string {
    return this.clock.now().toISOString();
  }

  /** Cancels one intent if it is due; nothing is cancelled when it is not (paid, decided, not yet expired, or missing). */
  cancelIfDue(intentId: string): Promise<Cancellation> {
    const now = this.cutOff();
    return this.db.$transaction(async (tx) => {
      const cancelled = await tx.$queryRaw<CancelledDeposit[]>`
        UPDATE deposit_intents SET status = 'AUTO_CANCELLED', cancelled_at = ${now}::timestamptz, updated_at = now()
        WHERE id = ${intentId}::uuid AND status = 'RESERVED' AND expires_at <= ${now}::timestamptz AND received_amount IS NULL
        RETURNING id::text AS id, site_id::text AS "siteId"`;
      await this.audit(tx, cancelled, 'job');
      return { cancelled, events: await this.announce(tx, cancelled) };
    });
  }

  /**
   * Cancels up to `batch` due intents. SKIP LOCKED lets the sweeper pass over an intent a transfer or a
   * job is handling right now; the next sweep (or that job) takes it if it is still due.
   */
  async cancelDueBatch(batch: number): Promise<Cancellation> {
    const now = this.cutOff();
    return this.db.$transaction(async (tx) => {
      const cancelled = await tx.$queryRaw<CancelledDeposit[]>`
        UPDATE deposit_intents SET status = 'AUTO_CANCELLED', cancelled_at = ${now}::timestamptz, updated_at = now()
        WHERE id IN (
          SELECT id FROM deposit_intents
          WHERE status = 'RESERVED' AND expires_at <= ${now}::timestamptz AND received_amount IS NULL
          ORDER BY expires_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)
          AND status = 'RESERVED'
        RETURNING id::text AS id, site_id::text AS "siteId"`;
      await this.audit(tx, cancelled, 'sweep');
      return { cancelled, events: await this.announce(tx, cancelled) };
    });
  }

  /**
   * Writes `intent.auto_cancelled` for the cancelled intents of sites that chose it, in the cancellation's
   * transaction (docs/webhooks.md, Choose your events); only those intents are read back for the payload.
   */
  private async announce(tx: Prisma.TransactionClient, cancelled: CancelledDeposit[]): Promise<WrittenOutboxEvent[]> {
    const receiving = await sitesReceiving(
      tx,
      cancelled.map((deposit) => deposit.siteId),
      'intent.auto_cancelled',
    );
    const ids = cancelled.filter((deposit) => receiving.has(deposit.siteId)).map((deposit) => deposit.id);
    if (ids.length === 0) return [];
    const rows = await tx.deposit.findMany({ where: { id: { in: ids } } });
    return writeEventsIfSubscribed(
      tx,
      rows.map((row) => ({
        siteId: row.siteId,
        type: 'intent.auto_cancelled' as const,
        entityId: row.id,
        data: toDepositRecord(row),
        requestId: null,
      })),
    );
  }

  private async audit(tx: Prisma.TransactionClient, cancelled: CancelledDeposit[], via: 'job' | 'sweep') {
    if (cancelled.length === 0) return;
    await tx.auditLog.createMany({
      data: cancelled.map((deposit) => ({
        actorType: 'SYSTEM' as const,
        actorId: SYSTEM_ACTOR_ID,
        action: 'INTENT.AUTO_CANCELLED',
        entityType: 'deposit_intent',
        entityId: deposit.id,
        siteId: deposit.siteId,
        metadata: { from: 'RESERVED', to: 'AUTO_CANCELLED', via },
      })),
    });
  }

  /**
   * The `expiresAt` of the longest-overdue intent the sweep has not cancelled yet (RESERVED, past its expiry
   * by the ledger's clock, no money recorded), or null when none is due: the sweep's lag is now minus this.
   * One read of the `(status, expires_at)` index.
   */
  async oldestDue(): Promise<Date | null> {
    const result = await this.db.deposit.aggregate({
      where: { status: 'RESERVED', expiresAt: { lte: this.clock.now() }, receivedAmount: null },
      _min: { expiresAt: true },
    });
    return result._min.expiresAt;
  }

  /** RESERVED intents with no job behind them after a Redis loss are found by the sweeper; this counts them. */
  countDue(): Promise<number> {
    return this.db.deposit.count({ where: { status: 'RESERVED', expiresAt: { lte: this.clock.now() }, receivedAmount: null } });
  }
}

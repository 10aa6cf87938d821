import type { Queue } from 'bullmq';
import { repeatLimited, type Logger, type RepeatLimitedLog } from '@kasa/logger';
import { deliveryJobId, type DeliverEventJob } from '@kasa/queue';
import type { CursorPosition } from '../shared/cursor.js';
import { RepeatingPass } from '../shared/repeating-pass.js';
import type { OutboxPublisher } from './outbox.publisher.js';

export interface OutboxRelayOptions {
  intervalMs: number;
  /** Un-enqueued rows younger than this are left to the publisher that is about to enqueue them. */
  graceMs: number;
  /** PENDING rows enqueued longer ago than this are checked for a job that Redis lost. */
  lostJobAfterMs: number;
  /** Rows looked at per pass and per kind; keeps every pass short. */
  batchSize?: number;
}

/**
 * The outbox rows the relay reads (the event repository, events/): the relay sits below the event log, which replays
 * through the outbox, so it names only what it calls.
 */
export interface RelayRows {
  /** PENDING rows never enqueued, unchanged since `changedBefore`, oldest first. */
  unenqueued(changedBefore: Date, limit: number): Promise<Array<{ id: string; requestId: string | null }>>;
  /** PENDING rows enqueued before `enqueuedBefore`, oldest first, after `after` (a scan position). */
  pendingEnqueuedBefore(
    enqueuedBefore: Date,
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<Array<{ id: string; createdAt: Date; requestId: string | null }>>;
  /** Each event's delivery cycle: how many times it was replayed. */
  cycles(eventIds: string[]): Promise<Map<string, number>>;
  /** Those of `eventIds` still PENDING. */
  stillPending(eventIds: string[]): Promise<string[]>;
}

/** What one relay pass did. */
export interface RelayPass {
  enqueued: number;
  requeued: number;
}

/**
 * Makes sure every PENDING event has a queue job, so Redis is never the only copy of an event:
 * 1. rows that were never enqueued (crash between commit and enqueue, Redis down) are enqueued;
 * 2. rows enqueued a while ago whose job is gone (Redis restarted empty, FLUSHALL) or failed without
 *    finishing the event are enqueued again. This scan moves through the PENDING rows a batch per pass
 *    and wraps around, so a long backlog of retries is covered without one pass reading it all.
 * Passes never overlap; a pass that waits on a Redis outage simply finishes when Redis is back.
 */
export class OutboxRelay {
  private readonly loop: RepeatingPass;
  private scanPosition: CursorPosition | undefined;
  private readonly batchSize: number;
  /** A pass that fails the same way every interval (Redis down) is logged at most once per 5 s. */
  private readonly failures: RepeatLimitedLog;

  constructor(
    private readonly events: RelayRows,
    private readonly queue: Queue<DeliverEventJob>,
    private readonly publisher: OutboxPublisher,
    private readonly options: OutboxRelayOptions,
    private readonly logger: Logger,
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.failures = repeatLimited(logger);
    this.loop = new RepeatingPass(
      () => this.runOnce(),
      options.intervalMs,
      (error) => this.failures('warn', 'outbox relay pass failed; retrying next pass', { error }),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the loop and waits (bounded) for a pass in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: enqueue what was never enqueued, then re-enqueue what Redis lost. */
  async runOnce(): Promise<RelayPass> {
    const enqueued = await this.enqueueForgotten();
    const requeued = await this.requeueLost();
    if (enqueued + requeued > 0) this.logger.info('outbox relay enqueued events', { enqueued, requeued });
    return { enqueued, requeued };
  }

  private async enqueueForgotten(): Promise<number> {
    const rows = await this.events.unenqueued(new Date(Date.now() - this.options.graceMs), this.batchSize);
    if (rows.length === 0) return 0;
    const cycles = await this.events.cycles(rows.map((row) => row.id));
    await this.publisher.enqueueNow(
      rows.map(({ id, requestId }) => ({ eventId: id, cycle: cycles.get(id) ?? 0, requestId })),
      'relay',
    );
    return rows.length;
  }

  private async requeueLost(): Promise<number> {
    const rows = await this.events.pendingEnqueuedBefore(
      new Date(Date.now() - this.options.lostJobAfterMs),
      this.scanPosition,
      this.batchSize,
    );
    const last = rows[rows.length - 1];
    this.scanPosition = rows.length < this.batchSize || !last ? undefined : { createdAt: last.createdAt, id: last.id };
    if (rows.length === 0) return 0;
    const cycles = await this.events.cycles(rows.map((row) => row.id));
    const lost: string[] = [];
    await Promise.all(
      rows.map(async ({ id }) => {
        const job = await this.queue.getJob(deliveryJobId(id, cycles.get(id) ?? 0));
        if (!job) {
          lost.push(id);
        } else if (job.finishedOn !== undefined && (await job.isFailed())) {
          // Failed without marking the event DEAD (stalled too often, or the database was away): try anew.
          await job.remove();
          lost.push(id);
        }
      }),
    );
    // Read again after looking at the queue: a job that just finished has already updated its row.
    const stillPending = await this.events.stillPending(lost);
    const requestIds = new Map(rows.map((row) => [row.id, row.requestId]));
    await this.publisher.enqueueNow(
      stillPending.map((eventId) => ({ eventId, cycle: cycles.get(eventId) ?? 0, requestId: requestIds.get(eventId) ?? null })),
      'relay',
    );
    return stillPending.length;
  }
}

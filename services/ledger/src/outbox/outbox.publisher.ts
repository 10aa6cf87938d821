import { markEnqueued } from './outbox.repository.js';
import type { Queue } from 'bullmq';
import type { PrismaClient } from '@kasa/db';
import { repeatLimited, type Logger, type RepeatLimitedLog } from '@kasa/logger';
import { deliveryJobId, deliveryJobOptions, type DeliverEventJob } from '@kasa/queue';

/** One delivery cycle to enqueue: cycle 0 is the first delivery, n the n-th replay. */
export interface CycleJob {
  eventId: string;
  cycle: number;
  /** The request that caused this enqueue (the event's own for the relay); logged with it. */
  requestId: string | null;
}

/** How long a caller waits for Redis before leaving the event to the relay. */
const ENQUEUE_WAIT_MS = 2_000;

/**
 * Hands committed outbox events to the delivery queue (`jobId` derived from the event id and its delivery
 * cycle, so a second enqueue of the same cycle is a no-op) and stamps them enqueued. A failure here loses
 * nothing: the row stays un-enqueued and the relay picks it up. The caller never waits on a Redis outage
 * for more than {@link ENQUEUE_WAIT_MS}: the enqueue goes on in the background and the relay covers it.
 * It only enqueues: how often and how far apart a delivery is tried is the webhook worker's retry schedule.
 */
export class OutboxPublisher {
  /** Failures repeat for every request while Redis fails: logged at most once per 5 s each (the relay retries them all). */
  private readonly failures: RepeatLimitedLog;

  constructor(
    private readonly db: PrismaClient,
    private readonly queue: Queue<DeliverEventJob>,
    private readonly logger: Logger,
  ) {
    this.failures = repeatLimited(logger);
    // Without a listener a connection error would be printed raw; the relay covers whatever it delays.
    queue.on('error', (error) => this.failures('debug', 'webhook queue connection error', { error }));
  }

  /** Enqueues the first delivery cycle of freshly committed events, written by the request `requestId`. */
  async publish(eventIds: string[], requestId: string | null): Promise<void> {
    await this.enqueue(eventIds.map((eventId) => ({ eventId, cycle: 0, requestId })));
  }

  /** Enqueues the given cycles; resolves once they are queued, or after a bounded wait if Redis is away. */
  async enqueue(jobs: CycleJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const work = this.enqueueNow(jobs, 'publisher').catch((error: unknown) => {
      const requestIds = [...new Set(jobs.map((job) => job.requestId))];
      this.failures('warn', 'outbox enqueue failed; the relay will retry', {
        eventIds: jobs.map((job) => job.eventId),
        ...(requestIds.length === 1 ? { requestId: requestIds[0] } : { requestIds }),
        error,
      });
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ENQUEUE_WAIT_MS);
      timer.unref();
    });
    await Promise.race([work, waited]);
    clearTimeout(timer);
  }

  /**
   * Enqueues and stamps, throwing on failure; the relay uses this to know what it achieved. Logs one
   * `outbox event enqueued` line per event, with the request id of its job and who enqueued it (`by`).
   */
  async enqueueNow(jobs: CycleJob[], by: 'publisher' | 'relay'): Promise<void> {
    if (jobs.length === 0) return;
    const options = deliveryJobOptions();
    await this.queue.addBulk(
      jobs.map(({ eventId, cycle }) => ({
        name: 'deliver',
        data: { eventId },
        opts: { ...options, jobId: deliveryJobId(eventId, cycle) },
      })),
    );
    await markEnqueued(
      this.db,
      jobs.map((job) => job.eventId),
      new Date(),
    );
    for (const { eventId, cycle, requestId } of jobs) this.logger.info('outbox event enqueued', { requestId, eventId, cycle, by });
  }
}

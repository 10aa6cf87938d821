import type { Queue } from 'bullmq';
import type { PrismaClient } from '@kasa/db';
import type { Logger } from '@kasa/logger';
import { deliveryJobOptions, type DeliverEventJob, type RetryPolicy } from '@kasa/queue';

/**
 * Hands committed outbox events to the delivery queue (`jobId = eventId`, so a second enqueue of the same
 * event is a no-op) and stamps them enqueued. A failure here loses nothing: the row stays un-enqueued and
 * the relay picks it up.
 */
export class OutboxPublisher {
  constructor(
    private readonly db: PrismaClient,
    private readonly queue: Queue<DeliverEventJob>,
    private readonly policy: RetryPolicy,
    private readonly logger: Logger,
  ) {}

  async publish(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    try {
      await this.queue.addBulk(
        eventIds.map((eventId) => ({ name: 'deliver', data: { eventId }, opts: { ...deliveryJobOptions(this.policy), jobId: eventId } })),
      );
      await this.db.outboxEvent.updateMany({ where: { id: { in: eventIds }, enqueuedAt: null }, data: { enqueuedAt: new Date() } });
    } catch (error) {
      this.logger.warn('outbox publish failed; the relay will retry', { eventIds, error });
    }
  }
}

import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@kasa/logger';
import { queuePrefix } from '@kasa/queue';

/** BullMQ queue of deposit expiry: one delayed `expire` job per intent plus the repeatable `sweep`. */
export const EXPIRY_QUEUE = 'deposit-expiry';
export const SWEEP_SCHEDULER_ID = 'deposit-expiry-sweep';

export type ExpiryJob = { kind: 'expire'; intentId: string } | { kind: 'sweep' };

export function expireJobId(intentId: string): string {
  return `expire-${intentId}`;
}

export function createExpiryQueue(connection: Redis, redisPrefix: string): Queue<ExpiryJob> {
  return new Queue<ExpiryJob>(EXPIRY_QUEUE, { connection, prefix: queuePrefix(redisPrefix) });
}

/**
 * Schedules expiry. `schedule` never blocks or fails its caller (the create-deposit answer must not wait
 * on Redis): a lost enqueue is logged and the sweeper cancels the intent within one sweep interval anyway.
 */
export class ExpiryScheduler {
  constructor(
    private readonly queue: Queue<ExpiryJob>,
    private readonly logger: Logger,
  ) {}

  schedule(intentId: string, expiresAt: Date): void {
    this.queue
      .add(
        'expire',
        { kind: 'expire', intentId },
        {
          jobId: expireJobId(intentId),
          // A few hundred ms after expiry so the database's clock has certainly passed expiresAt.
          delay: Math.max(0, expiresAt.getTime() - Date.now() + 250),
          attempts: 5,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      )
      .catch((error: unknown) => this.logger.warn('expiry job not enqueued; the sweeper will cancel the intent', { intentId, error }));
  }

  /** Installs (or updates) the repeatable sweep; idempotent, so every ledger replica may call it. */
  async ensureSweeper(everyMs: number): Promise<void> {
    await this.queue.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: everyMs }, { name: 'sweep', data: { kind: 'sweep' }, opts: { removeOnComplete: true, removeOnFail: 100 } });
  }
}

import { Worker, type Job } from 'bullmq';
import type { RedisClient } from '@kasa/redis';
import { repeatLimited, type Logger } from '@kasa/logger';
import { backOffWhenFailing, queuePrefix } from '@kasa/queue';
import { EXPIRY_QUEUE, type ExpiryJob } from './expiry.queue.js';
import type { ExpiryRepository } from './expiry.repository.js';
import type { OutboxPublisher } from '../outbox/outbox.publisher.js';
import type { WrittenOutboxEvent } from '../outbox/outbox.repository.js';

const SWEEP_BATCH = 500;

export interface ExpiryWorkerDeps {
  expiries: ExpiryRepository;
  /** Enqueues the `intent.auto_cancelled` events a cancellation committed (the relay covers a failure). */
  outbox: Pick<OutboxPublisher, 'publish'>;
  logger: Logger;
  redisPrefix: string;
}

/** Processes one expiry job; exported so the behaviour can be exercised without a queue. */
export async function processExpiryJob(deps: ExpiryWorkerDeps, data: ExpiryJob): Promise<{ cancelled: number }> {
  if (data.kind === 'expire') {
    const { cancelled, events } = await deps.expiries.cancelIfDue(data.intentId);
    const [intent] = cancelled;
    if (intent) deps.logger.info('intents expired', { via: 'job', cancelled: 1, intentId: intent.id, siteId: intent.siteId });
    await publish(deps, events);
    return { cancelled: cancelled.length };
  }
  let total = 0;
  for (let batchNo = 1; ; batchNo += 1) {
    const { cancelled, events } = await deps.expiries.cancelDueBatch(SWEEP_BATCH);
    total += cancelled.length;
    // One line per batch that cancelled anything (never one per intent): the audit log has each intent.
    if (cancelled.length > 0)
      deps.logger.info('intents expired', { via: 'sweep', batch: batchNo, cancelled: cancelled.length, events: events.length });
    await publish(deps, events);
    if (cancelled.length < SWEEP_BATCH) break;
  }
  return { cancelled: total };
}

async function publish(deps: ExpiryWorkerDeps, events: WrittenOutboxEvent[]): Promise<void> {
  if (events.length > 0)
    await deps.outbox.publish(
      events.map((event) => event.eventId),
      null,
    );
}

/**
 * The expiry consumer, run inside every ledger process. BullMQ hands each job to one worker; the
 * conditional update makes a repeat harmless anyway. `close()` waits for the running job. A Redis that
 * fails every command pauses it with a growing backoff instead of letting BullMQ retry at once, and each
 * repeated error is logged at most once per 5 s.
 */
export function startExpiryWorker(deps: ExpiryWorkerDeps, connection: RedisClient): Worker<ExpiryJob> {
  const worker = new Worker<ExpiryJob>(EXPIRY_QUEUE, (job: Job<ExpiryJob>) => processExpiryJob(deps, job.data), {
    connection,
    prefix: queuePrefix(deps.redisPrefix),
    concurrency: 4,
  });
  const log = repeatLimited(deps.logger);
  backOffWhenFailing(worker, {
    onError: (error) => log('error', 'expiry worker error', { error }),
    onPause: (pauseMs, error) => log('warn', 'expiry worker paused: Redis keeps failing', { pauseMs, error }),
  });
  worker.on('failed', (job, error) => log('warn', 'expiry job failed', { jobId: job?.id, error }));
  return worker;
}

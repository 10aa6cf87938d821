import { Worker, type Job } from 'bullmq';
import type { RedisClient } from '@kasa/redis';
import { repeatLimited, type Logger } from '@kasa/logger';
import { backOffWhenFailing, queuePrefix } from '@kasa/queue';
import { EXPIRY_QUEUE, type ExpiryJob } from './expiry.queue.js';
import type { ExpiryRepository } from './expiry.repository.js';

const SWEEP_BATCH = 500;

export interface ExpiryWorkerDeps {
  expiries: ExpiryRepository;
  logger: Logger;
  redisPrefix: string;
}

/** Processes one expiry job; exported so the behaviour can be exercised without a queue. */
export async function processExpiryJob(deps: ExpiryWorkerDeps, data: ExpiryJob): Promise<{ cancelled: number }> {
  if (data.kind === 'expire') {
    const cancelled = await deps.expiries.cancelIfDue(data.intentId);
    if (cancelled) deps.logger.info('intents expired', { via: 'job', cancelled: 1, intentId: cancelled.id, siteId: cancelled.siteId });
    return { cancelled: cancelled ? 1 : 0 };
  }
  let total = 0;
  for (let batchNo = 1; ; batchNo += 1) {
    const batch = await deps.expiries.cancelDueBatch(SWEEP_BATCH);
    total += batch.length;
    // One line per batch that cancelled anything (never one per intent): the audit log has each intent.
    if (batch.length > 0) deps.logger.info('intents expired', { via: 'sweep', batch: batchNo, cancelled: batch.length });
    if (batch.length < SWEEP_BATCH) break;
  }
  return { cancelled: total };
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

import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@kasa/logger';
import { queuePrefix } from '@kasa/queue';
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
 * conditional update makes a repeat harmless anyway. `close()` waits for the running job.
 */
export function startExpiryWorker(deps: ExpiryWorkerDeps, connection: Redis): Worker<ExpiryJob> {
  const worker = new Worker<ExpiryJob>(EXPIRY_QUEUE, (job: Job<ExpiryJob>) => processExpiryJob(deps, job.data), {
    connection,
    prefix: queuePrefix(deps.redisPrefix),
    concurrency: 4,
  });
  worker.on('error', (error) => deps.logger.error('expiry worker error', { error }));
  worker.on('failed', (job, error) => deps.logger.warn('expiry job failed', { jobId: job?.id, error }));
  return worker;
}

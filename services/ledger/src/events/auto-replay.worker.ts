import { Worker } from 'bullmq';
import type { RedisClient } from '@kasa/redis';
import { repeatLimited } from '@kasa/logger';
import { AUTO_REPLAY_QUEUE, backOffWhenFailing, queuePrefix, type AutoReplayJob } from '@kasa/queue';
import { autoReplaySite, type AutoReplayDeps, type AutoReplayResult } from './auto-replay.use-case.js';

/**
 * Consumes the webhook worker's auto-replay requests (`webhook-auto-replay`, one job per site at a time) and
 * runs {@link autoReplaySite} for each. A few sites at once: each replay mostly waits on its deliveries.
 */
export function startAutoReplayWorker(deps: AutoReplayDeps, connection: RedisClient): Worker<AutoReplayJob, AutoReplayResult> {
  const worker = new Worker<AutoReplayJob, AutoReplayResult>(AUTO_REPLAY_QUEUE, (job) => autoReplaySite(deps, job.data), {
    connection,
    prefix: queuePrefix(deps.redisPrefix),
    concurrency: 4,
    // A replay holds its job while its waves are delivered: minutes for a long backlog.
    lockDuration: 60_000,
  });
  const log = repeatLimited(deps.logger);
  backOffWhenFailing(worker, { onError: (error) => log('warn', 'auto-replay worker error', { error }) });
  worker.on('failed', (job, error) => {
    if (job) deps.logger.warn('auto-replay failed', { siteId: job.data.siteId, attemptsMade: job.attemptsMade, error: error.message });
  });
  return worker;
}

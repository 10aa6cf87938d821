import { Worker } from 'bullmq';
import type { RedisClient } from '@kasa/redis';
import { repeatLimited } from '@kasa/logger';
import { AUTO_REPLAY_QUEUE, backOffWhenFailing, queuePrefix, type AutoReplayJob } from '@kasa/queue';
import { AUTO_REPLAY_LEASE_MS, autoReplaySite, type AutoReplayDeps, type AutoReplayResult } from './auto-replay.use-case.js';

/** How often the stalled-job check runs: a killed ledger's replay job is handed on within a lease and two of these. */
export const AUTO_REPLAY_STALLED_INTERVAL_MS = 2_000;

/**
 * Consumes the webhook worker's auto-replay requests (`webhook-auto-replay`, one job per site at a time) and
 * runs {@link autoReplaySite} for each. A few sites at once: each replay mostly waits on its deliveries. A
 * killed ledger's replay is resumed by another within about AUTO_REPLAY_LEASE_MS plus two stalled checks.
 */
export function startAutoReplayWorker(deps: AutoReplayDeps, connection: RedisClient): Worker<AutoReplayJob, AutoReplayResult> {
  const worker = new Worker<AutoReplayJob, AutoReplayResult>(AUTO_REPLAY_QUEUE, (job) => autoReplaySite(deps, job.data), {
    connection,
    prefix: queuePrefix(deps.redisPrefix),
    concurrency: 4,
    // A replay holds its job for minutes on a long backlog, renewing the lock every half lease (BullMQ renews at
    // lockDuration / 2); a ledger killed mid-replay loses it within a lease, like the site's lease, and the
    // stalled check hands the job to another ledger, which resumes the replay.
    lockDuration: AUTO_REPLAY_LEASE_MS,
    stalledInterval: AUTO_REPLAY_STALLED_INTERVAL_MS,
    // A replay that stalled twice is dropped; the site's next delivery or probe asks again.
    maxStalledCount: 2,
  });
  const log = repeatLimited(deps.logger);
  backOffWhenFailing(worker, { onError: (error) => log('warn', 'auto-replay worker error', { error }) });
  worker.on('failed', (job, error) => {
    if (job) deps.logger.warn('auto-replay failed', { siteId: job.data.siteId, attemptsMade: job.attemptsMade, error: error.message });
  });
  return worker;
}

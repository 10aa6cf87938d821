/**
 * Queue names, connections and job options shared by the ledger (producer) and the webhook worker
 * (consumer), so both sides agree on where a job lives and how it is retried.
 */
import { Queue, type JobsOptions } from 'bullmq';
import { createRedisClient, type RedisClient, type RedisTarget } from '@kasa/redis';

/** Name of the BullMQ queue of webhook deliveries. */
export const WEBHOOK_QUEUE = 'webhook-deliveries';

/** Job data of a webhook delivery: the event's id only; the worker loads everything else from PostgreSQL. */
export interface DeliverEventJob {
  eventId: string;
}

/**
 * The BullMQ backoff type of delivery jobs. The webhook worker registers the strategy (its retry schedule:
 * how many attempts, how far apart, with what jitter); a producer only names it.
 */
export const WEBHOOK_BACKOFF = 'kasa-webhook-retry';

/**
 * BullMQ's upper bound on a delivery job's runs. It is not the retry policy: the worker stops earlier, after
 * its own last attempt (WEBHOOK_MAX_ATTEMPTS, whose most allowed value this is), by failing the job for good.
 */
export const DELIVERY_JOB_MAX_RUNS = 100;

/**
 * Options of a delivery job: the worker's backoff, finished jobs dropped (PostgreSQL keeps the history). The
 * producer states no attempt count or delay: those are the worker's ({@link WEBHOOK_BACKOFF}).
 */
export function deliveryJobOptions(): JobsOptions {
  return {
    attempts: DELIVERY_JOB_MAX_RUNS,
    backoff: { type: WEBHOOK_BACKOFF },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** Name of the BullMQ queue through which the webhook worker asks the ledger to replay a recovered site's DEAD events. */
export const AUTO_REPLAY_QUEUE = 'webhook-auto-replay';

/** What made the worker ask: a delivery to the site succeeded, or a probe of its endpoint did. */
export type AutoReplayTrigger = 'delivery' | 'probe';

/** Job data of an auto-replay request. */
export interface AutoReplayJob {
  siteId: string;
  trigger: AutoReplayTrigger;
  /** Epoch ms when the site answered. */
  answeredAt: number;
}

/**
 * The job id of a site's auto-replay request: one per site, so requests from several workers while one is
 * queued or running collapse into it (BullMQ ignores an add under an id that exists).
 */
export function autoReplayJobId(siteId: string): string {
  return `auto-replay-${siteId}`;
}

/** The auto-replay queue under the given Redis prefix. */
export function createAutoReplayQueue(connection: RedisClient, redisPrefix: string): Queue<AutoReplayJob> {
  return new Queue<AutoReplayJob>(AUTO_REPLAY_QUEUE, { connection, prefix: queuePrefix(redisPrefix) });
}

/**
 * A Redis connection as BullMQ wants it: no per-command retry limit, so blocking commands wait out outages.
 * One Redis, or a cluster client when `target` names cluster nodes (BullMQ's keys of a queue share the
 * `{bull}` hash tag, so each script stays within one slot). Attach an `error` listener.
 */
export function createQueueConnection(target: RedisTarget): RedisClient {
  return createRedisClient(target, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

/**
 * BullMQ keys live under `<REDIS_PREFIX>:{bull}`, so test suites and deployments sharing a Redis stay apart,
 * and on a Redis Cluster every key of a queue hashes to one slot (the `{bull}` hash tag), as BullMQ's
 * multi-key scripts require (docs/scaling.md).
 */
export function queuePrefix(redisPrefix: string): string {
  return `${redisPrefix}:{bull}`;
}

/**
 * The BullMQ job id of one delivery cycle of an event: the event id itself for the first cycle, then
 * `<eventId>-r<n>` for the n-th replay (the first cycle's job may still sit in the failed set, and BullMQ
 * refuses `:` in custom ids). Every producer derives it the same way, so two of them never queue the
 * same cycle twice.
 */
export function deliveryJobId(eventId: string, cycle = 0): string {
  return cycle === 0 ? eventId : `${eventId}-r${cycle}`;
}

/** Jobs waiting to run now or later (retries in backoff): the depth that workers are scaled on. */
export async function queueBacklog(queue: Queue<DeliverEventJob>): Promise<number> {
  const counts = await queue.getJobCounts('wait', 'prioritized', 'delayed');
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** The webhook delivery queue under the given Redis prefix. */
export function createWebhookQueue(connection: RedisClient, redisPrefix: string): Queue<DeliverEventJob> {
  return new Queue<DeliverEventJob>(WEBHOOK_QUEUE, { connection, prefix: queuePrefix(redisPrefix) });
}

export { backOffWhenFailing, type WorkerBackoffOptions } from './worker-backoff.js';
export type { RedisClient, RedisTarget } from '@kasa/redis';

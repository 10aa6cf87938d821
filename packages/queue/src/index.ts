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

/** How often and how far apart a delivery is tried. */
export interface RetryPolicy {
  maxAttempts: number;
  retryDelayMs: number;
}

/** Fixed backoff, `maxAttempts` tries in all; finished jobs are dropped (PostgreSQL keeps the history). */
export function deliveryJobOptions(policy: RetryPolicy): JobsOptions {
  return {
    attempts: policy.maxAttempts,
    backoff: { type: 'fixed', delay: policy.retryDelayMs },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
  };
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

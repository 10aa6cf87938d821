import type { Server } from 'node:http';
import { Worker } from 'bullmq';
import type { KasaConfig } from '@kasa/config';
import { close, createHttpMetrics, forceClose, listen, settleWithin } from '@kasa/http';
import { repeatLimited } from '@kasa/logger';
import { backOffWhenFailing, queueBacklog, queuePrefix, WEBHOOK_QUEUE, type DeliverEventJob } from '@kasa/queue';
import { retryDelayMs } from './deliveries/retry-schedule.js';
import { SiteRecovery } from './deliveries/site-recovery.js';
import { createApp } from './app.js';
import { AttemptFailedError, deliverEventProcessor, type DeliverEventResult } from './deliveries/deliver-event.job.js';
import { WorkerMetrics } from './metrics/worker-metrics.js';
import { createWorkerDeps, type WorkerDeps, type WorkerOverrides } from './worker-deps.js';

export interface WebhookWorkerService {
  deps: WorkerDeps;
  worker: Worker<DeliverEventJob, DeliverEventResult>;
  port: number;
  url: string;
  /** Stops taking jobs, lets in-flight deliveries finish (`worker.close()`), then closes every connection. */
  stop(): Promise<void>;
  /** After the grace: stops waiting for deliveries (their jobs go back to the queue when their locks expire). */
  forceStop(): void;
}

/** Resolves with `fallback` when `promise` takes longer than `ms` (a Redis outage must not hang /metrics). */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref())]);
}

/**
 * Starts the webhook worker: a BullMQ consumer of the delivery queue and the health/metrics server on
 * `port` (0 for any free port). A worker killed outright loses its jobs' locks; after `lockDuration`
 * BullMQ's stalled-job check hands them to another worker.
 */
export async function startWorker(
  config: KasaConfig,
  port = config.workerPort,
  overrides: WorkerOverrides = {},
): Promise<WebhookWorkerService> {
  const deps = createWorkerDeps(config, overrides);
  const httpMetrics = createHttpMetrics('webhook-worker');
  const metrics = new WorkerMetrics(httpMetrics.registry, () => within(queueBacklog(deps.queue), 1_000, -1), deps.slots);
  const recovery = new SiteRecovery({ ...deps, metrics });
  const processor = deliverEventProcessor({ ...deps, metrics, onOutcome: (siteId, outcome) => recovery.onOutcome(siteId, outcome) });
  const worker = new Worker<DeliverEventJob, DeliverEventResult>(WEBHOOK_QUEUE, processor, {
    connection: deps.queueConnection,
    // The retry delay is the worker's (deliveries/retry-schedule.ts); the job only names this backoff.
    settings: { backoffStrategy: () => retryDelayMs(deps.schedule) },
    prefix: queuePrefix(config.redisPrefix),
    concurrency: config.webhookConcurrency,
    lockDuration: config.webhookLockDurationMs,
    stalledInterval: config.webhookStalledIntervalMs,
    // A job stalls when its worker dies; twice is bad luck, more is a job that kills workers.
    maxStalledCount: 3,
  });
  // Connection errors during a Redis outage are expected; BullMQ reconnects and carries on. Errors a failing
  // Redis repeats are logged at most once per 5 s, and a fetch loop that keeps failing is paused with a
  // growing backoff (BullMQ retries an error reply at once).
  const log = repeatLimited(deps.logger);
  backOffWhenFailing(worker, {
    onError: (error) => log('warn', 'webhook worker error', { error }),
    onPause: (pauseMs, error) => log('warn', 'webhook worker paused: Redis keeps failing', { pauseMs, error }),
  });
  deps.queue.on('error', (error) => log('debug', 'webhook queue connection error', { error }));
  deps.autoReplayQueue.on('error', (error) => log('debug', 'auto-replay queue connection error', { error }));
  worker.on('failed', (job, error) => {
    if (!job) return;
    const fields = { jobId: job.id, attemptsMade: job.attemptsMade, error: error.message };
    // A partner's failed attempt is logged by the job itself; anything else failed the job on Kasa's side, and
    // the job now waits out a retry delay that no partner caused: worth a warning.
    const partners = error instanceof AttemptFailedError || error.message.startsWith('delivery attempt ');
    if (partners) deps.logger.debug('webhook attempt failed', fields);
    else log('warn', 'webhook job failed outside a delivery attempt; BullMQ retries it on the schedule', fields);
  });

  let server: Server;
  let bound: number;
  try {
    ({ server, port: bound } = await listen(
      createApp(deps, httpMetrics.registry, () => worker.isRunning()),
      port,
      config.bindAddress,
    ));
  } catch (error) {
    await worker.close();
    await closeConnections(deps);
    throw error;
  }
  recovery.start();
  return {
    deps,
    worker,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    async stop() {
      // Readiness turns 503 and the health server closes while the worker stops taking jobs. In-flight
      // deliveries get up to an attempt's timeout (and at most the process's shutdown grace) to finish: their
      // locks are renewed meanwhile, however short the lock. Then the worker is closed by force and their jobs go
      // back to the queue when their locks expire (BullMQ's stalled-job check), so no job is lost.
      const draining = close(server);
      await recovery.stop();
      const finishMs = Math.max(config.webhookLockDurationMs, config.webhookTimeoutMs);
      if (!(await settleWithin(worker.close(), finishMs))) await settleWithin(worker.close(true), 10_000);
      await draining;
      await closeConnections(deps);
    },
    forceStop() {
      void recovery.stop();
      forceClose(server);
      void worker.close(true).catch(() => undefined);
      deps.queueConnection.disconnect();
    },
  };
}

async function closeConnections(deps: WorkerDeps): Promise<void> {
  deps.sender.close();
  await settleWithin(deps.autoReplayQueue.close(), 10_000);
  // Bounded: after a Redis outage these can wait on a reconnect that never comes.
  await settleWithin(deps.queue.close(), 10_000);
  if (!(await settleWithin(deps.queueConnection.quit(), 10_000))) deps.queueConnection.disconnect();
  await deps.pool.end();
}

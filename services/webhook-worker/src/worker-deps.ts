import type { Queue } from 'bullmq';
import type { RedisClient } from '@kasa/redis';
import type { KasaConfig } from '@kasa/config';
import pg from 'pg';
import { createPool } from '@kasa/db';
import { createLogger, type Logger } from '@kasa/logger';
import { WebhookUrlGuard, type Resolver } from '@kasa/net-guard';
import { createAutoReplayQueue, createQueueConnection, createWebhookQueue, type AutoReplayJob, type DeliverEventJob } from '@kasa/queue';
import { webhookSecretBox, type SecretBox } from '@kasa/secret-box';
import { trustedAuthorities, WebhookSender } from '@kasa/webhook-sender';
import { RedisSiteHealthStore } from './deliveries/site-health.js';
import { SiteSlots } from './deliveries/site-slots.js';
import { DeliveryRepository } from './deliveries/delivery.repository.js';
import { retryScheduleFrom, type RetrySchedule } from './deliveries/retry-schedule.js';

/** Everything the worker needs, wired once by hand. */
export interface WorkerDeps {
  config: KasaConfig;
  logger: Logger;
  /** PostgreSQL, for the two statements of a delivery. */
  pool: pg.Pool;
  /** BullMQ connection (no per-command retry limit); the Worker duplicates it for its blocking reads. */
  queueConnection: RedisClient;
  /** The queue as a producer sees it, for the backlog gauge. */
  queue: Queue<DeliverEventJob>;
  /** Where the worker asks the ledger to replay the DEAD events of a site that answers again. */
  autoReplayQueue: Queue<AutoReplayJob>;
  /** Attempts per cycle and the jittered delay between them. */
  schedule: RetrySchedule;
  deliveries: DeliveryRepository;
  sender: WebhookSender;
  secrets: SecretBox;
  slots: SiteSlots;
  guard: WebhookUrlGuard;
}

/** Injections a test or an embedding process may make. */
export interface WorkerOverrides extends Partial<WorkerDeps> {
  /** Certificate authorities to trust for receivers, replacing the system ones (a test's own CA). */
  ca?: string | string[];
  /** DNS resolver for the connect-time address check (a test can make a name rebind). */
  resolve?: Resolver;
}

/** Redis keys of the shared site health: `<REDIS_PREFIX>:webhook-worker:site-health:<siteId>`. */
export function siteHealthKeyPrefix(config: KasaConfig): string {
  return `${config.redisPrefix}:webhook-worker:site-health`;
}

export function createWorkerDeps(config: KasaConfig, overrides: WorkerOverrides = {}): WorkerDeps {
  const { ca: _ca, resolve, ...injected } = overrides;
  const pool = injected.pool ?? createPool({ connectionString: config.databaseUrl, max: Math.min(20, config.webhookConcurrency + 2) });
  // An idle client's error (the server went away) must not crash the worker; the pool replaces it.
  pool.on('error', () => undefined);
  const queueConnection = injected.queueConnection ?? createQueueConnection(config);
  const guard =
    injected.guard ??
    new WebhookUrlGuard({
      allowedHosts: config.webhookAllowedHosts,
      allowHttp: config.webhookAllowHttp,
      allowedPorts: config.webhookAllowedPorts,
      ...(resolve ? { resolve } : {}),
    });
  const ca = trustedAuthorities(config.webhookCaFile, overrides.ca);
  return {
    config,
    logger: injected.logger ?? createLogger({ service: 'webhook-worker', level: config.logLevel }),
    pool,
    queueConnection,
    queue: injected.queue ?? createWebhookQueue(queueConnection, config.redisPrefix),
    autoReplayQueue: injected.autoReplayQueue ?? createAutoReplayQueue(queueConnection, config.redisPrefix),
    schedule: injected.schedule ?? retryScheduleFrom(config),
    deliveries: injected.deliveries ?? new DeliveryRepository(pool),
    sender:
      injected.sender ??
      new WebhookSender({ timeoutMs: config.webhookTimeoutMs, guard, ...(ca ? { ca } : {}), maxSocketsPerHost: config.webhookConcurrency }),
    secrets: injected.secrets ?? webhookSecretBox(config.secretEncryptionKey),
    slots:
      injected.slots ??
      new SiteSlots({
        perSite: config.webhookSiteConcurrency,
        failingLane: config.webhookFailingConcurrency,
        timeoutMs: config.webhookTimeoutMs,
        // A paused site is tried again at least as often as the retry schedule would have tried it.
        maxCooldownMs: config.webhookRetryDelayMs,
        store: new RedisSiteHealthStore(queueConnection, siteHealthKeyPrefix(config)),
      }),
    guard,
  };
}

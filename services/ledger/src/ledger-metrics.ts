import type { Job, Queue } from 'bullmq';
import type pg from 'pg';
import { Gauge, type Registry } from 'prom-client';
import { scrapeSample } from '@kasa/http';
import { WEBHOOK_QUEUE } from '@kasa/queue';
import { EXPIRY_QUEUE } from './expiry/expiry.queue.js';
import type { LedgerDeps } from './ledger-deps.js';

/** How long one scrape waits for PostgreSQL or Redis before reporting NaN (unknown) instead. */
export const SCRAPE_TIMEOUT_MS = 1_000;

/** What the ledger's gauges read, at scrape time. */
export type LedgerMetricsDeps = Pick<
  LedgerDeps,
  'pool' | 'readPool' | 'events' | 'expiries' | 'followUps' | 'webhookQueue' | 'expiryQueue' | 'clock'
>;

const seconds = (ms: number) => Math.max(0, ms) / 1000;

/**
 * When the job at the head of a wait list became ready to run, as near as BullMQ's job hash tells: added
 * (plus any delay it was added with), or, once tried, when its last attempt started, plus the retry
 * backoff when that attempt failed (`attemptsMade > 0`). Off by at most one attempt's duration.
 */
export function waitingSince(job: Pick<Job, 'timestamp' | 'processedOn' | 'attemptsMade' | 'opts'>): number {
  if (job.processedOn === undefined) return job.timestamp + (job.opts.delay ?? 0);
  const { backoff } = job.opts;
  const retryDelay = job.attemptsMade > 0 ? (typeof backoff === 'number' ? backoff : (backoff?.delay ?? 0)) : 0;
  return job.processedOn + retryDelay;
}

interface QueueState {
  /** Jobs waiting, prioritized, delayed or active. */
  depth: number;
  oldestAgeSeconds: number;
}

async function queueState(queue: Queue, now: number): Promise<QueueState> {
  const [counts, head] = await Promise.all([queue.getJobCounts('wait', 'prioritized', 'delayed', 'active'), queue.getWaiting(0, 0)]);
  const depth = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const oldest = head[0];
  return { depth, oldestAgeSeconds: oldest ? seconds(now - waitingSince(oldest)) : 0 };
}

/**
 * The ledger's own gauges, on its HTTP registry; every value is read when Prometheus scrapes (`collect`),
 * never by a timer. Labels are bounded: `pool` (primary, replica), `queue` (the two queue names),
 * `source` (postgres, redis); never a site, an event or a record id. PostgreSQL is read with three cheap
 * indexed statements and Redis with two commands per queue, once per scrape however many gauges use them,
 * each bounded by {@link SCRAPE_TIMEOUT_MS}: when a dependency is down, its gauges report NaN and
 * `kasa_metrics_source_up{source}` 0, and /metrics still answers at once.
 */
export function registerLedgerMetrics(registry: Registry, deps: LedgerMetricsDeps): void {
  const registers = [registry];
  const pools: Array<[string, pg.Pool]> = [['primary', deps.pool]];
  if (deps.readPool) pools.push(['replica', deps.readPool]);

  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers,
      collect() {
        for (const [label, pool] of pools) this.set({ pool: label }, read(pool));
      },
    });
  poolGauge('kasa_db_pool_connections', 'Open PostgreSQL connections of the pool (busy and idle)', (pool) => pool.totalCount);
  poolGauge('kasa_db_pool_idle_connections', 'Idle PostgreSQL connections of the pool', (pool) => pool.idleCount);
  poolGauge('kasa_db_pool_waiting_requests', 'Queries waiting for a free PostgreSQL connection', (pool) => pool.waitingCount);
  poolGauge('kasa_db_pool_max_connections', 'The most connections the pool opens', (pool) => pool.options.max ?? 10);

  const database = scrapeSample(async () => {
    const [backlog, dead, oldestDue, followUps] = await Promise.all([
      deps.events.outboxBacklog(),
      deps.events.deadCount(),
      deps.expiries.oldestDue(),
      deps.followUps.backlog(),
    ]);
    return { backlog, dead, oldestDue, followUps, at: Date.now(), clock: deps.clock.now().getTime() };
  }, SCRAPE_TIMEOUT_MS);
  const queues = scrapeSample(async (): Promise<Map<string, QueueState>> => {
    const now = Date.now();
    const [webhooks, expiry] = await Promise.all([queueState(deps.webhookQueue, now), queueState(deps.expiryQueue, now)]);
    return new Map([
      [WEBHOOK_QUEUE, webhooks],
      [EXPIRY_QUEUE, expiry],
    ]);
  }, SCRAPE_TIMEOUT_MS);

  const fromDatabase = (name: string, help: string, read: (sample: NonNullable<Awaited<ReturnType<typeof database>>>) => number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const sample = await database();
        this.set(sample ? read(sample) : Number.NaN);
      },
    });
  fromDatabase('kasa_outbox_backlog_events', 'PENDING outbox events not handed to the delivery queue yet', (s) => s.backlog.count);
  fromDatabase(
    'kasa_outbox_oldest_unenqueued_age_seconds',
    'How long the oldest outbox event not yet in the delivery queue has waited (0 when none)',
    (s) => (s.backlog.oldestSince ? seconds(s.at - s.backlog.oldestSince.getTime()) : 0),
  );
  fromDatabase(
    'kasa_webhook_dead_events',
    'Outbox events that are DEAD: every delivery attempt failed and nobody replayed them',
    (s) => s.dead,
  );
  fromDatabase(
    'kasa_expiry_sweep_lag_seconds',
    "How long past its expiresAt the most overdue intent the sweep has not cancelled is, by the ledger's clock (0 when none)",
    (s) => (s.oldestDue ? seconds(s.clock - s.oldestDue.getTime()) : 0),
  );

  fromDatabase(
    'kasa_follow_ups_pending',
    'Work commits promised (straight-through approvals, payouts confirmed by bank lines) not done yet',
    (s) => s.followUps.pending,
  );
  fromDatabase(
    'kasa_follow_ups_oldest_age_seconds',
    'How long the oldest pending follow-up has waited since its commit (0 when none)',
    (s) => (s.followUps.oldest ? seconds(s.at - s.followUps.oldest.getTime()) : 0),
  );

  const queueGauge = (name: string, help: string, read: (state: QueueState) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers,
      async collect() {
        const sample = await queues();
        for (const queue of [WEBHOOK_QUEUE, EXPIRY_QUEUE]) {
          const state = sample?.get(queue);
          this.set({ queue }, state ? read(state) : Number.NaN);
        }
      },
    });
  queueGauge('kasa_queue_depth', 'BullMQ jobs waiting, delayed (retries, the next sweep) or running', (state) => state.depth);
  queueGauge(
    'kasa_queue_oldest_waiting_age_seconds',
    'How long the job at the head of the wait list has been ready to run (0 when the list is empty)',
    (state) => state.oldestAgeSeconds,
  );

  new Gauge({
    name: 'kasa_metrics_source_up',
    help: "Whether this scrape could read the gauges' source (1) or it failed or timed out (0, and those gauges are NaN)",
    labelNames: ['source'],
    registers,
    async collect() {
      const [db, redis] = await Promise.all([database(), queues()]);
      this.set({ source: 'postgres' }, db ? 1 : 0);
      this.set({ source: 'redis' }, redis ? 1 : 0);
    },
  });
}

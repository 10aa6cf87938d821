/**
 * The ledger's /metrics: the DB pool, outbox backlog and age, DEAD events, queue depth and age, and the
 * expiry sweep's lag, read at scrape time with bounded labels; and a scrape that answers on time, with NaN,
 * when PostgreSQL and Redis do not.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import type { LedgerMetricsDeps } from '../src/ledger-metrics.js';
import { registerLedgerMetrics, waitingSince } from '../src/ledger-metrics.js';
import { processExpiryJob } from '../src/expiry/expiry.worker.js';
import { emitMany } from './emit-event.js';
import { sleep, startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

/** `name{labels} value` samples of a Prometheus text page (comments skipped). */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g))
        labels[key as string] = value as string;
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = samples(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return (found[0] as { value: number }).value;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('ledger metrics after traffic', () => {
  let h: LedgerHarness;
  let site: TestSite;
  const clock = new TestClock();
  const scrape = async () => (await fetch(`${h.ledger.url}/metrics`)).text();

  beforeAll(async () => {
    // The relay and the sweep wait for the test: it decides when the backlog is enqueued and intents cancelled.
    h = await startLedgerHarness(
      { OUTBOX_RELAY_INTERVAL_MS: '600000', OUTBOX_RELAY_GRACE_MS: '0', EXPIRY_SWEEP_INTERVAL_MS: '3600000' },
      { clock },
    );
    site = await h.createSite();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('labels HTTP requests by route template, and no label anywhere carries an id', async () => {
    const created = await h.createDeposit(site, 10000);
    await h.internal('GET', `/sites/${site.siteId}/intents/${created.intentId}`);
    await h.ops('GET', `/intents/${created.intentId}`);
    const text = await scrape();
    const routes = new Set(samples(text).flatMap((s) => (s.labels.route ? [s.labels.route] : [])));
    expect([...routes]).toEqual(
      expect.arrayContaining([
        '/internal/v1/sites/:siteId/deposits',
        '/internal/v1/sites/:siteId/intents/:intentId',
        '/ops/v1/intents/:intentId',
        '/ops/v1/sites',
      ]),
    );
    for (const sample of samples(text)) for (const value of Object.values(sample.labels)) expect(value).not.toMatch(UUID);
  });

  it('reports the pool, the queues and the sources with bounded labels', async () => {
    const text = await scrape();
    expect(valueOf(text, 'kasa_db_pool_max_connections', { pool: 'primary' })).toBe(20);
    expect(valueOf(text, 'kasa_db_pool_connections', { pool: 'primary' })).toBeGreaterThan(0);
    expect(valueOf(text, 'kasa_db_pool_idle_connections', { pool: 'primary' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'kasa_db_pool_waiting_requests', { pool: 'primary' })).toBe(0);
    expect(valueOf(text, 'kasa_metrics_source_up', { source: 'postgres' })).toBe(1);
    expect(valueOf(text, 'kasa_metrics_source_up', { source: 'redis' })).toBe(1);
    const labelSets = (name: string) =>
      samples(text)
        .filter((s) => s.name === name)
        .map((s) => s.labels);
    expect(
      labelSets('kasa_queue_depth')
        .map((l) => l.queue)
        .sort(),
    ).toEqual(['deposit-expiry', 'webhook-deliveries']);
    expect(labelSets('kasa_db_pool_connections').map((l) => l.pool)).toEqual(['primary']);
    // Every label name the ledger's own gauges use is one of a fixed few.
    const kasaLabels = new Set(
      samples(text)
        .filter((s) => s.name.startsWith('kasa_'))
        .flatMap((s) => Object.keys(s.labels)),
    );
    expect([...kasaLabels].sort()).toEqual(['pool', 'queue', 'service', 'source']);
  });

  it('counts the outbox backlog and its age, the queue depth and its age, and DEAD events', async () => {
    const { intentId } = await h.createDeposit(site, 10000);
    const before = await scrape();
    const deadBefore = valueOf(before, 'kasa_webhook_dead_events');
    // Three events written and never handed to the queue (the relay is parked): the backlog.
    const stranded = await emitMany(h.ledger, { siteId: site.siteId, type: 'intent.approved', entityId: intentId }, 3, false);
    await sleep(1_100);
    let text = await scrape();
    expect(valueOf(text, 'kasa_outbox_backlog_events')).toBe(valueOf(before, 'kasa_outbox_backlog_events') + 3);
    expect(valueOf(text, 'kasa_outbox_oldest_unenqueued_age_seconds')).toBeGreaterThanOrEqual(1);

    // The relay hands them over: the backlog is gone, and no worker runs, so they wait in the queue.
    await h.ledger.deps.outboxRelay.runOnce();
    await sleep(1_100);
    text = await scrape();
    expect(valueOf(text, 'kasa_outbox_backlog_events')).toBe(0);
    expect(valueOf(text, 'kasa_outbox_oldest_unenqueued_age_seconds')).toBe(0);
    expect(valueOf(text, 'kasa_queue_depth', { queue: 'webhook-deliveries' })).toBeGreaterThanOrEqual(3);
    expect(valueOf(text, 'kasa_queue_oldest_waiting_age_seconds', { queue: 'webhook-deliveries' })).toBeGreaterThanOrEqual(1);

    await h.ledger.deps.db.outboxEvent.updateMany({
      where: { id: { in: stranded.map((event) => event.eventId) } },
      data: { status: 'DEAD', deadAt: new Date() },
    });
    expect(valueOf(await scrape(), 'kasa_webhook_dead_events')).toBe(deadBefore + 3);
  });

  it("measures the expiry sweep's lag by the ledger's clock, back to 0 once the sweep has run", async () => {
    const expiring = await h.createSite({ depositTtlSeconds: 60 });
    await h.createDeposit(expiring, 10000);
    clock.advance(60_000 + 150_000);
    const lag = valueOf(await scrape(), 'kasa_expiry_sweep_lag_seconds');
    expect(lag).toBeGreaterThanOrEqual(150);
    expect(lag).toBeLessThan(3600);
    await processExpiryJob(h.ledger.deps, { kind: 'sweep' });
    expect(valueOf(await scrape(), 'kasa_expiry_sweep_lag_seconds')).toBe(0);
  });
});

describe('ledger metrics when PostgreSQL and Redis do not answer', () => {
  it('answers within the scrape timeout, with NaN for what it could not read and the sources marked down', async () => {
    const never = () => new Promise<never>(() => undefined);
    const pool = { totalCount: 3, idleCount: 1, waitingCount: 2, options: { max: 20 } };
    const queue = { getJobCounts: never, getWaiting: never };
    const deps = {
      pool,
      readPool: null,
      events: { outboxBacklog: never, deadCount: never },
      expiries: { oldestDue: never },
      webhookQueue: queue,
      expiryQueue: queue,
      clock: { now: () => new Date() },
    } as unknown as LedgerMetricsDeps;
    const registry = new Registry();
    registerLedgerMetrics(registry, deps);
    const started = Date.now();
    const text = await registry.metrics();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(valueOf(text, 'kasa_outbox_backlog_events')).toBeNaN();
    expect(valueOf(text, 'kasa_expiry_sweep_lag_seconds')).toBeNaN();
    expect(valueOf(text, 'kasa_queue_depth', { queue: 'webhook-deliveries' })).toBeNaN();
    expect(valueOf(text, 'kasa_metrics_source_up', { source: 'postgres' })).toBe(0);
    expect(valueOf(text, 'kasa_metrics_source_up', { source: 'redis' })).toBe(0);
    // The pool's own counters need no query.
    expect(valueOf(text, 'kasa_db_pool_waiting_requests', { pool: 'primary' })).toBe(2);
  });
});

describe('a waiting job is ready', () => {
  it('from when it was added, or once tried, from its last attempt plus the retry backoff', () => {
    expect(waitingSince({ timestamp: 1_000, processedOn: undefined, attemptsMade: 0, opts: {} })).toBe(1_000);
    expect(waitingSince({ timestamp: 1_000, processedOn: undefined, attemptsMade: 0, opts: { delay: 500 } })).toBe(1_500);
    expect(waitingSince({ timestamp: 1_000, processedOn: 5_000, attemptsMade: 2, opts: { backoff: { type: 'fixed', delay: 300 } } })).toBe(
      5_300,
    );
    // Put back by the per-site limit (no attempt made): ready again at once.
    expect(waitingSince({ timestamp: 1_000, processedOn: 5_000, attemptsMade: 0, opts: { backoff: 300 } })).toBe(5_000);
  });
});

/**
 * Partner isolation: endpoints that accept connections and never answer must not take the delivery capacity
 * of the others. Ten hanging HTTPS receivers (they read the request and never respond) and one healthy one,
 * events for all eleven sites interleaved, the worker at its normal concurrency; the healthy partner's
 * events must arrive within a second of their outbox row being written (the median; the tail within two
 * timeouts), exactly once, while the hanging partners' events stay PENDING with their attempts counted only for
 * real HTTP attempts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { TestSite } from '../../gateway/test/harness.js';
import { emitEvents, type EmitRequest } from '../../ledger/test/emit-event.js';
import { startReceiver, type Receiver } from './support/receiver.js';
import { configureWebhook, createDeposit, startStack, waitFor, type Stack } from './support/stack.js';

const HANGING_SITES = 10;
const EVENTS_PER_HANGING_SITE = 10;
const HEALTHY_EVENTS = 30;
const TIMEOUT_MS = 2_500;

let stack: Stack;
const hanging: Receiver[] = [];
beforeAll(async () => {
  // The worker's normal concurrency (WEBHOOK_CONCURRENCY 20 in the stack, WEBHOOK_SITE_CONCURRENCY at its
  // default); only the timeout and the retry spacing are shortened, so that retries happen within the test.
  stack = await startStack({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_DELAY_MS: '1000' });
  for (let i = 0; i < HANGING_SITES; i += 1) hanging.push(await startReceiver(stack.tls, () => new Promise<number>(() => undefined)));
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  for (const receiver of hanging) await receiver.close();
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

describe('partner isolation', () => {
  it('keeps a healthy partner under a second while ten partners never answer, and loses none of theirs', async () => {
    const { h } = stack;
    const withWebhook = async (url: string): Promise<{ site: TestSite; request: EmitRequest }> => {
      const site = await h.createSite();
      await configureWebhook(h, site, url);
      return { site, request: { siteId: site.siteId, type: 'intent.approved', entityId: await createDeposit(h, site) } };
    };
    const healthy = await withWebhook(stack.receiver.url);
    const stuck: Array<{ site: TestSite; request: EmitRequest }> = [];
    for (const receiver of hanging) stuck.push(await withWebhook(receiver.url));

    // Ten rounds, each one event for every hanging site then one for the healthy site; then the rest of the
    // healthy events one by one while the hanging attempts time out, retry and are deferred.
    const healthyIds: string[] = [];
    const hangingIds: string[] = [];
    const createdAt = new Map<string, number>();
    const healthySite = healthy.site.siteId;
    const siteOf = new Map<string, string>();
    const emitRound = async (requests: EmitRequest[]) => {
      const payloads = await emitEvents(h.ledger, requests);
      payloads.forEach((payload, i) => {
        createdAt.set(payload.eventId, Date.parse(payload.createdAt));
        siteOf.set(payload.eventId, requests[i]!.siteId);
        (requests[i]!.siteId === healthySite ? healthyIds : hangingIds).push(payload.eventId);
      });
    };
    for (let round = 0; round < EVENTS_PER_HANGING_SITE; round += 1) {
      await emitRound([...stuck.map((s) => s.request), healthy.request]);
    }
    while (healthyIds.length < HEALTHY_EVENTS) {
      await sleep(250);
      await emitRound([healthy.request]);
    }
    expect(hangingIds).toHaveLength(HANGING_SITES * EVENTS_PER_HANGING_SITE);

    const received = () => stack.receiver.deliveries.filter((d) => d.eventId !== undefined && siteOf.has(d.eventId));
    await waitFor('every healthy event at the receiver', () => new Set(received().map((d) => d.eventId)).size >= HEALTHY_EVENTS, 30_000);

    const latencies = healthyIds
      .map((eventId) => {
        const first = received().find((d) => d.eventId === eventId)!;
        return first.receivedAt - createdAt.get(eventId)!;
      })
      .sort((a, b) => a - b);
    const figures = { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: latencies.at(-1) };
    process.stdout.write(`healthy partner delivery latency (ms) beside ${HANGING_SITES} hanging partners: ${JSON.stringify(figures)}\n`);

    // Exactly once, and recorded as one successful attempt.
    const db = h.ledger.deps.db;
    await waitFor(
      'every healthy event DELIVERED',
      async () => (await db.outboxEvent.count({ where: { id: { in: healthyIds }, status: 'DELIVERED' } })) === HEALTHY_EVENTS,
    );
    for (const eventId of healthyIds) expect(received().filter((d) => d.eventId === eventId)).toHaveLength(1);
    const healthyRows = await db.outboxEvent.findMany({ where: { id: { in: healthyIds } }, select: { attemptCount: true } });
    expect(healthyRows.every((row) => row.attemptCount === 1)).toBe(true);
    // Without isolation most healthy events would wait behind hanging attempts' 2.5 s timeouts: the median shows it.
    // Alone the healthy p99 is 185-250 ms; inside the full suite one healthy attempt slowed past half the timeout by
    // the machine's load makes the site count as not answering, and its next events wait for that attempt (a run saw
    // p99 3.2 s). So the tail is bounded by two timeouts: never stuck behind the hanging partners' retries.
    expect(figures.p50).toBeLessThan(1_000);
    expect(figures.p99).toBeLessThan(2 * TIMEOUT_MS);

    // The hanging partners keep being tried: a second round of real attempts at every one of them.
    const attemptsPerSite = async () => {
      const counts = new Map<string, number>();
      for (const { eventId } of await db.deliveryAttempt.findMany({ where: { eventId: { in: hangingIds } }, select: { eventId: true } })) {
        const siteId = siteOf.get(eventId)!;
        counts.set(siteId, (counts.get(siteId) ?? 0) + 1);
      }
      return stuck.map((s) => counts.get(s.site.siteId) ?? 0);
    };
    await waitFor('a second attempt at every hanging site', async () => (await attemptsPerSite()).every((n) => n >= 2), 20_000, 200);
    const hangingAttempts = async () => (await attemptsPerSite()).reduce((sum, n) => sum + n, 0);

    // Their jobs were put back (busy, paused by the breaker, or the failing lane full) rather than sent.
    const metrics = (await request(stack.worker!.url).get('/metrics')).text;
    const deferred = Object.fromEntries(
      [...metrics.matchAll(/^kasa_webhook_deferred_total\{[^}]*reason="(\w+)"[^}]*\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
    );
    process.stdout.write(`deferrals by reason: ${JSON.stringify(deferred)}; hanging attempts: ${await hangingAttempts()}\n`);
    expect(deferred.failing).toBeGreaterThan(0);

    // Stop consuming (in-flight attempts finish by their timeout), then look at what is left.
    await stack.worker!.worker.close();

    // Each hanging partner had one request open at a time: the next came only once the previous timed out.
    for (const receiver of hanging) {
      const times = receiver.deliveries.map((d) => d.receivedAt).sort((a, b) => a - b);
      expect(times.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThan(TIMEOUT_MS - 500);
    }
    const rows = await db.outboxEvent.findMany({
      where: { id: { in: hangingIds } },
      select: { id: true, status: true, attemptCount: true },
    });
    expect(rows).toHaveLength(hangingIds.length);
    const attempts = await db.deliveryAttempt.findMany({
      where: { eventId: { in: hangingIds } },
      select: { eventId: true, statusCode: true },
    });
    const queue = stack.worker!.deps.queue;
    for (const row of rows) {
      expect(row.status).toBe('PENDING');
      expect(row.attemptCount).toBeLessThan(8);
      const job = await queue.getJob(row.id);
      expect(job).toBeDefined();
      expect(['delayed', 'waiting', 'prioritized']).toContain(await job!.getState());
      // Deferrals never consumed an attempt: BullMQ's count is the number of HTTP attempts recorded.
      expect(job!.attemptsMade).toBe(row.attemptCount);
      const recorded = attempts.filter((a) => a.eventId === row.id);
      expect(recorded).toHaveLength(row.attemptCount);
      expect(recorded.every((a) => a.statusCode === null)).toBe(true);
      const seen = hanging.reduce((sum, r) => sum + r.deliveries.filter((d) => d.eventId === row.id).length, 0);
      expect(seen).toBeLessThanOrEqual(row.attemptCount);
    }
  }, 90_000);
});

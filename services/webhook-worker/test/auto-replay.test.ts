/**
 * The worker's retry schedule and the auto-replay of a recovered site's DEAD events, over the real path: ledger,
 * BullMQ on Redis, the worker in-process, PostgreSQL, and an HTTPS receiver that fails a site and then answers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestSite } from '../../gateway/test/harness.js';
import { autoReplaySite, AUTO_REPLAY_RULE } from '../../ledger/src/events/auto-replay.use-case.js';
import { EVENT_REPLAYED } from '../../ledger/src/events/event.repository.js';
import { afterFailedAttempt, retryDelayMs, retryScheduleFrom } from '../src/deliveries/retry-schedule.js';
import { startWorker } from '../src/index.js';
import { emitApproved, siteAt as siteAtOf, startStack, waitFor, type Stack } from './support/stack.js';

let stack: Stack;
/** Paths of the sites whose endpoints answer 503 for now. */
const down = new Set<string>();
beforeAll(async () => {
  // Three attempts a cycle, 150 ms apart: a failing site goes DEAD within the test. One slot per site, so a
  // replay's waves are one event each and the order of arrival is the order of replay.
  stack = await startStack({
    WEBHOOK_MAX_ATTEMPTS: '3',
    WEBHOOK_AUTO_REPLAY_WINDOW_HOURS: '72',
    WEBHOOK_SITE_CONCURRENCY: '1',
    WEBHOOK_PROBE_INTERVAL_MS: '600000',
  });
  stack.receiver.respond = (delivery) => (down.has(delivery.path) ? 503 : 200);
});
afterAll(async () => {
  await stack?.stop();
});

const db = () => stack.h.ledger.deps.db;

const siteAt = (path: string) => siteAtOf(stack, path);
const emit = (site: TestSite) => emitApproved(stack, site);

const statusOf = async (eventId: string) => (await db().outboxEvent.findUniqueOrThrow({ where: { id: eventId } })).status;
const allAre = (eventIds: string[], status: 'DELIVERED' | 'DEAD', timeoutMs = 30_000) =>
  waitFor(
    `${eventIds.length} events ${status}`,
    async () => (await db().outboxEvent.count({ where: { id: { in: eventIds }, status } })) === eventIds.length,
    timeoutMs,
  );

/** A site whose endpoint is down until these events of it are DEAD (the first made older when `oneOutsideWindow`). */
async function siteWithDeadEvents(path: string, count: number): Promise<{ site: TestSite; dead: string[] }> {
  down.add(path);
  const site = await siteAt(path);
  const dead: string[] = [];
  // One at a time, so their creation times (the replay order) are distinct.
  for (let i = 0; i < count; i += 1) dead.push(await emit(site));
  await allAre(dead, 'DEAD');
  return { site, dead };
}

const replayAudits = (eventIds: string[]) =>
  db().auditLog.findMany({ where: { action: EVENT_REPLAYED, entityType: 'outbox_event', entityId: { in: eventIds } } });

/** The order in which the receiver got these events since `since` (epoch ms). */
const arrivalOrder = (path: string, eventIds: string[], since: number) =>
  stack.receiver.deliveries
    .filter((d) => d.path === path && d.receivedAt >= since && d.eventId !== undefined && eventIds.includes(d.eventId))
    .map((d) => d.eventId);

describe('retry schedule', () => {
  it('states 8 attempts about 5 minutes apart, each wait within +/-10 % of the delay', () => {
    const schedule = retryScheduleFrom({ webhookMaxAttempts: 8, webhookRetryDelayMs: 300_000, webhookRetryJitterPercent: 10 });
    for (let attemptNo = 1; attemptNo < 8; attemptNo += 1) expect(afterFailedAttempt(schedule, attemptNo).retry).toBe(true);
    expect(afterFailedAttempt(schedule, 8)).toEqual({ retry: false });
    expect(retryDelayMs(schedule, () => 0)).toBe(270_000);
    expect(retryDelayMs(schedule, () => 0.999_999_9)).toBe(330_000);
    const waits = Array.from({ length: 2000 }, () => retryDelayMs(schedule));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(270_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(330_000);
    // Spread, not one value: retries of events that failed together do not come back together.
    expect(new Set(waits).size).toBeGreaterThan(100);
  });

  it('makes an event DEAD after the configured attempts, each retry waiting at least the delay less its jitter', async () => {
    const { dead } = await siteWithDeadEvents('/schedule', 1);
    const attempts = await db().deliveryAttempt.findMany({ where: { eventId: dead[0] }, orderBy: { attemptNo: 'asc' } });
    expect(attempts.map((a) => a.attemptNo)).toEqual([1, 2, 3]);
    const delayMs = stack.h.env.config.webhookRetryDelayMs;
    for (let i = 1; i < attempts.length; i += 1) {
      const gap = attempts[i]!.startedAt.getTime() - attempts[i - 1]!.startedAt.getTime();
      expect(gap).toBeGreaterThanOrEqual(Math.floor(delayMs * 0.9));
    }
  });
});

describe('auto-replay', () => {
  it('replays the DEAD events of the window oldest first, audited, when a delivery to the site succeeds again; an older one stays DEAD', async () => {
    const path = '/comes-back';
    const { site, dead } = await siteWithDeadEvents(path, 4);
    // The first DEAD event is from before the window (72 h).
    const [old, ...recent] = dead as [string, ...string[]];
    await db().outboxEvent.update({ where: { id: old }, data: { createdAt: new Date(Date.now() - 100 * 3_600_000) } });

    const upAt = Date.now();
    down.delete(path);
    const fresh = await emit(site);
    await allAre([fresh, ...recent], 'DELIVERED');

    expect(await statusOf(old)).toBe('DEAD');
    expect(arrivalOrder(path, recent, upAt)).toEqual(recent);
    const audits = await replayAudits(dead);
    expect(audits.map((a) => a.entityId).sort()).toEqual([...recent].sort());
    for (const audit of audits) {
      expect(audit).toMatchObject({ actorType: 'SYSTEM', actorId: AUTO_REPLAY_RULE, siteId: site.siteId });
      expect(audit.metadata).toMatchObject({ previousStatus: 'DEAD' });
    }
    // Each replay is one new cycle: a single attempt after the three of the first.
    for (const eventId of recent) expect(await db().deliveryAttempt.count({ where: { eventId } })).toBe(4);

    // The operators' dashboard counts what the rule replayed in the last 24 h (every site's, this file's sites only).
    const dashboard = (await stack.h.ops('GET', '/ops/v1/dashboard')).body;
    const byRule = await db().auditLog.count({ where: { action: EVENT_REPLAYED, actorType: 'SYSTEM', actorId: AUTO_REPLAY_RULE } });
    expect(byRule).toBeGreaterThanOrEqual(recent.length);
    expect(dashboard.autoReplayed.count).toBe(byRule);
  });

  it('runs one replay of a site at a time: a second one started meanwhile waits for the lease, and replays nothing twice', async () => {
    const path = '/locked';
    const { site, dead } = await siteWithDeadEvents(path, 3);
    // No delivery or probe reaches the site here (probes are 10 minutes apart): only these two replays run.
    down.delete(path);
    const deps = { ...stack.h.ledger.deps, pollMs: 50 };
    const results = await Promise.all([
      autoReplaySite(deps, { siteId: site.siteId, trigger: 'delivery' }),
      autoReplaySite(deps, { siteId: site.siteId, trigger: 'probe' }),
    ]);
    // The second finds the lease held, waits (the first renews it until it is done), then finds nothing left.
    expect(results.map((r) => r.outcome)).toEqual(['done', 'done']);
    expect(results.map((r) => r.replayed).sort()).toEqual([0, 3]);
    await allAre(dead, 'DELIVERED');
    expect(await replayAudits(dead)).toHaveLength(3);
  });

  it('probes a site with DEAD events and no traffic, and replays them once the probe is answered', async () => {
    const path = '/probed';
    const { dead } = await siteWithDeadEvents(path, 2);
    // A worker that probes often; the stack's own stops first.
    await stack.worker?.stop();
    await stack.startWorker({}, { webhookProbeIntervalMs: 300 });
    // While the endpoint is down, probes fail and nothing is replayed.
    await waitFor('a failed probe', () => stack.receiver.deliveries.some((d) => d.path === path && isPing(d.rawBody)));
    expect(await replayAudits(dead)).toHaveLength(0);

    down.delete(path);
    await allAre(dead, 'DELIVERED');
    const pings = stack.receiver.deliveries.filter((d) => d.path === path && isPing(d.rawBody));
    expect(pings.length).toBeGreaterThanOrEqual(2);
    // The probe is signed like any webhook and carries `test: true` and a fresh eventId that is no event's.
    expect(JSON.parse(pings[0]!.rawBody.toString('utf8'))).toMatchObject({ type: 'ping', livemode: true, test: true, data: {} });
    expect(pings[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(await db().outboxEvent.count({ where: { id: { in: pings.map((p) => p.eventId!) } } })).toBe(0);
    expect(await replayAudits(dead)).toHaveLength(2);
  });

  it('replays a backlog once when two workers both see the site answer again', async () => {
    const second = await startWorker({ ...stack.h.env.config, webhookProbeIntervalMs: 300 }, 0, { ca: stack.tls.ca });
    try {
      const path = '/two-workers';
      const { dead } = await siteWithDeadEvents(path, 3);
      down.delete(path);
      await allAre(dead, 'DELIVERED');
      // Both workers go on probing and delivering meanwhile: still one replay per event, one new attempt each.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await replayAudits(dead)).toHaveLength(3);
      for (const eventId of dead) expect(await db().deliveryAttempt.count({ where: { eventId } })).toBe(4);
    } finally {
      await second.stop();
    }
  });
});

function isPing(body: Buffer): boolean {
  const parsed = JSON.parse(body.toString('utf8')) as { type?: string; test?: boolean };
  return parsed.type === 'ping' && parsed.test === true;
}

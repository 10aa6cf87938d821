/**
 * The auto-replay of a recovered site's DEAD events, its pace measured against one worker's fresh deliveries to the
 * same site, and resumed within seconds after the ledger running it is killed -9: the site's lease runs out, the
 * replay job's BullMQ lock too, and another ledger (a child process, as deployed) picks the job up and goes on;
 * every event is replayed exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import pg from 'pg';
import { createAutoReplayQueue, createQueueConnection, autoReplayJobId, type AutoReplayJob, type RedisClient } from '@kasa/queue';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, Scenario, type TestEnvironment } from '@kasa/testkit';
import { AUTO_REPLAY_LEASE_MS, autoReplaySite } from '../../ledger/src/events/auto-replay.use-case.js';
import { AUTO_REPLAY_STALLED_INTERVAL_MS } from '../../ledger/src/events/auto-replay.worker.js';
import { EVENT_REPLAYED } from '../../ledger/src/events/event.repository.js';
import { replayDeadEvents } from '../../ledger/src/events/recover-events.use-case.js';
import { replayEvent } from '../../ledger/src/events/replay-event.use-case.js';
import { emitDead, emitMany } from '../../ledger/test/emit-event.js';
import { killLeftovers, startFromSource, type SourceService } from '../../../test/engines/cluster-support.js';
import { startWorker, type WebhookWorkerService } from '../src/index.js';
import { makeTestTls, startReceiver, type Receiver, type TestTls } from './support/receiver.js';
import { FAST_DELIVERY_ENV, waitFor } from './support/stack.js';

/** A killed ledger's replay goes on within a lease, two stalled checks and the new ledger's first look. */
const RESUME_BOUND_MS = AUTO_REPLAY_LEASE_MS + 2 * AUTO_REPLAY_STALLED_INTERVAL_MS + 2_000;

let env: TestEnvironment;
let tls: TestTls;
let receiver: Receiver;
let ledger: LedgerService | null = null;
let worker: WebhookWorkerService;
let connection: RedisClient;
let queue: Queue<AutoReplayJob>;
let scenario: Scenario;
/** Milliseconds each endpoint takes to answer 200, by path. */
const slowness = new Map<string, number>();
const closeAfterAll: Array<() => Promise<void>> = [];

beforeAll(async () => {
  // Production pacing (10 slots a site, the default poll), one attempt a cycle so nothing retries.
  env = await createTestEnvironment({ ...FAST_DELIVERY_ENV, WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_SITE_CONCURRENCY: '10' });
  tls = makeTestTls();
  receiver = await startReceiver(tls);
  receiver.respond = async (delivery) => {
    await new Promise((resolve) => setTimeout(resolve, slowness.get(delivery.path) ?? 0));
    return 200;
  };
  ledger = await startLedger(env.config, 0);
  scenario = new Scenario({ ledgerUrl: ledger.url, opsToken: env.config.opsBootstrapToken, internalToken: env.config.internalToken });
  await scenario.createReceivingAccount();
  worker = await startWorker(env.config, 0, { ca: tls.ca });
  connection = createQueueConnection(env.config);
  connection.on('error', () => undefined);
  queue = createAutoReplayQueue(connection, env.redisPrefix);
}, 120_000);
afterAll(async () => {
  killLeftovers();
  for (const close of closeAfterAll) await close();
  await queue?.close();
  connection?.disconnect();
  await worker?.stop();
  await ledger?.stop();
  await receiver?.close();
  tls?.cleanup();
  await env?.cleanup();
}, 60_000);

const db = () => (ledger as LedgerService).deps.db;

/** A site whose endpoint is `path` on the receiver, and a deposit of it for its events to be about. */
async function siteAt(path: string): Promise<{ siteId: string; intentId: string }> {
  const { siteId } = await scenario.createSite();
  const { apiKeyId } = await scenario.issueApiKey(siteId);
  const webhookUrl = receiver.url.replace('/webhooks/kasa', path);
  const configured = await scenario.internal('PUT', `/sites/${siteId}/webhook-config`, { apiKeyId, request: { webhookUrl } });
  expect(configured.status).toBe(200);
  const { intentId } = await scenario.createDeposit(siteId, '150000');
  return { siteId, intentId };
}

/** `count` events of the site, written DEAD (never sent). */
async function deadEvents(site: { siteId: string; intentId: string }, count: number): Promise<string[]> {
  const request = { siteId: site.siteId, type: 'intent.approved' as const, entityId: site.intentId };
  return (await emitDead(ledger as LedgerService, request, count)).map((p) => p.eventId);
}

/** A site whose endpoint is `path` on the receiver, with `count` events DEAD. */
async function siteWithDeadEvents(path: string, count: number): Promise<{ siteId: string; dead: string[] }> {
  const site = await siteAt(path);
  return { siteId: site.siteId, dead: await deadEvents(site, count) };
}

const delivered = async (eventIds: string[]) => db().outboxEvent.count({ where: { id: { in: eventIds }, status: 'DELIVERED' } });

/** Events per measured batch, and rounds of one replay and one fresh batch each (the order alternates). */
const PACE_EVENTS = 200;
const PACE_ROUNDS = 3;
/*
 * Measured, not asserted against the fresh pace: on a two-core machine under a load average of 7-10 the replay ran
 * at 57-73 % of it over a run, but a single round ranged from 28 % (a quiet moment, fresh events at 222/s) to 121 %,
 * so no floor both holds on every machine and fails a replay of one transaction per event (33 % over a run, 29-38 %
 * a round). docs/webhooks.md (Auto-replay) gives the figures.
 */
describe('auto-replay pace', () => {
  it('replays and delivers a backlog, its pace measured against fresh deliveries by the same worker to the same site', async () => {
    const site = await siteAt('/pace');
    const { siteId } = site;
    const deps = { ...(ledger as LedgerService).deps, config: { ...env.config, webhookAutoReplayWindowHours: 72 } };

    /** Milliseconds from the replay's start until its events are all delivered. */
    const replayRound = async () => {
      const dead = await deadEvents(site, PACE_EVENTS);
      const started = Date.now();
      const result = await autoReplaySite(deps, { siteId, trigger: 'probe' });
      expect(result).toMatchObject({ outcome: 'done', replayed: PACE_EVENTS });
      await waitFor('every replayed event delivered', async () => (await delivered(dead)) === PACE_EVENTS, 60_000, 20);
      return Date.now() - started;
    };
    /** Milliseconds from the events' commit and enqueue until they are all delivered. */
    const freshRound = async () => {
      const started = Date.now();
      const request = { siteId, type: 'intent.approved' as const, entityId: site.intentId };
      const fresh = (await emitMany(ledger as LedgerService, request, PACE_EVENTS)).map((p) => p.eventId);
      await waitFor('every fresh event delivered', async () => (await delivered(fresh)) === PACE_EVENTS, 60_000, 20);
      return Date.now() - started;
    };

    // Interleaved, so a change of the machine's load touches both alike.
    const rounds: Array<{ replayMs: number; freshMs: number }> = [];
    for (let round = 0; round < PACE_ROUNDS; round += 1) {
      if (round % 2 === 0) {
        const replayMs = await replayRound();
        rounds.push({ replayMs, freshMs: await freshRound() });
      } else {
        const freshMs = await freshRound();
        rounds.push({ replayMs: await replayRound(), freshMs });
      }
    }
    const rate = (ms: number) => (PACE_EVENTS * 1000) / ms;
    const total = (key: 'replayMs' | 'freshMs') => rounds.reduce((sum, r) => sum + r[key], 0);
    const share = total('freshMs') / total('replayMs');
    console.log(
      `auto-replay pace (${PACE_EVENTS} events a batch): ` +
        rounds
          .map(
            (r) =>
              `replayed ${rate(r.replayMs).toFixed(0)}/s vs fresh ${rate(r.freshMs).toFixed(0)}/s (${((100 * r.freshMs) / r.replayMs).toFixed(0)} %)`,
          )
          .join('; ') +
        `; overall ${(100 * share).toFixed(0)} % of the fresh pace`,
    );
  }, 180_000);
});

describe('replay in batches', () => {
  it("replays a site's whole DEAD backlog over several batches oldest first, skips one replayed meanwhile, audits and delivers each once", async () => {
    const EVENTS = 250;
    const site = await siteAt('/batches');
    const dead = await deadEvents(site, EVENTS);
    // One of them is replayed on its own first: the batch skips it rather than reopening it again.
    const deps = (ledger as LedgerService).deps;
    const actor = { type: 'SYSTEM' as const, id: 'test' };
    await replayEvent(deps, { eventId: dead[100]!, siteId: site.siteId, actor, requestId: 'single' });
    const rows = await db().outboxEvent.findMany({
      where: { id: { in: dead } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    const oldestFirst = rows.map((row) => row.id).filter((id) => id !== dead[100]);
    const until = new Date(Date.now() + 1_000);
    const result = await replayDeadEvents(deps, { siteId: site.siteId, since: new Date(0), until, actor, requestId: 'batches' });
    expect(result).toEqual({ replayed: EVENTS - 1, eventIds: oldestFirst });
    await waitFor('every event delivered', async () => (await delivered(dead)) === EVENTS, 60_000, 50);
    const audits = await db().auditLog.findMany({
      where: { action: EVENT_REPLAYED, entityType: 'outbox_event', entityId: { in: dead } },
      select: { entityId: true, actorId: true, siteId: true, metadata: true },
    });
    expect(audits).toHaveLength(EVENTS);
    expect(new Set(audits.map((a) => a.entityId)).size).toBe(EVENTS);
    for (const audit of audits) expect(audit).toMatchObject({ siteId: site.siteId, metadata: { previousStatus: 'DEAD' } });
    // One attempt each (cycle 1, job id <eventId>-r1): nothing enqueued twice.
    expect(await db().deliveryAttempt.count({ where: { eventId: { in: dead } } })).toBe(EVENTS);
    // Nothing DEAD is left to replay.
    expect(await replayDeadEvents(deps, { siteId: site.siteId, since: new Date(0), until, actor, requestId: 'again' })).toEqual({
      replayed: 0,
      eventIds: [],
    });
  }, 120_000);
});

describe('a ledger killed -9 mid-replay', () => {
  let first: SourceService | undefined;
  let second: SourceService | undefined;
  afterAll(async () => {
    await second?.stop();
  }, 30_000);

  it('is replaced by another ledger that resumes the replay within seconds, each event replayed once', async () => {
    const EVENTS = 240;
    const path = '/resume';
    // 100 ms an answer, 20 in flight: about 12 s of replay, long enough to kill it in the middle.
    slowness.set(path, 100);
    const { siteId, dead } = await siteWithDeadEvents(path, EVENTS);
    // Only the child ledgers replay from here on.
    await ledger?.stop();
    ledger = null;
    const childEnv: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: env.config.redisUrl,
      REDIS_PREFIX: env.redisPrefix,
      LEDGER_PORT: '0',
      ...FAST_DELIVERY_ENV,
      WEBHOOK_AUTO_REPLAY_WINDOW_HOURS: '72',
      WEBHOOK_SITE_CONCURRENCY: '10',
    };
    // Two ledgers, as deployed; the one that takes the job (its 'event replayed' lines say which) is killed.
    const ledgers = [await startFromSource('ledger', childEnv), await startFromSource('ledger', childEnv)];
    const reader = startLedgerReader();
    await queue.add('auto-replay', { siteId, trigger: 'probe', answeredAt: Date.now() }, { jobId: autoReplayJobId(siteId) });
    await waitFor('40 events replayed', async () => (await reader.audits(dead)) >= 40, 30_000, 50);
    const replaying = (service: SourceService) => service.lines.some((line) => line.text.includes('"event replayed"'));
    first = ledgers.find(replaying);
    second = ledgers.find((service) => service !== first);
    expect(first && second && !replaying(second)).toBe(true);
    if (!first) return;
    const beforeKill = await reader.audits(dead);
    expect(beforeKill).toBeLessThan(EVENTS * 0.75);
    const killedAt = Date.now();
    await first.kill();
    const resumedAt = await waitFor(
      'a replay after the kill',
      async () => ((await reader.audits(dead, new Date(killedAt))) > 0 ? Date.now() : null),
      30_000,
      50,
    );
    await waitFor('every event delivered', async () => (await reader.delivered(dead)) === EVENTS, 60_000, 100);
    const perEvent = await reader.auditsPerEvent(dead);
    console.log(
      `auto-replay resume: ${beforeKill} of ${EVENTS} replayed when the ledger was killed -9; another ledger resumed ` +
        `${resumedAt - killedAt} ms later (bound ${RESUME_BOUND_MS} ms); all delivered ${Date.now() - killedAt} ms after the kill`,
    );
    expect(resumedAt - killedAt).toBeLessThan(RESUME_BOUND_MS);
    expect(perEvent).toEqual(dead.map(() => 1));
  }, 180_000);
});

/** Reads for the second test, once the in-process ledger is stopped: plain SQL over a pool of the test's own. */
function startLedgerReader() {
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 2 });
  closeAfterAll.push(() => pool.end());
  const count = async (sql: string, params: unknown[]) => Number((await pool.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);
  return {
    audits: (eventIds: string[], since = new Date(0)) =>
      count(
        `SELECT count(*) AS n FROM audit_log WHERE action = $1 AND entity_type = 'outbox_event' AND entity_id = ANY($2) AND created_at >= $3`,
        [EVENT_REPLAYED, eventIds, since],
      ),
    delivered: (eventIds: string[]) =>
      count(`SELECT count(*) AS n FROM outbox_events WHERE status = 'DELIVERED' AND id = ANY($1::uuid[])`, [eventIds]),
    auditsPerEvent: async (eventIds: string[]) => {
      const { rows } = await pool.query<{ entity_id: string }>(
        `SELECT entity_id FROM audit_log WHERE action = $1 AND entity_type = 'outbox_event' AND entity_id = ANY($2)`,
        [EVENT_REPLAYED, eventIds],
      );
      return eventIds.map((id) => rows.filter((row) => row.entity_id === id).length);
    },
  };
}

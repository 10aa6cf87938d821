/**
 * PostgreSQL and Redis of the test's own, stopped under partner traffic. PostgreSQL down: every answer is a
 * success or a fast 503 with Retry-After (never a 500, never a hang) and readiness reports it. Redis down: the
 * partner API goes on from PostgreSQL (keys resolved by the ledger, limits counted per process, the ledger's
 * idempotency record deciding) and the gateway stays ready, marked degraded. After each restart the same
 * processes serve again and every webhook event is delivered.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from '@kasa/testkit';
import { emitMany } from '../../services/ledger/test/emit-event.js';
import { configureWebhook, createDeposit, startStack, waitFor, type Stack } from '../../services/webhook-worker/test/support/stack.js';
import type { TestSite } from '../../services/gateway/test/harness.js';

/** A 503 must arrive within about a second; the bound leaves room for a loaded two-core machine. */
const FAST_MS = 1_500;
/** How long each outage is kept up while traffic runs. */
const OUTAGE_MS = 4_000;

let postgres: PrivatePostgres;
let redis: PrivateRedis;
let stack: Stack;
let site: TestSite;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  redis = await startPrivateRedis();
  stack = await startStack({ DATABASE_URL: `${postgres.baseUrl}/kasa_outage`, REDIS_URL: redis.url, WEBHOOK_RETRY_DELAY_MS: '1000' });
  site = await stack.h.createSite({ rateLimitPerMinute: 100000 });
  await configureWebhook(stack.h, site, stack.receiver.url);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await redis?.stop();
  await postgres?.destroy();
}, 120_000);

interface Answer {
  kind: 'create' | 'lookup';
  status: number;
  ms: number;
  retryAfter: string | null;
  error: string | undefined;
  key: string;
  body: Record<string, unknown>;
}

async function call(kind: Answer['kind'], key: string = randomUUID(), lookupId?: string): Promise<Answer> {
  const started = Date.now();
  const url =
    kind === 'create' ? `${stack.h.gateway.url}/api/v1/external/deposits` : `${stack.h.gateway.url}/api/v1/external/intents/${lookupId}`;
  const response = await fetch(url, {
    method: kind === 'create' ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${site.apiKey}`,
      'content-type': 'application/json',
      ...(kind === 'create' ? { 'idempotency-key': key } : {}),
    },
    ...(kind === 'create' ? { body: JSON.stringify({ externalUserId: 'outage-user', amount: '150000' }) } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await response.json()) as Record<string, unknown>;
  return {
    kind,
    status: response.status,
    ms: Date.now() - started,
    retryAfter: response.headers.get('retry-after'),
    error: typeof body.error === 'string' ? body.error : undefined,
    key,
    body,
  };
}

/** Sends creates and lookups, `concurrency` at a time, for `ms` milliseconds; at most 2,000 requests. */
async function traffic(ms: number, lookupId: string, concurrency = 8): Promise<Answer[]> {
  const answers: Answer[] = [];
  const until = Date.now() + ms;
  const lane = async (index: number) => {
    for (let i = 0; Date.now() < until && answers.length < 2_000; i += 1) {
      answers.push(await call((index + i) % 2 === 0 ? 'create' : 'lookup', randomUUID(), lookupId));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => lane(index)));
  return answers;
}

function expectOnlySuccessOrFast503(answers: Answer[]) {
  const unexpected = answers.filter((a) => ![200, 201, 503].includes(a.status));
  expect(unexpected.map((a) => `${a.kind} ${a.status} ${a.error}`)).toEqual([]);
  const unavailable = answers.filter((a) => a.status === 503);
  for (const answer of unavailable) {
    expect(answer.error).toBe('service_unavailable');
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
  const slow = unavailable.filter((a) => a.ms > FAST_MS).map((a) => `${a.kind} 503 after ${a.ms} ms`);
  expect(slow).toEqual([]);
  return unavailable;
}

/** Waits until every one of `events` is DELIVERED (each was received by the partner's endpoint). */
async function allDelivered(what: string, events: { eventId: string }[]): Promise<void> {
  const ids = events.map((event) => event.eventId);
  await waitFor(
    what,
    async () => (await stack.h.ledger.deps.db.outboxEvent.count({ where: { id: { in: ids }, status: 'DELIVERED' } })) === ids.length,
    30_000,
    200,
  );
}

/** Runs `work` while a dependency is down: `stop` first, `start` again afterwards whatever `work` did. */
async function whileDown<T>(stop: () => Promise<void>, start: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  await stop();
  try {
    return await work();
  } finally {
    await start();
  }
}

async function readiness(url: string): Promise<number> {
  return (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) })).status;
}

describe('dependency outages under traffic', () => {
  it('PostgreSQL stopped: only fast 503s with Retry-After, then recovery without a restart', async () => {
    const intentId = await createDeposit(stack.h, site);
    const before = await emitMany(stack.h.ledger, { siteId: site.siteId, type: 'intent.approved', entityId: intentId }, 5);

    const { during, ready } = await whileDown(postgres.stop, postgres.start, async () => ({
      during: await traffic(OUTAGE_MS, intentId),
      ready: await readiness(stack.h.ledger.url),
    }));
    expect(ready).toBe(503);

    const unavailable = expectOnlySuccessOrFast503(during);
    // Lookups and creates need PostgreSQL (a cached API key still authenticates), so the outage was seen.
    expect(unavailable.length).toBeGreaterThan(0);

    // The same processes serve again once PostgreSQL is back; a create that got 503 is retried with its key.
    await waitFor('the ledger ready again', async () => (await readiness(stack.h.ledger.url)) === 200, 20_000, 200);
    const failedCreates = unavailable.filter((a) => a.kind === 'create').slice(0, 20);
    for (const failed of failedCreates) {
      const retry = await call('create', failed.key);
      expect(retry.status).toBe(201);
      expect((await call('create', failed.key)).body.intentId).toBe(retry.body.intentId);
    }
    await allDelivered('every event created before the outage DELIVERED', before);
  }, 120_000);

  it('Redis stopped: the partner API keeps serving from PostgreSQL, limits hold per process, and every event is delivered after', async () => {
    const intentId = await createDeposit(stack.h, site);
    // A key never seen before the outage (resolved by the ledger during it) and a site with a small budget.
    const limited = await stack.h.createSite({ rateLimitPerMinute: 5 });

    const { during, retries, concurrent, list, events, limitedStatuses, written, ready } = await whileDown(
      redis.kill,
      redis.restart,
      async () => {
        const during = await traffic(OUTAGE_MS, intentId);
        // A create retried with its key is answered from the ledger's own record of the key: the same intent.
        const first = await call('create');
        const retries = [first, await call('create', first.key)];
        // Twenty at once with one new key: without Redis's claim, the ledger's unique key still makes one record.
        const sharedKey = randomUUID();
        const concurrent = await Promise.all(Array.from({ length: 20 }, () => call('create', sharedKey)));
        const list = await fetch(`${stack.h.gateway.url}/api/v1/external/intents?limit=5`, {
          headers: { authorization: `Bearer ${site.apiKey}` },
          signal: AbortSignal.timeout(10_000),
        });
        const events = await fetch(`${stack.h.gateway.url}/api/v1/external/events?limit=5`, {
          headers: { authorization: `Bearer ${site.apiKey}` },
          signal: AbortSignal.timeout(10_000),
        });
        const limitedStatuses: number[] = [];
        for (let i = 0; i < 7; i += 1) {
          const answer = await fetch(`${stack.h.gateway.url}/api/v1/external/intents?limit=1`, {
            headers: { authorization: `Bearer ${limited.apiKey}` },
            signal: AbortSignal.timeout(10_000),
          });
          limitedStatuses.push(answer.status);
        }
        return {
          during,
          retries,
          concurrent,
          list: list.status,
          events: events.status,
          limitedStatuses,
          // Events written while Redis is down wait in the outbox; the relay hands them over when it is back.
          written: await emitMany(stack.h.ledger, { siteId: site.siteId, type: 'intent.rejected', entityId: intentId }, 5),
          ready: await fetch(`${stack.h.gateway.url}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(async (response) => ({
            status: response.status,
            body: (await response.json()) as { status: string },
          })),
        };
      },
    );

    const byStatus = (answers: Answer[]) =>
      answers.reduce<Record<string, number>>((t, a) => ({ ...t, [`${a.kind} ${a.status}`]: (t[`${a.kind} ${a.status}`] ?? 0) + 1 }), {});
    console.log(`redis stopped: ${during.length} partner requests`, byStatus(during), `slowest ${Math.max(...during.map((a) => a.ms))} ms`);
    // Every create and lookup answered, none with 503, and quickly.
    expect(during.filter((a) => ![200, 201].includes(a.status)).map((a) => `${a.kind} ${a.status} ${a.error}`)).toEqual([]);
    expect(during.filter((a) => a.ms > FAST_MS).map((a) => `${a.kind} ${a.status} after ${a.ms} ms`)).toEqual([]);
    expect(during.length).toBeGreaterThan(20);
    expect(retries.map((a) => a.status)).toEqual([201, 201]);
    expect(retries[1]!.body.intentId).toBe(retries[0]!.body.intentId);
    expect(concurrent.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 201));
    expect(new Set(concurrent.map((a) => a.body.intentId)).size).toBe(1);
    expect(list).toBe(200);
    expect(events).toBe(200);
    // The site's budget of 5 a minute still holds, counted in this gateway process.
    expect(limitedStatuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // The gateway stays in service, saying it runs without Redis.
    expect(ready).toEqual({ status: 200, body: expect.objectContaining({ status: 'degraded' }) });

    await waitFor(
      'the gateway using Redis again',
      async () => ((await fetch(`${stack.h.gateway.url}/readyz`).then((r) => r.json())) as { status: string }).status === 'ready',
      20_000,
      200,
    );
    const afterwards = await call('create');
    expect(afterwards.status).toBe(201);
    await allDelivered('every event written during the outage DELIVERED', written);
  }, 120_000);
});

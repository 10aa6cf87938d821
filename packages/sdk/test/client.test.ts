/**
 * @kasa/sdk against a real gateway and ledger: creates, lookups, lists and iteration; retries that keep their
 * Idempotency-Key through a lost answer, a timeout and a 429; typed errors; the webhook config update.
 * Faults are injected by a real HTTP proxy in front of the gateway (test/support/faulty-proxy.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { KasaApiError, KasaClient, KasaNetworkError } from '../src/index.js';
import { startHarness, type TestSite } from '../../../services/gateway/test/harness.js';
import { emitEvents } from '../../../services/ledger/test/emit-event.js';
import { startFaultyProxy, type Fault, type FaultyProxy, type SeenRequest } from './support/faulty-proxy.js';

// WEBHOOK_ALLOWED_HOSTS lets the webhook config point at localhost (no receiver is needed to configure one).
const file = useHarness(() => startHarness({ WEBHOOK_ALLOWED_HOSTS: 'localhost' }));

async function freshSite(): Promise<{ site: TestSite; kasa: KasaClient }> {
  const site = await file.h.createSite({ rateLimitPerMinute: 10000 });
  return { site, kasa: new KasaClient({ baseUrl: file.h.gateway.url, apiKey: site.apiKey }) };
}

/** Runs `use` with a proxy in front of the gateway, closing it afterwards. */
async function withProxy<T>(plan: (request: SeenRequest, index: number) => Fault, use: (proxy: FaultyProxy) => Promise<T>): Promise<T> {
  const proxy = await startFaultyProxy(file.h.gateway.url, plan);
  try {
    return await use(proxy);
  } finally {
    await proxy.close();
  }
}

/** The error a promise rejects with (fails the test if it resolves). */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

async function intentIds(kasa: KasaClient): Promise<string[]> {
  const ids: string[] = [];
  for await (const intent of kasa.intents.iterate()) ids.push(intent.intentId);
  return ids;
}

describe('calls against the gateway', () => {
  it('creates, looks up, lists and iterates deposits and withdrawals', async () => {
    const { kasa } = await freshSite();
    const created = [];
    for (const amount of ['150000', '160000', '170000']) created.push(await kasa.deposits.create({ externalUserId: 'sdk-user', amount }));
    expect(created[0]!.depositUrl).toMatch(/\/deposit\//);
    const intent = await kasa.intents.get(created[0]!.intentId);
    expect(intent).toMatchObject({ intentId: created[0]!.intentId, status: 'RESERVED', amount: '150000' });

    const page = await kasa.intents.list({ limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const rest = await kasa.intents.list({ limit: 2, cursor: page.nextCursor! });
    expect(rest.data).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    // One item per page: iterate() must follow nextCursor through three pages (newest first).
    const iterated: string[] = [];
    for await (const item of kasa.intents.iterate({ limit: 1 })) iterated.push(item.intentId);
    expect(iterated).toEqual(created.map((c) => c.intentId).reverse());
    expect(await intentIds(kasa)).toEqual(iterated);
    const none: string[] = [];
    for await (const item of kasa.intents.iterate({ status: 'APPROVED' })) none.push(item.intentId);
    expect(none).toEqual([]);

    const withdrawals = [];
    for (const n of [1, 2]) {
      withdrawals.push(
        await kasa.withdrawals.create({
          externalUserId: 'sdk-user',
          amount: `5000${n}`,
          targetIban: makeTrIban(770 + n),
          targetHolderName: 'Ayşe Yılmaz',
        }),
      );
    }
    await expect(kasa.withdrawals.get(withdrawals[0]!.withdrawalId)).resolves.toMatchObject({
      withdrawalId: withdrawals[0]!.withdrawalId,
      amount: '50001',
    });
    expect((await kasa.withdrawals.list({ limit: 1 })).nextCursor).not.toBeNull();
    const listed: string[] = [];
    for await (const item of kasa.withdrawals.iterate({ limit: 1 })) listed.push(item.withdrawalId);
    expect(listed.sort()).toEqual(withdrawals.map((w) => w.withdrawalId).sort());
  });

  it('lists, gets and replays events, and a replay of a PENDING event is a typed conflict', async () => {
    const { site, kasa } = await freshSite();
    const { intentId } = await kasa.deposits.create({ externalUserId: 'events-user', amount: '120000' });
    // No worker runs here, so the events stay PENDING.
    const emitted = await emitEvents(
      file.h.ledger,
      [1, 2, 3].map(() => ({ siteId: site.siteId, type: 'intent.approved' as const, entityId: intentId })),
      false,
    );
    const ids = emitted.map((e) => e.eventId);
    const seen: string[] = [];
    for await (const event of kasa.events.iterate({ limit: 2, type: 'intent.approved' })) seen.push(event.eventId);
    expect(seen.sort()).toEqual([...ids].sort());
    expect((await kasa.events.list({ status: 'DELIVERED' })).data).toEqual([]);
    const one = await kasa.events.get(ids[0]!);
    expect(one).toMatchObject({ eventId: ids[0], status: 'PENDING', attempts: [] });

    const conflict = await failure(kasa.events.replay(ids[0]!));
    expect(conflict).toBeInstanceOf(KasaApiError);
    expect(conflict).toMatchObject({ status: 409, code: 'conflict' });

    await file.h.ledger.deps.db.outboxEvent.update({ where: { id: ids[1]! }, data: { status: 'DEAD', deadAt: new Date() } });
    const replayed = await kasa.events.replay(ids[1]!, { idempotencyKey: `replay-${ids[1]}` });
    expect(replayed).toMatchObject({ eventId: ids[1], status: 'PENDING', deadAt: null });
    await expect(kasa.events.replay(ids[1]!, { idempotencyKey: `replay-${ids[1]}` })).resolves.toEqual(replayed);
  });

  it('throws typed errors by code: 400, 401, 404 and 422', async () => {
    const { site, kasa } = await freshSite();
    const invalid = await failure(kasa.deposits.create({ externalUserId: 'u', amount: '0' }));
    expect(invalid).toBeInstanceOf(KasaApiError);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed', requestId: expect.any(String) });
    expect((invalid as KasaApiError).fieldErrors.map((f) => f.field)).toContain('amount');

    const stranger = new KasaClient({ baseUrl: file.h.gateway.url, apiKey: `sk_live_${site.slug}_${'x'.repeat(40)}` });
    expect(await failure(stranger.intents.list())).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await failure(kasa.intents.get('00000000-0000-4000-8000-000000000000'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await failure(kasa.withdrawals.get('00000000-0000-4000-8000-000000000000'))).toMatchObject({ status: 404, code: 'not_found' });

    await kasa.deposits.create({ externalUserId: 'u', amount: '10000' }, { idempotencyKey: 'sdk-reused-key' });
    const reused = await failure(kasa.deposits.create({ externalUserId: 'u', amount: '10001' }, { idempotencyKey: 'sdk-reused-key' }));
    expect(reused).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
  });

  it('sets the webhook URL, with a new secret unless rotateSecret is false', async () => {
    const { kasa } = await freshSite();
    const rotated = await kasa.webhookConfig.update({ webhookUrl: 'https://localhost:9443/hooks/kasa' });
    expect(rotated.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const kept = await kasa.webhookConfig.update({ webhookUrl: 'https://localhost:9444/hooks/kasa', rotateSecret: false });
    expect(kept).toMatchObject({ webhookUrl: 'https://localhost:9444/hooks/kasa', webhookSecret: null });
    expect(await failure(kasa.webhookConfig.update({ webhookUrl: 'http://localhost:9443/hooks' }))).toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });
});

describe('retries', () => {
  it('repeats a create whose answers were lost (503) with the same Idempotency-Key, and one intent exists', async () => {
    const { site, kasa } = await freshSite();
    await withProxy(
      (_request, index) => (index < 2 ? { kind: 'lose', status: 503 } : { kind: 'forward' }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, retryBaseMs: 5 });
        const created = await client.deposits.create({ externalUserId: 'retry-user', amount: '99000' });
        expect(proxy.requests).toHaveLength(3);
        expect(proxy.requests[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
        expect(new Set(proxy.requests.map((r) => r.idempotencyKey)).size).toBe(1);
        expect(await intentIds(kasa)).toEqual([created.intentId]);
      },
    );
  });

  it('repeats a create that timed out with the same Idempotency-Key, and one intent exists', async () => {
    const { site, kasa } = await freshSite();
    await withProxy(
      (_request, index) => (index === 0 ? { kind: 'late', delayMs: 1_500 } : { kind: 'forward' }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, timeoutMs: 400, retryBaseMs: 5 });
        const created = await client.withdrawals.create({
          externalUserId: 'timeout-user',
          amount: '42000',
          targetIban: makeTrIban(4242),
          targetHolderName: 'Mehmet Demir',
        });
        expect(proxy.requests).toHaveLength(2);
        expect(proxy.requests[1]!.idempotencyKey).toBe(proxy.requests[0]!.idempotencyKey);
        const all: string[] = [];
        for await (const w of kasa.withdrawals.iterate()) all.push(w.withdrawalId);
        expect(all).toEqual([created.withdrawalId]);
      },
    );
  });

  it('waits for the Retry-After of a 429 before repeating, with the same key', async () => {
    const { site, kasa } = await freshSite();
    await withProxy(
      (_request, index) => (index === 0 ? { kind: 'refuse', status: 429, headers: { 'retry-after': '1' } } : { kind: 'forward' }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, retryBaseMs: 1 });
        const created = await client.deposits.create({ externalUserId: 'patient-user', amount: '30000' });
        expect(proxy.requests).toHaveLength(2);
        // A lower bound, not a speed target: with a 1 ms backoff only Retry-After can account for the gap.
        expect(proxy.requests[1]!.at - proxy.requests[0]!.at).toBeGreaterThanOrEqual(950);
        expect(proxy.requests[1]!.idempotencyKey).toBe(proxy.requests[0]!.idempotencyKey);
        expect(await intentIds(kasa)).toEqual([created.intentId]);
      },
    );
  });

  it('gives up after maxRetries and throws the last answer as a typed error', async () => {
    const { site } = await freshSite();
    await withProxy(
      () => ({ kind: 'refuse', status: 503 }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, retryBaseMs: 1, maxRetries: 2 });
        expect(await failure(client.intents.list())).toMatchObject({ status: 503, code: 'service_unavailable' });
        expect(proxy.requests).toHaveLength(3);
      },
    );
  });

  it('never repeats a 4xx other than 429', async () => {
    const { site } = await freshSite();
    await withProxy(
      () => ({ kind: 'forward' }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, retryBaseMs: 1 });
        expect(await failure(client.deposits.create({ externalUserId: 'u', amount: '0' }))).toMatchObject({ status: 400 });
        expect(await failure(client.intents.get('00000000-0000-4000-8000-000000000000'))).toMatchObject({ status: 404 });
        expect(proxy.requests).toHaveLength(2);
      },
    );
  });

  it('reports a gateway that never answers as a KasaNetworkError after every retry', async () => {
    const { site } = await freshSite();
    await withProxy(
      () => ({ kind: 'late', delayMs: 2_000 }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, timeoutMs: 200, retryBaseMs: 1, maxRetries: 1 });
        expect(await failure(client.intents.list())).toBeInstanceOf(KasaNetworkError);
        expect(proxy.requests).toHaveLength(2);
      },
    );
  });

  it('does not repeat a secret-rotating webhook config update whose answer was lost, but repeats a URL-only one', async () => {
    const { site } = await freshSite();
    await withProxy(
      (_request, index) => (index === 0 || index === 1 ? { kind: 'lose', status: 503 } : { kind: 'forward' }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, retryBaseMs: 1 });
        // The gateway did rotate; repeating would rotate again and drop the secret the partner still holds.
        const rotating = await failure(client.webhookConfig.update({ webhookUrl: 'https://localhost:9443/hooks/kasa' }));
        expect(rotating).toMatchObject({ status: 503, code: 'service_unavailable' });
        expect(proxy.requests).toHaveLength(1);
        const kept = await client.webhookConfig.update({ webhookUrl: 'https://localhost:9445/hooks/kasa', rotateSecret: false });
        expect(kept).toMatchObject({ webhookUrl: 'https://localhost:9445/hooks/kasa', webhookSecret: null });
        expect(proxy.requests).toHaveLength(3);
      },
    );
  });
});

describe('partner reads and recovery', () => {
  it('reads the balance and webhook config, recovers DEAD events, and catches up on events since a checkpoint', async () => {
    const { site, kasa } = await freshSite();
    expect(await kasa.balance.get()).toEqual({ available: '0', reserved: '0', currency: 'TRY' });
    await kasa.webhookConfig.update({ webhookUrl: 'https://localhost:9443/hooks', rotateSecret: true });
    expect(await kasa.webhookConfig.get()).toEqual({
      webhookUrl: 'https://localhost:9443/hooks',
      rotatedAt: expect.any(String),
      eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned'],
    });

    const intentId = (await kasa.deposits.create({ externalUserId: 'sdk-user', amount: '150000' })).intentId;
    const emit = async (count: number) =>
      (
        await emitEvents(
          file.h.ledger,
          Array.from({ length: count }, () => ({ siteId: site.siteId, type: 'intent.approved' as const, entityId: intentId })),
          false,
        )
      ).map((e) => e.eventId);
    const first = await emit(3);
    const db = file.h.ledger.deps.db;
    await db.outboxEvent.update({ where: { id: first[0]! }, data: { status: 'DEAD', deadAt: new Date() } });
    const recovered = await kasa.events.recover({ since: new Date(Date.now() - 3600_000).toISOString() });
    expect(recovered).toEqual({ replayed: 1, eventIds: [first[0]] });

    // A run stopped early keeps the checkpoint it was given; a full run moves it to the newest event read.
    const early = kasa.events.since(undefined, { query: { limit: 1 } });
    for await (const event of early) {
      expect(first).toContain(event.eventId);
      break;
    }
    expect(early.checkpoint).toBeUndefined();
    const feed = kasa.events.since(undefined, { query: { limit: 2 } });
    const seen: string[] = [];
    for await (const event of feed) seen.push(event.eventId);
    expect(seen.sort()).toEqual([...first].sort());
    const newest = (await kasa.events.list({ limit: 1 })).data[0]!.createdAt;
    expect(feed.checkpoint).toBe(newest);

    // Events created an hour ago are outside the next run's window; new ones are in it.
    await db.outboxEvent.updateMany({ where: { id: { in: first } }, data: { createdAt: new Date(Date.now() - 3600_000) } });
    const later = await emit(2);
    const next = kasa.events.since(new Date(Date.now() - 5 * 60_000).toISOString());
    const caughtUp: string[] = [];
    for await (const event of next) caughtUp.push(event.eventId);
    expect(caughtUp.sort()).toEqual([...later].sort());
    expect(() => kasa.events.since('not a time')).toThrow(TypeError);
  });
});

describe('the sandbox', () => {
  /** A site, its live client, and a client with a test key of its sandbox. */
  async function testClient(): Promise<{ live: KasaClient; test: KasaClient; testKey: string }> {
    const { site, kasa } = await freshSite();
    const issued = await file.h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
    expect(issued.status).toBe(201);
    const testKey = issued.body.apiKey as string;
    return { live: kasa, test: new KasaClient({ baseUrl: file.h.gateway.url, apiKey: testKey }), testKey };
  }

  it('simulates a transfer and approves it with a test key, keeping the Idempotency-Key through a lost answer', async () => {
    const { test, testKey } = await testClient();
    const { intentId } = await test.deposits.create({ externalUserId: 'sandbox-user', amount: '150000', externalUserLabel: 'Ayşe Yılmaz' });
    const money = await withProxy(
      (_request, index) => (index === 0 ? { kind: 'lose', status: 503 } : { kind: 'forward' }),
      async (proxy) => {
        const client = new KasaClient({ baseUrl: proxy.url, apiKey: testKey, retryBaseMs: 1 });
        const simulated = await client.sandbox.simulateTransfer(intentId);
        expect(proxy.requests).toHaveLength(2);
        expect(proxy.requests[1]!.idempotencyKey).toBe(proxy.requests[0]!.idempotencyKey);
        return simulated;
      },
    );
    expect(money).toMatchObject({
      status: 'MATCHED',
      amount: '150000',
      matchReasons: ['reference_exact', 'amount_exact', 'sender_matches_user'],
      intent: { intentId, status: 'PENDING_REVIEW' },
    });
    // One transfer arrived despite the retry: approving credits it once.
    const approved = await test.sandbox.approveDeposit(intentId);
    expect(approved).toMatchObject({ intentId, status: 'APPROVED', amount: '150000', eventId: expect.any(String) });
    expect(await test.balance.get()).toMatchObject({ available: '150000' });
  });

  it('walks a withdrawal to returned with a reason code, and a live key gets not_found from the simulator', async () => {
    const { live, test } = await testClient();
    const { intentId } = await test.deposits.create({ externalUserId: 'sandbox-user', amount: '90000' });
    await test.sandbox.simulateTransfer(intentId, { senderName: 'Mehmet Demir' });
    await test.sandbox.approveDeposit(intentId, { amount: '90000' });
    const { withdrawalId } = await test.withdrawals.create({
      externalUserId: 'sandbox-user',
      amount: '40000',
      targetIban: makeTrIban(8080),
      targetHolderName: 'Mehmet Demir',
    });
    await expect(test.sandbox.approveWithdrawal(withdrawalId)).resolves.toMatchObject({ status: 'APPROVED', eventId: null });
    await expect(test.sandbox.sendWithdrawal(withdrawalId)).resolves.toMatchObject({ status: 'SENT', eventId: expect.any(String) });
    await expect(test.sandbox.returnWithdrawal(withdrawalId, { reasonCode: 'AC01' })).resolves.toMatchObject({ status: 'RETURNED' });

    const theirs = await live.deposits.create({ externalUserId: 'live-user', amount: '10000' });
    expect(await failure(live.sandbox.simulateTransfer(theirs.intentId))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await failure(live.sandbox.expireDeposit(theirs.intentId))).toMatchObject({ status: 404, code: 'not_found' });
  });
});

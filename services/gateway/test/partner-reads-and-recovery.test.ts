import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { emitEvents } from '../../ledger/test/emit-event.js';
import { partner } from './partner-client.js';
import { startHarness, validIban, type Harness, type TestSite } from './harness.js';

/** Partner reads and recovery (docs/api.md): webhook config read, balance, `nextAttemptAt`, recover DEAD events. */
let h: Harness;
beforeAll(async () => {
  // No relay or worker runs here: each event's delivery fields are set by the test. Webhook URLs on 127.0.0.2 and .3 are allowed.
  h = await startHarness({ OUTBOX_RELAY_INTERVAL_MS: '600000', WEBHOOK_ALLOWED_HOSTS: '127.0.0.2,127.0.0.3' });
});
afterAll(async () => {
  await h?.stop();
});

const MINUTE = 60_000;

async function siteWithEvents(count: number) {
  const site = await h.createSite();
  const client = partner(h.gateway.url, site);
  const intentId = (await client.createDeposit()).body.intentId as string;
  const payloads = await emitEvents(
    h.ledger,
    Array.from({ length: count }, () => ({ siteId: site.siteId, type: 'intent.approved' as const, entityId: intentId })),
  );
  return { site, client, ids: payloads.map((payload) => payload.eventId) };
}

const setEvent = (
  eventId: string,
  data: { status?: 'PENDING' | 'DELIVERED' | 'DEAD'; attemptCount?: number; lastAttemptAt?: Date; createdAt?: Date },
) =>
  h.ledger.deps.db.outboxEvent.update({
    where: { id: eventId },
    data: {
      ...data,
      ...(data.status === 'DEAD' ? { deadAt: new Date() } : {}),
      ...(data.status === 'DELIVERED' ? { deliveredAt: new Date() } : {}),
    },
  });

function recover(site: TestSite, body: unknown, key: string | null = randomUUID()) {
  const call = request(h.gateway.url).post('/api/v1/external/events/recover').set('authorization', `Bearer ${site.apiKey}`);
  if (key !== null) call.set('idempotency-key', key);
  return call.send(body as object);
}

describe('GET /api/v1/external/site/webhook-config', () => {
  it('answers the URL and rotation time, never the secret, and only for the calling site', async () => {
    const site = await h.createSite();
    const other = await h.createSite({ webhookUrl: 'https://127.0.0.3:9443/hooks' });
    const read = (s: TestSite) => partner(h.gateway.url, s).get('/api/v1/external/site/webhook-config');
    const before = await read(site);
    expect(before.status).toBe(200);
    const stored = await h.ledger.deps.db.site.findUniqueOrThrow({ where: { id: site.siteId } });
    expect(before.body).toEqual({
      webhookUrl: null,
      rotatedAt: stored.webhookRotatedAt?.toISOString() ?? null,
      eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned'],
    });

    const put = await request(h.gateway.url)
      .put('/api/v1/external/site/webhook-config')
      .set('authorization', `Bearer ${site.apiKey}`)
      .send({ webhookUrl: 'https://127.0.0.2:9443/hooks/recovered' });
    expect(put.status).toBe(200);
    const after = await read(site);
    expect(after.body).toEqual({
      webhookUrl: 'https://127.0.0.2:9443/hooks/recovered',
      rotatedAt: put.body.rotatedAt,
      eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned'],
    });
    expect(JSON.stringify(after.body)).not.toContain('whsec_');
    expect(after.headers['cache-control']).toContain('no-store');

    expect((await read(other)).body.webhookUrl).toBe('https://127.0.0.3:9443/hooks');
    expect((await request(h.gateway.url).get('/api/v1/external/site/webhook-config')).status).toBe(401);
  });
});

describe('GET /api/v1/external/balance', () => {
  it("follows the site's journal: an approved deposit is available, an approved withdrawal moves to reserved", async () => {
    const site = await h.createSite();
    const other = await h.createSite();
    const client = partner(h.gateway.url, site);
    const balance = async (s: TestSite = site) => (await partner(h.gateway.url, s).get('/api/v1/external/balance')).body;
    expect(await balance()).toEqual({ available: '0', reserved: '0', currency: 'TRY' });

    const created = (await client.createDeposit({ amount: '150000' })).body as { intentId: string; referenceNo: string };
    const transfer = await h.ops('POST', '/ops/v1/bank-transfers', {
      bankTxId: `balance-${created.intentId}`,
      amount: '150000',
      senderName: 'Ayşe Yılmaz',
      senderIban: validIban(4343),
      description: created.referenceNo,
      receivedAt: new Date().toISOString(),
    });
    expect(transfer.status).toBe(201);
    expect((await h.ops('POST', `/ops/v1/intents/${created.intentId}/approve`, {})).status).toBe(200);
    expect(await balance()).toEqual({ available: '150000', reserved: '0', currency: 'TRY' });

    const withdrawalId = (await client.createWithdrawal({ amount: '50000' })).body.withdrawalId as string;
    expect((await h.ops('POST', `/ops/v1/withdrawals/${withdrawalId}/approve`, {})).status).toBe(200);
    expect(await balance()).toEqual({ available: '100000', reserved: '50000', currency: 'TRY' });

    expect(await balance(other)).toEqual({ available: '0', reserved: '0', currency: 'TRY' });
  });
});

describe('nextAttemptAt', () => {
  it('is the creation before any attempt, the last attempt plus the retry delay while PENDING, and null once DELIVERED or DEAD', async () => {
    const { client, ids } = await siteWithEvents(4);
    const [fresh, retrying, delivered, dead] = ids as [string, string, string, string];
    const lastAttemptAt = new Date(Date.now() - MINUTE);
    // Created before its last attempt, as a real one is.
    await setEvent(retrying, { attemptCount: 3, lastAttemptAt, createdAt: new Date(Date.now() - 10 * MINUTE) });
    await setEvent(delivered, { status: 'DELIVERED', attemptCount: 1, lastAttemptAt });
    await setEvent(dead, { status: 'DEAD', attemptCount: 8, lastAttemptAt });

    const list = (await client.get('/api/v1/external/events?limit=10')).body.data as Array<{
      eventId: string;
      createdAt: string;
      nextAttemptAt: string | null;
    }>;
    const byId = new Map(list.map((event) => [event.eventId, event]));
    expect(byId.get(fresh)!.nextAttemptAt).toBe(byId.get(fresh)!.createdAt);
    expect(byId.get(retrying)!.nextAttemptAt).toBe(new Date(lastAttemptAt.getTime() + h.env.config.webhookRetryDelayMs).toISOString());
    expect(byId.get(delivered)!.nextAttemptAt).toBeNull();
    expect(byId.get(dead)!.nextAttemptAt).toBeNull();
    // The single read agrees with the list.
    expect((await client.get(`/api/v1/external/events/${retrying}`)).body.nextAttemptAt).toBe(byId.get(retrying)!.nextAttemptAt);
  });

  it("is the replay itself after a replay, not the previous cycle's last attempt plus the delay", async () => {
    const { site, client, ids } = await siteWithEvents(1);
    const eventId = ids[0]!;
    await setEvent(eventId, { status: 'DEAD', attemptCount: 8, lastAttemptAt: new Date(Date.now() - 2 * MINUTE) });
    const replayed = await request(h.gateway.url)
      .post(`/api/v1/external/events/${eventId}/replay`)
      .set('authorization', `Bearer ${site.apiKey}`)
      .set('idempotency-key', randomUUID());
    expect(replayed.status).toBe(202);
    const audit = await h.ledger.deps.db.auditLog.findFirstOrThrow({ where: { entityId: eventId, action: 'EVENT.REPLAYED' } });
    expect(replayed.body.nextAttemptAt).toBe(audit.createdAt.toISOString());
    expect((await client.get(`/api/v1/external/events/${eventId}`)).body.nextAttemptAt).toBe(audit.createdAt.toISOString());
  });
});

describe('POST /api/v1/external/events/recover', () => {
  it('replays every DEAD event of the site created in the window, and nothing else', async () => {
    const { site, ids } = await siteWithEvents(5);
    const theirs = await siteWithEvents(1);
    const now = Date.now();
    const [old, inWindowA, inWindowB, pending, delivered] = ids as [string, string, string, string, string];
    await setEvent(old, { status: 'DEAD', createdAt: new Date(now - 3 * 24 * 60 * MINUTE) });
    await setEvent(inWindowA, { status: 'DEAD', createdAt: new Date(now - 2 * MINUTE) });
    await setEvent(inWindowB, { status: 'DEAD', createdAt: new Date(now - MINUTE) });
    await setEvent(delivered, { status: 'DELIVERED' });
    await setEvent(theirs.ids[0]!, { status: 'DEAD', createdAt: new Date(now - MINUTE) });

    const key = randomUUID();
    const since = new Date(now - 24 * 60 * MINUTE).toISOString();
    const response = await recover(site, { since }, key);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ replayed: 2, eventIds: [inWindowA, inWindowB] });
    const statusOf = async (id: string) => (await h.ledger.deps.db.outboxEvent.findUniqueOrThrow({ where: { id } })).status;
    expect(await statusOf(inWindowA)).toBe('PENDING');
    expect(await statusOf(old)).toBe('DEAD');
    expect(await statusOf(pending)).toBe('PENDING');
    expect(await statusOf(delivered)).toBe('DELIVERED');
    // Another site's DEAD event in the same window is untouched, and that site's own recovery finds it.
    expect(await statusOf(theirs.ids[0]!)).toBe('DEAD');
    const audit = await h.ledger.deps.db.auditLog.findMany({
      where: { entityId: { in: [inWindowA, inWindowB] }, action: 'EVENT.REPLAYED' },
    });
    expect(audit).toHaveLength(2);
    expect(audit.every((entry) => entry.actorType === 'API_KEY' && entry.actorId === site.apiKeyId)).toBe(true);
    expect(await h.ledger.deps.webhookQueue.getJob(`${inWindowA}-r1`)).toBeDefined();

    const again = await recover(site, { since }, key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(response.body);
    expect(await h.ledger.deps.db.auditLog.count({ where: { entityId: { in: [inWindowA, inWindowB] }, action: 'EVENT.REPLAYED' } })).toBe(
      2,
    );

    // A fresh key finds nothing left to recover; the other site recovers its own.
    expect((await recover(site, { since })).body).toEqual({ replayed: 0, eventIds: [] });
    expect((await recover(theirs.site, { since })).body).toEqual({ replayed: 1, eventIds: [theirs.ids[0]] });
  });

  it('answers from the durable record when Redis has forgotten the key, and refuses the key with another window', async () => {
    const { site, ids } = await siteWithEvents(1);
    await setEvent(ids[0]!, { status: 'DEAD' });
    const key = randomUUID();
    const since = new Date(Date.now() - 60 * MINUTE).toISOString();
    const first = await recover(site, { since }, key);
    expect(first.body).toEqual({ replayed: 1, eventIds: [ids[0]] });
    const keys = await h.gateway.deps.redis.keys(`${h.env.redisPrefix}:idem:*`);
    await h.gateway.deps.redis.del(...keys);
    const again = await recover(site, { since }, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const reused = await recover(site, { since: new Date(Date.now() - 30 * MINUTE).toISOString() }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency_key_reused');
  });

  it('validates the window: since before until, at most 31 days, timestamps only, and an Idempotency-Key', async () => {
    const site = await h.createSite();
    const at = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * 24 * 60 * MINUTE).toISOString();
    const refused = async (body: unknown, key?: string | null) => {
      const response = await recover(site, body, key);
      expect(response.status).toBe(400);
      return response.body;
    };
    expect((await refused({ since: at(1), until: at(1) })).errors).toEqual([{ field: 'since', message: 'must be before until' }]);
    expect((await refused({ since: at(2), until: at(1) })).error).toBe('validation_failed');
    expect((await refused({ since: at(0), until: at(31.5) })).errors).toEqual([
      { field: 'until', message: 'must be at most 31 days after since' },
    ]);
    expect((await refused({ since: new Date(Date.now() - 40 * 24 * 60 * MINUTE).toISOString() })).errors[0].field).toBe('until');
    expect((await refused({ since: 'yesterday' })).error).toBe('validation_failed');
    expect((await refused({})).error).toBe('validation_failed');
    expect((await refused({ since: at(0), until: at(1), all: true })).error).toBe('validation_failed');
    expect((await refused({ since: at(0) }, null)).error).toBe('idempotency_key_missing');
    expect((await recover(site, { since: at(0), until: at(31) })).body).toEqual({ replayed: 0, eventIds: [] });
  });
});

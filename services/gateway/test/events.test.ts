import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { emitEvents } from '../../ledger/test/emit-event.js';
import { partner } from './partner-client.js';
import { startHarness, type Harness, type TestSite } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ OUTBOX_RELAY_INTERVAL_MS: '600000' });
});
afterAll(async () => {
  await h?.stop();
});

/** A site with one deposit and one withdrawal, and events about them (no worker runs in this file). */
async function siteWithEvents(types: Array<'intent.approved' | 'intent.rejected' | 'withdrawal.sent'>) {
  const site = await h.createSite();
  const client = partner(h.gateway.url, site);
  const intentId = (await client.createDeposit()).body.intentId as string;
  const withdrawalId = (await client.createWithdrawal()).body.withdrawalId as string;
  const ids: string[] = [];
  for (const type of types) {
    const [payload] = await emitEvents(h.ledger, [
      { siteId: site.siteId, type, entityId: type.startsWith('intent') ? intentId : withdrawalId },
    ]);
    ids.push(payload!.eventId);
  }
  return { site, client, ids };
}

const setStatus = (eventId: string, status: 'DEAD' | 'DELIVERED') =>
  h.ledger.deps.db.outboxEvent.update({
    where: { id: eventId },
    data: { status, ...(status === 'DEAD' ? { deadAt: new Date() } : { deliveredAt: new Date() }) },
  });

function replay(site: TestSite, eventId: string, key: string | null = randomUUID()) {
  const call = request(h.gateway.url).post(`/api/v1/external/events/${eventId}/replay`).set('authorization', `Bearer ${site.apiKey}`);
  if (key !== null) call.set('idempotency-key', key);
  return call;
}

const ops = (method: 'get' | 'post', path: string, token = h.env.config.opsBootstrapToken) =>
  request(h.ledger.url)[method](path).set('authorization', `Bearer ${token}`);

describe('GET /api/v1/external/events', () => {
  it('lists the site events newest first with cursor pagination', async () => {
    const { client, ids } = await siteWithEvents([
      'intent.approved',
      'intent.rejected',
      'withdrawal.sent',
      'intent.approved',
      'withdrawal.sent',
    ]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await client.get(`/api/v1/external/events?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      seen.push(...response.body.data.map((e: { eventId: string }) => e.eventId));
      cursor = response.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const first = (await client.get('/api/v1/external/events?limit=1')).body.data[0];
    expect(first).toEqual({
      eventId: ids[4],
      type: 'withdrawal.sent',
      status: 'PENDING',
      createdAt: expect.stringMatching(/Z$/),
      attemptCount: 0,
      lastAttemptAt: null,
      deliveredAt: null,
      deadAt: null,
      nextAttemptAt: first.createdAt,
      payload: {
        eventId: ids[4],
        type: 'withdrawal.sent',
        createdAt: first.createdAt,
        livemode: true,
        data: expect.objectContaining({ withdrawalId: expect.any(String) }),
      },
    });
  });

  it('filters by status, type and time window, and refuses unknown values and a cursor of other filters', async () => {
    const { client, ids } = await siteWithEvents(['intent.approved', 'intent.rejected', 'withdrawal.sent']);
    await setStatus(ids[0]!, 'DEAD');
    const list = async (query: string) =>
      (await client.get(`/api/v1/external/events?${query}`)).body.data.map((e: { eventId: string }) => e.eventId);
    expect(await list('status=DEAD')).toEqual([ids[0]]);
    expect(await list('status=PENDING,DELIVERED')).toEqual([ids[2], ids[1]]);
    expect(await list('type=intent.rejected,withdrawal.sent')).toEqual([ids[2], ids[1]]);
    expect(await list(`createdFrom=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    for (const query of ['status=LOST', 'type=intent.created', 'limit=0', 'siteId=x']) {
      const response = await client.get(`/api/v1/external/events?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('validation_failed');
    }
    const page = await client.get('/api/v1/external/events?limit=1&type=intent.approved,intent.rejected');
    const other = await client.get(`/api/v1/external/events?limit=1&type=withdrawal.sent&cursor=${page.body.nextCursor}`);
    expect(other.status).toBe(400);
  });
});

describe('GET /api/v1/external/events/:eventId', () => {
  it('returns the event with its attempts, and 404 for a missing or malformed id', async () => {
    const { client, ids } = await siteWithEvents(['intent.approved']);
    const response = await client.get(`/api/v1/external/events/${ids[0]}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ eventId: ids[0], status: 'PENDING', attempts: [] });
    for (const id of [randomUUID(), 'not-an-id']) {
      const missing = await client.get(`/api/v1/external/events/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('not_found');
    }
  });
});

describe('events of another site', () => {
  it('are invisible: 404 exactly like a missing event, absent from lists, and not replayable', async () => {
    const mine = await siteWithEvents(['intent.approved']);
    const theirs = await siteWithEvents(['intent.rejected']);
    const foreign = theirs.ids[0]!;
    await setStatus(foreign, 'DEAD');
    const read = await mine.client.get(`/api/v1/external/events/${foreign}`);
    const missing = await mine.client.get(`/api/v1/external/events/${randomUUID()}`);
    expect(read.status).toBe(404);
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    expect(strip(read.body)).toEqual(strip(missing.body));
    const list = await mine.client.get('/api/v1/external/events?status=PENDING,DELIVERED,DEAD');
    expect(list.body.data.map((e: { eventId: string }) => e.eventId)).toEqual(mine.ids);
    expect((await replay(mine.site, foreign)).status).toBe(404);
    expect((await h.ledger.deps.db.outboxEvent.findUniqueOrThrow({ where: { id: foreign } })).status).toBe('DEAD');
  });
});

describe('POST /api/v1/external/events/:eventId/replay', () => {
  it('starts a new delivery cycle of a DEAD event with the same eventId: 202, PENDING, a fresh job, audited', async () => {
    const { site, ids } = await siteWithEvents(['intent.approved']);
    const eventId = ids[0]!;
    await setStatus(eventId, 'DEAD');
    const key = randomUUID();
    const response = await replay(site, eventId, key);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ eventId, status: 'PENDING', deadAt: null });
    expect(await h.ledger.deps.webhookQueue.getJob(`${eventId}-r1`)).toBeDefined();
    const audit = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: eventId, action: 'EVENT.REPLAYED' } });
    expect(audit).toEqual([expect.objectContaining({ actorType: 'API_KEY', actorId: site.apiKeyId, siteId: site.siteId })]);

    const again = await replay(site, eventId, key);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(response.body);
    expect(await h.ledger.deps.db.auditLog.count({ where: { entityId: eventId, action: 'EVENT.REPLAYED' } })).toBe(1);
  });

  it('answers from the durable record when Redis has forgotten the key', async () => {
    const { site, ids } = await siteWithEvents(['intent.approved']);
    await setStatus(ids[0]!, 'DELIVERED');
    const key = randomUUID();
    expect((await replay(site, ids[0]!, key)).status).toBe(202);
    const keys = await h.gateway.deps.redis.keys(`${h.env.redisPrefix}:idem:*`);
    await h.gateway.deps.redis.del(...keys);
    const again = await replay(site, ids[0]!, key);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('requires an Idempotency-Key, refuses a body, a key reused for another event, and an event still being delivered', async () => {
    const { site, ids } = await siteWithEvents(['intent.approved', 'intent.rejected']);
    await setStatus(ids[0]!, 'DEAD');
    const missingKey = await replay(site, ids[0]!, null);
    expect(missingKey.status).toBe(400);
    expect(missingKey.body.error).toBe('idempotency_key_missing');
    expect((await replay(site, ids[0]!).send({ force: true })).status).toBe(400);

    const key = randomUUID();
    expect((await replay(site, ids[0]!, key)).status).toBe(202);
    await setStatus(ids[1]!, 'DEAD');
    const reused = await replay(site, ids[1]!, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe('idempotency_key_reused');

    const pending = await replay(site, ids[0]!);
    expect(pending.status).toBe(409);
    expect(pending.body.error).toBe('conflict');
    expect(pending.body.reason).toBe('event_in_delivery');
  });
});

describe('ops events', () => {
  it('lists every site or one site by status, and replays with the operator audited', async () => {
    const a = await siteWithEvents(['intent.approved', 'intent.rejected']);
    const b = await siteWithEvents(['withdrawal.sent']);
    await setStatus(a.ids[1]!, 'DEAD');
    await setStatus(b.ids[0]!, 'DEAD');
    expect((await ops('get', '/ops/v1/events', 'wrong-token-wrong-token')).status).toBe(401);

    const dead = await ops('get', '/ops/v1/events?status=DEAD&limit=100');
    expect(dead.status).toBe(200);
    const deadIds = dead.body.data.map((e: { eventId: string }) => e.eventId);
    expect(deadIds).toEqual(expect.arrayContaining([a.ids[1], b.ids[0]]));
    const onlyA = await ops('get', `/ops/v1/events?status=DEAD&siteId=${a.site.siteId}`);
    expect(onlyA.body.data.map((e: { eventId: string }) => e.eventId)).toEqual([a.ids[1]]);
    expect((await ops('get', '/ops/v1/events?siteId=nope')).status).toBe(400);

    const replayed = await ops('post', `/ops/v1/events/${b.ids[0]}/replay`);
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({ eventId: b.ids[0], status: 'PENDING' });
    expect(await h.ledger.deps.webhookQueue.getJob(`${b.ids[0]}-r1`)).toBeDefined();
    const audit = await h.ledger.deps.db.auditLog.findFirstOrThrow({ where: { entityId: b.ids[0]!, action: 'EVENT.REPLAYED' } });
    expect(audit.actorType).toBe('OPERATOR');
    expect((await ops('post', `/ops/v1/events/${randomUUID()}/replay`)).status).toBe(404);
  });
});

/**
 * The partner-isolation rules of SiteSlots on a pinned clock, and the site health shared through Redis
 * between two worker processes (two SiteSlots on one key prefix).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { deleteRedisPrefix, TEST_REDIS_URL } from '@kasa/testkit';
import { RedisSiteHealthStore } from '../src/deliveries/site-health.js';
import { SiteSlots, type Admission, type SiteSlotsOptions, type SlotTicket } from '../src/deliveries/site-slots.js';

const TIMEOUT = 10_000;

function slotsAt(options: Partial<SiteSlotsOptions> = {}) {
  const clock = { t: 1_700_000_000_000 };
  const slots = new SiteSlots({
    perSite: 10,
    failingLane: 2,
    timeoutMs: TIMEOUT,
    maxCooldownMs: 60_000,
    now: () => clock.t,
    random: () => 0,
    ...options,
  });
  return { slots, clock };
}

function granted(admission: Admission): SlotTicket {
  if (!admission.ok) throw new Error(`refused: ${admission.reason}`);
  return admission.ticket;
}

function refused(admission: Admission) {
  if (admission.ok) throw new Error('granted');
  return admission;
}

/** Takes every slot the site gets now. */
function fill(slots: SiteSlots, siteId: string): SlotTicket[] {
  const tickets: SlotTicket[] = [];
  for (let i = 0; i < 100; i += 1) {
    const admission = slots.tryAcquire(siteId);
    if (!admission.ok) break;
    tickets.push(admission.ticket);
  }
  return tickets;
}

describe('SiteSlots', () => {
  it('gives a new site one slot, and doubles its share with each round of deliveries up to the per-site limit', () => {
    const { slots, clock } = slotsAt();
    const shares: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      const tickets = fill(slots, 'a');
      shares.push(tickets.length);
      clock.t += 5;
      for (const ticket of tickets) slots.release(ticket, 'delivered');
    }
    expect(shares).toEqual([1, 2, 4, 8, 10, 10]);
  });

  it('defers a busy site briefly: about as long as its oldest attempt has run', () => {
    const { slots, clock } = slotsAt();
    granted(slots.tryAcquire('a'));
    clock.t += 10;
    expect(refused(slots.tryAcquire('a'))).toEqual({ ok: false, reason: 'busy', retryAt: clock.t + 50 });
    clock.t += 290;
    expect(refused(slots.tryAcquire('a'))).toEqual({ ok: false, reason: 'busy', retryAt: clock.t + 300 });
  });

  it('gives no further slot to a site whose attempt has gone unanswered for half the timeout, and counts it in the failing lane', () => {
    const { slots, clock } = slotsAt();
    const first = fill(slots, 'a');
    for (const ticket of first) slots.release(ticket, 'delivered');
    const started = clock.t;
    expect(fill(slots, 'a')).toHaveLength(2);
    clock.t += TIMEOUT / 2;
    // The attempt ends by its timeout at the latest: come back then.
    expect(refused(slots.tryAcquire('a'))).toEqual({ ok: false, reason: 'busy', retryAt: started + TIMEOUT });
    expect(slots.failingLaneInFlight()).toBe(2);
  });

  it('keeps a site that failed fast to one slot without pausing it', () => {
    const { slots, clock } = slotsAt();
    const ticket = granted(slots.tryAcquire('a'));
    clock.t += 20;
    slots.release(ticket, 'failed');
    expect(slots.failingSites()).toBe(1);
    const retry = granted(slots.tryAcquire('a'));
    expect(refused(slots.tryAcquire('a')).reason).toBe('busy');
    slots.release(retry, 'delivered');
    expect(slots.failingSites()).toBe(0);
    expect(fill(slots, 'a')).toHaveLength(1);
  });

  it('pauses a site whose attempts time out, probes it with one attempt after the pause, doubling the pause up to its cap', () => {
    const { slots, clock } = slotsAt();
    const pauses: number[] = [];
    let ticket = granted(slots.tryAcquire('hang'));
    for (let i = 0; i < 5; i += 1) {
      clock.t += TIMEOUT;
      slots.release(ticket, 'failed');
      const refusal = refused(slots.tryAcquire('hang'));
      expect(refusal.reason).toBe('failing');
      pauses.push(refusal.retryAt - clock.t);
      clock.t = refusal.retryAt;
      ticket = granted(slots.tryAcquire('hang'));
      // The site's other jobs wait for the probe's end.
      expect(refused(slots.tryAcquire('hang'))).toEqual({ ok: false, reason: 'busy', retryAt: clock.t + TIMEOUT });
    }
    expect(pauses).toEqual([10_000, 20_000, 40_000, 60_000, 60_000]);
    // It answers again: closed, and back to slow start.
    clock.t += 30;
    slots.release(ticket, 'delivered');
    expect(slots.failingSites()).toBe(0);
    expect(fill(slots, 'hang')).toHaveLength(1);
  });

  it('counts one strike when several attempts of a site time out together', () => {
    const { slots, clock } = slotsAt();
    for (const ticket of fill(slots, 'a')) slots.release(ticket, 'delivered');
    for (const ticket of fill(slots, 'a')) slots.release(ticket, 'delivered');
    const inFlight = fill(slots, 'a');
    expect(inFlight).toHaveLength(4);
    clock.t += TIMEOUT;
    for (const ticket of inFlight) slots.release(ticket, 'failed');
    expect(refused(slots.tryAcquire('a')).retryAt).toBe(clock.t + TIMEOUT);
  });

  it('lets failing sites share only the failing lane, while new and healthy sites keep their slots', () => {
    const { slots, clock } = slotsAt({ failingLane: 2 });
    for (const site of ['f1', 'f2', 'f3']) slots.release(granted(slots.tryAcquire(site)), 'failed');
    clock.t += 1;
    granted(slots.tryAcquire('f1'));
    granted(slots.tryAcquire('f2'));
    const lane = refused(slots.tryAcquire('f3'));
    expect(lane.reason).toBe('lane');
    expect(lane.retryAt).toBe(clock.t + TIMEOUT);
    granted(slots.tryAcquire('new-site'));
    expect(slots.failingLaneInFlight()).toBe(2);
  });

  it('never refuses a site for another site being busy', () => {
    const { slots } = slotsAt();
    fill(slots, 'a');
    expect(fill(slots, 'b')).toHaveLength(1);
  });
});

describe('site health shared between worker processes', () => {
  const prefix = `kasa_t_${randomBytes(6).toString('hex')}`;
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    redis?.disconnect();
    await deleteRedisPrefix(prefix);
  });

  it('pauses a site in every replica once one has seen it stop answering, and resumes it everywhere when it answers', async () => {
    const keyPrefix = `${prefix}:webhook-worker:site-health`;
    const store = new RedisSiteHealthStore(redis, keyPrefix);
    const clock = { t: Date.now() };
    const replica = () =>
      new SiteSlots({ perSite: 10, failingLane: 2, timeoutMs: TIMEOUT, store, refreshMs: 1_000, now: () => clock.t, random: () => 0 });
    const a = replica();
    const b = replica();

    const ticket = granted(await a.acquire('site-1'));
    clock.t += TIMEOUT;
    a.release(ticket, 'failed');
    const key = `${keyPrefix}:site-1`;
    for (let i = 0; i < 50 && !(await redis.exists(key)); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await redis.pttl(key)).toBeGreaterThan(9 * 60_000);

    // B has never seen the site: its first look reads what A found.
    const refusal = refused(await b.acquire('site-1'));
    expect(refusal).toEqual({ ok: false, reason: 'failing', retryAt: clock.t + TIMEOUT });

    // After the pause, A's probe is answered; B picks that up on its next refresh.
    clock.t += TIMEOUT;
    const probe = granted(await a.acquire('site-1'));
    clock.t += 20;
    a.release(probe, 'delivered');
    for (let i = 0; i < 50 && JSON.parse((await redis.get(key)) ?? '{}').failing !== false; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    clock.t += 1_000;
    // B's next look at the site refreshes what it knows in the background.
    await b.acquire('site-1');
    for (let i = 0; i < 50 && b.failingSites() > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(b.failingSites()).toBe(0);
  });

  it('carries on alone, after a bounded wait, when the shared store does not answer', async () => {
    // A Redis whose commands never come back (an outage: BullMQ's connection queues them until it is back).
    const away = { get: () => new Promise(() => undefined), set: () => new Promise(() => undefined) } as unknown as Redis;
    const slots = new SiteSlots({
      perSite: 10,
      failingLane: 2,
      timeoutMs: TIMEOUT,
      store: new RedisSiteHealthStore(away, `${prefix}:away`, { commandTimeoutMs: 100 }),
    });
    const started = Date.now();
    const ticket = granted(await slots.acquire('s'));
    expect(Date.now() - started).toBeLessThan(2_000);
    slots.release(ticket, 'failed');
    expect(slots.failingSites()).toBe(1);
    expect(slots.tryAcquire('s').ok).toBe(true);
  });
});

/**
 * Expiry through BullMQ's repeatable sweep: nothing is enqueued per intent, the sweep survives restarts
 * and lost Redis state (a running ledger re-installs it), and each intent is cancelled exactly once.
 * Time is the ledger's clock, which these tests move past an expiry instead of sleeping until it passes;
 * the sweep itself still runs on its real interval.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deleteRedisPrefix } from '@kasa/testkit';
import { queuePrefix } from '@kasa/queue';
import { SWEEP_SCHEDULER_ID, sweeperCheckIntervalMs } from '../src/expiry/expiry.queue.js';
import { processExpiryJob } from '../src/expiry/expiry.worker.js';
import { eventually, startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

const statusOf = async (h: LedgerHarness, id: string) => (await h.ops('GET', `/intents/${id}`)).body.status as string;
const cancellations = (h: LedgerHarness, id: string) =>
  h.ledger.deps.db.auditLog.findMany({ where: { entityId: id, action: 'INTENT.AUTO_CANCELLED' } });

describe('the sweep interval', () => {
  it('re-installs the sweep every ten intervals, from one second to one minute', () => {
    expect(sweeperCheckIntervalMs(50)).toBe(1_000);
    expect(sweeperCheckIntervalMs(400)).toBe(4_000);
    expect(sweeperCheckIntervalMs(5_000)).toBe(50_000);
    expect(sweeperCheckIntervalMs(3_600_000)).toBe(60_000);
  });
});

describe('with the repeatable sweep', () => {
  let h: LedgerHarness;
  let site: TestSite;
  const clock = new TestClock();
  /** Moves the ledger's clock a second past a one-second expiry. */
  const pastExpiry = () => clock.advance(2_000);
  /** Sets an intent's expiry `msAgo` before the ledger's now; returns it. */
  const expiredAgo = async (intentId: string, msAgo: number) => {
    const expiresAt = new Date(clock.now().getTime() - msAgo);
    await h.ledger.deps.db.deposit.update({ where: { id: intentId }, data: { expiresAt } });
    return expiresAt;
  };
  beforeAll(async () => {
    // Late means late here: money a second after a one-second expiry, so no clock-skew allowance.
    h = await startLedgerHarness({ EXPIRY_SWEEP_INTERVAL_MS: '400', ARRIVAL_CLOCK_SKEW_SECONDS: '0' }, { clock });
    site = await h.createSite({ depositTtlSeconds: 1 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('cancels an intent once it is past expiresAt, enqueueing nothing per intent', async () => {
    const created = await h.createDeposit(site, 10000);
    // Only the sweep's own next runs are queued; no job carries the intent.
    const jobs = await h.ledger.deps.expiryQueue.getJobs(['delayed', 'waiting', 'active', 'prioritized'], 0, 100);
    expect(jobs.length).toBeLessThanOrEqual(2);
    expect(jobs.every((job) => job.data.kind === 'sweep')).toBe(true);
    pastExpiry();
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'auto-cancel');
    const [audit, ...more] = await cancellations(h, created.intentId);
    expect(more).toHaveLength(0);
    expect(audit).toMatchObject({ actorType: 'SYSTEM', actorId: 'deposit-expiry', metadata: { via: 'sweep' } });
  });

  it('survives a restart: intents that expire while the ledger is down are cancelled after it starts', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 2 });
    const created = await h.createDeposit(longer, 10000);
    // The intent's two seconds pass while the ledger is down.
    await h.restart(async () => clock.advance(2_500));
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'auto-cancel after restart');
    expect(await cancellations(h, created.intentId)).toHaveLength(1);
  });

  it('cancels once however often sweeps and jobs queued by earlier versions run', async () => {
    const created = await h.createDeposit(site, 10000);
    pastExpiry();
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'auto-cancel');
    const deps = {
      expiries: h.ledger.deps.expiries,
      outbox: h.ledger.deps.outbox,
      logger: h.ledger.deps.logger,
      redisPrefix: h.env.redisPrefix,
    };
    const runs = await Promise.all([
      ...Array.from({ length: 10 }, () => processExpiryJob(deps, { kind: 'expire', intentId: created.intentId })),
      ...Array.from({ length: 3 }, () => processExpiryJob(deps, { kind: 'sweep' })),
    ]);
    expect(runs.reduce((total, run) => total + run.cancelled, 0)).toBe(0);
    expect(await cancellations(h, created.intentId)).toHaveLength(1);
  });

  it('never cancels before expiresAt', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 3600 });
    const created = await h.createDeposit(longer, 10000);
    const deps = {
      expiries: h.ledger.deps.expiries,
      outbox: h.ledger.deps.outbox,
      logger: h.ledger.deps.logger,
      redisPrefix: h.env.redisPrefix,
    };
    expect(await processExpiryJob(deps, { kind: 'expire', intentId: created.intentId })).toEqual({ cancelled: 0 });
    await processExpiryJob(deps, { kind: 'sweep' });
    // Several real sweeps pass too (this waits for the sweep's real interval, not for the clock).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await statusOf(h, created.intentId)).toBe('RESERVED');
    expect(await cancellations(h, created.intentId)).toHaveLength(0);
  });

  it('a job queued by an earlier version still cancels its due intent, as job', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 3600 });
    const created = await h.createDeposit(longer, 10000);
    await expiredAgo(created.intentId, 1000);
    const deps = {
      expiries: h.ledger.deps.expiries,
      outbox: h.ledger.deps.outbox,
      logger: h.ledger.deps.logger,
      redisPrefix: h.env.redisPrefix,
    };
    const results = await Promise.all([
      processExpiryJob(deps, { kind: 'expire', intentId: created.intentId }),
      processExpiryJob(deps, { kind: 'sweep' }),
    ]);
    expect(results.reduce((total, run) => total + run.cancelled, 0)).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'cancelled');
    expect(await cancellations(h, created.intentId)).toHaveLength(1);
  });

  it('re-installs the sweep while running after Redis lost every queue key, and cancels what expired meanwhile', async () => {
    await deleteRedisPrefix(queuePrefix(h.env.redisPrefix));
    expect(await h.ledger.deps.expiryQueue.getJobScheduler(SWEEP_SCHEDULER_ID)).toBeUndefined();
    const slower = await h.createSite({ depositTtlSeconds: 1 });
    const created = await Promise.all([h.createDeposit(slower, 10000), h.createDeposit(slower, 20000)]);
    pastExpiry();
    // No restart: the running ledger installs the sweep again within its check interval (4 s here).
    await eventually(() => h.ledger.deps.expiryQueue.getJobScheduler(SWEEP_SCHEDULER_ID), 10_000, 'sweep re-installed');
    for (const intent of created) {
      await eventually(async () => (await statusOf(h, intent.intentId)) === 'AUTO_CANCELLED', 10_000, 'sweep after flush');
      const [audit, ...more] = await cancellations(h, intent.intentId);
      expect(more).toHaveLength(0);
      expect(audit?.metadata).toMatchObject({ via: 'sweep' });
    }
  });

  it('after expiry takes a late transfer to LATE_ARRIVAL, and approval then emits intent.approved', async () => {
    const created = await h.createDeposit(site, 75000);
    pastExpiry();
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'auto-cancel');
    const late = await h.transfer(created.referenceNo, 75000);
    expect(late.body).toMatchObject({ status: 'MATCHED', intent: { status: 'LATE_ARRIVAL', receivedAmount: '75000' } });
    const approved = await h.ops('POST', `/intents/${created.intentId}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '75000' });
    const events = await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: created.intentId } });
    expect(events.map((e) => e.type)).toEqual(['intent.approved']);
    expect((await h.ops('GET', `/sites/${site.siteId}/balance`)).body.available).toBe('75000');
  });

  it('takes a transfer received after expiresAt to LATE_ARRIVAL even when no expiry has run yet', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 3600 });
    const created = await h.createDeposit(longer, 10000);
    // As if the expiry job were lost and the sweep not yet due: still RESERVED, but past expiresAt.
    await expiredAgo(created.intentId, 60_000);
    const late = await h.transfer(created.referenceNo, 10000, { receivedAt: clock.now().toISOString() });
    expect(late.body.intent).toMatchObject({ status: 'LATE_ARRIVAL', receivedAmount: '10000' });
    expect(late.body.intent.cancelledAt).not.toBeNull();
  });

  it('takes a transfer the bank received before expiresAt to PENDING_REVIEW even if recorded later', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 3600 });
    const created = await h.createDeposit(longer, 10000);
    const expiresAt = await expiredAgo(created.intentId, 1000);
    const onTime = await h.transfer(created.referenceNo, 10000, { receivedAt: new Date(expiresAt.getTime() - 5000).toISOString() });
    expect(onTime.body.intent).toMatchObject({ status: 'PENDING_REVIEW', cancelledAt: null });
  });
});

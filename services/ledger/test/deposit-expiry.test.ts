/**
 * Expiry through BullMQ: a delayed job per intent, backed by a repeatable sweep, surviving restarts and
 * lost Redis state, and cancelling each intent exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deleteRedisPrefix } from '@kasa/testkit';
import { queuePrefix } from '@kasa/queue';
import { expireJobId } from '../src/expiry/expiry.queue.js';
import { processExpiryJob } from '../src/expiry/expiry.worker.js';
import { eventually, startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

const statusOf = async (h: LedgerHarness, id: string) => (await h.ops('GET', `/intents/${id}`)).body.status as string;
const cancellations = (h: LedgerHarness, id: string) => h.ledger.deps.db.auditLog.findMany({ where: { entityId: id, action: 'INTENT.AUTO_CANCELLED' } });

describe('with only the per-intent delayed jobs (sweep once an hour)', () => {
  let h: LedgerHarness;
  let site: TestSite;
  beforeAll(async () => {
    h = await startLedgerHarness({ EXPIRY_SWEEP_INTERVAL_MS: '3600000' });
    site = await h.createSite({ depositTtlSeconds: 1 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('schedules a delayed job named after the intent and cancels the intent when it fires', async () => {
    const created = await h.createDeposit(site, 10000);
    const job = await eventually(() => h.ledger.deps.expiryQueue.getJob(expireJobId(created.intentId)), 5000, 'job');
    expect(job.opts.delay).toBeGreaterThan(0);
    expect(await statusOf(h, created.intentId)).toBe('RESERVED');
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'auto-cancel');
    const [audit, ...more] = await cancellations(h, created.intentId);
    expect(more).toHaveLength(0);
    expect(audit).toMatchObject({ actorType: 'SYSTEM', actorId: 'deposit-expiry', metadata: { via: 'job' } });
  });

  it('survives a restart: a job scheduled by one ledger is honoured by the next', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 2 });
    const created = await h.createDeposit(longer, 10000);
    await eventually(() => h.ledger.deps.expiryQueue.getJob(expireJobId(created.intentId)), 5000, 'job');
    await h.restart();
    expect(await statusOf(h, created.intentId)).toBe('RESERVED');
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'auto-cancel after restart');
  });

  it('cancels once however often the job and the sweep run', async () => {
    const created = await h.createDeposit(site, 10000);
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'auto-cancel');
    const deps = { expiries: h.ledger.deps.expiries, logger: h.ledger.deps.logger, redisPrefix: h.env.redisPrefix };
    const runs = await Promise.all([
      ...Array.from({ length: 10 }, () => processExpiryJob(deps, { kind: 'expire', intentId: created.intentId })),
      processExpiryJob(deps, { kind: 'sweep' }),
    ]);
    expect(runs.reduce((total, run) => total + run.cancelled, 0)).toBe(0);
    expect(await cancellations(h, created.intentId)).toHaveLength(1);
  });

  it('does not cancel early when a job runs before expiresAt', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 3600 });
    const created = await h.createDeposit(longer, 10000);
    const deps = { expiries: h.ledger.deps.expiries, logger: h.ledger.deps.logger, redisPrefix: h.env.redisPrefix };
    expect(await processExpiryJob(deps, { kind: 'expire', intentId: created.intentId })).toEqual({ cancelled: 0 });
    expect(await statusOf(h, created.intentId)).toBe('RESERVED');
  });

  it('after expiry takes a late transfer to LATE_ARRIVAL, and approval then emits intent.approved', async () => {
    const created = await h.createDeposit(site, 75000);
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
    await h.ledger.deps.db.depositIntent.update({ where: { id: created.intentId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const late = await h.transfer(created.referenceNo, 10000, { receivedAt: new Date().toISOString() });
    expect(late.body.intent).toMatchObject({ status: 'LATE_ARRIVAL', receivedAmount: '10000' });
    expect(late.body.intent.cancelledAt).not.toBeNull();
  });

  it('takes a transfer the bank received before expiresAt to PENDING_REVIEW even if recorded later', async () => {
    const longer = await h.createSite({ depositTtlSeconds: 3600 });
    const created = await h.createDeposit(longer, 10000);
    const expiresAt = new Date(Date.now() - 1000);
    await h.ledger.deps.db.depositIntent.update({ where: { id: created.intentId }, data: { expiresAt } });
    const onTime = await h.transfer(created.referenceNo, 10000, { receivedAt: new Date(expiresAt.getTime() - 5000).toISOString() });
    expect(onTime.body.intent).toMatchObject({ status: 'PENDING_REVIEW', cancelledAt: null });
  });
});

describe('with the repeatable sweep', () => {
  let h: LedgerHarness;
  let site: TestSite;
  beforeAll(async () => {
    h = await startLedgerHarness({ EXPIRY_SWEEP_INTERVAL_MS: '400' });
    site = await h.createSite({ depositTtlSeconds: 1 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('cancels an intent whose delayed job was lost', async () => {
    const created = await h.createDeposit(site, 10000);
    await eventually(() => h.ledger.deps.expiryQueue.getJob(expireJobId(created.intentId)), 5000, 'job');
    expect(await h.ledger.deps.expiryQueue.remove(expireJobId(created.intentId))).toBe(1);
    await eventually(async () => (await statusOf(h, created.intentId)) === 'AUTO_CANCELLED', 10_000, 'sweep');
    const [audit] = await cancellations(h, created.intentId);
    expect(audit?.metadata).toMatchObject({ via: 'sweep' });
  });

  it('cancels intents after Redis lost every queue key, once the ledger restarts', async () => {
    const slower = await h.createSite({ depositTtlSeconds: 3 });
    const created = await Promise.all([h.createDeposit(slower, 10000), h.createDeposit(slower, 20000)]);
    await eventually(() => h.ledger.deps.expiryQueue.getJob(expireJobId(created[1].intentId)), 5000, 'job');
    await h.restart(() => deleteRedisPrefix(queuePrefix(h.env.redisPrefix)));
    expect(await h.ledger.deps.expiryQueue.getJob(expireJobId(created[1].intentId))).toBeUndefined();
    expect(await statusOf(h, created[0].intentId)).toBe('RESERVED');
    for (const intent of created) {
      await eventually(async () => (await statusOf(h, intent.intentId)) === 'AUTO_CANCELLED', 10_000, 'sweep after flush');
      const [audit, ...more] = await cancellations(h, intent.intentId);
      expect(more).toHaveLength(0);
      expect(audit?.metadata).toMatchObject({ via: 'sweep' });
    }
  });
});

/**
 * The operators' dashboard and queues after a scripted day of traffic on a clock the test moves: every count
 * and every "waiting since" matches what the database holds, read here with SQL of its own; the review
 * queue lists oldest first and its waiting time starts when the money arrived, not when a second transfer did.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

const HOUR = 3_600_000;
const clock = new TestClock(new Date(Date.now() - 26 * HOUR));
let h: LedgerHarness;
let sites: TestSite[];

beforeAll(async () => {
  h = await startLedgerHarness({}, { clock });
  sites = [await h.createSite(), await h.createSite()];
});
afterAll(async () => {
  await h?.stop();
});

/** A small deterministic generator, so a failing day can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Head {
  count: number;
  oldestAt: string | null;
  oldestId: string | null;
}

/** The same figures straight from the tables. */
async function fromDatabase() {
  const one = async (sql: string): Promise<{ count: number; oldest: Date | null }> => {
    const [row] = await h.ledger.deps.db.$queryRawUnsafe<Array<{ count: number; oldest: Date | null }>>(sql);
    return row!;
  };
  return {
    depositsToReview: await one(
      `SELECT count(*)::int AS count, min(awaiting_review_since) AS oldest FROM deposit_intents WHERE status = 'PENDING_REVIEW'`,
    ),
    lateArrivals: await one(
      `SELECT count(*)::int AS count, min(awaiting_review_since) AS oldest FROM deposit_intents WHERE status = 'LATE_ARRIVAL'`,
    ),
    unmatchedTransfers: await one(
      `SELECT count(*)::int AS count, min(created_at) AS oldest FROM bank_transfers WHERE status = 'UNMATCHED'`,
    ),
    withdrawalsToReview: await one(
      `SELECT count(*)::int AS count, min(created_at) AS oldest FROM withdrawals WHERE status = 'PENDING_REVIEW'`,
    ),
    withdrawalsToSend: await one(`SELECT count(*)::int AS count, min(approved_at) AS oldest FROM withdrawals WHERE status = 'APPROVED'`),
    deadEvents: await one(`SELECT count(*)::int AS count, min(dead_at) AS oldest FROM outbox_events WHERE status = 'DEAD'`),
  };
}

describe('dashboard', () => {
  it('matches the database after a scripted day of traffic', async () => {
    const seed = Date.now() % 100_000;
    const next = random(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
    const open: Array<{ intentId: string; referenceNo: string; amount: number }> = [];
    const waiting: string[] = [];
    const withdrawals: { pending: string[]; approved: string[] } = { pending: [], approved: [] };

    for (let hour = 0; hour < 24; hour += 1) {
      for (let i = 0; i < 3; i += 1) {
        const amount = 1000 * (1 + Math.floor(next() * 50));
        const created = await h.createDeposit(pick(sites), amount);
        open.push({ ...created, amount });
      }
      const roll = next();
      if (roll < 0.5 && open.length > 0) {
        // Money arrives for an open deposit: on time if it was created this hour, else late.
        const paid = open.splice(Math.floor(next() * open.length), 1)[0]!;
        expect((await h.transfer(paid.referenceNo, paid.amount)).status).toBe(201);
        waiting.push(paid.intentId);
      } else if (roll < 0.65) {
        expect((await h.transfer('', 4242)).body.status).toBe('UNMATCHED');
      } else if (roll < 0.8 && waiting.length > 0) {
        const decided = waiting.splice(Math.floor(next() * waiting.length), 1)[0]!;
        const action = next() < 0.7 ? ['approve', {}] : ['reject', { reason: 'scripted' }];
        expect((await h.ops('POST', `/intents/${decided}/${action[0]}`, action[1])).status).toBe(200);
      } else {
        const site = pick(sites);
        // Funded through a deposit paid and approved now by the test's clock (h.fund uses the real time).
        const funding = await h.createDeposit(site, 20000);
        await h.transfer(funding.referenceNo, 20000);
        expect((await h.ops('POST', `/intents/${funding.intentId}/approve`, {})).status).toBe(200);
        const withdrawal = await h.createWithdrawal(site, 10000);
        if (next() < 0.5) {
          expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);
          withdrawals.approved.push(withdrawal.withdrawalId);
        } else withdrawals.pending.push(withdrawal.withdrawalId);
      }
      clock.advance(HOUR);
    }
    // Two events DEAD, as the worker leaves them after the last attempt (the worker is not part of this test).
    const events = await h.ledger.deps.db.outboxEvent.findMany({ take: 2, orderBy: { createdAt: 'asc' }, select: { id: true } });
    for (const [i, event] of events.entries()) {
      await h.ledger.deps.db.outboxEvent.update({
        where: { id: event.id },
        data: { status: 'DEAD', deadAt: new Date(clock.now().getTime() - i * HOUR) },
      });
    }

    const dashboard = (await h.ops('GET', '/dashboard')).body as Record<string, Head>;
    const expected = await fromDatabase();
    for (const [queue, figures] of Object.entries(expected)) {
      expect({ seed, queue, count: dashboard[queue]!.count, oldestAt: dashboard[queue]!.oldestAt }).toEqual({
        seed,
        queue,
        count: figures.count,
        oldestAt: figures.oldest?.toISOString() ?? null,
      });
    }
    const total = Object.values(expected).reduce((sum, figures) => sum + figures.count, 0);
    expect(total).toBeGreaterThan(0);
  }, 120_000);

  it('lists the review queue oldest first with the time each has waited since its money arrived', async () => {
    const [site] = sites;
    const first = await h.createDeposit(site!, 30000);
    const second = await h.createDeposit(site!, 30000);
    clock.advance(60_000);
    const firstArrived = clock.now().toISOString();
    await h.transfer(first.referenceNo, 10000);
    clock.advance(60_000);
    await h.transfer(second.referenceNo, 30000);
    // A second transfer for the first deposit (it is paid in two) does not restart its wait.
    clock.advance(60_000);
    await h.transfer(first.referenceNo, 20000);

    const queue = await h.ops('GET', `/intents?siteId=${site!.siteId}&status=PENDING_REVIEW&order=oldest&limit=100`);
    const ids = queue.body.data.map((i: { intentId: string }) => i.intentId);
    expect(ids.indexOf(first.intentId)).toBeLessThan(ids.indexOf(second.intentId));
    const listed = queue.body.data.find((i: { intentId: string }) => i.intentId === first.intentId);
    expect(listed).toMatchObject({ awaitingReviewSince: firstArrived, receivedAmount: '30000', requestedAmount: '30000' });
    const createdAt = queue.body.data.map((i: { createdAt: string }) => i.createdAt);
    expect([...createdAt].sort()).toEqual(createdAt);
  });
});

/**
 * The ledger's side of partners' balance movements and signed daily statements (docs/api.md): which Istanbul day an
 * entry belongs to, to the millisecond; a day held back while a posting dated in it may still commit; and the journal
 * check's `unclassified_movement`, which names a movement planted in PostgreSQL that no posting of the chart makes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

// Two days ahead: today's statement is past its clock check, so only the open-transaction guard can hold it back.
const clock = new TestClock(new Date(Date.now() + 2 * 86_400_000));
let h: LedgerHarness;
beforeAll(async () => {
  h = await startLedgerHarness({}, { clock });
});
afterAll(async () => {
  await h?.stop();
});

const statement = (site: TestSite, date: string) => h.internal('GET', `/sites/${site.siteId}/balance/statements/${date}`);

/** The transaction ids of a site's postings, oldest first. */
async function postingsOf(site: TestSite): Promise<string[]> {
  const entries = await h.ledger.deps.db.journalEntry.findMany({
    where: { siteId: site.siteId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return [...new Set(entries.map((entry) => entry.transactionId))];
}

/** Writes two legs of a posting straight into PostgreSQL (no balance rows): what no code path writes. */
async function plant(siteId: string, legs: Array<[string, bigint]>, entityType: string, entityId: string): Promise<string[]> {
  const transactionId = randomUUID();
  const ids = legs.map(() => randomUUID());
  for (const [index, [account, amount]] of legs.entries()) {
    await h.ledger.deps.db.$executeRawUnsafe(
      `INSERT INTO journal_entries (id, transaction_id, site_id, account, amount, entity_type, entity_id)
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7::uuid)`,
      ids[index],
      transactionId,
      siteId,
      account,
      amount,
      entityType,
      entityId,
    );
  }
  return ids;
}

describe('statement days', () => {
  it('put an entry in the Istanbul day of its created_at: 20:59:59.999Z is the day before, 21:00:00.000Z the next', async () => {
    const site = await h.createSite();
    await h.fund(site, 10000);
    await h.fund(site, 25000);
    const [first, second] = (await postingsOf(site)) as [string, string];
    const db = h.ledger.deps.db;
    await db.journalEntry.updateMany({ where: { transactionId: first }, data: { createdAt: new Date('2026-01-30T20:59:59.999Z') } });
    await db.journalEntry.updateMany({ where: { transactionId: second }, data: { createdAt: new Date('2026-01-30T21:00:00.000Z') } });

    const day30 = (await statement(site, '2026-01-30')).body;
    expect(day30).toMatchObject({
      date: '2026-01-30',
      from: '2026-01-29T21:00:00.000Z',
      to: '2026-01-30T21:00:00.000Z',
      opening: { available: '0', reserved: '0' },
      closing: { available: '10000', reserved: '0' },
    });
    expect(day30.movements.map((m: { amount: string; balanceAfter: string }) => [m.amount, m.balanceAfter])).toEqual([['10000', '10000']]);
    const day31 = (await statement(site, '2026-01-31')).body;
    expect(day31).toMatchObject({ opening: { available: '10000', reserved: '0' }, closing: { available: '35000', reserved: '0' } });
    expect(day31.movements.map((m: { amount: string; balanceAfter: string }) => [m.amount, m.balanceAfter])).toEqual([['25000', '35000']]);
    const day29 = (await statement(site, '2026-01-29')).body;
    expect(day29).toMatchObject({ movements: [], opening: { available: '0', reserved: '0' }, closing: { available: '0', reserved: '0' } });
  });

  it('are held back (409 statement_not_final) while a transaction that may write a posting dated in them is open', async () => {
    const site = await h.createSite();
    await h.fund(site, 10000);
    const today = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);
    // Today is final for this test's clock, so only the ledger's own short transactions (its workers') hold it back a moment.
    const final = async () => {
      const answer = await statement(site, today);
      return answer.status === 200 ? (answer.body as { closing: unknown }) : undefined;
    };
    const before = await eventually(final, 10_000, "today's statement once nothing is in flight");
    expect(before.closing).toEqual({ available: '10000', reserved: '0' });

    // A posting dated now whose transaction commits late: while it is open, the day is not final.
    const late = await h.ledger.deps.pool.connect();
    try {
      await late.query('BEGIN');
      const intentId = (await h.ledger.deps.db.deposit.findFirstOrThrow({ where: { siteId: site.siteId } })).id;
      await late.query(
        `INSERT INTO journal_entries (id, transaction_id, site_id, account, amount, entity_type, entity_id, created_at)
         SELECT gen_random_uuid(), t, $1::uuid, a, v, 'deposit_intent', $2::uuid, now()
         FROM (SELECT gen_random_uuid() AS t) x, (VALUES ('bank_clearing', 500::bigint), ('site_available', -500::bigint)) l(a, v)`,
        [site.siteId, intentId],
      );
      const held = await statement(site, today);
      expect(held.status).toBe(409);
      expect(held.body).toMatchObject({ error: 'conflict', reason: 'statement_not_final' });
      await late.query('COMMIT');
    } finally {
      late.release();
    }
    expect((await eventually(final, 10_000, "today's statement after the commit")).closing).toEqual({ available: '10500', reserved: '0' });
  });
});

describe('the journal check', () => {
  it("names a balance movement no posting of the chart makes, and one about another site's record (unclassified_movement)", async () => {
    const [site, other] = [await h.createSite(), await h.createSite()];
    await h.fund(site, 10000);
    await h.fund(other, 10000);
    const before = (await h.ops('GET', '/journal/check')).body;
    expect(before.problems.filter((p: { kind: string }) => p.kind === 'unclassified_movement')).toEqual([]);
    const intentId = (await h.ledger.deps.db.deposit.findFirstOrThrow({ where: { siteId: site.siteId } })).id;
    const otherIntentId = (await h.ledger.deps.db.deposit.findFirstOrThrow({ where: { siteId: other.siteId } })).id;

    // A deposit credited to the reserved balance: no posting of the chart does that.
    const [, reservedLeg] = await plant(
      site.siteId,
      [
        ['bank_clearing', 700n],
        ['site_reserved', -700n],
      ],
      'deposit_intent',
      intentId,
    );
    // A credit on this site about the other site's deposit: its statement could name no record of its own.
    const [, foreignLeg] = await plant(
      site.siteId,
      [
        ['bank_clearing', 300n],
        ['site_available', -300n],
      ],
      'deposit_intent',
      otherIntentId,
    );

    const report = (await h.ops('GET', '/journal/check')).body;
    const named = report.problems.filter((p: { kind: string }) => p.kind === 'unclassified_movement');
    expect(named.map((p: { detail: { entryId: string } }) => p.detail.entryId).sort()).toEqual([reservedLeg, foreignLeg].sort());
    for (const problem of named) expect(problem.detail).toMatchObject({ siteId: site.siteId, entityType: 'deposit_intent' });
    // The partner is shown no guess: the list fails rather than name a cause it cannot read.
    expect((await h.internal('GET', `/sites/${site.siteId}/balance/transactions`)).status).toBe(500);
    expect((await h.internal('GET', `/sites/${other.siteId}/balance/transactions`)).status).toBe(200);
  });
});

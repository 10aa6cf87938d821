/**
 * A randomized run of a few thousand mixed operations from concurrent operators over several sites, then
 * the journal's invariants: every transaction sums to zero, every balance equals its entries, and every
 * balance equals what the final records imply. The seed is printed so a failure can be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seededRandom } from '@kasa/testkit';
import { eventually, startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

const OPERATIONS = Number(process.env.KASA_INVARIANT_OPERATIONS ?? 3000);
const CONCURRENCY = 12;
// About 30 s on an idle two-core machine; the timeout leaves room for a machine busy with other suites.
const SEED = Number(process.env.KASA_INVARIANT_SEED ?? Date.now() % 2 ** 31);

let h: LedgerHarness;
let sites: TestSite[];
beforeAll(async () => {
  h = await startLedgerHarness({ EXPIRY_SWEEP_INTERVAL_MS: '300' });
  sites = [await h.createSite(), await h.createSite(), await h.createSite({ depositTtlSeconds: 1 })];
});
afterAll(async () => {
  await h?.stop();
});

describe('journal invariants', () => {
  it(`hold after ${OPERATIONS} random operations (seed printed on failure)`, async () => {
    const random = seededRandom(SEED);
    const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
    const deposit = () => String(1000 + Math.floor(random() * 50) * 1000);
    const payout = () => String(1000 + Math.floor(random() * 20) * 1000);
    // The statuses last seen in answers. Mostly act where the action is legal, sometimes anywhere: an
    // illegal or stale move must answer 409 and change nothing, so it belongs in the mix too.
    const intents = new Map<string, { referenceNo: string; status: string }>();
    const withdrawals = new Map<string, string>();
    const unmatched: string[] = [];
    const returns: string[] = [];
    const chooseDeposit = (statuses: string[]) => {
      const fitting = [...intents].filter(([, i]) => statuses.includes(i.status)).map(([id]) => id);
      return random() < 0.85 && fitting.length > 0 ? pick(fitting) : pick([...intents.keys()]);
    };
    const chooseWithdrawal = (statuses: string[]) => {
      const fitting = [...withdrawals].filter(([, status]) => statuses.includes(status)).map(([id]) => id);
      return random() < 0.85 && fitting.length > 0 ? pick(fitting) : pick([...withdrawals.keys()]);
    };
    const unexpected: string[] = [];
    let done = 0;

    const check = (what: string, answer: { status: number; body: unknown }, allowed: number[]) => {
      if (!allowed.includes(answer.status)) unexpected.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.status === 200 || answer.status === 201;
    };
    const onDeposit = async (id: string | undefined, action: string, body: unknown) => {
      if (!id) return;
      const answer = await h.ops('POST', `/intents/${id}/${action}`, body);
      if (check(`${action} intent`, answer, [200, 409])) (intents.get(id) as { status: string }).status = answer.body.status;
      // A partial approval's remainder returns join the returns the run reviews, pays out and rejects.
      if (answer.status === 200 && answer.body.remainder) returns.push(...(answer.body.remainder.returnIds as string[]));
    };
    const onWithdrawal = async (id: string | undefined, action: string, body: unknown) => {
      if (!id) return;
      const answer = await h.ops('POST', `/withdrawals/${id}/${action}`, body);
      if (check(`${action} withdrawal`, answer, [200, 409])) withdrawals.set(id, answer.body.status);
    };

    const operations: Array<[number, () => Promise<void>]> = [
      [
        10,
        async () => {
          const created = await h.createDeposit(pick(sites) as TestSite, deposit());
          intents.set(created.intentId, { referenceNo: created.referenceNo, status: 'RESERVED' });
        },
      ],
      [8, async () => void withdrawals.set((await h.createWithdrawal(pick(sites) as TestSite, payout())).withdrawalId, 'PENDING_REVIEW')],
      [
        14,
        async () => {
          const id = chooseDeposit(['RESERVED', 'AUTO_CANCELLED', 'PENDING_REVIEW', 'LATE_ARRIVAL']);
          const target = id && random() < 0.9 ? intents.get(id) : undefined;
          const answer = await h.transfer(target?.referenceNo ?? '', deposit());
          if (!check('transfer', answer, [201])) return;
          if (answer.body.intent) (intents.get(answer.body.intent.intentId) as { status: string }).status = answer.body.intent.status;
          else unmatched.push(answer.body.bankTransferId);
        },
      ],
      [
        3,
        async () => {
          const [transfer, id] = [pick(unmatched), chooseDeposit(['RESERVED', 'AUTO_CANCELLED', 'PENDING_REVIEW', 'LATE_ARRIVAL'])];
          if (!transfer || !id) return;
          const answer = await h.ops('POST', `/bank-transfers/${transfer}/assign`, { intentId: id });
          if (check('assign', answer, [200, 409])) (intents.get(id) as { status: string }).status = answer.body.intent.status;
        },
      ],
      [
        2,
        async () => {
          // The desk sets unmatched money aside; it stays assignable (the assign step above picks from both lists).
          const transfer = pick(unmatched);
          if (!transfer) return;
          const answer = await h.ops('POST', `/bank-transfers/${transfer}/set-aside`, { reason: 'random hold' });
          check('set aside', answer, [200, 409]);
        },
      ],
      [
        2,
        async () => {
          // Money no deposit kept goes back to its sender through its own review (house journal).
          const transfer = pick(unmatched);
          if (!transfer) return;
          const answer = await h.ops('POST', `/bank-transfers/${transfer}/return`, { reason: 'random return' });
          if (check('return', answer, [201, 409]) && answer.status === 201) returns.push(answer.body.returnId);
        },
      ],
      [
        3,
        async () => {
          const returnId = pick(returns);
          if (!returnId) return;
          const step = pick(['approve', 'approve', 'mark-sent', 'mark-sent', 'reject']) as string;
          const answer = await h.ops('POST', `/sender-returns/${returnId}/${step}`, step === 'reject' ? { reason: 'random' } : {});
          check(`${step} return`, answer, [200, 409]);
        },
      ],
      [14, () => onDeposit(chooseDeposit(['PENDING_REVIEW', 'LATE_ARRIVAL']), 'approve', random() < 0.3 ? { amount: deposit() } : {})],
      // Partial approvals (every transfer brings at least 1000): the rest returned (by default or said) or set aside.
      [
        6,
        () =>
          onDeposit(chooseDeposit(['PENDING_REVIEW', 'LATE_ARRIVAL']), 'approve', {
            amount: String(1 + Math.floor(random() * 1000)),
            ...pick([{}, { remainder: { action: 'return' } }, { remainder: { action: 'set_aside', reason: 'random hold' } }]),
          }),
      ],
      [4, () => onDeposit(chooseDeposit(['PENDING_REVIEW', 'LATE_ARRIVAL']), 'reject', { reason: 'random' })],
      [12, () => onWithdrawal(chooseWithdrawal(['PENDING_REVIEW']), 'approve', {})],
      [4, () => onWithdrawal(chooseWithdrawal(['PENDING_REVIEW', 'APPROVED']), 'reject', { reason: 'random' })],
      [10, () => onWithdrawal(chooseWithdrawal(['APPROVED']), 'mark-sent', {})],
      [4, () => onWithdrawal(chooseWithdrawal(['SENT']), 'mark-returned', { reason: 'returned' })],
    ];
    const totalWeight = operations.reduce((sum, [weight]) => sum + weight, 0);
    const next = () => {
      let roll = random() * totalWeight;
      for (const [weight, run] of operations) {
        roll -= weight;
        if (roll < 0) return run;
      }
      return (operations[0] as [number, () => Promise<void>])[1];
    };

    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (done < OPERATIONS) {
          done += 1;
          await next()();
        }
      }),
    );
    expect({ seed: SEED, unexpected: unexpected.slice(0, 5) }).toEqual({ seed: SEED, unexpected: [] });

    // Let the sweeper finish any expiry that is due, so the records are at rest.
    await eventually(async () => (await h.ledger.deps.expiries.countDue()) === 0, 10_000, 'expiries at rest');

    const report = (await h.ops('GET', '/journal/check')).body;
    expect({ seed: SEED, ...report, checkedAt: undefined }).toEqual({ seed: SEED, ok: true, problems: [], checkedAt: undefined });

    const db = h.ledger.deps.db;
    const entries = await db.journalEntry.findMany();
    const byTransaction = new Map<string, bigint>();
    for (const entry of entries) byTransaction.set(entry.transactionId, (byTransaction.get(entry.transactionId) ?? 0n) + entry.amount);
    expect([...byTransaction.values()].filter((sum) => sum !== 0n)).toEqual([]);
    expect(byTransaction.size).toBeGreaterThan(OPERATIONS / 10);

    for (const site of sites) {
      const approvedDeposits = await db.deposit.findMany({ where: { siteId: site.siteId, status: 'APPROVED' } });
      const open = await db.withdrawal.findMany({ where: { siteId: site.siteId, status: { in: ['APPROVED', 'SENT'] } } });
      const sum = (rows: Array<{ amount: bigint }>) => rows.reduce((total, row) => total + row.amount, 0n);
      const received = sum(approvedDeposits);
      const reserved = sum(open.filter((w) => w.status === 'APPROVED'));
      const paidOut = sum(open.filter((w) => w.status === 'SENT'));
      const balance = (await h.ops('GET', `/sites/${site.siteId}/balance`)).body;
      expect({ seed: SEED, ...balance }).toEqual({
        seed: SEED,
        siteId: site.siteId,
        slug: site.slug,
        name: `Site ${site.slug}`,
        livemode: true,
        currency: 'TRY',
        available: String(received - reserved - paidOut),
        reserved: String(reserved),
        receivedTotal: String(received),
        paidOutTotal: String(paidOut),
        adjustedTotal: '0',
      });
      expect(BigInt(balance.available)).toBeGreaterThanOrEqual(0n);
    }
  }, 240_000);

  it('the check finds tampered balances, an unbalanced transaction, an impossible balance and the edited entry in its chain', async () => {
    const db = h.ledger.deps.db;
    const site = await h.createSite();
    await h.fund(site, 10000);
    expect((await h.ops('GET', '/journal/check')).body.ok).toBe(true);
    // The site's journal entries linked into their hash chain first, so the edit below is one the chain must name.
    const entries = await db.journalEntry.count({ where: { siteId: site.siteId } });
    await eventually(
      async () => (await db.historyLink.count({ where: { chain: `journal:${site.siteId}` } })) === entries,
      20_000,
      "the site's journal entries linked",
    );
    const key = (account: string) => ({ siteId_account: { siteId: site.siteId, account } });
    await db.siteBalance.update({ where: key('bank_clearing'), data: { balance: { decrement: 1n } } });
    await db.siteBalance.upsert({
      where: key('site_reserved'),
      create: { siteId: site.siteId, account: 'site_reserved', balance: 7n },
      update: { balance: 7n },
    });
    const [entry] = await db.journalEntry.findMany({ where: { siteId: site.siteId }, take: 1 });
    await db.journalEntry.update({ where: { id: (entry as { id: string }).id }, data: { amount: { increment: 5n } } });
    const report = (await h.ops('GET', '/journal/check')).body;
    expect(report.ok).toBe(false);
    const kinds = new Set(report.problems.map((p: { kind: string }) => p.kind));
    // The tampered leg may be the deposit's bank_clearing debit, which also makes its credit unbacked.
    expect([...kinds]).toEqual(
      expect.arrayContaining(['unbalanced_transaction', 'balance_mismatch', 'impossible_balance', 'record_mismatch', 'history_altered']),
    );
    expect([...kinds].filter((kind) => kind !== 'unbacked_credit')).toHaveLength(5);
    const tampered = (entry as { id: string }).id;
    for (const problem of report.problems) {
      if (problem.kind === 'history_altered') {
        // The edited entry, named in its site's chain; the balance rows are not chained.
        expect(problem.detail).toMatchObject({ case: 'row_changed', chain: `journal:${site.siteId}`, rowId: tampered });
      } else if (problem.kind !== 'unbalanced_transaction') expect(problem.detail.siteId).toBe(site.siteId);
    }
  });
});

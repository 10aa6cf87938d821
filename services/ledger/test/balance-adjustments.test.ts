/**
 * Balance adjustments (docs/operations.md, Balance adjustments): a correction of what the service owes a site, proposed
 * by one admin and posted only when a second, independent admin applies it. Tried from the attacker's side too: the
 * proposer applying their own, the bootstrap token, an admin the proposer created, a reviewer, an admin scoped to
 * another site, two admins racing to apply, a debit past the balance, and a tampered record the journal check catches.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedgerHarness, type LedgerHarness, type TestOperator, type TestSite } from './harness.js';

let h: LedgerHarness;
let ayse: TestOperator;
let mehmet: TestOperator;
let zeynep: TestOperator;
let reviewer: TestOperator;
beforeAll(async () => {
  h = await startLedgerHarness();
  ayse = await h.createOperator('ADMIN');
  mehmet = await h.createOperator('ADMIN');
  zeynep = await h.createOperator('ADMIN');
  reviewer = await h.createOperator('REVIEWER');
});
afterAll(async () => {
  await h?.stop();
});

const propose = (site: TestSite, body: Record<string, unknown>, operator: TestOperator | { token: string } = ayse) =>
  h.ops('POST', `/sites/${site.siteId}/balance-adjustments`, body, operator.token);
const approve = (adjustmentId: string, operator: { token: string }) =>
  h.ops('POST', `/balance-adjustments/${adjustmentId}/approve`, {}, operator.token);
const balanceOf = async (site: TestSite) => (await h.ops('GET', `/sites/${site.siteId}/balance`)).body;
const auditOf = (entityId: string) => h.ledger.deps.db.auditLog.findMany({ where: { entityId }, orderBy: { createdAt: 'asc' } });
const postingsOf = (entityId: string) => h.ledger.deps.db.journalEntry.findMany({ where: { entityType: 'balance_adjustment', entityId } });
const journalOk = async () => (await h.ops('GET', '/journal/check')).body;

/** An admin created (through the API) by `creator`, so the two are tied: neither may complete the other's four-eyes. */
async function adminCreatedBy(creator: TestOperator): Promise<TestOperator> {
  const email = `op-${randomUUID()}@kasa.test`;
  const password = `pw-${randomUUID()}`;
  const created = await h.ops('POST', '/operators', { email, name: 'Created admin', role: 'ADMIN', password }, creator.token);
  expect(created.status).toBe(201);
  const session = await h.ops('POST', '/login', { email, password }, '');
  expect(session.status).toBe(201);
  return { operatorId: created.body.operatorId as string, email, password, token: session.body.token as string };
}

describe('a balance adjustment', () => {
  it('is proposed by one admin, posts nothing, and is applied by a second: the partner sees the movement', async () => {
    const site = await h.createSite();
    await h.fund(site, 50000);
    const proposed = await propose(site, { direction: 'credit', amount: '15000', reason: 'Fee charged twice (ticket 4711)' });
    expect(proposed.status).toBe(201);
    expect(proposed.body).toMatchObject({
      siteId: site.siteId,
      direction: 'credit',
      amount: '15000',
      currency: 'TRY',
      status: 'PENDING_REVIEW',
      proposedByOperatorId: ayse.operatorId,
      proposedByEmail: ayse.email,
      decidedByOperatorId: null,
      appliedAt: null,
    });
    expect(proposed.body.referenceNo).toMatch(/^KA[2-9A-HJKMNP-Z]{8}$/);
    const id = proposed.body.adjustmentId as string;
    expect(await balanceOf(site)).toMatchObject({ available: '50000' });
    expect(await postingsOf(id)).toEqual([]);

    const applied = await approve(id, mehmet);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ status: 'APPLIED', decidedByOperatorId: mehmet.operatorId, decidedByEmail: mehmet.email });
    expect(applied.body.appliedAt).not.toBeNull();
    expect(await balanceOf(site)).toMatchObject({ available: '65000', reserved: '0', receivedTotal: '50000', adjustedTotal: '15000' });
    const legs = await postingsOf(id);
    expect(legs.map((leg) => [leg.account, leg.amount]).sort()).toEqual([
      ['adjustments', 15000n],
      ['site_available', -15000n],
    ]);
    expect((await auditOf(id)).map((entry) => [entry.action, entry.actorId])).toEqual([
      ['BALANCE_ADJUSTMENT.PROPOSED', ayse.operatorId],
      ['BALANCE_ADJUSTMENT.APPLIED', mehmet.operatorId],
    ]);
    expect((await auditOf(id))[1]?.metadata).toMatchObject({ journalTransactionId: legs[0]!.transactionId, proposedBy: ayse.email });

    // The partner's list names it by its reference, and the journal check holds.
    const movements = await h.internal('GET', `/sites/${site.siteId}/balance/transactions`);
    expect(movements.status).toBe(200);
    expect(movements.body.data[0]).toMatchObject({
      balance: 'available',
      type: 'adjustment',
      amount: '15000',
      referenceNo: proposed.body.referenceNo,
      intentId: null,
      withdrawalId: null,
    });
    expect(await journalOk()).toMatchObject({ ok: true });

    const again = await approve(id, zeynep);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('invalid_transition');
    expect(await postingsOf(id)).toHaveLength(2);
  });

  it('is never applied by its proposer, the bootstrap token, an admin the proposer created, or a reviewer', async () => {
    const site = await h.createSite();
    const proposed = await propose(site, { direction: 'credit', amount: '7000', reason: 'Goodwill' });
    const id = proposed.body.adjustmentId as string;

    const own = await approve(id, ayse);
    expect(own.status).toBe(409);
    expect(own.body).toMatchObject({ reason: 'second_approver_required' });
    expect(own.body.detail).toContain('You proposed this balance adjustment');

    const bootstrap = await approve(id, { token: h.env.config.opsBootstrapToken });
    expect(bootstrap.status).toBe(409);
    expect(bootstrap.body.reason).toBe('second_approver_required');

    const created = await adminCreatedBy(ayse);
    const tied = await approve(id, created);
    expect(tied.status).toBe(409);
    expect(tied.body).toMatchObject({ reason: 'second_approver_required' });
    expect(tied.body.detail).toContain('they created your account');

    const byReviewer = await approve(id, reviewer);
    expect(byReviewer.status).toBe(403);

    expect((await h.ops('GET', `/balance-adjustments/${id}`)).body).toMatchObject({ status: 'PENDING_REVIEW', decidedByOperatorId: null });
    expect(await postingsOf(id)).toEqual([]);
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['BALANCE_ADJUSTMENT.PROPOSED']);
    expect(await balanceOf(site)).toMatchObject({ available: '0' });

    // Nor is one proposed by the bootstrap token, which is no person, or by a reviewer.
    const byBootstrap = await propose(site, { direction: 'credit', amount: '100', reason: 'x' }, { token: h.env.config.opsBootstrapToken });
    expect(byBootstrap.status).toBe(409);
    expect(byBootstrap.body.reason).toBe('second_approver_required');
    expect((await propose(site, { direction: 'credit', amount: '100', reason: 'x' }, reviewer)).status).toBe(403);
    expect(await h.ledger.deps.db.balanceAdjustment.count({ where: { siteId: site.siteId } })).toBe(1);

    // The database holds the rule too: an applied adjustment decided by its proposer cannot be written.
    await expect(
      h.ledger.deps.db.balanceAdjustment.update({
        where: { id },
        data: { status: 'APPLIED', decidedByOperatorId: ayse.operatorId, appliedAt: new Date() },
      }),
    ).rejects.toThrow(/balance_adjustments_decision_check/);
  });

  it('debits only what the site has available, and a rejection posts nothing', async () => {
    const site = await h.createSite();
    await h.fund(site, 10000);
    const tooMuch = await propose(site, { direction: 'debit', amount: '10001', reason: 'Fee for November' });
    expect(tooMuch.status).toBe(201);
    const refused = await approve(tooMuch.body.adjustmentId, mehmet);
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('insufficient_balance');
    expect((await h.ops('GET', `/balance-adjustments/${tooMuch.body.adjustmentId}`)).body.status).toBe('PENDING_REVIEW');
    expect(await postingsOf(tooMuch.body.adjustmentId)).toEqual([]);

    const rejected = await h.ops('POST', `/balance-adjustments/${tooMuch.body.adjustmentId}/reject`, { reason: 'Too much' }, mehmet.token);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectedReason: 'Too much', decidedByOperatorId: mehmet.operatorId });
    expect((await approve(tooMuch.body.adjustmentId, zeynep)).body.reason).toBe('invalid_transition');

    const fee = await propose(site, { direction: 'debit', amount: '2500', reason: 'Fee for November' });
    expect((await approve(fee.body.adjustmentId, zeynep)).body.status).toBe('APPLIED');
    expect(await balanceOf(site)).toMatchObject({ available: '7500', receivedTotal: '10000', adjustedTotal: '-2500' });
    const movements = (await h.internal('GET', `/sites/${site.siteId}/balance/transactions`)).body.data;
    expect(movements[0]).toMatchObject({ type: 'adjustment', amount: '-2500', referenceNo: fee.body.referenceNo });
    expect(await journalOk()).toMatchObject({ ok: true });
  });

  it('refuses what is not a proposal, and changes nothing', async () => {
    const site = await h.createSite();
    for (const body of [
      { direction: 'credit', amount: '0', reason: 'zero' },
      { direction: 'credit', amount: '-5', reason: 'negative' },
      { direction: 'credit', amount: '1.50', reason: 'lira' },
      { direction: 'sideways', amount: '100', reason: 'no direction' },
      { direction: 'credit', amount: '100', reason: '   ' },
      { direction: 'credit', amount: '100' },
      { direction: 'credit', amount: '1000000000000000', reason: '16 digits' },
      { direction: 'credit', amount: '100', reason: 'extra', siteId: site.siteId },
    ]) {
      const answer = await propose(site, body);
      expect([answer.status, answer.body.error]).toEqual([400, 'validation_failed']);
    }
    expect((await propose({ siteId: randomUUID(), slug: 'none' }, { direction: 'credit', amount: '100', reason: 'x' })).status).toBe(404);
    expect(await h.ledger.deps.db.balanceAdjustment.count({ where: { siteId: site.siteId } })).toBe(0);
    expect((await h.ops('GET', `/balance-adjustments/${randomUUID()}`)).status).toBe(404);
  });

  it('is proposed once when the same proposal is sent twice, even at the same moment', async () => {
    const site = await h.createSite();
    const body = { direction: 'credit', amount: '3300', reason: 'Refund of ticket 5120' };
    const answers = await Promise.all([propose(site, body), propose(site, body, mehmet), propose(site, body)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    const created = answers.find((answer) => answer.status === 201)!.body;
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect(refused.body.reason).toBe('duplicate_adjustment');
      expect(refused.body.detail).toContain(created.referenceNo);
    }
    expect(await h.ledger.deps.db.balanceAdjustment.count({ where: { siteId: site.siteId } })).toBe(1);
    // Another reason, direction or amount is another adjustment; so is the same one once the first is decided.
    expect((await propose(site, { ...body, reason: 'Refund of ticket 5121' })).status).toBe(201);
    expect((await propose(site, { ...body, direction: 'debit' })).status).toBe(201);
    await h.ops('POST', `/balance-adjustments/${created.adjustmentId}/reject`, { reason: 'Sent twice' }, mehmet.token);
    expect((await propose(site, body)).status).toBe(201);
  });

  it('is applied once when two admins race to apply it', async () => {
    const site = await h.createSite();
    const proposed = await propose(site, { direction: 'credit', amount: '4200', reason: 'Settlement correction' });
    const id = proposed.body.adjustmentId as string;
    const answers = await Promise.all([approve(id, mehmet), approve(id, zeynep), approve(id, mehmet)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await postingsOf(id)).toHaveLength(2);
    expect(await balanceOf(site)).toMatchObject({ available: '4200' });
    expect((await auditOf(id)).filter((entry) => entry.action === 'BALANCE_ADJUSTMENT.APPLIED')).toHaveLength(1);
  });

  it("is another site's for an admin scoped to one site: not proposed, read, listed or applied there", async () => {
    const mine = await h.createSite();
    const theirs = await h.createSite();
    const email = `op-${randomUUID()}@kasa.test`;
    const password = `pw-${randomUUID()}`;
    const created = await h.ops('POST', '/operators', { email, name: 'Scoped admin', role: 'ADMIN', password, siteIds: [mine.siteId] });
    expect(created.status).toBe(201);
    const scoped = { token: (await h.ops('POST', '/login', { email, password }, '')).body.token as string };

    const theirsProposed = await propose(theirs, { direction: 'credit', amount: '900', reason: 'Theirs' });
    expect((await propose(theirs, { direction: 'credit', amount: '900', reason: 'x' }, scoped)).status).toBe(404);
    expect((await h.ops('GET', `/balance-adjustments/${theirsProposed.body.adjustmentId}`, undefined, scoped.token)).status).toBe(404);
    expect((await approve(theirsProposed.body.adjustmentId, scoped)).status).toBe(404);
    const listed = await h.ops('GET', '/balance-adjustments?status=PENDING_REVIEW&limit=100', undefined, scoped.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((row: { siteId: string }) => row.siteId)).not.toContain(theirs.siteId);

    const mineProposed = await propose(mine, { direction: 'credit', amount: '300', reason: 'Mine' }, scoped);
    expect(mineProposed.status).toBe(201);
    expect((await approve(mineProposed.body.adjustmentId, mehmet)).body.status).toBe('APPLIED');
    expect(await postingsOf(theirsProposed.body.adjustmentId)).toEqual([]);
  });

  it('lists by status and site, oldest first for a queue', async () => {
    const site = await h.createSite();
    const first = await propose(site, { direction: 'credit', amount: '100', reason: 'one' });
    const second = await propose(site, { direction: 'debit', amount: '100', reason: 'two' });
    await h.ops('POST', `/balance-adjustments/${second.body.adjustmentId}/reject`, { reason: 'No' }, mehmet.token);
    const waiting = await h.ops('GET', `/balance-adjustments?siteId=${site.siteId}&status=PENDING_REVIEW&order=oldest`);
    expect(waiting.body.data.map((row: { adjustmentId: string }) => row.adjustmentId)).toEqual([first.body.adjustmentId]);
    const all = await h.ops('GET', `/balance-adjustments?siteId=${site.siteId}`);
    expect(all.body.data.map((row: { adjustmentId: string }) => row.adjustmentId)).toEqual([
      second.body.adjustmentId,
      first.body.adjustmentId,
    ]);
    expect((await h.ops('GET', '/balance-adjustments?status=DONE')).status).toBe(400);
    // Found by its reference as a partner's support reads it out from the balance movement.
    const spoken = `${(first.body.referenceNo as string).toLowerCase().slice(0, 5)} ${(first.body.referenceNo as string).slice(5)}`;
    const byReference = await h.ops('GET', `/balance-adjustments?referenceNo=${encodeURIComponent(spoken)}`);
    expect(byReference.body.data.map((row: { adjustmentId: string }) => row.adjustmentId)).toEqual([first.body.adjustmentId]);
  });

  it("waits on the desk until its second admin decides it; a sandbox's is nobody's work", async () => {
    const site = await h.createSite();
    expect((await h.ops('POST', `/sites/${site.siteId}/api-keys`, { mode: 'test' })).status).toBe(201);
    const twin = { siteId: (await h.ops('GET', `/sites/${site.siteId}`)).body.testSiteId as string, slug: 'twin' };
    const queue = async () => (await h.ops('GET', '/dashboard')).body.adjustmentsToApply as { count: number; oldestId: string | null };
    const before = await queue();
    const live = await propose(site, { direction: 'credit', amount: '800', reason: 'Waiting' });
    expect(await queue()).toMatchObject({ count: before.count + 1 });
    expect((await propose(twin, { direction: 'credit', amount: '800', reason: 'Sandbox' })).status).toBe(201);
    expect((await queue()).count).toBe(before.count + 1);
    expect((await approve(live.body.adjustmentId, mehmet)).body.status).toBe('APPLIED');
    expect((await queue()).count).toBe(before.count);
  });

  it('shows in the journal check when its record and the journal disagree', async () => {
    const site = await h.createSite();
    const proposed = await propose(site, { direction: 'credit', amount: '5000', reason: 'Correction' });
    expect((await approve(proposed.body.adjustmentId, mehmet)).body.status).toBe('APPLIED');
    expect(await journalOk()).toMatchObject({ ok: true });
    // Someone edits the record past the journal: the applied credits no longer match the adjustments account.
    await h.ledger.deps.db.$executeRaw`UPDATE balance_adjustments SET amount = 5001 WHERE id = ${proposed.body.adjustmentId}::uuid`;
    const report = await journalOk();
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual({
      kind: 'record_mismatch',
      detail: { siteId: site.siteId, account: 'adjustments', journal: '5000', records: '5001' },
    });
    await h.ledger.deps.db.$executeRaw`UPDATE balance_adjustments SET amount = 5000 WHERE id = ${proposed.body.adjustmentId}::uuid`;
    expect(await journalOk()).toMatchObject({ ok: true });
  });
});

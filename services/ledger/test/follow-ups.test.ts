/**
 * Follow-ups from the attacker's side (docs/statements.md, "After the lines commit"): two ledgers running the same
 * pending work at the same moment do each approval once; an operator's decision taken first stands and the follow-up
 * is skipped with the reason; a site that turned its rule off since keeps its deposits; and the journal check catches a
 * follow-up marked done whose record never moved, or one nobody is doing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { runFollowUps } from '../src/follow-ups/run-follow-ups.use-case.js';
import { startLedgerHarness, type TestSite } from './harness.js';

const RULE = { autoApprove: { enabled: true, maxAmount: '100000000', requireSenderMatch: false } };

const setup = useHarness(startLedgerHarness, async (h) => {
  const site = await h.createSite();
  expect((await h.ops('PATCH', `/sites/${site.siteId}`, RULE)).status).toBe(200);
  return { site };
});

/** `count` deposits of `site` whose exact money arrived (PENDING_REVIEW), each with the approval a statement line would promise. */
async function promisedApprovals(site: TestSite, count: number): Promise<Array<{ intentId: string; followUpId: string }>> {
  const { h } = setup;
  const promised: Array<{ intentId: string; followUpId: string }> = [];
  for (let i = 0; i < count; i += 1) {
    const amount = String(10_000 + i);
    const deposit = await h.createDeposit(site, amount);
    const transfer = await h.transfer(deposit.referenceNo, amount);
    expect(transfer.status).toBe(201);
    const row = await h.ledger.deps.db.followUp.create({
      data: {
        kind: 'DEPOSIT_APPROVAL',
        subjectId: deposit.intentId,
        receivingAccountId: null,
        lineKey: `FU-${randomUUID()}|C|${amount}|2026-11-27|1`,
        requestId: `req-${randomUUID()}`,
        payload: {
          siteId: site.siteId,
          amount,
          rule: {
            name: 'straight_through',
            maxAmount: '100000000',
            requireSenderMatch: false,
            bankTransferId: transfer.body.bankTransferId as string,
            reasons: ['reference_exact', 'amount_exact'],
          },
        },
      },
    });
    promised.push({ intentId: deposit.intentId, followUpId: row.id });
  }
  return promised;
}

const statusOf = async (intentId: string) => (await setup.h.ledger.deps.db.deposit.findUniqueOrThrow({ where: { id: intentId } })).status;

describe('follow-ups', () => {
  it('two ledgers taking the same pending approvals at the same moment approve each deposit once', async () => {
    const { h, site } = setup;
    const promised = await promisedApprovals(site, 30);
    const ids = promised.map((p) => p.followUpId);
    const [first, second] = await Promise.all([runFollowUps(h.ledger.deps, null, { ids }), runFollowUps(h.ledger.deps, null, { ids })]);
    expect(first.autoApproved + second.autoApproved).toBe(30);
    expect(first.skipped + second.skipped).toBe(0);
    for (const { intentId } of promised) expect(await statusOf(intentId)).toBe('APPROVED');
    const events = await h.ledger.deps.db.outboxEvent.findMany({
      where: { type: 'intent.approved', entityId: { in: promised.map((p) => p.intentId) } },
    });
    expect(events).toHaveLength(30);
    const rows = await h.ledger.deps.db.followUp.findMany({ where: { id: { in: ids } } });
    expect(rows.map((row) => row.status)).toEqual(Array(30).fill('DONE'));
    // The events carry the request that promised the work.
    expect(new Set(events.map((event) => event.requestId))).toEqual(new Set(rows.map((row) => row.requestId)));
    // Run again: nothing is pending, nothing moves.
    expect(await runFollowUps(h.ledger.deps, null, { ids })).toMatchObject({ autoApproved: 0, skipped: 0 });
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
  });

  it("an operator's decision taken before the follow-up stands: the follow-up is skipped with the reason", async () => {
    const { h, site } = setup;
    const [approved, rejected, left] = await promisedApprovals(site, 3);
    expect((await h.ops('POST', `/intents/${approved!.intentId}/approve`, {})).status).toBe(200);
    expect((await h.ops('POST', `/intents/${rejected!.intentId}/reject`, { reason: 'Not our customer' })).status).toBe(200);
    const done = await runFollowUps(h.ledger.deps, null, { ids: [approved!.followUpId, rejected!.followUpId, left!.followUpId] });
    expect(done).toMatchObject({ autoApproved: 1, skipped: 2 });
    expect(await statusOf(rejected!.intentId)).toBe('REJECTED');
    expect(await statusOf(left!.intentId)).toBe('APPROVED');
    const rows = await h.ledger.deps.db.followUp.findMany({ where: { id: { in: [approved!.followUpId, rejected!.followUpId] } } });
    for (const row of rows) {
      expect(row.status).toBe('SKIPPED');
      expect(row.outcome).toEqual(expect.any(String));
    }
    // One approval each: the operator's, not a second one by the rule.
    const approvals = await h.ledger.deps.db.auditLog.findMany({ where: { action: 'INTENT.APPROVED', entityId: approved!.intentId } });
    expect(approvals).toHaveLength(1);
    expect(approvals[0]!.actorType).not.toBe('SYSTEM');
  });

  it('a site that turned its rule off after the money arrived keeps its deposits for its operators', async () => {
    const { h } = setup;
    const site = await h.createSite();
    expect((await h.ops('PATCH', `/sites/${site.siteId}`, RULE)).status).toBe(200);
    const [promised] = await promisedApprovals(site, 1);
    expect((await h.ops('PATCH', `/sites/${site.siteId}`, { autoApprove: { enabled: false } })).status).toBe(200);
    expect(await runFollowUps(h.ledger.deps, null, { ids: [promised!.followUpId] })).toMatchObject({ autoApproved: 0, skipped: 1 });
    expect(await statusOf(promised!.intentId)).toBe('PENDING_REVIEW');
    const row = await h.ledger.deps.db.followUp.findUniqueOrThrow({ where: { id: promised!.followUpId } });
    expect(row).toMatchObject({ status: 'SKIPPED', outcome: expect.stringMatching(/turned straight-through approval off/) });
  });

  it('the journal check names a follow-up marked done whose deposit never moved, and one nobody is doing', async () => {
    const { h, site } = setup;
    const [unmoved, overdue] = await promisedApprovals(site, 2);
    const db = h.ledger.deps.db;
    await db.followUp.update({ where: { id: unmoved!.followUpId }, data: { status: 'DONE', finishedAt: new Date() } });
    await db.followUp.update({ where: { id: overdue!.followUpId }, data: { createdAt: new Date(Date.now() - 2 * 3600_000) } });
    const check = (await h.ops('GET', '/journal/check')).body as {
      ok: boolean;
      problems: Array<{ kind: string; detail: Record<string, string> }>;
    };
    expect(check.ok).toBe(false);
    const undone = check.problems.filter((problem) => problem.kind === 'promised_work_undone');
    expect(undone.map((problem) => [problem.detail.case, problem.detail.subjectId])).toEqual(
      expect.arrayContaining([
        ['done_not_applied', unmoved!.intentId],
        ['overdue', overdue!.intentId],
      ]),
    );
    // Finished properly, the books agree again.
    await db.followUp.update({ where: { id: unmoved!.followUpId }, data: { status: 'PENDING' } });
    await runFollowUps(h.ledger.deps, null, { ids: [unmoved!.followUpId, overdue!.followUpId] });
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
  });
});

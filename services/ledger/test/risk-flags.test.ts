/**
 * Risk flags (docs/compliance.md, Risk flags and reports), through the real paths: bank lines recorded, assigned,
 * returned and paid out through the ops API, then the risk worker's pass. Each rule flags what it should and not a
 * clean neighbour; a subject is flagged once however many passes race; an assignment is evaluated again; a review
 * closes a flag once (admins only, audited); the report for the authority; nothing reaches the partner; and the
 * journal check names an overdue flag and a review written around the API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { evaluateRiskPage } from '../src/risk/evaluate-risk.use-case.js';
import { RiskWorker } from '../src/risk/risk.worker.js';
import { startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
const clock = new TestClock();
let site: TestSite;
/** A site whose per-deposit maximum is 1,000.00 TL, for `just_under_limit`. */
let capped: TestSite;

const db = () => h.ledger.deps.db;
const evaluate = () => new RiskWorker(h.ledger.deps, 600_000).runOnce();
const flagsOf = (subjectId: string) => db().riskFlag.findMany({ where: { subjectId }, orderBy: { rule: 'asc' } });
const rulesOf = async (subjectId: string) => (await flagsOf(subjectId)).map((flag) => flag.rule);
const problemsOf = async (kind: string) =>
  ((await h.ops('GET', '/journal/check')).body.problems as Array<{ kind: string; detail: Record<string, string> }>).filter(
    (problem) => problem.kind === kind,
  );

/** A deposit of `user` paid by a hand-recorded line from `senderName` (and `senderIban`), matched by its reference. */
async function paidDeposit(
  on: TestSite,
  amount: number,
  user: string,
  senderName: string,
  extra: Record<string, unknown> = {},
  senderIban?: string,
) {
  const deposit = await h.createDeposit(on, amount, { externalUserId: user, ...extra });
  // Each line booked a second after the one before, as a bank books them.
  clock.advance(1000);
  const line = await h.transfer(deposit.referenceNo, amount, { senderName, ...(senderIban ? { senderIban } : {}) });
  expect(line.status).toBe(201);
  return { deposit, bankTransferId: line.body.bankTransferId as string };
}

let users = 0;
const newUser = () => `risk-user-${Date.now()}-${(users += 1)}`;

beforeAll(async () => {
  // The worker's own timer never fires during the test: each test runs the pass it means to.
  // One-year retention for deposits and lines, so the last test can erase a flagged user's records at once.
  h = await startLedgerHarness(
    { RISK_INTERVAL_MS: '600000', RETENTION_DEPOSITS_YEARS: '1', RETENTION_BANK_TRANSFERS_YEARS: '1', RETENTION_AUDIT_YEARS: '1' },
    { clock },
  );
  site = await h.createSite();
  capped = await h.createSite({ maxAmount: '100000' });
});
afterAll(async () => {
  await h?.stop();
});

describe('the rules', () => {
  it("flags a sender whose name is not the user's (the partner's label, else the user's first sender), and not the same name written otherwise", async () => {
    const labelled = newUser();
    const same = await paidDeposit(site, 25_000, labelled, 'AYSE YILMAZ', { externalUserLabel: 'Ayşe Yılmaz' });
    const other = await paidDeposit(site, 25_000, labelled, 'Mehmet Demir', { externalUserLabel: 'Ayşe Yılmaz' });
    const unlabelled = newUser();
    const first = await paidDeposit(site, 25_000, unlabelled, 'Can Öztürk');
    const reordered = await paidDeposit(site, 25_000, unlabelled, 'ÖZTÜRK CAN');
    const stranger = await paidDeposit(site, 25_000, unlabelled, 'Zeynep Kaya');
    await evaluate();

    expect(await rulesOf(same.deposit.intentId)).toEqual([]);
    expect(await rulesOf(first.deposit.intentId)).toEqual([]);
    expect(await rulesOf(reordered.deposit.intentId)).toEqual([]);
    const [mismatch] = await flagsOf(other.deposit.intentId);
    expect(mismatch).toMatchObject({
      rule: 'name_mismatch',
      subjectType: 'deposit',
      siteId: site.siteId,
      externalUserId: labelled,
      bankTransferId: other.bankTransferId,
      status: 'OPEN',
      facts: { senderName: 'Mehmet Demir', userName: 'Ayşe Yılmaz', score: expect.any(Number) },
    });
    expect((mismatch?.facts as { score: number }).score).toBeLessThan(0.8);
    expect(await flagsOf(stranger.deposit.intentId)).toEqual([
      expect.objectContaining({
        rule: 'name_mismatch',
        facts: expect.objectContaining({ userName: 'Can Öztürk', senderName: 'Zeynep Kaya' }),
      }),
    ]);
    // Due RISK_REVIEW_DAYS (10) after it was found.
    expect(mismatch!.dueAt.getTime() - mismatch!.detectedAt.getTime()).toBeGreaterThan(9.9 * 86_400_000);
    expect(await db().auditLog.count({ where: { entityId: mismatch!.id, action: 'RISK.FLAGGED' } })).toBe(1);
  });

  it("flags the third credit just under the site's maximum within a day, and not credits further below it", async () => {
    const structuring = newUser();
    const near = [];
    for (let i = 0; i < 3; i += 1) near.push(await paidDeposit(capped, 95_000, structuring, 'Ali Veli'));
    const modest = newUser();
    const below = [];
    for (let i = 0; i < 3; i += 1) below.push(await paidDeposit(capped, 50_000, modest, 'Ali Veli'));
    await evaluate();

    expect(await rulesOf(near[0]!.deposit.intentId)).toEqual([]);
    expect(await rulesOf(near[1]!.deposit.intentId)).toEqual([]);
    expect(await flagsOf(near[2]!.deposit.intentId)).toEqual([
      expect.objectContaining({ rule: 'just_under_limit', facts: { count: 3, total: '285000', limit: '100000', windowHours: 24 } }),
    ]);
    for (const paid of below) expect(await rulesOf(paid.deposit.intentId)).toEqual([]);
  });

  it('flags the fifth credit of one user within an hour, and not a user with four', async () => {
    const fast = newUser();
    const paid = [];
    for (let i = 0; i < 5; i += 1) paid.push(await paidDeposit(site, 10_000, fast, 'Deniz Ak'));
    const steady = newUser();
    const fewer = [];
    for (let i = 0; i < 4; i += 1) fewer.push(await paidDeposit(site, 10_000, steady, 'Deniz Ak'));
    await evaluate();

    for (const early of paid.slice(0, 4)) expect(await rulesOf(early.deposit.intentId)).toEqual([]);
    expect(await flagsOf(paid[4]!.deposit.intentId)).toEqual([
      expect.objectContaining({ rule: 'velocity', facts: { count: 5, total: '50000', windowMinutes: 60 } }),
    ]);
    for (const one of fewer) expect(await rulesOf(one.deposit.intentId)).toEqual([]);
  });

  it('flags money from an IBAN Kasa returned money to, with the IBAN masked, and not money from another IBAN', async () => {
    const iban = 'TR330006100519786457841326';
    const loose = await h.transfer('', 45_000, { senderName: 'Kemal Sunal', senderIban: iban });
    const asked = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/return`, { reason: 'No deposit; sent back' });
    expect(asked.status).toBe(201);
    expect((await h.ops('POST', `/sender-returns/${asked.body.returnId}/approve`, {})).status).toBe(200);
    expect((await h.ops('POST', `/sender-returns/${asked.body.returnId}/mark-sent`, { bankTxId: `EFT-RISK-${Date.now()}` })).status).toBe(
      200,
    );
    await evaluate();

    const again = await h.transfer('', 45_000, { senderName: 'Kemal Sunal', senderIban: iban });
    const elsewhere = await h.transfer('', 45_000, { senderName: 'Kemal Sunal' });
    await evaluate();
    expect(await rulesOf(loose.body.bankTransferId as string)).toEqual([]);
    const [flag] = await flagsOf(again.body.bankTransferId as string);
    expect(flag).toMatchObject({
      rule: 'returned_and_resent',
      subjectType: 'bank_transfer',
      facts: { senderIban: 'TR**…1326', returnId: asked.body.returnId, amount: '45000', returnedAt: expect.any(String) },
    });
    expect(JSON.stringify(flag?.facts)).not.toContain(iban);
    expect(await rulesOf(elsewhere.body.bankTransferId as string)).toEqual([]);
  });

  it("flags a credit naming a payout from an account that is not the payout's beneficiary, and not a plain credit", async () => {
    await h.fund(site, 80_000);
    const withdrawal = await h.createWithdrawal(site, 30_000);
    expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);
    expect((await h.ops('POST', '/payout-batches', { withdrawalIds: [withdrawal.withdrawalId] })).status).toBe(201);
    const item = await db().payoutBatchItem.findUniqueOrThrow({ where: { withdrawalId: withdrawal.withdrawalId } });

    const naming = await h.transfer('', 30_000, { senderName: 'Yabancı Kişi', description: `İade ${item.reference}` });
    const plain = await h.transfer('', 30_000, { senderName: 'Yabancı Kişi', description: 'Havale' });
    await evaluate();
    expect(await flagsOf(naming.body.bankTransferId as string)).toEqual([
      expect.objectContaining({
        rule: 'stranger_credit',
        siteId: site.siteId,
        facts: expect.objectContaining({ withdrawalId: withdrawal.withdrawalId, payoutReference: item.reference, amount: '30000' }),
      }),
    ]);
    expect(await rulesOf(plain.body.bankTransferId as string)).toEqual([]);
  });
});

describe('evaluation', () => {
  it('flags a subject once when passes race, and evaluates a line again when it is assigned to a deposit', async () => {
    const user = newUser();
    await paidDeposit(site, 20_000, user, 'Selin Er', { externalUserLabel: 'Selin Er' });
    const raced = await paidDeposit(site, 20_000, user, 'Burak Yıldız', { externalUserLabel: 'Selin Er' });
    const passes = await Promise.all([evaluateRiskPage(h.ledger.deps), evaluateRiskPage(h.ledger.deps), evaluate()]);
    expect(passes.reduce((sum, pass) => sum + pass.flagged, 0)).toBeGreaterThanOrEqual(1);
    await evaluate();
    expect(await rulesOf(raced.deposit.intentId)).toEqual(['name_mismatch']);
    expect(
      await db().auditLog.count({ where: { action: 'RISK.FLAGGED', metadata: { path: ['subjectId'], equals: raced.deposit.intentId } } }),
    ).toBe(1);

    // An unmatched line is evaluated (nothing to flag: no deposit), then assigned: the assignment's commit asks again.
    const loose = await h.transfer('', 20_000, { senderName: 'Burak Yıldız' });
    await evaluate();
    const later = await h.createDeposit(site, 20_000, { externalUserId: user, externalUserLabel: 'Selin Er' });
    expect(
      (await db().bankTransfer.findUniqueOrThrow({ where: { id: loose.body.bankTransferId as string } })).riskCheckedAt,
    ).not.toBeNull();
    expect((await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/assign`, { intentId: later.intentId })).status).toBe(200);
    expect((await db().bankTransfer.findUniqueOrThrow({ where: { id: loose.body.bankTransferId as string } })).riskCheckedAt).toBeNull();
    await evaluate();
    expect(await rulesOf(later.intentId)).toEqual(['name_mismatch']);
  });

  it("never flags a sandbox's money", async () => {
    const key = await h.ops('POST', `/sites/${site.siteId}/api-keys`, { mode: 'test' });
    expect(key.status).toBe(201);
    const twinId = (await h.ops('GET', `/sites/${site.siteId}`)).body.testSiteId as string;
    const user = newUser();
    const paid = [];
    for (let i = 0; i < 6; i += 1) {
      const deposit = await h.createDeposit({ siteId: twinId, slug: 'twin' }, 10_000, {
        externalUserId: user,
        externalUserLabel: 'Someone Else',
      });
      const simulated = await h.internal('POST', `/sites/${twinId}/test/deposits/${deposit.intentId}/transfers`, {
        apiKeyId: key.body.apiKeyId as string,
        request: { senderName: `Sender ${i}` },
      });
      expect(simulated.status).toBe(201);
      paid.push(deposit);
    }
    await evaluate();
    for (const deposit of paid) expect(await rulesOf(deposit.intentId)).toEqual([]);
  });
});

describe('review and report', () => {
  it('lets an admin review a flag once (audited), refuses a reviewer and a site-scoped admin, and lists the queue', async () => {
    const user = newUser();
    await paidDeposit(site, 15_000, user, 'Ece Tan', { externalUserLabel: 'Ece Tan' });
    const flagged = await paidDeposit(site, 15_000, user, 'Okan Bey', { externalUserLabel: 'Ece Tan' });
    await evaluate();
    const [flag] = await flagsOf(flagged.deposit.intentId);
    const flagId = flag!.id;

    const queue = await h.ops('GET', '/risk-flags');
    expect(queue.status).toBe(200);
    expect(queue.body.data.map((row: { id: string }) => row.id)).toContain(flagId);
    const byRule = await h.ops('GET', `/risk-flags?rule=velocity&siteId=${site.siteId}`);
    expect(byRule.body.data.every((row: { rule: string }) => row.rule === 'velocity')).toBe(true);
    expect((await h.ops('GET', '/risk-flags?status=DONE')).status).toBe(400);
    const one = await h.ops('GET', `/risk-flags/${flagId}`);
    expect(one.body).toMatchObject({ id: flagId, rule: 'name_mismatch', status: 'OPEN', overdue: false, outcome: null, reviewedBy: null });
    expect((await h.ops('GET', '/risk-flags/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await h.ops('GET', '/risk-flags/not-a-uuid')).status).toBe(404);

    const reviewer = await h.createOperator('REVIEWER');
    expect((await h.ops('GET', '/risk-flags', undefined, reviewer.token)).status).toBe(403);
    expect((await h.ops('POST', `/risk-flags/${flagId}/review`, { outcome: 'no_action', note: 'x' }, reviewer.token)).status).toBe(403);
    const scoped = await h.ops('POST', '/operators', {
      email: `scoped-risk-${Date.now()}@kasa.test`,
      name: 'Scoped Admin',
      role: 'ADMIN',
      password: `pw-${Date.now()}-scoped`,
      siteIds: [site.siteId],
    });
    expect(scoped.status).toBe(201);
    const token = await h.ops('POST', `/operators/${scoped.body.operatorId as string}/tokens`, { label: 'scoped' });
    const refused = await h.ops('GET', '/risk-flags', undefined, token.body.token as string);
    expect([refused.status, refused.body.reason]).toEqual([403, 'site_scope']);

    for (const body of [{ outcome: 'ignored', note: 'x' }, { outcome: 'no_action', note: '   ' }, { outcome: 'no_action' }]) {
      expect((await h.ops('POST', `/risk-flags/${flagId}/review`, body)).status).toBe(400);
    }
    expect((await db().riskFlag.findUniqueOrThrow({ where: { id: flagId } })).status).toBe('OPEN');

    const admin = await h.createOperator('ADMIN');
    const reviewed = await h.ops(
      'POST',
      `/risk-flags/${flagId}/review`,
      { outcome: 'reported', note: 'Third-party payer; reported.' },
      admin.token,
    );
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({
      status: 'CLOSED',
      outcome: 'reported',
      note: 'Third-party payer; reported.',
      reviewedBy: { operatorId: admin.operatorId, email: admin.email },
    });
    const again = await h.ops('POST', `/risk-flags/${flagId}/review`, { outcome: 'no_action', note: 'again' });
    expect([again.status, again.body.reason]).toEqual([409, 'invalid_transition']);
    const audits = await db().auditLog.findMany({ where: { entityId: flagId, action: 'RISK.REVIEWED' } });
    expect(audits).toHaveLength(1);
    expect(audits[0]?.metadata).toMatchObject({ outcome: 'reported', rule: 'name_mismatch' });
    expect((await h.ops('GET', '/risk-flags?status=CLOSED')).body.data[0]).toMatchObject({ id: flagId });
  });

  it("exports the flags reported in a period as CSV with the line's full IBAN, and refuses a period that is not one", async () => {
    const user = newUser();
    const iban = makeTrIban(424_242);
    await paidDeposit(site, 12_000, user, 'Gül Ak', { externalUserLabel: 'Gül Ak' });
    const flagged = await paidDeposit(site, 12_345, user, 'Tarık Öz', { externalUserLabel: 'Gül Ak' }, iban);
    await evaluate();
    const [flag] = await flagsOf(flagged.deposit.intentId);
    expect((await h.ops('POST', `/risk-flags/${flag!.id}/review`, { outcome: 'reported', note: 'Reported, "quoted", ok' })).status).toBe(
      200,
    );

    const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const response = await fetch(`${h.ledger.url}/ops/v1/risk-flags/report?from=${today}&to=${today}`, {
      headers: { authorization: `Bearer ${h.env.config.opsBootstrapToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toContain(`kasa-risk-report-${today}-${today}.csv`);
    const [header, ...rows] = (await response.text()).trimEnd().split('\r\n');
    expect(header).toBe(
      'flag_id,rule,detected_at,due_at,reviewed_at,reviewer_email,site_id,site_name,external_user_id,subject_type,subject_id,reference,amount,currency,sender_name,sender_iban,note',
    );
    const row = rows.find((line) => line.startsWith(flag!.id));
    expect(row).toContain(`,${user},deposit,${flagged.deposit.intentId},${flagged.deposit.referenceNo},123.45,TRY,Tarık Öz,${iban},`);
    expect(row).toContain('"Reported, ""quoted"", ok"');
    expect(await db().auditLog.count({ where: { action: 'RISK.REPORT_EXPORTED', entityId: `${today}..${today}` } })).toBeGreaterThanOrEqual(
      1,
    );

    for (const query of [
      `from=${today}`,
      'from=2026-02-30&to=2026-03-01',
      `from=${today}&to=2020-01-01`,
      'from=2024-01-01&to=2025-12-31',
    ]) {
      expect((await h.ops('GET', `/risk-flags/report?${query}`)).status).toBe(400);
    }
  });

  it('shows the partner nothing: not in its deposit lookup, not in any event', async () => {
    const user = newUser();
    await paidDeposit(site, 11_000, user, 'Hale Su', { externalUserLabel: 'Hale Su' });
    const flagged = await paidDeposit(site, 11_000, user, 'Other Payer', { externalUserLabel: 'Hale Su' });
    await evaluate();
    expect(await rulesOf(flagged.deposit.intentId)).toEqual(['name_mismatch']);
    const lookup = await h.internal('GET', `/sites/${site.siteId}/intents/${flagged.deposit.intentId}`);
    expect(lookup.status).toBe(200);
    expect(JSON.stringify(lookup.body)).not.toMatch(/risk|flag|name_mismatch/i);
    const events = await db().outboxEvent.findMany({ where: { siteId: site.siteId } });
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events.map((event) => [event.type, event.payload]))).not.toMatch(/risk|name_mismatch/i);
  });
});

describe('the journal check', () => {
  it('names a flag past its deadline (risk_review_overdue) and one closed without its review entry (risk_review_unaudited)', async () => {
    const user = newUser();
    await paidDeposit(site, 13_000, user, 'Nur Can', { externalUserLabel: 'Nur Can' });
    const overdue = await paidDeposit(site, 13_000, user, 'Late Payer', { externalUserLabel: 'Nur Can' });
    const around = await paidDeposit(site, 13_000, user, 'Quiet Payer', { externalUserLabel: 'Nur Can' });
    await evaluate();
    const [late] = await flagsOf(overdue.deposit.intentId);
    const [quiet] = await flagsOf(around.deposit.intentId);
    expect((await problemsOf('risk_review_overdue')).map((problem) => problem.detail.flagId)).not.toContain(late!.id);

    // Planted: a deadline in the past, and a flag closed by SQL rather than reviewed through the API.
    await db().$executeRaw`UPDATE risk_flags SET due_at = now() - interval '1 day' WHERE id = ${late!.id}::uuid`;
    await db()
      .$executeRaw`UPDATE risk_flags SET status = 'CLOSED', outcome = 'no_action', note = 'quietly', reviewed_at = now() WHERE id = ${quiet!.id}::uuid`;
    expect(await problemsOf('risk_review_overdue')).toContainEqual(
      expect.objectContaining({ detail: expect.objectContaining({ flagId: late!.id, rule: 'name_mismatch' }) }),
    );
    expect((await h.ops('GET', `/risk-flags/${late!.id}`)).body.overdue).toBe(true);
    expect(await problemsOf('risk_review_unaudited')).toContainEqual(
      expect.objectContaining({ detail: expect.objectContaining({ flagId: quiet!.id }) }),
    );

    // Reviewed late through the API: no longer overdue, and audited.
    expect((await h.ops('POST', `/risk-flags/${late!.id}/review`, { outcome: 'no_action', note: 'Spouse; documented.' })).status).toBe(200);
    expect((await problemsOf('risk_review_overdue')).map((problem) => problem.detail.flagId)).not.toContain(late!.id);
    await db().$executeRaw`DELETE FROM risk_flags WHERE id = ${quiet!.id}::uuid`;
  });
});

describe('erasure', () => {
  // Last: it moves the clock two years on.
  it("erases the names and IBAN a flag's facts keep with the user's records, logged, and the check names a flag that kept them", async () => {
    const user = newUser();
    await paidDeposit(site, 14_000, user, 'Sevgi Ay', { externalUserLabel: 'Sevgi Ay' });
    const flagged = await paidDeposit(site, 14_000, user, 'Başka Biri', { externalUserLabel: 'Sevgi Ay' });
    await evaluate();
    const [flag] = await flagsOf(flagged.deposit.intentId);
    expect(flag?.facts).toMatchObject({ senderName: 'Başka Biri', userName: 'Sevgi Ay' });

    clock.advance(2 * 365 * 86_400_000);
    const filed = await h.ops('POST', '/erasure-requests', { siteId: site.siteId, externalUserId: user, reason: 'Ticket KVKK-7' });
    expect(filed.status).toBe(201);
    const erased = await db().riskFlag.findUniqueOrThrow({ where: { id: flag!.id } });
    expect(erased.facts).toEqual({ senderName: '[erased]', userName: '[erased]', score: (flag!.facts as { score: number }).score });
    expect(erased).toMatchObject({ rule: 'name_mismatch', subjectId: flagged.deposit.intentId, status: 'OPEN' });
    expect(await db().destructionLog.count({ where: { recordType: 'risk_flag', recordId: flag!.id } })).toBe(1);
    expect((await problemsOf('personal_data_kept')).filter((problem) => problem.detail.recordId === flag!.id)).toEqual([]);

    // Planted: a name written back into an erased flag.
    await db().$executeRaw`UPDATE risk_flags SET facts = facts || '{"senderName": "Başka Biri"}'::jsonb WHERE id = ${flag!.id}::uuid`;
    expect(await problemsOf('personal_data_kept')).toContainEqual({
      kind: 'personal_data_kept',
      detail: { case: 'kept_after_destruction', recordType: 'risk_flag', recordId: flag!.id },
    });
    await db().$executeRaw`DELETE FROM risk_flags WHERE id = ${flag!.id}::uuid`;
  });
});

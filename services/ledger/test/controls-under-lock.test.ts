/**
 * The controls on approvals are decided on the locked record (docs/operations.md, Step-up and Four-eyes): step-up
 * and bulk approval's exact-match rule read what the approval moves inside its transaction, so money assigned at the
 * same moment cannot slip past them; four-eyes takes two different enabled people (never the bootstrap token, never
 * an account together with the admin who created or last changed it, never an approval by an operator since disabled).
 */
import { describe, expect, it } from '@jest/globals';
import { expectStatus, httpJson } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness, type LedgerHarness, type TestOperator, type TestSite } from './harness.js';

/** Approvals above 50,000.00 TL need a fresh second-factor code. */
const STEP_UP_ABOVE = 5_000_000n;
/** Payouts above 1,000.00 TL need two people. */
const DUAL_ABOVE = 100_000;
/** Concurrent assign-and-approve rounds per race test. */
const ROUNDS = 10;

const setup = useHarness(
  () => startLedgerHarness({ STEP_UP_ABOVE_KURUS: String(STEP_UP_ABOVE), DUAL_APPROVAL_ABOVE_KURUS: String(DUAL_ABOVE) }),
  async (h) => ({ site: await h.createSite(), reviewer: await h.createOperator('REVIEWER') }),
);

/** A deposit whose matched money is `received`, and an unmatched transfer of `extra` that could be assigned to it. */
async function depositAndLooseMoney(h: LedgerHarness, site: TestSite, requested: bigint, extra: bigint) {
  const intent = await h.createDeposit(site, requested.toString());
  expectStatus(await h.transfer(intent.referenceNo, requested.toString()), 201, 'matched transfer');
  const loose = expectStatus(await h.transfer('', extra.toString()), 201, 'loose transfer');
  return { intentId: intent.intentId, looseId: (loose.body as { bankTransferId: string }).bankTransferId };
}

const intentOf = async (h: LedgerHarness, intentId: string) =>
  expectStatus(await h.ops('GET', `/intents/${intentId}`), 200, 'intent').body as { status: string; amount: string };

/** An operator account created by `admin` (not by the bootstrap token), logged in. */
async function createdBy(h: LedgerHarness, admin: TestOperator, role: 'REVIEWER' | 'ADMIN'): Promise<TestOperator> {
  const email = `made-${Math.random().toString(36).slice(2)}@kasa.test`;
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const created = expectStatus(
    await h.ops('POST', '/operators', { email, name: 'Made by an admin', role, password }, admin.token),
    201,
    'create',
  );
  const session = expectStatus(await httpJson(`${h.ledger.url}/ops/v1/login`, 'POST', {}, { email, password }), 201, 'login');
  return {
    operatorId: (created.body as { operatorId: string }).operatorId,
    email,
    password,
    token: (session.body as { token: string }).token,
  };
}

async function withdrawalAboveThreshold(h: LedgerHarness) {
  const site = await h.createSite();
  await h.fund(site, 500000);
  const { withdrawalId } = await h.createWithdrawal(site, 250000);
  return { site, path: `/withdrawals/${withdrawalId}` };
}

const approve = (h: LedgerHarness, path: string, operator?: TestOperator) => h.ops('POST', `${path}/approve`, {}, operator?.token);
const reservedOf = async (h: LedgerHarness, site: TestSite) => (await h.ops('GET', `/sites/${site.siteId}/balance`)).body.reserved;

describe('step-up is decided on the locked deposit', () => {
  it('never credits above the limit without step-up while a transfer is assigned at the same moment', async () => {
    const { h, site, reviewer } = setup;
    // 40,000.00 TL received, below the limit; with the 29,000.00 TL assigned, 69,000.00 TL, above it.
    const requested = 4_000_000n;
    const extra = 2_900_000n;
    const overLimit: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const { intentId, looseId } = await depositAndLooseMoney(h, site, requested, extra);
      const [assigned, approved] = await Promise.all([
        h.ops('POST', `/bank-transfers/${looseId}/assign`, { intentId }, reviewer.token),
        h.ops('POST', `/intents/${intentId}/approve`, {}, reviewer.token),
      ]);
      const intent = await intentOf(h, intentId);
      if (intent.status === 'APPROVED' && BigInt(intent.amount) > STEP_UP_ABOVE) overLimit.push(`${intentId}: ${intent.amount}`);
      // One of the two went first: the approval credited what was there, or the assignment made it too large to approve.
      if (approved.status === 200) {
        expect(approved.body.amount).toBe(requested.toString());
        expect(assigned.body).toMatchObject({ status: 409, reason: 'intent_decided' });
      } else {
        expect(approved.body).toMatchObject({ status: 403, reason: 'step_up_required' });
        expect(assigned.status).toBe(200);
        expect(intent.status).not.toBe('APPROVED');
      }
    }
    expect(overLimit).toEqual([]);
    expect((await h.ops('GET', '/journal/check')).body.ok).toBe(true);
  });
});

describe('a top-up is held to step-up like the approval it extends', () => {
  it('refuses a top-up that takes an approved deposit above the limit without a fresh code, changing nothing', async () => {
    const { h, reviewer } = setup;
    const site = await h.createSite();
    await h.ledger.deps.db.site.update({ where: { id: site.siteId }, data: { webhookEventTypes: ['intent.topped_up'] } });
    // 40,000.00 TL approved (below the limit), then 29,000.00 TL more: 69,000.00 TL credited in all, above it.
    const intent = await h.createDeposit(site, '4000000');
    expectStatus(await h.transfer(intent.referenceNo, '4000000'), 201, 'matched transfer');
    expectStatus(await h.ops('POST', `/intents/${intent.intentId}/approve`, {}, reviewer.token), 200, 'approve');
    const late = expectStatus(await h.transfer(intent.referenceNo, '2900000'), 201, 'late transfer');
    const lateId = (late.body as { bankTransferId: string }).bankTransferId;

    const refused = await h.ops('POST', `/bank-transfers/${lateId}/top-up`, { intentId: intent.intentId }, reviewer.token);
    expect(refused.body).toMatchObject({ status: 403, reason: 'step_up_required' });
    expect((await intentOf(h, intent.intentId)).amount).toBe('4000000');
    expect((await h.ops('GET', `/bank-transfers/${lateId}`)).body.status).toBe('UNMATCHED');

    // A top-up that keeps the credit at or below the limit needs no code.
    const small = await h.createDeposit(site, '100000');
    expectStatus(await h.transfer(small.referenceNo, '100000'), 201, 'small transfer');
    expectStatus(await h.ops('POST', `/intents/${small.intentId}/approve`, {}, reviewer.token), 200, 'approve small');
    const smallLate = expectStatus(await h.transfer(small.referenceNo, '50000'), 201, 'small late transfer');
    const toppedUp = await h.ops(
      'POST',
      `/bank-transfers/${(smallLate.body as { bankTransferId: string }).bankTransferId}/top-up`,
      { intentId: small.intentId },
      reviewer.token,
    );
    expect(toppedUp.status).toBe(200);
    expect((await intentOf(h, small.intentId)).amount).toBe('150000');
    expect((await h.ops('GET', '/journal/check')).body.ok).toBe(true);
  });
});

describe("bulk approval's exact-match rule is decided on the locked deposit", () => {
  it('never approves a deposit whose money stopped being an exact match while a transfer is assigned', async () => {
    const { h, site, reviewer } = setup;
    const requested = 30_000n;
    const inexact: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const { intentId, looseId } = await depositAndLooseMoney(h, site, requested, 7_000n);
      const [assigned, bulk] = await Promise.all([
        h.ops('POST', `/bank-transfers/${looseId}/assign`, { intentId }, reviewer.token),
        h.ops('POST', '/intents/bulk-approve', { intentIds: [intentId] }, reviewer.token),
      ]);
      const intent = await intentOf(h, intentId);
      if (intent.status === 'APPROVED' && intent.amount !== requested.toString()) inexact.push(`${intentId}: ${intent.amount}`);
      const [result] = expectStatus(bulk, 200, 'bulk').body.results as Array<{ ok: boolean; error?: { reason: string } }>;
      if (result?.ok) expect(assigned.body).toMatchObject({ status: 409, reason: 'intent_decided' });
      else expect(result?.error?.reason).toBe('not_exact_match');
    }
    expect(inexact).toEqual([]);
  });
});

describe('four-eyes takes two different enabled people', () => {
  it('the bootstrap token gives neither approval, so it cannot complete four-eyes with an admin', async () => {
    const { h } = setup;
    const admin = await h.createOperator('ADMIN');
    const { site, path } = await withdrawalAboveThreshold(h);

    const asFirst = await approve(h, path);
    expect(asFirst.body).toMatchObject({ status: 409, reason: 'second_approver_required' });
    expect(asFirst.body.detail).toContain('bootstrap token');
    expect((await h.ops('GET', path)).body.approvals).toEqual({ required: 2, given: [] });

    expect((await approve(h, path, admin)).body).toMatchObject({ status: 'PENDING_REVIEW' });
    const asSecond = await approve(h, path);
    expect(asSecond.body).toMatchObject({ status: 409, reason: 'second_approver_required' });
    expect((await h.ops('GET', path)).body).toMatchObject({
      status: 'PENDING_REVIEW',
      approvals: { given: [{ operatorId: admin.operatorId }] },
    });
    expect(await reservedOf(h, site)).toBe('0');
  });

  it('a reviewer account never completes four-eyes with the admin who created it, in either order', async () => {
    const { h } = setup;
    const admin = await h.createOperator('ADMIN');
    const own = await createdBy(h, admin, 'REVIEWER');
    const independent = await h.createOperator('REVIEWER');

    const { site, path } = await withdrawalAboveThreshold(h);
    expect((await approve(h, path, admin)).body.status).toBe('PENDING_REVIEW');
    const refused = await approve(h, path, own);
    expect(refused.body).toMatchObject({ status: 409, reason: 'second_approver_required' });
    expect(refused.body.detail).toContain('created');
    expect((await h.ops('GET', path)).body).toMatchObject({
      status: 'PENDING_REVIEW',
      approvals: { given: [{ operatorId: admin.operatorId }] },
    });
    expect(await reservedOf(h, site)).toBe('0');
    // Another person completes it.
    expect((await approve(h, path, independent)).body.status).toBe('APPROVED');

    const loose = expectStatus(await h.transfer('', 200000), 201, 'transfer');
    const asked = expectStatus(
      await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/return`, { reason: 'No deposit' }),
      201,
      'return',
    );
    const returnPath = `/sender-returns/${asked.body.returnId}`;
    expect((await approve(h, returnPath, own)).body.status).toBe('PENDING_REVIEW');
    expect((await approve(h, returnPath, admin)).body).toMatchObject({ status: 409, reason: 'second_approver_required' });
    expect((await h.ops('GET', returnPath)).body.status).toBe('PENDING_REVIEW');
  });

  it.each([
    [
      'changed its scope',
      (h: LedgerHarness, admin: TestOperator, target: TestOperator) =>
        h.ops('PATCH', `/operators/${target.operatorId}`, { siteIds: [] }, admin.token),
    ],
    [
      'issued it a token',
      (h: LedgerHarness, admin: TestOperator, target: TestOperator) =>
        h.ops('POST', `/operators/${target.operatorId}/tokens`, { label: 'mine now' }, admin.token),
    ],
  ])('an account never completes four-eyes with the admin who last %s', async (_change, change) => {
    const { h } = setup;
    const admin = await h.createOperator('ADMIN');
    const reviewer = await h.createOperator('REVIEWER');
    expect((await change(h, admin, reviewer)).status).toBeLessThan(300);

    const { path } = await withdrawalAboveThreshold(h);
    expect((await approve(h, path, reviewer)).body.status).toBe('PENDING_REVIEW');
    expect((await approve(h, path, admin)).body).toMatchObject({ status: 409, reason: 'second_approver_required' });
    expect((await h.ops('GET', path)).body.status).toBe('PENDING_REVIEW');
  });

  it('a first approval by an operator disabled since does not count: the next approval is a first one again', async () => {
    const { h } = setup;
    const leaving = await h.createOperator('REVIEWER');
    const staying = await h.createOperator('REVIEWER');
    const third = await h.createOperator('REVIEWER');
    const { site, path } = await withdrawalAboveThreshold(h);

    expect((await approve(h, path, leaving)).body.status).toBe('PENDING_REVIEW');
    expectStatus(await h.ops('POST', `/operators/${leaving.operatorId}/disable`), 200, 'disable');

    const next = await approve(h, path, staying);
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ status: 'PENDING_REVIEW', approvals: { required: 2, given: [{ operatorId: staying.operatorId }] } });
    expect(next.body.approvals.given).toHaveLength(1);
    expect(await reservedOf(h, site)).toBe('0');

    const completed = await approve(h, path, third);
    expect(completed.body.status).toBe('APPROVED');
    expect(completed.body.approvals.given.map((given: { operatorId: string }) => given.operatorId)).toEqual([
      staying.operatorId,
      third.operatorId,
    ]);
  });
});

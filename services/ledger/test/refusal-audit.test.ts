/**
 * Refused actions in the audit log (docs/compliance.md): a refused login, a 403 and a four-eyes refusal are each written,
 * naming who was refused and why, never a password; an unauthenticated request writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedgerHarness, type LedgerHarness, type TestOperator } from './harness.js';

const THRESHOLD = 100000;

let h: LedgerHarness;
let reviewer: TestOperator;
let other: TestOperator;
beforeAll(async () => {
  h = await startLedgerHarness({ DUAL_APPROVAL_ABOVE_KURUS: String(THRESHOLD) });
  reviewer = await h.createOperator('REVIEWER');
  other = await h.createOperator('REVIEWER');
});
afterAll(async () => {
  await h?.stop();
});

/** Rows as text (their tx_id is a BigInt). */
const text = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

const entries = (action: string) => h.ledger.deps.db.auditLog.findMany({ where: { action }, orderBy: { createdAt: 'asc' } });

describe('refused actions in the audit log', () => {
  it('writes a refused login with the operator, the address and the reason, never the password', async () => {
    const wrong = await h.ops('POST', '/login', { email: reviewer.email, password: 'not-the-password-1234' });
    expect(wrong.status).toBe(401);
    const unknown = await h.ops('POST', '/login', { email: 'nobody@example.com', password: 'whatever-it-is-5678' });
    expect(unknown.status).toBe(401);
    const [first, second] = await entries('OPERATOR.LOGIN_REFUSED');
    expect(first).toMatchObject({
      actorType: 'SYSTEM',
      actorId: 'login',
      entityType: 'operator',
      entityId: reviewer.operatorId,
      metadata: { email: reviewer.email, reason: 'unauthorized', clientAddress: expect.any(String) },
    });
    expect(second).toMatchObject({ entityId: 'unknown', metadata: { email: 'nobody@example.com' } });
    expect(text([first, second])).not.toContain('not-the-password');
    expect(text([first, second])).not.toContain('whatever-it-is');
  });

  it('does not write what was typed into the e-mail field when it is not an e-mail address', async () => {
    const typed = await h.ops('POST', '/login', { email: 'my secret passphrase', password: 'x'.repeat(12) });
    expect(typed.status).toBe(401);
    const written = await entries('OPERATOR.LOGIN_REFUSED');
    // The refusal is written, with no address.
    expect(written).toHaveLength(3);
    expect(written).toContainEqual(
      expect.objectContaining({ entityId: 'unknown', metadata: expect.objectContaining({ email: null, reason: 'unauthorized' }) }),
    );
    expect(text(written)).not.toContain('secret passphrase');
  });

  it("writes a 403 with the operator, the request and the problem's reason", async () => {
    const refused = await h.ops(
      'POST',
      '/operators',
      { email: 'new@example.com', password: 'long-enough-pass-1', role: 'ADMIN' },
      reviewer.token,
    );
    expect(refused.status).toBe(403);
    const [entry] = await entries('ACCESS.REFUSED');
    expect(entry).toMatchObject({
      actorType: 'OPERATOR',
      actorId: reviewer.operatorId,
      entityType: 'ops_request',
      metadata: { method: 'POST', path: '/ops/v1/operators', status: 403, reason: 'forbidden' },
    });
  });

  it('writes a four-eyes refusal: the same operator approving twice', async () => {
    const site = await h.createSite();
    await h.fund(site, 500000);
    const { withdrawalId } = await h.createWithdrawal(site, 250000);
    expect((await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {}, reviewer.token)).status).toBe(200);
    const again = await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {}, reviewer.token);
    expect(again.status).toBe(409);
    const [entry] = await entries('FOUR_EYES.REFUSED');
    expect(entry).toMatchObject({
      actorId: reviewer.operatorId,
      metadata: { method: 'POST', path: `/ops/v1/withdrawals/${withdrawalId}/approve`, status: 409, reason: 'second_approver_required' },
    });
    // The second person's approval still goes through.
    expect((await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {}, other.token)).status).toBe(200);
  });

  it('writes nothing for a request without a valid token', async () => {
    const before = await h.ledger.deps.db.auditLog.count();
    const anonymous = await h.ops('GET', '/operators', undefined, 'not-a-token');
    expect(anonymous.status).toBe(401);
    expect(await h.ledger.deps.db.auditLog.count()).toBe(before);
  });
});

/**
 * `POST /ops/v1/intents/bulk-approve`: several exact-match deposits approved in one request, each in its own
 * transaction with its own audit entry and `intent.approved`; an item that cannot be approved (not an exact match,
 * already decided, unknown, above the step-up limit without a code) is reported for itself and the others go on.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { expectStatus } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness, type TestSite } from './harness.js';

const STEP_UP_ABOVE = '500000';

const setup = useHarness(
  () => startLedgerHarness({ STEP_UP_ABOVE_KURUS: STEP_UP_ABOVE }),
  async (h) => ({ site: await h.createSite(), reviewer: await h.createOperator('REVIEWER') }),
);

/** A deposit whose money arrived: `received` (default: exactly what was requested). */
async function paid(site: TestSite, requested: number, received = requested) {
  const intent = await setup.h.createDeposit(site, requested);
  expectStatus(await setup.h.transfer(intent.referenceNo, received), 201, 'transfer');
  return intent;
}

const statusOf = async (intentId: string) => expectStatus(await setup.h.ops('GET', `/intents/${intentId}`), 200, 'intent').body.status;
const approvals = (intentId: string) =>
  setup.h.ledger.deps.db.auditLog.findMany({ where: { entityId: intentId, action: 'INTENT.APPROVED' } });
const approvedEvents = (intentId: string) =>
  setup.h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: intentId, type: 'intent.approved' } });
const available = async (site: TestSite) =>
  expectStatus(await setup.h.ops('GET', `/sites/${site.siteId}/balance`), 200, 'balance').body.available as string;

describe('bulk approval', () => {
  it('approves each exact match on its own and reports every other item with its reason, in order', async () => {
    const { h, reviewer } = setup;
    const site = await h.createSite();
    const first = await paid(site, 10000);
    const short = await paid(site, 20000, 15000);
    const second = await paid(site, 30000);
    const decided = await paid(site, 40000);
    expectStatus(await h.ops('POST', `/intents/${decided.intentId}/reject`, { reason: 'Sender is not the user.' }), 200, 'reject');
    const third = await paid(site, 50000);
    const unknown = randomUUID();
    const ids = [first, short, second, decided, third].map((i) => i.intentId);

    const answer = expectStatus(
      await h.ops('POST', '/intents/bulk-approve', { intentIds: [...ids, unknown] }, reviewer.token),
      200,
      'bulk',
    );

    const results = answer.body.results as Array<{ intentId: string; ok: boolean; intent?: { status: string }; error?: unknown }>;
    expect(results.map((r) => r.intentId)).toEqual([...ids, unknown]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, false, true, false]);
    expect(results[0]).toMatchObject({ ok: true, intent: { intentId: first.intentId, status: 'APPROVED', amount: '10000' } });
    expect(results[1]?.error).toEqual({ reason: 'not_exact_match', detail: expect.stringContaining('150,00') });
    expect(results[3]?.error).toMatchObject({ reason: 'invalid_transition' });
    expect(results[5]?.error).toMatchObject({ reason: 'not_found' });

    for (const approved of [first, second, third]) {
      expect(await statusOf(approved.intentId)).toBe('APPROVED');
      const [audit, ...moreAudits] = await approvals(approved.intentId);
      expect(moreAudits).toEqual([]);
      expect(audit).toMatchObject({ actorType: 'OPERATOR', actorId: reviewer.operatorId });
      const [event, ...moreEvents] = await approvedEvents(approved.intentId);
      expect(moreEvents).toEqual([]);
      // Each its own transition: its own event id in its own answer.
      expect(results.find((r) => r.intentId === approved.intentId)).toMatchObject({ intent: { eventId: event?.id } });
    }
    // The refused ones are as they were: nothing approved, nothing announced.
    expect(await statusOf(short.intentId)).toBe('PENDING_REVIEW');
    expect(await statusOf(decided.intentId)).toBe('REJECTED');
    for (const refused of [short, decided]) {
      expect(await approvals(refused.intentId)).toEqual([]);
      expect(await approvedEvents(refused.intentId)).toEqual([]);
    }
    expect(await available(site)).toBe('90000');
  });

  it('asks each item for step-up: the one above the limit fails without a fresh code, the smaller one is approved', async () => {
    const { h, site, reviewer } = setup;
    const large = await paid(site, Number(STEP_UP_ABOVE) + 100);
    const small = await paid(site, 12345);

    const answer = expectStatus(
      await h.ops('POST', '/intents/bulk-approve', { intentIds: [large.intentId, small.intentId] }, reviewer.token),
      200,
      'bulk',
    );

    expect(answer.body.results).toMatchObject([
      { intentId: large.intentId, ok: false, error: { reason: 'step_up_required' } },
      { intentId: small.intentId, ok: true, intent: { status: 'APPROVED' } },
    ]);
    expect(await statusOf(large.intentId)).toBe('PENDING_REVIEW');
  });

  it.each([
    ['no ids', { intentIds: [] }],
    ['a repeated id', { intentIds: ['6f1d7a2e-3c4b-4d5e-8f90-a1b2c3d4e5f6', '6f1d7a2e-3c4b-4d5e-8f90-a1b2c3d4e5f6'] }],
    ['an id that is not a UUID', { intentIds: ['KSA-123'] }],
    ['over 100 ids', { intentIds: Array.from({ length: 101 }, () => randomUUID()) }],
    ['another field', { intentIds: [randomUUID()], amount: '100' }],
  ])('refuses %s with 400 and approves nothing', async (_case, body) => {
    const { h, site } = setup;
    const pending = await paid(site, 22000);
    // The good id beside the bad input: the whole request is refused, so it stays in review.
    const refused = await h.ops('POST', '/intents/bulk-approve', {
      ...body,
      intentIds: body.intentIds.length ? [...body.intentIds, pending.intentId] : [],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('validation_failed');
    expect(await statusOf(pending.intentId)).toBe('PENDING_REVIEW');
  });

  it('needs an operator token', async () => {
    const { h, site } = setup;
    const pending = await paid(site, 23000);
    const refused = await h.ops('POST', '/intents/bulk-approve', { intentIds: [pending.intentId] }, 'not-a-token');
    expect(refused.status).toBe(401);
    expect(await statusOf(pending.intentId)).toBe('PENDING_REVIEW');
  });
});

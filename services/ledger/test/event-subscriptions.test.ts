/**
 * Opt-in events written by the ledger (docs/webhooks.md, Choose your events): `intent.auto_cancelled` from the
 * expiry sweep, in the cancellation's transaction, only for a site that chose it; `intent.received` and
 * `intent.late_arrival` written by the arrival of money (by reference, as a split, late, or assigned); `withdrawal.approved`
 * written by the approval that reserves the withdrawal's amount.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { processExpiryJob } from '../src/expiry/expiry.worker.js';
import { startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
const clock = new TestClock();
beforeAll(async () => {
  h = await startLedgerHarness({ EXPIRY_SWEEP_INTERVAL_MS: '3600000' }, { clock });
});
afterAll(async () => {
  await h?.stop();
});

const subscribe = (site: TestSite, types: string[]) =>
  h.ledger.deps.db.site.update({ where: { id: site.siteId }, data: { webhookEventTypes: types } });
const eventsOf = (entityId: string) => h.ledger.deps.db.outboxEvent.findMany({ where: { entityId }, orderBy: { createdAt: 'asc' } });

describe('intent.auto_cancelled', () => {
  it('is written by the sweep, with the cancelled intent as data, for a site that chose it', async () => {
    const site = await h.createSite({ depositTtlSeconds: 60 });
    await subscribe(site, ['intent.auto_cancelled']);
    const intent = await h.createDeposit(site, 10000);
    clock.advance(61_000);
    await processExpiryJob(h.ledger.deps, { kind: 'sweep' });

    const [event, ...more] = await eventsOf(intent.intentId);
    expect(more).toHaveLength(0);
    expect(event).toMatchObject({ siteId: site.siteId, type: 'intent.auto_cancelled', status: 'PENDING', requestId: null });
    const payload = event!.payload as { eventId: string; type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ eventId: event!.id, type: 'intent.auto_cancelled' });
    expect(payload.data).toEqual((await h.internal('GET', `/sites/${site.siteId}/intents/${intent.intentId}`)).body);
    expect(payload.data.status).toBe('AUTO_CANCELLED');
  });

  it('is not written for a site that did not choose it', async () => {
    const site = await h.createSite({ depositTtlSeconds: 60 });
    const intent = await h.createDeposit(site, 10000);
    clock.advance(61_000);
    await processExpiryJob(h.ledger.deps, { kind: 'sweep' });
    expect((await h.ops('GET', `/intents/${intent.intentId}`)).body.status).toBe('AUTO_CANCELLED');
    expect(await eventsOf(intent.intentId)).toHaveLength(0);
  });
});

describe('arrival events', () => {
  it('a transfer by reference writes intent.received for a subscribed site, with the intent after the arrival, and nothing for another', async () => {
    const subscribed = await h.createSite();
    await subscribe(subscribed, ['intent.received']);
    const other = await h.createSite();
    for (const [site, expected] of [
      [subscribed, ['intent.received']],
      [other, []],
    ] as const) {
      const intent = await h.createDeposit(site, 10000);
      const recorded = await h.transfer(intent.referenceNo, 10000);
      expect(recorded.body.intent.status).toBe('PENDING_REVIEW');
      const events = await eventsOf(intent.intentId);
      expect(events.map((event) => event.type)).toEqual(expected);
      for (const event of events) {
        expect(event.requestId).toEqual(expect.any(String));
        expect(event.payload).toMatchObject({
          type: 'intent.received',
          livemode: true,
          data: { intentId: intent.intentId, status: 'PENDING_REVIEW' },
        });
      }
    }
  });

  it('a second transfer (a split) is one more intent.received; money after expiry is intent.late_arrival; an assignment writes them too', async () => {
    const site = await h.createSite();
    await subscribe(site, ['intent.received', 'intent.late_arrival']);
    const split = await h.createDeposit(site, 10000);
    await h.transfer(split.referenceNo, 4000);
    await h.transfer(split.referenceNo, 6000);
    expect((await eventsOf(split.intentId)).map((event) => event.type)).toEqual(['intent.received', 'intent.received']);

    const late = await h.createDeposit(site, 10000);
    // The bank received it an hour after the deposit expired (by the ledger's clock, which the transfer uses).
    clock.advance(2 * 3_600_000);
    await h.transfer(late.referenceNo, 10000);
    expect((await eventsOf(late.intentId)).map((event) => event.type)).toEqual(['intent.late_arrival']);

    const assigned = await h.createDeposit(site, 5000);
    const loose = await h.transfer('', 5000);
    expect((await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/assign`, { intentId: assigned.intentId })).status).toBe(200);
    expect((await eventsOf(assigned.intentId)).map((event) => event.type)).toEqual(['intent.received']);
  });
});

describe('withdrawal.approved', () => {
  it('is written by the approval, with the withdrawal as the status lookup returns it, for a site that chose it', async () => {
    const site = await h.createSite();
    await subscribe(site, ['withdrawal.approved']);
    await h.fund(site, 50000);
    const { withdrawalId } = await h.createWithdrawal(site, 20000);

    const approved = await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {});
    expect(approved.status).toBe(200);
    const [event, ...more] = await eventsOf(withdrawalId);
    expect(more).toHaveLength(0);
    expect(event).toMatchObject({ siteId: site.siteId, type: 'withdrawal.approved', status: 'PENDING' });
    expect(approved.body.eventId).toBe(event!.id);
    const payload = event!.payload as { eventId: string; type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ eventId: event!.id, type: 'withdrawal.approved' });
    expect(payload.data).toEqual((await h.internal('GET', `/sites/${site.siteId}/withdrawals/${withdrawalId}`)).body);
    expect(payload.data.status).toBe('APPROVED');

    // Sent next: the always-sent event follows it, the opt-in one is not written again.
    await h.ops('POST', `/withdrawals/${withdrawalId}/mark-sent`, { bankTxId: 'EFT-APPROVED-EVENT-1' });
    expect((await eventsOf(withdrawalId)).map((e) => e.type)).toEqual(['withdrawal.approved', 'withdrawal.sent']);
  });

  it('is not written for a site that did not choose it, and the approval goes on', async () => {
    const site = await h.createSite();
    await subscribe(site, ['intent.received']);
    await h.fund(site, 50000);
    const { withdrawalId } = await h.createWithdrawal(site, 20000);

    const approved = await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', eventId: null });
    expect(await eventsOf(withdrawalId)).toHaveLength(0);
  });
});

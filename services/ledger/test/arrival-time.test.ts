/**
 * On time or late is judged by the bank's `receivedAt` (with a bounded clock-skew allowance), never by when
 * the transfer is recorded: money that reached the bank before expiry is not a late arrival just because
 * the expiry sweep ran before an operator recorded it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectStatus } from '@kasa/testkit';
import { eventually, startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

const SKEW_SECONDS = 20;

let h: LedgerHarness;
let site: TestSite;
beforeAll(async () => {
  h = await startLedgerHarness({ EXPIRY_SWEEP_INTERVAL_MS: '200', ARRIVAL_CLOCK_SKEW_SECONDS: String(SKEW_SECONDS) });
  site = await h.createSite({ depositTtlSeconds: 1 });
});
afterAll(async () => {
  await h?.stop();
});

const depositOf = async (intentId: string) => expectStatus(await h.ops('GET', `/intents/${intentId}`), 200, 'intent').body;

/** A deposit the expiry sweep has already cancelled. */
async function cancelledDeposit() {
  const intent = await h.createDeposit(site, 25000);
  await eventually(async () => (await depositOf(intent.intentId)).status === 'AUTO_CANCELLED', 15_000, 'expiry sweep');
  return intent;
}

const shifted = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

describe('a transfer recorded after the expiry sweep', () => {
  it('reinstates the intent for review when the bank received the money before expiresAt', async () => {
    const intent = await cancelledDeposit();
    const recorded = expectStatus(
      await h.transfer(intent.referenceNo, 25000, { receivedAt: shifted(intent.expiresAt, -500) }),
      201,
      'transfer',
    );
    expect(recorded.body.status).toBe('MATCHED');
    expect(recorded.body.intent).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '25000' });
    const audit = await h.ledger.deps.db.auditLog.findFirst({ where: { entityId: intent.intentId, action: 'INTENT.PENDING_REVIEW' } });
    expect(audit?.metadata).toMatchObject({ from: 'AUTO_CANCELLED', to: 'PENDING_REVIEW' });
    const row = await h.ledger.deps.db.deposit.findUnique({ where: { id: intent.intentId } });
    expect(row?.cancelledAt).toBeNull();
  });

  it('counts money within the clock-skew allowance after expiresAt as on time', async () => {
    const intent = await cancelledDeposit();
    const recorded = expectStatus(
      await h.transfer(intent.referenceNo, 25000, { receivedAt: shifted(intent.expiresAt, (SKEW_SECONDS - 1) * 1000) }),
      201,
      'transfer',
    );
    expect(recorded.body.intent.status).toBe('PENDING_REVIEW');
  });

  it('is a late arrival when the bank received it after expiresAt plus the allowance', async () => {
    const intent = await cancelledDeposit();
    const recorded = expectStatus(
      await h.transfer(intent.referenceNo, 25000, { receivedAt: shifted(intent.expiresAt, (SKEW_SECONDS + 1) * 1000) }),
      201,
      'transfer',
    );
    expect(recorded.body.intent.status).toBe('LATE_ARRIVAL');
  });
});

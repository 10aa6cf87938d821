/**
 * A simulated late transfer (docs/sandbox.md, `late: true`) is dated as a bank would date it: after the deposit's time
 * ran out and never after the moment it was simulated, making a deposit still inside its time due first.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KasaClient } from '@kasa/sdk';
import { startHarness, type Harness } from '../../services/gateway/test/harness.js';

let h: Harness;
let test: KasaClient;
beforeAll(async () => {
  h = await startHarness();
  const site = await h.createSite({ depositTtlSeconds: 1800 });
  const issued = await h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
  expect(issued.status).toBe(201);
  test = new KasaClient({ baseUrl: h.gateway.url, apiKey: issued.body.apiKey as string });
});
afterAll(async () => {
  await h?.stop();
});

/** The deposit as operators see it: with its expiry and the money received. */
async function opsIntent(intentId: string): Promise<{ expiresAt: string; receivedAmount: string | null }> {
  const found = await h.ops('GET', `/ops/v1/intents/${intentId}`);
  expect(found.status).toBe(200);
  return found.body;
}

const user = { externalUserId: 'late-user', amount: '90000' };

describe('a simulated late transfer', () => {
  it('is received now, in the past, after the deposit was made due, and makes a deposit inside its time LATE_ARRIVAL', async () => {
    const deposit = await test.deposits.create(user);
    // 30 minutes to go: the old simulation dated the transfer just after that, about 31 minutes ahead.
    expect(Date.parse(deposit.expiresAt) - Date.now()).toBeGreaterThan(25 * 60_000);
    const before = Date.now();
    const money = await test.sandbox.simulateTransfer(deposit.intentId, { late: true });
    const after = Date.now();
    const receivedAt = Date.parse(money.receivedAt);
    expect(receivedAt).toBeGreaterThanOrEqual(before - 1_000);
    expect(receivedAt).toBeLessThanOrEqual(after);
    expect(money.matchReasons).toContain('late');
    expect(money.intent).toMatchObject({ intentId: deposit.intentId, status: 'LATE_ARRIVAL' });
    expect(Date.parse((await opsIntent(deposit.intentId)).expiresAt)).toBeLessThan(receivedAt);
  });

  it('refuses, recording nothing, when the deposit expired within the clock skew: money now would not be late', async () => {
    const deposit = await test.deposits.create(user);
    await test.sandbox.expireDeposit(deposit.intentId);
    await expect(test.sandbox.simulateTransfer(deposit.intentId, { late: true })).rejects.toMatchObject({ status: 409 });
    expect((await opsIntent(deposit.intentId)).receivedAmount).toBeNull();
  });

  it('refuses to make late a deposit inside its time that already has money, and records nothing', async () => {
    const deposit = await test.deposits.create(user);
    const first = await test.sandbox.simulateTransfer(deposit.intentId, { amount: '10000' });
    expect(first.intent.status).toBe('PENDING_REVIEW');
    await expect(test.sandbox.simulateTransfer(deposit.intentId, { late: true })).rejects.toMatchObject({
      status: 409,
    });
    expect((await opsIntent(deposit.intentId)).receivedAmount).toBe('10000');
  });
});

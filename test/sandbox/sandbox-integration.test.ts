/**
 * A whole integration in the sandbox (docs/sandbox.md), as a partner does it with nothing but a test key and
 * @kasa/sdk: the ledger, gateway and webhook worker run for real, webhooks reach an HTTPS receiver whose CA the
 * test makes, and each one is verified with the SDK's `verifyWebhook` and with the `standardwebhooks` package.
 * Only the test key is issued through the ops API (an admin's step); every other step is the partner's.
 * Every deposit and withdrawal made here stays invisible to the site's live key.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { makeTrIban } from '@kasa/testkit';
import { KasaApiError, KasaClient, toStandardWebhooksSecret, verifyWebhook, type WebhookEvent } from '@kasa/sdk';
import { waitFor, type Stack } from '../../services/webhook-worker/test/support/stack.js';
import { startSandboxStack } from './support/sandbox-stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startSandboxStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** Every event type: the five always sent and the opt-in ones, chosen here. */
const EVENT_TYPES = [
  'intent.approved',
  'intent.rejected',
  'withdrawal.sent',
  'withdrawal.rejected',
  'withdrawal.returned',
  'intent.received',
  'intent.auto_cancelled',
  'intent.late_arrival',
  'intent.topped_up',
  'withdrawal.approved',
] as const;

interface Sandbox {
  sandboxSiteId: string;
  test: KasaClient;
  live: KasaClient;
  secret: string;
  /** The receiver path of this sandbox's webhooks. */
  path: string;
}

/**
 * A partner's site and its sandbox: an admin issues the test key; with it alone the partner points the sandbox's
 * webhooks at its receiver (a path of its own, so this test reads only its own deliveries) and keeps the secret.
 */
async function sandbox(): Promise<Sandbox> {
  const site = await stack.h.createSite({ rateLimitPerMinute: 10000 });
  const issued = await stack.h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
  expect(issued.status).toBe(201);
  expect(issued.body.apiKey).toMatch(new RegExp(`^sk_test_${site.slug}_`));
  const test = new KasaClient({ baseUrl: stack.h.gateway.url, apiKey: issued.body.apiKey as string });
  const path = `/sandbox/${site.slug}`;
  const config = await test.webhookConfig.update({
    webhookUrl: stack.receiver.url.replace('/webhooks/kasa', path),
    eventTypes: [...EVENT_TYPES],
  });
  expect(config.eventTypes).toEqual(expect.arrayContaining([...EVENT_TYPES]));
  return {
    sandboxSiteId: issued.body.siteId as string,
    test,
    live: new KasaClient({ baseUrl: stack.h.gateway.url, apiKey: site.apiKey }),
    secret: config.webhookSecret as string,
    path,
  };
}

/**
 * The webhooks delivered to this sandbox's receiver path for one record, once `types` have all arrived (in any
 * order; bounded in time), each verified by the SDK and by `standardwebhooks`, each with `livemode: false`.
 */
async function webhooksOf(box: Sandbox, recordId: string, types: readonly WebhookEvent['type'][]): Promise<WebhookEvent[]> {
  const standard = new StandardWebhook(toStandardWebhooksSecret(box.secret));
  const verified = () =>
    stack.receiver.deliveries
      .filter((delivery) => delivery.path === box.path)
      .map((delivery) => {
        const event = verifyWebhook({ secret: box.secret, headers: delivery.headers, rawBody: delivery.rawBody });
        const viaStandard = standard.verify(delivery.rawBody.toString('utf8'), delivery.headers) as WebhookEvent;
        expect(viaStandard).toEqual(event);
        return event;
      })
      .filter((event) => ('intentId' in event.data ? event.data.intentId : event.data.withdrawalId) === recordId);
  const events = await waitFor(
    `${types.join(', ')} for ${recordId}`,
    () => {
      const seen = verified();
      return types.every((type) => seen.some((event) => event.type === type)) ? seen : null;
    },
    20_000,
    100,
  );
  for (const event of events) expect(event.livemode).toBe(false);
  return events;
}

/** The live key neither finds the records nor lists them. */
async function invisibleToLive(box: Sandbox, records: { intentIds?: string[]; withdrawalIds?: string[] }): Promise<void> {
  const notFound = async (lookup: Promise<unknown>) => {
    const error = await lookup.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KasaApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
  };
  for (const id of records.intentIds ?? []) await notFound(box.live.intents.get(id));
  for (const id of records.withdrawalIds ?? []) await notFound(box.live.withdrawals.get(id));
  const liveIntents: string[] = [];
  for await (const intent of box.live.intents.iterate({ limit: 100 })) liveIntents.push(intent.intentId);
  const liveWithdrawals: string[] = [];
  for await (const withdrawal of box.live.withdrawals.iterate({ limit: 100 })) liveWithdrawals.push(withdrawal.withdrawalId);
  for (const id of records.intentIds ?? []) expect(liveIntents).not.toContain(id);
  for (const id of records.withdrawalIds ?? []) expect(liveWithdrawals).not.toContain(id);
  expect(await box.live.balance.get()).toEqual({ available: '0', reserved: '0', currency: 'TRY' });
}

/** A reference with two neighbouring characters swapped (past the `KD` prefix): one slip the matching corrects. */
function swapped(referenceNo: string): string {
  for (let i = 2; i + 1 < referenceNo.length; i += 1) {
    if (referenceNo[i] !== referenceNo[i + 1]) {
      return referenceNo.slice(0, i) + referenceNo[i + 1] + referenceNo[i] + referenceNo.slice(i + 2);
    }
  }
  throw new Error(`no two different neighbours in ${referenceNo}`);
}

const user = { externalUserId: 'sandbox-user-1', externalUserLabel: 'Ayşe Yılmaz' };

describe('a partner integrating in the sandbox with a test key and the SDK', () => {
  it('receives and verifies a test webhook, marked as a test and not live', async () => {
    const box = await sandbox();
    const sent = await box.test.webhookConfig.test({ type: 'ping' });
    expect(sent).toMatchObject({ delivered: true, statusCode: 200 });
    expect((await box.test.webhookConfig.get()).webhookUrl).toBe(stack.receiver.url.replace('/webhooks/kasa', box.path));
    const delivery = await waitFor('the test webhook', () => stack.receiver.deliveries.find((d) => d.path === box.path), 10_000, 100);
    // A ping is no record's event: its `type` is outside WebhookEvent's, so it is read as a plain object.
    const event: object = verifyWebhook({ secret: box.secret, headers: delivery.headers, rawBody: delivery.rawBody });
    new StandardWebhook(toStandardWebhooksSecret(box.secret)).verify(delivery.rawBody.toString('utf8'), delivery.headers);
    expect(event).toMatchObject({ type: 'ping', test: true, livemode: false });
  });

  it('simulates every matching outcome: exact, amount less, a near reference, late', async () => {
    const box = await sandbox();
    const exact = await box.test.deposits.create({ ...user, amount: '150000' });
    const exactMoney = await box.test.sandbox.simulateTransfer(exact.intentId);
    expect(exactMoney).toMatchObject({
      status: 'MATCHED',
      amount: '150000',
      matchReasons: ['reference_exact', 'amount_exact', 'sender_matches_user'],
      autoApproved: false,
      intent: { intentId: exact.intentId, status: 'PENDING_REVIEW' },
    });
    const [received] = await webhooksOf(box, exact.intentId, ['intent.received']);
    expect(received!.data).toMatchObject({ intentId: exact.intentId, status: 'PENDING_REVIEW' });

    const less = await box.test.deposits.create({ ...user, amount: '150000' });
    const lessMoney = await box.test.sandbox.simulateTransfer(less.intentId, { amount: '100000' });
    expect(lessMoney).toMatchObject({ status: 'MATCHED', amount: '100000', intent: { status: 'PENDING_REVIEW' } });
    expect(lessMoney.matchReasons).toEqual(expect.arrayContaining(['reference_exact', 'amount_less']));
    await webhooksOf(box, less.intentId, ['intent.received']);

    const near = await box.test.deposits.create({ ...user, amount: '120000' });
    const nearMoney = await box.test.sandbox.simulateTransfer(near.intentId, { reference: `Havale ${swapped(near.referenceNo)}` });
    expect(nearMoney.suggestions[0]).toMatchObject({ intentId: near.intentId, referenceNo: near.referenceNo });
    expect(nearMoney.suggestions[0]!.reasons).toContain('reference_near');

    const late = await box.test.deposits.create({ ...user, amount: '90000' });
    const lateMoney = await box.test.sandbox.simulateTransfer(late.intentId, { late: true });
    expect(lateMoney.matchReasons).toContain('late');
    expect(lateMoney.intent).toMatchObject({ intentId: late.intentId, status: 'LATE_ARRIVAL' });
    await webhooksOf(box, late.intentId, ['intent.late_arrival']);

    await invisibleToLive(box, { intentIds: [exact.intentId, less.intentId, near.intentId, late.intentId] });
  });

  it('approves a clean transfer straight through once the sandbox has the rule', async () => {
    const box = await sandbox();
    const rule = { enabled: true, maxAmount: '1000000', requireSenderMatch: false };
    const patched = await stack.h.ops('PATCH', `/ops/v1/sites/${box.sandboxSiteId}`, { autoApprove: rule });
    expect(patched.status).toBe(200);
    const deposit = await box.test.deposits.create({ ...user, amount: '75000' });
    const money = await box.test.sandbox.simulateTransfer(deposit.intentId);
    expect(money).toMatchObject({ status: 'MATCHED', autoApproved: true });
    await waitFor('the approval', async () => (await box.test.intents.get(deposit.intentId)).status === 'APPROVED', 10_000, 100);
    const events = await webhooksOf(box, deposit.intentId, ['intent.received', 'intent.approved']);
    expect(events.find((event) => event.type === 'intent.approved')!.data).toMatchObject({ status: 'APPROVED', amount: '75000' });
    expect(await box.test.balance.get()).toMatchObject({ available: '75000' });
    await invisibleToLive(box, { intentIds: [deposit.intentId] });
  });

  it('approves, rejects and expires deposits as an operator would', async () => {
    const box = await sandbox();
    const approved = await box.test.deposits.create({ ...user, amount: '150000' });
    await box.test.sandbox.simulateTransfer(approved.intentId, { amount: '140000' });
    const approval = await box.test.sandbox.approveDeposit(approved.intentId, { amount: '140000' });
    expect(approval).toMatchObject({ intentId: approved.intentId, status: 'APPROVED', amount: '140000', eventId: expect.any(String) });
    const approvedEvents = await webhooksOf(box, approved.intentId, ['intent.approved']);
    expect(approvedEvents.find((event) => event.type === 'intent.approved')).toMatchObject({ eventId: approval.eventId });

    const rejected = await box.test.deposits.create({ ...user, amount: '60000' });
    await box.test.sandbox.simulateTransfer(rejected.intentId, { senderName: 'Başka Biri' });
    const rejection = await box.test.sandbox.rejectDeposit(rejected.intentId, {
      reason: 'Sender is not the account holder',
      userReason: 'SENDER_NOT_ACCOUNT_HOLDER',
    });
    expect(rejection).toMatchObject({ status: 'REJECTED', rejectedReason: 'Sender is not the account holder' });
    await webhooksOf(box, rejected.intentId, ['intent.rejected']);

    const expired = await box.test.deposits.create({ ...user, amount: '30000' });
    const expiry = await box.test.sandbox.expireDeposit(expired.intentId);
    expect(expiry).toMatchObject({ status: 'AUTO_CANCELLED' });
    await webhooksOf(box, expired.intentId, ['intent.auto_cancelled']);

    expect(await box.test.balance.get()).toMatchObject({ available: '140000', reserved: '0' });
    await invisibleToLive(box, { intentIds: [approved.intentId, rejected.intentId, expired.intentId] });
  });

  it('sends one withdrawal and has another returned with a reason code', async () => {
    const box = await sandbox();
    const deposit = await box.test.deposits.create({ ...user, amount: '200000' });
    await box.test.sandbox.simulateTransfer(deposit.intentId);
    await box.test.sandbox.approveDeposit(deposit.intentId);
    const payout = (amount: string, n: number) =>
      box.test.withdrawals.create({
        externalUserId: user.externalUserId,
        amount,
        targetIban: makeTrIban(9100 + n),
        targetHolderName: user.externalUserLabel,
      });

    const sent = await payout('50000', 1);
    const approved = await box.test.sandbox.approveWithdrawal(sent.withdrawalId);
    expect(approved).toMatchObject({ status: 'APPROVED', eventId: expect.any(String) });
    await expect(box.test.sandbox.sendWithdrawal(sent.withdrawalId)).resolves.toMatchObject({ status: 'SENT' });
    const delivered = await webhooksOf(box, sent.withdrawalId, ['withdrawal.approved', 'withdrawal.sent']);
    expect(delivered.find((event) => event.type === 'withdrawal.approved')).toMatchObject({
      eventId: approved.eventId,
      data: { withdrawalId: sent.withdrawalId, status: 'APPROVED' },
    });
    const sentEvent = delivered.find((event) => event.type === 'withdrawal.sent');
    expect(sentEvent!.data).toMatchObject({ withdrawalId: sent.withdrawalId, status: 'SENT' });

    const returned = await payout('30000', 2);
    await box.test.sandbox.approveWithdrawal(returned.withdrawalId);
    await box.test.sandbox.sendWithdrawal(returned.withdrawalId);
    const back = await box.test.sandbox.returnWithdrawal(returned.withdrawalId, { reasonCode: 'AC01' });
    expect(back).toMatchObject({ status: 'RETURNED', eventId: expect.any(String) });
    const events = await webhooksOf(box, returned.withdrawalId, ['withdrawal.approved', 'withdrawal.sent', 'withdrawal.returned']);
    const returnedEvent = events.find((event) => event.type === 'withdrawal.returned')!;
    expect(returnedEvent).toMatchObject({ eventId: back.eventId, data: { withdrawalId: returned.withdrawalId, status: 'RETURNED' } });

    // 2 000 TL in, 500 TL paid out; the 300 TL returned is available again.
    expect(await box.test.balance.get()).toMatchObject({ available: '150000', reserved: '0' });
    await invisibleToLive(box, { intentIds: [deposit.intentId], withdrawalIds: [sent.withdrawalId, returned.withdrawalId] });
  });
});

/**
 * The partner contract proven from real traffic. A whole sandbox integration runs against the real ledger, gateway
 * and webhook worker (as in ./sandbox-integration.test.ts): every event type happens for real, every partner
 * operation is called, errors are provoked. Every answer the services send (status, Content-Type and JSON body) and
 * every webhook body delivered is then judged against the served OpenAPI document with additional properties
 * forbidden on every object (../contract/support/strict-contract.ts): a field sent but not documented fails. And
 * every documented property of every answer and webhook schema must have been seen in that traffic, unless
 * ALLOWED_UNSEEN names it with the reason: a field documented but never sent fails too.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { KasaApiError, KasaClient, verifyBalanceStatement } from '@kasa/sdk';
import { TEST_WEBHOOK_TYPES } from '@kasa/contracts';
import { waitFor, type Stack } from '../../services/webhook-worker/test/support/stack.js';
import { strictContract, type CapturedAnswer, type StrictContract } from '../contract/support/strict-contract.js';
import { startSandboxStack } from './support/sandbox-stack.js';

/** Documented properties no traffic of this test shows, each with why it cannot be provoked here. */
const ALLOWED_UNSEEN: Record<string, string> = {};

let stack: Stack;
let partner: StrictContract;
let ops: StrictContract;
beforeAll(async () => {
  stack = await startSandboxStack();
  partner = strictContract((await (await fetch(`${stack.h.gateway.url}/api/v1/openapi.json`)).json()) as Record<string, unknown>);
  ops = strictContract((await (await fetch(`${stack.h.ledger.url}/ops/v1/openapi.json`)).json()) as Record<string, unknown>);
});
afterAll(async () => {
  await stack?.stop();
});

/** A fetch that keeps every answer it hands back: what the SDK (or the test itself) was sent. */
function capturingFetch(answers: CapturedAnswer[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    answers.push({
      method: init?.method ?? 'GET',
      url: input instanceof Request ? input.url : String(input),
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    });
    return response;
  };
}

/** The API error a call ends in (a test of a refusal fails when the call succeeds). */
async function refusal(call: Promise<unknown>): Promise<KasaApiError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KasaApiError);
  return error as KasaApiError;
}

describe('the partner contract, from the traffic of a whole sandbox integration', () => {
  it('sends only documented fields in every answer and webhook, and every documented field at least once', async () => {
    const answers: CapturedAnswer[] = [];
    const opsAnswers: CapturedAnswer[] = [];
    const capture = capturingFetch(answers);
    const opsFetch = capturingFetch(opsAnswers);
    // The admin's steps, through the ops API with the bootstrap token, captured like the partner's.
    const opsCall = async (method: string, path: string, body: unknown) => {
      const answer = await opsFetch(`${stack.h.ledger.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${stack.h.env.config.opsBootstrapToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };

    // An admin issues the test key; every other step is the partner's, through the SDK.
    const site = await stack.h.createSite({ rateLimitPerMinute: 10000 });
    const issued = await opsCall('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
    expect(issued.status).toBe(201);
    const apiKey = issued.body.apiKey as string;
    const kasa = new KasaClient({ baseUrl: stack.h.gateway.url, apiKey, fetch: capture, maxRetries: 0 });
    const path = `/contract/${site.slug}`;

    // Before any webhook URL: the configuration is empty, and a test webhook is refused with a reason.
    expect(await kasa.webhookConfig.get()).toMatchObject({ webhookUrl: null, rotatedAt: null });
    expect(await refusal(kasa.webhookConfig.test({ type: 'ping' }))).toMatchObject({ status: 409 });
    const config = await kasa.webhookConfig.update({
      webhookUrl: stack.receiver.url.replace('/webhooks/kasa', path),
      eventTypes: [...TEST_WEBHOOK_TYPES.filter((type) => type !== 'ping')],
    });
    expect(config.webhookSecret).toEqual(expect.any(String));
    expect((await kasa.webhookConfig.get()).webhookUrl).toBe(config.webhookUrl);
    // A signed sample of every type, and the ping.
    for (const type of TEST_WEBHOOK_TYPES) expect(await kasa.webhookConfig.test({ type })).toMatchObject({ delivered: true });

    // Deposits: received, approved, rejected, expired, late, a near reference, and money after approval (a top-up).
    const user = { externalUserId: 'contract-user', externalUserLabel: 'Ayşe Yılmaz' };
    const approved = await kasa.deposits.create({ ...user, amount: '300000' });
    expect(await kasa.sandbox.simulateTransfer(approved.intentId)).toMatchObject({ status: 'MATCHED' });
    expect(await kasa.sandbox.approveDeposit(approved.intentId)).toMatchObject({ status: 'APPROVED' });
    const extra = await kasa.sandbox.simulateTransfer(approved.intentId, { amount: '20000' });
    expect(extra).toMatchObject({ status: 'UNMATCHED' });
    const topUp = await opsCall('POST', `/ops/v1/bank-transfers/${extra.bankTransferId}/top-up`, { intentId: approved.intentId });
    expect(topUp.status).toBe(200);

    const rejected = await kasa.deposits.create({ ...user, amount: '60000' });
    await kasa.sandbox.simulateTransfer(rejected.intentId, { senderName: 'Başka Biri' });
    await kasa.sandbox.rejectDeposit(rejected.intentId, {
      reason: 'Sender is not the account holder',
      userReason: 'SENDER_NOT_ACCOUNT_HOLDER',
    });
    const expired = await kasa.deposits.create({ ...user, amount: '30000' });
    await kasa.sandbox.expireDeposit(expired.intentId);
    const late = await kasa.deposits.create({ ...user, amount: '90000' });
    await kasa.sandbox.simulateTransfer(late.intentId, { late: true });
    const near = await kasa.deposits.create({ ...user, amount: '120000' });
    const nearMoney = await kasa.sandbox.simulateTransfer(near.intentId, { reference: `Havale ${near.referenceNo.slice(0, -1)}` });
    expect(nearMoney.suggestions.length).toBeGreaterThan(0);
    expect(await kasa.intents.get(approved.intentId)).toMatchObject({ status: 'APPROVED', amount: '320000' });
    expect((await kasa.intents.list({ limit: 100 })).data.length).toBeGreaterThanOrEqual(5);

    // Withdrawals: sent, returned with a reason code, rejected.
    const payout = (amount: string, n: number) =>
      kasa.withdrawals.create({
        externalUserId: user.externalUserId,
        amount,
        targetIban: makeTrIban(7300 + n),
        targetHolderName: user.externalUserLabel,
      });
    const sent = await payout('50000', 1);
    await kasa.sandbox.approveWithdrawal(sent.withdrawalId);
    await kasa.sandbox.sendWithdrawal(sent.withdrawalId);
    const returned = await payout('30000', 2);
    await kasa.sandbox.approveWithdrawal(returned.withdrawalId);
    await kasa.sandbox.sendWithdrawal(returned.withdrawalId);
    expect(await kasa.sandbox.returnWithdrawal(returned.withdrawalId, { reasonCode: 'AC01' })).toMatchObject({ status: 'RETURNED' });
    const refused = await payout('20000', 3);
    await kasa.sandbox.rejectWithdrawal(refused.withdrawalId, { reason: 'Holder name does not match' });
    expect(await kasa.withdrawals.get(returned.withdrawalId)).toMatchObject({ returnReason: { code: 'AC01' } });
    expect((await kasa.withdrawals.list({ limit: 100 })).data).toHaveLength(3);
    expect(await kasa.balance.get()).toMatchObject({ currency: 'TRY' });

    // The balance's movements, and a signed statement: today's is refused as not final; the sandbox's postings are then
    // moved two days back in PostgreSQL, so that day is a finished one with movements of every kind above.
    const movements = (await kasa.balanceTransactions.list({ limit: 100 })).data;
    expect(new Set(movements.map((m) => m.type))).toEqual(
      new Set(['deposit', 'withdrawal_reserved', 'withdrawal_sent', 'withdrawal_returned']),
    );
    const istanbulDay = (at: number) => new Date(at + 3 * 3_600_000).toISOString().slice(0, 10);
    expect(await refusal(kasa.balanceStatements.get(istanbulDay(Date.now())))).toMatchObject({
      status: 409,
      reason: 'statement_not_final',
    });
    await stack.h.ledger.deps.db.$executeRawUnsafe(
      `UPDATE journal_entries SET created_at = created_at - interval '2 days' WHERE site_id = $1::uuid`,
      issued.body.siteId,
    );
    const [newest] = (await kasa.balanceTransactions.list({ limit: 1 })).data;
    const statement = await kasa.balanceStatements.get(istanbulDay(Date.parse(newest!.createdAt)));
    expect(statement.movements.length).toBeGreaterThan(0);
    expect(verifyBalanceStatement(statement, (await kasa.balanceStatements.keys()).keys[0]!)).toEqual(statement);

    // Every event type, delivered: then the events API shows each with its attempts, replays one and recovers none.
    const eventTypes = TEST_WEBHOOK_TYPES.filter((type) => type !== 'ping');
    const bodies = () =>
      stack.receiver.deliveries
        .filter((d) => d.path === path)
        .map((d) => JSON.parse(d.rawBody.toString('utf8')) as Record<string, unknown>);
    await waitFor(
      'every event type delivered',
      () => eventTypes.every((type) => bodies().some((body) => body.type === type && body.test === undefined)) || null,
      20_000,
      100,
    );
    const events = await kasa.events.list({ limit: 100 });
    const delivered = events.data.find((event) => event.status === 'DELIVERED');
    expect(delivered).toBeDefined();
    expect((await kasa.events.get(delivered!.eventId)).attempts.length).toBeGreaterThan(0);
    expect(await kasa.events.replay(delivered!.eventId)).toMatchObject({ eventId: delivered!.eventId, status: 'PENDING' });
    expect(await kasa.events.recover({ since: new Date(Date.now() - 3_600_000).toISOString() })).toMatchObject({ replayed: 0 });

    // Refusals, each answered as a problem: a bad body, a wrong key, an unknown record, a reused Idempotency-Key.
    expect(await refusal(kasa.deposits.create({ ...user, amount: '1.5' }))).toMatchObject({ status: 400 });
    const wrongKey = new KasaClient({ baseUrl: stack.h.gateway.url, apiKey: `${apiKey}x`, fetch: capture, maxRetries: 0 });
    expect(await refusal(wrongKey.intents.list())).toMatchObject({ status: 401 });
    expect(await refusal(kasa.intents.get(randomUUID()))).toMatchObject({ status: 404 });
    const key = randomUUID();
    await kasa.deposits.create({ ...user, amount: '40000' }, { idempotencyKey: key });
    expect(await refusal(kasa.deposits.create({ ...user, amount: '40001' }, { idempotencyKey: key }))).toMatchObject({ status: 422 });

    // The judgement: every answer and webhook against the document, strictly.
    const payloads = bodies();
    const violations = [
      ...answers.flatMap((answer) => partner.checkAnswer(answer)),
      ...payloads.flatMap((payload) => partner.checkWebhook(payload)),
      ...opsAnswers.flatMap((answer) => ops.checkAnswer(answer)),
    ];
    const unseen = [...partner.documented].filter((field) => !partner.seen.has(field) && !(field in ALLOWED_UNSEEN)).sort();
    const staleAllowances = Object.keys(ALLOWED_UNSEEN).filter((field) => partner.seen.has(field) || !partner.documented.has(field));
    process.stdout.write(
      `partner contract from real traffic: ${payloads.length} webhook payloads validated, ${answers.length} partner answers and ` +
        `${opsAnswers.length} ops answers validated, ${partner.documented.size} distinct documented fields checked ` +
        `(${partner.documented.size - unseen.length - Object.keys(ALLOWED_UNSEEN).length} seen, ${Object.keys(ALLOWED_UNSEEN).length} allowed unseen)\n`,
    );
    expect(violations).toEqual([]);
    expect(unseen).toEqual([]);
    expect(staleAllowances).toEqual([]);
    expect(payloads.length).toBeGreaterThanOrEqual(TEST_WEBHOOK_TYPES.length + eventTypes.length);
  });
});

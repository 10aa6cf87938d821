import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { partner } from './partner-client.js';
import { startHarness, type Harness, type TestSite } from './harness.js';

/**
 * The sandbox (docs/sandbox.md): a test key (`sk_test_<slug>_<secret>`) acts on the site's test twin, so a test key
 * sees only test records and a live key only live ones: 404 across, absent from lists, balances and the desk's counts.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

async function issueTestKey(site: TestSite): Promise<TestSite & { testSiteId: string }> {
  const issued = await h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
  expect(issued.status).toBe(201);
  expect(issued.body.mode).toBe('test');
  expect(issued.body.apiKey).toMatch(new RegExp(`^sk_test_${site.slug}_`));
  expect(issued.body.siteId).not.toBe(site.siteId);
  return { ...site, apiKey: issued.body.apiKey as string, testSiteId: issued.body.siteId as string };
}

describe('test keys', () => {
  it('belong to one sandbox per site, made with the first test key, with the live settings and a .test slug', async () => {
    const site = await h.createSite();
    const first = await issueTestKey(site);
    const second = await issueTestKey(site);
    expect(second.testSiteId).toBe(first.testSiteId);
    const sandbox = await h.ops('GET', `/ops/v1/sites/${first.testSiteId}`);
    expect(sandbox.body).toMatchObject({ slug: `${site.slug}.test`, livemode: false, liveSiteId: site.siteId, webhookUrl: null });
    const live = await h.ops('GET', `/ops/v1/sites/${site.siteId}`);
    expect(live.body).toMatchObject({ livemode: true, liveSiteId: null, testSiteId: first.testSiteId });
    // Keys are issued on the live site only.
    expect((await h.ops('POST', `/ops/v1/sites/${first.testSiteId}/api-keys`, { mode: 'test' })).status).toBe(400);
    expect((await h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'sandbox' })).status).toBe(400);
  });

  it('keep test and live records apart: 404 across, absent from lists and balances', async () => {
    const site = await h.createSite();
    const test = await issueTestKey(site);
    const liveClient = partner(h.gateway.url, site);
    const testClient = partner(h.gateway.url, test);

    const liveDeposit = await liveClient.createDeposit({ externalUserId: 'u-live' });
    const testDeposit = await testClient.createDeposit({ externalUserId: 'u-test' });
    expect(liveDeposit.status).toBe(201);
    expect(testDeposit.status).toBe(201);
    const liveId = liveDeposit.body.intentId as string;
    const testId = testDeposit.body.intentId as string;

    expect((await testClient.get(`/api/v1/external/intents/${liveId}`)).status).toBe(404);
    expect((await liveClient.get(`/api/v1/external/intents/${testId}`)).status).toBe(404);
    expect((await testClient.get(`/api/v1/external/intents/${testId}`)).status).toBe(200);
    const ids = async (client: typeof liveClient) =>
      ((await client.get('/api/v1/external/intents?limit=100')).body.data as Array<{ intentId: string }>).map((i) => i.intentId);
    expect(await ids(testClient)).toEqual([testId]);
    expect(await ids(liveClient)).toEqual([liveId]);

    // The same Idempotency-Key in both modes is two requests: the sandbox is another site.
    const key = 'same-key-both-modes';
    const a = await liveClient.createDeposit({ externalUserId: 'u-live' }, key);
    const b = await testClient.createDeposit({ externalUserId: 'u-test' }, key);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.intentId).not.toBe(a.body.intentId);

    // Money in the sandbox is the sandbox's: approving a test deposit credits no live balance.
    const transfer = await h.ops('POST', '/ops/v1/bank-transfers', {
      bankTxId: `live-${liveId}`,
      amount: '150000',
      senderName: 'A',
      senderIban: 'TR330006100519786457841326',
      description: liveDeposit.body.referenceNo,
      receivedAt: new Date().toISOString(),
    });
    expect(transfer.status).toBe(201);
    expect((await h.ops('POST', `/ops/v1/intents/${liveId}/approve`, {})).status).toBe(200);
    expect((await liveClient.get('/api/v1/external/balance')).body).toMatchObject({ available: '150000' });
    expect((await testClient.get('/api/v1/external/balance')).body).toMatchObject({ available: '0' });
  });

  it("keep sandboxes' records out of the desk's queues and the live review lists", async () => {
    const site = await h.createSite();
    const test = await issueTestKey(site);
    const before = (await h.ops('GET', '/ops/v1/dashboard')).body;
    const created = await partner(h.gateway.url, test).createWithdrawal();
    expect(created.status).toBe(201);
    const withdrawalId = created.body.withdrawalId as string;
    const after = (await h.ops('GET', '/ops/v1/dashboard')).body;
    expect(after.withdrawalsToReview.count).toBe(before.withdrawalsToReview.count);
    const live = await h.ops('GET', '/ops/v1/withdrawals?status=PENDING_REVIEW&mode=live&limit=100');
    expect((live.body.data as Array<{ withdrawalId: string }>).map((w) => w.withdrawalId)).not.toContain(withdrawalId);
    const sandbox = await h.ops('GET', '/ops/v1/withdrawals?status=PENDING_REVIEW&mode=test&limit=100');
    expect((sandbox.body.data as Array<{ withdrawalId: string }>).map((w) => w.withdrawalId)).toContain(withdrawalId);
    expect((await h.ops('GET', '/ops/v1/withdrawals?mode=both')).status).toBe(400);
  });

  it('are refused when revoked, malformed or naming another mode', async () => {
    const site = await h.createSite();
    const test = await issueTestKey(site);
    const client = partner(h.gateway.url, test);
    expect((await client.get('/api/v1/external/intents')).status).toBe(200);
    // The same secret presented as a live key is another key: unknown.
    const asLive = { ...test, apiKey: test.apiKey.replace('sk_test_', 'sk_live_') };
    expect((await partner(h.gateway.url, asLive).get('/api/v1/external/intents')).status).toBe(401);
    const keys = await h.ops('GET', `/ops/v1/sites/${test.testSiteId}/api-keys`);
    const apiKeyId = (keys.body.data as Array<{ apiKeyId: string }>)[0]?.apiKeyId as string;
    expect((await h.ops('DELETE', `/ops/v1/api-keys/${apiKeyId}`)).status).toBe(200);
    expect((await client.get('/api/v1/external/intents')).status).toBe(401);
  });
});

describe('the simulator', () => {
  const post = (site: TestSite, path: string, body: object = {}) =>
    partner(h.gateway.url, site).post(`/api/v1/external/test${path}`).set('idempotency-key', `sim-${Math.random()}`).send(body);

  it('answers 404 to a live key, on every route', async () => {
    const site = await h.createSite();
    const deposit = await partner(h.gateway.url, site).createDeposit();
    for (const path of ['transfers', 'approve', 'reject', 'expire']) {
      const answer = await post(site, `/deposits/${deposit.body.intentId}/${path}`);
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toMatch(/test keys/);
    }
    expect((await post(site, '/withdrawals/00000000-0000-4000-8000-000000000000/send')).status).toBe(404);
  });

  it("moves only the sandbox's own records: another site's test deposit is 404", async () => {
    const mine = await issueTestKey(await h.createSite());
    const theirs = await issueTestKey(await h.createSite());
    const deposit = await partner(h.gateway.url, theirs).createDeposit();
    expect((await post(mine, `/deposits/${deposit.body.intentId}/transfers`)).status).toBe(404);
    expect((await post(mine, '/deposits/not-a-uuid/transfers')).status).toBe(404);
  });

  it('sends money through matching, approves, and walks a withdrawal to sent and returned with a reason code', async () => {
    const test = await issueTestKey(await h.createSite());
    const client = partner(h.gateway.url, test);
    const deposit = await client.createDeposit({ amount: '150000', externalUserLabel: 'Ayşe Yılmaz' });
    const money = await post(test, `/deposits/${deposit.body.intentId}/transfers`);
    expect(money.status).toBe(201);
    expect(money.body).toMatchObject({
      status: 'MATCHED',
      amount: '150000',
      matchReasons: ['reference_exact', 'amount_exact', 'sender_matches_user'],
      autoApproved: false,
      intent: { intentId: deposit.body.intentId, status: 'PENDING_REVIEW' },
    });
    const approved = await post(test, `/deposits/${deposit.body.intentId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '150000', eventId: expect.any(String) });
    expect((await client.get('/api/v1/external/balance')).body).toMatchObject({ available: '150000' });

    const withdrawal = await client.createWithdrawal({ amount: '50000' });
    const id = withdrawal.body.withdrawalId as string;
    expect((await post(test, `/withdrawals/${id}/approve`)).body).toMatchObject({ status: 'APPROVED' });
    expect((await post(test, `/withdrawals/${id}/send`)).body).toMatchObject({ status: 'SENT', eventId: expect.any(String) });
    const returned = await post(test, `/withdrawals/${id}/return`, { reasonCode: 'AC01' });
    expect(returned.body).toMatchObject({
      status: 'RETURNED',
      eventId: expect.any(String),
      returnReason: { code: 'AC01', text: 'Incorrect account number' },
    });
    expect((await client.get(`/api/v1/external/withdrawals/${id}`)).body.returnReason).toEqual({
      code: 'AC01',
      text: 'Incorrect account number',
    });
    expect((await post(test, `/withdrawals/${id}/return`, { reasonCode: 'XX99' })).status).toBe(400);
    const events = await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => [e.type, (e.payload as { livemode: boolean }).livemode])).toEqual([
      ['withdrawal.sent', false],
      ['withdrawal.returned', false],
    ]);
    const audit = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: id }, select: { actorType: true } });
    expect(new Set(audit.map((a) => a.actorType))).toEqual(new Set(['API_KEY']));
  });

  it('expires a reserved deposit now, and refuses to expire one that received money', async () => {
    const test = await issueTestKey(await h.createSite());
    const client = partner(h.gateway.url, test);
    const deposit = await client.createDeposit();
    const expired = await post(test, `/deposits/${deposit.body.intentId}/expire`);
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ status: 'AUTO_CANCELLED' });
    const paid = await client.createDeposit();
    await post(test, `/deposits/${paid.body.intentId}/transfers`);
    const refused = await post(test, `/deposits/${paid.body.intentId}/expire`);
    expect(refused.status).toBe(409);
  });

  it('keeps simulated money off the live desk and never lets it pay a live deposit', async () => {
    const site = await h.createSite();
    const test = await issueTestKey(site);
    const live = await partner(h.gateway.url, site).createDeposit();
    const sandbox = await partner(h.gateway.url, test).createDeposit();
    // The live deposit's reference in simulated money: no live deposit is found, the money waits unmatched in the sandbox.
    const stray = await post(test, `/deposits/${sandbox.body.intentId}/transfers`, { reference: live.body.referenceNo });
    expect(stray.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'unknown_reference' });
    expect((await h.ops('GET', `/ops/v1/intents/${live.body.intentId}`)).body.status).toBe('RESERVED');
    const unmatched = await h.ops('GET', '/ops/v1/bank-transfers?status=UNMATCHED&mode=live&limit=100');
    expect((unmatched.body.data as Array<{ bankTransferId: string }>).map((t) => t.bankTransferId)).not.toContain(
      stray.body.bankTransferId,
    );
    const assign = await h.ops('POST', `/ops/v1/bank-transfers/${stray.body.bankTransferId}/assign`, { intentId: live.body.intentId });
    expect(assign.status).toBe(409);
  });
});

/**
 * Operator scopes (docs/operations.md, Operator scopes): a reviewer limited to site A, with records on sites A and B,
 * sees only A's records in every list, search and dashboard count; every read and action on a B record (or on a
 * transfer no deposit has: the house's) answers the same 404 as a missing id and changes nothing; house-wide functions
 * answer 403 `site_scope`; an unscoped operator still sees everything; an admin's PATCH changes the scope from the next
 * request on, audited. The last block walks the ops route table, so a new route with a record id cannot forget it, and
 * proves the guard will not start while a path parameter has no kind registered for it (ledger-deps.ts).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { HOUSE_WIDE, siteScopeGuard } from '../src/operators/site-scope.guard.js';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';
import { OPS_ROUTES, routeKey } from './ops-routes.js';

interface Operator {
  operatorId: string;
  token: string;
}

/** Creates an operator (limited to `siteIds` when given) through the API and logs them in. */
async function operator(h: LedgerHarness, role: 'REVIEWER' | 'ADMIN', siteIds?: string[]): Promise<Operator> {
  const email = `op-${randomUUID()}@kasa.test`;
  const password = `pw-${randomUUID()}`;
  const created = await h.ops('POST', '/operators', { email, name: `Scoped ${role}`, role, password, ...(siteIds ? { siteIds } : {}) });
  expect(created.status).toBe(201);
  const session = await h.ops('POST', '/login', { email, password }, '');
  expect(session.status).toBe(201);
  return { operatorId: created.body.operatorId as string, token: session.body.token as string };
}

/** A deposit paid by a transfer and rejected, and the return to its sender asked for: a return of the site. */
async function senderReturn(h: LedgerHarness, site: TestSite) {
  const deposit = await h.createDeposit(site, 1500);
  const paid = await h.transfer(deposit.referenceNo, 1500);
  expect(paid.status).toBe(201);
  expect((await h.ops('POST', `/intents/${deposit.intentId}/reject`, { reason: 'Sender is not the user' })).status).toBe(200);
  const asked = await h.ops('POST', `/bank-transfers/${paid.body.bankTransferId as string}/return`, { reason: 'Rejected deposit' });
  expect(asked.status).toBe(201);
  return asked.body.returnId as string;
}

const setup = useHarness(startLedgerHarness, async (h) => {
  const siteA = await h.createSite();
  const siteB = await h.createSite();
  // A test key makes site A's sandbox (its test twin), which A's scope covers.
  expect((await h.ops('POST', `/sites/${siteA.siteId}/api-keys`, { mode: 'test' })).status).toBe(201);
  const twinA = (await h.ops('GET', `/sites/${siteA.siteId}`)).body.testSiteId as string;
  const keyB = await h.ops('POST', `/sites/${siteB.siteId}/api-keys`, {});
  await h.fund(siteA, 100000);
  await h.fund(siteB, 100000);

  const user = `shared-${randomUUID()}`;
  const depositA = await h.createDeposit(siteA, 5000, { externalUserId: user });
  const depositB = await h.createDeposit(siteB, 5000, { externalUserId: user });
  const transferA = await h.transfer(depositA.referenceNo, 5000);
  const transferB = await h.transfer(depositB.referenceNo, 5000);
  const withdrawalA = await h.createWithdrawal(siteA, 1000, { externalUserId: user });
  const withdrawalB = await h.createWithdrawal(siteB, 1000, { externalUserId: user });
  const returnA = await senderReturn(h, siteA);
  const returnB = await senderReturn(h, siteB);
  const loose = await h.transfer('', 3000);
  expect(loose.body.status).toBe('UNMATCHED');
  const eventsB = await h.ops('GET', `/events?siteId=${siteB.siteId}`);
  expect(eventsB.body.data.length).toBeGreaterThan(0);

  const reviewer = await operator(h, 'REVIEWER', [siteA.siteId]);
  const admin = await operator(h, 'ADMIN', [siteA.siteId]);
  const unscoped = await operator(h, 'REVIEWER');
  // A balance adjustment of site B waiting for its second admin: what a scoped admin of A must not read or apply.
  const houseAdmin = await operator(h, 'ADMIN');
  const adjustmentB = await h.ops(
    'POST',
    `/sites/${siteB.siteId}/balance-adjustments`,
    { direction: 'credit', amount: '500', reason: 'Fee refund' },
    houseAdmin.token,
  );
  expect(adjustmentB.status).toBe(201);
  return {
    siteA,
    siteB,
    twinA,
    user,
    reviewer,
    admin,
    unscoped,
    inA: new Set([siteA.siteId, twinA]),
    a: {
      siteId: siteA.siteId,
      intentId: depositA.intentId,
      withdrawalId: withdrawalA.withdrawalId,
      bankTransferId: transferA.body.bankTransferId as string,
      returnId: returnA,
    },
    b: {
      siteId: siteB.siteId,
      apiKeyId: keyB.body.apiKeyId as string,
      intentId: depositB.intentId,
      withdrawalId: withdrawalB.withdrawalId,
      bankTransferId: transferB.body.bankTransferId as string,
      returnId: returnB,
      eventId: eventsB.body.data[0].eventId as string,
      adjustmentId: adjustmentB.body.adjustmentId as string,
      bankTxId: transferB.body.bankTxId as string,
    },
    looseTransferId: loose.body.bankTransferId as string,
  };
});

const as = (who: Operator, method: string, path: string, body?: unknown) => setup.h.ops(method, path, body, who.token);
const sitesOf = (rows: Array<{ siteId: string }>) => [...new Set(rows.map((row) => row.siteId))];

/** What the records of site B (and the house's transfer) look like to an unscoped admin, to prove nothing changed. */
async function siteBState() {
  const { h, b, looseTransferId } = setup;
  const read = async (path: string) => {
    const res = await h.ops('GET', path);
    expect(res.status).toBe(200);
    return res.body;
  };
  const site = await read(`/sites/${b.siteId}`);
  const keys = await read(`/sites/${b.siteId}/api-keys`);
  return {
    intent: (await read(`/intents/${b.intentId}`)).status,
    withdrawal: (await read(`/withdrawals/${b.withdrawalId}`)).status,
    transfer: (await read(`/bank-transfers/${b.bankTransferId}`)).status,
    loose: (await read(`/bank-transfers/${looseTransferId}`)).status,
    senderReturn: (await read(`/sender-returns/${b.returnId}`)).status,
    event: (await read(`/events/${b.eventId}`)).status,
    site: { name: site.name, autoApprove: site.autoApprove },
    keys: keys.data.map((key: { apiKeyId: string; revokedAt: string | null }) => [key.apiKeyId, key.revokedAt]),
    balance: (await read(`/sites/${b.siteId}/balance`)).available,
    audit: (await read(`/audit?siteId=${b.siteId}&limit=100`)).data.length,
  };
}

describe('a scoped operator reads only its sites', () => {
  it('lists only site A deposits, withdrawals, transfers, returns, events, audit, sites and balances', async () => {
    const { reviewer, inA, a, b } = setup;
    const intents = (await as(reviewer, 'GET', '/intents?limit=100')).body.data;
    expect(intents.map((row: { intentId: string }) => row.intentId)).toContain(a.intentId);
    expect(sitesOf(intents).every((id) => inA.has(id))).toBe(true);

    const withdrawals = (await as(reviewer, 'GET', '/withdrawals?limit=100')).body.data;
    expect(withdrawals.map((row: { withdrawalId: string }) => row.withdrawalId)).toEqual([a.withdrawalId]);

    const transfers = (await as(reviewer, 'GET', '/bank-transfers?limit=100')).body.data;
    const transferIds = transfers.map((row: { bankTransferId: string }) => row.bankTransferId);
    expect(transferIds).toContain(a.bankTransferId);
    expect(transferIds).not.toContain(b.bankTransferId);
    expect(transferIds).not.toContain(setup.looseTransferId);
    expect(transfers.every((row: { intentId: string | null }) => row.intentId !== null)).toBe(true);

    const returns = (await as(reviewer, 'GET', '/sender-returns?limit=100')).body.data;
    expect(returns.map((row: { returnId: string }) => row.returnId)).toEqual([a.returnId]);

    const events = (await as(reviewer, 'GET', '/events?limit=100')).body.data;
    expect(events.length).toBeGreaterThan(0);
    expect(sitesOf(events).every((id) => inA.has(id))).toBe(true);

    const audit = (await as(reviewer, 'GET', '/audit?limit=100')).body.data;
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.every((row: { siteId: string | null }) => row.siteId !== null && inA.has(row.siteId))).toBe(true);

    const sites = (await as(reviewer, 'GET', '/sites?limit=100')).body.data;
    expect(sites.map((row: { siteId: string }) => row.siteId)).toContain(a.siteId);
    expect(sitesOf(sites).every((id) => inA.has(id))).toBe(true);

    const balances = (await as(reviewer, 'GET', '/balances')).body.data;
    expect(balances.length).toBeGreaterThan(0);
    expect(sitesOf(balances).every((id) => inA.has(id))).toBe(true);

    const health = (await as(reviewer, 'GET', '/delivery-health')).body.data;
    expect(sitesOf(health).every((id) => inA.has(id))).toBe(true);
  });

  it('answers an empty list for a siteId filter naming another site', async () => {
    const { reviewer, b } = setup;
    for (const path of ['/intents', '/withdrawals', '/events', '/audit', '/delivery-health']) {
      const res = await as(reviewer, 'GET', `${path}?siteId=${b.siteId}`);
      expect({ path, status: res.status, rows: res.body.data.length }).toEqual({ path, status: 200, rows: 0 });
    }
  });

  it('pages through its own records only, the cursor staying on them', async () => {
    const { reviewer, inA } = setup;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: Array<{ intentId: string; siteId: string }>; nextCursor: string | null } } = await as(
        reviewer,
        'GET',
        `/intents?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status).toBe(200);
      for (const row of page.body.data) {
        expect(inA.has(row.siteId)).toBe(true);
        seen.push(row.intentId);
      }
      cursor = page.body.nextCursor;
    } while (cursor);
    const all = (await as(reviewer, 'GET', '/intents?limit=100')).body.data.map((row: { intentId: string }) => row.intentId);
    expect(seen).toEqual(all);
  });

  it('searches only site A records', async () => {
    const { reviewer, unscoped, user, a, b } = setup;
    const found = (await as(reviewer, 'GET', `/search?q=${encodeURIComponent(user)}`)).body;
    expect(found.deposits.map((row: { intentId: string }) => row.intentId)).toEqual([a.intentId]);
    expect(found.withdrawals.map((row: { withdrawalId: string }) => row.withdrawalId)).toEqual([a.withdrawalId]);
    expect(sitesOf(found.events).every((id) => setup.inA.has(id))).toBe(true);
    expect((await as(reviewer, 'GET', `/search?q=${b.bankTxId}`)).body.bankTransfers).toEqual([]);
    expect((await as(reviewer, 'GET', `/search?q=${b.eventId}`)).body.events).toEqual([]);
    expect((await as(reviewer, 'GET', `/search?q=${b.intentId}`)).body.deposits).toEqual([]);

    const everything = (await as(unscoped, 'GET', `/search?q=${encodeURIComponent(user)}`)).body;
    expect(everything.deposits.map((row: { intentId: string }) => row.intentId).sort()).toEqual([a.intentId, b.intentId].sort());
    expect((await as(unscoped, 'GET', `/search?q=${b.bankTxId}`)).body.bankTransfers).toHaveLength(1);
  });

  it("counts only site A's work on the dashboard; the house's unmatched transfers and reconciliation not at all", async () => {
    const { reviewer, unscoped } = setup;
    const scoped = (await as(reviewer, 'GET', '/dashboard')).body;
    const all = (await as(unscoped, 'GET', '/dashboard')).body;
    expect({
      depositsToReview: scoped.depositsToReview.count,
      withdrawalsToReview: scoped.withdrawalsToReview.count,
      returnsToReview: scoped.returnsToReview.count,
      unmatchedTransfers: scoped.unmatchedTransfers.count,
      reconciliationDifferences: scoped.reconciliationDifferences.count,
    }).toEqual({ depositsToReview: 1, withdrawalsToReview: 1, returnsToReview: 1, unmatchedTransfers: 0, reconciliationDifferences: 0 });
    expect(scoped.depositsToReview.oldestId).toBe(setup.a.intentId);
    expect({
      depositsToReview: all.depositsToReview.count,
      withdrawalsToReview: all.withdrawalsToReview.count,
      returnsToReview: all.returnsToReview.count,
      unmatchedTransfers: all.unmatchedTransfers.count,
    }).toEqual({ depositsToReview: 2, withdrawalsToReview: 2, returnsToReview: 2, unmatchedTransfers: 1 });
  });

  it('sees its test twin, and its scope (with the twin) on /me', async () => {
    const { reviewer, twinA, a } = setup;
    expect((await as(reviewer, 'GET', `/sites/${twinA}`)).status).toBe(200);
    const me = (await as(reviewer, 'GET', '/me')).body;
    expect([...me.siteIds].sort()).toEqual([a.siteId, twinA].sort());
    expect((await as(setup.unscoped, 'GET', '/me')).body.siteIds).toEqual([]);
  });
});

describe('a scoped operator cannot reach another site', () => {
  it('answers every read of a site B record with the same 404 as a missing id', async () => {
    const { reviewer, b } = setup;
    const reads = [
      ['/intents', b.intentId],
      ['/withdrawals', b.withdrawalId],
      ['/bank-transfers', b.bankTransferId],
      ['/bank-transfers', setup.looseTransferId],
      ['/sender-returns', b.returnId],
      ['/events', b.eventId],
      ['/sites', b.siteId],
    ] as const;
    for (const [collection, id] of reads) {
      const hidden = await as(reviewer, 'GET', `${collection}/${id}`);
      const missing = await as(reviewer, 'GET', `${collection}/${randomUUID()}`);
      expect({ collection, status: hidden.status, body: { ...hidden.body, requestId: null } }).toEqual({
        collection,
        status: 404,
        body: { ...missing.body, requestId: null },
      });
    }
    expect((await as(reviewer, 'GET', `/sites/${b.siteId}/balance`)).status).toBe(404);
    expect((await as(reviewer, 'GET', `/sites/${b.siteId}/api-keys`)).status).toBe(404);
  });

  it('answers every action on a site B record, and on the house transfers, 404 and changes nothing', async () => {
    const { reviewer, admin, a, b, looseTransferId } = setup;
    const before = await siteBState();
    const actions: Array<[string, string, unknown]> = [
      ['POST', `/intents/${b.intentId}/approve`, {}],
      ['POST', `/intents/${b.intentId}/reject`, { reason: 'x' }],
      ['POST', `/intents/${b.intentId}/wait-for-rest`, {}],
      ['POST', `/withdrawals/${b.withdrawalId}/approve`, {}],
      ['POST', `/withdrawals/${b.withdrawalId}/reject`, { reason: 'x' }],
      ['POST', `/withdrawals/${b.withdrawalId}/mark-sent`, { bankTxId: 'tx-1' }],
      ['POST', `/withdrawals/${b.withdrawalId}/mark-returned`, { reason: 'x' }],
      ['POST', `/bank-transfers/${looseTransferId}/assign`, { intentId: a.intentId }],
      ['POST', `/bank-transfers/${looseTransferId}/top-up`, { intentId: a.intentId }],
      ['POST', `/bank-transfers/${looseTransferId}/set-aside`, { reason: 'x' }],
      ['POST', `/bank-transfers/${looseTransferId}/return`, { reason: 'x' }],
      ['POST', `/bank-transfers/${b.bankTransferId}/return`, { reason: 'x' }],
      ['POST', `/sender-returns/${b.returnId}/approve`, {}],
      ['POST', `/sender-returns/${b.returnId}/reject`, { reason: 'x' }],
      ['POST', `/sender-returns/${b.returnId}/mark-sent`, { bankTxId: 'tx-2' }],
      ['POST', `/events/${b.eventId}/replay`, {}],
      ['POST', `/sites/${b.siteId}/test-webhook`, { type: 'intent.approved' }],
    ];
    for (const [method, path, body] of actions) {
      expect({ path, status: (await as(reviewer, method, path, body)).status }).toEqual({ path, status: 404 });
    }
    // The admin-only ones, by a scoped admin (a reviewer would be refused for the role first).
    const adminActions: Array<[string, string, unknown]> = [
      ['PATCH', `/sites/${b.siteId}`, { name: 'Taken over' }],
      ['POST', `/sites/${b.siteId}/api-keys`, {}],
      ['DELETE', `/api-keys/${b.apiKeyId}`, undefined],
    ];
    for (const [method, path, body] of adminActions) {
      expect({ path, status: (await as(admin, method, path, body)).status }).toEqual({ path, status: 404 });
    }
    const bulk = await as(reviewer, 'POST', '/intents/bulk-approve', { intentIds: [b.intentId] });
    expect(bulk.status).toBe(200);
    expect(bulk.body.results).toEqual([
      { intentId: b.intentId, ok: false, error: { reason: 'not_found', detail: 'No deposit intent with this id.' } },
    ]);
    expect(await siteBState()).toEqual(before);
  });

  it('answers assigning a transfer to a deposit of another site 404, as for a missing deposit', async () => {
    const { admin, b, a } = setup;
    // A transfer of site A (credited to A's deposit) named with B's deposit: refused before anything moves.
    const res = await as(admin, 'POST', `/bank-transfers/${a.bankTransferId}/top-up`, { intentId: b.intentId });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('No deposit intent with this id.');
  });

  it('refuses the house-wide functions 403 site_scope, and a straight-through rule on its own site', async () => {
    const { reviewer, admin, a } = setup;
    const houseWide: Array<[typeof reviewer, string, string, unknown]> = [
      [reviewer, 'GET', '/receiving-accounts', undefined],
      [reviewer, 'GET', '/reconciliation', undefined],
      [reviewer, 'GET', '/journal/check', undefined],
      [reviewer, 'GET', '/payout-batches', undefined],
      [reviewer, 'POST', '/payout-batches', {}],
      [reviewer, 'POST', '/bank-transfers', { bankTxId: 'x' }],
      [admin, 'POST', '/operators', { email: 'x@kasa.test', name: 'x', role: 'REVIEWER' }],
      [admin, 'GET', '/operators', undefined],
      [admin, 'PATCH', `/operators/${reviewer.operatorId}`, { siteIds: [] }],
      [admin, 'POST', '/sites', { slug: 'taken', name: 'x' }],
      [admin, 'POST', '/receiving-accounts', {}],
      [admin, 'PATCH', `/sites/${a.siteId}`, { autoApprove: { enabled: true } }],
    ];
    for (const [who, method, path, body] of houseWide) {
      const res = await as(who, method, path, body);
      expect({ path, status: res.status, reason: res.body.reason }).toEqual({ path, status: 403, reason: 'site_scope' });
      expect(res.body.detail).toMatch(/^This operator is limited to some sites; .+ is house-wide\.$/);
    }
    expect((await as(reviewer, 'GET', `/me`)).body.siteIds).toContain(a.siteId);
  });
});

describe("a scoped admin and other operators' accounts", () => {
  it("manages only its own tokens and second factor: another operator's are house-wide", async () => {
    const { admin, unscoped } = setup;
    const own = await as(admin, 'POST', `/operators/${admin.operatorId}/tokens`, { label: 'script' });
    expect(own.status).toBe(201);
    expect((await as(admin, 'GET', `/operators/${admin.operatorId}/tokens`)).status).toBe(200);
    expect((await as(admin, 'DELETE', `/operator-tokens/${own.body.tokenId as string}`)).status).toBe(200);

    const theirs = await setup.h.ops('POST', `/operators/${unscoped.operatorId}/tokens`, { label: 'theirs' });
    const refused: Array<[string, string, unknown]> = [
      ['POST', `/operators/${unscoped.operatorId}/tokens`, { label: 'escalation' }],
      ['GET', `/operators/${unscoped.operatorId}/tokens`, undefined],
      ['DELETE', `/operator-tokens/${theirs.body.tokenId as string}`, undefined],
      ['POST', `/operators/${unscoped.operatorId}/2fa/disable`, {}],
    ];
    for (const [method, path, body] of refused) {
      const res = await as(admin, method, path, body);
      expect({ path, status: res.status, reason: res.body.reason }).toEqual({ path, status: 403, reason: 'site_scope' });
    }
    const tokens = (await setup.h.ops('GET', `/operators/${unscoped.operatorId}/tokens`)).body.data;
    expect(tokens.map((token: { label: string }) => token.label)).not.toContain('escalation');
    expect(tokens.find((token: { tokenId: string }) => token.tokenId === theirs.body.tokenId).revokedAt).toBeNull();
  });

  it('refuses to limit a bank connector to sites', async () => {
    const { h, a } = setup;
    const email = `feed-${randomUUID()}@kasa.test`;
    const refused = await h.ops('POST', '/operators', { email, name: 'Feed', role: 'CONNECTOR', siteIds: [a.siteId] });
    expect(refused.status).toBe(400);
    const connector = await h.ops('POST', '/operators', { email, name: 'Feed', role: 'CONNECTOR' });
    expect(connector.status).toBe(201);
    expect((await h.ops('PATCH', `/operators/${connector.body.operatorId as string}`, { siteIds: [a.siteId] })).status).toBe(400);
  });
});

describe('a scoped operator acts on its own sites', () => {
  it("approves site A's deposit, withdrawal and return, and changes its own site's settings", async () => {
    const { reviewer, admin, a } = setup;
    expect((await as(reviewer, 'GET', `/intents/${a.intentId}`)).status).toBe(200);
    expect((await as(reviewer, 'POST', `/intents/${a.intentId}/approve`, {})).body.status).toBe('APPROVED');
    expect((await as(reviewer, 'POST', `/withdrawals/${a.withdrawalId}/approve`, {})).body.status).toBe('APPROVED');
    expect((await as(reviewer, 'POST', `/sender-returns/${a.returnId}/approve`, {})).body.status).toBe('APPROVED');
    const renamed = await as(admin, 'PATCH', `/sites/${a.siteId}`, { name: 'Site A renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Site A renamed');
  });
});

describe('setting a scope', () => {
  it('takes effect on the next request, is audited with before and after, and [] gives every site back', async () => {
    const { h, reviewer, a, b } = setup;
    const changed = await h.ops('PATCH', `/operators/${reviewer.operatorId}`, { siteIds: [b.siteId] });
    expect(changed.status).toBe(200);
    expect(changed.body.siteIds).toEqual([b.siteId]);
    expect((await as(reviewer, 'GET', `/intents/${b.intentId}`)).status).toBe(200);
    expect((await as(reviewer, 'GET', `/intents/${a.intentId}`)).status).toBe(404);

    const audit = await h.ops('GET', `/audit?entityId=${reviewer.operatorId}&action=OPERATOR.SCOPE_CHANGED`);
    expect(audit.body.data[0]).toMatchObject({
      action: 'OPERATOR.SCOPE_CHANGED',
      entityType: 'operator',
      actor: { type: 'OPERATOR', id: 'bootstrap' },
      metadata: { before: [a.siteId], after: [b.siteId] },
    });
    const listed = (await h.ops('GET', '/operators')).body.data.find((o: { operatorId: string }) => o.operatorId === reviewer.operatorId);
    expect(listed.siteIds).toEqual([b.siteId]);

    expect((await h.ops('PATCH', `/operators/${reviewer.operatorId}`, { siteIds: [] })).status).toBe(200);
    expect((await as(reviewer, 'GET', `/intents/${a.intentId}`)).status).toBe(200);
    expect((await as(reviewer, 'GET', '/receiving-accounts')).status).toBe(200);
    expect((await h.ops('PATCH', `/operators/${reviewer.operatorId}`, { siteIds: [a.siteId] })).status).toBe(200);
  });

  it('refuses a scope naming no live site 400 naming it, and changes nothing', async () => {
    const { h, reviewer, twinA, a } = setup;
    for (const siteId of [randomUUID(), twinA]) {
      const res = await h.ops('PATCH', `/operators/${reviewer.operatorId}`, { siteIds: [a.siteId, siteId] });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(siteId);
      const created = await h.ops('POST', '/operators', {
        email: `x-${randomUUID()}@kasa.test`,
        name: 'x',
        role: 'REVIEWER',
        siteIds: [siteId],
      });
      expect(created.status).toBe(400);
      expect(created.body.detail).toContain(siteId);
    }
    expect((await h.ops('PATCH', `/operators/${reviewer.operatorId}`, { siteIds: ['not-a-uuid'] })).status).toBe(400);
    expect((await h.ops('PATCH', `/operators/${reviewer.operatorId}`, {})).status).toBe(400);
    expect((await h.ops('PATCH', `/operators/${randomUUID()}`, { siteIds: [] })).status).toBe(404);
    expect((await as(setup.unscoped, 'PATCH', `/operators/${reviewer.operatorId}`, { siteIds: [] })).status).toBe(403);
    expect((await as(reviewer, 'GET', '/me')).body.siteIds).toContain(a.siteId);
    expect((await as(reviewer, 'GET', `/intents/${setup.b.intentId}`)).status).toBe(404);
  });
});

describe('every ops route honours the scope', () => {
  let before: Awaited<ReturnType<typeof siteBState>>;
  beforeAll(async () => {
    before = await siteBState();
  });
  const withIds = OPS_ROUTES.filter((route) => route.operationId !== null && route.path.includes(':'));
  const operatorOwn = new Set(['operatorId', 'tokenId']);
  const paramsOf = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  const isHouseWide = (route: (typeof OPS_ROUTES)[number]) => Boolean(HOUSE_WIDE[route.operationId as keyof typeof HOUSE_WIDE]);

  /** The path parameters of the site-owned record kinds the ledger registered (ledger-deps.ts). */
  const registered = () => new Set(setup.h.ledger.deps.siteOwnedRecords.map((kind) => kind.param));

  it('has a rule for every path parameter: a site record, the operator themselves, or a house-wide route', () => {
    const kinds = registered();
    const unruled = withIds
      .filter((route) => !isHouseWide(route))
      .filter((route) => paramsOf(route.path).some((name) => !kinds.has(name) && !operatorOwn.has(name)))
      .map(routeKey);
    expect(unruled).toEqual([]);
  });

  it('refuses to start while a route names a record by a parameter no kind registered, or two kinds claim one', () => {
    const { db, siteOwnedRecords } = setup.h.ledger.deps;
    const withoutWithdrawals = siteOwnedRecords.filter((kind) => kind.param !== 'withdrawalId');
    expect(() => siteScopeGuard({ db, siteOwnedRecords: withoutWithdrawals })).toThrow(
      /the operator-scope guard does not know: withdrawalId$/,
    );
    const twice = [...siteOwnedRecords, { ...siteOwnedRecords[0]!, notFound: 'Another kind.' }];
    expect(() => siteScopeGuard({ db, siteOwnedRecords: twice })).toThrow(/path parameter siteId$/);
  });

  it('has a site B record of every registered kind for the walk below', () => {
    const ids: Record<string, string> = setup.b;
    expect([...registered()].filter((param) => ids[param] === undefined)).toEqual([]);
  });

  // Every route naming a site's record: this block's first test proves each parameter not the operator's is a registered kind.
  it.each(
    withIds
      .filter((route) => !isHouseWide(route) && paramsOf(route.path).some((name) => !operatorOwn.has(name)))
      .map((route) => [routeKey(route), route] as const),
  )('%s answers 404 for a record of another site', async (_name, route) => {
    const { b } = setup;
    const ids: Record<string, string> = b;
    const path = route.path.replace(/:(\w+)/g, (_match, name: string) => ids[name] ?? randomUUID());
    const res = await as(setup.admin, route.method, path, route.method === 'GET' ? undefined : {});
    expect(res.status).toBe(404);
  });

  it.each(OPS_ROUTES.filter((route) => isHouseWide(route)).map((route) => [routeKey(route), route] as const))(
    '%s is house-wide: 403 site_scope',
    async (_name, route) => {
      const path = route.path.replace(/:(\w+)/g, () => randomUUID());
      const res = await as(setup.reviewer, route.method, path, route.method === 'GET' ? undefined : {});
      expect({ status: res.status, reason: res.body.reason }).toEqual({ status: 403, reason: 'site_scope' });
    },
  );

  it('changed nothing of site B on the way', async () => {
    expect(await siteBState()).toEqual(before);
  });
});

/**
 * The operators' search box (`GET /ops/v1/search`) and the deposit and withdrawal lists' filters: a
 * reference typed as a user reads it out, ids, the partner's user, names, IBAN tails; queues oldest first;
 * amount ranges; cursors bound to their order.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite(), other: await h.createSite() }));

/** `KD7MX4Q2RH` as a user reads it over the phone: lower case, in groups. */
const spokenForm = (reference: string) => reference.toLowerCase().replace(/(.{4})(.{4})(.*)/, '$1 $2-$3');
const search = async (q: string) => {
  const res = await setup.h.ops('GET', `/search?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return res.body as {
    query: string;
    deposits: Array<{ intentId: string; referenceNo: string }>;
    withdrawals: Array<{ withdrawalId: string }>;
    bankTransfers: Array<{ bankTransferId: string; intentId: string | null }>;
    events: Array<{ eventId: string; siteId: string; type: string }>;
  };
};

describe('search', () => {
  it('finds a deposit by its reference typed with spaces, dashes and lower case, with its transfer and event', async () => {
    const { h, site } = setup;
    const deposit = await h.createDeposit(site, 40000, { externalUserId: `caller-${randomUUID().slice(0, 8)}` });
    const decoy = await h.createDeposit(site, 40000);
    const transfer = await h.transfer(`${deposit.referenceNo.slice(0, 5)} ${deposit.referenceNo.slice(5)}`.toLowerCase(), 40000);
    expect(transfer.body.status).toBe('MATCHED');
    await h.ops('POST', `/intents/${deposit.intentId}/reject`, { reason: 'test' });

    const found = await search(spokenForm(deposit.referenceNo));
    expect(found.deposits.map((d) => d.intentId)).toEqual([deposit.intentId]);
    expect(found.bankTransfers.map((t) => t.bankTransferId)).toEqual([transfer.body.bankTransferId]);
    expect(found.events.map((e) => e.type)).toEqual(['intent.rejected']);
    expect(found.events[0]?.siteId).toBe(site.siteId);
    expect(found.deposits.map((d) => d.intentId)).not.toContain(decoy.intentId);
  });

  it("finds by any record's id, the partner's user id, a name and an IBAN's last digits", async () => {
    const { h, site } = setup;
    const user = `user-${randomUUID().slice(0, 8)}`;
    // Names are letters only: a random surname of them, so no other test's transfer shares it.
    const holder = `Zeynep ${Array.from({ length: 8 }, () => 'abcdefghijklmnoprstuvyz'[Math.floor(Math.random() * 23)]).join('')} Kaya`;
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const deposit = await h.createDeposit(site, 25000, { externalUserId: user });
    const withdrawal = await h.createWithdrawal(site, 15000, { externalUserId: user, targetHolderName: holder });
    const transfer = await h.transfer('', 99900, { senderName: holder.toUpperCase(), senderIban: iban });

    const byUser = await search(user);
    expect(byUser.deposits.map((d) => d.intentId)).toEqual([deposit.intentId]);
    expect(byUser.withdrawals.map((w) => w.withdrawalId)).toEqual([withdrawal.withdrawalId]);

    expect((await search(deposit.intentId.toUpperCase())).deposits.map((d) => d.intentId)).toEqual([deposit.intentId]);
    expect((await search(withdrawal.withdrawalId)).withdrawals.map((w) => w.withdrawalId)).toEqual([withdrawal.withdrawalId]);
    expect((await search(transfer.body.bankTransferId)).bankTransfers.map((t) => t.bankTransferId)).toEqual([transfer.body.bankTransferId]);

    // A name in another case finds the sender and the payout's holder; the IBAN's tail, spaced, finds the sender.
    const byName = await search(holder.split(' ')[1]!.toLowerCase());
    expect(byName.bankTransfers.map((t) => t.bankTransferId)).toEqual([transfer.body.bankTransferId]);
    expect(byName.withdrawals.map((w) => w.withdrawalId)).toEqual([withdrawal.withdrawalId]);
    const tail = iban.slice(-8);
    const byIban = await search(`${tail.slice(0, 4)} ${tail.slice(4)}`);
    expect(byIban.bankTransfers.map((t) => t.bankTransferId)).toEqual([transfer.body.bankTransferId]);
  });

  it('answers each record as its own ops page does: every field, amounts, times, senders and approvals', async () => {
    const { h, site } = setup;
    const user = `same-${randomUUID().slice(0, 8)}`;
    // Letters only, as a holder's name must be; random, so no other test's record shares it.
    const holder = `Şule ${Array.from({ length: 8 }, () => 'abcçdefgğhıijklmnoöprsştuüvyz'[Math.floor(Math.random() * 29)]).join('')}`;
    const deposit = await h.createDeposit(site, 31000, { externalUserId: user, externalUserLabel: `Şule Öğüt ${user}` });
    const transfer = await h.transfer(spokenForm(deposit.referenceNo), 31000, { senderName: 'ŞULE ÖĞÜT' });
    const withdrawal = await h.createWithdrawal(site, 12000, { externalUserId: user, targetHolderName: holder });
    expect(transfer.body.status).toBe('MATCHED');
    await h.ops('POST', `/intents/${deposit.intentId}/reject`, { reason: 'test' });

    const found = await search(user);
    expect(found.events.map((e) => e.type)).toEqual(['intent.rejected']);
    const depositPage = (await h.ops('GET', `/intents/${deposit.intentId}`)).body as Record<string, unknown>;
    const { bankTransfers: transfersOfDeposit, ...depositOnly } = depositPage;
    expect(found.deposits).toEqual([depositOnly]);
    expect(found.deposits[0]).toMatchObject({ senderNames: ['ŞULE ÖĞÜT'] });
    const withdrawalPage = (await h.ops('GET', `/withdrawals/${withdrawal.withdrawalId}`)).body as Record<string, unknown>;
    const { siteBalance: _balance, ...withdrawalOnly } = withdrawalPage;
    expect(found.withdrawals).toEqual([withdrawalOnly]);
    expect((await search(deposit.referenceNo)).bankTransfers).toEqual(transfersOfDeposit);
    const eventPage = (await h.ops('GET', `/events/${found.events[0]!.eventId}`)).body as Record<string, unknown>;
    const { attempts: _attempts, ...eventOnly } = eventPage;
    expect(found.events[0]).toEqual(
      expect.objectContaining(Object.fromEntries(Object.entries(eventOnly).filter(([key]) => key in found.events[0]!))),
    );
  });

  it('treats %, _ and quotes as text, refuses an empty search and finds nothing rather than everything', async () => {
    const { h } = setup;
    for (const q of ['%%%', '___', "' OR 1=1 --", '\\', "x'; SELECT pg_sleep(5); --"]) {
      const found = await search(q);
      expect({ q, deposits: found.deposits.length, transfers: found.bankTransfers.length }).toEqual({ q, deposits: 0, transfers: 0 });
    }
    for (const q of ['', '   ']) {
      const refused = await h.ops('GET', `/search?q=${encodeURIComponent(q)}`);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].field).toBe('q');
    }
    expect((await h.ops('GET', `/search?q=x&limit=0`)).status).toBe(400);
  });

  it('answers a reviewer too, and nobody without a token', async () => {
    const { h } = setup;
    const reviewer = await h.createOperator('REVIEWER');
    expect((await h.ops('GET', '/search?q=anything', undefined, reviewer.token)).status).toBe(200);
    expect((await h.ops('GET', '/search?q=anything', undefined, 'kop_not-a-token')).status).toBe(401);
  });
});

describe('deposit and withdrawal lists', () => {
  it('lists a queue oldest first across pages, with a cursor bound to its order', async () => {
    const { h, other } = setup;
    const created = [];
    for (const amount of [10000, 20000, 30000]) created.push(await h.createDeposit(other, amount));
    const base = `/intents?siteId=${other.siteId}&status=RESERVED&limit=2`;
    const first = await h.ops('GET', `${base}&order=oldest`);
    expect(first.body.data.map((i: { intentId: string }) => i.intentId)).toEqual([created[0]!.intentId, created[1]!.intentId]);
    const second = await h.ops('GET', `${base}&order=oldest&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.data.map((i: { intentId: string }) => i.intentId)).toEqual([created[2]!.intentId]);
    expect(second.body.nextCursor).toBeNull();
    const newest = await h.ops('GET', base);
    expect(newest.body.data[0].intentId).toBe(created[2]!.intentId);
    // A cursor of one order is refused by the other.
    const mixed = await h.ops('GET', `${base}&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(mixed.status).toBe(400);
    expect((await h.ops('GET', `${base}&order=sideways`)).status).toBe(400);
  });

  it("filters by the partner's user and an inclusive amount range, deposits on the requested amount", async () => {
    const { h, other } = setup;
    const user = `range-${randomUUID().slice(0, 8)}`;
    const small = await h.createDeposit(other, 10000, { externalUserId: user });
    const middle = await h.createDeposit(other, 50000, { externalUserId: user });
    await h.createDeposit(other, 90000, { externalUserId: user });
    await h.createDeposit(other, 50000);
    const ids = async (query: string) =>
      (await h.ops('GET', `/intents?${query}`)).body.data.map((i: { intentId: string }) => i.intentId).sort();
    expect(await ids(`externalUserId=${user}&amountMin=10000&amountMax=50000`)).toEqual([small.intentId, middle.intentId].sort());
    expect(await ids(`externalUserId=${user}&amountMin=50001`)).toHaveLength(1);
    const withdrawal = await h.createWithdrawal(other, 12345, { externalUserId: user });
    const listed = await h.ops('GET', `/withdrawals?externalUserId=${user}&amountMin=12345&amountMax=12345`);
    expect(listed.body.data.map((w: { withdrawalId: string }) => w.withdrawalId)).toEqual([withdrawal.withdrawalId]);
    for (const bad of ['amountMin=-1', 'amountMax=1.5', 'externalUserId=a%20b']) {
      expect((await h.ops('GET', `/intents?${bad}`)).status).toBe(400);
    }
  });
});

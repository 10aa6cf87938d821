/**
 * A bank connector posting a receiving account's lines over the real ops API
 * (`POST /ops/v1/receiving-accounts/:accountId/lines`): matched and recorded as a statement import's, the same
 * lines twice (in turn and at the same moment) creating one set, debits kept with no statement; the connector's
 * token refused everywhere else and its account refused at login; an admin may post too, a reviewer may not.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => {
  const email = `connector-${randomUUID()}@kasa.test`;
  const password = `pw-${randomUUID()}`;
  const created = await h.ops('POST', '/operators', { email, name: 'Ziraat feed', role: 'CONNECTOR', password });
  expect(created.status).toBe(201);
  expect(created.body.role).toBe('CONNECTOR');
  const issued = await h.ops('POST', `/operators/${created.body.operatorId as string}/tokens`, { label: 'ziraat feed' });
  expect(issued.status).toBe(201);
  return { site: await h.createSite(), connector: { email, password, token: issued.body.token as string } };
});

/** A fresh receiving account for the test, so bank references are its own. */
async function newAccount(): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await setup.h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban };
}

const credit = (bankTxId: string, amount: string, description: string) => ({
  bankTxId,
  direction: 'credit',
  amount,
  currency: 'TRY',
  receivedAt: setup.h.clock.now().toISOString(),
  senderName: 'Ayşe Yılmaz',
  senderIban: 'TR33 0006 1005 1978 6457 8413 26',
  description,
});

const postLines = (accountId: string, lines: unknown[], token = setup.connector.token) =>
  setup.h.ops('POST', `/receiving-accounts/${accountId}/lines`, { lines }, token);

const transfersOf = (receivingAccountId: string) =>
  setup.h.ledger.deps.db.bankTransfer.findMany({ where: { receivingAccountId }, orderBy: { bankTxId: 'asc' } });
const debitsOf = (receivingAccountId: string) => setup.h.ledger.deps.db.bankStatementDebit.findMany({ where: { receivingAccountId } });

describe('a bank connector posting lines', () => {
  it('approves straight through, once each, the deposits one clean line paid, and leaves a split deposit to the operators', async () => {
    const { h } = setup;
    const site = await h.createSite();
    const rule = { enabled: true, maxAmount: '1000000', requireSenderMatch: false };
    expect((await h.ops('PATCH', `/sites/${site.siteId}`, { autoApprove: rule })).status).toBe(200);
    const account = await newAccount();
    const clean = [await h.createDeposit(site, 10000), await h.createDeposit(site, 20000)];
    const split = await h.createDeposit(site, 30000);
    const posted = await postLines(account.id, [
      credit('ST-1', '10000', `Yatırım ${clean[0]?.referenceNo ?? ''}`),
      credit('ST-2', '20000', `Yatırım ${clean[1]?.referenceNo ?? ''}`),
      credit('ST-3', '15000', `Yatırım ${split.referenceNo}`),
      credit('ST-4', '15000', `Yatırım ${split.referenceNo}`),
    ]);
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ created: 4, matched: 4, autoApproved: 2 });

    const db = h.ledger.deps.db;
    for (const [index, { intentId }] of clean.entries()) {
      const amount = BigInt((index + 1) * 10000);
      expect(await db.deposit.findUnique({ where: { id: intentId } })).toMatchObject({
        status: 'APPROVED',
        amount,
        receivedAmount: amount,
      });
      const events = await db.outboxEvent.findMany({ where: { entityId: intentId } });
      expect(events.map((e) => e.type)).toEqual(['intent.approved']);
      const journal = await h.ledger.deps.journal.entriesOf('deposit_intent', intentId);
      expect(journal.filter((leg) => leg.account === 'bank_clearing').map((leg) => leg.amount)).toEqual([amount]);
      const audit = await db.auditLog.findMany({ where: { entityId: intentId, action: 'INTENT.APPROVED' } });
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actorType: 'SYSTEM', metadata: { amount: amount.toString(), rule: { name: 'straight_through' } } });
    }
    expect(await db.deposit.findUnique({ where: { id: split.intentId } })).toMatchObject({
      status: 'PENDING_REVIEW',
      receivedAmount: 30000n,
    });
    expect(await db.outboxEvent.count({ where: { entityId: split.intentId } })).toBe(0);
    expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
  });

  it('records a matched credit, moving its deposit, an unmatched one and a debit with no statement', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 150000);
    const lines = [
      credit('FEED-1', '150000', `Yatırım ${deposit.referenceNo}`),
      credit('FEED-2', '2500', 'no reference here'),
      { ...credit('FEED-3', '9900', 'EFT giden'), direction: 'debit', senderIban: '' },
    ];

    const posted = await postLines(account.id, lines);
    expect(posted.status).toBe(201);
    expect(posted.body).toEqual({
      lines: 3,
      created: 3,
      duplicates: 0,
      matched: 1,
      suggested: 0,
      unmatched: 1,
      autoApproved: 0,
      payoutsSent: 0,
      payoutsReturned: 0,
      handEntriesConfirmed: 0,
      bankLineDifferences: 0,
    });

    const transfers = await transfersOf(account.id);
    expect(transfers).toHaveLength(2);
    expect(transfers[0]).toMatchObject({
      bankTxId: 'FEED-1',
      amount: 150000n,
      status: 'MATCHED',
      intentId: deposit.intentId,
      senderIban: 'TR330006100519786457841326',
      statementId: null,
    });
    expect(transfers[1]).toMatchObject({ bankTxId: 'FEED-2', status: 'UNMATCHED', unmatchedReason: 'no_reference' });
    const intent = await h.ops('GET', `/intents/${deposit.intentId}`);
    expect(intent.body.status).toBe('PENDING_REVIEW');
    expect(intent.body.receivedAmount).toBe('150000');

    const debits = await debitsOf(account.id);
    expect(debits).toHaveLength(1);
    expect(debits[0]).toMatchObject({ bankTxId: 'FEED-3', amount: 9900n, statementId: null, counterpartyIban: null });
  });

  it('creates one set of transfers when the same lines are posted twice, and at the same moment', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 40000);
    const lines = [credit('TWICE-1', '40000', deposit.referenceNo), credit('TWICE-2', '100', 'x')];

    const answers = await Promise.all(Array.from({ length: 4 }, () => postLines(account.id, lines)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201]);
    expect(answers.reduce((sum, a) => sum + (a.body.created as number), 0)).toBe(2);
    const again = await postLines(account.id, [...lines, credit('TWICE-3', '100', 'y')]);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ lines: 3, created: 1, duplicates: 2 });
    const repeat = await postLines(account.id, lines);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ created: 0, duplicates: 2, matched: 0 });

    expect((await transfersOf(account.id)).map((t) => t.bankTxId)).toEqual(['TWICE-1', 'TWICE-2', 'TWICE-3']);
    const intent = await h.ops('GET', `/intents/${deposit.intentId}`);
    expect(intent.body.receivedAmount).toBe('40000');
    expect(await h.ledger.deps.db.bankTransfer.count({ where: { intentId: deposit.intentId } })).toBe(1);
    const audits = await h.ledger.deps.db.auditLog.count({ where: { action: 'BANK_LINES.RECORDED', entityId: account.id } });
    expect(audits).toBe(2);
  });

  it("keeps a line's declared purpose as a statement's, and refuses one that is no purpose code", async () => {
    const { h } = setup;
    const account = await newAccount();
    const posted = await postLines(account.id, [{ ...credit('PURP-1', '2500', 'maaş'), purpose: ' SALA ' }, credit('PURP-2', '2500', 'x')]);
    expect(posted.status).toBe(201);
    expect((await transfersOf(account.id)).map((t) => [t.bankTxId, t.purpose])).toEqual([
      ['PURP-1', 'SALA'],
      ['PURP-2', null],
    ]);
    const listed = await h.ops('GET', `/bank-transfers?purpose=SALA&limit=100`);
    expect(listed.body.data.map((t: { bankTxId: string }) => t.bankTxId)).toContain('PURP-1');

    for (const purpose of ['', 'SALA;DROP', 'x'.repeat(36)]) {
      const refused = await postLines(account.id, [{ ...credit('PURP-BAD', '2500', 'x'), purpose }]);
      expect([refused.status, refused.body.error, JSON.stringify(refused.body)]).toEqual([
        400,
        'validation_failed',
        expect.stringContaining('purpose'),
      ]);
    }
    expect((await transfersOf(account.id)).map((t) => t.bankTxId)).not.toContain('PURP-BAD');
  });

  it('lets an admin post lines; refuses a reviewer, an unknown account, a bad batch and a body over 1 MiB', async () => {
    const { h } = setup;
    const account = await newAccount();
    const byAdmin = await postLines(account.id, [credit('ADMIN-1', '100', 'x')], h.env.config.opsBootstrapToken);
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body).toMatchObject({ created: 1, unmatched: 1 });

    const reviewer = await h.createOperator('REVIEWER');
    expect((await postLines(account.id, [credit('REV-1', '100', 'x')], reviewer.token)).status).toBe(403);
    expect((await postLines(randomUUID(), [credit('NONE-1', '100', 'x')])).status).toBe(404);
    expect((await postLines(account.id, [])).status).toBe(400);
    expect((await postLines(account.id, [{ ...credit('BAD-1', '100', 'x'), direction: 'sideways' }])).status).toBe(400);
    expect((await postLines(account.id, [credit('DUP-1', '100', 'x'), credit('DUP-1', '100', 'x')])).status).toBe(400);

    const many = Array.from({ length: 500 }, (_, i) => credit(`MANY-${i}`, '100', 'a'.repeat(400)));
    const full = await postLines(account.id, many);
    expect(full.status).toBe(201);
    expect(full.body).toMatchObject({ lines: 500, created: 500 });
    expect((await postLines(account.id, [...many, credit('MANY-500', '100', 'x')])).status).toBe(400);
    const huge = await postLines(account.id, [credit('HUGE-1', '100', 'x'.repeat(1024 * 1024))]);
    expect(huge.status).toBe(413);
    expect((await transfersOf(account.id)).map((t) => t.bankTxId)).not.toContain('HUGE-1');
  });

  it("refuses the connector's token on every other route, and its account at login", async () => {
    const { h, connector } = setup;
    const other = await h.ops('GET', '/bank-transfers', undefined, connector.token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('forbidden');
    expect((await h.ops('GET', '/me', undefined, connector.token)).status).toBe(403);

    const login = await h.ops('POST', '/login', { email: connector.email, password: connector.password }, '');
    expect(login.status).toBe(403);
    expect(login.body.error).toBe('forbidden');
    expect(login.body.detail).toMatch(/connector/);
    const wrong = await h.ops('POST', '/login', { email: connector.email, password: 'not the password at all' }, '');
    expect(wrong.status).toBe(401);
  });
});

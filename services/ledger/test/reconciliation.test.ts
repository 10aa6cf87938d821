/**
 * Reconciling a receiving account over the real ops API: the latest statement's closing balance against the
 * earliest statement's opening balance plus what Kasa recorded on the account; no statement, statements that
 * join up, a line no statement carries (the usual cause of a difference, reported by the journal check and the
 * dashboard), a gap between statements, an unknown account and a connector's token.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';
import { newReceivingAccount, type TestAccount } from './statement-files.js';

const setup = useHarness(startLedgerHarness, async (h) => {
  const created = await h.ops('POST', '/operators', {
    email: `connector-${randomUUID()}@kasa.test`,
    name: 'Ziraat feed',
    role: 'CONNECTOR',
    password: `pw-${randomUUID()}`,
  });
  expect(created.status).toBe(201);
  const issued = await h.ops('POST', `/operators/${created.body.operatorId as string}/tokens`, { label: 'ziraat feed' });
  expect(issued.status).toBe(201);
  return { connectorToken: issued.body.token as string };
});

type Account = TestAccount;
const newAccount = () => newReceivingAccount(setup.h);

type Line = [bookedAt: string, direction: 'credit' | 'debit', amount: string, bankTxId: string];

/** A statement in Kasa's CSV layout: opening balance, lines, closing balance (amounts in lira). */
function csv(account: Account, id: string, opening: [string, string], lines: Line[], closing: [string, string]): string {
  const row = (at: string, direction: string, amount: string, txId = '') =>
    `${account.iban},${id},${at},${direction},${amount},TRY,${txId ? `${account.tag}-${txId}` : ''},${txId ? 'AYŞE YILMAZ' : ''},,${txId ? 'HAVALE' : ''},,`;
  return [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
    row(opening[0], 'opening', opening[1]),
    ...lines.map(([at, direction, amount, txId]) => row(at, direction, amount, txId)),
    row(closing[0], 'closing', closing[1]),
  ].join('\n');
}

async function importCsv(account: Account, body: string, status = 201): Promise<void> {
  const response = await fetch(`${setup.h.ledger.url}/ops/v1/receiving-accounts/${account.id}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.h.env.config.opsBootstrapToken}`, 'content-type': 'text/csv' },
    body,
  });
  expect(response.status).toBe(status);
}

/** 14 March: 1.000,00 opening, +200,00 and -50,00, closing 1.150,00. */
const march14 = (a: Account) =>
  csv(
    a,
    `${a.tag}-0314`,
    ['2025-03-14T00:00:00Z', '1000.00'],
    [
      ['2025-03-14T09:00:00Z', 'credit', '200.00', 'A1'],
      ['2025-03-14T11:00:00Z', 'debit', '50.00', 'A2'],
    ],
    ['2025-03-14T23:59:59Z', '1150.00'],
  );

/** 15 March, opening where the 14th closed: +300,00, closing 1.450,00. */
const march15 = (a: Account, opening = '1150.00', closing = '1450.00') =>
  csv(
    a,
    `${a.tag}-0315`,
    ['2025-03-15T00:00:00Z', opening],
    [['2025-03-15T10:00:00Z', 'credit', '300.00', 'B1']],
    ['2025-03-15T23:59:59Z', closing],
  );

const reconciliation = (accountId: string, token?: string) =>
  setup.h.ops('GET', `/receiving-accounts/${accountId}/reconciliation`, undefined, token);

async function problemsOf(accountId: string): Promise<Array<{ kind: string; detail: Record<string, string> }>> {
  const report = await setup.h.ops('GET', '/journal/check');
  expect(report.status).toBe(200);
  return (report.body.problems as Array<{ kind: string; detail: Record<string, string> }>).filter(
    (p) => p.detail.receivingAccountId === accountId,
  );
}

describe('reconciling a receiving account', () => {
  it('answers null balances with a reason when no statement was imported', async () => {
    const account = await newAccount();
    const answer = await reconciliation(account.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      accountId: account.id,
      status: 'no_statement',
      statementClosingBalance: null,
      bookedBalance: null,
      difference: null,
      asOf: null,
      statementId: null,
      statements: 0,
      unconfirmedLines: [],
      unconfirmedTotal: 0,
      gaps: [],
    });
    expect(answer.body.reason).toEqual(expect.stringContaining('No statement'));
    expect(await problemsOf(account.id)).toEqual([]);
  });

  it('reconciles two consecutive statements to a difference of 0', async () => {
    const account = await newAccount();
    await importCsv(account, march14(account));
    await importCsv(account, march15(account));

    const answer = await reconciliation(account.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'reconciled',
      reason: null,
      statementClosingBalance: '145000',
      bookedBalance: '145000',
      difference: '0',
      asOf: '2025-03-15T23:59:59.000Z',
      anchorAt: '2025-03-14T00:00:00.000Z',
      statementRef: `${account.tag}-0315`,
      statements: 2,
      counts: { statementCredits: 2, statementDebits: 1, unconfirmedCredits: 0, unconfirmedDebits: 0 },
      unconfirmedTotal: 0,
      gaps: [],
    });
    expect(await problemsOf(account.id)).toEqual([]);

    const list = await setup.h.ops('GET', '/reconciliation');
    expect(list.status).toBe(200);
    expect((list.body.data as Array<{ accountId: string }>).find((r) => r.accountId === account.id)).toMatchObject({ difference: '0' });
  });

  it('shows a line no statement carries as the difference, lists it, and the journal check and dashboard report it', async () => {
    const account = await newAccount();
    await importCsv(account, march14(account));
    await importCsv(account, march15(account));
    const before = (await setup.h.ops('GET', '/dashboard')).body.reconciliationDifferences.count as number;
    // Posted outside any statement (as the connector or an operator does), inside the period and after it.
    const posted = await setup.h.ops('POST', `/receiving-accounts/${account.id}/lines`, {
      lines: [
        {
          bankTxId: `${account.tag}-HAND-1`,
          direction: 'credit',
          amount: '7500',
          currency: 'TRY',
          receivedAt: '2025-03-15T12:00:00.000Z',
          senderName: 'Ali Kaya',
          senderIban: 'TR330006100519786457841326',
          description: 'no reference',
        },
        {
          bankTxId: `${account.tag}-LATER`,
          direction: 'credit',
          amount: '9900',
          currency: 'TRY',
          receivedAt: '2025-03-20T12:00:00.000Z',
          senderName: 'Ali Kaya',
          senderIban: 'TR330006100519786457841326',
          description: 'after the statement',
        },
      ],
    });
    expect(posted.status).toBe(201);

    const answer = await reconciliation(account.id);
    expect(answer.body).toMatchObject({
      status: 'difference',
      statementClosingBalance: '145000',
      bookedBalance: '152500',
      difference: '-7500',
      unconfirmedTotal: 1,
      counts: { unconfirmedCredits: 1, unconfirmedDebits: 0 },
    });
    expect(answer.body.unconfirmedLines).toEqual([
      expect.objectContaining({
        direction: 'credit',
        bankTxId: `${account.tag}-HAND-1`,
        amount: '7500',
        bookedAt: '2025-03-15T12:00:00.000Z',
        bankTransferId: expect.any(String),
      }),
    ]);

    expect(await problemsOf(account.id)).toEqual([
      {
        kind: 'reconciliation_difference',
        detail: expect.objectContaining({ difference: '-7500', statementRef: `${account.tag}-0315`, unconfirmedLines: '1' }),
      },
    ]);
    const dashboard = (await setup.h.ops('GET', '/dashboard')).body;
    expect(dashboard.reconciliationDifferences.count).toBe(before + 1);
  });

  it('reports a gap between statements that do not join up', async () => {
    const account = await newAccount();
    await importCsv(account, march14(account));
    // The 15th opens at 2.000,00 where the 14th closed at 1.150,00: a statement in between is missing.
    await importCsv(account, march15(account, '2000.00', '2300.00'));

    const answer = await reconciliation(account.id);
    expect(answer.body).toMatchObject({
      status: 'difference',
      statementClosingBalance: '230000',
      bookedBalance: '145000',
      difference: '85000',
    });
    expect(answer.body.gaps).toEqual([
      {
        afterStatementId: expect.any(String),
        afterStatementRef: `${account.tag}-0314`,
        closingBalance: '115000',
        beforeStatementId: expect.any(String),
        beforeStatementRef: `${account.tag}-0315`,
        openingBalance: '200000',
        difference: '85000',
        from: '2025-03-14T23:59:59.000Z',
        to: '2025-03-15T00:00:00.000Z',
      },
    ]);
    const kinds = (await problemsOf(account.id)).map((p) => p.kind).sort();
    expect(kinds).toEqual(['reconciliation_difference', 'statement_gap']);
  });

  it('answers 404 for an unknown account', async () => {
    const answer = await reconciliation(randomUUID());
    expect(answer.status).toBe(404);
    expect(JSON.stringify(answer.body)).toContain('not_found');
  });

  it("refuses a bank connector's token", async () => {
    const account = await newAccount();
    expect((await reconciliation(account.id, setup.connectorToken)).status).toBe(403);
    expect((await setup.h.ops('GET', '/reconciliation', undefined, setup.connectorToken)).status).toBe(403);
  });
});

describe('lines recorded before their statement', () => {
  it('counts a transfer an operator recorded on the account, and a statement carrying it later confirms it', async () => {
    const account = await newAccount();
    await importCsv(account, march14(account));
    const recorded = await setup.h.ops('POST', '/bank-transfers', {
      bankTxId: `${account.tag}-B1`,
      amount: '30000',
      senderName: 'AYŞE YILMAZ',
      senderIban: 'TR330006100519786457841326',
      description: 'HAVALE',
      receivedAt: '2025-03-15T10:00:00.000Z',
      receivingAccountId: account.id,
    });
    expect(recorded.status).toBe(201);
    expect(recorded.body.receivingAccountId).toBe(account.id);
    // After the latest statement's end it is not counted yet; no statement carries it.
    const before = (await reconciliation(account.id)).body;
    expect(before).toMatchObject({ bookedBalance: '115000', statementClosingBalance: '115000', unconfirmedTotal: 0 });
    const alone = await setup.h.ledger.deps.db.bankTransfer.findFirst({
      where: { receivingAccountId: account.id, bankTxId: `${account.tag}-B1` },
    });
    expect(alone?.statementId).toBeNull();

    // The statement of the 15th carries the same bank reference: one transfer, now confirmed by the bank.
    // Every line of it was known: nothing new is created (200), but the known line now has its statement.
    await importCsv(account, march15(account), 200);
    const after = (await reconciliation(account.id)).body;
    expect(after).toMatchObject({ status: 'reconciled', difference: '0', unconfirmedTotal: 0, unconfirmedLines: [] });
    const transfers = await setup.h.ledger.deps.db.bankTransfer.findMany({
      where: { receivingAccountId: account.id, bankTxId: `${account.tag}-B1` },
    });
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.statementId).not.toBeNull();
  });

  it('refuses a receiving account that does not exist, recording nothing', async () => {
    const refused = await setup.h.ops('POST', '/bank-transfers', {
      bankTxId: `NOACCOUNT-${randomUUID()}`,
      amount: '1000',
      senderName: 'A',
      senderIban: 'TR330006100519786457841326',
      description: 'x',
      receivedAt: '2025-03-15T10:00:00.000Z',
      receivingAccountId: randomUUID(),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'receivingAccountId' })]);
  });
});

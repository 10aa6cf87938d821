/**
 * One identity for a bank line, whatever brings it (docs/statements.md, "Which lines are the same line"), over the real
 * ops API: a transfer recorded by hand is confirmed by the bank's own line (connector, then statement) instead of being
 * credited again, and a disagreeing line is flagged, not credited; lines that share a reference inside one file (MT940
 * customer references, camt batch transactions repeating the entry's AcctSvcrRef) are each recorded, while the same
 * file again or an overlapping one records nothing new; and the journal check finds a second row written around it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness, type LedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const SENDER_IBAN = 'TR330006100519786457841326';

async function newAccount(h: LedgerHarness = setup.h): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban };
}

async function importFile(h: LedgerHarness, accountId: string, body: string, contentType: string) {
  const response = await fetch(`${h.ledger.url}/ops/v1/receiving-accounts/${accountId}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.env.config.opsBootstrapToken}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A one-statement CSV file: its opening, the credit lines `[bookedAt, amount, bankTxId, description]`, its closing. */
function csv(iban: string, statementId: string, day: string, opening: string, lines: string[][], closing: string): string {
  const row = (cells: string[]) => [iban, statementId, ...cells].join(',');
  return [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
    row([day, 'opening', opening, 'TRY', '', '', '', '', '', '']),
    ...lines.map(([at = '', amount = '', id = '', description = '']) =>
      row([at, 'credit', amount, 'TRY', id, 'AYŞE YILMAZ', SENDER_IBAN, description, '', '']),
    ),
    row([day, 'closing', closing, 'TRY', '', '', '', '', '', '']),
  ].join('\n');
}

const handEntry = (bankTxId: string, amount: string, description: string, extra: Record<string, unknown> = {}) => ({
  bankTxId,
  amount,
  senderName: 'Ayşe Yılmaz',
  senderIban: SENDER_IBAN,
  description,
  receivedAt: '2025-03-14T10:00:00.000Z',
  ...extra,
});

const connectorCredit = (bankTxId: string, amount: string, description: string, receivedAt = '2025-03-14T10:02:00+03:00') => ({
  bankTxId,
  direction: 'credit',
  amount,
  receivedAt,
  senderName: 'AYŞE YILMAZ',
  senderIban: SENDER_IBAN,
  description,
});

const transfersOf = (h: LedgerHarness, receivingAccountId: string) =>
  h.ledger.deps.db.bankTransfer.findMany({ where: { receivingAccountId }, orderBy: [{ receivedAt: 'asc' }, { amount: 'asc' }] });

describe('a transfer recorded by hand, then the bank’s own line', () => {
  it('records a hand entry naming no account on the only active one; the connector’s and the statement’s line confirm it, received once', async () => {
    // A house with one receiving account: the README's example, naming no account.
    const h = await startLedgerHarness();
    try {
      const [account] = (await h.ops('GET', '/receiving-accounts')).body.data as Array<{ id: string; iban: string }>;
      if (!account) throw new Error('the harness adds a receiving account');
      const site = await h.createSite();
      const deposit = await h.createDeposit(site, 150000);
      const recorded = await h.ops('POST', '/bank-transfers', handEntry('FAST-0001', '150000', `Yatırım ${deposit.referenceNo}`));
      expect(recorded.status).toBe(201);
      expect(recorded.body).toMatchObject({ receivingAccountId: account.id, handEntry: true, bankConfirmedAt: null, status: 'MATCHED' });

      // The connector's line: the same bank transaction (13:02 Istanbul, the same day), a line with a time.
      const posted = await h.ops('POST', `/receiving-accounts/${account.id}/lines`, {
        lines: [connectorCredit('FAST-0001', '150000', `YATIRIM ${deposit.referenceNo}`)],
      });
      expect(posted.status).toBe(200);
      expect(posted.body).toMatchObject({ created: 0, handEntriesConfirmed: 1, bankLineDifferences: 0 });

      // The end-of-day statement carries it again (a date only): still the same line.
      const statement = csv(
        account.iban,
        'EOD-20250314',
        '2025-03-14',
        '0.00',
        [['2025-03-14', '1500.00', 'FAST-0001', `YATIRIM ${deposit.referenceNo}`]],
        '1500.00',
      );
      const imported = await importFile(h, account.id, statement, 'text/csv');
      expect(imported.status).toBe(200);
      expect(imported.body).toMatchObject({ created: 0, duplicates: 1, handEntriesConfirmed: 0 });

      const transfers = await transfersOf(h, account.id);
      expect(transfers).toHaveLength(1);
      expect(transfers[0]).toMatchObject({ id: recorded.body.bankTransferId, handEntry: true, bankLineDifference: null });
      expect(transfers[0]?.bankConfirmedAt).not.toBeNull();
      expect(transfers[0]?.statementId).toBe(imported.body.statementId);

      const intent = await h.ops('GET', `/intents/${deposit.intentId}`);
      expect(intent.body).toMatchObject({ receivedAmount: '150000' });
      const approved = await h.ops('POST', `/intents/${deposit.intentId}/approve`, {});
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '150000' });
      expect((await h.ops('GET', `/sites/${site.siteId}/balance`)).body).toMatchObject({ available: '150000' });
      const audits = await h.ledger.deps.db.auditLog.findMany({
        where: { action: 'BANK_TRANSFER.BANK_CONFIRMED', entityId: recorded.body.bankTransferId as string },
      });
      expect(audits).toHaveLength(1);
      expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
    } finally {
      await h.stop();
    }
  });

  it('refuses a hand entry naming no account while several are active, naming the field and recording nothing', async () => {
    const { h } = setup;
    await newAccount();
    const bankTxId = `NOACC-${randomUUID()}`;
    const refused = await h.ops('POST', '/bank-transfers', handEntry(bankTxId, '1000', 'no account named'));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'receivingAccountId' })]);
    expect(await h.ledger.deps.db.bankTransfer.count({ where: { bankTxId } })).toBe(0);
  });

  it('flags a connector line of another amount as a difference for an operator and credits nothing twice', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 150000);
    const dashboardBefore = (await h.ops('GET', '/dashboard')).body.bankLineDifferences.count as number;
    const recorded = await h.ops(
      'POST',
      '/bank-transfers',
      handEntry('FAST-0002', '150000', `Yatırım ${deposit.referenceNo}`, { receivingAccountId: account.id }),
    );
    expect(recorded.status).toBe(201);

    const line = connectorCredit('FAST-0002', '100000', `YATIRIM ${deposit.referenceNo}`);
    const posted = await h.ops('POST', `/receiving-accounts/${account.id}/lines`, { lines: [line] });
    expect(posted.status).toBe(200);
    expect(posted.body).toMatchObject({ created: 0, handEntriesConfirmed: 0, bankLineDifferences: 1 });
    // The same line again (the connector retrying): known, nothing flagged twice.
    const again = await h.ops('POST', `/receiving-accounts/${account.id}/lines`, { lines: [line] });
    expect(again.body).toMatchObject({ created: 0, duplicates: 1, bankLineDifferences: 0 });

    expect(await transfersOf(h, account.id)).toHaveLength(1);
    expect((await h.ops('GET', `/intents/${deposit.intentId}`)).body).toMatchObject({ receivedAmount: '150000' });
    const shown = await h.ops('GET', `/bank-transfers/${recorded.body.bankTransferId as string}`);
    expect(shown.body).toMatchObject({
      handEntry: true,
      bankConfirmedAt: null,
      bankLineDifference: {
        bankAmount: '100000',
        handAmount: '150000',
        bankBookedAt: '2025-03-14T07:02:00.000Z',
        handReceivedAt: '2025-03-14T10:00:00.000Z',
        statementId: null,
      },
    });
    const listed = await h.ops('GET', '/bank-transfers?status=MATCHED&limit=100');
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({
        bankTransferId: recorded.body.bankTransferId,
        bankLineDifference: expect.objectContaining({ bankAmount: '100000' }),
      }),
    );
    expect((await h.ops('GET', '/dashboard')).body.bankLineDifferences.count).toBe(dashboardBefore + 1);
    const audits = await h.ledger.deps.db.auditLog.findMany({
      where: { action: 'BANK_TRANSFER.BANK_LINE_DIFFERENCE', entityId: recorded.body.bankTransferId as string },
    });
    expect(audits).toHaveLength(1);
  });

  it('flags a statement line of the same amount booked days after the hand entry, and credits nothing twice', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 5000);
    const recorded = await h.ops(
      'POST',
      '/bank-transfers',
      handEntry('FAST-0003', '5000', `Yatırım ${deposit.referenceNo}`, { receivingAccountId: account.id }),
    );
    expect(recorded.status).toBe(201);
    const statement = csv(account.iban, 'S-0318', '2025-03-18', '0.00', [['2025-03-18', '50.00', 'FAST-0003', 'YATIRIM']], '50.00');
    const imported = await importFile(h, account.id, statement, 'text/csv');
    expect(imported.body).toMatchObject({ created: 0, bankLineDifferences: 1 });
    expect(await transfersOf(h, account.id)).toHaveLength(1);
    expect((await h.ops('GET', `/bank-transfers/${recorded.body.bankTransferId as string}`)).body.bankLineDifference).toMatchObject({
      bankAmount: '5000',
      handAmount: '5000',
      statementId: imported.body.statementId,
    });
  });
});

/** An MT940 statement of `iban` for 14 March 2025: `lines` are `:61:` bodies (after the date) with their `:86:` text. */
function mt940(iban: string, reference: string, number: string, opening: string, lines: Array<[string, string]>, closing: string): string {
  return [
    `:20:${reference}`,
    `:25:${iban}`,
    `:28C:${number}`,
    `:60F:C250314TRY${opening}`,
    ...lines.flatMap(([field61, field86]) => [`:61:2503140314${field61}`, `:86:${field86}`]),
    `:62F:C250314TRY${closing}`,
    '-',
  ].join('\n');
}

describe('lines that share a reference inside one file', () => {
  it('records every MT940 line whose reference repeats (a payer IBAN, EREF, none at all), and nothing new from the same or an overlapping file', async () => {
    const { h } = setup;
    const account = await newAccount();
    const lines: Array<[string, string]> = [
      // The payer's IBAN as the customer reference, twice, for different amounts.
      [`C1500,00NTRF${SENDER_IBAN}`, 'HAVALE AYŞE YILMAZ'],
      [`C250,00NTRF${SENDER_IBAN}`, 'HAVALE AYŞE YILMAZ'],
      // Rabobank's EREF, twice for the same amount on the same day: two payments all the same.
      ['C100,00NTRFEREF', 'SEPA BETALING'],
      ['C100,00NTRFEREF', 'SEPA BETALING'],
      // No reference at all (NONREF, nothing after //), twice: named by amount, day and occurrence, not by their place.
      ['C75,00NTRFNONREF', 'FAIZ'],
      ['C30,00NTRFNONREF', 'FAIZ'],
    ];
    const file = mt940(account.iban, 'RABO0314', '00073/001', '0,00', lines, '2055,00');
    const first = await importFile(h, account.id, file, 'text/plain');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ lines: 6, created: 6, duplicates: 0 });
    const recorded = await transfersOf(h, account.id);
    expect(recorded.map((t) => [t.bankTxId, t.amount])).toEqual([
      ['NONREF', 3000n],
      ['NONREF', 7500n],
      ['EREF', 10000n],
      ['EREF', 10000n],
      [SENDER_IBAN, 25000n],
      [SENDER_IBAN, 150000n],
    ]);
    expect(new Set(recorded.map((t) => t.lineKey))).toEqual(
      new Set([
        `${SENDER_IBAN}|C|150000|2025-03-14|1`,
        `${SENDER_IBAN}|C|25000|2025-03-14|1`,
        'EREF|C|10000|2025-03-14|1',
        'EREF|C|10000|2025-03-14|2',
        'NONREF|C|7500|2025-03-14|1',
        'NONREF|C|3000|2025-03-14|1',
      ]),
    );

    const again = await importFile(h, account.id, file, 'text/plain');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, duplicates: 6 });

    // The day's later statement (another number): the same six lines, then a third EREF payment.
    const later = mt940(account.iban, 'RABO0314B', '00074/001', '0,00', [...lines, ['C100,00NTRFEREF', 'SEPA BETALING']], '2155,00');
    const overlapping = await importFile(h, account.id, later, 'text/plain');
    expect(overlapping.status).toBe(201);
    expect(overlapping.body).toMatchObject({ created: 1, duplicates: 6 });
    expect(await transfersOf(h, account.id)).toHaveLength(7);
  });

  it('records each camt.053 batch transaction that repeats its entry’s AcctSvcrRef, once however often the file comes', async () => {
    const { h } = setup;
    const account = await newAccount();
    const tx = (amount: string, name: string) => `
          <TxDtls>
            <Refs><AcctSvcrRef>BATCH-0314-77</AcctSvcrRef></Refs>
            <Amt Ccy="TRY">${amount}</Amt>
            <CdtDbtInd>CRDT</CdtDbtInd>
            <RltdPties><Dbtr><Nm>${name}</Nm></Dbtr><DbtrAcct><Id><IBAN>${SENDER_IBAN}</IBAN></Id></DbtrAcct></RltdPties>
            <RmtInf><Ustrd>TOPLU ODEME</Ustrd></RmtInf>
          </TxDtls>`;
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>M-0314</MsgId><CreDtTm>2025-03-14T18:00:00+03:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>CAMT-0314-${account.id.slice(0, 8)}</Id>
      <Acct><Id><IBAN>${account.iban}</IBAN></Id><Ccy>TRY</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-03-14</Dt></Dt></Bal>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">600.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-03-14</Dt></Dt></Bal>
      <Ntry>
        <Amt Ccy="TRY">600.00</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>2025-03-14</Dt></BookgDt>
        <AcctSvcrRef>BATCH-0314-77</AcctSvcrRef>
        <NtryDtls>${tx('100.00', 'ALİ KAYA')}${tx('200.00', 'AYŞE YILMAZ')}${tx('300.00', 'MEHMET DEMİR')}
        </NtryDtls>
      </Ntry>
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
    const first = await importFile(h, account.id, file, 'application/xml');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ lines: 3, created: 3, duplicates: 0 });
    expect((await transfersOf(h, account.id)).map((t) => [t.bankTxId, t.amount, t.senderName])).toEqual([
      ['BATCH-0314-77', 10000n, 'ALİ KAYA'],
      ['BATCH-0314-77', 20000n, 'AYŞE YILMAZ'],
      ['BATCH-0314-77', 30000n, 'MEHMET DEMİR'],
    ]);
    const again = await importFile(h, account.id, file, 'application/xml');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, duplicates: 3 });
    expect(await transfersOf(h, account.id)).toHaveLength(3);
  });
});

describe('the journal check', () => {
  it('reports a bank line recorded beside the hand entry it should have confirmed (a row written around the code)', async () => {
    const { h } = setup;
    const account = await newAccount();
    const recorded = await h.ops(
      'POST',
      '/bank-transfers',
      handEntry('FAST-0004', '7000', 'no reference', { receivingAccountId: account.id }),
    );
    expect(recorded.status).toBe(201);
    const [planted] = await h.ledger.deps.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO bank_transfers (id, bank_tx_id, line_key, amount, currency, sender_name, sender_iban, description, received_at, status,
        receiving_account_id, created_at)
      VALUES (gen_random_uuid(), 'FAST-0004', 'FAST-0004|C|7000|2025-03-14|9', 7000, 'TRY', 'AYŞE YILMAZ', ${SENDER_IBAN}, 'no reference',
        '2025-03-14T10:00:00Z', 'UNMATCHED', ${account.id}::uuid, now())
      RETURNING id::text`;
    const check = await h.ops('GET', '/journal/check');
    expect(check.body.ok).toBe(false);
    expect(check.body.problems).toContainEqual({
      kind: 'bank_line_credited_twice',
      detail: {
        receivingAccountId: account.id,
        bankTxId: 'FAST-0004',
        handEntryId: recorded.body.bankTransferId,
        otherId: planted?.id,
        handAmount: '7000',
        otherAmount: '7000',
      },
    });
    // Left as found for the file's other tests: the planted row goes.
    await h.ledger.deps.db.bankTransfer.delete({ where: { id: planted?.id ?? '' } });
  });
});

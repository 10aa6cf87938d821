/**
 * What a statement import says of each line, over the real ops API: approved straight through, matched and waiting
 * for an operator (with the rule's reason), unmatched (with matching's reason), a debit, and the same file again
 * known; and lines the bank dated without a time: kept as dates, and the same day in a camt.053 with times and in an
 * MT940 with dates alone reconciling with no difference and no gap.
 */
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';
import { importStatementFile, newReceivingAccount, type TestAccount } from './statement-files.js';

const setup = useHarness(startLedgerHarness, async (h) => {
  const ruled = await h.createSite();
  // Straight through up to 1.000,00 TRY; the other site has the rule off.
  const rule = { autoApprove: { enabled: true, maxAmount: '100000', requireSenderMatch: false } };
  expect((await h.ops('PATCH', `/sites/${ruled.siteId}`, rule)).status).toBe(200);
  return { ruled, unruled: await h.createSite() };
});

type Account = TestAccount;
const newAccount = () => newReceivingAccount(setup.h, 6);
const importFile = (account: Account, body: string, contentType: string) => importStatementFile(setup.h, account.id, body, contentType);

type Row = [direction: 'credit' | 'debit', amount: string, txId: string, description: string];

/** A CSV statement of 20 November 2026 (times given), opening at 10.000,00 TRY. */
function csvOf(account: Account, rows: Row[]): string {
  let closing = 1_000_000;
  const line = (at: string, direction: string, amount: string, txId = '', description = '') =>
    `${account.iban},${account.tag}-CSV,${at},${direction},${amount},TRY,${txId},${txId ? 'AYŞE YILMAZ' : ''},,${description},`;
  const body = rows.map(([direction, amount, txId, description]) => {
    closing += (direction === 'credit' ? 1 : -1) * Math.round(Number(amount) * 100);
    return line('2026-11-20T10:00:00+03:00', direction, amount, `${account.tag}-${txId}`, description);
  });
  return [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id',
    line('2026-11-20T00:00:00+03:00', 'opening', '10000.00'),
    ...body,
    line('2026-11-20T23:59:59+03:00', 'closing', (closing / 100).toFixed(2)),
  ].join('\n');
}

describe('the import answer lists each line and why', () => {
  it('says which line was approved straight through and why each other one was not', async () => {
    const { h, ruled, unruled } = setup;
    const account = await newAccount();
    const exact = await h.createDeposit(ruled, 50000);
    const large = await h.createDeposit(ruled, 200000);
    const short = await h.createDeposit(ruled, 80000);
    const otherSite = await h.createDeposit(unruled, 30000);
    const file = csvOf(account, [
      ['credit', '500.00', 'A', `HAVALE ${exact.referenceNo}`],
      ['credit', '2000.00', 'B', `HAVALE ${large.referenceNo}`],
      ['credit', '700.00', 'C', `HAVALE ${short.referenceNo}`],
      ['credit', '300.00', 'D', `HAVALE ${otherSite.referenceNo}`],
      ['credit', '42.00', 'E', 'kira'],
      ['debit', '15.00', 'F', 'masraf'],
    ]);

    const first = await importFile(account, file, 'text/csv');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ lines: 6, created: 6, matched: 4, unmatched: 1, autoApproved: 1, lineOutcomesOmitted: 0 });
    const outcomes = first.body.lineOutcomes as Array<Record<string, any>>;
    expect(outcomes.map((o) => [o.bankTxId, o.outcome, o.reasons[0]?.code])).toEqual([
      [`${account.tag}-A`, 'approved', 'reference_exact'],
      [`${account.tag}-B`, 'matched', 'above_max_amount'],
      [`${account.tag}-C`, 'matched', 'amount_short'],
      [`${account.tag}-D`, 'matched', 'rule_off'],
      [`${account.tag}-E`, 'unmatched', 'no_reference'],
      [`${account.tag}-F`, 'debit', 'no_payout'],
    ]);
    expect(outcomes[0]).toMatchObject({
      direction: 'credit',
      amount: '50000',
      bookedAt: '2026-11-20T07:00:00.000Z',
      bookingDay: '2026-11-20',
      timeKnown: true,
      counterpartyName: 'AYŞE YILMAZ',
      deposit: { depositId: exact.intentId, referenceNo: exact.referenceNo, siteId: ruled.siteId },
      payout: null,
    });
    expect(outcomes[0]?.bankTransferId).toEqual(expect.any(String));
    expect(outcomes[1]?.reasons[0]).toEqual({ code: 'above_max_amount', text: "amount above the site's straight-through limit" });
    expect(outcomes[2]?.reasons[0]?.text).toBe("short of the deposit's amount");
    expect(outcomes[3]?.reasons[0]?.text).toBe('straight-through is off for this site');
    expect(outcomes[4]?.reasons).toEqual([{ code: 'no_reference', text: 'the description carries no deposit reference' }]);
    expect(outcomes[5]).toMatchObject({ direction: 'debit', bankTransferId: null });
    // The answer's decision is the books': the approved deposit is approved, the others wait.
    const statusOf = async (id: string) => (await h.ops('GET', `/intents/${id}`)).body.status;
    expect(await statusOf(exact.intentId)).toBe('APPROVED');
    expect(await statusOf(large.intentId)).toBe('PENDING_REVIEW');

    const again = await importFile(account, file, 'text/csv');
    expect(again.status).toBe(200);
    expect((again.body.lineOutcomes as Array<Record<string, any>>).map((o) => [o.outcome, o.reasons[0]?.code])).toEqual(
      Array.from({ length: 6 }, () => ['known', 'known']),
    );
  });
});

/** The same day, 20 November 2026, as the bank sends it in two formats: +150,00 (ref 1) and -50,00 (ref 2). */
function camtOf(account: Account): string {
  const entry = (ref: string, amount: string, indicator: string, at: string) => `<Ntry>
        <Amt Ccy="TRY">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts>BOOK</Sts>
        <BookgDt><DtTm>${at}</DtTm></BookgDt><ValDt><Dt>2026-11-20</Dt></ValDt>
        <AcctSvcrRef>${account.tag}${ref}</AcctSvcrRef>
        <NtryDtls><TxDtls><RmtInf><Ustrd>kira</Ustrd></RmtInf></TxDtls></NtryDtls>
      </Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${account.tag}-MSG</MsgId><CreDtTm>2026-11-20T23:05:00+03:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${account.tag}-CAMT-20261120</Id>
      <CreDtTm>2026-11-20T23:05:00+03:00</CreDtTm>
      <FrToDt><FrDtTm>2026-11-20T00:00:00+03:00</FrDtTm><ToDtTm>2026-11-20T23:59:59+03:00</ToDtTm></FrToDt>
      <Acct><Id><IBAN>${account.iban}</IBAN></Id><Ccy>TRY</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">1000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-20</Dt></Dt></Bal>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">1100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-20</Dt></Dt></Bal>
      ${entry('1', '150.00', 'CRDT', '2026-11-20T01:30:00+03:00')}
      ${entry('2', '50.00', 'DBIT', '2026-11-20T22:45:00+03:00')}
    </Stmt>
  </BkToCstmrStmt>
</Document>`;
}

function mt940Of(account: Account): string {
  return [
    `:20:${account.tag}MT`,
    `:25:${account.iban}`,
    ':28C:00324/001',
    ':60F:C261120TRY1000,00',
    `:61:2611201120C150,00NTRFNONREF//${account.tag}1`,
    ':86:kira',
    `:61:2611201120D50,00NTRFNONREF//${account.tag}2`,
    ':86:kira',
    ':62F:C261120TRY1100,00',
    '-',
  ].join('\n');
}

describe('lines the bank dated without a time', () => {
  it.each([
    ['the camt.053, then the MT940', ['camt', 'mt940']],
    ['the MT940, then the camt.053', ['mt940', 'camt']],
  ])('reconciles the same day seen in %s: no difference, no gap', async (_order, formats) => {
    const { h } = setup;
    const account = await newAccount();
    for (const [index, format] of formats.entries()) {
      const imported =
        format === 'camt'
          ? await importFile(account, camtOf(account), 'application/xml')
          : await importFile(account, mt940Of(account), 'text/plain');
      // The second file's lines are the first one's: known by their line key (the Istanbul booking day).
      expect(imported.body).toMatchObject({ lines: 2, created: index === 0 ? 2 : 0, duplicates: index === 0 ? 0 : 2 });
      const timeKnown = (imported.body.lineOutcomes as Array<{ timeKnown: boolean }>).map((o) => o.timeKnown);
      expect(timeKnown).toEqual(format === 'camt' ? [true, true] : [false, false]);
    }

    const answer = await h.ops('GET', `/receiving-accounts/${account.id}/reconciliation`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'reconciled',
      statementClosingBalance: '110000',
      bookedBalance: '110000',
      difference: '0',
      statements: 2,
      unconfirmedTotal: 0,
      gaps: [],
    });
    // The credit keeps what the first file said of its time: a date alone (midnight UTC) or the camt.053's 01:30.
    const [credit] = await h.ledger.deps.db.bankTransfer.findMany({ where: { receivingAccountId: account.id } });
    expect(credit?.receivedTimeKnown).toBe(formats[0] === 'camt');
    expect(credit?.receivedAt.toISOString()).toBe(formats[0] === 'camt' ? '2026-11-19T22:30:00.000Z' : '2026-11-20T00:00:00.000Z');
  });

  it("counts a connector's line of the MT940's day inside the day, not before its midnight UTC", async () => {
    const { h } = setup;
    const account = await newAccount();
    expect((await importFile(account, mt940Of(account), 'text/plain')).status).toBe(201);
    // 15:00 in Istanbul on the statement's day, on no statement: the day's statement does not carry it.
    const posted = await h.ops('POST', `/receiving-accounts/${account.id}/lines`, {
      lines: [
        {
          bankTxId: `${account.tag}-LATE`,
          direction: 'credit',
          amount: '2500',
          receivedAt: '2026-11-20T12:00:00.000Z',
          senderName: 'ALİ KAYA',
          senderIban: '',
          description: 'kira',
        },
      ],
    });
    expect(posted.status).toBe(201);
    const answer = await h.ops('GET', `/receiving-accounts/${account.id}/reconciliation`);
    expect(answer.body).toMatchObject({ status: 'difference', difference: '-2500', unconfirmedTotal: 1, gaps: [] });
    expect(answer.body.asOf).toBe('2026-11-20T20:59:59.999Z');
    expect(answer.body.unconfirmedLines).toMatchObject([{ bankTxId: `${account.tag}-LATE`, timeKnown: true }]);
  });
});

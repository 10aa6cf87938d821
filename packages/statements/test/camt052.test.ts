/**
 * camt.052 (BankToCustomerAccountReport) read as camt.053 is, from two real reports of German online banking
 * (test/samples/camt052-*-hbci4java.xml, origin in each file's comment): a report is a statement when its booked
 * balances open and close it, and refused, as a statement without them is, when they do not.
 */
import { describe, expect, it } from '@jest/globals';
import { balanceProblem, parseStatements } from '../src/index.js';
import { sample, statementError } from './samples.js';

const v02 = sample('camt052-v02-hbci4java.xml');
const v08 = sample('camt052-v08-hbci4java.xml');
const account = { iban: null, number: 'DE12345678901234567890', bankCode: 'ABCDEFG1ABC', branchCode: null, raw: 'DE12345678901234567890' };

describe('camt.052.001.02', () => {
  const { format, statements, refused } = parseStatements(v02, 'application/xml');
  const [report] = statements;

  it('reads the report as a statement: its id with its creation time, account, balances and booked lines', () => {
    expect({ format, count: statements.length, refused }).toEqual({ format: 'camt.052', count: 1, refused: [] });
    // The placeholder IBAN fails its check digits, so it is kept as the account's number; the servicer's BIC is its bank.
    expect(report).toMatchObject({
      id: 'camt052_ONLINEBA/2018-07-23T12:43:32+01:00',
      account,
      currency: 'EUR',
      openingBalance: 10_000n,
      closingBalance: 11_050n,
      from: null,
      to: null,
    });
    expect(report?.lines).toEqual([
      expect.objectContaining({
        bankTxId: 'NONREF',
        direction: 'credit',
        amount: 1000n,
        bookedAt: new Date('2018-07-20T00:00:00Z'),
        timeKnown: false,
        description: 'Verwendungszweck 1',
        counterpartyName: 'Max Mustermann',
        counterpartyIban: 'DE12345678901234567891',
        purpose: 'RINP',
      }),
      expect.objectContaining({ bankTxId: 'NONREF', direction: 'credit', amount: 50n, counterpartyName: 'Bert Bezahler', purpose: 'DEPT' }),
    ]);
    // PRCD 100.00 + 10.00 + 0.50 = CLBD 110.50.
    expect(balanceProblem(report!)).toBeNull();
  });
});

describe('camt.052.001.08', () => {
  it('reads a booked direct debit with the payee under Pty, its end-to-end id and the bank reference', () => {
    const [report] = parseStatements(v08, '').statements;
    expect(report).toMatchObject({
      id: 'camt0528_ONLINEBA/2023-11-11T19:28:52+01:00',
      account,
      openingBalance: 10_000n,
      closingBalance: 6600n,
    });
    expect(report?.lines).toEqual([
      {
        bankTxId: '2023-11-10-00.06.42.329883',
        direction: 'debit',
        amount: 3400n,
        currency: 'EUR',
        bookedAt: new Date('2023-11-10T00:00:00Z'),
        timeKnown: false,
        description: 'Verwendungszweck',
        counterpartyName: 'Beispiel AG',
        counterpartyIban: 'DE12345678901234567892',
        endToEndId: '123456789012',
        returnReason: null,
        purpose: null,
        reversal: false,
        charges: null,
      },
    ]);
    expect(balanceProblem(report!)).toBeNull();
  });

  it("tells reports apart by their creation time when the bank gives every one the same Id, else by the message's", () => {
    const later = v08.replaceAll('2023-11-11T19:28:52+01:00', '2023-11-12T09:00:00+01:00');
    expect(parseStatements(later, '').statements[0]?.id).toBe('camt0528_ONLINEBA/2023-11-12T09:00:00+01:00');
    const withoutOwnTime = v08.replace(/(<Rpt>[\s\S]*?)<CreDtTm>[^<]*<\/CreDtTm>/, '$1');
    expect(parseStatements(withoutOwnTime, '').statements[0]?.id).toBe('camt0528_ONLINEBA/2023-11-11T19:28:52+01:00');
  });

  it('shows balances that the lines do not lead to', () => {
    const [report] = parseStatements(v08.replace('<Amt Ccy="EUR">66.00</Amt>', '<Amt Ccy="EUR">67.00</Amt>'), '').statements;
    expect(balanceProblem(report!)).toMatch(/^Statement camt0528_ONLINEBA\/.*off by 1\.00/);
  });
});

describe('camt.052 refusals', () => {
  const code = (from: string, to: string) => v08.replace(`<Cd>${from}</Cd>`, `<Cd>${to}</Cd>`);

  it('refuses a report of available balances only: its lines would have no booked balance to be checked against', () => {
    const available = code('OPBD', 'OPAV').replace('<Cd>CLBD</Cd>', '<Cd>CLAV</Cd>');
    expect(statementError(() => parseStatements(available, 'application/xml'))).toMatchObject({
      location: 'Rpt[1]/Bal',
      reason: 'has no opening balance (a Bal of type OPBD, PRCD or ITBD); its balances: OPAV, CLAV',
    });
  });

  it('refuses an interim report of one booked balance, which opens it and closes nothing', () => {
    const interim = code('OPBD', 'ITBD').replace(/<Bal>\s*<Tp>\s*<CdOrPrtry>\s*<Cd>CLBD<\/Cd>[\s\S]*?<\/Bal>/, '');
    expect(statementError(() => parseStatements(interim, 'application/xml')).reason).toBe(
      'has no closing balance (a Bal of type CLBD or a second ITBD); its balances: ITBD',
    );
  });

  it('refuses a report without Rpt, and a version before 001.02, naming them', () => {
    const empty = v08.replace(/<Rpt>[\s\S]*<\/Rpt>/, '');
    expect(statementError(() => parseStatements(empty, ''))).toMatchObject({ location: 'Document/BkToCstmrAcctRpt', reason: 'has no Rpt' });
    const v01 = v08.replaceAll('camt.052.001.08', 'camt.052.001.01');
    expect(statementError(() => parseStatements(v01, '')).reason).toBe(
      'camt.052 version camt.052.001.01 is not supported (001.02 to 001.13 are)',
    );
  });

  it('places an error in the report by its path', () => {
    const error = statementError(() => parseStatements(v08.replace('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>X</CdtDbtInd>'), ''));
    expect(error.location).toBe('Rpt[1]/Ntry[1]/CdtDbtInd');
  });
});

import { describe, expect, it } from '@jest/globals';
import { balanceProblem, parseStatements } from '../src/index.js';
import { sample, statementError } from './samples.js';

const csv = sample('statement.csv');
const header = csv.slice(0, csv.indexOf('\n'));

describe('CSV', () => {
  const { format, statements } = parseStatements(csv, 'text/csv; charset=utf-8');
  const [first, second] = statements;

  it('groups rows by statement_id and takes the balances and period from the opening and closing rows', () => {
    expect(format).toBe('csv');
    expect(statements.map(({ lines, ...statement }) => ({ ...statement, lines: lines.length }))).toEqual([
      {
        id: 'ZRT-20250314',
        account: expect.objectContaining({ iban: 'TR180006200119000006672315' }),
        currency: 'TRY',
        openingBalance: 12_500_000n,
        closingBalance: 12_225_000n,
        from: new Date('2025-03-14T00:00:00Z'),
        to: new Date('2025-03-14T00:00:00Z'),
        timeKnown: false,
        lines: 3,
      },
      {
        id: 'ZRT-20250314-B',
        account: expect.objectContaining({ iban: 'TR690006700010000000555666' }),
        currency: 'TRY',
        openingBalance: -10_000n,
        closingBalance: 50_000n,
        from: new Date('2025-03-14T00:00:00Z'),
        to: new Date('2025-03-14T00:00:00Z'),
        timeKnown: false,
        lines: 1,
      },
    ]);
  });

  it('reads every column of a movement, with RFC 4180 quoting and Turkish text', () => {
    expect(first?.lines).toEqual([
      {
        bankTxId: 'ZRT73000001',
        direction: 'credit',
        amount: 150_000n,
        currency: 'TRY',
        bookedAt: new Date('2025-03-14T09:12:00+03:00'),
        timeKnown: true,
        description: 'HAVALE KD7MX4Q2RH, teşekkürler',
        counterpartyName: 'AYŞE YILMAZ',
        counterpartyIban: 'TR260001000201234567890123',
        endToEndId: null,
        returnReason: null,
        purpose: null,
        reversal: false,
        charges: null,
      },
      {
        bankTxId: 'ZRT73000002',
        direction: 'debit',
        amount: 500_000n,
        currency: 'TRY',
        bookedAt: new Date('2025-03-14T11:40:00+03:00'),
        timeKnown: true,
        description: 'Ödeme "WD-8F3K2M"\nŞubat faturası',
        counterpartyName: 'ÖZTÜRK TEKSTİL A.Ş.',
        counterpartyIban: 'TR800004600123888000098765',
        endToEndId: 'KASA-WD-8F3K2M',
        returnReason: null,
        purpose: null,
        reversal: false,
        charges: null,
      },
      {
        bankTxId: 'ZRT73000003',
        direction: 'credit',
        amount: 75_000n,
        currency: 'TRY',
        bookedAt: new Date('2025-03-14T00:00:00Z'),
        timeKnown: false,
        description: 'İade: hesap kapalı',
        counterpartyName: 'ALİ KAYA',
        counterpartyIban: null,
        endToEndId: 'KASA-WD-7Q1M0P',
        returnReason: 'AC04',
        purpose: null,
        reversal: false,
        charges: null,
      },
    ]);
    expect(second?.lines[0]).toMatchObject({ bankTxId: 'ZRT73000101', description: 'VIRMAN', counterpartyName: null });
  });

  it('reads the optional reversal and charges columns', () => {
    const iban = 'TR690006700010000000555666';
    const body = [
      `${header},reversal,charges`,
      `${iban},S,2025-03-14,opening,0.00,TRY,,,,,,,,`,
      `${iban},S,2025-03-14,debit,600.00,TRY,R1,,,IPTAL,,,true,1.25`,
      `${iban},S,2025-03-14,closing,-600.00,TRY,,,,,,,,`,
    ].join('\r\n');
    const [statement] = parseStatements(body, 'text/csv').statements;
    expect(statement?.lines[0]).toMatchObject({ reversal: true, charges: 125n });
  });

  it('reads the optional purpose column: the transfer purpose the bank declared', () => {
    const iban = 'TR690006700010000000555666';
    const body = [
      `${header},purpose`,
      `${iban},S,2025-03-14,opening,0.00,TRY,,,,,,,`,
      `${iban},S,2025-03-14,credit,600.00,TRY,R1,AYŞE YILMAZ,,MAAS,,,SALA`,
      `${iban},S,2025-03-14,credit,1.00,TRY,R2,AYŞE YILMAZ,,X,,,`,
      `${iban},S,2025-03-14,closing,601.00,TRY,,,,,,,`,
    ].join('\r\n');
    const [statement] = parseStatements(body, 'text/csv').statements;
    expect(statement?.lines.map((line) => line.purpose)).toEqual(['SALA', null]);
  });

  it('adds up, and names the statement when a row was removed', () => {
    expect(statements.map(balanceProblem)).toEqual([null, null]);
    const withoutReturn = csv
      .split('\n')
      .filter((row) => !row.includes('ZRT73000003'))
      .join('\n');
    expect(balanceProblem(parseStatements(withoutReturn, 'text/csv').statements[0]!)).toMatch(
      /^Statement ZRT-20250314: opening 125000\.00 \+ credits 1500\.00 - debits 5000\.00 = 121500\.00 TRY, but the closing balance is 122250\.00 \(off by 750\.00\)$/,
    );
  });
});

describe('CSV refusals', () => {
  it('names a missing column in the header', () => {
    const body = csv.replace('counterparty_iban,', '');
    const error = statementError(() => parseStatements(body, 'text/csv'));
    expect(error).toMatchObject({ location: 'line 1' });
    expect(error.message).toMatch(/lacks column counterparty_iban/);
  });

  it('names an unknown column, a short row, an unclosed quote and a bad amount by line', () => {
    expect(statementError(() => parseStatements(csv.replace('bank_tx_id', 'bank_txn_id'), 'text/csv')).message).toMatch(
      /unknown column "bank_txn_id"/,
    );
    const short = statementError(() => parseStatements(`${header}\nTR180006200119000006672315,X,2025-03-14,opening\n`, 'text/csv'));
    expect(short).toMatchObject({ location: 'line 2', message: expect.stringMatching(/row has 4 fields, the header 12/) });
    expect(statementError(() => parseStatements(`${header}\nTR180006200119000006672315,"X`, 'text/csv')).message).toMatch(
      /not RFC 4180 CSV/,
    );
    const error = statementError(() => parseStatements(csv.replace('credit,1500.00', 'credit,1500,00'), 'text/csv'));
    expect(error.location).toBe('line 3');
  });

  it('refuses a statement without its closing row, a signed movement and an unknown direction', () => {
    const noClosing = csv.replace(/^.*,closing,500\.00.*$/m, '');
    expect(statementError(() => parseStatements(noClosing, 'text/csv'))).toMatchObject({
      location: 'line 8',
      message: expect.stringMatching(/ZRT-20250314-B has no closing row/),
    });
    expect(statementError(() => parseStatements(csv.replace('credit,600.00', 'credit,-600.00'), 'text/csv')).message).toMatch(/negative/);
    expect(statementError(() => parseStatements(csv.replace('credit,600.00', 'in,600.00'), 'text/csv')).message).toMatch(/direction "in"/);
  });
});

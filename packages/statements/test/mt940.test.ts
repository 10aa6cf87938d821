import { describe, expect, it } from '@jest/globals';
import { balanceProblem, parseStatements } from '../src/index.js';
import { readField86 } from '../src/mt940-field86.js';
import { sample, statementError } from './samples.js';

const mt940 = sample('mt940-two-statements.sta');
const noExtras = {
  counterpartyName: null,
  counterpartyIban: null,
  endToEndId: null,
  returnReason: null,
  purpose: null,
  reversal: false,
  charges: null,
};

describe('MT940', () => {
  const { format, statements } = parseStatements(mt940, 'text/plain');
  const [first, second] = statements;

  it('reads both statements, separated by a - line and wrapped in {1:}{4:} blocks', () => {
    expect(format).toBe('mt940');
    expect(statements.map(({ lines: _lines, ...statement }) => statement)).toEqual([
      {
        id: 'GAR2503140001/00073/001',
        account: expect.objectContaining({ iban: 'TR180006200119000006672315' }),
        currency: 'TRY',
        openingBalance: 12_500_000n,
        closingBalance: 12_130_000n,
        from: new Date('2025-03-14T00:00:00Z'),
        to: new Date('2025-03-14T00:00:00Z'),
        timeKnown: false,
      },
      {
        id: 'GAR2503150001/00074/001',
        account: expect.objectContaining({ iban: 'TR180006200119000006672315' }),
        currency: 'TRY',
        openingBalance: 12_130_000n,
        closingBalance: 12_425_025n,
        from: new Date('2025-03-14T00:00:00Z'),
        to: new Date('2025-03-15T00:00:00Z'),
        timeKnown: false,
      },
    ]);
  });

  it('reads a Turkish free-text :86: over two lines, and the IBAN written in it', () => {
    expect(first?.lines[0]).toEqual({
      ...noExtras,
      bankTxId: 'B25073HAV00017',
      direction: 'credit',
      amount: 150_000n,
      currency: 'TRY',
      bookedAt: new Date('2025-03-14T00:00:00Z'),
      timeKnown: false,
      description: 'HAVALE AYŞE YILMAZ KD7MX4Q2RH TR26 0001 0002 0123 4567 8901 23',
      counterpartyIban: 'TR260001000201234567890123',
    });
  });

  it('joins a :86: line the bank cut at 65 characters without adding a space', () => {
    expect(first?.lines[1]).toMatchObject({
      bankTxId: 'B25073EFT00018',
      direction: 'debit',
      amount: 500_000n,
      description: 'EFT ÖZTÜRK TEKSTİL A.Ş. ÖDEME WD-8F3K2M ŞUBAT AYI FATURA BEDELİ VE KARGO ÜCRETİ',
    });
  });

  it('reads RC as a reversal that takes money out, named by the customer reference when there is no bank reference', () => {
    expect(first?.lines[2]).toMatchObject({
      bankTxId: 'GB25073R3',
      direction: 'debit',
      amount: 20_000n,
      reversal: true,
      description: 'HATALI HAVALE İPTALİ',
    });
  });

  it('reads structured ?20..?29 purpose, ?31 IBAN and ?32 name, booked on the entry date', () => {
    expect(second?.lines[0]).toEqual({
      ...noExtras,
      bankTxId: 'B25074HAV00001',
      direction: 'credit',
      amount: 275_025n,
      currency: 'TRY',
      // Value date 17 March, entry date 15 March: booked on the 15th.
      bookedAt: new Date('2025-03-15T00:00:00Z'),
      timeKnown: false,
      description: 'KD9PQ3ZT7W MEHMET DEMİR YATIRIM',
      counterpartyName: 'MEHMET DEMİR',
      counterpartyIban: 'TR290006400000112345678901',
    });
  });

  it('reads RD as a reversal that puts money back, NONREF when it has no reference at all', () => {
    expect(second?.lines[1]).toMatchObject({ bankTxId: 'NONREF', direction: 'credit', amount: 20_000n, reversal: true });
  });

  it('adds up, and names the statement when a closing balance was altered', () => {
    expect(statements.map(balanceProblem)).toEqual([null, null]);
    const tampered = parseStatements(mt940.replace(':62F:C250315TRY124250,25', ':62F:C250315TRY124250,52'), 'text/plain');
    expect(balanceProblem(tampered.statements[1]!)).toBe(
      'Statement GAR2503150001/00074/001: opening 121300.00 + credits 2950.25 - debits 0.00 = 124250.25 TRY, ' +
        'but the closing balance is 124250.52 (off by 0.27)',
    );
  });

  it('reads the year across New Year from the value date', () => {
    const body = [
      ':20:YE1',
      ':25:TR180006200119000006672315',
      ':28C:1/1',
      ':60F:C241231TRY0,00',
      ':61:2501011231C5,00NTRFNONREF//X1',
      ':62F:C250101TRY5,00',
    ].join('\n');
    expect(parseStatements(body, 'application/x-mt940').statements[0]?.lines[0]?.bookedAt).toEqual(new Date('2024-12-31T00:00:00Z'));
  });
});

describe('MT940 refusals', () => {
  const lineOf = (text: string) => `line ${mt940.split(/\r?\n/).findIndex((line) => line.startsWith(text)) + 1}`;

  it('sets aside a statement cut short before its closing balance, naming it, and reads the one before', () => {
    const cut = mt940.slice(0, mt940.indexOf(':62F:C250315'));
    const { statements, refused } = parseStatements(cut, 'text/plain');
    expect(statements.map((statement) => statement.id)).toEqual(['GAR2503140001/00073/001']);
    expect(refused).toEqual([
      {
        statementId: 'GAR2503150001/00074/001',
        location: lineOf(':20:GAR2503150001'),
        reason: 'statement GAR2503150001/00074/001 ends without a closing balance (:62F: or :62M:); is the file cut short?',
      },
    ]);
  });

  it('refuses a file whose only statement is cut short, naming the statement', () => {
    const cut = mt940.slice(0, mt940.indexOf(':62F:C250314'));
    const error = statementError(() => parseStatements(cut, 'text/plain'));
    expect(error.location).toBe(lineOf(':20:GAR2503140001'));
    expect(error.message).toMatch(/statement GAR2503140001\/00073\/001 ends without a closing balance/);
  });

  it.each([
    ['1.500,00', /not a decimal number like 1500,00/],
    ['1500.001', /more than 2 decimals/],
    ['1500,001', /more than 2 decimals/],
    ['-1500,00', /negative/],
  ])('refuses the :61: amount %j at its line', (amount, problem) => {
    const bad = mt940.replace(':61:2503140314C1500,00', `:61:2503140314C${amount}`);
    const error = statementError(() => parseStatements(bad, 'text/plain'));
    expect(error.location).toBe(lineOf(':61:2503140314C'));
    expect(error.message).toMatch(problem);
  });

  it('refuses a :61: that is not an entry, an impossible date, an empty account and a stray line', () => {
    expect(statementError(() => parseStatements(mt940.replace(':61:2503140314C1500,00NTRF', ':61:HAVALE'), 'text/plain')).message).toMatch(
      /is not value date, entry date/,
    );
    expect(statementError(() => parseStatements(mt940.replace(':60F:C250314', ':60F:C250232'), 'text/plain')).message).toMatch(
      /does not exist/,
    );
    expect(
      statementError(() => parseStatements(mt940.replace(':25:TGBATRIS/TR180006200119000006672315', ':25: '), 'text/plain')).location,
    ).toBe('line 2');
    expect(statementError(() => parseStatements(`hello\n${mt940}`, 'application/x-mt940')).location).toBe('line 1');
  });
});

describe('a declared transfer purpose in :86:', () => {
  it('reads PURP+ among the SEPA keywords of ?2x subfields, and /PURP/ in the slash layout', () => {
    const withPurpose = mt940.replace(
      ':86:051?00HAVALE?20KD9PQ3ZT7W MEHMET DEMİR?21YATIRIM',
      ':86:051?00HAVALE?20PURP+SALA SVWZ+KD9PQ3ZT7W?21YATIRIM',
    );
    const [, second] = parseStatements(withPurpose, 'text/plain').statements;
    expect(second?.lines[0]).toMatchObject({ purpose: 'SALA', description: 'KD9PQ3ZT7W YATIRIM' });
    expect(readField86(['/EREF/E2E-9//PURP/SUPP/REMI/USTD//Invoice 7/'])).toMatchObject({ purpose: 'SUPP', description: 'Invoice 7' });
  });

  it('takes only a code as a purpose: free text and a word after PURP+ are none', () => {
    expect(readField86(['HAVALE AYŞE YILMAZ PURP SALA']).purpose).toBeNull();
    expect(readField86(['?20PURP+maas odemesi'])).toMatchObject({ purpose: null });
    expect(readField86(['/PURP/SALARY/REMI/USTD//x/']).purpose).toBeNull();
  });
});

import { describe, expect, it } from '@jest/globals';
import { balanceProblem, parseStatements } from '../src/index.js';
import { sample, statementError } from './samples.js';

const v02 = sample('camt053-v02.xml');
const v08 = sample('camt053-v08.xml');
const noExtras = {
  counterpartyName: null,
  counterpartyIban: null,
  endToEndId: null,
  returnReason: null,
  purpose: null,
  reversal: false,
  charges: null,
};

describe('camt.053.001.02', () => {
  const { format, statements } = parseStatements(v02, 'application/xml; charset=utf-8');
  const [first, second] = statements;

  it('reads every Stmt with its account, balances and period', () => {
    expect(format).toBe('camt.053');
    expect(statements).toHaveLength(2);
    expect(first).toMatchObject({
      id: 'GAR-20250314-6672315',
      account: expect.objectContaining({ iban: 'TR180006200119000006672315' }),
      currency: 'TRY',
      openingBalance: 12_500_000n,
      closingBalance: 12_530_050n,
      from: new Date('2025-03-14T00:00:00+03:00'),
      to: new Date('2025-03-14T23:59:59+03:00'),
    });
    // A PRCD opening balance on the debit side is negative; no FrToDt gives no period.
    expect(second).toMatchObject({ id: 'GAR-20250314-0555666', openingBalance: -10_000n, closingBalance: 50_000n, from: null, to: null });
  });

  it('reads a deposit with the payer, the payer IBAN and the remittance text', () => {
    expect(first?.lines[0]).toEqual({
      ...noExtras,
      bankTxId: 'GB25073A0000001',
      direction: 'credit',
      amount: 150_000n,
      currency: 'TRY',
      bookedAt: new Date('2025-03-14T00:00:00Z'),
      timeKnown: false,
      description: 'KD7MX4Q2RH',
      counterpartyName: 'AYŞE YILMAZ',
      counterpartyIban: 'TR260001000201234567890123',
    });
  });

  it('splits a batched entry into one line per TxDtls, named by their own reference or the entry reference and index', () => {
    const batch = first?.lines.slice(1, 4);
    expect(batch?.map((line) => [line.bankTxId, line.amount, line.direction])).toEqual([
      ['GB25073B0000011', 100_000n, 'credit'],
      ['BATCH-20250314-01/2', 200_000n, 'credit'],
      ['BATCH-20250314-01/3', 25_050n, 'credit'],
    ]);
    expect(batch?.[0]).toMatchObject({ counterpartyName: 'MEHMET DEMİR', endToEndId: 'FAST-7731-0001', description: 'KD9PQ3ZT7W' });
    expect(batch?.[1]).toMatchObject({ counterpartyName: 'ZEYNEP ŞAHİN', counterpartyIban: null, description: 'YATIRIM KDA1B2C3D4' });
    expect(batch?.[2]).toMatchObject({ description: '', counterpartyName: null });
  });

  it('marks a reversal and keeps the direction of its own effect', () => {
    expect(first?.lines[4]).toMatchObject({
      bankTxId: 'GB25073R0000003',
      direction: 'debit',
      amount: 20_000n,
      reversal: true,
      description: 'HATALI HAVALE IPTALI',
    });
  });

  it('reads a returned payout with its return reason', () => {
    expect(first?.lines[5]).toMatchObject({
      bankTxId: 'GB25073I0000004',
      direction: 'credit',
      amount: 75_000n,
      returnReason: 'AC04',
      endToEndId: 'KASA-WD-7Q1M0P',
      counterpartyName: 'ALİ KAYA',
      description: 'IADE - HESAP KAPALI',
    });
  });

  it('reads a debit with its EndToEndId, payee and charges', () => {
    expect(first?.lines[6]).toEqual({
      ...noExtras,
      bankTxId: 'GB25073E0000005',
      direction: 'debit',
      amount: 500_000n,
      currency: 'TRY',
      bookedAt: new Date('2025-03-14T00:00:00Z'),
      timeKnown: false,
      description: 'Kasa cekim WD-8F3K2M',
      counterpartyName: 'ÖZTÜRK TEKSTİL A.Ş.',
      counterpartyIban: 'TR800004600123888000098765',
      endToEndId: 'KASA-WD-8F3K2M',
      charges: 250n,
    });
  });

  it('skips entries that are not booked', () => {
    expect(first?.lines).toHaveLength(7);
    expect(first?.lines.map((line) => line.bankTxId)).not.toContain('GB25073P0000006');
  });

  it('adds up', () => {
    expect(statements.map(balanceProblem)).toEqual([null, null]);
  });
});

describe('camt.053.001.08', () => {
  const { statements } = parseStatements(v08, 'text/xml');
  const [statement] = statements;

  it('reads a prefixed document, Sts/Cd, BookgDt/DtTm, TxDtls/Amt, Dbtr/Pty/Nm and Chrgs/Rcrd', () => {
    expect(statements).toHaveLength(1);
    expect(statement).toMatchObject({
      id: 'ISB-20250315-112345678901',
      account: expect.objectContaining({ iban: 'TR180006200119000006672315' }),
      openingBalance: 1_000_000n,
      closingBalance: 904_823n,
    });
    expect(statement?.lines).toEqual([
      {
        ...noExtras,
        bankTxId: 'ISB25074FAST0184',
        direction: 'credit',
        amount: 255_000n,
        currency: 'TRY',
        bookedAt: new Date('2025-03-15T07:15:00Z'),
        timeKnown: true,
        description: 'KDW8N5R2XP yatırım',
        counterpartyName: 'ÇAĞLA GÜNEŞ',
        counterpartyIban: 'TR290006400000112345678901',
        endToEndId: 'FAST-20250315-0184',
      },
      {
        ...noExtras,
        bankTxId: 'ISB25074EFT0185',
        direction: 'debit',
        amount: 350_177n,
        currency: 'TRY',
        // No offset in the document: Istanbul time.
        bookedAt: new Date('2025-03-15T14:02:31+03:00'),
        timeKnown: true,
        description: 'KASA CEKIM WD-9H2J4K',
        counterpartyName: 'BURAK ÖZDEMİR',
        counterpartyIban: 'TR800004600123888000098765',
        endToEndId: 'KASA-WD-9H2J4K',
        charges: 177n,
      },
    ]);
    expect(balanceProblem(statement!)).toBeNull();
  });
});

describe('camt.053 refusals', () => {
  it('names the parser line of malformed XML', () => {
    const broken = v02.replace('<Ccy>TRY</Ccy>', '<Ccy>TRY</Cc>');
    const error = statementError(() => parseStatements(broken, 'application/xml'));
    expect(error.location).toBe(`line ${v02.split('\n').findIndex((line) => line.includes('<Ccy>TRY</Ccy>')) + 1}`);
    expect(error.message).toMatch(/malformed XML/);
  });

  it('refuses another ISO 20022 document type', () => {
    const camt054 = v08.replace('xsd:camt.053.001.08', 'xsd:camt.054.001.08');
    const error = statementError(() => parseStatements(camt054, 'application/xml'));
    expect(error).toMatchObject({ location: 'Document' });
    expect(error.message).toMatch(/camt\.054\.001\.08, not a camt\.053/);
  });

  it('refuses a document without the ISO 20022 namespace and a non-Document root', () => {
    expect(statementError(() => parseStatements(v08.replace(/ xmlns:ns2="[^"]+"/, ' xmlns:ns2="urn:example"'), 'text/xml')).location).toBe(
      'Document',
    );
    expect(statementError(() => parseStatements('<BkToCstmrStmt/>', 'text/xml')).message).toMatch(/root element is <BkToCstmrStmt>/);
  });

  it.each([
    ['1.500,00', /not a decimal number/],
    ['1500.001', /more than 2 decimals for TRY/],
    ['-1500.00', /negative/],
    ['abc', /not a decimal number/],
  ])('refuses the amount %j with the entry path', (amount, problem) => {
    const bad = v02.replace('<Amt Ccy="TRY">200.00</Amt>', `<Amt Ccy="TRY">${amount}</Amt>`);
    const error = statementError(() => parseStatements(bad, 'application/xml'));
    expect(error.location).toBe('Stmt[1]/Ntry[3]/Amt');
    expect(error.message).toMatch(problem);
  });

  it('refuses a statement without a closing balance', () => {
    // A closing available balance (CLAV) counts holds: booked lines do not add up to it, so it never closes a statement.
    const bad = v08.replace('<ns2:Cd>CLBD</ns2:Cd>', '<ns2:Cd>CLAV</ns2:Cd>');
    const error = statementError(() => parseStatements(bad, 'text/xml'));
    expect(error.location).toBe('Stmt[1]/Bal');
    expect(error.message).toMatch(/no closing balance/);
  });

  it('refuses a batch whose transactions do not add up to the entry', () => {
    const bad = v02.replace('<Amt Ccy="TRY">250.50</Amt>', '<Amt Ccy="TRY">250.00</Amt>');
    const error = statementError(() => parseStatements(bad, 'application/xml'));
    expect(error.location).toBe('Stmt[1]/Ntry[2]/Amt');
    expect(error.message).toMatch(/3 TxDtls add up to 3250\.00 TRY, the entry says 3250\.50/);
  });

  it('refuses a booked entry without a booking date or indicator, and a DOCTYPE', () => {
    expect(
      statementError(() => parseStatements(v02.replace('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>D</CdtDbtInd>'), 'text/xml')).location,
    ).toBe('Stmt[1]/Ntry[3]/CdtDbtInd');
    // No BookgDt or ValDt, in a statement of two days: nothing says which day the entry was booked.
    const undated = v02
      .replace('<BookgDt><Dt>2025-03-14</Dt></BookgDt>\n        <AcctSvcrRef>GB25073R0000003', '<AcctSvcrRef>GB25073R0000003')
      .replace('<ToDtTm>2025-03-14T23:59:59+03:00</ToDtTm>', '<ToDtTm>2025-03-15T23:59:59+03:00</ToDtTm>');
    expect(statementError(() => parseStatements(undated, 'text/xml')).location).toBe('Stmt[1]/Ntry[3]/BookgDt');
    const withDoctype = v08.replace('<ns2:Document', '<!DOCTYPE x [<!ENTITY a "a">]>\n<ns2:Document');
    expect(statementError(() => parseStatements(withDoctype, 'text/xml')).location).toBe('line 3');
  });
});

describe('a declared transfer purpose', () => {
  it('reads Purp/Cd (an ISO 20022 ExternalPurpose1Code), else the bank’s own Purp/Prtry, else none', () => {
    const withPurpose = v02
      .replace('<RmtInf><Ustrd>KD7MX4Q2RH</Ustrd></RmtInf>', '<Purp><Cd>SALA</Cd></Purp><RmtInf><Ustrd>KD7MX4Q2RH</Ustrd></RmtInf>')
      .replace('<RmtInf><Ustrd>KD9PQ3ZT7W</Ustrd></RmtInf>', '<Purp><Prtry>KIRA</Prtry></Purp><RmtInf><Ustrd>KD9PQ3ZT7W</Ustrd></RmtInf>');
    const [first] = parseStatements(withPurpose, 'application/xml').statements;
    expect(first?.lines.slice(0, 3).map((line) => line.purpose)).toEqual(['SALA', 'KIRA', null]);
  });

  it('refuses a purpose longer than any column keeps, naming it', () => {
    const tooLong = v02.replace('<RmtInf><Ustrd>KD7MX4Q2RH</Ustrd></RmtInf>', `<Purp><Prtry>${'P'.repeat(36)}</Prtry></Purp>`);
    expect(statementError(() => parseStatements(tooLong, 'application/xml')).message).toMatch(/purpose .* is 36 characters; at most 35/);
  });
});

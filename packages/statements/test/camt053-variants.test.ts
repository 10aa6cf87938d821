import { describe, expect, it } from '@jest/globals';
import { balanceProblem, parseStatements, type StatementLine } from '../src/index.js';
import { sample, statementError } from './samples.js';

const noReferences = sample('camt053-v04-no-references.xml');
const datedByBalances = sample('camt053-v08-dated-by-balances.xml');
const interim = sample('camt053-v13-interim-balances.xml');

function read(body: string) {
  return parseStatements(body, 'application/xml').statements;
}

/**
 * The ledger's line key as docs/statements.md ("Which lines are the same line") defines it: reference, direction,
 * amount, booking day and the occurrence among the statement's lines sharing those four.
 */
function lineKeys(lines: StatementLine[]): string[] {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    const day = new Date(line.bookedAt.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
    const base = [line.bankTxId, line.direction === 'credit' ? 'C' : 'D', line.amount, day].join('|');
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    return `${base}|${occurrence}`;
  });
}

describe('camt.053 entries without AcctSvcrRef or NtryRef', () => {
  const [statement] = read(noReferences);
  const lines = statement?.lines ?? [];

  it('names a line by its transaction TxId, else NONREF, never by the payer’s InstrId or EndToEndId', () => {
    expect(lines.map((line) => [line.bankTxId, line.direction, line.amount])).toEqual([
      ['FAST25076000417', 'credit', 100_000n],
      ['NONREF', 'credit', 25_000n],
      ['NONREF', 'credit', 25_000n],
      ['NONREF', 'credit', 75_000n],
      ['NONREF', 'credit', 32_000n],
      ['NONREF', 'debit', 70_000n],
    ]);
    expect(lines[0]).toMatchObject({ endToEndId: 'E2E-7731-0001', counterpartyName: 'AYŞE YILMAZ', description: 'KD7MX4Q2RH' });
  });

  it('gives the same keys to the same file read again, and a key of its own to every entry, twins included', () => {
    const keys = lineKeys(lines);
    expect(lineKeys(read(noReferences)[0]?.lines ?? [])).toEqual(keys);
    expect(new Set(keys).size).toBe(lines.length);
    expect(keys.slice(1, 3)).toEqual(['NONREF|C|25000|2025-03-17|1', 'NONREF|C|25000|2025-03-17|2']);
  });

  it('reads NOTPROVIDED as no remittance text and no EndToEndId', () => {
    expect(lines[1]).toMatchObject({ description: '', endToEndId: null, counterpartyName: 'MEHMET DEMİR' });
  });

  it('splits a batch by AmtDtls/TxAmt, dated by its value date, with a proprietary return code and its text', () => {
    expect(lines[3]).toMatchObject({
      bookedAt: new Date('2025-03-17T00:00:00Z'),
      endToEndId: 'KASA-WD-7Q1M0P',
      returnReason: 'HSPKPL',
      description: 'HESAP KAPALI',
      counterpartyName: 'ALİ KAYA',
    });
    expect(lines[4]).toMatchObject({ endToEndId: 'KASA-WD-8F3K2M', returnReason: 'AC04', description: '' });
  });

  it('reads an entry with no details, and a PRCD opening balance; the statement adds up', () => {
    expect(lines[5]).toMatchObject({ description: 'HESAP ISLETIM UCRETI', counterpartyName: null, charges: null });
    expect(statement).toMatchObject({ openingBalance: 500_000n, closingBalance: 687_000n });
    expect(balanceProblem(statement!)).toBeNull();
  });

  it('keeps a proprietary return code only when it is a code (at most 8 characters)', () => {
    const long = noReferences.replace('<Prtry>HSPKPL</Prtry>', '<Prtry>HESAP KAPALI OLDUGU ICIN</Prtry>');
    expect(read(long)[0]?.lines[3]?.returnReason).toBeNull();
  });

  it('refuses a batch in which one transaction gives an amount and another none', () => {
    const half = noReferences.replace('<AmtDtls><TxAmt><Amt Ccy="TRY">320.00</Amt></TxAmt></AmtDtls>', '');
    const error = statementError(() => read(half));
    expect(error.location).toBe('Stmt[1]/Ntry[4]/NtryDtls[1]/TxDtls[2]');
    expect(error.reason).toMatch(/no Amt or AmtDtls\/TxAmt\/Amt, while others in its batch have one/);
  });
});

describe('camt.053.001.08 as one bank writes it: entries dated by the statement, balances without CdtDbtInd', () => {
  const statements = read(datedByBalances);

  it('reads entries with no Sts and no date as booked on the one day the statement covers', () => {
    expect(statements.map((s) => [s.id, s.openingBalance, s.closingBalance, s.lines.length])).toEqual([
      ['MSG-20250318-01-A', 2_108_150n, 2_931_730n, 2],
      ['MSG-20250318-01-B', 0n, 0n, 0],
    ]);
    expect(statements[0]?.lines).toEqual([
      expect.objectContaining({
        bankTxId: 'REF000000025239',
        direction: 'credit',
        amount: 828_580n,
        bookedAt: new Date('2025-03-18T00:00:00Z'),
      }),
      expect.objectContaining({ bankTxId: 'REF000000041558', direction: 'debit', amount: 5_000n, timeKnown: false }),
    ]);
    expect(statements.map(balanceProblem)).toEqual([null, null]);
  });

  it('refuses an undated entry when the statement spans more than a day, naming what would date it', () => {
    const twoDays = datedByBalances.replace(
      '<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">29317.3</Amt><Dt><Dt>2025-03-18</Dt>',
      '<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">29317.3</Amt><Dt><Dt>2025-03-19</Dt>',
    );
    const error = statementError(() => read(twoDays));
    expect(error.location).toBe('Stmt[1]/Ntry[1]/BookgDt');
    expect(error.reason).toMatch(/needs a date: BookgDt or ValDt/);
  });

  it('still skips an entry whose status says it is not booked', () => {
    const pending = datedByBalances.replace('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts>');
    expect(read(pending)[0]?.lines.map((line) => line.bankTxId)).toEqual(['REF000000025239']);
  });
});

describe('camt.053.001.13 with interim balances', () => {
  const [statement] = read(interim);

  it('is opened by the first ITBD (a Prtry code too) and closed by the last; CLAV stands in for neither', () => {
    expect(statement).toMatchObject({ openingBalance: -100_000n, closingBalance: 205_050n });
    expect(balanceProblem(statement!)).toBeNull();
  });

  it('reads five decimals that are zeros past the currency’s two, and refuses a digit there', () => {
    expect(statement?.lines[0]?.amount).toBe(305_050n);
    const error = statementError(() => read(interim.replace('3050.50000', '3050.50100')));
    expect(error.location).toBe('Stmt[1]/Ntry[1]/Amt');
    expect(error.reason).toMatch(/more than 2 decimals/);
  });

  it('reads a batch that lists its payments without amounts as one line, as booked', () => {
    expect(statement?.lines).toEqual([
      expect.objectContaining({
        bankTxId: 'AKB2507800091',
        amount: 305_050n,
        bookedAt: new Date('2025-03-19T11:42:10+03:00'),
        timeKnown: true,
        description: 'TOPLU EFT GELEN 2 ADET',
        counterpartyName: null,
      }),
    ]);
  });

  it('refuses a statement with available balances only, listing the balances it has', () => {
    const available = interim.replace('<Prtry>ITBD</Prtry>', '<Cd>OPAV</Cd>').replace('<Cd>ITBD</Cd>', '<Cd>FWAV</Cd>');
    const error = statementError(() => read(available));
    expect(error.location).toBe('Stmt[1]/Bal');
    expect(error.reason).toBe('has no opening balance (a Bal of type OPBD, PRCD or ITBD); its balances: OPAV, CLAV, FWAV');
  });
});

describe('camt.053 versions', () => {
  it.each(['02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13'])('reads camt.053.001.%s', (version) => {
    const body = noReferences.replace('xsd:camt.053.001.04', `xsd:camt.053.001.${version}`);
    expect(read(body)[0]?.lines).toHaveLength(6);
  });

  it.each(['01', '14'])('refuses camt.053.001.%s by name', (version) => {
    const error = statementError(() => read(noReferences.replace('xsd:camt.053.001.04', `xsd:camt.053.001.${version}`)));
    expect(error.reason).toBe(`camt.053 version camt.053.001.${version} is not supported (001.02 to 001.13 are)`);
  });
});

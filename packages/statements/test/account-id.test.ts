import { describe, expect, it } from '@jest/globals';
import { isAccountOf, parseStatements, type KnownAccount, type StatementAccount } from '../src/index.js';
import { sample, statementError } from './samples.js';

/** A one-line MT940 statement whose `:25:` is `account`. */
function mt940With(account: string): string {
  return [
    ':20:ACC1',
    `:25:${account}`,
    ':28C:1/1',
    ':60F:C250314TRY100,00',
    ':61:2503140314C50,00NTRFNONREF//B1',
    ':62F:C250314TRY150,00',
    '',
  ].join('\n');
}

const accountOf = (account: string): StatementAccount | undefined =>
  parseStatements(mt940With(account), 'text/plain').statements[0]?.account;

/** A Yapı Kredi (00067) account whose IBAN carries its account number 93984487 in its last 16 digits. */
const YKB_IBAN = 'TR390006700000000093984487';
const ykb: KnownAccount = { iban: YKB_IBAN, accountNumber: null, branchCode: null };

describe(':25: as banks write it', () => {
  it.each<[string, string, Partial<StatementAccount>]>([
    ['a bare IBAN', 'TR180006200119000006672315', { iban: 'TR180006200119000006672315', number: null, bankCode: null }],
    ['an IBAN in groups of four', 'TR18 0006 2001 1900 0006 6723 15', { iban: 'TR180006200119000006672315', number: null }],
    ['an IBAN behind a BIC', 'TGBATRIS/TR180006200119000006672315', { iban: 'TR180006200119000006672315', bankCode: 'TGBATRIS' }],
    [
      'an IBAN behind a bank code, spaced',
      '0062/TR18 0006 2001 1900 0006 6723 15',
      { iban: 'TR180006200119000006672315', bankCode: '0062' },
    ],
    ['an IBAN whose check digits fail, as a number', 'NL81ASNB9999999999', { iban: null, number: 'NL81ASNB9999999999', bankCode: null }],
    ['a German bank code and account', '50010517/0123456789', { iban: null, number: '0123456789', bankCode: '50010517' }],
    ['a BIC and account', 'ABNANL2A/123456789', { iban: null, number: '123456789', bankCode: 'ABNANL2A' }],
    ['an account with its currency', '123456789EUR', { iban: null, number: '123456789', bankCode: null }],
    ['a dotted account with its currency', '1291.99.348EUR', { iban: null, number: '1291.99.348' }],
    [
      'a bank code, account and currency after a slash',
      'UBRTHUHB/123456789150ABCDEF002/HUF',
      { number: '123456789150ABCDEF002', bankCode: 'UBRTHUHB' },
    ],
    ['a bare account number', '0001234567', { iban: null, number: '0001234567', bankCode: null, branchCode: null }],
    ['a Turkish bank, branch and legacy account', '0067-00763/93984487', { number: '93984487', bankCode: '0067', branchCode: '00763' }],
  ])('reads %s', (_name, written, expected) => {
    expect(accountOf(written)).toEqual({ iban: null, number: null, bankCode: null, branchCode: null, raw: written, ...expected });
  });

  it('keeps the field as written, trimmed, and refuses only an empty one, at its line', () => {
    expect(accountOf('BPHKPLPK/320000546101 ')).toMatchObject({ number: '320000546101', raw: 'BPHKPLPK/320000546101' });
    const error = statementError(() => parseStatements(mt940With('   '), 'text/plain'));
    expect(error.location).toBe('line 2');
    expect(error.reason).toBe('the account is empty');
  });
});

describe('camt.053 Acct/Id', () => {
  const v02 = sample('camt053-v02.xml');
  const withAccount = (id: string) => v02.replace('<IBAN>TR18 0006 2001 1900 0006 6723 15</IBAN>', id);

  it('reads Othr/Id (with its SchmeNm) as the account number, and the servicer BIC as the bank code', () => {
    const body = withAccount('<Othr><Id>0763-93984487</Id><SchmeNm><Cd>BBAN</Cd></SchmeNm></Othr>').replace(
      '<Ccy>TRY</Ccy>',
      '<Ccy>TRY</Ccy><Svcr><FinInstnId><BIC>YAPITRIS</BIC></FinInstnId></Svcr>',
    );
    expect(parseStatements(body, 'application/xml').statements[0]?.account).toEqual({
      iban: null,
      number: '0763-93984487',
      bankCode: 'YAPITRIS',
      branchCode: null,
      raw: '0763-93984487',
    });
  });

  it('keeps an IBAN whose check digits fail as the number, and refuses an account with neither IBAN nor Othr/Id', () => {
    expect(parseStatements(withAccount('<IBAN>TR190006200119000006672315</IBAN>'), 'application/xml').statements[0]?.account).toMatchObject(
      {
        iban: null,
        number: 'TR190006200119000006672315',
      },
    );
    const error = statementError(() => parseStatements(withAccount('<Othr><Id></Id></Othr>'), 'application/xml'));
    expect(error.location).toBe('Stmt[1]/Acct/Id');
  });
});

describe('whose statement it is', () => {
  const ours: KnownAccount = { iban: 'TR180006200119000006672315', accountNumber: '0123456789', branchCode: '1234' };

  it('is ours by IBAN, and never by number when the file names another valid IBAN', () => {
    expect(isAccountOf(accountOf('TGBATRIS/TR180006200119000006672315')!, ours)).toBe(true);
    expect(isAccountOf(accountOf('TR330006100519786457841326')!, { ...ours, accountNumber: '8645784132' })).toBe(false);
  });

  it('is ours by account number, ignoring leading zeros, spaces, dashes and dots', () => {
    for (const written of ['0123456789', '123456789', '0123-456 789', '01.234.567.89TRY', 'TGBATRIS/0123456789']) {
      expect([written, isAccountOf(accountOf(written)!, ours)]).toEqual([written, true]);
    }
  });

  it('needs the branch code to agree when both sides have one, and a numeric bank code to be our IBAN bank', () => {
    expect(isAccountOf(accountOf('0062-1234/0123456789')!, ours)).toBe(true);
    expect(isAccountOf(accountOf('0062-01234/0123456789')!, ours)).toBe(true);
    expect(isAccountOf(accountOf('0062-4321/0123456789')!, ours)).toBe(false);
    expect(isAccountOf(accountOf('0062-4321/0123456789')!, { ...ours, branchCode: null })).toBe(true);
    expect(isAccountOf(accountOf('0064-1234/0123456789')!, ours)).toBe(false);
    expect(isAccountOf(accountOf('50010517/0123456789')!, ours)).toBe(false);
  });

  it('is ours when our Turkish IBAN carries the number in its last 16 digits, after zeros or our branch code', () => {
    expect(isAccountOf(accountOf('0067-00763/93984487')!, ykb)).toBe(true);
    expect(isAccountOf(accountOf('93984487')!, ykb)).toBe(true);
    const withBranch = { ...ykb, iban: 'TR480006700076300093984487', branchCode: '00763' };
    expect(isAccountOf(accountOf('0067-00763/93984487')!, withBranch)).toBe(true);
    expect(isAccountOf(accountOf('93984487')!, withBranch)).toBe(true);
    // Digits before the number that are not the branch code we keep make it another account's number.
    expect(isAccountOf(accountOf('0067-00763/93984487')!, { ...withBranch, branchCode: null })).toBe(false);
    expect(isAccountOf(accountOf('0067-00764/93984487')!, withBranch)).toBe(false);
  });

  it("refuses a stranger's number that is a suffix or a prefix of ours", () => {
    for (const stranger of ['3984487', '984487', '9398448', '939844870', '193984487', '0067-00763/3984487', '0067-9/3984487']) {
      expect([stranger, isAccountOf(accountOf(stranger)!, ykb)]).toEqual([stranger, false]);
      expect([stranger, isAccountOf(accountOf(stranger)!, { ...ykb, accountNumber: '93984487' })]).toEqual([stranger, false]);
    }
    expect(isAccountOf(accountOf('NL81ASNB9999999999')!, ours)).toBe(false);
  });

  it('refuses the tail of the number we keep even where our IBAN reads as our branch code and that tail', () => {
    // Our number starts with our branch's digits: the IBAN's last 16 are zeros, 763 and 861722, or zeros and 763861722.
    const kept: KnownAccount = { iban: 'TR490006100000000763861722', accountNumber: '763861722', branchCode: '763' };
    expect(isAccountOf(accountOf('763861722')!, kept)).toBe(true);
    expect(isAccountOf(accountOf('861722')!, kept)).toBe(false);
    expect(isAccountOf(accountOf('0061-00763/861722')!, kept)).toBe(false);
    // With no number kept, the IBAN's reading stands: our branch code, then the number.
    expect(isAccountOf(accountOf('861722')!, { ...kept, accountNumber: null })).toBe(true);
  });
});

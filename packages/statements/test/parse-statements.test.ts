import { describe, expect, it } from '@jest/globals';
import { balanceProblem, decodeStatementBody, parseStatements } from '../src/index.js';
import { sample, statementError } from './samples.js';

/** An MT940 statement of `count` deposits of 1.00 TRY each: 2 lines per entry. */
function bigMt940(count: number): string {
  const entries = Array.from({ length: count }, (_, i) => `:61:2503140314C1,00NTRFNONREF//B${i}\n:86:HAVALE AYŞE YILMAZ KD${i}`);
  return [
    ':20:BIG',
    ':25:TR180006200119000006672315',
    ':28C:1/1',
    ':60F:C250314TRY0,00',
    ...entries,
    `:62F:C250314TRY${count},00`,
    '-',
  ].join('\n');
}

describe('parseStatements picks the format', () => {
  it.each([
    ['camt053-v02.xml', 'application/octet-stream', 'camt.053'],
    ['camt053-v08.xml', '', 'camt.053'],
    ['mt940-two-statements.sta', 'application/octet-stream', 'mt940'],
    ['statement.csv', 'text/plain', 'csv'],
  ])('from the body of %s when the content type is %j', (name, contentType, format) => {
    expect(parseStatements(sample(name), contentType).format).toBe(format);
  });

  it('refuses a body it cannot place', () => {
    expect(statementError(() => parseStatements('Hesap Hareketleri\n14.03.2025;1.500,00', 'text/plain')).message).toMatch(
      /no known format/,
    );
  });

  it('reads a UTF-8 BOM and refuses text that was mis-decoded', () => {
    expect(parseStatements(`\uFEFF${sample('statement.csv')}`, 'text/csv').statements).toHaveLength(2);
    const error = statementError(() => parseStatements(sample('mt940-two-statements.sta').replace('AYŞE', 'AY\uFFFDE'), 'text/plain'));
    expect(error).toMatchObject({ location: 'line 6', message: expect.stringMatching(/not UTF-8/) });
  });
});

describe('decodeStatementBody', () => {
  const mt940 = sample('mt940-two-statements.sta');
  // ISO-8859-9 puts Ş, İ, Ö, Ü in single bytes; everything else in the sample is ASCII.
  const latin5: Record<string, number> = { Ş: 0xde, ş: 0xfe, İ: 0xdd, ı: 0xfd, Ö: 0xd6, Ü: 0xdc, Ğ: 0xd0, Ç: 0xc7 };
  const iso = Uint8Array.from([...mt940].map((char) => latin5[char] ?? char.charCodeAt(0)));

  it('reads ISO-8859-9 bytes, which are not valid UTF-8, as Turkish text', () => {
    const text = decodeStatementBody(iso);
    expect(text).toBe(mt940);
    expect(parseStatements(text, 'text/plain').statements[0]?.lines[0]?.description).toMatch(/^HAVALE AYŞE YILMAZ KD7MX4Q2RH/);
  });

  it('reads UTF-8 as UTF-8, and honours an ISO-8859-9 charset', () => {
    expect(decodeStatementBody(new TextEncoder().encode(mt940))).toBe(mt940);
    expect(decodeStatementBody(Uint8Array.from([0xdd, 0xde]), 'text/plain; charset=ISO-8859-9')).toBe('İŞ');
  });
});

describe('large statements', () => {
  it('reads a 10,000-line MT940 statement, and it adds up', () => {
    const { statements } = parseStatements(bigMt940(5_000), 'text/plain');
    expect(statements[0]?.lines).toHaveLength(5_000);
    expect(balanceProblem(statements[0]!)).toBeNull();
  });
});

/**
 * Hostile files at the parser: each refusal of docs/statements.md (Limits) as a StatementError naming the place, a
 * fuzz of the samples whose every outcome is statements within the limits or a StatementError (never another
 * exception), and the worker thread a large file is read on giving what the calling thread gives.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  MAX_AMOUNT_DIGITS,
  MAX_XML_DEPTH,
  parseStatements,
  readStatementFile,
  StatementError,
  type ParsedStatements,
} from '../src/index.js';
import { sample, statementError } from './samples.js';

const camt = () => sample('camt053-v08.xml');
const csv = () => sample('statement.csv');
const mt940 = () => sample('mt940-two-statements.sta');

describe('XML nesting', () => {
  const nested = (depth: number) =>
    '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">\n' +
    '<a>'.repeat(depth) +
    '</a>'.repeat(depth) +
    '</Document>';

  it('refuses 20,000 nested elements at the line where they pass the bound, in a scan of milliseconds', () => {
    const started = performance.now();
    const error = statementError(() => parseStatements(nested(20_000), 'application/xml'));
    expect(error).toMatchObject({
      location: 'line 3',
      reason: `elements are nested deeper than ${MAX_XML_DEPTH} elements (a camt.053 needs about 12)`,
    });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('counts only elements: self-closing tags, comments, CDATA and a ">" inside an attribute value do not nest', () => {
    const flat = `<x a="1>2"/><!-- <y> --><![CDATA[<z>]]><?pi <w>?>`.repeat(200);
    const body = camt().replace('<ns2:GrpHdr>', `<ns2:GrpHdr>${flat}`);
    expect(parseStatements(body, 'application/xml').statements).toHaveLength(1);
  });

  it('lets a document as deep as the bound through to the reader', () => {
    // Document is one level: 63 more make 64, which the depth check lets pass (the reader then names what is missing).
    expect(statementError(() => parseStatements(nested(MAX_XML_DEPTH - 1), 'application/xml')).location).not.toBe('line 3');
    expect(statementError(() => parseStatements(nested(MAX_XML_DEPTH), 'application/xml')).location).toBe('line 3');
  });
});

describe('amounts', () => {
  it.each([
    ['a CSV credit past bigint', () => csv().replace(',1500.00,', ',999999999999999999.99,'), 'line 3'],
    ['a CSV balance of 16 digits of kuruş', () => csv().replace(',125000.00,', ',10000000000000.00,'), 'line 2'],
    ['an MT940 amount of 16 digits of kuruş', () => mt940().replace('C1500,00', 'C10000000000000,00'), 'line 5'],
    ['a camt.053 amount of 19 digits', () => camt().replace('>2550.00<', '>99999999999999999.00<'), 'Stmt[1]/Ntry[1]/Amt'],
  ])('refuses %s, naming the place', (_name, body, location) => {
    const error = statementError(() => parseStatements(body(), ''));
    expect(error.location).toBe(location);
    expect(error.reason).toMatch(new RegExp(`is more than ${MAX_AMOUNT_DIGITS} digits of minor units; at most 9999999999999.99 TRY`));
  });

  it('reads 15 digits of kuruş, and leading zeros are no digits', () => {
    const body = csv()
      .replace(',1500.00,', ',9999999999999.99,')
      .replace(',122250.00,', ',10000000120749.99,')
      .replace(',125000.00,', ',0000000000125000.00,');
    expect(statementError(() => parseStatements(body, 'text/csv')).location).toBe('line 7'); // the closing (the debit above spans two lines): 16 digits
    const fits = csv().replace(',1500.00,', ',9999999999999.99,').replace(',125000.00,', ',-9999999877250.00,');
    expect(parseStatements(fits, 'text/csv').statements[0]?.lines[0]?.amount).toBe(999_999_999_999_999n);
  });

  it('shows at most 40 characters of a hostile amount', () => {
    const error = statementError(() => parseStatements(csv().replace(',1500.00,', `,${'9'.repeat(100_000)},`), 'text/csv'));
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('control characters', () => {
  it.each([
    ['a NUL in a CSV name', () => csv().replace('AYŞE YILMAZ', 'AYŞE\u0000YILMAZ'), 'line 3', 'U+0000'],
    ['an ESC in an MT940 :86:', () => mt940().replace('HAVALE AYŞE', 'HAVALE\u001bAYŞE'), 'line 6', 'U+001B'],
    ['a raw DEL in a camt.053 name', () => camt().replace('ÇAĞLA GÜNEŞ', 'ÇAĞLA\u007fGÜNEŞ'), 'line 45', 'U+007F'],
    ['a reference to NUL in camt.053', () => camt().replace('ÇAĞLA GÜNEŞ', 'ÇAĞLA&#0;GÜNEŞ'), 'line 45', 'U+0000'],
    ['a reference to DEL in camt.053', () => camt().replace('ÇAĞLA GÜNEŞ', 'ÇAĞLA&#x7f;GÜNEŞ'), 'line 45', 'U+007F'],
  ])('refuses %s, naming the line and the character', (_name, body, location, char) => {
    const error = statementError(() => parseStatements(body(), ''));
    expect(error.location).toBe(location);
    expect(error.reason).toContain(`control character ${char}`);
  });

  it('refuses a character reference to half a surrogate pair or past U+10FFFF', () => {
    for (const reference of ['&#xD800;', '&#1114112;']) {
      const error = statementError(() => parseStatements(camt().replace('ÇAĞLA GÜNEŞ', `ÇAĞLA${reference}`), ''));
      expect(error).toMatchObject({ location: 'line 45', reason: `character reference ${reference} names no character` });
    }
  });

  it('keeps tabs and line breaks, which are text', () => {
    const body = csv().replace('AYŞE YILMAZ', 'AYŞE\tYILMAZ');
    expect(parseStatements(body, 'text/csv').statements[0]?.lines[0]?.counterpartyName).toBe('AYŞE\tYILMAZ');
  });
});

describe('references longer than Kasa keeps', () => {
  it.each([
    [
      'a CSV bank_tx_id of 129 characters',
      () => csv().replace('ZRT73000001', 'X'.repeat(129)),
      'line 3',
      /^bankTxId "X{40}"\.\.\. is 129 characters; at most 128$/,
    ],
    [
      'a CSV statement id of 141 characters',
      () => csv().replaceAll(',ZRT-20250314,', `,${'S'.repeat(141)},`),
      'line 2',
      /at most 140 are kept/,
    ],
    ['an MT940 reference of 129 characters', () => mt940().replace('//B25073HAV00017', `//${'B'.repeat(129)}`), 'line 5', /bankTxId/],
    [
      'a camt.053 EndToEndId of 129 characters',
      () => camt().replace('FAST-20250315-0184', 'E'.repeat(129)),
      'Stmt[1]/Ntry[1]/NtryDtls[1]/TxDtls[1]',
      /endToEndId/,
    ],
  ])('refuses %s', (_name, body, location, reason) => {
    const error = statementError(() => parseStatements(body(), ''));
    expect(error.location).toBe(location);
    expect(error.reason).toMatch(reason);
  });
});

describe('dates', () => {
  it.each([
    ['a CSV booking on 30 February', '2025-02-30T09:12:00+03:00', /does not exist/],
    ['a CSV booking in year 0', '0000-03-14T09:12:00+03:00', /outside the years 2000 to 2099/],
    ['a CSV booking in year 2100', '2100-03-14', /outside the years 2000 to 2099/],
    ['a CSV booking at hour 25', '2025-03-14T25:00:00Z', /is not YYYY-MM-DD or an ISO 8601 date-time/],
  ])('refuses %s', (_name, date, reason) => {
    const error = statementError(() => parseStatements(csv().replace('2025-03-14T09:12:00+03:00', date), 'text/csv'));
    expect(error).toMatchObject({ location: 'line 3', reason: expect.stringMatching(reason) });
  });

  it('refuses an MT940 entry date of 30 February (the value date exists)', () => {
    const body = mt940().replace(':61:2503140314C1500,00', ':61:2502280230C1500,00');
    expect(statementError(() => parseStatements(body, '')).reason).toBe('date "0230" does not exist');
  });

  it('refuses a camt.053 period in year 0', () => {
    const body = camt().replace(/<ns2:FrDtTm>\d{4}/, '<ns2:FrDtTm>0000');
    expect(statementError(() => parseStatements(body, '')).location).toBe('Stmt[1]/FrToDt/FrDtTm');
  });
});

/** Everything a parse gave is within the limits: what reaches the database always fits it. */
function expectWithinLimits({ statements }: ParsedStatements): void {
  const max = 10n ** BigInt(MAX_AMOUNT_DIGITS);
  const within = (amount: bigint) => amount > -max && amount < max;
  for (const statement of statements) {
    expect(within(statement.openingBalance) && within(statement.closingBalance)).toBe(true);
    expect(statement.id.length).toBeLessThanOrEqual(140);
    for (const line of statement.lines) {
      expect(line.amount >= 0n && within(line.amount)).toBe(true);
      expect(line.bankTxId.length).toBeLessThanOrEqual(128);
      expect(line.bookedAt.getUTCFullYear()).toBeGreaterThanOrEqual(1999); // Istanbul's midnight of 2000-01-01 is in 1999 UTC
      for (const text of [line.description, line.counterpartyName ?? '', line.bankTxId, line.endToEndId ?? '']) {
        // eslint-disable-next-line no-control-regex -- the control characters are what this looks for
        expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
      }
    }
  }
}

describe('a fuzz of the samples', () => {
  // Pieces a mutation inserts: the characters and fragments that break parsers, beside random text.
  const piece = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom(
      '\u0000',
      '\u001b',
      '\u007f',
      '\uFFFD',
      '\ud800',
      '<',
      '>',
      '</',
      '/>',
      '&#0;',
      '&#x7f;',
      '&amp;',
      '"',
      ',',
      '\n',
      '\r\n',
    ),
    fc.constantFrom(
      ':61:',
      ':20:',
      ':62F:',
      ':86:?20',
      '<Ntry>',
      '</Ntry>',
      '<Amt Ccy="TRY">',
      'CRDT',
      'DBIT',
      'BOOK',
      '-',
      '9'.repeat(25),
    ),
    fc.constantFrom('2025-02-30', '0000-01-01', '9999-12-31T23:59:59+14:00', '250230', '991231'),
  );
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: piece }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
    fc.record({
      kind: fc.constant('repeat' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 200 }),
      times: fc.integer({ min: 2, max: 50 }),
    }),
  );
  const mutate = (body: string, mutations: Mutation[]) =>
    mutations.reduce((text, m) => {
      const at = m.at % (text.length + 1);
      if (m.kind === 'insert') return text.slice(0, at) + m.text + text.slice(at);
      if (m.kind === 'delete') return text.slice(0, at) + text.slice(at + m.length);
      return text.slice(0, at) + text.slice(at, at + m.length).repeat(m.times) + text.slice(at + m.length);
    }, body);
  type Mutation =
    | { kind: 'insert'; at: number; text: string }
    | { kind: 'delete'; at: number; length: number }
    | { kind: 'repeat'; at: number; length: number; times: number };

  it.each([
    ['camt053-v02.xml', 'application/xml'],
    ['camt053-v08.xml', ''],
    ['mt940-two-statements.sta', 'text/plain'],
    ['statement.csv', 'text/csv'],
  ])('answers statements within the limits or a StatementError for 100 mutations of %s', (name, contentType) => {
    const original = sample(name);
    let parsed = 0;
    let refused = 0;
    const started = performance.now();
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const body = mutate(original, mutations as Mutation[]);
        let result: ParsedStatements;
        try {
          result = parseStatements(body, contentType);
        } catch (error) {
          if (!(error instanceof StatementError)) throw error;
          expect(error.location).toMatch(/\S/);
          refused += 1;
          return;
        }
        expectWithinLimits(result);
        parsed += 1;
      }),
      { numRuns: 100, seed: 20261127 },
    );
    // The mutations both break the file and leave it readable: the fuzz exercised both paths.
    expect(parsed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe('reading on a worker thread', () => {
  it.each([
    ['camt053-v02.xml', 'application/xml'],
    ['mt940-two-statements.sta', 'text/plain'],
    ['statement.csv', 'text/csv'],
  ])('gives what the calling thread gives for %s', async (name, contentType) => {
    const bytes = Buffer.from(sample(name));
    const offThread = await readStatementFile(bytes, contentType, { offThreadFromBytes: 0 });
    expect(offThread).toEqual(parseStatements(sample(name), contentType));
    expect(offThread.statements[0]?.lines[0]?.amount).toEqual(expect.any(BigInt));
  });

  it('rejects with the same StatementError for a file that cannot be read', async () => {
    const bytes = Buffer.from(csv().replace('AYŞE YILMAZ', 'AYŞE\u0000YILMAZ'));
    const failure = await readStatementFile(bytes, 'text/csv', { offThreadFromBytes: 0 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StatementError);
    expect(failure).toMatchObject(statementError(() => parseStatements(bytes.toString(), 'text/csv')));
  });
});

/**
 * MT940 as banks really send it (issue 33): each variant seen in public real-world files, reproduced in our own
 * Turkish-flavoured samples (test/samples/mt940-*.sta), never in the public files themselves.
 */
import { describe, expect, it } from '@jest/globals';
import { balanceProblem, parseStatements, type ParsedStatements } from '../src/index.js';
import { sample, statementError } from './samples.js';

const read = (name: string): ParsedStatements => parseStatements(sample(name), '');
const lineOf = (body: string, start: string) => `line ${body.split(/\r?\n/).findIndex((line) => line.startsWith(start)) + 1}`;

describe('MT940 envelopes', () => {
  it("reads ING's preamble and `940 00` header, padded types (`NOV `, `NIT `) and the `-XXX` trailer", () => {
    const { format, statements, refused } = read('mt940-ing-envelope.sta');
    expect(format).toBe('mt940');
    expect(refused).toEqual([]);
    expect(statements).toHaveLength(1);
    expect(statements[0]?.lines).toMatchObject([
      { bankTxId: 'NONREF', direction: 'credit', amount: 250_000n, counterpartyIban: 'TR430006701000000012345678' },
      { bankTxId: 'B25324EFT00102', direction: 'debit', amount: 75_000n, description: 'EFT TEDARİKÇİ ÖDEMESİ FATURA 2025-118' },
    ]);
    expect(statements.map(balanceProblem)).toEqual([null]);
  });

  it('reads ABN AMRO-style BIC and `940` lines before each statement, after a `-` separator', () => {
    const { statements } = read('mt940-abn-envelope.sta');
    expect(statements.map((statement) => statement.id)).toEqual(['GAR2511210001/00322/1', 'GAR2511240001/00323/1']);
    expect(statements.map(balanceProblem)).toEqual([null, null]);
  });

  it("reads Rabobank's `:940:` first line", () => {
    expect(read('mt940-rabo-old.sta').statements[0]?.id).toBe('940A251120/00000/00');
  });

  it('reads the SWIFT frame (SOH before a message, ETX after it) and Swedish ISO 646 braces (`ä4:`, `-å`)', () => {
    const body = sample('mt940-ing-envelope.sta').replace(/^(?:0000 |940 ).*\r\n/gm, '');
    const framed = `\u0001\r\n${body.replace('-XXX', '-\u0003')}\u0001\r\n${body.replace('-XXX', '-\u0003')}`;
    expect(parseStatements(framed, '').statements).toHaveLength(2);
    const swedish = `ä1:F01TGBATRISAXXX0000000000åä2:O940TGBATRISAXXXNåä4:\r\n${body.replace('-XXX', '-å')}`;
    expect(parseStatements(swedish, '').statements).toHaveLength(1);
  });

  it('still refuses a control character that is not the frame, and text outside a field that is no envelope', () => {
    const body = sample('mt940-abn-envelope.sta');
    const midLine = body.replace(':20:GAR2511210001', ':20:GAR25112\u000110001');
    expect(statementError(() => parseStatements(midLine, '')).reason).toMatch(/control character U\+0001/);
    const stray = body.replace('-\r\nTGBATRIS', '-\r\nHESAP OZETI\r\nTGBATRIS');
    expect(statementError(() => parseStatements(stray, ''))).toMatchObject({
      location: lineOf(stray, 'HESAP OZETI'),
      reason: 'text "HESAP OZETI" is outside any :tag: field',
    });
    expect(statementError(() => parseStatements(`:9401:\r\n${body}`, 'text/plain')).location).toBe('line 1');
  });
});

describe('MT940 entries', () => {
  it('reads old Rabobank dot-decimal amounts and balances, the name after the padded reference, and every repeated :86:', () => {
    const [statement] = read('mt940-rabo-old.sta').statements;
    expect(statement).toMatchObject({ openingBalance: 1_000_000n, closingBalance: 1_129_950n });
    expect(statement?.lines).toMatchObject([
      { bankTxId: '0123456789', amount: 150_000n, counterpartyName: 'MEHMET DEMİR', description: 'HAVALE KS-9RW3L6 KİRA ÖDEMESİ KASIM' },
      { bankTxId: 'NONREF', amount: 20_050n, direction: 'debit', description: 'KART ÖDEMESİ 14:23' },
    ]);
    expect(balanceProblem(statement!)).toBeNull();
  });

  it('never reads a dot as thousands: `1.500` in TRY is refused, and a comma with a dot too', () => {
    const body = sample('mt940-rabo-old.sta');
    expect(statementError(() => parseStatements(body.replace('C000000001500.00', 'C1.500'), '')).reason).toMatch(/more than 2 decimals/);
    expect(statementError(() => parseStatements(body.replace('C000000001500.00', 'C1.500,00'), '')).reason).toMatch(/not a decimal number/);
  });

  it('reads a 30 February value date (interest in 30-day months) as the last day of February', () => {
    const [statement] = read('mt940-german-structured.sta').statements;
    const interest = statement?.lines[1];
    // Value date 26-02-30, entry date 03-02: booked on the entry date, in the value date's year.
    expect(interest).toMatchObject({ direction: 'debit', amount: 1_250n, bookedAt: new Date('2026-03-02T00:00:00Z') });
    const valueDateOnly = sample('mt940-german-structured.sta').replace(':61:2602300302DR', ':61:260230DR');
    expect(parseStatements(valueDateOnly, '').statements[0]?.lines[1]?.bookedAt).toEqual(new Date('2026-02-28T00:00:00Z'));
    const closing = sample('mt940-german-structured.sta').replace(':62F:C260302', ':62F:C260231');
    expect(parseStatements(closing, '').statements[0]?.to).toEqual(new Date('2026-02-28T00:00:00Z'));
    expect(statementError(() => parseStatements(closing.replace(':62F:C260231', ':62F:C260232'), '')).reason).toBe(
      'date "260232" does not exist',
    );
  });

  it('reads an amount wrapped onto the next line, a blank entry date and a blank before the type', () => {
    const body = [':20:W1', ':25:TR180006200119000006672315', ':28C:1', ':60F:C251119TRY0,00'];
    const lines = [':61:2511201120CR', '30,00N062NONREF', ':61:251120    CD5,00 NTRFNONREF//X2', ':62F:C251120TRY35,00'];
    const parsed = parseStatements([...body, ...lines].join('\n'), '');
    expect(parsed.statements[0]?.lines.map(({ amount, bankTxId }) => [amount, bankTxId])).toEqual([
      [3_000n, 'NONREF'],
      [500n, 'X2'],
    ]);
  });
});

describe('MT940 :86: layouts', () => {
  it('reads a :86: after a :NS: field between it and its :61:, and a reference with blanks before `//` whole', () => {
    const body = [':20:N1', ':25:TR180006200119000006672315', ':28C:1', ':60F:C251119TRY0,00'];
    const entry = [':61:2511201120C5,00NTRFMSGID KS-01  B//X1', ':NS:01Adres', ':86:HAVALE KS-7JJ8KK', ':62F:C251120TRY5,00'];
    const [line] = parseStatements([...body, ...entry].join('\n'), '').statements[0]?.lines ?? [];
    expect(line).toMatchObject({ bankTxId: 'X1', description: 'HAVALE KS-7JJ8KK', counterpartyName: null });
  });

  it('reads `?` subfields after a space and a business code, SEPA keywords in ?2x, ?31 IBAN and ?32/?33 name', () => {
    const [statement] = read('mt940-german-structured.sta').statements;
    expect(statement?.lines[0]).toMatchObject({
      description: 'HAVALE KS-2ZP8V4 YATIRIM',
      endToEndId: 'KS-2ZP8V4',
      counterpartyName: 'AYŞE YILMAZ',
      counterpartyIban: 'TR430006701000000012345678',
    });
  });

  it('keeps a wrapped :86: line that starts like a tag (`:12:`) as its text, while outside a :86: it is refused', () => {
    const body = sample('mt940-german-structured.sta');
    expect(parseStatements(body, '').statements[0]?.lines[1]?.description).toBe(
      'Faiz ve masraf Donem 01.01.-28.02.2026 Islem saati 2026-03-02T10:12:45',
    );
    const outside = body.replace(':62F:C260302TRY6187,50', ':62F:C260302TRY6187,50\r\n:12:45');
    expect(statementError(() => parseStatements(outside, '')).reason).toBe(':12: is not an MT940 field');
  });

  it("reads Triodos's `>` subfields behind a business code", () => {
    expect(read('mt940-abn-envelope.sta').statements[1]?.lines[0]).toMatchObject({
      description: 'KS-6NB4R8 HAVALE YATIRIM',
      counterpartyName: 'ELİF ŞAHİN',
      counterpartyIban: 'TR070004600123888000123456',
    });
  });

  it('reads the slash layouts of ING (CNTP, REMI/USTD, RTRN) and ABN AMRO (TRTP, IBAN, NAME, REMI, EREF)', () => {
    const [statement] = read('mt940-slash-layout.sta').statements;
    expect(statement?.lines).toMatchObject([
      {
        bankTxId: '00000000001005',
        endToEndId: 'KS-8MV3T6',
        counterpartyIban: 'TR070004600123888000123456',
        counterpartyName: 'ELİF ŞAHİN',
        description: 'KS-8MV3T6 YATIRIM',
      },
      { direction: 'debit', endToEndId: 'WD-5KD2', returnReason: 'MS03', counterpartyName: 'CAN ÖZ', description: 'İADE WD-5KD2' },
      // NOTPROVIDED is no reference.
      { endToEndId: null, counterpartyIban: 'TR480011100000000098765432', counterpartyName: 'DENİZ ARSLAN', description: 'KS-3PW7N1' },
    ]);
    expect(balanceProblem(statement!)).toBeNull();
  });

  it('leaves no subfield marker or slash code in any description', () => {
    const names = ['ing-envelope', 'abn-envelope', 'rabo-old', 'german-structured', 'slash-layout', 'two-statements'];
    const descriptions = names.flatMap((name) => read(`mt940-${name}.sta`).statements.flatMap((s) => s.lines.map((l) => l.description)));
    expect(descriptions).toHaveLength(16);
    for (const description of descriptions) expect(description).not.toMatch(/[?>]\d{2}|\/(?:EREF|REMI|NAME|IBAN|CNTP|TRTP|RTRN)\//);
  });

  it('keeps a `-` line inside a :86: that more of its text follows (a mandate reference cut at a dash)', () => {
    const body = [':20:D1', ':25:TR180006200119000006672315', ':28C:1', ':60F:C251119TRY0,00', ':61:2511201120C5,00NTRFNONREF//X1'];
    const details = [':86:/EREF/KS-5GG6HH//MARF/MND', '-', 'EV01//REMI/USTD//KS-5GG6HH/', ':62F:C251120TRY5,00', '-'];
    const [line] = parseStatements([...body, ...details].join('\n'), '').statements[0]?.lines ?? [];
    expect(line).toMatchObject({ endToEndId: 'KS-5GG6HH', description: 'KS-5GG6HH' });
  });
});

describe('one statement of several that cannot be read', () => {
  const body = sample('mt940-one-incomplete.sta');

  it('reads the others and names the one without a closing balance by its :20:, :28C: and line', () => {
    const { statements, refused } = parseStatements(body, '');
    expect(statements.map((statement) => statement.id)).toEqual(['GAR2511250001/00324/001', 'GAR2511270001/00326/001']);
    expect(statements.map(balanceProblem)).toEqual([null, null]);
    expect(refused).toEqual([
      {
        statementId: 'GAR2511260001/00325/001',
        location: lineOf(body, ':20:GAR2511260001'),
        reason: 'statement GAR2511260001/00325/001 ends without a closing balance (:62F: or :62M:); is the file cut short?',
      },
    ]);
  });

  it('refuses the file when no statement can be read, naming the first and counting the others', () => {
    const none = body.replaceAll(/:62F:.*\r\n/g, '');
    expect(statementError(() => parseStatements(none, ''))).toMatchObject({
      location: 'line 1',
      reason:
        'statement GAR2511250001/00324/001 ends without a closing balance (:62F: or :62M:); is the file cut short? ' +
        '(and 2 more statements cannot be read)',
    });
  });

  it('names an MT942 interim report as such', () => {
    const interim = [':20:ARA1', ':25:TR180006200119000006672315', ':28C:7/1', ':34F:TRYD0,00', ':13D:2511201730+0300', ':90C:0TRY0,00'];
    expect(statementError(() => parseStatements(interim.join('\n'), 'text/plain')).reason).toBe(
      'statement ARA1/7/1 is an MT942 interim report (:34F:, :13D:, no :60F: or :62F: balance), not an MT940 statement',
    );
  });

  it('still refuses the whole file for a wrong value in any statement', () => {
    const bad = body.replace(':61:2511271127D40,00', ':61:2511271127D40,001');
    expect(statementError(() => parseStatements(bad, '')).location).toBe(lineOf(bad, ':61:2511271127D'));
  });
});

import { describe, expect, it } from '@jest/globals';
import iconv from 'iconv-lite';
import { decodeStatementBody, parseStatements } from '../src/index.js';
import { sample, statementError } from './samples.js';

const TURKISH = 'ğüşıöçĞÜŞİÖÇ';
/** An MT940 statement whose payer and remittance text are Turkish: what each encoding must bring back letter for letter. */
const mt940 = sample('mt940-two-statements.sta').replace('HAVALE AYŞE YILMAZ', `HAVALE AYŞE YILMAZ ${TURKISH}`);

function bytes(text: string, encoding: string): Uint8Array {
  return Uint8Array.from(iconv.encode(text, encoding));
}

/** Printable ASCII as EBCDIC (IBM037; IBM1026, the Turkish host code page, agrees on these), which iconv-lite lacks. */
function ebcdic(text: string): Uint8Array {
  const runs: Array<[string, number]> = [
    ['abcdefghi', 0x81],
    ['jklmnopqr', 0x91],
    ['stuvwxyz', 0xa2],
    ['ABCDEFGHI', 0xc1],
    ['JKLMNOPQR', 0xd1],
    ['STUVWXYZ', 0xe2],
    ['0123456789', 0xf0],
  ];
  const table = new Map<string, number>(
    runs.flatMap(([letters, first]) => [...letters].map((char, i): [string, number] => [char, first + i])),
  );
  const marks: Record<string, number> = {
    ' ': 0x40,
    '.': 0x4b,
    '<': 0x4c,
    '?': 0x6f,
    ':': 0x7a,
    '/': 0x61,
    '-': 0x60,
    ',': 0x6b,
    '=': 0x7e,
    '"': 0x7f,
    '>': 0x6e,
    '\n': 0x25,
  };
  return Uint8Array.from([...text].map((char) => table.get(char) ?? marks[char] ?? 0x6f));
}
const asciiMt940 =
  ':20:GAR2503140001\n:25:TR180006200119000006672315\n:28C:00073/001\n:60F:C250314TRY125000,00\n:62F:C250314TRY125000,00\n-';

/** The first line's description after decoding and parsing `body` as a generic upload. */
function firstDescription(body: Uint8Array, contentType = 'application/octet-stream'): string | undefined {
  return parseStatements(decodeStatementBody(body, contentType), contentType).statements[0]?.lines[0]?.description;
}

describe('decodeStatementBody tells the encoding from the bytes', () => {
  it.each([
    ['UTF-8', bytes(mt940, 'utf-8')],
    ['UTF-8 with a BOM', Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes(mt940, 'utf-8')])],
    ['UTF-16 LE with a BOM', Uint8Array.from([0xff, 0xfe, ...bytes(mt940, 'utf-16le')])],
    ['UTF-16 BE with a BOM', Uint8Array.from([0xfe, 0xff, ...bytes(mt940, 'utf-16be')])],
    ['UTF-16 LE without a BOM', bytes(mt940, 'utf-16le')],
    ['UTF-16 BE without a BOM', bytes(mt940, 'utf-16be')],
    ['windows-1254', bytes(mt940, 'windows-1254')],
    ['ISO-8859-9', bytes(mt940, 'iso-8859-9')],
    ['CP857 (DOS Turkish)', bytes(mt940, 'cp857')],
  ])('reads %s with every Turkish letter right', (_name, body) => {
    expect(decodeStatementBody(body)).toBe(mt940);
    expect(firstDescription(body)).toContain(`AYŞE YILMAZ ${TURKISH}`);
  });

  it('tells CP857 from windows-1254 by the letters each reads, both ways', () => {
    // The same bytes read the other way give no Turkish letters: the two encodings put them in different places.
    expect(iconv.decode(Buffer.from(bytes(TURKISH, 'cp857')), 'windows-1254')).not.toMatch(/[şğı]/);
    expect(iconv.decode(Buffer.from(bytes(TURKISH, 'windows-1254')), 'cp857')).not.toMatch(/[şğı]/);
    expect(decodeStatementBody(bytes(`:86:ÖDEME ${TURKISH}`, 'cp857'))).toBe(`:86:ÖDEME ${TURKISH}`);
    expect(decodeStatementBody(bytes(`:86:ÖDEME ${TURKISH}`, 'windows-1254'))).toBe(`:86:ÖDEME ${TURKISH}`);
  });

  it('reads a camt.053 document in UTF-16 LE, as Windows tools save it', () => {
    const camt = sample('camt053-v02.xml');
    const body = Uint8Array.from([0xff, 0xfe, ...bytes(camt, 'utf-16le')]);
    expect(parseStatements(decodeStatementBody(body), '').statements[0]?.lines[0]?.counterpartyName).toBe('AYŞE YILMAZ');
  });
});

describe('decodeStatementBody honours a charset in the content type', () => {
  it.each([
    ['text/plain; charset=windows-1254', 'windows-1254'],
    ['text/plain; charset=ISO-8859-9', 'iso-8859-9'],
    ['text/plain; charset="latin5"', 'iso-8859-9'],
    ['text/plain; charset=cp857', 'cp857'],
    ['text/plain; charset=IBM857', 'cp857'],
    ['text/plain;charset=utf-16le', 'utf-16le'],
    ['text/plain; charset=UTF-8', 'utf-8'],
  ])('%s', (contentType, encoding) => {
    expect(decodeStatementBody(bytes(mt940, encoding), contentType)).toBe(mt940);
  });

  it('reads charset=utf-16 by its NUL bytes, and big-endian when they cannot tell', () => {
    expect(decodeStatementBody(bytes(mt940, 'utf-16le'), 'text/plain; charset=utf-16')).toBe(mt940);
    expect(decodeStatementBody(bytes('ĞŞ', 'utf-16be'), 'text/plain; charset=utf-16')).toBe('ĞŞ');
  });

  it('lets a byte order mark outrank the content type', () => {
    const body = Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes(mt940, 'utf-8')]);
    expect(decodeStatementBody(body, 'text/plain; charset=windows-1254')).toBe(mt940);
  });

  it('refuses a charset it does not read, by name, listing the ones it does', () => {
    const error = statementError(() => decodeStatementBody(bytes(mt940, 'utf-8'), 'text/plain; charset=KOI8-R'));
    expect(error.location).toBe('Content-Type');
    expect(error.reason).toBe('charset "KOI8-R" is not one Kasa reads: UTF-8, UTF-16, windows-1254, ISO-8859-9, CP857');
  });

  it('refuses bytes that are not the declared UTF-8 at their line, rather than replacing them', () => {
    const error = statementError(() => decodeStatementBody(bytes(mt940, 'windows-1254'), 'text/plain; charset=utf-8'));
    expect(error.location).toBe(`line ${mt940.split('\n').findIndex((line) => line.includes('AYŞE')) + 1}`);
    expect(error.reason).toMatch(/is not UTF-8 as its content type \(charset=utf-8\) says/);
  });
});

describe('decodeStatementBody refuses what it cannot read, naming what it saw', () => {
  it.each([
    ['UTF-32 with a BOM', Uint8Array.from([0xff, 0xfe, 0, 0, ...bytes(mt940, 'utf-32le')]), /is UTF-32/],
    ['UTF-32 BE with a BOM', Uint8Array.from([0, 0, 0xfe, 0xff, ...bytes(mt940, 'utf-32be')]), /is UTF-32/],
    ['UTF-32 without a BOM', bytes(mt940, 'utf-32le'), /looks like UTF-32/],
    ['EBCDIC MT940', ebcdic(asciiMt940), /is EBCDIC/],
    ['EBCDIC XML', ebcdic('<?xml version="1.0"?><Document/>'), /is EBCDIC/],
    ['EBCDIC that starts otherwise', ebcdic(`\n${asciiMt940}`), /above 0x7F \(EBCDIC, or not text\)/],
    ['a ZIP archive', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), /is a ZIP archive/],
    ['a PDF', bytes('%PDF-1.7\n%âãÏÓ\n', 'latin1'), /is a PDF document/],
  ])('%s', (_name, body, reason) => {
    const error = statementError(() => decodeStatementBody(body));
    expect(error.location).toBe('line 1');
    expect(error.reason).toMatch(reason);
    expect(error.reason).not.toMatch(/no known format/);
  });

  it('refuses CP857 bytes that name no character, at their line, through parseStatements', () => {
    // 0xD5 is unassigned in CP857: decoded as U+FFFD, which the parser refuses at its line.
    const body = Uint8Array.from([...bytes(':20:X\n:25:', 'cp857'), 0xd5]);
    const error = statementError(() => parseStatements(decodeStatementBody(body, 'text/plain; charset=cp857'), 'text/plain'));
    expect(error.location).toBe('line 2');
  });
});

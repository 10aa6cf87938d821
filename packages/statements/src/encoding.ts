/**
 * A statement file's bytes as text. Turkish banks and their customers' tools still write statements in four encodings:
 * UTF-8, UTF-16 (Windows exports), windows-1254 / ISO-8859-9 (Latin-5) and CP857 (DOS Turkish, from old host
 * exports). Each is recognised here, or the bytes are refused naming what they look like: never mis-decoded into
 * wrong letters, and never handed on to be called "no known format".
 */
import iconv from 'iconv-lite';
import { StatementError } from './statement.js';

/** The encodings Kasa reads, as their decoders name them. windows-1254 is ISO-8859-9 plus printable 0x80-0x9F. */
type Charset = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1254' | 'cp857';

/** Charset names a content type may give (lower case), each to the decoder that reads it. */
const CHARSET_NAMES: Readonly<Record<string, Charset | 'utf-16'>> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'utf-16': 'utf-16',
  utf16: 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'iso-8859-9': 'windows-1254',
  iso8859_9: 'windows-1254',
  'iso_8859-9': 'windows-1254',
  latin5: 'windows-1254',
  l5: 'windows-1254',
  'windows-1254': 'windows-1254',
  cp1254: 'windows-1254',
  'x-cp1254': 'windows-1254',
  cp857: 'cp857',
  ibm857: 'cp857',
  '857': 'cp857',
  csibm857: 'cp857',
};

const KNOWN = 'UTF-8, UTF-16, windows-1254, ISO-8859-9, CP857';

/** Letters only Turkish text has; how many a decoding yields tells windows-1254 from CP857. */
const TURKISH_LETTERS = /[çğıöşüÇĞİÖŞÜ]/g;

/**
 * Bytes to text. A byte order mark decides first (UTF-8, UTF-16 LE/BE; UTF-32 is refused); then a charset named in
 * the content type, when it is one Kasa reads (any other is refused by name); then the bytes themselves: valid UTF-8
 * is UTF-8, NUL bytes in every other place are UTF-16, and other bytes are windows-1254 (ISO-8859-9) or CP857,
 * whichever reads as more Turkish letters (CP857 puts them at 0x80-0xA7, where ISO-8859-9 has control characters).
 * Throws StatementError for bytes that are no text in these encodings (UTF-32, EBCDIC, a ZIP or PDF file, ...).
 */
export function decodeStatementBody(bytes: Uint8Array, contentType = ''): string {
  const fromMark = byteOrderMark(bytes);
  if (fromMark) return decode(bytes.subarray(fromMark.length), fromMark.charset, 'its byte order mark');
  const named = declaredCharset(contentType);
  if (named) {
    const charset = named === 'utf-16' ? (utf16ByNuls(bytes) ?? 'utf-16be') : named;
    return decode(bytes, charset, `its content type (charset=${charset})`);
  }
  refuseNonText(bytes);
  const utf16 = utf16ByNuls(bytes);
  if (utf16) return decode(bytes, utf16, 'its NUL bytes');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    refuseMostlyHigh(bytes);
    return singleByteTurkish(bytes);
  }
}

function byteOrderMark(bytes: Uint8Array): { charset: Charset; length: number } | undefined {
  const [a, b, c, d] = bytes;
  if ((a === 0xff && b === 0xfe && c === 0 && d === 0) || (a === 0 && b === 0 && c === 0xfe && d === 0xff)) {
    throw new StatementError(`is UTF-32 (its byte order mark says so); Kasa reads ${KNOWN}: save the file as UTF-8`, 'line 1');
  }
  if (a === 0xef && b === 0xbb && c === 0xbf) return { charset: 'utf-8', length: 3 };
  if (a === 0xff && b === 0xfe) return { charset: 'utf-16le', length: 2 };
  if (a === 0xfe && b === 0xff) return { charset: 'utf-16be', length: 2 };
  return undefined;
}

function declaredCharset(contentType: string): Charset | 'utf-16' | undefined {
  const name = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType)?.[1];
  if (name === undefined || name === '') return undefined;
  const charset = CHARSET_NAMES[name.toLowerCase()];
  if (!charset) {
    throw new StatementError(`charset ${JSON.stringify(name.slice(0, 40))} is not one Kasa reads: ${KNOWN}`, 'Content-Type');
  }
  return charset;
}

/** Decodes strictly: bytes that are not text in `charset` are refused at their line, never replaced by U+FFFD. */
function decode(bytes: Uint8Array, charset: Charset, why: string): string {
  if (charset === 'windows-1254') return new TextDecoder('windows-1254').decode(bytes);
  if (charset === 'cp857') return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'cp857');
  try {
    return new TextDecoder(charset, { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder(charset).decode(bytes);
    const bad = text.indexOf('\uFFFD');
    const line = text.slice(0, bad).split('\n').length;
    const name = charset === 'utf-8' ? 'UTF-8' : `UTF-16 ${charset.slice(-2).toUpperCase()}`;
    throw new StatementError(
      `is not ${name} as ${why} says: a byte there is not ${name} text (send it without a charset, or with its own)`,
      `line ${line}`,
    );
  }
}

/** How many bytes of the start are looked at to tell an encoding: enough for any header, cheap for 10 MiB. */
const SAMPLE = 4096;

/**
 * UTF-16 without a byte order mark, told by where its NUL bytes are: text that is mostly ASCII has a NUL in every
 * other byte (the high half of each code unit), first for big-endian, second for little-endian.
 */
function utf16ByNuls(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const sample = bytes.subarray(0, SAMPLE & ~1);
  if (sample.length < 4) return undefined;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] === 0) {
      if (i % 2 === 0) evenNuls++;
      else oddNuls++;
    }
  }
  const half = sample.length / 2;
  if (oddNuls > half * 0.5 && evenNuls < half * 0.05) return 'utf-16le';
  if (evenNuls > half * 0.5 && oddNuls < half * 0.05) return 'utf-16be';
  return undefined;
}

/** File types sent by mistake, told by their first bytes. */
const NOT_TEXT: ReadonlyArray<[string, number[]]> = [
  ['a ZIP archive (or an .xlsx/.docx file)', [0x50, 0x4b, 0x03, 0x04]],
  ['a PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['an old Excel/Word (OLE) file', [0xd0, 0xcf, 0x11, 0xe0]],
  ['gzip-compressed', [0x1f, 0x8b]],
];

/** `<?xml` and `:20:` as EBCDIC (IBM host code pages 037/1026 agree on these), the start of an XML or a SWIFT statement. */
const EBCDIC_STARTS = [
  [0x4c, 0x6f, 0xa7, 0x94, 0x93],
  [0x7a, 0xf2, 0xf0, 0x7a],
];

/** Refuses bytes that are no text in any encoding Kasa reads, naming what they look like. */
function refuseNonText(bytes: Uint8Array): void {
  const startsWith = (prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
  const kind = NOT_TEXT.find(([, magic]) => startsWith(magic))?.[0];
  if (kind) throw new StatementError(`is ${kind}, not a statement's text (docs/statements.md names the formats Kasa reads)`, 'line 1');
  if (EBCDIC_STARTS.some(startsWith)) {
    throw new StatementError(`is EBCDIC (an IBM host's encoding); Kasa reads ${KNOWN}: convert the file first`, 'line 1');
  }
  const sample = bytes.subarray(0, SAMPLE);
  let quads = 0;
  for (let i = 0; i + 3 < sample.length; i += 4) {
    if ((sample[i + 1] === 0 && sample[i + 2] === 0) || (sample[i] === 0 && sample[i + 1] === 0)) quads++;
  }
  if (sample.length >= 8 && quads > sample.length / 4 / 2) {
    throw new StatementError(`looks like UTF-32 (three NUL bytes in every four); Kasa reads ${KNOWN}: save the file as UTF-8`, 'line 1');
  }
}

/** Refuses a body that is not UTF-8 and mostly bytes above 0x7F: no single-byte Turkish text looks like that. */
function refuseMostlyHigh(bytes: Uint8Array): void {
  const sample = bytes.subarray(0, SAMPLE);
  let high = 0;
  for (const byte of sample) if (byte >= 0x80) high++;
  // Turkish text in a single-byte encoding is mostly ASCII; EBCDIC and binary data are mostly not.
  if (sample.length >= 64 && high > sample.length * 0.3) {
    throw new StatementError(
      `is not text in an encoding Kasa reads (${KNOWN}): ${Math.round((high * 100) / sample.length)}% of its first bytes are above 0x7F (EBCDIC, or not text)`,
      'line 1',
    );
  }
}

/** Not UTF-8: windows-1254 (ISO-8859-9) or CP857, whichever reads as more Turkish letters; windows-1254 on a tie. */
function singleByteTurkish(bytes: Uint8Array): string {
  const latin5 = new TextDecoder('windows-1254').decode(bytes);
  const dos = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'cp857');
  const letters = (text: string) => text.match(TURKISH_LETTERS)?.length ?? 0;
  return letters(dos) > letters(latin5) ? dos : latin5;
}

import { formatOf } from './formats/index.js';
import { checkBodyText } from './limits.js';
import { StatementError, type ParsedStatements } from './statement.js';

/**
 * Reads a bank statement body into statements. The content type picks the format when it names one (formats/: XML
 * types are camt.053, `text/csv` CSV, anything with `mt940` MT940); a generic one (`text/plain`,
 * `application/octet-stream`, '') is settled by the body's first characters. Throws StatementError, naming what is wrong and where, for any bad input.
 */
export function parseStatements(body: string, contentType: string): ParsedStatements {
  const text = body.startsWith('\uFEFF') ? body.slice(1) : body;
  const replaced = text.indexOf('\uFFFD');
  if (replaced !== -1) {
    throw new StatementError(
      'holds U+FFFD, the mark of bytes that were not UTF-8: decode ISO-8859-9 bodies with decodeStatementBody',
      `line ${text.slice(0, replaced).split('\n').length}`,
    );
  }
  checkBodyText(text);
  const format = formatOf(text, contentType);
  return { format: format.name, statements: format.parse(text) };
}

/**
 * Bytes to text: UTF-8 when they are valid UTF-8 (a BOM is dropped), else ISO-8859-9 (Turkish Latin-5, read as its
 * superset windows-1254), which some Turkish banks still send. A charset in the content type is honoured when it is one
 * of these; an ISO-8859-9 body is rarely valid UTF-8, because its Turkish letters are single high bytes.
 */
export function decodeStatementBody(bytes: Uint8Array, contentType = ''): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset && ['iso-8859-9', 'windows-1254', 'latin5', 'cp1254'].includes(charset)) return new TextDecoder('iso-8859-9').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('iso-8859-9').decode(bytes);
  }
}

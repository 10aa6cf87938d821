import { formatOf, type StatementFormatDescriptor } from './formats/index.js';
import { checkBodyText } from './limits.js';
import { StatementError, type ParsedStatements } from './statement.js';

/** Bytes to text (encoding.ts), here as well so that it is found beside the parsing it comes before. */
export { decodeStatementBody } from './encoding.js';

/**
 * Reads a bank statement body into statements. The content type picks the format when it names one (each
 * descriptor in formats/ says which types name it); a generic one (`text/plain`, `application/octet-stream`, '') is
 * settled by the body's first characters. Throws StatementError, naming what is wrong and where, for any bad input.
 */
export function parseStatements(body: string, contentType: string): ParsedStatements {
  const text = body.startsWith('\uFEFF') ? body.slice(1) : body;
  const replaced = text.indexOf('\uFFFD');
  if (replaced !== -1) {
    throw new StatementError(
      'holds U+FFFD, the mark of bytes that were not UTF-8 (or not text in the encoding they were read in): pass the bytes to decodeStatementBody, which tells the encoding',
      `line ${text.slice(0, replaced).split('\n').length}`,
    );
  }
  const format = formatOf(text, contentType);
  const { withoutEnvelope }: StatementFormatDescriptor = format;
  checkBodyText(withoutEnvelope ? withoutEnvelope(text) : text);
  return { format: format.name, ...format.parse(text) };
}

import { StatementError } from '../statement.js';
import { camt053Format } from './camt053.format.js';
import { csvFormat } from './csv.format.js';
import type { StatementFormatDescriptor } from './format.js';
import { mt940Format } from './mt940.format.js';

export type { StatementFormatDescriptor } from './format.js';

/**
 * Every format Kasa reads, in the order a tie in detection is settled. Adding a format is a descriptor file and its
 * samples: the content types the ledger takes, the console's and the CLI's file choices, docs/statements.md's table
 * and the sample tests all come from this list.
 */
export const STATEMENT_FORMATS = [camt053Format, mt940Format, csvFormat] as const satisfies readonly StatementFormatDescriptor[];

/** A format Kasa reads: one of the registry's descriptors. */
export type RegisteredFormat = (typeof STATEMENT_FORMATS)[number];
/** A format's name, as an import's answer and a stored statement give it: one of the descriptors'. */
export type StatementFormat = RegisteredFormat['name'];

/** Types that say nothing about the format (a browser's or curl's default): the body decides. */
export const GENERIC_CONTENT_TYPES: readonly string[] = ['text/plain', 'application/octet-stream'];

/** The bare, lower-case media type of a Content-Type header value: `text/csv; charset=utf-8` is `text/csv`. */
function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function names(format: StatementFormatDescriptor, type: string): boolean {
  return format.contentTypes.includes(type) || (format.contentTypePattern?.test.test(type) ?? false);
}

/** The format a content type names, or null for a generic or unknown one. */
export function formatNamedBy(contentType: string): RegisteredFormat | null {
  const type = mediaType(contentType);
  return STATEMENT_FORMATS.find((format) => names(format, type)) ?? null;
}

/** Whether the ledger takes a file sent with this Content-Type: a type naming a format, or a generic one. */
export function isStatementContentType(contentType: string): boolean {
  const type = mediaType(contentType);
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(type)) return false;
  return GENERIC_CONTENT_TYPES.includes(type) || STATEMENT_FORMATS.some((format) => names(format, type));
}

/**
 * The format of a body: the one its content type names, else the one its first characters point to most surely.
 * Throws a StatementError at line 1 when neither tells.
 */
export function formatOf(body: string, contentType: string): RegisteredFormat {
  const named = formatNamedBy(contentType);
  if (named) return named;
  let best: { format: RegisteredFormat; confidence: number } | null = null;
  for (const format of STATEMENT_FORMATS) {
    const confidence = format.detect(body);
    if (confidence > 0 && (!best || confidence > best.confidence)) best = { format, confidence };
  }
  if (best) return best.format;
  throw new StatementError(
    `content type ${JSON.stringify(contentType)} and the body name no known format (${STATEMENT_FORMATS.map((f) => f.label).join(', ')})`,
    'line 1',
  );
}

/** The format an operator picked by its word (`camt`, `mt940`, `csv`), or null. */
export function formatByChoice(choice: string): RegisteredFormat | null {
  return STATEMENT_FORMATS.find((format) => format.choice === choice) ?? null;
}

/** The format a file name's ending gives (`.xml`, `.sta`, ...), or null. */
export function formatByFileName(fileName: string): RegisteredFormat | null {
  const name = fileName.toLowerCase();
  return STATEMENT_FORMATS.find((format) => format.extensions.some((ext) => name.endsWith(ext))) ?? null;
}

/** Every file ending Kasa knows, for a file input's `accept` attribute: `.xml,.sta,...`. */
export const ACCEPTED_EXTENSIONS: readonly string[] = STATEMENT_FORMATS.flatMap((format) => format.extensions);

/** The formats and their file endings in words: "camt.053 (.xml, .camt, .053), MT940 (.sta, .mt940, .940, .txt) or Kasa's CSV (.csv)". */
export const ACCEPTED_FILES_TEXT = listInWords(STATEMENT_FORMATS.map((f) => `${f.label} (${f.extensions.join(', ')})`));

/** The Content-Type each format is sent with, in words: "application/xml (camt.053), text/plain (MT940) or text/csv (Kasa's CSV)". */
export const UPLOAD_CONTENT_TYPES_TEXT = listInWords(STATEMENT_FORMATS.map((f) => `${f.uploadContentType} (${f.label})`));

/** The words an operator may pick a format by, in words: "camt, mt940 or csv". */
export const FORMAT_CHOICES_TEXT = listInWords(STATEMENT_FORMATS.map((f) => f.choice));

function listInWords(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

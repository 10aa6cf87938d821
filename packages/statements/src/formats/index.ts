import { StatementError } from '../statement.js';
import type { StatementFormatDescriptor } from './format.js';
import { FORMAT_DESCRIPTORS } from './generated/format-descriptors.js';

export type { StatementFormatDescriptor } from './format.js';

/** A format Kasa reads: one of the descriptors of this folder's `*.format.ts` files. */
export type RegisteredFormat = (typeof FORMAT_DESCRIPTORS)[number];
/** A format's name, as an import's answer and a stored statement give it: one of the descriptors'. */
export type StatementFormat = RegisteredFormat['name'];

/**
 * Every format Kasa reads, by its `precedence`: the order a tie in detection is settled, a family's content type falls
 * back to its first, and the console and the CLI offer them. Adding a format is a descriptor file and its samples:
 * `node scripts/docs-tables.mjs` lists the file (generated/format-descriptors.ts), and the content types the ledger
 * takes, the sample tests, and what the same command writes from this list (docs/statements.md's table and prose, and
 * the catalog the console, the CLI and the ops contract read: catalog.ts) all come from it.
 */
export const STATEMENT_FORMATS: readonly RegisteredFormat[] = byPrecedence(FORMAT_DESCRIPTORS);

/** The descriptors lowest `precedence` first; two with one precedence are refused, as their order would be a guess. */
function byPrecedence(descriptors: readonly RegisteredFormat[]): readonly RegisteredFormat[] {
  const ordered = [...descriptors].sort((a, b) => a.precedence - b.precedence);
  ordered.forEach((format, at) => {
    const before = ordered[at - 1];
    if (before && before.precedence === format.precedence) {
      throw new Error(`statement formats ${before.name} and ${format.name} share precedence ${format.precedence}: give one another`);
    }
  });
  return ordered;
}

/** Types that say nothing about the format (a browser's or curl's default): the body decides. */
export const GENERIC_CONTENT_TYPES: readonly string[] = ['text/plain', 'application/octet-stream'];

/** The bare, lower-case media type of a Content-Type header value: `text/csv; charset=utf-8` is `text/csv`. */
function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function names(format: StatementFormatDescriptor, type: string): boolean {
  return format.contentTypes.includes(type) || (format.contentTypePattern?.test.test(type) ?? false);
}

/** The formats a content type names, in the registry's order: none for a generic or unknown one, several for a family's. */
export function formatsNamedBy(contentType: string): RegisteredFormat[] {
  const type = mediaType(contentType);
  return STATEMENT_FORMATS.filter((format) => names(format, type));
}

/** Whether the ledger takes a file sent with this Content-Type: a type naming a format, or a generic one. */
export function isStatementContentType(contentType: string): boolean {
  const type = mediaType(contentType);
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(type)) return false;
  return GENERIC_CONTENT_TYPES.includes(type) || STATEMENT_FORMATS.some((format) => names(format, type));
}

/**
 * The format of a body: the one its content type names; among several it names (a family's, as `application/xml`
 * names camt.053 and camt.052), the one its first characters point to most surely, else the first; for a generic
 * type, the one of all its first characters point to most surely. Throws a StatementError at line 1 when none tells.
 */
export function formatOf(body: string, contentType: string): RegisteredFormat {
  const [first, ...others] = formatsNamedBy(contentType);
  // Of a family, the first is read when the body points to none: its parser then names what the body is instead.
  if (first) return others.length === 0 ? first : (surestOf([first, ...others], body) ?? first);
  const surest = surestOf(STATEMENT_FORMATS, body);
  if (surest) return surest;
  throw new StatementError(
    `content type ${JSON.stringify(contentType)} and the body name no known format (${STATEMENT_FORMATS.map((f) => f.label).join(', ')})`,
    'line 1',
  );
}

/** The format `body`'s first characters point to most surely of `formats` (the first on a tie), or null for none. */
function surestOf(formats: readonly RegisteredFormat[], body: string): RegisteredFormat | null {
  let best: { format: RegisteredFormat; confidence: number } | null = null;
  for (const format of formats) {
    const confidence = format.detect(body);
    if (confidence > 0 && (!best || confidence > best.confidence)) best = { format, confidence };
  }
  return best?.format ?? null;
}

/** The format an operator picked by its word (`camt`, `camt052`, `mt940`, `csv`), or null. */
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

/** The formats and their file endings in words: "camt.053 (.xml, .camt, .053), camt.052 (.052), ... or Kasa's CSV (.csv)". */
export const ACCEPTED_FILES_TEXT = listInWords(STATEMENT_FORMATS.map((f) => `${f.label} (${f.extensions.join(', ')})`));

/**
 * The Content-Type each format is sent with, in words: "application/xml (camt.053, camt.052), text/plain (MT940) or
 * text/csv (Kasa's CSV)".
 */
export const UPLOAD_CONTENT_TYPES_TEXT = listInWords(
  [...new Set(STATEMENT_FORMATS.map((f) => f.uploadContentType))].map(
    (type) =>
      `${type} (${STATEMENT_FORMATS.filter((f) => f.uploadContentType === type)
        .map((f) => f.label)
        .join(', ')})`,
  ),
);

/** The words an operator may pick a format by, in words: "camt, camt052, mt940 or csv". */
export const FORMAT_CHOICES_TEXT = listInWords(STATEMENT_FORMATS.map((f) => f.choice));

function listInWords(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

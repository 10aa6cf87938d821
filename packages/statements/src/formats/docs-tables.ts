import { BANK_PROFILES, UNSOURCED_BANKS, type BankProfile } from '../profiles/index.js';
import { GENERIC_CONTENT_TYPES, STATEMENT_FORMATS, type StatementFormatDescriptor } from './index.js';

/**
 * docs/statements.md's tables and each format's prose made from the registries, so the docs cannot drift from the
 * code: a test holds the file equal to {@link withGeneratedTables} of itself, and `node scripts/docs-tables.mjs`
 * rewrites it.
 */
export const GENERATED_TABLES: Record<string, () => string> = {
  formats: formatsTable,
  'format-reading': formatReading,
  'format-refusals': formatRefusals,
  'bank-profiles': bankProfilesTable,
};

/** `markdown` with the text between each `<!-- NAME:start ... -->` and `<!-- NAME:end -->` made anew. */
export function withGeneratedTables(markdown: string): string {
  return withGeneratedBlocks(markdown, GENERATED_TABLES, 'docs/statements.md');
}

/**
 * `markdown` (the file `file`) with the text between each `<!-- NAME:start ... -->` and `<!-- NAME:end -->` made anew
 * by `tables[NAME]`; a block missing from the file is an error naming it.
 */
export function withGeneratedBlocks(markdown: string, tables: Record<string, () => string>, file: string): string {
  let out = markdown;
  for (const [name, make] of Object.entries(tables)) {
    const block = new RegExp(`(<!-- ${name}:start[^>]*-->\\n)[\\s\\S]*?(<!-- ${name}:end -->)`);
    if (!block.test(out)) throw new Error(`${file} has no <!-- ${name}:start --> ... <!-- ${name}:end --> block`);
    out = out.replace(block, (_, start: string, end: string) => `${start}\n${make()}\n\n${end}`);
  }
  return out;
}

const code = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(', ');

function formatsTable(): string {
  return markdownTable(
    ['Format', 'Content types that name it', 'A generic type is settled when', 'File endings', 'Picked as'],
    STATEMENT_FORMATS.map((format) => [
      format.label,
      [code(format.contentTypes), 'contentTypePattern' in format ? format.contentTypePattern.inWords : ''].filter(Boolean).join('; '),
      format.recognisedBy,
      code(format.extensions),
      `\`${format.choice}\``,
    ]),
  ).concat(`\n\nGeneric types (${code(GENERIC_CONTENT_TYPES)}, or none) are settled by the body${sharedTypesInWords()}.`);
}

/** Each format's paragraph on how it is read unlike its family's column of the Fields table, for those that have one. */
function formatReading(): string {
  return STATEMENT_FORMATS.flatMap((format: StatementFormatDescriptor) =>
    format.reads === undefined ? [] : [wrapped(`**${format.label}** ${format.reads}`, '')],
  ).join('\n\n');
}

/** "What is refused": a bullet a format, in the registry's order. */
function formatRefusals(): string {
  return STATEMENT_FORMATS.map((format) => wrapped(`- **${format.label}:** ${format.refuses}`, '  ')).join('\n');
}

/**
 * Prose in lines of at most 120 columns, as the hand-written ones are, broken at spaces but never inside a code span;
 * `indent` begins every line but the first. A word that would open a block at a line's start (`+`, `-`, `1.`, `#`,
 * `>`) stays on the line before.
 */
export function wrapped(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  // A code span's spaces are held while the text is split into words.
  const words = text
    .replace(/`[^`]*`/g, (span) => span.replaceAll(' ', '\u0000'))
    .split(' ')
    .map((word) => word.replaceAll('\u0000', ' '));
  for (const word of words) {
    if (line !== '' && width(`${line} ${word}`) > 120 && !OPENS_A_BLOCK.test(word)) {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return [...lines, line].join('\n');
}

const OPENS_A_BLOCK = /^(?:[-+*]|#{1,6}|\d{1,9}[.)]|>.*|=+|-+)$/;

/** The content types several formats share, the body settling among those: ", as is ... (`a`, `b`: x, y) among them". */
function sharedTypesInWords(): string {
  const byFormats = new Map<string, string[]>();
  for (const type of new Set(STATEMENT_FORMATS.flatMap((format) => format.contentTypes))) {
    const named = STATEMENT_FORMATS.filter(({ contentTypes }: StatementFormatDescriptor) => contentTypes.includes(type));
    if (named.length > 1) {
      const formats = named.map((format) => format.label).join(', ');
      byFormats.set(formats, [...(byFormats.get(formats) ?? []), type]);
    }
  }
  if (byFormats.size === 0) return '';
  const groups = [...byFormats].map(([formats, types]) => `${code(types)}: ${formats}`);
  return `, as is a type that names several formats (${groups.join('; ')}) among them`;
}

function bankProfilesTable(): string {
  const sourced = markdownTable(
    ['Bank', 'IBAN bank code', "Sender's name", 'Source'],
    BANK_PROFILES.map((profile: BankProfile) => [
      profile.bank,
      `\`${profile.bankCode}\``,
      profile.senderName?.inWords ?? 'not read',
      `[${profile.source.title}](${profile.source.url}): ${profile.source.shows}`,
    ]),
  );
  const unsourced = UNSOURCED_BANKS.map(({ bank, bankCode }) => `${bank} (\`${bankCode}\`)`).join(', ');
  return `${sourced}\n\nNo public source found, so the generic reading only: ${unsourced}.`;
}

/** A Markdown table laid out as Prettier lays it out (columns padded to their widest cell), so the check stays green. */
export function markdownTable(header: string[], rows: string[][]): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const all = [header, ...rows].map((row) => row.map(escape));
  const widths = header.map((_, column) => Math.max(3, ...all.map((row) => width(row[column] ?? ''))));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - width(cell))).join(' | ')} |`;
  const [head = [], ...body] = all;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.map(line)].join('\n');
}

function width(text: string): number {
  return [...text].length;
}

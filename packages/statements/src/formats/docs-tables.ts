import { BANK_PROFILES, UNSOURCED_BANKS, type BankProfile } from '../profiles/index.js';
import { GENERIC_CONTENT_TYPES, STATEMENT_FORMATS } from './index.js';

/**
 * docs/statements.md's tables made from the registries, so the docs cannot drift from the code: a test holds the file
 * equal to {@link withGeneratedTables} of itself, and `node scripts/docs-tables.mjs` rewrites it.
 */
export const GENERATED_TABLES: Record<string, () => string> = {
  formats: formatsTable,
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

function formatsTable(): string {
  const code = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(', ');
  return markdownTable(
    ['Format', 'Content types that name it', 'A generic type is settled when', 'File endings', 'Picked as'],
    STATEMENT_FORMATS.map((format) => [
      format.label,
      [code(format.contentTypes), 'contentTypePattern' in format ? format.contentTypePattern.inWords : ''].filter(Boolean).join('; '),
      format.recognisedBy,
      code(format.extensions),
      `\`${format.choice}\``,
    ]),
  ).concat(`\n\nGeneric types (${GENERIC_CONTENT_TYPES.map((t) => `\`${t}\``).join(', ')}, or none) are settled by the body.`);
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

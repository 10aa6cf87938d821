import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import {
  ACCEPTED_EXTENSIONS,
  ACCEPTED_FILES_TEXT,
  STATEMENT_FORMATS,
  UPLOAD_CONTENT_TYPES_TEXT,
  formatByChoice,
  formatByFileName,
  formatsNamedBy,
  isStatementContentType,
  parseStatements,
} from '../src/index.js';
import { DESCRIPTOR_LIST_FILE, formatDescriptorList } from '../src/formats/descriptor-list.js';
import { withGeneratedTables } from '../src/formats/docs-tables.js';
import type { StatementFormatDescriptor } from '../src/formats/format.js';
import { sample } from './samples.js';

describe("the registry's list of formats", () => {
  it("is the list the folder's *.format.ts files make (node scripts/docs-tables.mjs writes it; --check fails when it differs)", () => {
    const list = readFileSync(new URL(`../../../${DESCRIPTOR_LIST_FILE}`, import.meta.url), 'utf8');
    expect(list).toBe(formatDescriptorList());
    expect(list).toMatch(/^\/\/ Written by `node scripts\/docs-tables\.mjs`[^\n]*\n\/\/ do not edit/);
  });

  it('holds every descriptor the folder exports, each once, and nothing else', async () => {
    const folder = new URL('../src/formats/', import.meta.url);
    const files = readdirSync(folder).filter((file) => file.endsWith('.format.ts'));
    const declared: unknown[] = [];
    for (const file of files) declared.push(...Object.values(await import(new URL(file, folder).href)));
    expect(declared.length).toBe(files.length);
    expect(new Set(STATEMENT_FORMATS)).toEqual(new Set(declared));
    expect(STATEMENT_FORMATS.length).toBe(declared.length);
  });

  it('stands in the order of the precedences, no two the same', () => {
    const precedences = STATEMENT_FORMATS.map((format: StatementFormatDescriptor) => format.precedence);
    expect(precedences.every((precedence, at) => at === 0 || precedence > (precedences[at - 1] ?? precedence))).toBe(true);
    // camt.053 first of the XML family: a body the family's types name and none of them recognises goes to its parser,
    // which names the document type it found.
    for (const type of ['application/xml', 'text/xml', 'application/vnd.iso20022.camt+xml']) {
      expect(formatsNamedBy(type)[0]?.name).toBe('camt.053');
    }
  });
});

describe('each registered format', () => {
  const samples = STATEMENT_FORMATS.flatMap((format) => format.samples.map((file) => [format.name, file, format] as const));

  it.each(samples)('%s: its sample %s is detected from the body alone and parses', (name, file) => {
    const parsed = parseStatements(sample(file), '');
    expect(parsed.format).toBe(name);
    expect(parsed.statements.length).toBeGreaterThan(0);
    expect(parsed.statements.every((statement) => statement.lines.length > 0)).toBe(true);
  });

  it.each(samples)('%s: its sample %s parses sent with the type an upload uses and with each type naming it', (name, file, format) => {
    for (const type of [format.uploadContentType, ...format.contentTypes]) {
      expect(parseStatements(sample(file), `${type}; charset=utf-8`).format).toBe(name);
    }
  });

  it('has a name, a choice word and file endings of its own', () => {
    const unique = (values: readonly string[]) => new Set(values).size === values.length;
    expect(unique(STATEMENT_FORMATS.map((f) => f.name))).toBe(true);
    expect(unique(STATEMENT_FORMATS.map((f) => f.choice))).toBe(true);
    expect(unique(ACCEPTED_EXTENSIONS)).toBe(true);
    for (const format of STATEMENT_FORMATS) {
      expect(formatByChoice(format.choice)).toBe(format);
      for (const ext of format.extensions) expect(formatByFileName(`Ekstre_2025-03${ext.toUpperCase()}`)).toBe(format);
    }
  });
});

describe('content types', () => {
  it.each([
    ['application/xml', 'camt.053, camt.052'],
    ['text/xml; charset=utf-8', 'camt.053, camt.052'],
    ['application/vnd.iso20022.camt+xml', 'camt.053, camt.052'],
    ['application/x-mt940', 'mt940'],
    ['text/swift', 'mt940'],
    ['TEXT/CSV', 'csv'],
    ['application/csv', 'csv'],
  ])('%s names %s, and the ledger takes it', (type, names) => {
    expect(formatsNamedBy(type).map((format) => format.name)).toEqual(names.split(', '));
    expect(isStatementContentType(type)).toBe(true);
  });

  it('takes a generic type, leaving the format to the body', () => {
    for (const type of ['text/plain', 'application/octet-stream; charset=windows-1254']) {
      expect(formatsNamedBy(type)).toEqual([]);
      expect(isStatementContentType(type)).toBe(true);
    }
  });

  it('settles a type several formats share by the body, else gives it to the first, whose parser says what it found', () => {
    for (const type of ['application/xml', 'text/xml', 'application/vnd.iso20022.camt+xml', '']) {
      expect(parseStatements(sample('camt052-v08-hbci4java.xml'), type).format).toBe('camt.052');
      expect(parseStatements(sample('camt053-v08.xml'), type).format).toBe('camt.053');
    }
    const camt054 = sample('camt052-v08-hbci4java.xml').replaceAll('camt.052.001.08', 'camt.054.001.08');
    expect(() => parseStatements(camt054, 'application/xml')).toThrow(
      'document is camt.054.001.08, not a camt.053 bank-to-customer statement',
    );
  });

  it('refuses a type that is no statement, or no media type at all', () => {
    for (const type of ['image/png', 'text/html', 'application/json', 'multipart/form-data; boundary=x', 'mt940', '', 'text/']) {
      expect(isStatementContentType(type)).toBe(false);
    }
  });

  it('says which files it takes in words, from the registry', () => {
    expect(ACCEPTED_FILES_TEXT).toBe(
      "camt.053 (.xml, .camt, .053), camt.052 (.052), MT940 (.sta, .mt940, .940, .txt) or Kasa's CSV (.csv)",
    );
    expect(UPLOAD_CONTENT_TYPES_TEXT).toBe("application/xml (camt.053, camt.052), text/plain (MT940) or text/csv (Kasa's CSV)");
  });
});

describe('docs/statements.md', () => {
  it('holds the tables the registries generate (node scripts/docs-tables.mjs rewrites them)', () => {
    const docs = readFileSync(new URL('../../../docs/statements.md', import.meta.url), 'utf8');
    expect(withGeneratedTables(docs)).toBe(docs);
  });
});

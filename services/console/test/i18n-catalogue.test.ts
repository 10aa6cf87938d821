/**
 * The console's message catalogue: both languages hold every key with the same placeholders, keys stay in their
 * area, and no page or view writes words an operator reads outside the catalogue (a scan of every html`` template
 * and page title in services/console/src).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { OPS_RECORD_KINDS } from '@kasa/contracts';
import { AREAS, MESSAGES, t, th, withLocale, type MessageKey } from '../src/i18n/index.js';
import { html } from '../src/views/html.js';
import { formatBooked, formatDay, formatTime } from '../src/views/format.js';

const SRC = fileURLToPath(new URL('../src', import.meta.url));

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string).sort();
}

describe('the message catalogue', () => {
  it('holds every key in Turkish and English, non-empty, with the same placeholders', () => {
    const en = Object.keys(MESSAGES.en).sort();
    expect(Object.keys(MESSAGES.tr).sort()).toEqual(en);
    const problems: string[] = [];
    for (const key of en as MessageKey[]) {
      if (!MESSAGES.en[key].trim()) problems.push(`${key}: empty in English`);
      if (!MESSAGES.tr[key].trim()) problems.push(`${key}: empty in Turkish`);
      if (placeholders(MESSAGES.en[key]).join() !== placeholders(MESSAGES.tr[key]).join())
        problems.push(`${key}: placeholders ${placeholders(MESSAGES.en[key]).join()} vs ${placeholders(MESSAGES.tr[key]).join()}`);
      if (/[<>]/.test(MESSAGES.en[key] + MESSAGES.tr[key])) problems.push(`${key}: markup belongs in a parameter`);
    }
    expect(problems).toEqual([]);
    expect(en.length).toBeGreaterThan(50);
  });

  it("has words for every status a record kind's ops views can show (a new kind's new status among them)", () => {
    // A status without words would show as its code lower-cased (statusLabel), in English on a Turkish page too.
    const statuses = new Set<string>();
    for (const kind of Object.values(OPS_RECORD_KINDS))
      for (const schema of Object.values(kind.responseSchemas)) {
        const status: unknown = 'properties' in schema ? Object.getOwnPropertyDescriptor(schema.properties, 'status')?.value : undefined;
        if (typeof status === 'object' && status !== null && 'enum' in status && Array.isArray(status.enum))
          for (const value of status.enum) statuses.add(String(value));
      }
    expect(statuses).toContain('APPLIED');
    const missing = [...statuses].filter(
      (status) => !(`components.status.${status}` in MESSAGES.en && `components.status.${status}` in MESSAGES.tr),
    );
    expect(missing).toEqual([]);
  });

  it('keeps each key in its own area, once', () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const [area, catalogue] of Object.entries(AREAS)) {
      for (const key of Object.keys(catalogue.en)) {
        if (!key.startsWith(`${area}.`)) problems.push(`${key} is in area ${area}`);
        if (seen.has(key)) problems.push(`${key} is in ${seen.get(key)} and ${area}`);
        seen.set(key, area);
      }
      expect(Object.keys(catalogue.tr).sort()).toEqual(Object.keys(catalogue.en).sort());
    }
    expect(problems).toEqual([]);
  });

  it("fills placeholders, escapes a message around markup, and follows the request's language", () => {
    expect(withLocale('en', () => t('common.titleSuffix', { title: 'Deposits' }))).toBe('Deposits · Kasa Console');
    expect(withLocale('tr', () => t('common.titleSuffix', { title: 'Yatırımlar' }))).toBe('Yatırımlar · Kasa Konsol');
    expect(withLocale('tr', () => th('common.footer.shortcuts', { key: html`<kbd>?</kbd>` }).value)).toBe(
      'Klavye kısayolları için <kbd>?</kbd> tuşuna basın.',
    );
    // A string parameter is text, never markup.
    expect(withLocale('en', () => th('common.footer.shortcuts', { key: '<b>' }).value)).toBe('Press &lt;b&gt; for keyboard shortcuts.');
  });

  it('writes times in Turkish order in the desk zone, and a date-only bank line as its day', () => {
    expect(withLocale('en', () => formatTime('2026-01-31T12:00:05Z'))).toBe('31.01.2026 15:00:05');
    expect(withLocale('tr', () => formatTime('2026-01-31T21:30:00Z'))).toBe('01.02.2026 00:30:00');
    expect(withLocale('en', () => formatTime('2026-01-31T12:00:05Z'), 'UTC')).toBe('31.01.2026 12:00:05');
    expect(formatBooked('2026-01-31T00:00:00Z', false)).toBe('31.01.2026');
    expect(formatDay('2026-12-01')).toBe('01.12.2026');
    expect(formatTime('not a time')).toBe('—');
  });
});

// ---- What an operator reads must come from the catalogue ----

/** Words that read the same in both languages: codes, units and key names. */
const SAME_IN_BOTH = new Set([
  'IBAN',
  'TRY',
  'UTC',
  'CSV',
  'ID',
  'Enter',
  'Esc',
  'Tab',
  'API',
  'URL',
  'TOTP',
  'MT940',
  'camt',
  'pain',
  'SWIFT',
  'BIC',
  'EFT',
  'FAST',
  'HTTP',
  'JSON',
  'Kasa',
  'kasa',
]);

/** Properties whose string values the views show as they are. */
const READ_PROPERTIES = new Set(['title', 'label', 'heading', 'header', 'hint', 'caption', 'empty', 'text', 'description', 'help']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'i18n' || entry.name === 'assets' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The words of `markup` an operator reads: text between tags and the attributes that show or speak text. */
function readableWords(markup: string): string[] {
  const withoutComments = markup.replace(/<!--[\s\S]*?-->/g, ' ');
  const shown = [...withoutComments.matchAll(/\s(?:title|placeholder|aria-label|alt|data-confirm|data-label)="([^"]*)"/g)].map(
    (m) => m[1] ?? '',
  );
  // Tags go, and so do attributes in a fragment that is only attributes (html` class="current"`).
  const text = withoutComments.replace(/<[^>]*>/g, ' ').replace(/(^|\s)[\w-]+="[^"]*"/g, ' ');
  return (
    [...shown, text]
      .join(' ')
      .match(/[A-Za-zÇĞİÖŞÜçğıöşü][A-Za-zÇĞİÖŞÜçğıöşü'’-]+/g)
      ?.filter((word) => !SAME_IN_BOTH.has(word)) ?? []
  );
}

/** Every readable word written literally in an html`` template or as a page's title, by file and line. */
function literalText(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const where = (node: ts.Node) => `${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'html') {
      const template = node.template;
      const markup = ts.isNoSubstitutionTemplateLiteral(template)
        ? template.text
        : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)].join(' ');
      const words = readableWords(markup);
      if (words.length > 0) found.push(`${where(node)}: ${words.slice(0, 8).join(' ')}`);
    }
    // ctx.render('Title', ...) and renderPage({ title: 'Title' }): a page title the operator reads.
    if (ts.isCallExpression(node) && /(^|\.)render$/.test(node.expression.getText())) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) && readableWords(first.text).length > 0)
        found.push(`${where(node)}: title "${first.text}"`);
    }
    // { label: 'Amount' } and the like: a column header, a page title, a hint the views show.
    if (
      ts.isPropertyAssignment(node) &&
      READ_PROPERTIES.has(node.name.getText()) &&
      (ts.isStringLiteral(node.initializer) || ts.isNoSubstitutionTemplateLiteral(node.initializer)) &&
      readableWords(node.initializer.text).length > 0
    )
      found.push(`${where(node)}: ${node.name.getText()} "${node.initializer.text}"`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('pages and views', () => {
  it('write no words outside the message catalogue', () => {
    const leftovers = sourceFiles(SRC).flatMap(literalText);
    expect(leftovers).toEqual([]);
  });
});

/**
 * The record kinds' parts of docs/architecture.md, docs/console.md and docs/operations.md are the ones their contract
 * modules' declarations generate (scripts/record-kind-docs.ts; `node scripts/docs-tables.mjs` rewrites them), one
 * folder row per module, a page row per kind with console pages, and no declared row said again by hand.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { OPS_RECORD_KINDS } from '@kasa/contracts';
import type { OpsRecordKind } from '../../packages/contracts/src/ops-operation-spec.js';
import {
  auditActionsOf,
  documented,
  withRecordKindArchitecture,
  withRecordKindConsole,
  withRecordKindOperations,
} from '../../scripts/record-kind-docs.js';
import { root } from './shell-blocks.js';

const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The text of a doc's generated block `name`, between its start and end comments. */
function block(doc: string, name: string): string {
  const match = new RegExp(`<!-- ${name}:start[^>]*-->\\n([\\s\\S]*?)<!-- ${name}:end -->`).exec(doc);
  expect([name, match === null]).toEqual([name, false]);
  return match?.[1] ?? '';
}

/** The first cells of a Markdown table's data rows, code marks left out. */
const firstCells = (table: string) =>
  table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\| -+ \|/.test(line))
    .slice(1)
    .map((line) => line.split(' | ')[0]!.slice(2).trim().replaceAll('`', ''));

/** The lines of a doc's tables that name `code` (in backticks). */
const rowsNaming = (doc: string, code: string) => doc.split('\n').filter((line) => line.startsWith('|') && line.includes(`\`${code}\``));

const kinds: [string, OpsRecordKind][] = Object.entries(OPS_RECORD_KINDS);

describe.each([
  ['docs/architecture.md', withRecordKindArchitecture],
  ['docs/console.md', withRecordKindConsole],
  ['docs/operations.md', withRecordKindOperations],
] as const)('%s', (file, generate) => {
  it("holds the record kinds' parts their declarations generate (node scripts/docs-tables.mjs rewrites them)", () => {
    const doc = read(file);
    expect(generate(doc)).toBe(doc);
  });
});

it('docs/architecture.md has a row per contract module, each a folder of the ledger', () => {
  const folders = firstCells(block(read('docs/architecture.md'), 'record-kind-folders'));
  expect(folders).toEqual(kinds.map(([module]) => `${module}/`));
  expect(folders.filter((folder) => !existsSync(join(root, 'services/ledger/src', folder)))).toEqual([]);
  expect(folders).toContain('balance-adjustments/');
});

it('docs/console.md has a row per kind with console pages, and its hand table none of them', () => {
  const doc = read('docs/console.md');
  const declared = kinds.flatMap(([, kind]) => (kind.console === undefined ? [] : [kind.console.path]));
  expect(firstCells(block(doc, 'record-kind-pages')).map((page) => page.replace(/\?.*$/, ''))).toEqual(declared);
  expect(declared).toContain('/balance-adjustments');
  const pages = [...doc.matchAll(/^\| `([^`?]+)/gm)].map((match) => match[1]);
  expect(declared.filter((path) => pages.filter((page) => page === path).length !== 1)).toEqual([]);
});

describe('docs/operations.md', () => {
  const doc = read('docs/operations.md');
  it("has each documented kind's section, under its title", () => {
    const headings = [...block(doc, 'record-kind-sections').matchAll(/^### (.+)$/gm)].map((match) => match[1]);
    expect(headings).toEqual(documented().map(({ words }) => words.title));
    expect(headings).toContain('Balance adjustments');
  });

  it('lists each declared audit action and desk queue once, in the generated tables', () => {
    const actions = documented().flatMap(auditActionsOf);
    expect(firstCells(block(doc, 'record-kind-audit-actions')).join(', ')).toBe(actions.join(', '));
    expect(actions).toContain('BALANCE_ADJUSTMENT.APPLIED');
    const queues = documented().flatMap(({ kind }) => (kind.desk === undefined ? [] : [kind.desk.queue]));
    expect(firstCells(block(doc, 'record-kind-desk-queues'))).toEqual(queues);
    expect(queues).toContain('adjustmentsToApply');
    expect([...actions, ...queues].filter((code) => rowsNaming(doc, code).length !== 1)).toEqual([]);
  });
});

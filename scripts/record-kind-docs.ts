/**
 * The record kinds' parts of docs/architecture.md, docs/console.md and docs/operations.md, made from each kind's
 * contract module (packages/contracts/src/ops-records/<module>.ts, listed by packages/contracts/src/generated/
 * ops-record-kinds.ts): its ledger folder's row, its console page's row, and its audit actions' row, desk queue's row
 * and section, from its `docs` part and what its `console` and `desk` parts already say. test/docs/record-kind-docs.test.ts
 * holds the three files equal to these functions of themselves, and `node scripts/docs-tables.mjs` rewrites them.
 */
import { OPS_RECORD_KINDS, type OpsDocsBlock } from '../packages/contracts/src/index.js';
import type { OpsRecordKind } from '../packages/contracts/src/ops-operation-spec.js';
import { markdownTable, withGeneratedBlocks, wrapped } from '../packages/statements/src/formats/docs-tables.js';

/** Every kind by its module's name (its ledger folder's too), in the list's order. */
const kinds = (): [string, OpsRecordKind][] => Object.entries(OPS_RECORD_KINDS);

const code = (text: string) => `\`${text}\``;

/** docs/architecture.md: the ledger folder of every kind, with what it holds. */
const foldersTable = (): string =>
  markdownTable(
    ['folder', 'holds'],
    kinds().map(([module, kind]) => [code(`${module}/`), kind.docs.folder]),
  );

/** docs/console.md: the page of every kind with console pages (`?status=` for its tabs), with what is done there. */
const consolePagesTable = (): string =>
  markdownTable(
    ['page', 'what an operator does there'],
    kinds().flatMap(([module, { console: pages, docs }]) => {
      if (pages === undefined) return [];
      if (docs.consolePage === undefined) throw new Error(`${module}'s docs part says nothing of its console page`);
      return [[code(`${pages.path}${pages.tabs.length > 0 ? '?status=' : ''}`), docs.consolePage]];
    }),
  );

/** The kinds with a section in docs/operations.md, with their section's words. */
export const documented = () =>
  kinds().flatMap(([module, kind]) => (kind.docs.operations === undefined ? [] : [{ module, kind, words: kind.docs.operations }]));

/** A documented kind's audit actions: its console part's codes, else its docs part's own list. */
export const auditActionsOf = ({ kind, words }: ReturnType<typeof documented>[number]): string[] =>
  kind.console === undefined ? [...(words.audit.actions ?? [])] : Object.keys(kind.console.audit.actions);

/** docs/operations.md: the audit actions of every documented kind. */
const auditActionsTable = (): string =>
  markdownTable(
    ['action', 'written when'],
    documented().map((entry) => {
      const { module, words } = entry;
      const actions = auditActionsOf(entry);
      if (actions.length === 0) throw new Error(`${module}'s docs part names no audit action`);
      return [actions.map(code).join(', '), words.audit.written];
    }),
  );

/** docs/operations.md: the desk queue of every documented kind that has one, its status in its words. */
const deskQueuesTable = (): string =>
  markdownTable(
    ['queue', 'what waits', 'waiting since'],
    documented().flatMap(({ module, kind, words }) => {
      if (kind.desk === undefined) return [];
      if (words.desk === undefined) throw new Error(`${module}'s docs part says nothing of its desk queue`);
      return [[code(kind.desk.queue), words.desk.waits.replaceAll('{status}', code(kind.desk.status)), words.desk.since]];
    }),
  );

/** A section's block: a paragraph, or a bulleted list, in lines of at most 120 columns. */
const block = (part: OpsDocsBlock): string =>
  typeof part === 'string' ? wrapped(part, '') : part.map((item) => wrapped(`- ${item}`, '  ')).join('\n');

/** docs/operations.md: each documented kind's section, its heading and its blocks. */
const sections = (): string =>
  documented()
    .map(({ words }) => [`### ${words.title}`, ...words.body.map(block)].join('\n\n'))
    .join('\n\n');

/** docs/architecture.md with the kinds' folders made anew from their declarations. */
export function withRecordKindArchitecture(markdown: string): string {
  return withGeneratedBlocks(markdown, { 'record-kind-folders': foldersTable }, 'docs/architecture.md');
}

/** docs/console.md with the pages the kinds declare made anew from their declarations. */
export function withRecordKindConsole(markdown: string): string {
  return withGeneratedBlocks(markdown, { 'record-kind-pages': consolePagesTable }, 'docs/console.md');
}

/** docs/operations.md with the kinds' audit actions, desk queues and sections made anew from their declarations. */
export function withRecordKindOperations(markdown: string): string {
  return withGeneratedBlocks(
    markdown,
    { 'record-kind-audit-actions': auditActionsTable, 'record-kind-desk-queues': deskQueuesTable, 'record-kind-sections': sections },
    'docs/operations.md',
  );
}

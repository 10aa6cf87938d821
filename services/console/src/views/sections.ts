/**
 * The console's sections as data, in the navigation's order: the navigation (layout.ts) and the exported lists
 * (export-link.view.ts, pages/csv-export.routes.ts) are read from here. A kind of reviewed record with a hand-written page
 * has a row here and a descriptor in its page file, listed in pages/record-pages.ts, which mounts its pages and links it
 * from the audit log; a kind that declares its console pages in its contract module (i18n/declared.ts) brings its row,
 * placed after the section it names. Data only, and importing no page: layout.ts, which every page imports, reads it.
 */
import type { OpsCsvOperationId } from '@kasa/ops-client';
import { DECLARED_KINDS, type DeclaredKind } from '../i18n/declared.js';

/** A list the console exports: its name in its file's address (`/export/deposits.csv`) and the ops list behind it. */
interface ListExport {
  readonly list: string;
  readonly operation: OpsCsvOperationId;
}

interface SectionEntry {
  /** What a page passes to `ctx.render` to be shown under this section; its navigation words are `common.nav.<name>`. */
  readonly name: string;
  /** Its navigation link; none for the search results and the operator's own account, reached from the header. */
  readonly href?: string;
  /** About the house's own money: an operator limited to some sites may not open it (403 `site_scope`). */
  readonly houseWide?: true;
  /** Only admins may open it (the ops API refuses a reviewer 403): the compliance queues of screening and risk flags. */
  readonly adminOnly?: true;
  /** The list its page exports (views/export-link.view.ts); none where the ops list has no CSV (balance adjustments). */
  readonly exports?: ListExport;
}

const TABLE = [
  { name: 'dashboard', href: '/' },
  { name: 'review', href: '/review' },
  { name: 'deposits', href: '/deposits', exports: { list: 'deposits', operation: 'opsListIntents' } },
  { name: 'withdrawals', href: '/withdrawals', exports: { list: 'withdrawals', operation: 'opsListWithdrawals' } },
  { name: 'payouts', href: '/payouts', houseWide: true },
  { name: 'screening', href: '/screening', houseWide: true, adminOnly: true },
  { name: 'transfers', href: '/bank-transfers', exports: { list: 'bank-transfers', operation: 'listBankTransfers' } },
  { name: 'returns', href: '/returns', exports: { list: 'returns', operation: 'listSenderReturns' } },
  { name: 'deliveries', href: '/deliveries', exports: { list: 'events', operation: 'opsListEvents' } },
  { name: 'sites', href: '/sites' },
  { name: 'balances', href: '/balances' },
  { name: 'reconciliation', href: '/reconciliation', houseWide: true },
  { name: 'bank-accounts', href: '/receiving-accounts', houseWide: true },
  { name: 'audit', href: '/audit', exports: { list: 'audit', operation: 'listAudit' } },
  { name: 'erasure', href: '/erasure-requests', houseWide: true },
  { name: 'risk', href: '/risk-flags', houseWide: true, adminOnly: true },
  { name: 'search' },
  { name: 'account' },
] as const satisfies readonly SectionEntry[];

type TableEntry = (typeof TABLE)[number];
/** A declared kind's row: its navigation link to its list. */
type DeclaredEntry = { readonly name: DeclaredKind['console']['section']['name']; readonly href: string };
type Entry = TableEntry | DeclaredEntry;

/** The declared kinds' rows by the section each follows; the compiler refuses a declaration naming none of the table's. */
const FOLLOWING: ReadonlyArray<[TableEntry['name'], DeclaredEntry]> = DECLARED_KINDS.map(({ console: c }) => [
  c.section.after,
  { name: c.section.name, href: c.path },
]);

export const SECTIONS: readonly Entry[] = TABLE.flatMap((section): Entry[] => [
  section,
  ...FOLLOWING.filter(([after]) => after === section.name).map(([, entry]) => entry),
]);

/** The sections of the console. */
export type Section = Entry['name'];
/** The sections with a navigation link. */
export type NavSection = Extract<Entry, { href: string }>['name'];
/** The lists the console exports, by the name in their file's address. */
export type ExportedList = Extract<Entry, { exports: ListExport }>['exports']['list'];

/** Every exported list with the ops list behind it, in the navigation's order. */
export const EXPORTED_LISTS: ReadonlyArray<{ list: ExportedList; operation: OpsCsvOperationId }> = SECTIONS.flatMap((section) =>
  'exports' in section ? [section.exports] : [],
);

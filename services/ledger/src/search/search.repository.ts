import { Prisma, type BankTransfer, type Deposit, type PrismaClient, type Withdrawal } from '@kasa/db';
import { EVENT_FIELDS, type EventRow } from '../events/event.repository.js';
import type { SiteScope } from '../operators/site-scope.js';
import { readWithTimeout } from '../shared/read-timeout.repository.js';
import type { SearchTerms } from './search-terms.js';

type Tx = Prisma.TransactionClient;

/** `%`, `_` and `\` are literal in what an operator types (`\` is LIKE's default escape character). */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const containing = (text: string) => `%${likeEscaped(text)}%`;
const endingWith = (text: string) => `%${likeEscaped(text)}`;

/**
 * The operators' one search box: deposits, withdrawals, bank transfers and webhook events that match a
 * reference, an id, the partner's user id, a sender's or holder's name, or an IBAN's last digits. Each kind
 * is newest first and at most `limit` long, and only of the operator's sites when it is scoped (operators/site-scope.ts):
 * one more condition on each query, so `limit` counts what the operator may see.
 *
 * Every condition is served by an index (prisma/migrations/20261213000000_search_indexes): btree for exact
 * values, trigram GIN for text inside a value. The reads share one transaction whose statement timeout is
 * `timeoutMs`: a search that would take longer is cancelled by PostgreSQL and answered 503, never left running.
 */
export class SearchRepository {
  constructor(
    private readonly db: PrismaClient,
    private readonly timeoutMs: number,
  ) {}

  search(terms: SearchTerms, limit: number, scope: SiteScope) {
    return readWithTimeout(this.db, this.timeoutMs, 'The search took too long; narrow it.', (tx) => this.found(tx, terms, limit, scope));
  }

  /**
   * What matches, each kind newest first; events by id and those of the deposits and withdrawals found. One
   * statement after another on the transaction's one connection: 16 searches at once take 16 connections, not 64.
   */
  private async found(tx: Tx, terms: SearchTerms, limit: number, scope: SiteScope) {
    const statements = searchStatements(terms, limit, scope);
    const depositIds = await idsOf(tx, statements.deposits);
    const withdrawalIds = await idsOf(tx, statements.withdrawals);
    const transferIds = await idsOf(tx, statements.bankTransfers);
    const events = searchStatements(terms, limit, scope, [...depositIds, ...withdrawalIds]).events;
    const eventIds = events ? await idsOf(tx, events) : [];
    const deposits: Deposit[] =
      depositIds.length === 0 ? [] : await tx.deposit.findMany({ where: { id: { in: depositIds } }, orderBy: NEWEST });
    const withdrawals: Withdrawal[] =
      withdrawalIds.length === 0 ? [] : await tx.withdrawal.findMany({ where: { id: { in: withdrawalIds } }, orderBy: NEWEST });
    const bankTransfers: BankTransfer[] =
      transferIds.length === 0 ? [] : await tx.bankTransfer.findMany({ where: { id: { in: transferIds } }, orderBy: NEWEST });
    const found: Array<EventRow & { siteId: string }> =
      eventIds.length === 0
        ? []
        : await tx.outboxEvent.findMany({ where: { id: { in: eventIds } }, orderBy: NEWEST, select: EVENT_FIELDS });
    return { deposits, withdrawals, bankTransfers, events: found };
  }
}

const NEWEST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

async function idsOf(tx: Tx, statement: Prisma.Sql): Promise<string[]> {
  return (await tx.$queryRaw<Array<{ id: string }>>(statement)).map((row) => row.id);
}

/**
 * The statements a search sends, one per kind of record, each selecting the ids of the newest `limit` matches
 * (exported so that a test can EXPLAIN exactly these). Events are searched by id and by the records found
 * (`entityIds`); without either there is no event statement.
 */
export function searchStatements(terms: SearchTerms, limit: number, scope: SiteScope, entityIds: string[] = []) {
  const inSites = scope === null ? null : Prisma.sql`site_id = ANY(${[...scope]}::uuid[])`;
  const byName = (column: 'external_user_label' | 'target_holder_name' | 'sender_name') =>
    terms.name ? [Prisma.sql`${Prisma.raw(column)} ILIKE ${containing(terms.name)}`] : [];
  const eventConditions = [
    ...(terms.id ? [Prisma.sql`id = ${terms.id}::uuid`] : []),
    ...(entityIds.length > 0 ? [Prisma.sql`entity_id = ANY(${entityIds}::uuid[])`] : []),
  ];
  return {
    deposits: newest('deposit_intents', limit, inSites, [
      Prisma.sql`external_user_id = ${terms.text}`,
      ...(terms.id ? [Prisma.sql`id = ${terms.id}::uuid`] : []),
      ...(terms.reference ? [Prisma.sql`reference_no = ${terms.reference}`] : []),
      ...byName('external_user_label'),
    ]),
    withdrawals: newest('withdrawals', limit, inSites, [
      Prisma.sql`external_user_id = ${terms.text}`,
      ...(terms.id ? [Prisma.sql`id = ${terms.id}::uuid`] : []),
      ...(terms.reference ? [Prisma.sql`reference_no = ${terms.reference}`] : []),
      ...byName('external_user_label'),
      ...byName('target_holder_name'),
      ...(terms.ibanTail ? [Prisma.sql`target_iban LIKE ${endingWith(terms.ibanTail)}`] : []),
    ]),
    // Transfers by id, bank transaction id, the intent they paid, sender name or IBAN tail, and those whose
    // description carries the reference however the sender wrote it (spaces, dashes, lower case): the description
    // is compared in exactly the form its trigram index holds (bank_transfers_description_key_trgm_idx). A scoped
    // operator's transfers are those credited to its sites' deposits; unassigned ones are the house's.
    bankTransfers: newest(
      'bank_transfers',
      limit,
      scope === null ? null : Prisma.sql`intent_id IN (SELECT id FROM deposit_intents WHERE site_id = ANY(${[...scope]}::uuid[]))`,
      [
        Prisma.sql`bank_tx_id = ${terms.text}`,
        ...(terms.id ? [Prisma.sql`id = ${terms.id}::uuid`, Prisma.sql`intent_id = ${terms.id}::uuid`] : []),
        ...(terms.reference
          ? [
              Prisma.sql`regexp_replace(upper(description), '[[:space:]-]', '', 'g') LIKE ${containing(terms.reference)}`,
              // A scalar subquery (reference_no is unique), so the planner can look it up in the intent_id index.
              Prisma.sql`intent_id = (SELECT id FROM deposit_intents WHERE reference_no = ${terms.reference})`,
            ]
          : []),
        ...byName('sender_name'),
        ...(terms.ibanTail ? [Prisma.sql`sender_iban LIKE ${endingWith(terms.ibanTail)}`] : []),
      ],
    ),
    events: eventConditions.length > 0 ? newest('outbox_events', limit, inSites, eventConditions) : null,
  };
}

/** The tables search reads; each has the `(created_at, id)` order and the indexes its conditions use. */
type SearchedTable = 'deposit_intents' | 'withdrawals' | 'bank_transfers' | 'outbox_events';

/**
 * Ids of the newest `limit` rows matching any of `conditions` (and `scoped`, when given). The order names the
 * table's columns, not the selected text `id`, so an index in `(created_at, id)` order can serve it.
 */
function newest(table: SearchedTable, limit: number, scoped: Prisma.Sql | null, conditions: Prisma.Sql[]): Prisma.Sql {
  return Prisma.sql`SELECT id::text FROM ${Prisma.raw(table)} WHERE (${Prisma.join(conditions, ' OR ')})
    ${scoped ? Prisma.sql`AND ${scoped}` : Prisma.empty} ORDER BY ${Prisma.raw(table)}.created_at DESC, ${Prisma.raw(table)}.id DESC LIMIT ${limit}`;
}

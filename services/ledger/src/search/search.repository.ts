import pg from 'pg';
import type { BankTransfer, Deposit, Withdrawal } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { EventRow } from '../events/event.repository.js';
import type { SiteScope } from '../shared/site-scope.js';
import type { SearchTerms } from './search-terms.js';

/** What a search past OPS_READ_TIMEOUT_MS answers (503 `service_unavailable`). */
const TOO_SLOW = 'The search took too long; narrow it.';
/** PostgreSQL's SQLSTATE for a statement cancelled at its `statement_timeout`. */
const QUERY_CANCELED = '57014';
/** node-postgres's type id of BIGINT: money in minor units, read as a string and handed on as a bigint. */
const INT8 = 20;

/** A deposit found, with the names of the senders whose transfers paid it (the console shows them beside it). */
export type FoundDeposit = Deposit & { senderNames: string[] };

export interface Found {
  deposits: FoundDeposit[];
  withdrawals: Withdrawal[];
  bankTransfers: BankTransfer[];
  events: Array<EventRow & { siteId: string }>;
}

/**
 * The operators' one search box: deposits, withdrawals, bank transfers and webhook events that match a
 * reference, an id, the partner's user id, a sender's or holder's name, or an IBAN's last digits. Each kind
 * is newest first and at most `limit` long, and only of the operator's sites when it is scoped (shared/site-scope.ts):
 * one more condition on each probe, so `limit` counts what the operator may see.
 *
 * Plain statements on the ledger's pool, not Prisma: a search is a handful of index probes, and at 16 searches at
 * once Prisma's per-query work and a transaction's round trips were most of its CPU time (docs/benchmarks.md,
 * Ops search). One round trip reads the three kinds of record, a second (only when a deposit or withdrawal was found,
 * or the term is an id) their events and the deposits' senders.
 *
 * Every probe is served by an index (prisma/migrations/20261213000000_search_indexes and those after it): btree
 * for exact values and IBAN tails, trigram GIN for text inside a value. Each round trip runs under its own `statement_timeout` of `timeoutMs`
 * (`SET LOCAL` in the implicit transaction of one multi-statement query, so nothing outlives it on a pooled or
 * PgBouncer connection): a search that would take longer is cancelled by PostgreSQL and answered 503, never left
 * running.
 */
export class SearchRepository {
  constructor(
    private readonly pool: pg.Pool,
    private readonly timeoutMs: number,
  ) {}

  async search(terms: SearchTerms, limit: number, scope: SiteScope): Promise<Found> {
    const statements = searchStatements(terms, limit, scope);
    const [deposits, withdrawals, bankTransfers] = await this.read([statements.deposits, statements.withdrawals, statements.bankTransfers]);
    const entityIds = [...(deposits ?? []), ...(withdrawals ?? [])].map((row) => row.id as string);
    const events = eventsStatement(terms, limit, scope, entityIds);
    const depositIds = (deposits ?? []).map((row) => row.id as string);
    const more = events === null ? [] : await this.read([events, ...(depositIds.length > 0 ? [sendersStatement(depositIds)] : [])]);
    const senders = new Map<string, string[]>();
    for (const row of more[1] ?? [])
      senders.set(row.intentId as string, [...(senders.get(row.intentId as string) ?? []), row.senderName as string]);
    return {
      // Each cast names the model whose every column the statement selected (`t.*`), keys in the model's camelCase.
      deposits: (deposits ?? []).map((row) => ({ ...(row as unknown as Deposit), senderNames: senders.get(row.id as string) ?? [] })),
      withdrawals: (withdrawals ?? []) as unknown as Withdrawal[],
      bankTransfers: (bankTransfers ?? []) as unknown as BankTransfer[],
      events: (more[0] ?? []) as unknown as Array<EventRow & { siteId: string }>,
    };
  }

  /**
   * Runs `statements` in one round trip under the statement timeout; each one's rows with camelCase keys and
   * BIGINT columns as bigint. The statements carry their values as literals (`literal` says why).
   */
  private async read(statements: SearchStatement[]): Promise<Array<Array<Record<string, unknown>>>> {
    const text = [`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(this.timeoutMs))}`, ...statements.map((s) => s.text)].join(';\n');
    let results: pg.QueryResult[];
    try {
      results = (await this.pool.query(text)) as unknown as pg.QueryResult[];
    } catch (error) {
      if ((error as { code?: unknown }).code === QUERY_CANCELED) throw new AppError('service_unavailable', TOO_SLOW);
      throw error;
    }
    return results.slice(1).map(plainRows);
  }
}

/** `reference_no` -> `referenceNo`, as the Prisma models name the columns. */
const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function plainRows(result: pg.QueryResult): Array<Record<string, unknown>> {
  const fields = result.fields.map((field) => ({ from: field.name, to: camel(field.name), bigint: field.dataTypeID === INT8 }));
  return result.rows.map((row: Record<string, unknown>) => {
    const plain: Record<string, unknown> = {};
    for (const field of fields) {
      const value = row[field.from];
      plain[field.to] = field.bigint && typeof value === 'string' ? BigInt(value) : value;
    }
    return plain;
  });
}

/** A statement with its values written in (a `{ text, values }` pair, so that a test can EXPLAIN it as sent). */
export interface SearchStatement {
  text: string;
  values: [];
}

/**
 * A value written into a statement as a literal by node-postgres's own escaping (quotes and backslashes doubled,
 * `E''` when needed): the statement timeout needs a multi-statement query, and that protocol carries no parameters.
 * NUL, which no text column can hold and PostgreSQL refuses in a literal, is dropped (the term then finds nothing
 * it would not have found).
 */
const literal = (text: string) => pg.escapeLiteral(text.replace(/\0/g, ''));
const uuidLiteral = (id: string) => `${literal(id)}::uuid`;

/** `%`, `_` and `\` are literal in what an operator types (`\` is LIKE's default escape character). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const containing = (text: string) => literal(`%${likeEscaped(text)}%`);
/**
 * An IBAN (`column`) ending with `tail`, as its reversed IBAN starting with the reversed tail: the form its btree
 * index holds (prisma/migrations/20261222200000_search_iban_tails), a prefix read of a few index pages.
 */
const ibanEndingWith = (column: 'target_iban' | 'sender_iban', tail: string) =>
  `reverse(${column}) LIKE ${literal(`${likeEscaped([...tail].reverse().join(''))}%`)}`;

/** The tables search reads; each has the `(created_at, id)` order and the indexes its probes use. */
type SearchedTable = 'deposit_intents' | 'withdrawals' | 'bank_transfers' | 'outbox_events';

/**
 * The statements a search sends, one per kind of record (exported so that a test and the benchmark can EXPLAIN
 * exactly these; events with `entityIds` as the records found). Only the probes the term's shape can match are sent (search-terms.ts): a name is not looked up as
 * a user id or a reference, a word is not looked up as an IBAN.
 */
export function searchStatements(terms: SearchTerms, limit: number, scope: SiteScope, entityIds: string[] = []) {
  const inSites = scope === null ? null : `site_id = ANY(ARRAY[${scope.map(uuidLiteral).join(', ')}]::uuid[])`;
  // A table's name columns in one probe: a common name then costs one walk of the newest rows (or one trigram
  // bitmap), not one per column.
  const byName = (...columns: Array<'external_user_label' | 'target_holder_name' | 'sender_name'>) =>
    terms.name ? [`(${columns.map((column) => `${column} ILIKE ${containing(terms.name as string)}`).join(' OR ')})`] : [];
  const siteRecord = [
    ...(terms.userId ? [`external_user_id = ${literal(terms.userId)}`] : []),
    ...(terms.id ? [`id = ${uuidLiteral(terms.id)}`] : []),
    ...(terms.reference ? [`reference_no = ${literal(terms.reference)}`] : []),
  ];
  return {
    deposits: newest('deposit_intents', limit, inSites, [...siteRecord, ...byName('external_user_label')]),
    withdrawals: newest('withdrawals', limit, inSites, [
      ...siteRecord,
      ...byName('external_user_label', 'target_holder_name'),
      ...(terms.ibanTail ? [ibanEndingWith('target_iban', terms.ibanTail)] : []),
    ]),
    // Transfers by id, bank transaction id, the intent they paid, sender name or IBAN tail, and those whose
    // description carries the reference however the sender wrote it (spaces, dashes, lower case): the description
    // is compared in exactly the form its trigram index holds (bank_transfers_description_key_trgm_idx). A scoped
    // operator's transfers are those credited to its sites' deposits; unassigned ones are the house's.
    bankTransfers: newest(
      'bank_transfers',
      limit,
      inSites === null ? null : `intent_id IN (SELECT id FROM deposit_intents WHERE ${inSites})`,
      [
        `bank_tx_id = ${literal(terms.text)}`,
        ...(terms.id ? [`id = ${uuidLiteral(terms.id)}`, `intent_id = ${uuidLiteral(terms.id)}`] : []),
        ...(terms.reference
          ? [
              `regexp_replace(upper(description), '[[:space:]-]', '', 'g') LIKE ${containing(terms.reference)}`,
              // A scalar subquery (reference_no is unique), so the planner can look it up in the intent_id index.
              `intent_id = (SELECT id FROM deposit_intents WHERE reference_no = ${literal(terms.reference)})`,
            ]
          : []),
        ...byName('sender_name'),
        ...(terms.ibanTail ? [ibanEndingWith('sender_iban', terms.ibanTail)] : []),
      ],
    ),
    events: eventsStatement(terms, limit, scope, entityIds),
  };
}

/** Events by id and of the records found (`entityIds`); null, and no statement, without either. */
export function eventsStatement(terms: SearchTerms, limit: number, scope: SiteScope, entityIds: string[]): SearchStatement | null {
  const probes = [
    ...(terms.id ? [`id = ${uuidLiteral(terms.id)}`] : []),
    ...(entityIds.length > 0 ? [`entity_id = ANY(ARRAY[${entityIds.map(uuidLiteral).join(', ')}]::uuid[])`] : []),
  ];
  if (probes.length === 0) return null;
  const inSites = scope === null ? null : `site_id = ANY(ARRAY[${scope.map(uuidLiteral).join(', ')}]::uuid[])`;
  return newest('outbox_events', limit, inSites, probes, EVENT_COLUMNS);
}

/** The deposits' senders: the name on each transfer credited to one of them. */
function sendersStatement(depositIds: string[]): SearchStatement {
  return {
    text: `SELECT intent_id::text, sender_name FROM bank_transfers WHERE intent_id = ANY(ARRAY[${depositIds.map(uuidLiteral).join(', ')}]::uuid[])`,
    values: [],
  };
}

/** What the events list shows of an event (EVENT_FIELDS), ids as text. */
const EVENT_COLUMNS = `t.id::text, t.site_id::text, t.type, t.status::text, t.payload, t.attempt_count, t.last_attempt_at, t.delivered_at,
  t.dead_at, t.created_at`;
/** A record's every column, as its Prisma model has them: ids, enums and amounts in their model's form. */
const ROW_COLUMNS = 't.*';

/**
 * The newest `limit` rows matching any of `probes` (and `scoped`, when given). Each probe is its own newest-first
 * `LIMIT` read, so each can use its own index (an exact value's btree, a name's trigram index, or the
 * `(created_at, id)` order when a name is common) instead of one plan for their OR; the union of their ids is cut
 * to the newest `limit` and only those rows are read whole.
 */
function newest(
  table: SearchedTable,
  limit: number,
  scoped: string | null,
  probes: string[],
  columns: string = ROW_COLUMNS,
): SearchStatement {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`search limit must be a positive whole number, got ${limit}`);
  const order = `ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
  const where = (probe: string) => `WHERE ${probe}${scoped ? ` AND ${scoped}` : ''}`;
  // No probe fits the term (only punctuation, say): a statement that reads nothing keeps each kind in its place.
  if (probes.length === 0) return { text: `SELECT ${columns} FROM ${table} t WHERE false`, values: [] };
  const text =
    probes.length === 1
      ? `SELECT ${columns} FROM ${table} t ${where(probes[0] as string)} ${order}`
      : `SELECT ${columns} FROM ${table} t WHERE t.id IN (SELECT id FROM (${probes
          .map((probe) => `(SELECT id, created_at FROM ${table} ${where(probe)} ${order})`)
          .join(' UNION ')}) AS found ${order}) ORDER BY t.created_at DESC, t.id DESC`;
  return { text, values: [] };
}

import type pg from 'pg';
import { MicroBatch, type ReadQueryable } from '@kasa/db';
import type { NewSiteRecord } from './create-record.js';
import { keysetClause, type ListWindow } from '../shared/keyset.js';

/**
 * What the partner API shows of a site's record, a deposit intent or a withdrawal alike; each kind adds its
 * one timestamp of its own (`approvedAt`, `sentAt`).
 */
export interface SiteRecordRow<Status extends string> {
  id: string;
  referenceNo: string;
  status: Status;
  requestedAmount: bigint;
  amount: bigint;
  currency: string;
  rejectedAt: Date | null;
  rejectedReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A table of site-owned records and the one column (aliased to camelCase) it shows besides the shared ones. */
export interface SiteScopedTable {
  name: 'deposit_intents' | 'withdrawals';
  ownColumn: string;
}

const SHARED_COLUMNS = `id::text AS id, reference_no AS "referenceNo", status::text AS status,
  requested_amount AS "requestedAmount", amount, currency, rejected_at AS "rejectedAt",
  rejected_reason AS "rejectedReason", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A kind's own column of a new record: its parameter, and the SQL made of it if the value is not stored as given. */
export interface OwnColumn {
  value: unknown;
  /** SQL computing the stored value from the parameter (`param`) and the site's row (`site`). */
  expression?: (param: string) => string;
}

/** A row as node-postgres returns it: BIGINT money as strings. */
/**
 * Another table's row inserted by the create's own statement (a data-modifying CTE reading the new record as
 * `record`): it commits with the record or not at all, and only when the record was inserted.
 */
export interface AlongsideInsert {
  /** The statement's further CTEs (`name AS (INSERT ... FROM record)`, ...); parameters numbered from `first` on. */
  text: (first: number) => string;
  values: unknown[];
}

type RawRow<Row> = Omit<Row, 'amount' | 'requestedAmount'> & { amount: string; requestedAmount: string };

/** How a site's records are read: where lists go, and whether the hot statements are prepared by name. */
export interface SiteScopedAccess {
  /**
   * Where lists are read: a read replica with the primary behind it (ReplicaReads), since a list may lag.
   * Default: the primary pool.
   */
  lists?: ReadQueryable;
  /**
   * Named (server-side prepared) statements for the create and the lookup, so each connection parses and plans
   * them once. Only with DATABASE_POOL_MODE=session: behind a transaction pooler the next statement may run on
   * another server connection, where the name is unknown (or already taken). Default off.
   */
  namedStatements?: boolean;
}

/** Prepared-statement names by text: one name never stands for two different statements. */
const statementNames = new Map<string, string>();
function statementName(prefix: string, text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `${prefix}-${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** Runs a statement, prepared under a name (derived from `prefix`) only when `named`. */
function run<Row extends pg.QueryResultRow>(
  pool: pg.Pool,
  named: boolean,
  prefix: string,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<Row>> {
  return named ? pool.query<Row>({ name: statementName(prefix, text), text, values }) : pool.query<Row>(text, values);
}

/**
 * Scoped lookups by primary key, batched: the lookups arriving in one turn of the event loop are read with
 * one `id = ANY(...)` statement. Another site's record is indistinguishable from a missing one, and the
 * plan is the same for both (the site is compared on the fetched row, never used to choose an index).
 */
class ScopedLookup<Raw extends object> {
  private readonly batch: MicroBatch<string, (Raw & { siteId: string }) | null>;

  constructor(pool: pg.Pool, table: string, columns: string, namedStatements: boolean) {
    const lookupText = `SELECT ${columns}, site_id::text AS "siteId" FROM ${table} WHERE id = ANY($1::uuid[])`;
    this.batch = new MicroBatch<string, (Raw & { siteId: string }) | null>(
      async (ids) => {
        const result = await run<Raw & { id: string; siteId: string }>(pool, namedStatements, `${table}-lookup`, lookupText, [ids]);
        const byId = new Map(result.rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      },
      (id) => id,
    );
  }

  async find(siteId: string, id: string): Promise<Raw | null> {
    // A UUID is case-insensitive; rows come back in PostgreSQL's lower-case form and are matched on it.
    const raw = await this.batch.call(id.toLowerCase());
    if (!raw || raw.siteId !== siteId) return null;
    const { siteId: _site, ...row } = raw;
    return row as unknown as Raw;
  }
}

/**
 * The partner API's reads of a site's records (deposit intents, withdrawals) as single plain statements on
 * the shared pool: they run on every partner request, where Prisma's per-query overhead was most of the
 * ledger's CPU time. Each kind's repository adds its own create.
 */
export abstract class SiteScopedRepository<Row extends SiteRecordRow<Status>, Status extends string> {
  private readonly columns: string;
  private readonly lookup: ScopedLookup<RawRow<Row>>;
  private readonly lists: ReadQueryable;
  private readonly namedStatements: boolean;

  /** `pool` is the primary's: creates and lookups; lists go where `access` says (see SiteScopedAccess). */
  protected constructor(
    protected readonly pool: pg.Pool,
    private readonly table: SiteScopedTable,
    access: SiteScopedAccess = {},
  ) {
    this.columns = `${SHARED_COLUMNS}, ${table.ownColumn}`;
    this.namedStatements = access.namedStatements ?? false;
    this.lists = access.lists ?? pool;
    this.lookup = new ScopedLookup<RawRow<Row>>(pool, table.name, this.columns, this.namedStatements);
  }

  /**
   * Inserts a record unless its idempotency key is taken or the site refuses it; null then, and the caller reads
   * the key's record (`findByIdempotencyKey`) and, without one, the site ({@link CreateOnce.recheck}).
   *
   * One statement, its own transaction (fine behind a transaction pooler), and the create's only one:
   * - the site's row is read inside it: the amount must lie within the site's limits as they are at that moment
   *   (no cached copy can let a changed limit through), and an own column may be computed from the row
   *   ({@link OwnColumn.expression}: a deposit's expiry from the site's TTL);
   * - `pg_try_advisory_xact_lock` on a 64-bit hash of (site, table, key) gates the insert, so a second create
   *   with the key while the first is still in its statement neither waits on the first's uncommitted row (as a
   *   bare ON CONFLICT would) nor inserts: it gets no row, and finds no committed record (409, retry) or the
   *   first one committed meanwhile (replay). The lock is released at commit; a later create takes it and meets
   *   the unique (site, key) instead. Twenty concurrent retries produce exactly one row.
   * `condition` adds the kind's own check (a deposit's receiving account still active), given each column's
   * parameter.
   */
  protected async insertRecord<Returned extends object>(
    record: NewSiteRecord & { id: string; status: Status },
    own: Record<string, OwnColumn>,
    returning: string,
    condition?: (param: (column: string) => string) => string,
    alongside?: AlongsideInsert,
  ): Promise<Returned | null> {
    const ownColumns = Object.keys(own);
    const params = new Map(ownColumns.map((column, i) => [column, `$${i + 11}`]));
    const param = (column: string) => params.get(column) ?? '';
    const lockKey = `$${ownColumns.length + 11}`;
    const selected = ownColumns.map((column) => own[column]?.expression?.(param(column)) ?? param(column));
    // INSERT ... SELECT rather than VALUES, for the site's row and the WHERE; the target columns type the parameters.
    const insert = `INSERT INTO ${this.table.name} (id, site_id, reference_no, status, requested_amount, amount, currency,
         external_user_id, external_user_label, idempotency_key, idempotency_fingerprint, ${ownColumns.join(', ')}, created_at, updated_at)
       SELECT $1, site.id, $3, $4, $5, $5, $6, $7, $8, $9, $10, ${selected.join(', ')}, now(), now()
       FROM sites site
       WHERE site.id = $2 AND $5 BETWEEN site.min_amount AND site.max_amount${condition ? ` AND ${condition(param)}` : ''}
         AND pg_try_advisory_xact_lock(hashtextextended(${lockKey}, 0))
       ON CONFLICT (site_id, idempotency_key) DO NOTHING
       RETURNING ${alongside ? '*' : returning}`;
    // A row that must commit with the record (its screening) rides in the same statement: nothing without the other.
    const text = alongside
      ? `WITH record AS (${insert}), ${alongside.text(ownColumns.length + 12)} SELECT ${returning} FROM record`
      : insert;
    const result = await run<Returned>(this.pool, this.namedStatements, `${this.table.name}-insert`, text, [
      record.id,
      record.siteId,
      record.referenceNo,
      record.status,
      record.amount.toString(),
      record.currency,
      record.externalUserId,
      record.externalUserLabel,
      record.idempotencyKey,
      record.idempotencyFingerprint,
      ...ownColumns.map((column) => own[column]?.value),
      `${record.siteId}:${this.table.name}:${record.idempotencyKey}`,
      ...(alongside?.values ?? []),
    ]);
    return result.rows[0] ?? null;
  }

  /**
   * Scoped lookup: another site's record answers exactly like a missing one (see ScopedLookup). Always from
   * the primary, never a replica: a lookup must not show a state older than one Kasa already reported to the
   * partner (in a create's or a review's answer, or a webhook), and a replica may be seconds behind.
   */
  async findInSite(siteId: string, id: string): Promise<Row | null> {
    const raw = await this.lookup.find(siteId, id);
    return raw ? toRow(raw) : null;
  }

  /** One newest-first keyset page of a site's records; from the read replica when there is one, so it may lag. */
  async list(siteId: string, statuses: Status[] | undefined, window: ListWindow): Promise<Row[]> {
    const page = keysetClause(window, statuses, 2);
    const result = await this.lists.query<RawRow<Row>>(
      `SELECT ${this.columns} FROM ${this.table.name} WHERE site_id = $1${page.where}${page.tail}`,
      [siteId, ...page.params],
    );
    return result.rows.map(toRow);
  }
}

function toRow<Row extends SiteRecordRow<string>>(raw: RawRow<Row>): Row {
  // The one field pair node-postgres leaves as text; everything else already has the row's type.
  return { ...raw, amount: BigInt(raw.amount), requestedAmount: BigInt(raw.requestedAmount) } as unknown as Row;
}

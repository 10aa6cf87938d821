import { Prisma, type ErasureRequest, type LegalHold, type PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { ERASED, scrubJson, type DestructionCause, type PersonalRecordKind } from './retention.js';

type Tx = Prisma.TransactionClient;
type Db = PrismaClient | Tx;

/** A record of an end user, with the record it follows for holds and retention (a payout line its withdrawal). */
export interface UserRecord {
  kind: PersonalRecordKind;
  id: string;
  parentKind: PersonalRecordKind | null;
  parentId: string | null;
  /** Already anonymised (a destruction-log row names it). */
  logged: boolean;
}

/** Who anonymises, and why: one destruction-log row per record, with these. */
export interface DestructionEntry {
  cause: DestructionCause;
  erasureRequestId: string | null;
  actor: string;
  siteId: string | null;
  destroyedAt: Date;
}

/** The columns each kind has replaced (destruction_log.fields), in the order its UPDATE below writes them. */
export const ERASED_FIELDS: Record<PersonalRecordKind, string[]> = {
  deposit: ['external_user_label', 'return_url', 'rejected_reason', 'remainder_set_aside_reason'],
  withdrawal: ['external_user_label', 'target_iban', 'target_holder_name', 'rejected_reason', 'returned_reason'],
  bank_transfer: ['sender_name', 'sender_iban', 'description', 'set_aside_reason'],
  sender_return: ['sender_name', 'sender_iban', 'reason', 'rejected_reason'],
  payout_item: ['creditor_name', 'creditor_iban'],
  statement_debit: ['counterparty_name', 'counterparty_iban', 'description'],
  outbox_event: ['payload', 'delivery_attempts.response_body'],
  screening: ['screened_name'],
  risk_flag: ['facts'],
  audit_entry: ['metadata'],
};

const E = ERASED;
/** Each kind's UPDATE of the rows `ids` that no destruction-log row names yet, answering the ids it changed. */
const UPDATES: Partial<Record<PersonalRecordKind, (ids: string[]) => Prisma.Sql>> = {
  deposit: (ids) => Prisma.sql`
    UPDATE deposit_intents SET external_user_label = NULL, return_url = NULL,
      rejected_reason = CASE WHEN rejected_reason IS NULL THEN NULL ELSE ${E} END,
      remainder_set_aside_reason = CASE WHEN remainder_set_aside_reason IS NULL THEN NULL ELSE ${E} END
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
  withdrawal: (ids) => Prisma.sql`
    UPDATE withdrawals SET external_user_label = NULL, target_iban = ${E}, target_holder_name = ${E},
      rejected_reason = CASE WHEN rejected_reason IS NULL THEN NULL ELSE ${E} END,
      returned_reason = CASE WHEN returned_reason IS NULL THEN NULL ELSE ${E} END
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
  bank_transfer: (ids) => Prisma.sql`
    UPDATE bank_transfers SET sender_name = ${E}, sender_iban = ${E}, description = ${E},
      set_aside_reason = CASE WHEN set_aside_reason IS NULL THEN NULL ELSE ${E} END
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
  sender_return: (ids) => Prisma.sql`
    UPDATE sender_returns SET sender_name = ${E}, sender_iban = ${E}, reason = ${E},
      rejected_reason = CASE WHEN rejected_reason IS NULL THEN NULL ELSE ${E} END
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
  payout_item: (ids) => Prisma.sql`
    UPDATE payout_batch_items SET creditor_name = ${E}, creditor_iban = ${E}
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
  statement_debit: (ids) => Prisma.sql`
    UPDATE bank_statement_debits SET counterparty_name = NULL, counterparty_iban = NULL, description = ${E}
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
  // The listed entry's name (matched_name) is the list's, published: only the name screened is the user's.
  screening: (ids) => Prisma.sql`
    UPDATE screenings SET screened_name = ${E}
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
  // A flag's facts keep the sender's and the user's names and a masked IBAN: those become the marker, the rest stays.
  risk_flag: (ids) => Prisma.sql`
    UPDATE risk_flags SET facts = facts || (
      SELECT coalesce(jsonb_object_agg(k, to_jsonb(${E}::text)), '{}'::jsonb) FROM jsonb_object_keys(facts) AS k
      WHERE k IN ('senderName', 'userName', 'senderIban'))
    WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id`,
};

/** The advisory lock one user's erasure holds: passes over the same user (a request, the job) run one after another. */
const userLockKey = (siteId: string, externalUserId: string) => `kasa:erasure:${siteId}:${externalUserId}`;
/** The lock of a userless bank line's anonymisation. */
const lineLockKey = (transferId: string) => `kasa:erasure:line:${transferId}`;
/** The destruction job's lock: one ledger runs it at a time. */
const DESTRUCTION_JOB_LOCK = 'kasa:destruction-job';

/** The SQL of retention and erasure (docs/compliance.md, Retention and erasure): every statement on the client given. */
export class ErasureRepository {
  constructor(private readonly db: PrismaClient) {}

  /** Waits for, then holds until commit, the lock on one user's records. */
  async lockUser(tx: Tx, siteId: string, externalUserId: string): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${userLockKey(siteId, externalUserId)}, 0))`;
  }

  async lockLine(tx: Tx, transferId: string): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lineLockKey(transferId)}, 0))`;
  }

  /** False when another ledger runs the destruction job now (released at commit). */
  async tryLockJob(tx: Tx): Promise<boolean> {
    const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`
      SELECT pg_try_advisory_xact_lock(hashtextextended(${DESTRUCTION_JOB_LOCK}, 0)) AS locked`;
    return row?.locked === true;
  }

  async siteExists(db: Db, siteId: string): Promise<boolean> {
    return (await db.site.count({ where: { id: siteId } })) > 0;
  }

  /**
   * The user's last transaction on the site: the latest moment one of their deposits or withdrawals was created,
   * decided (approved, rejected, cancelled), sent or returned, or a bank line for their deposit was received. Null: no record.
   */
  async lastTransactionAt(tx: Db, siteId: string, externalUserId: string): Promise<Date | null> {
    const [row] = await tx.$queryRaw<Array<{ at: Date | null }>>`
      SELECT max(at) AS at FROM (
        SELECT GREATEST(d.created_at, d.approved_at, d.rejected_at, d.cancelled_at) AS at
          FROM deposit_intents d WHERE d.site_id = ${siteId}::uuid AND d.external_user_id = ${externalUserId}
        UNION ALL
        SELECT GREATEST(w.created_at, w.approved_at, w.rejected_at, w.sent_at, w.returned_at)
          FROM withdrawals w WHERE w.site_id = ${siteId}::uuid AND w.external_user_id = ${externalUserId}
        UNION ALL
        SELECT bt.received_at FROM bank_transfers bt JOIN deposit_intents d ON d.id = bt.intent_id
          WHERE d.site_id = ${siteId}::uuid AND d.external_user_id = ${externalUserId}
      ) x`;
    return row?.at ?? null;
  }

  /**
   * Every record of the user that carries personal data: their deposits and withdrawals, the bank lines credited to their
   * deposits and the returns of those lines, the sanctions screenings of their records (and their hits' audit entries), the risk flags about their deposits and lines, the payout lines and statement debits of their payouts, the webhook events
   * of their records, and the audit entries about any of these; each with whether it is already anonymised.
   */
  async userRecords(tx: Tx, siteId: string, externalUserId: string): Promise<UserRecord[]> {
    return tx.$queryRaw<UserRecord[]>`
      WITH d AS (SELECT id FROM deposit_intents WHERE site_id = ${siteId}::uuid AND external_user_id = ${externalUserId}),
      w AS (SELECT id FROM withdrawals WHERE site_id = ${siteId}::uuid AND external_user_id = ${externalUserId}),
      t AS (SELECT id FROM bank_transfers WHERE intent_id IN (SELECT id FROM d)),
      r AS (SELECT id FROM sender_returns WHERE bank_transfer_id IN (SELECT id FROM t) OR intent_id IN (SELECT id FROM d)),
      top AS (
        SELECT 'deposit' AS kind, id, 'deposit_intent' AS entity_type FROM d
        UNION ALL SELECT 'withdrawal', id, 'withdrawal' FROM w
        UNION ALL SELECT 'bank_transfer', id, 'bank_transfer' FROM t
        UNION ALL SELECT 'sender_return', id, 'sender_return' FROM r),
      items AS (
        SELECT p.id, p.reference, CASE WHEN p.withdrawal_id IS NOT NULL THEN 'withdrawal' ELSE 'sender_return' END AS pkind,
          COALESCE(p.withdrawal_id, p.sender_return_id) AS pid
        FROM payout_batch_items p WHERE p.withdrawal_id IN (SELECT id FROM w) OR p.sender_return_id IN (SELECT id FROM r)),
      events AS (
        SELECT e.id, top.kind AS pkind, top.id AS pid FROM outbox_events e JOIN top ON top.id = e.entity_id
        WHERE e.site_id = ${siteId}::uuid),
      -- The screenings of their withdrawals' beneficiaries and of the senders of their deposits' money.
      sc AS (SELECT s.id, s.subject_type AS pkind, s.subject_id AS pid FROM screenings s
        WHERE (s.subject_type = 'withdrawal' AND s.subject_id IN (SELECT id FROM w))
          OR (s.subject_type = 'deposit' AND s.subject_id IN (SELECT id FROM d))),
      -- The risk flags about their deposits, or about a line credited to one of them.
      rf AS (SELECT f.id, CASE WHEN f.subject_type = 'deposit' THEN 'deposit' ELSE 'bank_transfer' END AS pkind, f.subject_id AS pid
        FROM risk_flags f WHERE (f.subject_type = 'deposit' AND f.subject_id IN (SELECT id FROM d)) OR f.bank_transfer_id IN (SELECT id FROM t)),
      all_records AS (
        SELECT kind, id, NULL::text AS pkind, NULL::uuid AS pid FROM top
        UNION ALL SELECT 'screening', id, pkind, pid FROM sc
        UNION ALL SELECT 'risk_flag', id, pkind, pid FROM rf
        UNION ALL SELECT 'audit_entry', a.id, sc.pkind, sc.pid
          FROM audit_log a JOIN sc ON a.entity_type = 'screening_hit' AND a.entity_id = sc.id::text
        UNION ALL SELECT 'payout_item', id, pkind, pid FROM items
        UNION ALL SELECT 'statement_debit', s.id, items.pkind, items.pid
          FROM bank_statement_debits s JOIN items ON s.end_to_end_id = items.reference
        UNION ALL SELECT 'outbox_event', id, pkind, pid FROM events
        UNION ALL SELECT 'audit_entry', a.id, top.kind, top.id
          FROM audit_log a JOIN top ON a.entity_type = top.entity_type AND a.entity_id = top.id::text
        UNION ALL SELECT 'audit_entry', a.id, events.pkind, events.pid
          FROM audit_log a JOIN events ON a.entity_type = 'outbox_event' AND a.entity_id = events.id::text)
      SELECT x.kind, x.id::text AS id, x.pkind AS "parentKind", x.pid::text AS "parentId",
        EXISTS (SELECT 1 FROM destruction_log l WHERE l.record_type = x.kind AND l.record_id = x.id) AS logged
      FROM all_records x`;
  }

  /** The legal holds in force on the user (by site and id) and on any of `recordIds`, oldest first. */
  async activeHolds(tx: Db, siteId: string, externalUserId: string, recordIds: readonly string[]): Promise<LegalHold[]> {
    return tx.legalHold.findMany({
      where: {
        releasedAt: null,
        OR: [{ siteId, externalUserId }, { recordId: { in: [...recordIds] } }],
      },
      orderBy: { placedAt: 'asc' },
    });
  }

  /**
   * Anonymises the records `ids` of one kind that no destruction-log row names yet, and writes that row for each, in the
   * caller's transaction; answers how many it anonymised. A record anonymised before is left as it is and not logged twice
   * (the log's unique (record_type, record_id) makes that so even for two passes that raced past their locks).
   */
  async anonymise(tx: Tx, kind: PersonalRecordKind, ids: readonly string[], entry: DestructionEntry): Promise<number> {
    if (ids.length === 0) return 0;
    const fresh = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO destruction_log (id, record_type, record_id, site_id, fields, cause, erasure_request_id, actor, destroyed_at)
      SELECT gen_random_uuid(), ${kind}, r.id, ${entry.siteId}::uuid, ${ERASED_FIELDS[kind]}::text[], ${entry.cause},
        ${entry.erasureRequestId}::uuid, ${entry.actor}, ${entry.destroyedAt}
      FROM unnest(${[...ids]}::uuid[]) AS r(id)
      ON CONFLICT (record_type, record_id) DO NOTHING
      RETURNING record_id::text AS id`;
    const freshIds = fresh.map((row) => row.id);
    if (freshIds.length === 0) return 0;
    const update = UPDATES[kind];
    if (update) await tx.$queryRaw(update(freshIds));
    else if (kind === 'outbox_event') await this.scrubEvents(tx, freshIds);
    else if (kind === 'audit_entry') await this.scrubAudit(tx, freshIds);
    return freshIds.length;
  }

  /** Webhook payloads with their personal keys replaced, and the receivers' answers to them dropped. */
  private async scrubEvents(tx: Tx, ids: string[]): Promise<void> {
    const rows = await tx.$queryRaw<Array<{ id: string; payload: unknown }>>`
      SELECT id::text AS id, payload FROM outbox_events WHERE id = ANY(${ids}::uuid[]) FOR UPDATE`;
    await tx.$executeRaw`
      UPDATE outbox_events e SET payload = s.payload
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => JSON.stringify(scrubJson(r.payload)))}::jsonb[]) AS s(id, payload)
      WHERE e.id = s.id`;
    await tx.$executeRaw`UPDATE delivery_attempts SET response_body = NULL WHERE event_id = ANY(${ids}::uuid[])`;
  }

  /**
   * Audit metadata with its personal keys replaced. The SHA-256 of the metadata as it was chained is kept first in
   * `metadata_sha256` (computed by PostgreSQL from the same text the history worker hashed), so the chain still verifies.
   */
  private async scrubAudit(tx: Tx, ids: string[]): Promise<void> {
    const rows = await tx.$queryRaw<Array<{ id: string; metadata: unknown }>>`
      SELECT id::text AS id, metadata FROM audit_log WHERE id = ANY(${ids}::uuid[]) FOR UPDATE`;
    await tx.$executeRaw`
      UPDATE audit_log a
      SET metadata_sha256 = COALESCE(a.metadata_sha256, encode(sha256(convert_to(a.metadata::text, 'UTF8')), 'hex')),
        metadata = s.metadata
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => JSON.stringify(scrubJson(r.metadata)))}::jsonb[]) AS s(id, metadata)
      WHERE a.id = s.id`;
  }

  /**
   * Users (site, externalUserId) with a record not yet anonymised whose last transaction is older than `before`
   * (the shortest retention's cut-off): the destruction job's candidates, at most `limit`.
   */
  async usersPastRetention(tx: Db, before: Date, limit: number): Promise<Array<{ siteId: string; externalUserId: string }>> {
    return tx.$queryRaw<Array<{ siteId: string; externalUserId: string }>>`
      SELECT site_id::text AS "siteId", external_user_id AS "externalUserId" FROM (
        SELECT d.site_id, d.external_user_id, GREATEST(d.created_at, d.approved_at, d.rejected_at, d.cancelled_at) AS at,
          NOT EXISTS (SELECT 1 FROM destruction_log l WHERE l.record_type = 'deposit' AND l.record_id = d.id) AS open
        FROM deposit_intents d
        UNION ALL
        SELECT w.site_id, w.external_user_id, GREATEST(w.created_at, w.approved_at, w.rejected_at, w.sent_at, w.returned_at),
          NOT EXISTS (SELECT 1 FROM destruction_log l WHERE l.record_type = 'withdrawal' AND l.record_id = w.id)
        FROM withdrawals w
      ) x
      GROUP BY site_id, external_user_id
      HAVING max(at) < ${before} AND bool_or(open)
      LIMIT ${limit}`;
  }

  /** Bank lines credited to no deposit, received before `before`, not yet anonymised, with their returns. */
  async userlessLinesPastRetention(tx: Db, before: Date, limit: number): Promise<Array<{ id: string; receivedAt: Date }>> {
    return tx.$queryRaw<Array<{ id: string; receivedAt: Date }>>`
      SELECT bt.id::text AS id, bt.received_at AS "receivedAt" FROM bank_transfers bt
      WHERE bt.intent_id IS NULL AND bt.received_at < ${before}
        AND NOT EXISTS (SELECT 1 FROM destruction_log l WHERE l.record_type = 'bank_transfer' AND l.record_id = bt.id)
      ORDER BY bt.received_at LIMIT ${limit}`;
  }

  /** A userless bank line's returns, their payout lines and statement debits, and the audit entries about them all. */
  async lineRecords(tx: Tx, transferId: string): Promise<UserRecord[]> {
    return tx.$queryRaw<UserRecord[]>`
      WITH top AS (
        SELECT 'bank_transfer' AS kind, id, 'bank_transfer' AS entity_type FROM bank_transfers WHERE id = ${transferId}::uuid AND intent_id IS NULL
        UNION ALL SELECT 'sender_return', id, 'sender_return' FROM sender_returns WHERE bank_transfer_id = ${transferId}::uuid AND intent_id IS NULL),
      items AS (SELECT p.id, p.reference, p.sender_return_id AS pid FROM payout_batch_items p
        WHERE p.sender_return_id IN (SELECT id FROM top WHERE kind = 'sender_return')),
      all_records AS (
        SELECT kind, id, NULL::text AS pkind, NULL::uuid AS pid FROM top
        UNION ALL SELECT 'payout_item', id, 'sender_return', pid FROM items
        UNION ALL SELECT 'statement_debit', s.id, 'sender_return', items.pid FROM bank_statement_debits s JOIN items ON s.end_to_end_id = items.reference
        UNION ALL SELECT 'audit_entry', a.id, top.kind, top.id FROM audit_log a JOIN top ON a.entity_type = top.entity_type AND a.entity_id = top.id::text)
      SELECT x.kind, x.id::text AS id, x.pkind AS "parentKind", x.pid::text AS "parentId",
        EXISTS (SELECT 1 FROM destruction_log l WHERE l.record_type = x.kind AND l.record_id = x.id) AS logged
      FROM all_records x`;
  }

  async activeRecordHolds(tx: Db, recordIds: readonly string[]): Promise<LegalHold[]> {
    return tx.legalHold.findMany({ where: { releasedAt: null, recordId: { in: [...recordIds] } }, orderBy: { placedAt: 'asc' } });
  }

  /** Deletes destruction-log rows older than three years: the only deletion its trigger lets through, and only for this job. */
  async pruneLog(tx: Tx): Promise<number> {
    await tx.$executeRaw`SELECT set_config('kasa.destruction_log_prune', 'on', true)`;
    const pruned = await tx.$executeRaw`DELETE FROM destruction_log WHERE destroyed_at < now() - interval '3 years'`;
    await tx.$executeRaw`SELECT set_config('kasa.destruction_log_prune', 'off', true)`;
    return pruned;
  }

  // Erasure requests and legal holds.

  async createRequest(tx: Tx, data: Prisma.ErasureRequestUncheckedCreateInput): Promise<ErasureRequest> {
    return tx.erasureRequest.create({ data });
  }

  /** The request, its row locked until commit (null: none). */
  async lockRequest(tx: Tx, id: string): Promise<ErasureRequest | null> {
    const [row] = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text AS id FROM erasure_requests WHERE id = ${id}::uuid FOR UPDATE`;
    return row ? tx.erasureRequest.findUnique({ where: { id } }) : null;
  }

  async updateRequest(tx: Tx, id: string, data: Prisma.ErasureRequestUncheckedUpdateInput): Promise<ErasureRequest> {
    return tx.erasureRequest.update({ where: { id }, data });
  }

  async findRequest(db: Db, id: string): Promise<ErasureRequest | null> {
    return db.erasureRequest.findUnique({ where: { id } });
  }

  /** Requests not completed, oldest first: the job's work list. */
  async openRequests(db: Db, limit: number): Promise<Array<{ id: string }>> {
    return db.erasureRequest.findMany({
      where: { status: { not: 'COMPLETED' } },
      orderBy: { receivedAt: 'asc' },
      select: { id: true },
      take: limit,
    });
  }

  /** A page of requests newest first (the scope: the sites an operator may see, null for all). */
  async listRequests(
    db: Db,
    filters: { siteId?: string; status?: string; overdueAt?: Date },
    window: ListWindow,
    scope: readonly string[] | null,
  ): Promise<ErasureRequest[]> {
    return db.erasureRequest.findMany(
      keysetPage(
        {
          ...(filters.siteId ? { siteId: filters.siteId } : {}),
          ...(filters.status ? { status: filters.status as ErasureRequest['status'] } : {}),
          ...(filters.overdueAt ? { status: 'OPEN' as const, dueAt: { lt: filters.overdueAt } } : {}),
          ...(scope ? { AND: [{ siteId: { in: [...scope] } }] } : {}),
        },
        window,
      ),
    );
  }

  /** What a request's passes anonymised, by kind. */
  async destroyedFor(db: Db, erasureRequestId: string): Promise<Array<{ recordType: string; count: number }>> {
    const rows = await db.$queryRaw<Array<{ recordType: string; count: number }>>`
      SELECT record_type AS "recordType", count(*)::int AS count FROM destruction_log
      WHERE erasure_request_id = ${erasureRequestId}::uuid GROUP BY record_type ORDER BY record_type`;
    return rows;
  }

  async listLog(db: Db, filters: { recordType?: string; erasureRequestId?: string }, window: ListWindow, scope: readonly string[] | null) {
    const rows = await db.destructionLog.findMany({
      where: {
        ...(window.after
          ? window.oldestFirst
            ? {
                OR: [{ destroyedAt: { gt: window.after.createdAt } }, { destroyedAt: window.after.createdAt, id: { gt: window.after.id } }],
              }
            : {
                OR: [{ destroyedAt: { lt: window.after.createdAt } }, { destroyedAt: window.after.createdAt, id: { lt: window.after.id } }],
              }
          : {}),
        ...(window.createdFrom || window.createdTo
          ? {
              destroyedAt: {
                ...(window.createdFrom ? { gte: window.createdFrom } : {}),
                ...(window.createdTo ? { lt: window.createdTo } : {}),
              },
            }
          : {}),
        ...(filters.recordType ? { recordType: filters.recordType } : {}),
        ...(filters.erasureRequestId ? { erasureRequestId: filters.erasureRequestId } : {}),
        ...(scope ? { AND: [{ siteId: { in: [...scope] } }] } : {}),
      },
      orderBy: window.oldestFirst ? [{ destroyedAt: 'asc' }, { id: 'asc' }] : [{ destroyedAt: 'desc' }, { id: 'desc' }],
      take: window.limit,
    });
    return rows.map((row) => ({ ...row, createdAt: row.destroyedAt }));
  }

  async createHold(tx: Tx, data: Prisma.LegalHoldUncheckedCreateInput): Promise<LegalHold> {
    return tx.legalHold.create({ data });
  }

  /** Releases a hold still in force, reading it under its row lock; null when there is none in force. */
  async releaseHold(tx: Tx, id: string, releasedBy: string, at: Date): Promise<LegalHold | null> {
    const changed = await tx.legalHold.updateMany({ where: { id, releasedAt: null }, data: { releasedBy, releasedAt: at } });
    return changed.count === 1 ? tx.legalHold.findUnique({ where: { id } }) : null;
  }

  async findHold(db: Db, id: string): Promise<LegalHold | null> {
    return db.legalHold.findUnique({ where: { id } });
  }

  async recordSite(db: Db, kind: PersonalRecordKind, id: string): Promise<{ found: boolean; siteId: string | null }> {
    const [row] = await db.$queryRaw<Array<{ siteId: string | null }>>`
      SELECT site_id::text AS "siteId" FROM deposit_intents WHERE ${kind} = 'deposit' AND id = ${id}::uuid
      UNION ALL SELECT site_id::text FROM withdrawals WHERE ${kind} = 'withdrawal' AND id = ${id}::uuid
      UNION ALL SELECT d.site_id::text FROM bank_transfers t LEFT JOIN deposit_intents d ON d.id = t.intent_id
        WHERE ${kind} = 'bank_transfer' AND t.id = ${id}::uuid
      UNION ALL SELECT d.site_id::text FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
        LEFT JOIN deposit_intents d ON d.id = COALESCE(r.intent_id, t.intent_id) WHERE ${kind} = 'sender_return' AND r.id = ${id}::uuid`;
    return row ? { found: true, siteId: row.siteId } : { found: false, siteId: null };
  }

  /**
   * The journal check's erasure invariant (`personal_data_kept`): `case` `kept_after_destruction` is a record the log says
   * was anonymised that still carries personal data; `destroyed_unlogged` a record anonymised (the marker, or an audit
   * entry's kept hash) with no destruction-log row; `erasure_incomplete` a COMPLETED request whose user still has a
   * deposit or withdrawal not anonymised.
   */
  async personalDataKept(db: Db): Promise<Array<{ case: string; recordType: string; recordId: string }>> {
    return db.$queryRaw<Array<{ case: string; recordType: string; recordId: string }>>`
      WITH logged AS (SELECT record_type, record_id FROM destruction_log)
      SELECT 'kept_after_destruction' AS case, 'deposit' AS "recordType", d.id::text AS "recordId" FROM deposit_intents d
        JOIN logged l ON l.record_type = 'deposit' AND l.record_id = d.id
        WHERE d.external_user_label IS NOT NULL OR d.return_url IS NOT NULL OR d.rejected_reason <> ${E} OR d.remainder_set_aside_reason <> ${E}
      UNION ALL SELECT 'kept_after_destruction', 'withdrawal', w.id::text FROM withdrawals w
        JOIN logged l ON l.record_type = 'withdrawal' AND l.record_id = w.id
        WHERE w.external_user_label IS NOT NULL OR w.target_iban <> ${E} OR w.target_holder_name <> ${E}
          OR w.rejected_reason <> ${E} OR w.returned_reason <> ${E}
      UNION ALL SELECT 'kept_after_destruction', 'bank_transfer', t.id::text FROM bank_transfers t
        JOIN logged l ON l.record_type = 'bank_transfer' AND l.record_id = t.id
        WHERE t.sender_name <> ${E} OR t.sender_iban <> ${E} OR t.description <> ${E} OR t.set_aside_reason <> ${E}
      UNION ALL SELECT 'kept_after_destruction', 'sender_return', r.id::text FROM sender_returns r
        JOIN logged l ON l.record_type = 'sender_return' AND l.record_id = r.id
        WHERE r.sender_name <> ${E} OR r.sender_iban <> ${E} OR r.reason <> ${E} OR r.rejected_reason <> ${E}
      UNION ALL SELECT 'kept_after_destruction', 'payout_item', p.id::text FROM payout_batch_items p
        JOIN logged l ON l.record_type = 'payout_item' AND l.record_id = p.id
        WHERE p.creditor_name <> ${E} OR p.creditor_iban <> ${E}
      UNION ALL SELECT 'kept_after_destruction', 'audit_entry', a.id::text FROM audit_log a
        JOIN logged l ON l.record_type = 'audit_entry' AND l.record_id = a.id
        WHERE a.metadata_sha256 IS NULL
      UNION ALL SELECT 'kept_after_destruction', 'screening', s.id::text FROM screenings s
        JOIN logged l ON l.record_type = 'screening' AND l.record_id = s.id
        WHERE s.screened_name <> ${E}
      UNION ALL SELECT 'kept_after_destruction', 'risk_flag', f.id::text FROM risk_flags f
        JOIN logged l ON l.record_type = 'risk_flag' AND l.record_id = f.id
        WHERE f.facts->>'senderName' <> ${E} OR f.facts->>'userName' <> ${E} OR f.facts->>'senderIban' <> ${E}
      UNION ALL SELECT 'destroyed_unlogged', 'screening', s.id::text FROM screenings s
        WHERE s.screened_name = ${E}
          AND NOT EXISTS (SELECT 1 FROM logged l WHERE l.record_type = 'screening' AND l.record_id = s.id)
      UNION ALL SELECT 'destroyed_unlogged', 'withdrawal', w.id::text FROM withdrawals w
        WHERE (w.target_iban = ${E} OR w.target_holder_name = ${E})
          AND NOT EXISTS (SELECT 1 FROM logged l WHERE l.record_type = 'withdrawal' AND l.record_id = w.id)
      UNION ALL SELECT 'destroyed_unlogged', 'bank_transfer', t.id::text FROM bank_transfers t
        WHERE (t.sender_name = ${E} OR t.sender_iban = ${E} OR t.description = ${E})
          AND NOT EXISTS (SELECT 1 FROM logged l WHERE l.record_type = 'bank_transfer' AND l.record_id = t.id)
      UNION ALL SELECT 'destroyed_unlogged', 'sender_return', r.id::text FROM sender_returns r
        WHERE (r.sender_name = ${E} OR r.sender_iban = ${E})
          AND NOT EXISTS (SELECT 1 FROM logged l WHERE l.record_type = 'sender_return' AND l.record_id = r.id)
      UNION ALL SELECT 'destroyed_unlogged', 'payout_item', p.id::text FROM payout_batch_items p
        WHERE (p.creditor_name = ${E} OR p.creditor_iban = ${E})
          AND NOT EXISTS (SELECT 1 FROM logged l WHERE l.record_type = 'payout_item' AND l.record_id = p.id)
      UNION ALL SELECT 'destroyed_unlogged', 'audit_entry', a.id::text FROM audit_log a
        WHERE a.metadata_sha256 IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM logged l WHERE l.record_type = 'audit_entry' AND l.record_id = a.id)
      UNION ALL SELECT 'erasure_incomplete', x.kind, x.id::text FROM erasure_requests q
        JOIN LATERAL (
          SELECT 'deposit' AS kind, d.id FROM deposit_intents d WHERE d.site_id = q.site_id AND d.external_user_id = q.external_user_id
          UNION ALL SELECT 'withdrawal', w.id FROM withdrawals w WHERE w.site_id = q.site_id AND w.external_user_id = q.external_user_id
        ) x ON true
        WHERE q.status = 'COMPLETED'
          AND NOT EXISTS (SELECT 1 FROM logged l WHERE l.record_type = x.kind AND l.record_id = x.id)
      LIMIT 100`;
  }
}

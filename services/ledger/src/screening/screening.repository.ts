import { Prisma, type PrismaClient, type Screening } from '@kasa/db';
import type { AlongsideInsert } from '../site-records/site-scoped.repository.js';
import type { ListMatch, NameScreening } from './list-index.js';

type Tx = Prisma.TransactionClient;

export type SubjectType = 'withdrawal' | 'deposit';
/** A screening's outcome as stored; OPEN is a hit awaiting its decision, the last two are hits decided. */
export type ScreeningStatus = 'CLEAN' | 'KNOWN' | 'OPEN' | 'CLEARED' | 'CONFIRMED';

/** The statuses that hold their record: undecided, or confirmed as the listed person. */
export const HOLDING_STATUSES = ['OPEN', 'CONFIRMED'] as const;
/** The statuses of a hit (the compliance queue's rows). */
export const HIT_STATUSES = ['OPEN', 'CLEARED', 'CONFIRMED'] as const;

/** Withdrawals still open for screening: not yet SENT (nor returned after) and not REJECTED. */
const OPEN_WITHDRAWAL_STATUSES = ['PENDING_REVIEW', 'APPROVED'];
/** Deposits still open for screening: money arrived and no approval or rejection yet. */
export const OPEN_DEPOSIT_STATUSES = ['RESERVED', 'PENDING_REVIEW', 'LATE_ARRIVAL'] as const;

/** One screening to write: its subject, the name, what it found and the status that follows. */
export interface NewScreening {
  subjectType: SubjectType;
  subjectId: string;
  siteId: string;
  screenedName: string;
  screening: NameScreening;
  status: ScreeningStatus;
  /** The entry the status is about (the new hit's, or the best known one's); null when clean. */
  best: ListMatch | null;
  others: ListMatch[];
}

/** A hit with what the queue shows beside it: its record's reference. */
export type HitRow = Screening & { referenceNo: string | null };

const scoreBp = (match: ListMatch | null) => (match ? Math.round(match.score * 10_000) : null);
const otherHits = (others: ListMatch[]) =>
  others.map((match) => ({
    source: match.source,
    entryId: match.entryId,
    reference: match.reference,
    name: match.name,
    score: match.score,
  }));

/** The system actor of a hold: the screening itself, not a person. */
export const SCREENING_ACTOR = 'screening';

/**
 * The `SCREENING.HELD` audit entry of each new hit (`s`: the screening rows written), as a SELECT's head: the hit is
 * audited in the statement or transaction that writes it. House-wide like every compliance entry (no site_id).
 */
const HELD_AUDIT_INSERT = `INSERT INTO audit_log (id, site_id, actor_type, actor_id, action, entity_type, entity_id, metadata, created_at)
  SELECT gen_random_uuid(), NULL, 'SYSTEM'::"ActorType", '${SCREENING_ACTOR}', 'SCREENING.HELD', 'screening_hit', s.id::text,
    jsonb_build_object('subjectType', s.subject_type, 'subjectId', s.subject_id::text, 'siteId', s.site_id::text,
      'entrySource', s.entry_source, 'entryId', s.entry_id, 'entryReference', s.entry_reference,
      'score', (s.score_bp / 10000.0)::text), now()`;

/** The key a hit is known by on its record: the same entry of a list is one hit, whatever the version. */
export const entryKey = (source: string, entryId: string) => `${source}|${entryId}`;

/**
 * The screenings of names (docs/compliance.md, Sanctions and asset-freeze screening) and the holds their hits put on
 * withdrawals and deposits: every guard reads the hold here, inside the transaction that would move the record, after
 * locking it.
 */
export class ScreeningRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * The screening row of a record being created, written by the create's own statement (the record's id and site
   * come from the inserted row), so the record never exists without its screening.
   */
  alongsideCreate(row: Omit<NewScreening, 'subjectId' | 'siteId'>): AlongsideInsert {
    const { screening, best } = row;
    return {
      text: (first) => {
        const p = (offset: number) => `$${first + offset}`;
        return `screened AS (
          INSERT INTO screenings (id, subject_type, subject_id, site_id, screened_name, list_version_ids, versions_key, status,
            score_bp, entry_version_id, entry_source, entry_id, entry_reference, matched_name, other_hits, created_at)
          SELECT gen_random_uuid(), ${p(0)}::varchar, record.id, record.site_id, ${p(1)}::varchar, ${p(2)}::uuid[], ${p(3)}::text,
            ${p(4)}::varchar, ${p(5)}::int, ${p(6)}::uuid, ${p(7)}::varchar, ${p(8)}::varchar, ${p(9)}::varchar, ${p(10)}::varchar,
            ${p(11)}::jsonb, now()
          FROM record
          RETURNING id, subject_type, subject_id, site_id, status, score_bp, entry_source, entry_id, entry_reference
        ), held AS (
          ${HELD_AUDIT_INSERT} FROM screened s WHERE s.status = 'OPEN'
        )`;
      },
      values: [
        row.subjectType,
        row.screenedName,
        screening.versionIds,
        screening.versionsKey,
        row.status,
        scoreBp(best),
        best?.versionId ?? null,
        best?.source ?? null,
        best?.entryId ?? null,
        best?.reference ?? null,
        best?.name ?? null,
        JSON.stringify(otherHits(row.others)),
      ],
    };
  }

  /** A screening of a record that exists (the re-screening pass), in the caller's transaction; a hit audited with it. */
  async insert(tx: Tx, row: NewScreening): Promise<Screening> {
    const { screening, best } = row;
    const created = await tx.screening.create({
      data: {
        subjectType: row.subjectType,
        subjectId: row.subjectId,
        siteId: row.siteId,
        screenedName: row.screenedName,
        listVersionIds: screening.versionIds,
        versionsKey: screening.versionsKey,
        status: row.status,
        scoreBp: scoreBp(best),
        entryVersionId: best?.versionId ?? null,
        entrySource: best?.source ?? null,
        entryId: best?.entryId ?? null,
        entryReference: best?.reference ?? null,
        matchedName: best?.name ?? null,
        otherHits: otherHits(row.others),
      },
    });
    if (created.status === 'OPEN') {
      await tx.$executeRawUnsafe(`WITH s AS (SELECT * FROM screenings WHERE id = $1::uuid) ${HELD_AUDIT_INSERT} FROM s`, created.id);
    }
    return created;
  }

  /**
   * The hit holding this record (OPEN or CONFIRMED), or null. Call it after locking the record, in the transaction
   * that would move it: a hit committed before the lock was taken is seen (a new statement, a new snapshot).
   */
  holdOf(tx: Tx, subjectId: string): Promise<Screening | null> {
    return tx.screening.findFirst({
      where: { subjectId, status: { in: [...HOLDING_STATUSES] } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  /** Of these records (locked by the caller), those a hit holds. */
  async heldAmong(tx: Tx, subjectIds: readonly string[]): Promise<Set<string>> {
    if (subjectIds.length === 0) return new Set();
    const rows = await tx.screening.findMany({
      where: { subjectId: { in: [...subjectIds] }, status: { in: [...HOLDING_STATUSES] } },
      select: { subjectId: true },
    });
    return new Set(rows.map((row) => row.subjectId));
  }

  /** The entries this record already has a hit for (open or decided), by {@link entryKey}, and its newest versions key. */
  async historyOf(tx: Tx, subjectId: string): Promise<{ hitEntries: Set<string>; latestKey: string | null }> {
    const rows = await tx.screening.findMany({
      where: { subjectId },
      select: { status: true, entrySource: true, entryId: true, versionsKey: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const hitEntries = new Set(
      rows.flatMap((row) =>
        (HIT_STATUSES as readonly string[]).includes(row.status) && row.entrySource && row.entryId
          ? [entryKey(row.entrySource, row.entryId)]
          : [],
      ),
    );
    return { hitEntries, latestKey: rows.at(-1)?.versionsKey ?? null };
  }

  /** Locks a hit and reads it. */
  async lockHit(tx: Tx, id: string): Promise<Screening | null> {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM screenings WHERE id = ${id}::uuid AND status IN ('OPEN', 'CLEARED', 'CONFIRMED') FOR UPDATE`;
    if (locked.length === 0) return null;
    return tx.screening.findUnique({ where: { id } });
  }

  /** A locked hit's decisions (and, when settled, its new status), conditional on its status as locked. */
  async decide(tx: Tx, id: string, data: { decisions: Prisma.InputJsonValue; status?: 'CLEARED' | 'CONFIRMED'; decidedAt?: Date }) {
    const written = await tx.screening.updateMany({ where: { id, status: 'OPEN' }, data });
    if (written.count !== 1) throw new Error('a screening hit locked in this transaction changed under it');
    return tx.screening.findUniqueOrThrow({ where: { id } });
  }

  /** The hits with this status (OPEN: the queue, oldest first; decided: newest first), at most `limit`. */
  async hits(statuses: readonly string[], limit: number): Promise<HitRow[]> {
    const open = statuses.length === 1 && statuses[0] === 'OPEN';
    const rows = await this.db.screening.findMany({
      where: { status: { in: [...statuses] } },
      orderBy: open ? [{ createdAt: 'asc' }, { id: 'asc' }] : [{ decidedAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return this.withReferences(rows);
  }

  async findHit(id: string): Promise<HitRow | null> {
    const row = await this.db.screening.findFirst({ where: { id, status: { in: [...HIT_STATUSES] } } });
    return row ? ((await this.withReferences([row]))[0] ?? null) : null;
  }

  private async withReferences(rows: Screening[]): Promise<HitRow[]> {
    const ids = (type: SubjectType) => rows.filter((row) => row.subjectType === type).map((row) => row.subjectId);
    const [withdrawals, deposits] = await Promise.all([
      this.db.withdrawal.findMany({ where: { id: { in: ids('withdrawal') } }, select: { id: true, referenceNo: true } }),
      this.db.deposit.findMany({ where: { id: { in: ids('deposit') } }, select: { id: true, referenceNo: true } }),
    ]);
    const references = new Map([...withdrawals, ...deposits].map((record) => [record.id, record.referenceNo]));
    return rows.map((row) => ({ ...row, referenceNo: references.get(row.subjectId) ?? null }));
  }

  /**
   * Live withdrawals still open (PENDING_REVIEW or APPROVED) whose newest screening was not against the lists `key`
   * names (or that have none), oldest first: the re-screening pass's work after a list import.
   */
  withdrawalsToScreen(key: string, limit: number): Promise<Array<{ id: string; siteId: string; name: string }>> {
    return this.db.$queryRaw`
      SELECT w.id::text AS id, w.site_id::text AS "siteId", w.target_holder_name AS name
      FROM withdrawals w JOIN sites s ON s.id = w.site_id AND s.livemode
      WHERE w.status::text = ANY(${OPEN_WITHDRAWAL_STATUSES}::text[])
        AND COALESCE((SELECT versions_key FROM screenings x WHERE x.subject_id = w.id ORDER BY x.created_at DESC, x.id DESC LIMIT 1), '-') <> ${key}
      ORDER BY w.created_at, w.id
      LIMIT ${limit}`;
  }

  /**
   * Of these sites, the live ones whose policy screens deposit senders, read in the crediting transaction (a sandbox's
   * deposits are never screened: no real money moves, and a test key must not be a way to probe the lists).
   */
  async sitesScreeningSenders(tx: Tx, siteIds: readonly string[]): Promise<Set<string>> {
    if (siteIds.length === 0) return new Set();
    const rows = await tx.site.findMany({
      where: { id: { in: [...siteIds] }, livemode: true, screenDepositSenders: true },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  }

  /** The distinct sender names of the money a locked deposit holds (its MATCHED or ASSIGNED transfers), in the caller's transaction. */
  async sendersOf(tx: Tx, depositId: string): Promise<string[]> {
    const rows = await tx.bankTransfer.findMany({
      where: { intentId: depositId, status: { in: ['MATCHED', 'ASSIGNED'] } },
      select: { senderName: true },
      orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    });
    return [...new Set(rows.map((row) => row.senderName))];
  }

  /**
   * Open deposits (money arrived, not yet decided) of live sites that screen deposit senders, whose newest screening
   * was not against the lists `key` names (or that have none: credited before the site turned the policy on), oldest
   * first: the re-screening pass's deposits.
   */
  depositsToScreen(key: string, limit: number): Promise<Array<{ id: string; siteId: string }>> {
    return this.db.$queryRaw`
      SELECT d.id::text AS id, d.site_id::text AS "siteId"
      FROM deposit_intents d JOIN sites s ON s.id = d.site_id AND s.livemode AND s.screen_deposit_senders
      WHERE d.status::text = ANY(${[...OPEN_DEPOSIT_STATUSES]}::text[])
        AND EXISTS (SELECT 1 FROM bank_transfers t WHERE t.intent_id = d.id AND t.status IN ('MATCHED', 'ASSIGNED'))
        AND COALESCE((SELECT versions_key FROM screenings x WHERE x.subject_id = d.id ORDER BY x.created_at DESC, x.id DESC LIMIT 1), '-') <> ${key}
      ORDER BY d.created_at, d.id
      LIMIT ${limit}`;
  }

  /**
   * Withdrawals that moved past a hold (the journal check's `screening_hold_bypassed`): approved, put in a payout batch,
   * or sent (by hand, not in a batch made before the hit) after a hit that is still OPEN or was CONFIRMED had been
   * written for them.
   */
  holdsBypassed(): Promise<Array<{ withdrawalId: string; hitId: string; status: string; hitStatus: string; moved: string }>> {
    return this.db.$queryRaw`
      SELECT w.id::text AS "withdrawalId", h.id::text AS "hitId", w.status::text AS status, h.status AS "hitStatus",
        CASE WHEN w.approved_at > h.created_at THEN 'approved' WHEN b.created_at > h.created_at THEN 'batched' ELSE 'sent' END AS moved
      FROM screenings h
      JOIN withdrawals w ON w.id = h.subject_id
      LEFT JOIN payout_batch_items i ON i.withdrawal_id = w.id
      LEFT JOIN payout_batches b ON b.id = i.batch_id
      WHERE h.subject_type = 'withdrawal' AND h.status IN ('OPEN', 'CONFIRMED')
        AND (w.approved_at > h.created_at OR b.created_at > h.created_at
          -- Sent after the hit, unless its batch's file went to the bank before the hit: the statement then only
          -- confirms money that had left.
          OR (w.sent_at > h.created_at AND b.created_at IS NULL))
      ORDER BY w.id, h.id`;
  }

  /**
   * Deposits approved after a hit on their sender that is still OPEN or was CONFIRMED had been written for them (the
   * journal check's `screening_hold_bypassed`, `moved: approved`).
   */
  depositHoldsBypassed(): Promise<Array<{ intentId: string; hitId: string; status: string; hitStatus: string; moved: string }>> {
    return this.db.$queryRaw`
      SELECT d.id::text AS "intentId", h.id::text AS "hitId", d.status::text AS status, h.status AS "hitStatus", 'approved' AS moved
      FROM screenings h
      JOIN deposit_intents d ON d.id = h.subject_id
      WHERE h.subject_type = 'deposit' AND h.status IN ('OPEN', 'CONFIRMED') AND d.approved_at > h.created_at
      ORDER BY d.id, h.id`;
  }
}

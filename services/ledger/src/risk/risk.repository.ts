import { Prisma, type PrismaClient, type RiskFlag } from '@kasa/db';

type Tx = Prisma.TransactionClient;

export const RISK_RULES = ['name_mismatch', 'just_under_limit', 'returned_and_resent', 'stranger_credit', 'velocity'] as const;
export type RiskRule = (typeof RISK_RULES)[number];
export type RiskSubjectType = 'deposit' | 'bank_transfer';
export type RiskOutcome = 'no_action' | 'reported';

/** The windows the rules look back over, from the line's own booking time. */
export interface RiskWindows {
  /** `just_under_limit`: 24 hours. */
  nearLimitHours: number;
  /** `just_under_limit`: a credit at or above this share of the site's per-deposit maximum counts. */
  nearLimitShare: number;
  velocityMinutes: number;
  resentDays: number;
}

/** A bank line still to evaluate, with what the rules read about it in the same statement. */
export interface UncheckedLine {
  id: string;
  livemode: boolean;
  status: string;
  amount: bigint;
  senderName: string;
  senderIban: string;
  description: string;
  receivedAt: Date;
  /** The deposit the line is credited to (MATCHED or ASSIGNED), else null. */
  intentId: string | null;
  siteId: string | null;
  externalUserId: string | null;
  externalUserLabel: string | null;
  siteMaxAmount: bigint | null;
  /** The sender of the user's earliest other credited line on the site, when there is one. */
  firstSenderName: string | null;
  /**
   * The user's credited lines on the site near the site's maximum within `nearLimitHours` up to this one (it included;
   * lines booked at the same moment, as a day's statement books them, are taken in the order they were recorded).
   */
  nearCount: number;
  nearTotal: bigint;
  /** The user's credited lines on the site within `velocityMinutes` up to this one (it included). */
  velocityCount: number;
  velocityTotal: bigint;
  /** The latest return Kasa sent to this line's IBAN within `resentDays` before it, and the site it concerned. */
  returnId: string | null;
  returnSentAt: Date | null;
  returnSiteId: string | null;
}

/** A payout (a withdrawal's batch item) a line names by its reference. */
export interface NamedWithdrawal {
  reference: string;
  withdrawalId: string;
  siteId: string;
  creditorIban: string;
  livemode: boolean;
}

/** A flag to raise. */
export interface NewRiskFlag {
  siteId: string | null;
  rule: RiskRule;
  subjectType: RiskSubjectType;
  subjectId: string;
  bankTransferId: string;
  externalUserId: string | null;
  facts: Record<string, string | number | null>;
  dueAt: Date;
}

/** A flag with what the report and the console show beside it. */
export type RiskFlagRow = RiskFlag;

/** A report row: the flag, its site's name, and its bank line (the full IBAN: the file is for the authority). */
export type RiskReportRow = RiskFlag & {
  siteName: string | null;
  reference: string | null;
  amount: bigint | null;
  currency: string | null;
  senderName: string | null;
  senderIban: string | null;
};

/** Credited: the line's money went to a deposit. */
const CREDITED = Prisma.sql`('MATCHED', 'ASSIGNED')`;

/** Risk flags and the bank lines the risk worker has still to evaluate (docs/compliance.md, Risk flags and reports). */
export class RiskRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Locks up to `limit` lines still to evaluate, oldest first, skipping those another ledger's pass holds, each with the
   * facts the rules need (read in this statement, under the same snapshot).
   */
  async lockUnchecked(tx: Tx, limit: number, windows: RiskWindows): Promise<UncheckedLine[]> {
    const rows = await tx.$queryRaw<
      Array<Omit<UncheckedLine, 'nearCount' | 'velocityCount'> & { nearCount: bigint; velocityCount: bigint }>
    >`
      WITH page AS (
        SELECT id FROM bank_transfers WHERE risk_checked_at IS NULL ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      SELECT t.id::text, t.livemode, t.status::text AS status, t.amount, t.sender_name AS "senderName", t.sender_iban AS "senderIban",
        t.description, t.received_at AS "receivedAt",
        CASE WHEN t.status IN ${CREDITED} THEN t.intent_id::text END AS "intentId",
        d.site_id::text AS "siteId", d.external_user_id AS "externalUserId", d.external_user_label AS "externalUserLabel",
        s.max_amount AS "siteMaxAmount",
        first.sender_name AS "firstSenderName",
        coalesce(near.n, 0) AS "nearCount", coalesce(near.total, 0)::bigint AS "nearTotal",
        coalesce(fast.n, 0) AS "velocityCount", coalesce(fast.total, 0)::bigint AS "velocityTotal",
        r.id::text AS "returnId", r.sent_at AS "returnSentAt", r.site_id::text AS "returnSiteId"
      FROM page JOIN bank_transfers t ON t.id = page.id
      LEFT JOIN deposit_intents d ON d.id = t.intent_id AND t.status IN ${CREDITED}
      LEFT JOIN sites s ON s.id = d.site_id
      LEFT JOIN LATERAL (
        SELECT o.sender_name FROM bank_transfers o JOIN deposit_intents od ON od.id = o.intent_id
        WHERE od.site_id = d.site_id AND od.external_user_id = d.external_user_id AND o.id <> t.id
          AND o.status IN ${CREDITED} AND o.sender_name <> ''
        ORDER BY o.received_at, o.created_at, o.id LIMIT 1
      ) first ON d.id IS NOT NULL
      LEFT JOIN LATERAL (
        SELECT count(*) AS n, sum(o.amount) AS total FROM bank_transfers o JOIN deposit_intents od ON od.id = o.intent_id
        WHERE od.site_id = d.site_id AND od.external_user_id = d.external_user_id AND o.status IN ${CREDITED}
          AND o.received_at > t.received_at - make_interval(hours => ${windows.nearLimitHours})
          AND (o.received_at, o.created_at, o.id) <= (t.received_at, t.created_at, t.id)
          AND o.amount >= ceil(s.max_amount * ${windows.nearLimitShare}::numeric)
      ) near ON d.id IS NOT NULL
      LEFT JOIN LATERAL (
        SELECT count(*) AS n, sum(o.amount) AS total FROM bank_transfers o JOIN deposit_intents od ON od.id = o.intent_id
        WHERE od.site_id = d.site_id AND od.external_user_id = d.external_user_id AND o.status IN ${CREDITED}
          AND o.received_at > t.received_at - make_interval(mins => ${windows.velocityMinutes})
          AND (o.received_at, o.created_at, o.id) <= (t.received_at, t.created_at, t.id)
      ) fast ON d.id IS NOT NULL
      LEFT JOIN LATERAL (
        SELECT sr.id, sr.sent_at, coalesce(sd.site_id, od.site_id) AS site_id FROM sender_returns sr
        JOIN bank_transfers ot ON ot.id = sr.bank_transfer_id
        LEFT JOIN deposit_intents sd ON sd.id = sr.intent_id
        LEFT JOIN deposit_intents od ON od.id = ot.intent_id
        WHERE sr.status = 'SENT' AND sr.livemode AND sr.sender_iban = t.sender_iban AND sr.bank_transfer_id <> t.id
          AND sr.sent_at <= t.received_at AND sr.sent_at > t.received_at - make_interval(days => ${windows.resentDays})
        ORDER BY sr.sent_at DESC LIMIT 1
      ) r ON t.sender_iban <> ''
      ORDER BY t.created_at, t.id`;
    return rows.map((row) => ({ ...row, nearCount: Number(row.nearCount), velocityCount: Number(row.velocityCount) }));
  }

  /** The withdrawals' payouts these references name (a batch item each), for the stranger's-credit rule. */
  async withdrawalsNamed(tx: Tx, references: readonly string[]): Promise<NamedWithdrawal[]> {
    if (references.length === 0) return [];
    return tx.$queryRaw<NamedWithdrawal[]>`
      SELECT i.reference, i.withdrawal_id::text AS "withdrawalId", w.site_id::text AS "siteId", i.creditor_iban AS "creditorIban", s.livemode
      FROM payout_batch_items i JOIN withdrawals w ON w.id = i.withdrawal_id JOIN sites s ON s.id = w.site_id
      WHERE i.reference = ANY(${[...new Set(references)]}::text[])`;
  }

  /** Writes the flags not raised before (one per rule and subject) and returns those written. */
  async raise(tx: Tx, flags: readonly NewRiskFlag[]): Promise<RiskFlag[]> {
    if (flags.length === 0) return [];
    const written = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO risk_flags (id, site_id, rule, subject_type, subject_id, bank_transfer_id, external_user_id, facts, due_at, detected_at)
      SELECT gen_random_uuid(), f.site_id, f.rule, f.subject_type, f.subject_id, f.bank_transfer_id, f.external_user_id, f.facts, f.due_at, now()
      FROM unnest(${flags.map((f) => f.siteId)}::uuid[], ${flags.map((f) => f.rule)}::text[], ${flags.map((f) => f.subjectType)}::text[],
        ${flags.map((f) => f.subjectId)}::uuid[], ${flags.map((f) => f.bankTransferId)}::uuid[], ${flags.map((f) => f.externalUserId)}::text[],
        ${flags.map((f) => JSON.stringify(f.facts))}::jsonb[], ${flags.map((f) => f.dueAt.toISOString())}::timestamptz[])
        WITH ORDINALITY AS f(site_id, rule, subject_type, subject_id, bank_transfer_id, external_user_id, facts, due_at, ord)
      ORDER BY f.ord
      ON CONFLICT (rule, subject_type, subject_id) DO NOTHING
      RETURNING id::text`;
    return tx.riskFlag.findMany({ where: { id: { in: written.map((row) => row.id) } }, orderBy: { detectedAt: 'asc' } });
  }

  /** Marks the lines evaluated. */
  async markChecked(tx: Tx, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.$executeRaw`UPDATE bank_transfers SET risk_checked_at = now() WHERE id = ANY(${[...ids]}::uuid[])`;
  }

  /** The queue (OPEN, due soonest first) or the reviewed flags (newest review first), at most `limit`. */
  list(filter: { status: 'OPEN' | 'CLOSED'; rule?: RiskRule; siteId?: string }, limit: number): Promise<RiskFlag[]> {
    return this.db.riskFlag.findMany({
      where: { status: filter.status, ...(filter.rule ? { rule: filter.rule } : {}), ...(filter.siteId ? { siteId: filter.siteId } : {}) },
      orderBy: filter.status === 'OPEN' ? [{ dueAt: 'asc' }, { id: 'asc' }] : [{ reviewedAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
  }

  find(id: string): Promise<RiskFlag | null> {
    return this.db.riskFlag.findUnique({ where: { id } });
  }

  /** Locks a flag for its review. */
  async lock(tx: Tx, id: string): Promise<RiskFlag | null> {
    const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM risk_flags WHERE id = ${id}::uuid FOR UPDATE`;
    return locked.length === 0 ? null : tx.riskFlag.findUnique({ where: { id } });
  }

  /** Closes a locked OPEN flag with its outcome; conditional on its status as locked. */
  async close(
    tx: Tx,
    id: string,
    review: { outcome: RiskOutcome; note: string; operatorId: string | null; email: string | null; at: Date },
  ): Promise<RiskFlag> {
    const written = await tx.riskFlag.updateMany({
      where: { id, status: 'OPEN' },
      data: {
        status: 'CLOSED',
        outcome: review.outcome,
        note: review.note,
        reviewedByOperatorId: review.operatorId,
        reviewedByEmail: review.email,
        reviewedAt: review.at,
      },
    });
    if (written.count !== 1) throw new Error('a risk flag locked in this transaction changed under it');
    return tx.riskFlag.findUniqueOrThrow({ where: { id } });
  }

  /** The flags reported to the authority whose review falls in [from, to), oldest review first, with their line. */
  report(from: Date, to: Date): Promise<RiskReportRow[]> {
    return this.db.$queryRaw<RiskReportRow[]>`
      SELECT f.id, f.site_id AS "siteId", f.rule, f.subject_type AS "subjectType", f.subject_id AS "subjectId",
        f.bank_transfer_id AS "bankTransferId", f.external_user_id AS "externalUserId", f.facts, f.status,
        f.detected_at AS "detectedAt", f.due_at AS "dueAt", f.outcome, f.note, f.reviewed_by_operator_id AS "reviewedByOperatorId",
        f.reviewed_by_email AS "reviewedByEmail", f.reviewed_at AS "reviewedAt",
        s.name AS "siteName", coalesce(d.reference_no, t.bank_tx_id) AS reference, t.amount, t.currency,
        t.sender_name AS "senderName", t.sender_iban AS "senderIban"
      FROM risk_flags f
      LEFT JOIN sites s ON s.id = f.site_id
      LEFT JOIN bank_transfers t ON t.id = f.bank_transfer_id
      LEFT JOIN deposit_intents d ON d.id = f.subject_id AND f.subject_type = 'deposit'
      WHERE f.status = 'CLOSED' AND f.outcome = 'reported' AND f.reviewed_at >= ${from} AND f.reviewed_at < ${to}
      ORDER BY f.reviewed_at, f.id`;
  }

  /**
   * The journal check's risk invariants: OPEN flags past their due time (`risk_review_overdue`), and CLOSED flags with
   * no RISK.REVIEWED audit entry (`risk_review_unaudited`): a review written around the API.
   */
  async problems(now: Date): Promise<{
    overdue: Array<{ flagId: string; rule: string; dueAt: Date }>;
    unaudited: Array<{ flagId: string; rule: string; reviewedAt: Date | null }>;
  }> {
    const [overdue, unaudited] = await Promise.all([
      this.db.$queryRaw<Array<{ flagId: string; rule: string; dueAt: Date }>>`
        SELECT id::text AS "flagId", rule, due_at AS "dueAt" FROM risk_flags WHERE status = 'OPEN' AND due_at < ${now}
        ORDER BY due_at, id LIMIT 100`,
      this.db.$queryRaw<Array<{ flagId: string; rule: string; reviewedAt: Date | null }>>`
        SELECT f.id::text AS "flagId", f.rule, f.reviewed_at AS "reviewedAt" FROM risk_flags f
        WHERE f.status = 'CLOSED' AND NOT EXISTS (
          SELECT 1 FROM audit_log a WHERE a.entity_type = 'risk_flag' AND a.entity_id = f.id::text AND a.action = 'RISK.REVIEWED')
        ORDER BY f.reviewed_at, f.id LIMIT 100`,
    ]);
    return { overdue, unaudited };
  }
}

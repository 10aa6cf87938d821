import { Prisma, type FollowUp, type FollowUpKind, type PrismaClient } from '@kasa/db';

type Tx = Prisma.TransactionClient;

/** A follow-up a transaction promises: what it moves, the line that caused it, what the step needs. */
export interface NewFollowUp {
  kind: FollowUpKind;
  subjectId: string;
  receivingAccountId: string | null;
  lineKey: string;
  payload: Prisma.InputJsonValue;
  requestId: string | null;
}

/** Which pending follow-ups a run takes: these ids, those of these bank lines, or any that are due. */
export type FollowUpSelection =
  { ids: readonly string[] } | { receivingAccountId: string | null; lineKeys: readonly string[] } | { dueBefore: Date };

/** Where a run stands in the pending follow-ups' order. */
export interface FollowUpPosition {
  id: string;
  kind: FollowUpKind;
  createdAt: Date;
}

/**
 * The follow-ups table: written in the transaction that promises the work, claimed (`FOR UPDATE SKIP LOCKED`) by the
 * transaction that does it and finished there, so two ledgers never do the same work and a crash loses none.
 */
export class FollowUpRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Writes the promised work; a record that already has its follow-up of the kind keeps the first. Returns the new ids.
   * Due from the moment it is written, not from the start of its transaction: a long import's work is its own request's
   * to do first, the worker's only after the grace.
   */
  async promise(tx: Tx, followUps: readonly NewFollowUp[]): Promise<string[]> {
    if (followUps.length === 0) return [];
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO follow_ups (id, kind, subject_id, receiving_account_id, line_key, payload, request_id, due_at)
      SELECT gen_random_uuid(), f.kind::"FollowUpKind", f.subject_id, f.receiving_account_id, f.line_key, f.payload, f.request_id,
        clock_timestamp()
      FROM unnest(${followUps.map((f) => f.kind)}::text[], ${followUps.map((f) => f.subjectId)}::uuid[],
        ${followUps.map((f) => f.receivingAccountId)}::uuid[], ${followUps.map((f) => f.lineKey)}::text[],
        ${followUps.map((f) => JSON.stringify(f.payload))}::jsonb[], ${followUps.map((f) => f.requestId)}::text[])
        AS f(kind, subject_id, receiving_account_id, line_key, payload, request_id)
      ON CONFLICT (kind, subject_id) DO NOTHING
      RETURNING id::text`;
    return rows.map((row) => row.id);
  }

  /**
   * A page of the pending follow-ups a selection names, in the order they must be done (oldest first and, within one
   * commit, a payout's sending before its return), after `after` (the last of the previous page): read without a lock,
   * so a run knows what to claim; the claim decides who does each.
   */
  async pending(selection: FollowUpSelection, after: FollowUpPosition | null, limit: number): Promise<FollowUpPosition[]> {
    const where =
      'ids' in selection
        ? Prisma.sql`id = ANY(${[...selection.ids]}::uuid[])`
        : 'lineKeys' in selection
          ? Prisma.sql`receiving_account_id IS NOT DISTINCT FROM ${selection.receivingAccountId}::uuid AND line_key = ANY(${[...selection.lineKeys]}::text[])`
          : Prisma.sql`due_at <= ${selection.dueBefore.toISOString()}::timestamptz`;
    const from = after
      ? Prisma.sql`AND (created_at, kind, id) > (${after.createdAt.toISOString()}::timestamptz, ${after.kind}::"FollowUpKind", ${after.id}::uuid)`
      : Prisma.empty;
    return this.db.$queryRaw<FollowUpPosition[]>`
      SELECT id::text AS id, kind::text AS kind, created_at AS "createdAt" FROM follow_ups
      WHERE status = 'PENDING' AND ${where} ${from}
      ORDER BY created_at, kind, id LIMIT ${limit}`;
  }

  /**
   * The ids of the pending follow-ups of these bank lines, in the order they must be done (as {@link pending}), read
   * without a lock in one query: the claim decides who does each.
   */
  async pendingOfLines({
    receivingAccountId,
    lineKeys,
  }: {
    receivingAccountId: string | null;
    lineKeys: readonly string[];
  }): Promise<string[]> {
    if (lineKeys.length === 0) return [];
    const rows = await this.db.$queryRaw<Array<{ id: string }>>`
      SELECT id::text AS id FROM follow_ups
      WHERE status = 'PENDING' AND receiving_account_id IS NOT DISTINCT FROM ${receivingAccountId}::uuid
        AND line_key = ANY(${[...lineKeys]}::text[])
      ORDER BY created_at, kind, id`;
    return rows.map((row) => row.id);
  }

  /** The straight-through approval follow-up of each of these deposits that has one: where it stands, and why if skipped. */
  async approvalsOf(depositIds: readonly string[]): Promise<Map<string, { status: string; outcome: string | null }>> {
    const rows = await this.db.followUp.findMany({
      where: { kind: 'DEPOSIT_APPROVAL', subjectId: { in: [...depositIds] } },
      select: { subjectId: true, status: true, outcome: true },
    });
    return new Map(rows.map((row) => [row.subjectId, { status: row.status, outcome: row.outcome }]));
  }

  /** Of these withdrawals, those whose sending a follow-up still has to record (their return waits for it). */
  async sendingPending(tx: Tx, withdrawalIds: readonly string[]): Promise<Set<string>> {
    if (withdrawalIds.length === 0) return new Set();
    const rows = await tx.followUp.findMany({
      where: { kind: 'WITHDRAWAL_SENT', status: 'PENDING', subjectId: { in: [...withdrawalIds] } },
      select: { subjectId: true },
    });
    return new Set(rows.map((row) => row.subjectId));
  }

  /** A savepoint in the claiming transaction: one record's step that is refused is undone alone. */
  async savepoint(tx: Tx): Promise<void> {
    await tx.$executeRaw`SAVEPOINT follow_up_step`;
  }

  async release(tx: Tx): Promise<void> {
    await tx.$executeRaw`RELEASE SAVEPOINT follow_up_step`;
  }

  async rollbackToSavepoint(tx: Tx): Promise<void> {
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT follow_up_step`;
  }

  /** Locks those of `ids` still PENDING that nobody else holds; the others are someone else's, or done. */
  claim(tx: Tx, ids: readonly string[]): Promise<FollowUp[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return tx.$queryRaw<FollowUp[]>`
      SELECT id::text AS id, kind::text AS kind, subject_id::text AS "subjectId",
        receiving_account_id::text AS "receivingAccountId", line_key AS "lineKey", payload, status::text AS status, outcome,
        attempts, request_id AS "requestId", due_at AS "dueAt", created_at AS "createdAt", finished_at AS "finishedAt"
      FROM follow_ups WHERE id = ANY(${[...ids]}::uuid[]) AND status = 'PENDING'
      ORDER BY created_at, kind, id FOR UPDATE SKIP LOCKED`;
  }

  /** Marks claimed follow-ups done, or skipped with the reason (an operator decided the record first). */
  async finish(tx: Tx, done: readonly string[], skipped: ReadonlyArray<{ id: string; reason: string }>): Promise<void> {
    if (done.length > 0) {
      await tx.followUp.updateMany({ where: { id: { in: [...done] } }, data: { status: 'DONE', finishedAt: new Date(), outcome: null } });
    }
    if (skipped.length === 0) return;
    await tx.$executeRaw`
      UPDATE follow_ups f SET status = 'SKIPPED', outcome = left(s.reason, 500), finished_at = now()
      FROM unnest(${skipped.map((s) => s.id)}::uuid[], ${skipped.map((s) => s.reason)}::text[]) AS s(id, reason)
      WHERE f.id = s.id`;
  }

  /** A try that failed as a whole: counted, the error kept, and tried again after 2 s, doubled each time, at most 5 minutes. */
  async deferred(ids: readonly string[], error: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.$executeRaw`
      UPDATE follow_ups SET attempts = attempts + 1, outcome = left(${error}, 500),
        due_at = now() + least(interval '5 minutes', interval '2 seconds' * power(2, least(attempts, 8)))
      WHERE id = ANY(${[...ids]}::uuid[]) AND status = 'PENDING'`;
  }

  /**
   * Follow-ups the books contradict (the journal check's `promised_work_undone`): one marked DONE whose record is not in
   * the state its step leads to (`case: done_not_applied`), or one still PENDING long after its commit
   * (`case: overdue`: no ledger's worker is doing the work).
   */
  undone(overdueAfterMs: number): Promise<Array<{ case: string; followUpId: string; kind: string; subjectId: string; createdAt: Date }>> {
    return this.db.$queryRaw`
      SELECT 'done_not_applied' AS case, f.id::text AS "followUpId", f.kind::text AS kind, f.subject_id::text AS "subjectId",
        f.created_at AS "createdAt"
      FROM follow_ups f
      LEFT JOIN deposit_intents d ON f.kind = 'DEPOSIT_APPROVAL' AND d.id = f.subject_id
      LEFT JOIN withdrawals w ON f.kind IN ('WITHDRAWAL_SENT', 'WITHDRAWAL_RETURNED') AND w.id = f.subject_id
      LEFT JOIN sender_returns r ON f.kind = 'RETURN_SENT' AND r.id = f.subject_id
      WHERE f.status = 'DONE' AND NOT (
        (f.kind = 'DEPOSIT_APPROVAL' AND d.status = 'APPROVED')
        OR (f.kind = 'WITHDRAWAL_SENT' AND w.status IN ('SENT', 'RETURNED'))
        OR (f.kind = 'WITHDRAWAL_RETURNED' AND w.status = 'RETURNED')
        OR (f.kind = 'RETURN_SENT' AND r.status = 'SENT'))
      UNION ALL
      SELECT 'overdue', id::text, kind::text, subject_id::text, created_at FROM follow_ups
      WHERE status = 'PENDING' AND created_at < now() - ${overdueAfterMs} * interval '1 millisecond'
      ORDER BY 5 LIMIT 100`;
  }

  /** How many follow-ups wait, and since when the oldest does (the on-call's gauge). */
  async backlog(): Promise<{ pending: number; oldest: Date | null }> {
    const [pending, oldest] = await Promise.all([
      this.db.followUp.count({ where: { status: 'PENDING' } }),
      this.db.followUp.findFirst({ where: { status: 'PENDING' }, orderBy: { createdAt: 'asc' }, select: { createdAt: true } }),
    ]);
    return { pending, oldest: oldest?.createdAt ?? null };
  }
}

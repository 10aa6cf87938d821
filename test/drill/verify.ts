/**
 * After the drill: every acknowledged write looked up again through the real APIs (a create by its id, an
 * approval by its record's status, a line by its deposit), the database asked for what a partner cannot see
 * (two records for one Idempotency-Key, a deposit credited twice, an event minted twice), and every event the
 * ledger recorded waited for at the webhook receiver. Each finding carries the phase it belongs to.
 */
import pg from 'pg';
import { STRAIGHT_THROUGH_MAX, type Traffic } from './traffic.js';
import { sleep } from './wait.js';

export interface Finding {
  phase: string;
  what: string;
}

export interface Verification {
  lost: Finding[];
  duplicates: Finding[];
  events: {
    recorded: number;
    delivered: number;
    /** Deliveries of an event id already delivered: what at-least-once allows. */
    redelivered: number;
    /** Event ids the receiver got that the ledger has no record of (events about records that are gone). */
    unknown: number;
    /** Per phase (of the event's creation), events recorded but never delivered. */
    undelivered: Finding[];
    /**
     * Why they were not: the undelivered events grouped by what the database and the queue say of them
     * (outbox status, whether enqueued, attempts and the last attempt's error, the job's state), with a count.
     */
    undeliveredWhy: string[];
  };
}

export interface VerifyTargets {
  gatewayUrl: string;
  apiKey: string;
  siteId: string;
  /** A single-host URL of the server that accepts writes now. */
  databaseUrl: string;
  /** Distinct event ids the receiver got, with how many deliveries each. */
  deliveries: () => Map<string, number>;
  /** Which phase a moment belongs to. */
  phaseAt: (at: number) => string;
  eventsDeadlineMs: number;
  /** What the queue holds for an event's first delivery job: its state and attempts, or `no job`. */
  jobOf: (eventId: string) => Promise<string>;
}

/** Runs `task` over `items` with at most `width` at once. */
async function eachLimited<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

/** GET through the gateway, retried a few times on a failure (the system has settled; a blip is not a loss). */
async function lookup(targets: VerifyTargets, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(`${targets.gatewayUrl}/api/v1/external${path}`, {
        headers: { authorization: `Bearer ${targets.apiKey}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (response.status < 500 || attempt >= 4)
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch (error) {
      if (attempt >= 4) throw error;
    }
    await sleep(500 * attempt);
  }
}

const APPROVED_OR_LATER: Record<'deposit' | 'withdrawal', string[]> = {
  deposit: ['APPROVED'],
  withdrawal: ['APPROVED', 'SENT', 'RETURNED'],
};

export async function verify(traffic: Traffic, targets: VerifyTargets): Promise<Verification> {
  const lost: Finding[] = [];
  const duplicates: Finding[] = traffic.keyConflicts.map(({ key, first, second, phase }) => ({
    phase,
    what: `Idempotency-Key ${key} answered ${first} and later ${second}`,
  }));
  const statusOf = new Map<string, string>();
  await eachLimited([...traffic.creates.values()], 16, async (create) => {
    const { status, body } = await lookup(targets, create.kind === 'deposit' ? `/intents/${create.id}` : `/withdrawals/${create.id}`);
    if (status !== 200 || body.amount !== create.body.amount) {
      lost.push({ phase: create.phase, what: `${create.kind} ${create.id} (acknowledged 201) answers ${status}` });
      return;
    }
    statusOf.set(create.id, String(body.status));
  });
  for (const approval of traffic.approvals) {
    const status = statusOf.get(approval.id);
    if (status && !APPROVED_OR_LATER[approval.kind].includes(status))
      lost.push({ phase: approval.phase, what: `${approval.kind} ${approval.id} approved (200) is ${status}` });
  }
  for (const line of traffic.lines) {
    const status = statusOf.get(line.intentId);
    // Paid by an acknowledged line: never RESERVED again; paid exactly and small enough, approved straight through.
    const straightThrough = BigInt(line.amount) <= STRAIGHT_THROUGH_MAX;
    if (status && (status === 'RESERVED' || (straightThrough && status !== 'APPROVED')))
      lost.push({ phase: line.phase, what: `deposit ${line.intentId} paid by line ${line.bankTxId} (acknowledged) is ${status}` });
  }

  const db = new pg.Client({ connectionString: targets.databaseUrl });
  await db.connect();
  try {
    const twice = async (sql: string, what: (row: Record<string, unknown>) => string) => {
      const { rows } = await db.query<Record<string, unknown> & { at: Date }>(sql, [targets.siteId]);
      for (const row of rows) duplicates.push({ phase: targets.phaseAt(row.at.getTime()), what: what(row) });
    };
    await twice(
      `SELECT external_user_id AS user, count(*)::int AS n, max(created_at) AS at FROM deposit_intents WHERE site_id = $1
       GROUP BY external_user_id HAVING count(*) > 1`,
      (row) => `${String(row.n)} deposits for one Idempotency-Key (user ${String(row.user)})`,
    );
    await twice(
      `SELECT external_user_id AS user, count(*)::int AS n, max(created_at) AS at FROM withdrawals WHERE site_id = $1
       GROUP BY external_user_id HAVING count(*) > 1`,
      (row) => `${String(row.n)} withdrawals for one Idempotency-Key (user ${String(row.user)})`,
    );
    await twice(
      `SELECT entity_id AS id, count(*)::int AS n, max(created_at) AS at FROM journal_entries
       WHERE site_id = $1 AND entity_type = 'deposit_intent' AND account = 'site_available' GROUP BY entity_id HAVING count(*) > 1`,
      (row) => `deposit ${String(row.id)} credited ${String(row.n)} times`,
    );
    await twice(
      `SELECT entity_id AS id, count(*)::int AS n, max(created_at) AS at FROM journal_entries
       WHERE site_id = $1 AND entity_type = 'withdrawal' AND account = 'site_reserved' AND amount < 0 GROUP BY entity_id HAVING count(*) > 1`,
      (row) => `withdrawal ${String(row.id)} reserved ${String(row.n)} times`,
    );
    await twice(
      `SELECT type, entity_id AS id, count(*)::int AS n, max(created_at) AS at FROM outbox_events WHERE site_id = $1
       GROUP BY type, entity_id HAVING count(*) > 1`,
      (row) => `${String(row.n)} ${String(row.type)} events for ${String(row.id)}`,
    );

    // Every event the ledger recorded reaches the receiver (the worker may need its retry and stall periods).
    const { rows: events } = await db.query<{ id: string; at: Date }>('SELECT id, created_at AS at FROM outbox_events WHERE site_id = $1', [
      targets.siteId,
    ]);
    const deadline = Date.now() + targets.eventsDeadlineMs;
    let missing = events;
    for (;;) {
      const delivered = targets.deliveries();
      missing = events.filter((event) => !delivered.has(event.id));
      if (missing.length === 0 || Date.now() > deadline) break;
      await sleep(500);
    }
    const delivered = targets.deliveries();
    const recorded = new Set(events.map((event) => event.id));
    let redelivered = 0;
    let unknown = 0;
    for (const [id, count] of delivered) {
      redelivered += count - 1;
      if (!recorded.has(id)) unknown += 1;
    }
    const undeliveredWhy = await explainUndelivered(
      db,
      targets,
      missing.map((event) => event.id),
    );
    return {
      lost,
      duplicates,
      events: {
        recorded: events.length,
        delivered: [...delivered.keys()].filter((id) => recorded.has(id)).length,
        redelivered,
        unknown,
        undelivered: missing.map((event) => ({ phase: targets.phaseAt(event.at.getTime()), what: `event ${event.id} not delivered` })),
        undeliveredWhy,
      },
    };
  } finally {
    await db.end();
  }
}

/**
 * Groups undelivered events by what the outbox row and the queue say of them, so a failed drill says where the
 * events stopped (never enqueued, a job waiting out a retry delay, no job at all) rather than only how many.
 */
async function explainUndelivered(db: pg.Client, targets: VerifyTargets, eventIds: string[]): Promise<string[]> {
  if (eventIds.length === 0) return [];
  const { rows } = await db.query<{ id: string; status: string; enqueued: boolean; attempts: number; error: string | null }>(
    `SELECT e.id, e.status, e.enqueued_at IS NOT NULL AS enqueued, e.attempt_count AS attempts,
            (SELECT coalesce(a.error, 'HTTP ' || a.status_code) FROM delivery_attempts a WHERE a.event_id = e.id
             ORDER BY a.started_at DESC LIMIT 1) AS error
       FROM outbox_events e WHERE e.id = ANY($1::uuid[])`,
    [eventIds],
  );
  const groups = new Map<string, number>();
  for (const row of rows) {
    const job = await targets.jobOf(row.id).catch((error: unknown) => `job unreadable (${String(error)})`);
    const why =
      `${row.status}, ${row.enqueued ? 'enqueued' : 'never enqueued'}, ${row.attempts} attempt(s)` +
      `${row.error ? `, last: ${row.error.slice(0, 120)}` : ''}; ${job}`;
    groups.set(why, (groups.get(why) ?? 0) + 1);
  }
  return [...groups].sort((a, b) => b[1] - a[1]).map(([why, count]) => `${count} × ${why}`);
}

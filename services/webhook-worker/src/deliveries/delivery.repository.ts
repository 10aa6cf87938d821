import type pg from 'pg';
import { MicroBatch } from '@kasa/db';
import type { EventStatus } from '@kasa/db';

/** An event with what its delivery needs: the site's current URL and sealed secrets. */
export interface EventToDeliver {
  id: string;
  siteId: string;
  status: EventStatus;
  payload: unknown;
  /** The request that caused the event (the partner's or operator's X-Request-Id), for the attempt's log lines. */
  requestId: string | null;
  site: {
    webhookUrl: string | null;
    webhookSecretEnc: string | null;
    previousWebhookSecretEnc: string | null;
    previousSecretExpiresAt: Date | null;
  };
}

/** One try at delivering, as recorded in `delivery_attempts`. */
export interface AttemptRecord {
  url: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

/** What an attempt does to its event: DELIVERED on 2xx, DEAD after the last failure, else it stays PENDING. */
export type AttemptOutcome = 'DELIVERED' | 'RETRY' | 'DEAD';

interface EventRow {
  id: string;
  site_id: string;
  status: EventStatus;
  payload: unknown;
  request_id: string | null;
  webhook_url: string | null;
  webhook_secret_enc: string | null;
  previous_webhook_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
}

interface AttemptInput {
  eventId: string;
  attempt: AttemptRecord;
  outcome: AttemptOutcome;
}

/**
 * The worker's reads and writes of the delivery ledger: plain statements on a pg pool, batched across the
 * deliveries in flight (one read and one write statement per batch rather than per delivery).
 */
export class DeliveryRepository {
  private readonly loads: MicroBatch<string, EventToDeliver | null>;
  private readonly attempts: MicroBatch<AttemptInput, number>;

  constructor(private readonly pool: pg.Pool) {
    this.loads = new MicroBatch(
      (ids) => this.loadMany(ids),
      (id) => id,
    );
    // Two attempts of one event (a duplicate job) go to separate statements, so each gets its own number.
    this.attempts = new MicroBatch(
      (inputs) => this.recordMany(inputs),
      (input) => input.eventId,
    );
  }

  /** The event joined with its site's delivery settings. */
  loadEvent(eventId: string): Promise<EventToDeliver | null> {
    return this.loads.call(eventId);
  }

  /**
   * Records an attempt and applies its outcome in one statement: the event's attempt counter is the attempt
   * number, so numbers stay gapless even when two workers race on a duplicate job. A late failure never
   * turns a DELIVERED event DEAD.
   */
  recordAttempt(eventId: string, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<number> {
    return this.attempts.call({ eventId, attempt, outcome });
  }

  /** Sites with DEAD events created since `since` (the auto-replay window), each with its oldest such event's time. */
  async sitesWithDeadEvents(since: Date): Promise<Array<{ siteId: string; oldestDeadAt: Date }>> {
    const { rows } = await this.pool.query<{ site_id: string; oldest: Date }>(
      `SELECT site_id::text AS site_id, min(created_at) AS oldest FROM outbox_events
       WHERE status = 'DEAD' AND created_at >= $1 GROUP BY site_id ORDER BY oldest`,
      [since],
    );
    return rows.map((row) => ({ siteId: row.site_id, oldestDeadAt: row.oldest }));
  }

  /** A site's current webhook URL and sealed secrets, and whether it is live (not a sandbox), for a probe. */
  async probeTarget(siteId: string): Promise<(Pick<EventToDeliver, 'siteId' | 'site'> & { livemode: boolean }) | null> {
    const { rows } = await this.pool.query<Omit<EventRow, 'id' | 'status' | 'payload' | 'request_id'> & { livemode: boolean }>(
      `SELECT id::text AS site_id, livemode, webhook_url, webhook_secret_enc, previous_webhook_secret_enc, previous_secret_expires_at
       FROM sites WHERE id = $1`,
      [siteId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      siteId: row.site_id,
      livemode: row.livemode,
      site: {
        webhookUrl: row.webhook_url,
        webhookSecretEnc: row.webhook_secret_enc,
        previousWebhookSecretEnc: row.previous_webhook_secret_enc,
        previousSecretExpiresAt: row.previous_secret_expires_at,
      },
    };
  }

  private async loadMany(ids: string[]): Promise<Array<EventToDeliver | null>> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT e.id::text AS id, e.site_id::text AS site_id, e.status::text AS status, e.payload, e.request_id, s.webhook_url,
              s.webhook_secret_enc, s.previous_webhook_secret_enc, s.previous_secret_expires_at
       FROM outbox_events e JOIN sites s ON s.id = e.site_id
       WHERE e.id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) return null;
      return {
        id: row.id,
        siteId: row.site_id,
        status: row.status,
        payload: row.payload,
        requestId: row.request_id,
        site: {
          webhookUrl: row.webhook_url,
          webhookSecretEnc: row.webhook_secret_enc,
          previousWebhookSecretEnc: row.previous_webhook_secret_enc,
          previousSecretExpiresAt: row.previous_secret_expires_at,
        },
      };
    });
  }

  private async recordMany(inputs: AttemptInput[]): Promise<number[]> {
    const column = <T>(pick: (input: AttemptInput) => T) => inputs.map(pick);
    const { rows } = await this.pool.query<{ event_id: string; attempt_no: number }>(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[])
           AS t(event_id, started_at, outcome, url, duration_ms, status_code, error, response_body)
       ), event AS (
         UPDATE outbox_events e SET
           attempt_count = e.attempt_count + 1,
           last_attempt_at = i.started_at,
           status = CASE
             WHEN i.outcome = 'DELIVERED' THEN 'DELIVERED'::"EventStatus"
             WHEN i.outcome = 'DEAD' AND e.status <> 'DELIVERED' THEN 'DEAD'::"EventStatus"
             ELSE e.status END,
           delivered_at = CASE WHEN i.outcome = 'DELIVERED' THEN now() ELSE e.delivered_at END,
           dead_at = CASE WHEN i.outcome = 'DEAD' AND e.status <> 'DELIVERED' THEN now() ELSE e.dead_at END,
           updated_at = now()
         FROM input i
         WHERE e.id = i.event_id
         RETURNING e.id, e.attempt_count
       )
       INSERT INTO delivery_attempts (id, event_id, attempt_no, url, started_at, duration_ms, status_code, error, response_body, created_at)
       SELECT gen_random_uuid(), i.event_id, event.attempt_count, i.url, i.started_at, i.duration_ms, i.status_code, i.error, i.response_body, now()
       FROM input i JOIN event ON event.id = i.event_id
       RETURNING event_id::text AS event_id, attempt_no`,
      [
        column((i) => i.eventId),
        column((i) => i.attempt.startedAt),
        column((i) => i.outcome),
        column((i) => i.attempt.url),
        column((i) => i.attempt.durationMs),
        column((i) => i.attempt.statusCode),
        column((i) => i.attempt.error),
        column((i) => i.attempt.responseBody),
      ],
    );
    const numbers = new Map(rows.map((row) => [row.event_id, row.attempt_no]));
    return inputs.map((input) => numbers.get(input.eventId) ?? 0);
  }
}

import type pg from 'pg';
import type { EventStatus } from '@kasa/db';

/** An event with what its delivery needs: the site's current URL and sealed secrets. */
export interface EventToDeliver {
  id: string;
  siteId: string;
  status: EventStatus;
  payload: unknown;
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

/**
 * The worker's reads and writes of the delivery ledger: two plain statements per delivery on a pg pool
 * (no ORM on this path, which runs hundreds of times a second).
 */
export class DeliveryRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** One round trip on the hot path: the event joined with its site's delivery settings. */
  async loadEvent(eventId: string): Promise<EventToDeliver | null> {
    const { rows } = await this.pool.query<{
      id: string;
      site_id: string;
      status: EventStatus;
      payload: unknown;
      webhook_url: string | null;
      webhook_secret_enc: string | null;
      previous_webhook_secret_enc: string | null;
      previous_secret_expires_at: Date | null;
    }>(
      `SELECT e.id::text AS id, e.site_id::text AS site_id, e.status::text AS status, e.payload, s.webhook_url,
              s.webhook_secret_enc, s.previous_webhook_secret_enc, s.previous_secret_expires_at
       FROM outbox_events e JOIN sites s ON s.id = e.site_id
       WHERE e.id = $1`,
      [eventId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      siteId: row.site_id,
      status: row.status,
      payload: row.payload,
      site: {
        webhookUrl: row.webhook_url,
        webhookSecretEnc: row.webhook_secret_enc,
        previousWebhookSecretEnc: row.previous_webhook_secret_enc,
        previousSecretExpiresAt: row.previous_secret_expires_at,
      },
    };
  }

  /**
   * Records an attempt and applies its outcome in one statement: the event's attempt counter is the attempt
   * number, so numbers stay gapless even when two workers race on a duplicate job. A late failure never
   * turns a DELIVERED event DEAD.
   */
  async recordAttempt(eventId: string, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<number> {
    const { rows } = await this.pool.query<{ attempt_no: number }>(
      `WITH event AS (
         UPDATE outbox_events SET
           attempt_count = attempt_count + 1,
           last_attempt_at = $2,
           status = CASE
             WHEN $3::text = 'DELIVERED' THEN 'DELIVERED'::"EventStatus"
             WHEN $3::text = 'DEAD' AND status <> 'DELIVERED' THEN 'DEAD'::"EventStatus"
             ELSE status END,
           delivered_at = CASE WHEN $3::text = 'DELIVERED' THEN now() ELSE delivered_at END,
           dead_at = CASE WHEN $3::text = 'DEAD' AND status <> 'DELIVERED' THEN now() ELSE dead_at END,
           updated_at = now()
         WHERE id = $1
         RETURNING attempt_count
       )
       INSERT INTO delivery_attempts (id, event_id, attempt_no, url, started_at, duration_ms, status_code, error, response_body, created_at)
       SELECT gen_random_uuid(), $1, event.attempt_count, $4, $2, $5, $6, $7, $8, now()
       FROM event
       RETURNING attempt_no`,
      [eventId, attempt.startedAt, outcome, attempt.url, attempt.durationMs, attempt.statusCode, attempt.error, attempt.responseBody],
    );
    return rows[0]?.attempt_no ?? 0;
  }
}

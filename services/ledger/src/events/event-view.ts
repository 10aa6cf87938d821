import type { AttemptView, EventView } from '@kasa/contracts';
import { isoOrNull } from '../shared/iso.js';
import type { EventRow, EventWithAttempts } from './event.repository.js';

export type { AttemptView, EventView };

/** The webhook body in its documented key order (PostgreSQL's jsonb keeps its own order). */
export function orderedPayload(payload: unknown): unknown {
  const value = payload as { eventId?: unknown; type?: unknown; createdAt?: unknown; data?: unknown };
  return { eventId: value.eventId, type: value.type, createdAt: value.createdAt, data: value.data };
}

export function toEventView(row: EventRow): EventView {
  return {
    eventId: row.id,
    type: row.type,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    attemptCount: row.attemptCount,
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    deliveredAt: isoOrNull(row.deliveredAt),
    deadAt: isoOrNull(row.deadAt),
    payload: orderedPayload(row.payload),
  };
}

/** The single-event read: the event and every delivery attempt, oldest first. */
export function toEventDetail(row: EventWithAttempts): EventView & { attempts: AttemptView[] } {
  return {
    ...toEventView(row),
    attempts: row.attempts.map((attempt) => ({
      attemptNo: attempt.attemptNo,
      url: attempt.url,
      startedAt: attempt.startedAt.toISOString(),
      durationMs: attempt.durationMs,
      statusCode: attempt.statusCode,
      error: attempt.error,
      responseBody: attempt.responseBody,
    })),
  };
}

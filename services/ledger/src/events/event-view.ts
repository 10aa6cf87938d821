import { webhookBody } from '@kasa/webhook-sender';
import type { AttemptView, EventView } from '@kasa/contracts';
import type { Prisma } from '@kasa/db';
import { isoOrNull } from '../shared/iso.js';
import type { EventRepository, EventRow, EventUser, EventWithAttempts } from './event.repository.js';

export type { AttemptView, EventView };

/**
 * The webhook body exactly as the worker delivers it, in its documented key order (PostgreSQL's jsonb keeps its own
 * order): `livemode` and `topUp` included, from the one function that builds the body.
 */
export function orderedPayload(payload: unknown): unknown {
  return JSON.parse(webhookBody(payload)) as unknown;
}

/**
 * What {@link nextAttemptAt} needs besides the row: the worker's retry delay (WEBHOOK_RETRY_DELAY_MS, the same
 * config the worker's retry schedule reads) and, per event, when its latest replay opened the current delivery cycle.
 */
export interface DeliverySchedule {
  retryDelayMs: number;
  replayedAt?: ReadonlyMap<string, Date>;
}

/**
 * When the next delivery attempt of a PENDING event is due, from stored data only. A delivery cycle starts
 * when the event is written or replayed, and its job runs at once: before any attempt of the current cycle the
 * attempt is due at the cycle's start. After a failed attempt the worker retries after the delay moved by its
 * jitter (+/- WEBHOOK_RETRY_JITTER_PERCENT, 10%), so it is planned for `lastAttemptAt + retryDelayMs`, the middle of
 * that window (services/webhook-worker/src/deliveries/retry-schedule.ts). A PENDING event always has an attempt left: the worker marks the
 * event DEAD on the cycle's last failure (WEBHOOK_MAX_ATTEMPTS, 8), and DELIVERED or DEAD has none (null).
 * The attempt runs within the jitter around it; a deferral for a failing site or a backlog can send later, and a
 * time in the past means the attempt is due now.
 */
export function nextAttemptAt(
  row: Pick<EventRow, 'id' | 'status' | 'createdAt' | 'lastAttemptAt'>,
  schedule: DeliverySchedule,
): Date | null {
  if (row.status !== 'PENDING') return null;
  const replayedAt = schedule.replayedAt?.get(row.id);
  const cycleStart = replayedAt && replayedAt > row.createdAt ? replayedAt : row.createdAt;
  if (!row.lastAttemptAt || row.lastAttemptAt < cycleStart) return cycleStart;
  return new Date(row.lastAttemptAt.getTime() + schedule.retryDelayMs);
}

/** The schedule for these rows: the configured retry delay and the replay times of their attempted PENDING events. */
export async function deliveryScheduleOf(
  deps: { events: EventRepository; config: { webhookRetryDelayMs: number } },
  rows: ReadonlyArray<Pick<EventRow, 'id' | 'status'>>,
): Promise<DeliverySchedule> {
  return { retryDelayMs: deps.config.webhookRetryDelayMs, replayedAt: await deps.events.replayTimes(rows) };
}

export function toEventView(row: EventRow, schedule: DeliverySchedule): EventView {
  return {
    eventId: row.id,
    type: row.type,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    attemptCount: row.attemptCount,
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    deliveredAt: isoOrNull(row.deliveredAt),
    deadAt: isoOrNull(row.deadAt),
    nextAttemptAt: isoOrNull(nextAttemptAt(row, schedule)),
    payload: orderedPayload(row.payload),
  };
}

/** The single-event read: the event and every delivery attempt, oldest first. */
export function toEventDetail(row: EventWithAttempts, schedule: DeliverySchedule): EventView & { attempts: AttemptView[] } {
  return {
    ...toEventView(row, schedule),
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

/** The deposit's or withdrawal's id in an event's webhook data (`intentId` or `withdrawalId`). */
function recordIdOf(payload: unknown): { intentId?: string; withdrawalId?: string } {
  const data = (payload as { data?: Record<string, unknown> } | null)?.data;
  if (!data) return {};
  if (typeof data.intentId === 'string') return { intentId: data.intentId };
  return typeof data.withdrawalId === 'string' ? { withdrawalId: data.withdrawalId } : {};
}

/**
 * Operators' event views with the end user of the record each reports on (`user`, null when the record is not
 * found), read for the whole page at once: an operator tells events apart by reference and user, not by id.
 */
export async function withUsers<View extends { payload: unknown }>(
  events: Pick<EventRepository, 'usersOf'>,
  views: View[],
  /** The ops list's transaction (its statement timeout), when a list page asks. */
  tx?: Prisma.TransactionClient,
): Promise<Array<View & { user: EventUser | null }>> {
  const ids = views.map((view) => recordIdOf(view.payload));
  const users = await events.usersOf(
    ids.flatMap((id) => (id.intentId ? [id.intentId] : [])),
    ids.flatMap((id) => (id.withdrawalId ? [id.withdrawalId] : [])),
    tx,
  );
  return views.map((view, index) => {
    const id = ids[index];
    const recordId = id?.intentId ?? id?.withdrawalId;
    return { ...view, user: (recordId && users.get(recordId)) || null };
  });
}

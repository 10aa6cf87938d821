import { webhookBody } from '@kasa/webhook-sender';
import {
  EVENT_TYPES,
  eventTypeEntry,
  type AttemptView,
  type EventType,
  type EventTypeOf,
  type EventView,
  type ResponseOf,
} from '@kasa/contracts';
import type { Prisma } from '@kasa/db';
import { bookedCurrency } from '../shared/currency.js';
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

/** An event as the contracts document it (`Event`): a type of the registry, and the webhook body of that type. */
export type DocumentedEvent = ResponseOf<'Event'>;
type WebhookEventBody = DocumentedEvent['payload'];

/**
 * An event view as the contracts document it, for the answers the compiler holds to them. The ledger writes only the
 * registry's types (outbox.repository.ts, NewOutboxEvent) and builds every payload itself, so a type the registry does
 * not know, or a payload that is not the webhook body of its type, is a broken row: it fails loudly rather than being
 * shown. The lists (the ops list on opsRoute for its CSV, and the partner's) still answer the view as stored.
 */
export function documentedEvent<View extends EventView>(view: View): View & Pick<DocumentedEvent, 'type' | 'payload'> {
  const type = registeredType(view.type);
  return { ...view, type, payload: webhookEventBody(view.payload, type) };
}

function registeredType(stored: string): EventType {
  const type = EVENT_TYPES.find((known) => known === stored);
  if (type === undefined) throw new Error(`an event whose type is ${JSON.stringify(stored)}, which the event registry does not know`);
  return type;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isIntentType = (type: EventType): type is EventTypeOf<'intent'> => eventTypeEntry(type).record === 'intent';

const isTopUp = (value: unknown): value is ResponseOf<'TopUp'> =>
  isObject(value) && typeof value.amount === 'string' && typeof value.bankTransferId === 'string' && typeof value.receivedAt === 'string';

/**
 * The delivered body ({@link orderedPayload}) as the contract's webhook body of `type`, its keys in the same order. Checked
 * here: the envelope, its `type` against the row's, a `data` about the kind of record the type is about (`intentId` or
 * `withdrawalId`), the record's currency (text in the ledger's record types) and a top-up's fields.
 */
function webhookEventBody(payload: unknown, type: EventType): WebhookEventBody {
  const broken = (what: string) => new Error(`an event of type ${type} whose payload ${what}`);
  if (!isObject(payload)) throw broken('is not an object');
  const { eventId, createdAt, livemode, data, topUp } = payload;
  if (payload.type !== type) throw broken(`says type ${JSON.stringify(payload.type)}`);
  if (typeof eventId !== 'string' || typeof createdAt !== 'string' || typeof livemode !== 'boolean') {
    throw broken('lacks its eventId, createdAt or livemode');
  }
  if (!isObject(data) || typeof data.currency !== 'string') throw broken('carries no record');
  // Not checked field by field: `data` is the record as its status lookup answered when the event was written, built
  // from the typed DepositIntentRecord or WithdrawalRecord (outbox.repository.ts, toRow), and erasure since replaced only
  // personal strings with other strings (retention.ts, scrubJson). Today's schema could refuse an older event's record
  // (a withdrawal's returnedAt came later), and the body is shown exactly as it was delivered: hence the casts below.
  const record = { ...data, currency: bookedCurrency(data.currency) };
  if (isIntentType(type)) {
    if (typeof data.intentId !== 'string') throw broken('is not about a deposit');
    if (topUp !== undefined && !isTopUp(topUp)) throw broken('has a malformed topUp');
    return { eventId, type, createdAt, livemode, data: record as ResponseOf<'DepositIntent'>, ...(topUp === undefined ? {} : { topUp }) };
  }
  if (typeof data.withdrawalId !== 'string') throw broken('is not about a withdrawal');
  if (topUp !== undefined) throw broken("has a topUp, which only a deposit's event carries");
  return { eventId, type, createdAt, livemode, data: record as ResponseOf<'Withdrawal'> };
}

/** {@link withUsers} of the one event a route answers. */
export async function withUser<View extends { payload: unknown }>(
  events: Pick<EventRepository, 'usersOf'>,
  view: View,
): Promise<View & { user: EventUser | null }> {
  const [answered = { ...view, user: null }] = await withUsers(events, [view]);
  return answered;
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

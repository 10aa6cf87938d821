import { randomUUID } from 'node:crypto';
import type { DepositIntentRecord, EventType, WithdrawalRecord } from '@kasa/contracts';
import type { Prisma, PrismaClient } from '@kasa/db';

export interface NewOutboxEvent {
  siteId: string;
  type: EventType;
  /** The intent or withdrawal the event reports on. */
  entityId: string;
  /** The record exactly as the status lookup returns it, after the change. */
  data: DepositIntentRecord | WithdrawalRecord;
  /** The X-Request-Id of the request whose transaction writes the event; null when no request does. */
  requestId: string | null;
}

/** The webhook payload a partner receives (docs/webhooks.md, What arrives). */
export interface WebhookPayload {
  eventId: string;
  type: EventType;
  createdAt: string;
  data: DepositIntentRecord | WithdrawalRecord;
}

/** An event as written: its webhook payload, and the site and record it reports on. */
export interface WrittenOutboxEvent extends WebhookPayload {
  siteId: string;
  entityId: string;
}

/**
 * Writes an event row inside the caller's transaction, so the event exists exactly when the state change
 * it reports commits; the request id that caused it is stored with it, for the worker's delivery logs.
 * After commit, the caller hands the returned id to the publisher for enqueueing; the relay enqueues any
 * row a crash or a Redis outage left behind.
 */
export async function writeOutboxEvent(tx: Prisma.TransactionClient, event: NewOutboxEvent): Promise<WrittenOutboxEvent> {
  const eventId = randomUUID();
  const createdAt = new Date();
  const payload: WebhookPayload = { eventId, type: event.type, createdAt: createdAt.toISOString(), data: event.data };
  await tx.outboxEvent.create({
    data: {
      id: eventId,
      siteId: event.siteId,
      type: event.type,
      entityId: event.entityId,
      payload: payload as unknown as Prisma.InputJsonValue,
      requestId: event.requestId,
      createdAt,
    },
  });
  return { ...payload, siteId: event.siteId, entityId: event.entityId };
}

/** Stamps events as handed to the queue, so the relay leaves them alone until they look lost. */
export async function markEnqueued(db: Pick<PrismaClient, 'outboxEvent'>, eventIds: string[], at: Date): Promise<void> {
  await db.outboxEvent.updateMany({ where: { id: { in: eventIds } }, data: { enqueuedAt: at } });
}

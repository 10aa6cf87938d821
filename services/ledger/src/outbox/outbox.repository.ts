import { randomUUID } from 'node:crypto';
import type { DepositIntentRecord, EventType, WithdrawalRecord } from '@kasa/contracts';
import { Prisma, type PrismaClient } from '@kasa/db';
import { isOptIn, notSubscribed, receives } from './event-subscriptions.js';

export interface NewOutboxEvent {
  siteId: string;
  type: EventType;
  /** The intent or withdrawal the event reports on. */
  entityId: string;
  /** The record exactly as the status lookup returns it, after the change. */
  data: DepositIntentRecord | WithdrawalRecord;
  /** Only for `intent.topped_up`: the money credited (docs/webhooks.md). */
  topUp?: TopUp;
  /** The X-Request-Id of the request whose transaction writes the event; null when no request does. */
  requestId: string | null;
}

/** What a top-up credited to an approved intent: the amount in kuruş, the transfer, when the bank received it. */
export interface TopUp {
  amount: string;
  bankTransferId: string;
  receivedAt: string;
}

/** The webhook payload a partner receives (docs/webhooks.md, What arrives). */
export interface WebhookPayload {
  eventId: string;
  type: EventType;
  createdAt: string;
  /** False for a sandbox's event (docs/sandbox.md). */
  livemode: boolean;
  data: DepositIntentRecord | WithdrawalRecord;
  topUp?: TopUp;
}

/** An event as written: its webhook payload, and the site and record it reports on. */
export interface WrittenOutboxEvent extends WebhookPayload {
  siteId: string;
  entityId: string;
}

/** Whether the site receives the event's type; read in the caller's transaction, and only for an opt-in type. */
async function siteReceives(tx: Prisma.TransactionClient, event: NewOutboxEvent): Promise<boolean> {
  if (!isOptIn(event.type)) return true;
  const site = await tx.site.findUnique({ where: { id: event.siteId }, select: { webhookEventTypes: true } });
  return receives(site?.webhookEventTypes ?? [], event.type);
}

/**
 * Writes an event row inside the caller's transaction, so the event exists exactly when the state change
 * it reports commits; the request id that caused it is stored with it, for the worker's delivery logs.
 * After commit, the caller hands the returned id to the publisher for enqueueing; the relay enqueues any
 * row a crash or a Redis outage left behind.
 *
 * The change must be heard: an opt-in type the site did not choose (docs/webhooks.md, Choose your events) throws
 * a 409 `invalid_transition`, rolling the change back. A top-up credits money, so it is refused rather than done
 * in silence. For an event that only informs, use {@link writeEventIfSubscribed}.
 */
export async function writeOutboxEvent(tx: Prisma.TransactionClient, event: NewOutboxEvent): Promise<WrittenOutboxEvent> {
  const { row, written } = await prepareOutboxEvent(tx, event);
  await tx.$executeRaw(outboxInsert([row]));
  return written;
}

/** An event checked and built as {@link writeOutboxEvent} does, not yet written: its row for {@link outboxInsert}, and the payload. */
export interface PreparedOutboxEvent {
  row: Prisma.OutboxEventCreateManyInput;
  written: WrittenOutboxEvent;
}

/**
 * {@link writeOutboxEvent}'s check (an opt-in type the site did not choose throws a 409 `invalid_transition`) and its
 * row, for a caller that writes the row in one statement with others of the same transaction (a transition's event
 * with its audit entry, shared/writes.repository.ts). The row must be written in that transaction before it commits.
 */
export async function prepareOutboxEvent(tx: Prisma.TransactionClient, event: NewOutboxEvent): Promise<PreparedOutboxEvent> {
  const prepared = await prepareEventIfSubscribed(tx, event);
  if (!prepared) throw notSubscribed(event.type);
  return prepared;
}

/** {@link prepareOutboxEvent} for an event that only informs: null, and nothing to write, when the site did not choose its type. */
export async function prepareEventIfSubscribed(tx: Prisma.TransactionClient, event: NewOutboxEvent): Promise<PreparedOutboxEvent | null> {
  if (!(await siteReceives(tx, event))) return null;
  const live = await liveSites(tx, [event.siteId]);
  return toRow(event, live(event.siteId));
}

/** The INSERT of events' rows as built here (their id, site, type, record, payload, request id and time; PENDING). */
export function outboxInsert(rows: readonly Prisma.OutboxEventCreateManyInput[]): Prisma.Sql {
  const at = (date: Prisma.OutboxEventCreateManyInput['createdAt']) => new Date(date ?? Date.now()).toISOString();
  return Prisma.sql`
    INSERT INTO outbox_events (id, site_id, type, entity_id, payload, request_id, created_at, updated_at)
    SELECT e.id, e.site_id, e.type, e.entity_id, e.payload, e.request_id, e.created_at, e.created_at
    FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.siteId)}::uuid[], ${rows.map((r) => r.type)}::text[],
      ${rows.map((r) => r.entityId)}::uuid[], ${rows.map((r) => JSON.stringify(r.payload))}::jsonb[],
      ${rows.map((r) => r.requestId ?? null)}::text[], ${rows.map((r) => at(r.createdAt))}::timestamptz[])
      AS e(id, site_id, type, entity_id, payload, request_id, created_at)`;
}

/**
 * Writes an event only when the site receives its type; otherwise writes nothing and answers null. Not written
 * rather than written-and-not-delivered: the events list shows what the partner was sent, and no DEAD or PENDING
 * row waits for a delivery that will never be tried.
 */
export async function writeEventIfSubscribed(tx: Prisma.TransactionClient, event: NewOutboxEvent): Promise<WrittenOutboxEvent | null> {
  const prepared = await prepareEventIfSubscribed(tx, event);
  if (!prepared) return null;
  await tx.$executeRaw(outboxInsert([prepared.row]));
  return prepared.written;
}

/** Of `siteIds`, those that receive `type` (all of them for a type always sent); one query for a batch. */
export async function sitesReceiving(tx: Prisma.TransactionClient, siteIds: readonly string[], type: EventType): Promise<Set<string>> {
  if (!isOptIn(type) || siteIds.length === 0) return new Set(isOptIn(type) ? [] : siteIds);
  const sites = await tx.site.findMany({
    where: { id: { in: [...new Set(siteIds)] }, webhookEventTypes: { has: type } },
    select: { id: true },
  });
  return new Set(sites.map((site) => site.id));
}

/**
 * {@link writeEventIfSubscribed} for a batch (the expiry sweep cancels hundreds at once): one subscription query
 * and one insert; the events of sites that did not choose their type are not written.
 */
export async function writeEventsIfSubscribed(
  tx: Prisma.TransactionClient,
  events: readonly NewOutboxEvent[],
): Promise<WrittenOutboxEvent[]> {
  const written: Array<ReturnType<typeof toRow>> = [];
  for (const type of new Set(events.map((event) => event.type))) {
    const ofType = events.filter((event) => event.type === type);
    const receiving = await sitesReceiving(
      tx,
      ofType.map((event) => event.siteId),
      type,
    );
    const live = await liveSites(
      tx,
      ofType.map((event) => event.siteId),
    );
    written.push(...ofType.filter((event) => receiving.has(event.siteId)).map((event) => toRow(event, live(event.siteId))));
  }
  if (written.length > 0) await tx.outboxEvent.createMany({ data: written.map((event) => event.row) });
  return written.map((event) => event.written);
}

// A site's mode never changes (a sandbox is created as one), so a mode once read is kept for the process's life.
const siteModes = new Map<string, boolean>();

/** Whether each site is live, read once per site; an unknown site counts as live. */
async function liveSites(tx: Prisma.TransactionClient, siteIds: readonly string[]): Promise<(siteId: string) => boolean> {
  const missing = [...new Set(siteIds)].filter((id) => !siteModes.has(id));
  if (missing.length > 0) {
    for (const site of await tx.site.findMany({ where: { id: { in: missing } }, select: { id: true, livemode: true } })) {
      siteModes.set(site.id, site.livemode);
    }
  }
  return (siteId) => siteModes.get(siteId) ?? true;
}

/** A new event as its row, and as the caller sees it: the payload (new id, time of writing), its site and record. */
function toRow(event: NewOutboxEvent, livemode: boolean): { row: Prisma.OutboxEventCreateManyInput; written: WrittenOutboxEvent } {
  const eventId = randomUUID();
  const createdAt = new Date();
  const payload: WebhookPayload = {
    eventId,
    type: event.type,
    createdAt: createdAt.toISOString(),
    livemode,
    data: event.data,
    ...(event.topUp ? { topUp: event.topUp } : {}),
  };
  return {
    row: {
      id: eventId,
      siteId: event.siteId,
      type: event.type,
      entityId: event.entityId,
      payload: payload as unknown as Prisma.InputJsonValue,
      requestId: event.requestId,
      createdAt,
    },
    written: { ...payload, siteId: event.siteId, entityId: event.entityId },
  };
}

/** Stamps events as handed to the queue, so the relay leaves them alone until they look lost. */
export async function markEnqueued(db: Pick<PrismaClient, '$executeRaw'>, eventIds: string[], at: Date): Promise<void> {
  if (eventIds.length === 0) return;
  await db.$executeRaw`
    UPDATE outbox_events SET enqueued_at = ${at.toISOString()}::timestamptz, updated_at = now() WHERE id = ANY(${eventIds}::uuid[])`;
}

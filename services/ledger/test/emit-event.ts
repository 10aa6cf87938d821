/**
 * Test helper: emits webhook events the way the ledger's state transitions do — the outbox row written in
 * a transaction with the record as the status lookup shows it, then handed to the publisher after commit.
 */
import type { EventType } from '@kasa/contracts';
import type { LedgerService } from '../src/index.js';
import { toDepositRecord } from '../src/deposits/deposit.views.js';
import { toWithdrawalRecord } from '../src/withdrawals/withdrawal.views.js';
import { writeOutboxEvent, type WebhookPayload } from '../src/outbox/outbox.repository.js';

export interface EmitRequest {
  siteId: string;
  type: EventType;
  /** The intent (intent.*) or withdrawal (withdrawal.*) the event reports on. */
  entityId: string;
}

/**
 * Writes one event per request in a single transaction; publishes unless `publish` is false. `dead` writes them DEAD
 * in that same transaction: a row committed PENDING and flipped afterwards is the relay's to enqueue meanwhile (its
 * grace is 300 ms in the tests), and a delivery of it would run before the flip and again after a replay.
 */
export async function emitEvents(
  ledger: LedgerService,
  requests: EmitRequest[],
  publish = true,
  { dead = false }: { dead?: boolean } = {},
): Promise<WebhookPayload[]> {
  const { deps } = ledger;
  const payloads = await deps.db.$transaction(
    async (tx) => {
      const written: WebhookPayload[] = [];
      const records = new Map<string, Parameters<typeof writeOutboxEvent>[1]['data']>();
      for (const request of requests) {
        let data = records.get(request.entityId);
        if (!data) {
          data = request.type.startsWith('intent.')
            ? toDepositRecord(await tx.deposit.findFirstOrThrow({ where: { id: request.entityId, siteId: request.siteId } }))
            : toWithdrawalRecord(await tx.withdrawal.findFirstOrThrow({ where: { id: request.entityId, siteId: request.siteId } }));
          records.set(request.entityId, data);
        }
        // No HTTP request writes these; the row keeps request_id NULL, as for events written outside one.
        const event = await writeOutboxEvent(tx, {
          siteId: request.siteId,
          type: request.type,
          entityId: request.entityId,
          data,
          requestId: null,
        });
        written.push({ eventId: event.eventId, type: event.type, createdAt: event.createdAt, livemode: event.livemode, data: event.data });
      }
      if (dead) {
        await tx.outboxEvent.updateMany({
          where: { id: { in: written.map((payload) => payload.eventId) } },
          data: { status: 'DEAD', deadAt: new Date() },
        });
      }
      return written;
    },
    { timeout: 60_000 },
  );
  if (publish && !dead)
    await deps.outbox.publish(
      payloads.map((payload) => payload.eventId),
      null,
    );
  return payloads;
}

/** Emits `count` events about one record (events differ by id; the data is the record's lookup form). */
export function emitMany(ledger: LedgerService, request: EmitRequest, count: number, publish = true): Promise<WebhookPayload[]> {
  return emitEvents(
    ledger,
    Array.from({ length: count }, () => request),
    publish,
  );
}

/** `count` events about one record, written DEAD (never sent), as events whose every attempt failed. */
export function emitDead(ledger: LedgerService, request: EmitRequest, count: number): Promise<WebhookPayload[]> {
  return emitEvents(
    ledger,
    Array.from({ length: count }, () => request),
    false,
    { dead: true },
  );
}

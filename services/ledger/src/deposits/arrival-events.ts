import type { DepositStatus, EventType } from '@kasa/contracts';
import type { Deposit, Prisma } from '@kasa/db';
import { toDepositRecord } from './deposit.views.js';
import { writeEventIfSubscribed, type WrittenOutboxEvent } from '../outbox/outbox.repository.js';

/** What an arrival changes on a deposit, as far as its events are concerned. */
export interface ArrivalState {
  status: DepositStatus;
  receivedAmount: bigint | null;
}

/**
 * The opt-in events money reaching a deposit calls for (docs/webhooks.md, Choose your events): `intent.received`
 * when money arrived and the deposit waits for review, `intent.late_arrival` when money arrived after the deposit
 * expired. Each arrival that adds money is announced, so a second transfer of a split payment is one more event;
 * an arrival that changes nothing (a decided deposit, no money added) is none. A deposit approved straight through
 * is announced by `intent.approved`, written by the approval.
 */
export function arrivalEventTypes(before: ArrivalState, after: ArrivalState): EventType[] {
  if ((after.receivedAmount ?? 0n) <= (before.receivedAmount ?? 0n)) return [];
  if (after.status === 'PENDING_REVIEW') return ['intent.received'];
  if (after.status === 'LATE_ARRIVAL') return ['intent.late_arrival'];
  return [];
}

/**
 * Writes the arrival's events in the caller's transaction, each only when the deposit's site chose its type; the
 * payload's `data` is the intent after the arrival. The caller publishes the returned events after commit.
 */
export async function writeArrivalEvents(
  tx: Prisma.TransactionClient,
  arrival: { before: ArrivalState; after: Deposit; requestId: string | null },
): Promise<WrittenOutboxEvent[]> {
  const { after } = arrival;
  const written: WrittenOutboxEvent[] = [];
  for (const type of arrivalEventTypes(arrival.before, after)) {
    const event = await writeEventIfSubscribed(tx, {
      siteId: after.siteId,
      type,
      entityId: after.id,
      data: toDepositRecord(after),
      requestId: arrival.requestId,
    });
    if (event) written.push(event);
  }
  return written;
}

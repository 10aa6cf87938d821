import type { Deposit, Prisma } from '@kasa/db';
import type { Actor, AuditEntry } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import { writeAudit } from '../shared/audit.repository.js';
import { writeArrivalEvents } from '../deposits/arrival-events.js';
import type { WrittenOutboxEvent } from '../outbox/outbox.repository.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import { screenSenders, type SenderScreeningDeps } from '../screening/screen-senders.js';
import { arrivalEffect } from './arrival.js';

/** The transfer whose money reaches an intent. */
export interface ArrivingTransfer {
  id: string;
  amount: bigint;
  receivedAt: Date;
  bankTxId: string;
  senderName: string;
}

/** What a transfer's money does to a locked intent: the row's fields to write, the row after, and its audit entry. */
export interface ArrivalChange {
  data: Pick<Deposit, 'status' | 'receivedAmount'> & Partial<Pick<Deposit, 'cancelledAt' | 'awaitingReviewSince' | 'waitingForRestSince'>>;
  /** The intent as the write leaves it (its `updatedAt` as the write sets it). */
  after: Deposit;
  audit: AuditEntry;
}

/**
 * What a transfer's money does to a locked intent ({@link arrivalEffect}): the status change, the received amount and
 * the audit entry, decided without writing (a batch of lines writes many at once). Null when the intent was already
 * decided (the transfer then goes to the unmatched queue).
 */
export function arrivalChange(
  deps: { clock: Clock; config: { arrivalClockSkewMs: number } },
  actor: Actor,
  deposit: Deposit,
  transfer: ArrivingTransfer,
): ArrivalChange | null {
  const effect = arrivalEffect(deposit, transfer.receivedAt, deps.config.arrivalClockSkewMs);
  if (!effect) return null;
  const receivedAmount = (deposit.receivedAmount ?? 0n) + transfer.amount;
  const data: ArrivalChange['data'] = {
    status: effect.to,
    receivedAmount,
    // Cancelled now by the ledger's clock, as the expiry sweep would have done.
    ...(effect.cancels ? { cancelledAt: deps.clock.now() } : {}),
    ...(effect.reinstates ? { cancelledAt: null } : {}),
    // Entering the review queue starts the operators' waiting time; a further transfer does not restart it, unless
    // the intent was out of the queue waiting for the rest of its money: it comes back now.
    ...(effect.to !== deposit.status || deposit.waitingForRestSince ? { awaitingReviewSince: deps.clock.now() } : {}),
    ...(deposit.waitingForRestSince ? { waitingForRestSince: null } : {}),
  };
  const audit: AuditEntry = {
    actor,
    action: effect.to === deposit.status ? 'INTENT.TRANSFER_ADDED' : `INTENT.${effect.to}`,
    entityType: 'deposit_intent',
    entityId: deposit.id,
    siteId: deposit.siteId,
    metadata: {
      from: deposit.status,
      to: effect.to,
      bankTransferId: transfer.id,
      bankTxId: transfer.bankTxId,
      transferAmount: transfer.amount.toString(),
      receivedAmount: receivedAmount.toString(),
      receivedAt: transfer.receivedAt.toISOString(),
      expiresAt: deposit.expiresAt.toISOString(),
      ...(deposit.waitingForRestSince ? { waitedForRestSince: deposit.waitingForRestSince.toISOString() } : {}),
    },
  };
  return { data, after: { ...deposit, ...data, updatedAt: new Date() }, audit };
}

/**
 * Applies a transfer's money to a locked intent inside the caller's transaction ({@link arrivalChange}): one
 * conditional write, its audit entry, the sender's screening where the site's policy asks for it (screen-senders.ts)
 * and the opt-in events the site chose (`intent.received`, `intent.late_arrival`; docs/webhooks.md), which the caller
 * publishes once committed. Returns the updated deposit and those events, or null
 * when the intent was already decided.
 */
export async function applyArrival(
  tx: Prisma.TransactionClient,
  deps: SenderScreeningDeps & { depositReview: DepositReviewRepository; clock: Clock; config: { arrivalClockSkewMs: number } },
  actor: Actor,
  deposit: Deposit,
  transfer: ArrivingTransfer,
  requestId: string | null,
): Promise<{ deposit: Deposit; events: WrittenOutboxEvent[] } | null> {
  const change = arrivalChange(deps, actor, deposit, transfer);
  if (!change) return null;
  const updated = await deps.depositReview.updateDeposit(tx, deposit.id, deposit.status, change.data);
  if (!updated) return null;
  await writeAudit(tx, change.audit);
  await screenSenders(tx, deps, [{ depositId: updated.id, siteId: updated.siteId, senderName: transfer.senderName }]);
  return { deposit: updated, events: await writeArrivalEvents(tx, { before: deposit, after: updated, requestId }) };
}

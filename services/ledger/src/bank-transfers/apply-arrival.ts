import type { DepositIntent, Prisma } from '@kasa/db';
import type { Actor } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import { writeAudit } from '../shared/audit.repository.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import { arrivalEffect } from './arrival.js';

/**
 * Applies a transfer's money to a locked intent inside the caller's transaction: the status change of
 * {@link arrivalEffect}, the received amount, and an audit entry. Returns the updated intent, or null when
 * the intent was already decided (the transfer then goes to the unmatched queue). No webhook: the
 * events (docs/webhooks.md, What arrives) cover only the operator's decisions.
 */
export async function applyArrival(
  tx: Prisma.TransactionClient,
  deps: { depositReview: DepositReviewRepository; clock: Clock; config: { arrivalClockSkewMs: number } },
  actor: Actor,
  intent: DepositIntent,
  transfer: { id: string; amount: bigint; receivedAt: Date; bankTxId: string },
): Promise<DepositIntent | null> {
  const effect = arrivalEffect(intent, transfer.receivedAt, deps.config.arrivalClockSkewMs);
  if (!effect) return null;
  const receivedAmount = (intent.receivedAmount ?? 0n) + transfer.amount;
  const updated = await deps.depositReview.updateIntent(tx, intent.id, intent.status, {
    status: effect.to,
    receivedAmount,
    // Cancelled now by the ledger's clock, as the expiry sweep would have done.
    ...(effect.cancels ? { cancelledAt: deps.clock.now() } : {}),
    ...(effect.reinstates ? { cancelledAt: null } : {}),
    // Entering the review queue starts the operators' waiting time; a further transfer does not restart it.
    ...(effect.to !== intent.status ? { awaitingReviewSince: deps.clock.now() } : {}),
  });
  if (!updated) return null;
  await writeAudit(tx, {
    actor,
    action: effect.to === intent.status ? 'INTENT.TRANSFER_ADDED' : `INTENT.${effect.to}`,
    entityType: 'deposit_intent',
    entityId: intent.id,
    siteId: intent.siteId,
    metadata: {
      from: intent.status,
      to: effect.to,
      bankTransferId: transfer.id,
      bankTxId: transfer.bankTxId,
      transferAmount: transfer.amount.toString(),
      receivedAmount: receivedAmount.toString(),
      receivedAt: transfer.receivedAt.toISOString(),
      expiresAt: intent.expiresAt.toISOString(),
    },
  });
  return updated;
}

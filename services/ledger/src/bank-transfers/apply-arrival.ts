import type { Deposit, Prisma } from '@kasa/db';
import type { Actor } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import { writeAudit } from '../shared/audit.repository.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import { arrivalEffect } from './arrival.js';

/**
 * Applies a transfer's money to a locked intent inside the caller's transaction: the status change of
 * {@link arrivalEffect}, the received amount, and an audit entry. Returns the updated deposit, or null when
 * the intent was already decided (the transfer then goes to the unmatched queue). No webhook: the
 * events (docs/webhooks.md, What arrives) cover only the operator's decisions.
 */
export async function applyArrival(
  tx: Prisma.TransactionClient,
  deps: { depositReview: DepositReviewRepository; clock: Clock; config: { arrivalClockSkewMs: number } },
  actor: Actor,
  deposit: Deposit,
  transfer: { id: string; amount: bigint; receivedAt: Date; bankTxId: string },
): Promise<Deposit | null> {
  const effect = arrivalEffect(deposit, transfer.receivedAt, deps.config.arrivalClockSkewMs);
  if (!effect) return null;
  const receivedAmount = (deposit.receivedAmount ?? 0n) + transfer.amount;
  const updated = await deps.depositReview.updateDeposit(tx, deposit.id, deposit.status, {
    status: effect.to,
    receivedAmount,
    // Cancelled now by the ledger's clock, as the expiry sweep would have done.
    ...(effect.cancels ? { cancelledAt: deps.clock.now() } : {}),
    ...(effect.reinstates ? { cancelledAt: null } : {}),
    // Entering the review queue starts the operators' waiting time; a further transfer does not restart it.
    ...(effect.to !== deposit.status ? { awaitingReviewSince: deps.clock.now() } : {}),
  });
  if (!updated) return null;
  await writeAudit(tx, {
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
    },
  });
  return updated;
}

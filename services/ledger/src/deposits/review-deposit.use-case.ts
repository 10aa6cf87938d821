import type { DepositIntent, Prisma } from '@kasa/db';
import { formatTry } from '@kasa/money';
import type { UserRejectionReason } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { toDepositRecord, toOpsIntent } from './deposit.views.js';
import { Postings } from '../journal/accounts.js';
import { actorOf } from '../operators/operator-principal.js';
import { writeOutboxEvent } from '../outbox/outbox.repository.js';
import { writeAudit } from '../shared/audit.repository.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import type { ReviewDeps } from '../shared/review-deps.js';
import { assertIntentAction } from '../shared/state-machines.js';
import { commitTransition, type TransitionOutcome } from '../shared/transition.js';

const notFound = () => new AppError('not_found', 'No deposit intent with this id.');

/**
 * The decision's webhook (the partner's record of the intent as `data`, with the deciding request's id),
 * the step to log (`deposit approved` / `deposit rejected`) and the answer: the ops view with the event's id.
 */
async function announceDecision(
  tx: Prisma.TransactionClient,
  request: OperatorRequest,
  intentId: string,
  decided: DepositIntent,
  type: 'intent.approved' | 'intent.rejected',
): Promise<TransitionOutcome<ReturnType<typeof toOpsIntent> & { eventId: string }>> {
  const event = await writeOutboxEvent(tx, {
    siteId: decided.siteId,
    type,
    entityId: intentId,
    data: toDepositRecord(decided),
    requestId: request.requestId,
  });
  const step = {
    message: type === 'intent.approved' ? 'deposit approved' : 'deposit rejected',
    fields: {
      intentId,
      siteId: decided.siteId,
      status: decided.status,
      amount: decided.amount.toString(),
      operatorId: request.caller.operatorId,
      eventId: event.eventId,
    },
  };
  return { result: { ...toOpsIntent(decided), eventId: event.eventId }, step, events: [event] };
}

/**
 * Approves a deposit that money arrived for (PENDING_REVIEW or LATE_ARRIVAL). The credited `amount` is
 * the operator's figure or, by default, everything the bank transfers brought; `requestedAmount` stays as
 * the partner asked. Money is created only by money that arrived: the credit can never exceed the sum of
 * the transfers matched or assigned to the intent (409, nothing changed). Credits the site's available
 * balance and emits `intent.approved`.
 */
export async function approveIntent(deps: ReviewDeps, request: OperatorRequest, intentId: string, input: { amount?: bigint }) {
  if (!isUuid(intentId)) throw notFound();
  return commitTransition(deps, request, async (tx) => {
    const current = await deps.review.lockIntent(tx, intentId);
    if (!current) throw notFound();
    const to = assertIntentAction('approve', current.status);
    const received = await deps.bankTransfers.receivedFor(tx, intentId);
    const amount = input.amount ?? received;
    if (amount <= 0n) {
      throw AppError.validation([{ field: 'amount', message: 'is required: no money was recorded for this intent' }]);
    }
    if (amount > received) {
      throw new AppError(
        'conflict',
        `The credit (${formatTry(amount)}) exceeds the money received for this intent (${formatTry(received)}); nothing was changed.`,
        [{ field: 'amount', message: `must not exceed the ${received} kuruş (${formatTry(received)}) received` }],
      );
    }
    const updated = await deps.review.updateIntent(tx, intentId, current.status, { status: to, amount, approvedAt: new Date() });
    if (!updated) throw new AppError('conflict', 'The intent changed while it was being approved; nothing was changed.');
    const posted = await deps.journal.post(tx, Postings.depositApproved(updated.siteId, updated.id, amount));
    if (!posted.ok) throw new Error('a deposit credit cannot be refused');
    await writeAudit(tx, {
      actor: actorOf(request.caller),
      action: 'INTENT.APPROVED',
      entityType: 'deposit_intent',
      entityId: intentId,
      siteId: updated.siteId,
      metadata: {
        from: current.status,
        to,
        amount: amount.toString(),
        requestedAmount: current.requestedAmount.toString(),
        receivedAmount: received.toString(),
        operatorEnteredAmount: input.amount !== undefined,
        journalTransactionId: posted.transactionId,
      },
    });
    return announceDecision(tx, request, intentId, updated, 'intent.approved');
  });
}

/** Rejects a deposit under review with a reason the partner receives in `intent.rejected`. No money moves. */
/**
 * Rejects an intent that waits for review. `reason` is the partner's (in `intent.rejected`) and the audit
 * log's; `userReason`, one of the hosted page's catalogue codes, is what the end user is told (null: a
 * general text).
 */
export async function rejectIntent(
  deps: ReviewDeps,
  request: OperatorRequest,
  intentId: string,
  { reason, userReason }: { reason: string; userReason: UserRejectionReason | null },
) {
  if (!isUuid(intentId)) throw notFound();
  return commitTransition(deps, request, async (tx) => {
    const current = await deps.review.lockIntent(tx, intentId);
    if (!current) throw notFound();
    const to = assertIntentAction('reject', current.status);
    const updated = await deps.review.updateIntent(tx, intentId, current.status, {
      status: to,
      rejectedAt: new Date(),
      rejectedReason: reason.trim(),
      rejectedUserReason: userReason,
    });
    if (!updated) throw new AppError('conflict', 'The intent changed while it was being rejected; nothing was changed.');
    await writeAudit(tx, {
      actor: actorOf(request.caller),
      action: 'INTENT.REJECTED',
      entityType: 'deposit_intent',
      entityId: intentId,
      siteId: updated.siteId,
      metadata: { from: current.status, to, reason: updated.rejectedReason, userReason },
    });
    return announceDecision(tx, request, intentId, updated, 'intent.rejected');
  });
}

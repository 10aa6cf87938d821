import { formatTry } from '@kasa/money';
import { AppError } from '@kasa/http';
import type { Clock } from '../shared/clock.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { runTransition, type TransitionDeps } from '../review/transition.js';
import type { DepositReviewRepository } from './deposit-review.repository.js';
import { toOpsDeposit } from './deposit.views.js';

/** Statuses in which an intent waits for an operator because its money arrived. */
const IN_REVIEW = ['PENDING_REVIEW', 'LATE_ARRIVAL'] as const;

/**
 * "Wait for the rest": an intent in review that received less than requested leaves the review queue until more
 * money arrives (apply-arrival.ts brings it back, with the sum received and a fresh waiting time). Its status does not
 * change and no webhook goes out: the partner hears about the decision, which the operator may still take at any
 * time. Asking again while it waits changes nothing and writes no audit entry. Audited as `INTENT.WAITING_FOR_REST`.
 */
export async function waitForRest(
  deps: TransitionDeps & { depositReview: DepositReviewRepository; clock: Clock },
  request: OperatorRequest,
  intentId: string,
) {
  const current = await deps.depositReview.findDeposit(intentId).catch(() => null);
  if (current?.waitingForRestSince && (IN_REVIEW as readonly string[]).includes(current.status)) return toOpsDeposit(current);
  return runTransition(deps, request, intentId, {
    entityType: 'deposit_intent',
    notFound: 'No deposit intent with this id.',
    lock: (tx) => deps.depositReview.lockDeposit(tx, intentId),
    siteOf: (row) => row.siteId,
    decide: (_tx, deposit) => {
      if (!(IN_REVIEW as readonly string[]).includes(deposit.status)) {
        throw AppError.conflict(
          'invalid_transition',
          `The intent is ${deposit.status}; only an intent in review (PENDING_REVIEW or LATE_ARRIVAL) can wait for the rest of its money. Nothing was changed.`,
        );
      }
      const received = deposit.receivedAmount ?? 0n;
      if (received >= deposit.requestedAmount) {
        throw AppError.conflict(
          'invalid_transition',
          `The intent received ${formatTry(received)} of the ${formatTry(deposit.requestedAmount)} requested; there is no rest to wait for. Approve or reject it. Nothing was changed.`,
        );
      }
      return { to: deposit.status, received };
    },
    update: (tx, deposit) =>
      deps.depositReview.updateDeposit(tx, intentId, deposit.status, {
        waitingForRestSince: deposit.waitingForRestSince ?? deps.clock.now(),
      }),
    changedMeanwhile: 'The intent changed meanwhile; nothing was changed.',
    audit: ({ current, decision: { received } }) => ({
      action: 'INTENT.WAITING_FOR_REST',
      siteId: current.siteId,
      metadata: {
        status: current.status,
        requestedAmount: current.requestedAmount.toString(),
        receivedAmount: received.toString(),
        missingAmount: (current.requestedAmount - received).toString(),
      },
    }),
    log: ({ updated }) => ({
      message: 'deposit waiting for the rest',
      fields: {
        intentId,
        siteId: updated.siteId,
        requestedAmount: updated.requestedAmount.toString(),
        receivedAmount: updated.receivedAmount?.toString() ?? null,
        operatorId: request.caller.operatorId,
      },
    }),
    result: ({ updated }) => toOpsDeposit(updated),
  });
}

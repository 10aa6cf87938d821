import type { Prisma, Withdrawal, WithdrawalStatus } from '@kasa/db';
import type { EventType } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { toOpsWithdrawal, toWithdrawalRecord } from './withdrawal.views.js';
import { Postings, type JournalPosting } from '../journal/accounts.js';
import { actorOf } from '../operators/operator-principal.js';
import { writeOutboxEvent, type WrittenOutboxEvent } from '../outbox/outbox.repository.js';
import { writeAudit } from '../shared/audit.repository.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import type { ReviewDeps } from '../shared/review-deps.js';
import { assertWithdrawalAction, type WithdrawalAction } from '../shared/state-machines.js';
import { commitTransition } from '../shared/transition.js';

interface Step {
  action: WithdrawalAction;
  audit: string;
  /** The business log line once committed: `withdrawal approved`, `withdrawal sent`, ... */
  log: string;
  /** The row fields the transition sets, besides the status. */
  changes(current: Withdrawal, now: Date): Prisma.WithdrawalUpdateManyMutationInput;
  /** The journal posting, if money moves from this status. */
  posting?(current: Withdrawal): JournalPosting | null;
  event?: EventType;
  metadata?: Record<string, string | null>;
}

/**
 * The shared shape of every withdrawal transition: lock, check the state machine, one conditional update,
 * the journal posting (approval is refused past the available balance), the audit entry and the event.
 */
async function transition(deps: ReviewDeps, request: OperatorRequest, withdrawalId: string, step: Step) {
  const notFound = new AppError('not_found', 'No withdrawal with this id.');
  if (!isUuid(withdrawalId)) throw notFound;
  return commitTransition(deps, request, async (tx) => {
    const current = await deps.review.lockWithdrawal(tx, withdrawalId);
    if (!current) throw notFound;
    const to: WithdrawalStatus = assertWithdrawalAction(step.action, current.status);
    const now = new Date();
    const updated = await deps.review.updateWithdrawal(tx, withdrawalId, current.status, { status: to, ...step.changes(current, now) });
    if (!updated) throw new AppError('conflict', 'The withdrawal changed meanwhile; nothing was changed.');
    const posting = step.posting?.(current) ?? null;
    let journalTransactionId: string | null = null;
    if (posting) {
      const posted = await deps.journal.post(tx, posting, step.action === 'approve' ? 'site_available' : undefined);
      if (!posted.ok) {
        const available = (-posted.balance).toString();
        throw new AppError(
          'conflict',
          `The site's available balance (${available}) is less than the withdrawal amount (${current.amount}); nothing was changed.`,
          [{ field: 'amount', message: `exceeds the available balance of ${available}` }],
        );
      }
      journalTransactionId = posted.transactionId;
    }
    await writeAudit(tx, {
      actor: actorOf(request.caller),
      action: step.audit,
      entityType: 'withdrawal',
      entityId: withdrawalId,
      siteId: updated.siteId,
      metadata: { from: current.status, to, amount: current.amount.toString(), journalTransactionId, ...step.metadata },
    });
    const events: WrittenOutboxEvent[] = [];
    if (step.event) {
      events.push(
        await writeOutboxEvent(tx, {
          siteId: updated.siteId,
          type: step.event,
          entityId: withdrawalId,
          data: toWithdrawalRecord(updated),
          requestId: request.requestId,
        }),
      );
    }
    const eventId = events[0]?.eventId ?? null;
    const loggedStep = {
      message: step.log,
      fields: {
        withdrawalId,
        siteId: updated.siteId,
        status: to,
        amount: current.amount.toString(),
        operatorId: request.caller.operatorId,
        journalTransactionId,
        eventId,
      },
    };
    return { result: { ...toOpsWithdrawal(updated), eventId }, step: loggedStep, events };
  });
}

/** PENDING_REVIEW -> APPROVED: reserves the amount from the site's available balance (409 if short). */
export function approveWithdrawal(deps: ReviewDeps, request: OperatorRequest, withdrawalId: string) {
  return transition(deps, request, withdrawalId, {
    action: 'approve',
    audit: 'WITHDRAWAL.APPROVED',
    log: 'withdrawal approved',
    changes: (_current, now) => ({ approvedAt: now }),
    posting: (w) => Postings.withdrawalReserved(w.siteId, w.id, w.amount),
  });
}

/** PENDING_REVIEW | APPROVED -> REJECTED; after approval the reserved amount is released. */
export function rejectWithdrawal(deps: ReviewDeps, request: OperatorRequest, withdrawalId: string, reason: string) {
  return transition(deps, request, withdrawalId, {
    action: 'reject',
    audit: 'WITHDRAWAL.REJECTED',
    log: 'withdrawal rejected',
    changes: (_current, now) => ({ rejectedAt: now, rejectedReason: reason.trim() }),
    posting: (w) => (w.status === 'APPROVED' ? Postings.withdrawalReleased(w.siteId, w.id, w.amount) : null),
    event: 'withdrawal.rejected',
    metadata: { reason: reason.trim() },
  });
}

/** APPROVED -> SENT: the payout left the bank; settles the reservation. */
export function markWithdrawalSent(deps: ReviewDeps, request: OperatorRequest, withdrawalId: string, bankTxId?: string) {
  return transition(deps, request, withdrawalId, {
    action: 'markSent',
    audit: 'WITHDRAWAL.SENT',
    log: 'withdrawal sent',
    changes: (_current, now) => ({ sentAt: now, sentBankTxId: bankTxId ?? null }),
    posting: (w) => Postings.withdrawalSettled(w.siteId, w.id, w.amount),
    event: 'withdrawal.sent',
    metadata: { bankTxId: bankTxId ?? null },
  });
}

/** SENT -> RETURNED: the bank sent the payout back; the amount is available to the site again. */
export function markWithdrawalReturned(deps: ReviewDeps, request: OperatorRequest, withdrawalId: string, reason: string) {
  return transition(deps, request, withdrawalId, {
    action: 'markReturned',
    audit: 'WITHDRAWAL.RETURNED',
    log: 'withdrawal returned',
    changes: (_current, now) => ({ returnedAt: now, returnedReason: reason.trim() }),
    posting: (w) => Postings.withdrawalReturned(w.siteId, w.id, w.amount),
    event: 'withdrawal.returned',
    metadata: { reason: reason.trim() },
  });
}

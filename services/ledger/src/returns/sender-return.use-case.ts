import type { BankTransfer, BankTransferStatus, Prisma, SenderReturn } from '@kasa/db';
import { AppError } from '@kasa/http';
import { maskIban } from '@kasa/logger';
import type { BankTransferRepository } from '../bank-transfers/bank-transfer.repository.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import { actorOf } from '../operators/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction, runTransition, type TransitionDeps } from '../shared/transition.js';
import { HousePostings, type HouseLeg } from './house-accounts.js';
import type { SenderReturnRepository } from './sender-return.repository.js';
import { assertReturnAction, type ReturnAction } from './sender-return.states.js';
import { toOpsSenderReturn } from './sender-return.views.js';

type Tx = Prisma.TransactionClient;

/** What a return to a sender needs: the transition's database, publisher and logger, the clock and the rows it moves. */
export interface ReturnDeps extends TransitionDeps {
  clock: Clock;
  senderReturns: SenderReturnRepository;
  bankTransfers: BankTransferRepository;
  depositReview: DepositReviewRepository;
}

/** Whether this transfer's money belongs to no deposit, so it may go back: unmatched, set aside, or a rejected deposit's. */
async function returnable(deps: ReturnDeps, tx: Tx, transfer: BankTransfer): Promise<boolean> {
  if (transfer.status === 'UNMATCHED' || transfer.status === 'SET_ASIDE') return true;
  if ((transfer.status === 'MATCHED' || transfer.status === 'ASSIGNED') && transfer.intentId) {
    return (await deps.depositReview.statusOf(tx, transfer.intentId)) === 'REJECTED';
  }
  return false;
}

/**
 * Asks for a transfer's money to go back to its sender: a return `PENDING_REVIEW` for the whole amount, the
 * transfer `RETURNING` (out of every queue, no longer assignable). Only money no deposit kept: an unmatched
 * or set-aside transfer, or one that paid a rejected deposit. No money moves yet.
 */
export async function requestSenderReturn(deps: ReturnDeps, request: OperatorRequest, bankTransferId: string, reason: string) {
  if (!isUuid(bankTransferId)) throw new AppError('not_found', 'No bank transfer with this id.');
  const actor = actorOf(request.caller);
  const created = await inTransaction(deps, async (tx) => {
    const transfer = await deps.bankTransfers.lock(tx, bankTransferId);
    if (!transfer) throw new AppError('not_found', 'No bank transfer with this id.');
    if (!(await returnable(deps, tx, transfer))) {
      throw AppError.conflict(
        'transfer_not_returnable',
        `The transfer is ${transfer.status}${transfer.intentId ? ' and its deposit kept it' : ''}; only money no deposit kept ` +
          '(unmatched, set aside, or paid for a rejected deposit) can go back to its sender. Nothing was changed.',
      );
    }
    const row = await deps.senderReturns.create(tx, {
      bankTransferId,
      amount: transfer.amount,
      currency: transfer.currency,
      senderName: transfer.senderName,
      senderIban: transfer.senderIban,
      reason: reason.trim(),
      transferStatusBefore: transfer.status,
      requestedBy: actor.id,
    });
    await deps.bankTransfers.settle(tx, bankTransferId, transfer.status, { status: 'RETURNING' });
    await writeAudit(tx, {
      actor,
      action: 'SENDER_RETURN.REQUESTED',
      entityType: 'sender_return',
      entityId: row.id,
      metadata: { bankTransferId, from: transfer.status, to: 'RETURNING', reason: row.reason, amount: row.amount.toString() },
    });
    return row;
  });
  deps.logger.info('sender return requested', {
    requestId: request.requestId,
    returnId: created.id,
    bankTransferId,
    amount: created.amount,
    senderIban: maskIban(created.senderIban),
  });
  return toOpsSenderReturn(created);
}

interface Step {
  action: ReturnAction;
  /** The row fields the step sets, besides the status. */
  changes(now: Date): Prisma.SenderReturnUpdateManyMutationInput;
  /** The house journal posting, if money moves from this status. */
  posting?(current: SenderReturn): HouseLeg[] | null;
  /** Where the transfer goes (it waits as RETURNING while the return is open). */
  transferTo?(current: SenderReturn): BankTransferStatus;
  metadata?: Record<string, string>;
}

/**
 * Every step of a return's review and payout on the one transition recipe (shared/transition.ts), with its
 * house journal posting and audit entry. A step from any other status is a 409 and changes nothing.
 */
function transition(deps: ReturnDeps, request: OperatorRequest, returnId: string, step: Step) {
  return runTransition(deps, request, returnId, {
    entityType: 'sender_return',
    notFound: 'No return with this id.',
    lock: (tx) => deps.senderReturns.lock(tx, returnId),
    decide: (_tx, current) => ({ to: assertReturnAction(step.action, current.status) }),
    update: async (tx, current, { to }) => {
      const transferTo = step.transferTo?.(current);
      if (transferTo) await deps.bankTransfers.settle(tx, current.bankTransferId, 'RETURNING', { status: transferTo });
      return deps.senderReturns.update(tx, returnId, current.status, { status: to, ...step.changes(deps.clock.now()) });
    },
    changedMeanwhile: 'The return changed meanwhile; nothing was changed.',
    post: async (tx, { current }) => {
      const posting = step.posting?.(current) ?? null;
      return posting ? deps.senderReturns.postHouse(tx, returnId, posting) : null;
    },
    audit: ({ current, decision: { to }, journalTransactionId }) => ({
      action: `SENDER_RETURN.${to}`,
      metadata: {
        from: current.status,
        to,
        bankTransferId: current.bankTransferId,
        amount: current.amount.toString(),
        ...step.metadata,
        ...(journalTransactionId ? { journalTransactionId } : {}),
      },
    }),
    log: ({ updated }) => ({ message: 'sender return changed', fields: { returnId, status: updated.status, amount: updated.amount } }),
    result: ({ updated }) => toOpsSenderReturn(updated),
  });
}

/** PENDING_REVIEW -> APPROVED: the money is owed back (bank_clearing -> sender_refunds_payable). */
export function approveSenderReturn(deps: ReturnDeps, request: OperatorRequest, returnId: string) {
  return transition(deps, request, returnId, {
    action: 'approve',
    changes: (now) => ({ approvedAt: now }),
    posting: (r) => HousePostings.returnApproved(r.amount),
  });
}

/** PENDING_REVIEW | APPROVED -> REJECTED with a reason; after approval the posting is reversed; the transfer goes back to where it was. */
export function rejectSenderReturn(deps: ReturnDeps, request: OperatorRequest, returnId: string, reason: string) {
  return transition(deps, request, returnId, {
    action: 'reject',
    changes: (now) => ({ rejectedAt: now, rejectedReason: reason.trim() }),
    posting: (r) => (r.status === 'APPROVED' ? HousePostings.returnWithdrawn(r.amount) : null),
    // Written by requestSenderReturn from the transfer's own status.
    transferTo: (r) => r.transferStatusBefore as BankTransferStatus,
    ...(reason ? { metadata: { reason: reason.trim() } } : {}),
  });
}

/** APPROVED -> SENT: the money left the bank (sender_refunds_payable -> refunds_settled); the transfer is RETURNED. */
export function markSenderReturnSent(deps: ReturnDeps, request: OperatorRequest, returnId: string, bankTxId?: string) {
  return transition(deps, request, returnId, {
    action: 'markSent',
    changes: (now) => ({ sentAt: now, sentBankTxId: bankTxId ?? null }),
    posting: (r) => HousePostings.returnSent(r.amount),
    transferTo: () => 'RETURNED',
    ...(bankTxId ? { metadata: { bankTxId } } : {}),
  });
}

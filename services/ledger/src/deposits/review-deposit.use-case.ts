import type { Deposit, DepositStatus, Prisma } from '@kasa/db';
import { formatTry } from '@kasa/money';
import type { UserRejectionReason } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { toDepositRecord, toOpsDeposit } from './deposit.views.js';
import { assertDepositAction, type DepositAction } from './deposit.states.js';
import type { DepositReviewRepository } from './deposit-review.repository.js';
import type { BankTransferRepository } from '../bank-transfers/bank-transfer.repository.js';
import { Postings, type JournalPosting } from '../journal/accounts.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { runTransition, type TransitionDeps } from '../shared/transition.js';

type Tx = Prisma.TransactionClient;

/** What reviewing a deposit needs: the transition's database, publisher and logger, the rows, the journal and the money that arrived. */
export interface DepositReviewDeps extends TransitionDeps {
  depositReview: DepositReviewRepository;
  journal: JournalRepository;
  bankTransfers: BankTransferRepository;
}

interface Step<Decision extends { to: DepositStatus }> {
  action: DepositAction;
  /** What the decision reads under the lock besides the state table (the money received); throws to refuse. */
  decide(tx: Tx, current: Deposit, to: DepositStatus): Promise<Decision> | Decision;
  /** The row fields the transition sets, besides the status. */
  changes(decision: Decision): Prisma.DepositUpdateManyMutationInput;
  changedMeanwhile: string;
  /** The journal posting, if money moves. */
  posting?(updated: Deposit, decision: Decision): JournalPosting;
  audit: string;
  metadata(current: Deposit, updated: Deposit, decision: Decision, journalTransactionId: string | null): Prisma.InputJsonObject;
  /** The decision's webhook: the partner's record of the intent as `data`, with the deciding request's id. */
  event: 'intent.approved' | 'intent.rejected';
  /** The business log line once committed: `deposit approved` / `deposit rejected`. */
  log: string;
}

/** Every intent step on the one transition recipe (shared/transition.ts); the answer is the ops view with the event's id. */
function transition<Decision extends { to: DepositStatus }>(
  deps: DepositReviewDeps,
  request: OperatorRequest,
  intentId: string,
  step: Step<Decision>,
) {
  return runTransition(deps, request, intentId, {
    entityType: 'deposit_intent',
    notFound: 'No deposit intent with this id.',
    lock: (tx) => deps.depositReview.lockDeposit(tx, intentId),
    decide: (tx, current) => step.decide(tx, current, assertDepositAction(step.action, current.status)),
    update: (tx, current, decision) =>
      deps.depositReview.updateDeposit(tx, intentId, current.status, { status: decision.to, ...step.changes(decision) }),
    changedMeanwhile: step.changedMeanwhile,
    post: async (tx, { decision, updated }) => {
      if (!step.posting) return null;
      const posted = await deps.journal.post(tx, step.posting(updated, decision));
      if (!posted.ok) throw new Error('a deposit credit cannot be refused');
      return posted.transactionId;
    },
    audit: ({ current, updated, decision, journalTransactionId }) => ({
      action: step.audit,
      siteId: updated.siteId,
      metadata: step.metadata(current, updated, decision, journalTransactionId),
    }),
    event: ({ updated }) => ({ siteId: updated.siteId, type: step.event, data: toDepositRecord(updated) }),
    log: ({ updated, eventId }) => ({
      message: step.log,
      fields: {
        intentId,
        siteId: updated.siteId,
        status: updated.status,
        amount: updated.amount.toString(),
        operatorId: request.caller.operatorId,
        eventId,
      },
    }),
    result: ({ updated, eventId }) => ({ ...toOpsDeposit(updated), eventId }),
  });
}

/**
 * Approves a deposit that money arrived for (PENDING_REVIEW or LATE_ARRIVAL). The credited `amount` is
 * the operator's figure or, by default, everything the bank transfers brought; `requestedAmount` stays as
 * the partner asked. Money is created only by money that arrived: the credit can never exceed the sum of
 * the transfers matched or assigned to the intent (409, nothing changed). Credits the site's available
 * balance and emits `intent.approved`. `rule`: the service approving by a site's rule, kept in the audit entry.
 */
export function approveDeposit(
  deps: DepositReviewDeps,
  request: OperatorRequest,
  intentId: string,
  input: { amount?: bigint; rule?: Prisma.InputJsonObject },
) {
  return transition(deps, request, intentId, {
    action: 'approve',
    decide: async (tx, _current, to) => {
      const received = await deps.bankTransfers.receivedFor(tx, intentId);
      const amount = input.amount ?? received;
      if (amount <= 0n) {
        throw AppError.validation([{ field: 'amount', message: 'is required: no money was recorded for this intent' }]);
      }
      if (amount > received) {
        throw AppError.conflict(
          'amount_exceeds_received',
          `The credit (${formatTry(amount)}) exceeds the money received for this intent (${formatTry(received)}); nothing was changed.`,
          [{ field: 'amount', message: `must not exceed the ${received} kuruş (${formatTry(received)}) received` }],
        );
      }
      return { to, amount, received };
    },
    changes: ({ amount }) => ({ amount, approvedAt: new Date() }),
    changedMeanwhile: 'The intent changed while it was being approved; nothing was changed.',
    posting: (updated, { amount }) => Postings.depositApproved(updated.siteId, updated.id, amount),
    audit: 'INTENT.APPROVED',
    metadata: (current, _updated, { to, amount, received }, journalTransactionId) => ({
      from: current.status,
      to,
      amount: amount.toString(),
      requestedAmount: current.requestedAmount.toString(),
      receivedAmount: received.toString(),
      operatorEnteredAmount: input.amount !== undefined && !input.rule,
      journalTransactionId,
      // The rule that approved it, when the service did (straight-through approval).
      ...(input.rule ? { rule: input.rule } : {}),
    }),
    event: 'intent.approved',
    log: 'deposit approved',
  });
}

/**
 * Rejects an intent that waits for review. No money moves. `reason` is the partner's (in `intent.rejected`)
 * and the audit log's; `userReason`, one of the hosted page's catalogue codes, is what the end user is told
 * (null: a general text).
 */
export function rejectDeposit(
  deps: DepositReviewDeps,
  request: OperatorRequest,
  intentId: string,
  { reason, userReason }: { reason: string; userReason: UserRejectionReason | null },
) {
  return transition(deps, request, intentId, {
    action: 'reject',
    decide: (_tx, _current, to) => ({ to }),
    changes: () => ({ rejectedAt: new Date(), rejectedReason: reason.trim(), rejectedUserReason: userReason }),
    changedMeanwhile: 'The intent changed while it was being rejected; nothing was changed.',
    audit: 'INTENT.REJECTED',
    metadata: (current, updated, { to }) => ({ from: current.status, to, reason: updated.rejectedReason, userReason }),
    event: 'intent.rejected',
    log: 'deposit rejected',
  });
}

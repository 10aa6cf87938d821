import { randomUUID } from 'node:crypto';
import type { Prisma, Withdrawal } from '@kasa/db';
import type { EventType, ReturnReasonCode } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { toOpsWithdrawal, toWithdrawalRecord } from './withdrawal.views.js';
import { assertWithdrawalAction, type WithdrawalAction } from './withdrawal.states.js';
import type { WithdrawalReviewRepository } from './withdrawal-review.repository.js';
import { Postings, type JournalPosting } from '../journal/accounts.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import { requireStepUp, type StepUpDeps } from '../operators/second-factor.guard.js';
import { approvalsRequired, approvalsView, decideApproval, type ApprovalDecision, type FourEyesDeps } from '../review/four-eyes.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { runTransition, transitionIn, type Transition, type TransitionDeps, type TransitionOutcome } from '../review/transition.js';
import { writeAudits } from '../shared/audit.repository.js';
import { actorOf } from '../shared/operator-principal.js';
import { writeEventsIfSubscribed } from '../outbox/outbox.repository.js';
import type { ScreeningRepository } from '../screening/screening.repository.js';
import { assertNotHeld } from '../screening/compliance-hold.js';

/**
 * What reviewing a withdrawal needs: the transition's database, publisher and logger, the rows and the journal, and
 * the four-eyes and step-up rules' thresholds.
 */
export interface WithdrawalReviewDeps extends TransitionDeps, FourEyesDeps, StepUpDeps {
  config: FourEyesDeps['config'] & StepUpDeps['config'];
  withdrawalReview: WithdrawalReviewRepository;
  journal: JournalRepository;
  screenings: Pick<ScreeningRepository, 'holdOf'>;
}

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
  /** The event only informs (an opt-in type): written for a site that chose it, and the step goes on for another. */
  informs?: true;
  metadata?: Record<string, string | null>;
  /** Approval: subject to four-eyes, so it may only record a first approval and leave the withdrawal in review. */
  approval?: true;
}

/** The state table's next status and, for an approval, what four-eyes decided (a first approval moves nothing). */
interface Decision {
  to: string;
  approval: ApprovalDecision | null;
}

const waits = (decision: Decision) => decision.approval !== null && !decision.approval.final;

/** Who approved, for the audit entry: `ayse@kasa.example, mehmet@kasa.example`. */
const approversOf = (approval: ApprovalDecision) => approval.approvals.map((given) => given.email ?? given.operatorId).join(', ');

/**
 * Every withdrawal step on the one transition recipe (review/transition.ts): lock, the state table, one
 * conditional update, the journal posting (approval is refused past the available balance), the audit entry
 * and the event.
 */
function transition(deps: WithdrawalReviewDeps, request: OperatorRequest, withdrawalId: string, step: Step) {
  return runTransition(deps, request, withdrawalId, withdrawalTransition(deps, request, withdrawalId, step));
}

/** A withdrawal step as the recipe's data, for {@link runTransition} or, inside a caller's transaction, {@link transitionIn}. */
function withdrawalTransition(deps: WithdrawalReviewDeps, request: OperatorRequest, withdrawalId: string, step: Step) {
  return {
    entityType: 'withdrawal',
    notFound: 'No withdrawal with this id.',
    lock: (tx) => deps.withdrawalReview.lockWithdrawal(tx, withdrawalId),
    siteOf: (row) => row.siteId,
    // Step-up on the amount as locked (docs/operations.md, Step-up).
    guard: (_tx, current) => (step.approval ? requireStepUp(deps, request.caller, current.amount) : undefined),
    decide: async (tx, current): Promise<Decision> => {
      const to = assertWithdrawalAction(step.action, current.status);
      // A screening hit holds the money from leaving: read on the locked row, so a hit committed first is seen.
      if (step.action === 'approve' || step.action === 'markSent') await assertNotHeld(deps, tx, 'withdrawal', withdrawalId);
      // Once in a payout batch its file may be at the bank: rejecting it would release money that may still be paid.
      const batchId = step.action === 'reject' ? await deps.withdrawalReview.batchOf(tx, withdrawalId) : null;
      if (batchId) {
        throw AppError.conflict(
          'invalid_transition',
          `The withdrawal is in payout batch ${batchId}, whose file went to the bank; it can no longer be rejected. ` +
            'Wait for the statement (sent or returned), or mark it sent or returned by hand. Nothing was changed.',
        );
      }
      if (!step.approval) return { to, approval: null };
      const required = await approvalsRequired(deps, current.siteId, current.amount, tx);
      const approval = await decideApproval(deps, tx, request.caller, current.approvals, required, 'withdrawal');
      return { to: approval.final ? to : current.status, approval };
    },
    update: (tx, current, decision) =>
      deps.withdrawalReview.updateWithdrawal(tx, withdrawalId, current.status, {
        status: decision.to as Withdrawal['status'],
        ...(decision.approval ? { approvals: decision.approval.approvals as unknown as Prisma.InputJsonValue } : {}),
        ...(waits(decision) ? {} : step.changes(current, new Date())),
      }),
    changedMeanwhile: 'The withdrawal changed meanwhile; nothing was changed.',
    post: async (tx, { current, decision }, alongside) => {
      if (waits(decision)) return null;
      const posting = step.posting?.(current) ?? null;
      if (!posting) return null;
      const posted = await deps.journal.post(tx, posting, step.action === 'approve' ? 'site_available' : undefined, alongside);
      if (posted.ok) return posted.transactionId;
      const available = (-posted.balance).toString();
      throw AppError.conflict(
        'insufficient_balance',
        `The site's available balance (${available}) is less than the withdrawal amount (${current.amount}); nothing was changed.`,
        [{ field: 'amount', message: `exceeds the available balance of ${available}` }],
      );
    },
    audit: ({ current, decision, updated, journalTransactionId }) => ({
      action: waits(decision) ? 'WITHDRAWAL.FIRST_APPROVAL' : step.audit,
      siteId: updated.siteId,
      metadata: {
        from: current.status,
        to: decision.to,
        amount: current.amount.toString(),
        journalTransactionId,
        ...step.metadata,
        ...(decision.approval ? { approvalsRequired: String(decision.approval.required), approvedBy: approversOf(decision.approval) } : {}),
      },
    }),
    event: ({ decision, updated }) =>
      step.event && !waits(decision)
        ? {
            siteId: updated.siteId,
            type: step.event,
            data: toWithdrawalRecord(updated),
            ...(step.informs ? { ifSubscribed: true as const } : {}),
          }
        : null,
    log: ({ current, decision, updated, journalTransactionId, eventId }) => ({
      message: waits(decision) ? 'withdrawal first approval' : step.log,
      fields: {
        withdrawalId,
        siteId: updated.siteId,
        status: decision.to,
        amount: current.amount.toString(),
        operatorId: request.caller.operatorId,
        journalTransactionId,
        eventId,
      },
    }),
    result: ({ updated, decision, eventId }) => ({
      // A first approval answers the standing approvals (1 of 2); every other step, who approved.
      ...toOpsWithdrawal(updated, waits(decision) ? approvalsView(deps, updated.status, updated.approvals, 2) : undefined),
      eventId,
    }),
  } satisfies Transition<Withdrawal, Decision, unknown>;
}

/**
 * PENDING_REVIEW -> APPROVED: reserves the amount from the site's available balance (409 if short). Above the
 * four-eyes threshold the first approval is only recorded (the withdrawal stays in review, nothing is reserved) and a
 * second operator's approval moves it. The approval that moves it writes `withdrawal.approved` for a site that chose it.
 */
export function approveWithdrawal(deps: WithdrawalReviewDeps, request: OperatorRequest, withdrawalId: string) {
  return transition(deps, request, withdrawalId, {
    action: 'approve',
    approval: true,
    audit: 'WITHDRAWAL.APPROVED',
    log: 'withdrawal approved',
    changes: (_current, now) => ({ approvedAt: now }),
    posting: (w) => Postings.withdrawalReserved(w.siteId, w.id, w.amount),
    event: 'withdrawal.approved',
    informs: true,
  });
}

/** PENDING_REVIEW | APPROVED -> REJECTED; after approval the reserved amount is released. */
export function rejectWithdrawal(deps: WithdrawalReviewDeps, request: OperatorRequest, withdrawalId: string, reason: string) {
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
export function markWithdrawalSent(
  deps: WithdrawalReviewDeps,
  request: OperatorRequest,
  withdrawalId: string,
  bankTxId?: string,
  rule: Record<string, string> = {},
) {
  return transition(deps, request, withdrawalId, sentStep(bankTxId, rule));
}

function sentStep(bankTxId: string | undefined, rule: Record<string, string>): Step {
  return {
    action: 'markSent',
    audit: 'WITHDRAWAL.SENT',
    log: 'withdrawal sent',
    changes: (_current, now) => ({ sentAt: now, sentBankTxId: bankTxId ?? null }),
    posting: (w) => Postings.withdrawalSettled(w.siteId, w.id, w.amount),
    event: 'withdrawal.sent',
    metadata: { bankTxId: bankTxId ?? null, ...rule },
  };
}

/**
 * SENT -> RETURNED: the bank sent the payout back; the amount is available to the site again. `code`: the bank's
 * ISO 20022 return reason when known (the partner's `returnReason.code`). `rule`: the audit metadata of the service's
 * own step (a statement line confirming it, bank-transfers/payout-statement.ts).
 */
export function markWithdrawalReturned(
  deps: WithdrawalReviewDeps,
  request: OperatorRequest,
  withdrawalId: string,
  reason: string,
  code: ReturnReasonCode | null = null,
  rule: Record<string, string> = {},
) {
  return transition(deps, request, withdrawalId, returnedStep(reason, code, rule));
}

function returnedStep(reason: string, code: ReturnReasonCode | null, rule: Record<string, string>): Step {
  return {
    action: 'markReturned',
    audit: 'WITHDRAWAL.RETURNED',
    log: 'withdrawal returned',
    changes: (_current, now) => ({ returnedAt: now, returnedReason: reason.trim(), returnedReasonCode: code }),
    posting: (w) => Postings.withdrawalReturned(w.siteId, w.id, w.amount),
    event: 'withdrawal.returned',
    metadata: { reason: reason.trim(), code, ...rule },
  };
}

/**
 * {@link markWithdrawalReturned} inside the caller's transaction (the follow-up worker's, which also finishes the
 * follow-up there): the outcome for the caller to commit, log and publish.
 */
export function markWithdrawalReturnedIn(
  tx: Prisma.TransactionClient,
  deps: WithdrawalReviewDeps,
  request: OperatorRequest,
  withdrawalId: string,
  reason: string,
  code: ReturnReasonCode | null,
  rule: Record<string, string>,
) {
  return transitionIn(tx, request, withdrawalId, withdrawalTransition(deps, request, withdrawalId, returnedStep(reason, code, rule)));
}

/** A batched withdrawal a debit line showed leaving: the line's reference and the audit metadata of the rule. */
export interface SentByLine {
  withdrawalId: string;
  bankTxId: string;
  rule: Record<string, string>;
}

/**
 * APPROVED -> SENT for many withdrawals in the caller's transaction, set-based (the follow-up worker confirming a
 * statement's payouts: thousands a second, not one transaction each): each locked, its step checked against the state
 * table, then one update, one journal write, one audit write and one event write for all. The same postings, audit
 * entries and `withdrawal.sent` events as {@link markWithdrawalSent} one at a time. A withdrawal not APPROVED (an
 * operator marked it sent or returned it first) is skipped with the 409's reason and changes nothing.
 */
export async function markWithdrawalsSentIn(
  tx: Prisma.TransactionClient,
  deps: WithdrawalReviewDeps,
  request: OperatorRequest,
  lines: readonly SentByLine[],
): Promise<TransitionOutcome<{ sent: string[]; skipped: Array<{ withdrawalId: string; reason: string }> }>> {
  const locked = await deps.withdrawalReview.lockWithdrawals(
    tx,
    lines.map((line) => line.withdrawalId),
  );
  const skipped: Array<{ withdrawalId: string; reason: string }> = [];
  const decided: Array<{ current: Withdrawal; line: SentByLine }> = [];
  for (const line of lines) {
    const current = locked.get(line.withdrawalId);
    if (!current) {
      skipped.push({ withdrawalId: line.withdrawalId, reason: 'No withdrawal with this id.' });
      continue;
    }
    try {
      assertWithdrawalAction('markSent', current.status);
      decided.push({ current, line });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      skipped.push({ withdrawalId: line.withdrawalId, reason: error.detail });
    }
  }
  const now = new Date();
  const written = await deps.withdrawalReview.markSentMany(
    tx,
    decided.map(({ current, line }) => ({ id: current.id, from: current.status, sentAt: now, sentBankTxId: line.bankTxId })),
  );
  // Locked by this transaction: nobody else can have moved them.
  if (written.size !== decided.length) throw new Error('a withdrawal locked in this transaction changed under it');
  const sent = decided.map((d) => ({ ...d, updated: written.get(d.current.id) as Withdrawal }));
  const postings = sent.map(({ current }) => Postings.withdrawalSettled(current.siteId, current.id, current.amount));
  // The site's balance rows last, after the audit and the events: every approval of the site waits for them.
  const transactionIds = postings.map(() => randomUUID());
  const actor = actorOf(request.caller);
  await writeAudits(
    tx,
    sent.map(({ current, line }, index) => ({
      actor,
      entityType: 'withdrawal',
      entityId: current.id,
      action: 'WITHDRAWAL.SENT',
      siteId: current.siteId,
      metadata: {
        from: current.status,
        to: 'SENT',
        amount: current.amount.toString(),
        journalTransactionId: transactionIds[index] ?? null,
        bankTxId: line.bankTxId,
        ...line.rule,
      },
    })),
  );
  const events = await writeEventsIfSubscribed(
    tx,
    sent.map(({ updated }) => ({
      entityId: updated.id,
      siteId: updated.siteId,
      type: 'withdrawal.sent' as const,
      data: toWithdrawalRecord(updated),
      requestId: request.requestId,
    })),
  );
  // `withdrawal.sent` is always sent: a payout never leaves without its event.
  if (events.length !== sent.length) throw new Error('a withdrawal sent without its withdrawal.sent event');
  await deps.journal.postMany(tx, postings, transactionIds);
  const steps = sent.map(({ current, updated }, index) => ({
    message: 'withdrawal sent',
    fields: {
      withdrawalId: current.id,
      siteId: current.siteId,
      status: updated.status,
      amount: current.amount.toString(),
      operatorId: request.caller.operatorId,
      journalTransactionId: transactionIds[index] ?? null,
      eventId: events[index]?.eventId ?? null,
    },
  }));
  return { result: { sent: sent.map(({ current }) => current.id), skipped }, step: steps, events };
}

import { randomUUID } from 'node:crypto';
import type { BankTransfer, BankTransferStatus, Prisma, SenderReturn } from '@kasa/db';
import { AppError } from '@kasa/http';
import { maskIban } from '@kasa/logger';
import type { BankTransferRepository } from '../bank-transfers/bank-transfer.repository.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import { actorOf } from '../shared/operator-principal.js';
import { requireStepUp, type StepUpDeps } from '../operators/second-factor.guard.js';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import {
  approvalsRequired,
  approvalsView,
  decideApproval,
  type ApprovalDecision,
  type ApprovalsView,
  type FourEyesDeps,
  withApprovalsRequired,
} from '../review/four-eyes.js';
import { inTransaction, runTransition, transitionIn, type Transition, type TransitionDeps } from '../review/transition.js';
import { HousePostings, type HouseLeg } from './house-accounts.js';
import type { NewSenderReturn, SenderReturnRepository } from './sender-return.repository.js';
import { assertReturnAction, type ReturnAction } from './sender-return.states.js';
import { toOpsSenderReturn } from './sender-return.views.js';

type Tx = Prisma.TransactionClient;

/**
 * What a return to a sender needs: the transition's database, publisher and logger, the clock, the rows it moves and
 * the four-eyes and step-up rules' thresholds.
 */
export interface ReturnDeps extends TransitionDeps, FourEyesDeps, StepUpDeps {
  config: FourEyesDeps['config'] & StepUpDeps['config'];
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
 * Opens a return in the caller's transaction, with its `SENDER_RETURN.REQUESTED` audit entry. Live money's return waits
 * for review (PENDING_REVIEW). Simulated money's is played out at once by the simulator (docs/sandbox.md, The
 * boundary): approved and SENT to its simulated sender with both house postings, in the sandbox's house journal, so
 * it is never an operator's work and never in a payout batch; audited `SENDER_RETURN.SENT` with rule `sandbox_simulator`.
 */
async function openReturn(
  deps: Pick<ReturnDeps, 'senderReturns' | 'clock'>,
  tx: Tx,
  actor: Actor,
  data: Omit<NewSenderReturn, 'livemode'>,
  transfer: Pick<BankTransfer, 'livemode'>,
  audit: { siteId?: string; metadata: Record<string, string | boolean> },
): Promise<SenderReturn> {
  const now = deps.clock.now();
  const played = transfer.livemode ? {} : { status: 'SENT' as const, approvedAt: now, sentAt: now, sentBankTxId: `sim-${randomUUID()}` };
  const row = await deps.senderReturns.create(tx, { ...data, livemode: transfer.livemode, ...played });
  const entry = { actor, entityType: 'sender_return', entityId: row.id, ...(audit.siteId ? { siteId: audit.siteId } : {}) };
  await writeAudit(tx, { ...entry, action: 'SENDER_RETURN.REQUESTED', metadata: audit.metadata });
  if (transfer.livemode) return row;
  const approved = await deps.senderReturns.postHouse(tx, row, HousePostings.returnApproved(row.amount));
  const sent = await deps.senderReturns.postHouse(tx, row, HousePostings.returnSent(row.amount));
  await writeAudit(tx, {
    ...entry,
    action: 'SENDER_RETURN.SENT',
    metadata: {
      from: 'PENDING_REVIEW',
      to: 'SENT',
      rule: 'sandbox_simulator',
      amount: row.amount.toString(),
      journalTransactionIds: `${approved}, ${sent}`,
    },
  });
  return row;
}

/**
 * Asks for a transfer's money to go back to its sender: a return `PENDING_REVIEW` for the whole amount, the
 * transfer `RETURNING` (out of every queue, no longer assignable). Only money no deposit kept: an unmatched
 * or set-aside transfer, or one that paid a rejected deposit. No money moves yet. Simulated money's return is played
 * out at once ({@link openReturn}): SENT, the transfer RETURNED.
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
    const to = transfer.livemode ? 'RETURNING' : 'RETURNED';
    const row = await openReturn(
      deps,
      tx,
      actor,
      {
        bankTransferId,
        amount: transfer.amount,
        currency: transfer.currency,
        senderName: transfer.senderName,
        senderIban: transfer.senderIban,
        reason: reason.trim(),
        transferStatusBefore: transfer.status,
        requestedBy: actor.id,
      },
      transfer,
      { metadata: { bankTransferId, from: transfer.status, to, reason: reason.trim(), amount: transfer.amount.toString() } },
    );
    await deps.bankTransfers.settle(tx, bankTransferId, transfer.status, { status: to });
    return row;
  });
  deps.logger.info('sender return requested', {
    requestId: request.requestId,
    returnId: created.id,
    bankTransferId,
    amount: created.amount,
    senderIban: maskIban(created.senderIban),
  });
  const [shown] = await withReturnApprovals(deps, [created]);
  return toOpsSenderReturn(created, shown?.shownApprovals);
}

/** A partial approval's remainder going back: the deposit (locked and approved by the caller) and how much of its money. */
export interface RemainderReturn {
  intentId: string;
  referenceNo: string;
  siteId: string;
  remainder: bigint;
  reason: string;
}

/**
 * Asks, in the caller's transaction (the deposit's approval), for a partial approval's remainder to go back to the
 * sender(s): the remainder is taken from the deposit's transfers latest first, each return PENDING_REVIEW for the part
 * of one transfer (at most all of it) to that transfer's sender, naming the deposit (`intentId`). The transfers stay
 * MATCHED or ASSIGNED: the deposit kept the rest of their money. No money moves yet; the house journal posts when a
 * return is approved and sent, exactly as for a whole transfer. Simulated money's return is played out at once
 * ({@link openReturn}). Returns the returns created, latest transfer first.
 */
export async function requestRemainderReturns(
  deps: Pick<ReturnDeps, 'senderReturns' | 'bankTransfers' | 'clock'>,
  tx: Tx,
  request: OperatorRequest,
  { intentId, referenceNo, siteId, remainder, reason }: RemainderReturn,
): Promise<SenderReturn[]> {
  const actor = actorOf(request.caller);
  const created: SenderReturn[] = [];
  let left = remainder;
  for (const transfer of await deps.bankTransfers.keptFor(tx, intentId)) {
    if (left <= 0n) break;
    const amount = transfer.amount < left ? transfer.amount : left;
    left -= amount;
    const row = await openReturn(
      deps,
      tx,
      actor,
      {
        bankTransferId: transfer.id,
        intentId,
        amount,
        currency: transfer.currency,
        senderName: transfer.senderName,
        senderIban: transfer.senderIban,
        reason,
        transferStatusBefore: transfer.status,
        requestedBy: actor.id,
      },
      transfer,
      { siteId, metadata: { bankTransferId: transfer.id, intentId, referenceNo, remainder: true, reason, amount: amount.toString() } },
    );
    created.push(row);
  }
  // The remainder is what arrived minus the credit, so the deposit's transfers always cover it.
  if (left > 0n) throw new Error('a remainder larger than the money its deposit holds');
  return created;
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
  /** A rejection's reason: a rejected remainder return is set aside on its deposit with it. */
  rejectedReason?: string;
  /** Approval: subject to four-eyes, so it may only record a first approval and leave the return in review. */
  approval?: true;
  /** The step pays money out of the house's real account: refused for a sandbox return (409 `sandbox_payout`). */
  paysOut?: true;
}

/** The state table's next status and, for an approval, what four-eyes decided (a first approval moves nothing). */
interface Decision {
  to: SenderReturn['status'];
  approval: ApprovalDecision | null;
}

const waits = (decision: Decision) => decision.approval !== null && !decision.approval.final;

/** The approvals needed to pay a return back: by its deposit's site, or the service's threshold for a house return. */
async function returnApprovalsRequired(deps: ReturnDeps, tx: Tx, current: SenderReturn): Promise<1 | 2> {
  const siteId = (await deps.senderReturns.sitesOf([current.id], tx)).get(current.id) ?? null;
  return approvalsRequired(deps, siteId, current.amount, tx);
}

/**
 * A remainder's return rejected: the money stays with us, so it is set aside on its deposit (added to what is set
 * aside there, with the rejection's reason), keeping received = credited + returned + set aside.
 */
async function keepRemainder(deps: ReturnDeps, tx: Tx, current: SenderReturn, reason: string): Promise<void> {
  const intentId = current.intentId as string;
  await deps.depositReview.lockDeposit(tx, intentId);
  const kept = await deps.depositReview.setRemainderAside(tx, intentId, current.amount, `Return ${current.id} rejected: ${reason.trim()}`);
  if (!kept) throw new Error('a remainder return without its approved deposit');
}

/**
 * A sandbox return (simulated money) is the simulator's, played out when it was asked for: an operator's approval or
 * "sent" would pay it from the house's real account, so it is refused, 409 `sandbox_payout`. Rejecting stays open.
 */
function assertLiveReturn(current: SenderReturn): void {
  if (current.livemode) return;
  throw AppError.conflict(
    'sandbox_payout',
    "The return gives back a sandbox's simulated money: the simulator pays it, never the house's real account. Nothing was changed.",
  );
}

/**
 * Every step of a return's review and payout on the one transition recipe (review/transition.ts), with its
 * house journal posting and audit entry. A step from any other status is a 409 and changes nothing.
 */
function transition(deps: ReturnDeps, request: OperatorRequest, returnId: string, step: Step) {
  return runTransition(deps, request, returnId, returnTransition(deps, request, returnId, step));
}

/** A return's step as the recipe's data, for {@link runTransition} or, inside a caller's transaction, {@link transitionIn}. */
function returnTransition(deps: ReturnDeps, request: OperatorRequest, returnId: string, step: Step) {
  return {
    entityType: 'sender_return',
    notFound: 'No return with this id.',
    lock: (tx) => deps.senderReturns.lock(tx, returnId),
    // Step-up on the amount as locked (docs/operations.md, Step-up).
    guard: (_tx, current) => (step.approval ? requireStepUp(deps, request.caller, current.amount) : undefined),
    decide: async (tx, current): Promise<Decision> => {
      if (step.paysOut) assertLiveReturn(current);
      const to = assertReturnAction(step.action, current.status);
      if (!step.approval) return { to, approval: null };
      const required = await returnApprovalsRequired(deps, tx, current);
      const approval = await decideApproval(deps, tx, request.caller, current.approvals, required, 'return');
      return { to: approval.final ? to : current.status, approval };
    },
    update: async (tx, current, decision) => {
      const { to } = decision;
      // A remainder's return leaves its transfer as it is (its deposit kept the rest of the money).
      const transferTo = current.intentId ? undefined : step.transferTo?.(current);
      if (transferTo) await deps.bankTransfers.settle(tx, current.bankTransferId, 'RETURNING', { status: transferTo });
      if (current.intentId && to === 'REJECTED') await keepRemainder(deps, tx, current, step.rejectedReason ?? '');
      return deps.senderReturns.update(tx, returnId, current.status, {
        status: to,
        ...(decision.approval ? { approvals: decision.approval.approvals as unknown as Prisma.InputJsonValue } : {}),
        ...(waits(decision) ? {} : step.changes(deps.clock.now())),
      });
    },
    changedMeanwhile: 'The return changed meanwhile; nothing was changed.',
    post: async (tx, { current, decision }) => {
      if (waits(decision)) return null;
      const posting = step.posting?.(current) ?? null;
      return posting ? deps.senderReturns.postHouse(tx, current, posting) : null;
    },
    audit: ({ current, decision, journalTransactionId }) => ({
      action: waits(decision) ? 'SENDER_RETURN.FIRST_APPROVAL' : `SENDER_RETURN.${decision.to}`,
      metadata: {
        from: current.status,
        to: decision.to,
        bankTransferId: current.bankTransferId,
        amount: current.amount.toString(),
        ...step.metadata,
        ...(journalTransactionId ? { journalTransactionId } : {}),
        ...(decision.approval
          ? {
              approvalsRequired: String(decision.approval.required),
              approvedBy: decision.approval.approvals.map((given) => given.email ?? given.operatorId).join(', '),
            }
          : {}),
      },
    }),
    log: ({ updated, decision }) => ({
      message: waits(decision) ? 'sender return first approval' : 'sender return changed',
      fields: { returnId, status: updated.status, amount: updated.amount },
    }),
    // A first approval answers the standing approvals (1 of 2); every other step, who approved.
    result: ({ updated, decision }) =>
      toOpsSenderReturn(updated, waits(decision) ? approvalsView(deps, updated.status, updated.approvals, 2) : undefined),
  } satisfies Transition<SenderReturn, Decision, unknown>;
}

/**
 * Returns with their approvals as operators see them (four-eyes: what each needs, read by its site); `tx`: the ops
 * list's transaction, when a list page asks.
 */
export async function withReturnApprovals(
  deps: ReturnDeps,
  rows: SenderReturn[],
  tx?: Tx,
): Promise<Array<SenderReturn & { shownApprovals: ApprovalsView }>> {
  const sites = await deps.senderReturns.sitesOf(
    rows.map((row) => row.id),
    tx,
  );
  const required = await withApprovalsRequired(deps, rows, (row) => sites.get(row.id) ?? null);
  return required.map(({ approvalsRequired: needed, ...row }) => ({
    ...row,
    shownApprovals: approvalsView(deps, row.status, row.approvals, needed),
  }));
}

/** PENDING_REVIEW -> APPROVED: the money is owed back (bank_clearing -> sender_refunds_payable). */
export function approveSenderReturn(deps: ReturnDeps, request: OperatorRequest, returnId: string) {
  return transition(deps, request, returnId, {
    action: 'approve',
    approval: true,
    paysOut: true,
    changes: (now) => ({ approvedAt: now }),
    posting: (r) => HousePostings.returnApproved(r.amount),
  });
}

/** PENDING_REVIEW | APPROVED -> REJECTED with a reason; after approval the posting is reversed; the transfer goes back to where it was. */
export function rejectSenderReturn(deps: ReturnDeps, request: OperatorRequest, returnId: string, reason: string) {
  return transition(deps, request, returnId, {
    action: 'reject',
    changes: (now) => ({ rejectedAt: now, rejectedReason: reason.trim() }),
    rejectedReason: reason,
    posting: (r) => (r.status === 'APPROVED' ? HousePostings.returnWithdrawn(r.amount) : null),
    // Written by requestSenderReturn from the transfer's own status.
    transferTo: (r) => r.transferStatusBefore as BankTransferStatus,
    ...(reason ? { metadata: { reason: reason.trim() } } : {}),
  });
}

/** APPROVED -> SENT: the money left the bank (sender_refunds_payable -> refunds_settled); the transfer is RETURNED. */
export function markSenderReturnSent(
  deps: ReturnDeps,
  request: OperatorRequest,
  returnId: string,
  bankTxId?: string,
  rule: Record<string, string> = {},
) {
  return transition(deps, request, returnId, sentStep(bankTxId, rule));
}

function sentStep(bankTxId: string | undefined, rule: Record<string, string>): Step {
  return {
    action: 'markSent',
    paysOut: true,
    changes: (now) => ({ sentAt: now, sentBankTxId: bankTxId ?? null }),
    posting: (r) => HousePostings.returnSent(r.amount),
    transferTo: () => 'RETURNED',
    metadata: { ...(bankTxId ? { bankTxId } : {}), ...rule },
  };
}

/**
 * {@link markSenderReturnSent} inside the caller's transaction (the follow-up worker's, which also finishes the
 * follow-up there): the outcome for the caller to commit, log and publish.
 */
export function markSenderReturnSentIn(
  tx: Tx,
  deps: ReturnDeps,
  request: OperatorRequest,
  returnId: string,
  bankTxId: string,
  rule: Record<string, string>,
) {
  return transitionIn(tx, request, returnId, returnTransition(deps, request, returnId, sentStep(bankTxId, rule)));
}

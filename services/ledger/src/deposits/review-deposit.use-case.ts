import { randomUUID } from 'node:crypto';
import type { Deposit, DepositStatus, Prisma } from '@kasa/db';
import { formatTry } from '@kasa/money';
import type { RemainderAction, UserRejectionReason } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { toDepositRecord, toOpsDeposit } from './deposit.views.js';
import { assertDepositAction, type DepositAction } from './deposit.states.js';
import type { DepositReviewRepository } from './deposit-review.repository.js';
import { Postings, type JournalPosting } from '../journal/accounts.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { actorOf } from '../shared/operator-principal.js';
import { requireStepUp, type StepUpDeps } from '../operators/second-factor.guard.js';
import { writeEventsIfSubscribed } from '../outbox/outbox.repository.js';
import { writeAudits } from '../shared/audit.repository.js';
import { assertNotHeld } from '../screening/compliance-hold.js';
import type { ScreeningRepository } from '../screening/screening.repository.js';
import { commitTransition, runTransition, type TransitionDeps, type TransitionOutcome } from '../review/transition.js';

type Tx = Prisma.TransactionClient;

/**
 * What reviewing a deposit needs: the transition's database, publisher and logger, the rows, the journal, the money
 * that arrived and the step-up rule's clock and limit.
 */
export interface DepositReviewDeps extends TransitionDeps, StepUpDeps {
  depositReview: DepositReviewRepository;
  journal: JournalRepository;
  bankTransfers: MoneyReceived;
  /** The holds screening hits put on deposits (their senders', docs/compliance.md). */
  screenings: ScreeningRepository;
  remainderReturns: RemainderReturns;
}

/**
 * The money matched or assigned to deposits, read in the caller's transaction under its lock: bank-transfers/ keeps it
 * (`BankTransferRepository` answers this), so deposits/ reads it without importing the feature that matches it.
 */
export interface MoneyReceived {
  receivedFor(tx: Tx, intentId: string): Promise<bigint>;
  receivedForMany(tx: Tx, intentIds: readonly string[]): Promise<Map<string, bigint>>;
}

/**
 * A partial approval's remainder going back to the sender(s), asked for in the approval's transaction: returns/ does
 * it (`requestRemainderReturns`), wired by the composition root (ledger-deps.ts), so deposits/ does not import it.
 */
export interface RemainderReturns {
  /** Opens the returns of `remainder` of the deposit's money (locked and approved by the caller); their ids, latest transfer first. */
  request(
    tx: Tx,
    request: OperatorRequest,
    remainder: { intentId: string; referenceNo: string; siteId: string; remainder: bigint; reason: string },
  ): Promise<ReadonlyArray<{ id: string }>>;
}

interface Step<Decision extends { to: DepositStatus }> {
  action: DepositAction;
  /** A control on the locked intent before deciding (step-up on what an approval credits); throws to refuse. */
  guard?(tx: Tx, current: Deposit): Promise<void>;
  /** What the decision reads under the lock besides the state table (the money received); throws to refuse. */
  decide(tx: Tx, current: Deposit, to: DepositStatus): Promise<Decision> | Decision;
  /** The row fields the transition sets, besides the status. */
  changes(decision: Decision): Prisma.DepositUpdateManyMutationInput;
  changedMeanwhile: string;
  /** The journal posting, if money moves. */
  posting?(updated: Deposit, decision: Decision): JournalPosting;
  /**
   * What else the step writes in its transaction once the row changed and the journal posted (a remainder's returns),
   * null when nothing; what it writes may change the audit entry, which is then written after it.
   */
  alongside?(updated: Deposit, decision: Decision): ((tx: Tx) => Promise<void>) | null;
  audit: string;
  metadata(current: Deposit, updated: Deposit, decision: Decision, journalTransactionId: string | null): Prisma.InputJsonObject;
  /** The decision's webhook: the partner's record of the intent as `data`, with the deciding request's id. */
  event: 'intent.approved' | 'intent.rejected';
  /** The business log line once committed: `deposit approved` / `deposit rejected`. */
  log: string;
}

/** A step's business log line once committed. */
function logged(step: Pick<Step<never>, 'log'>, request: OperatorRequest, updated: Deposit, eventId: string | null) {
  return {
    message: step.log,
    fields: {
      intentId: updated.id,
      siteId: updated.siteId,
      status: updated.status,
      amount: updated.amount.toString(),
      operatorId: request.caller.operatorId,
      eventId,
    },
  };
}

/** Every intent step on the one transition recipe (review/transition.ts); the answer is the ops view with the event's id. */
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
    siteOf: (row) => row.siteId,
    guard: (tx, current) => step.guard?.(tx, current),
    decide: (tx, current) => step.decide(tx, current, assertDepositAction(step.action, current.status)),
    update: (tx, current, decision) =>
      deps.depositReview.updateDeposit(tx, intentId, current.status, { status: decision.to, ...step.changes(decision) }),
    changedMeanwhile: step.changedMeanwhile,
    post: async (tx, { decision, updated }, withAudit) => {
      if (!step.posting) return null;
      const after = step.alongside?.(updated, decision) ?? null;
      // Without writes after the posting, the audit entry and the event ride on the posting's statement.
      const posted = await deps.journal.post(tx, step.posting(updated, decision), undefined, after ? undefined : withAudit);
      if (!posted.ok) throw new Error('a deposit credit cannot be refused');
      await after?.(tx);
      return posted.transactionId;
    },
    audit: ({ current, updated, decision, journalTransactionId }) => ({
      action: step.audit,
      siteId: updated.siteId,
      metadata: step.metadata(current, updated, decision, journalTransactionId),
    }),
    event: ({ updated }) => ({ siteId: updated.siteId, type: step.event, data: toDepositRecord(updated) }),
    log: ({ updated, eventId }) => logged(step, request, updated, eventId),
    result: ({ updated, decision, eventId }) => ({ ...toOpsDeposit(updated), eventId, remainder: remainderOutcome(decision) }),
  });
}

/** What became of the money an approval did not credit: the action, how much, why, and the returns asked for. */
export interface RemainderOutcome {
  action: RemainderAction;
  amount: string;
  reason: string;
  returnIds: string[];
}

interface Approval {
  to: DepositStatus;
  amount: bigint;
  received: bigint;
  /** What arrived and is not credited (received - amount) and what happens to it; null when everything is credited. */
  remainder: { action: RemainderAction; amount: bigint; reason: string; returnIds: string[] } | null;
}

/** The answer's `remainder`: null for a rejection and for an approval that credited everything. */
function remainderOutcome(decision: { to: DepositStatus } | Approval): RemainderOutcome | null {
  const remainder = 'remainder' in decision ? decision.remainder : null;
  return remainder ? { ...remainder, amount: remainder.amount.toString(), returnIds: [...remainder.returnIds] } : null;
}

/** What the operator says about money the approval does not credit (absent: return it). */
export interface RemainderInput {
  action: RemainderAction;
  reason?: string;
}

/**
 * What approving takes: the operator's figure (absent: everything received), the remainder's fate, when the service
 * approves its rule, and `exact` for a bulk approval, which takes only money that arrived in time and exactly as requested.
 */
interface ApprovalInput {
  amount?: bigint;
  remainder?: RemainderInput;
  rule?: Prisma.InputJsonObject;
  exact?: true;
}

/** What an approval writes besides the status: the credit, when, and a remainder set aside with its reason. */
const approvalChanges = ({ amount, remainder }: Approval) => ({
  amount,
  approvedAt: new Date(),
  ...(remainder?.action === 'set_aside'
    ? { remainderSetAside: remainder.amount, remainderSetAsideReason: remainder.reason, remainderSetAsideAt: new Date() }
    : {}),
});

/**
 * The fate of the money an approval leaves uncredited: `return` (the default) or `set_aside`, which needs a reason
 * (400 naming `remainder.reason`). A rule's approval never leaves a remainder (it is an operator's to weigh).
 */
function decideRemainder(input: ApprovalInput, current: Deposit, amount: bigint, received: bigint): Approval['remainder'] {
  const rest = received - amount;
  if (rest === 0n) return null;
  if (input.rule) {
    throw AppError.validation([
      { field: 'amount', message: "a rule credits everything that arrived; a remainder is an operator's decision" },
    ]);
  }
  const action = input.remainder?.action ?? 'return';
  const given = input.remainder?.reason?.trim() ?? '';
  if (action === 'set_aside' && given === '') {
    throw AppError.validation([
      { field: 'remainder.reason', message: `is required to set aside the ${rest} kuruş (${formatTry(rest)}) not credited` },
    ]);
  }
  const reason = given || `Remainder of deposit ${current.referenceNo}: ${formatTry(amount)} credited of ${formatTry(received)} received.`;
  return { action, amount: rest, reason, returnIds: [] };
}

/** Asks for a remainder's returns in the approval's transaction; their ids. */
type ReturnRemainder = (tx: Tx, updated: Deposit, remainder: bigint, reason: string) => Promise<string[]>;

/** What an operator's approval adds to the step: how a remainder's returns are asked for, and the step-up rule. */
interface OperatorApproval {
  returnRemainder: ReturnRemainder;
  /** Refuses (403 `step_up_required`) to credit `amount` without a fresh second-factor code. */
  stepUp(amount: bigint): void;
}

/**
 * A bulk approval's rule, on the deposit and the money received as locked: the money arrived in time and exactly as
 * requested (409 `not_exact_match`). A late arrival is no exact match even for the right amount: the deposit expired
 * before the money came, which an operator weighs on its own.
 */
function requireExactMatch(current: Deposit, received: bigint): void {
  if (current.status === 'LATE_ARRIVAL') {
    throw AppError.conflict(
      'not_exact_match',
      `A late arrival: the money came after the deposit expired, so it is not an exact match; approve it on its own.`,
    );
  }
  if (received === current.requestedAmount) return;
  throw AppError.conflict(
    'not_exact_match',
    `Received ${formatTry(received)} for ${formatTry(current.requestedAmount)} requested: not an exact match; approve it on its own.`,
  );
}

/**
 * The approval step, given how the money received for the intent is read under its lock and, for an operator's
 * approval, its remainder's returns and step-up. The guard and the decision read the money received once, on the
 * locked intent: a transfer assigned at the same moment waits for the lock, so what is checked is what is credited.
 */
function approveStep(
  input: ApprovalInput,
  receivedFor: (tx: Tx) => Promise<bigint>,
  screenings: Pick<ScreeningRepository, 'holdOf'>,
  operator?: OperatorApproval,
): Step<Approval> {
  let read: Promise<bigint> | undefined;
  const receivedOnce = (tx: Tx) => (read ??= receivedFor(tx));
  return {
    action: 'approve',
    guard: async (tx, current) => {
      // A screening hit on a sender holds the deposit (409 `compliance_hold`), read under its lock: a hit written by a
      // racing credit or re-screening committed before the lock is seen.
      await assertNotHeld({ screenings }, tx, 'deposit', current.id);
      const received = await receivedOnce(tx);
      if (input.exact) requireExactMatch(current, received);
      // What the approval would credit: the operator's figure, else everything received.
      operator?.stepUp(input.amount ?? received);
    },
    decide: async (tx, current, to) => {
      const received = await receivedOnce(tx);
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
      return { to, amount, received, remainder: decideRemainder(input, current, amount, received) };
    },
    changes: approvalChanges,
    changedMeanwhile: 'The intent changed while it was being approved; nothing was changed.',
    posting: (updated, { amount }) => Postings.depositApproved(updated.siteId, updated.id, amount),
    alongside: (updated, { remainder }) => {
      if (remainder?.action !== 'return') return null;
      if (!operator) throw new Error('a remainder to return without a way to return it');
      // The decision carries the ids on to the audit entry and the answer.
      return async (tx) => {
        remainder.returnIds.push(...(await operator.returnRemainder(tx, updated, remainder.amount, remainder.reason)));
      };
    },
    audit: 'INTENT.APPROVED',
    metadata: (current, _updated, { to, amount, received, remainder }, journalTransactionId) => ({
      from: current.status,
      to,
      amount: amount.toString(),
      requestedAmount: current.requestedAmount.toString(),
      receivedAmount: received.toString(),
      operatorEnteredAmount: input.amount !== undefined && !input.rule,
      journalTransactionId,
      remainder: remainder ? { ...remainder, amount: remainder.amount.toString() } : null,
      // The rule that approved it, when the service did (straight-through approval).
      ...(input.rule ? { rule: input.rule } : {}),
    }),
    event: 'intent.approved',
    log: 'deposit approved',
  };
}

/**
 * Approves a deposit that money arrived for (PENDING_REVIEW or LATE_ARRIVAL). The credited `amount` is
 * the operator's figure or, by default, everything the bank transfers brought; `requestedAmount` stays as
 * the partner asked. Money is created only by money that arrived: the credit can never exceed the sum of
 * the transfers matched or assigned to the intent (409, nothing changed). Credits the site's available
 * balance and emits `intent.approved`. Crediting less than arrived leaves no money off the books: the remainder goes
 * back to its sender(s) as returns PENDING_REVIEW (`return`, the default) or is set aside on the deposit with a reason
 * (`set_aside`), in the same transaction. `rule`: the service approving by a site's rule, kept in the audit entry.
 * Above STEP_UP_ABOVE_KURUS an operator needs a fresh second-factor code for the amount credited, read on the locked
 * intent (403 `step_up_required`); `exact`: only money that arrived in time and exactly as requested (409 `not_exact_match`).
 */
export function approveDeposit(deps: DepositReviewDeps, request: OperatorRequest, intentId: string, input: ApprovalInput) {
  return transition(
    deps,
    request,
    intentId,
    approveStep(input, (tx) => deps.bankTransfers.receivedFor(tx, intentId), deps.screenings, {
      returnRemainder: async (tx, updated, remainder, reason) =>
        (
          await deps.remainderReturns.request(tx, request, {
            intentId,
            referenceNo: updated.referenceNo,
            siteId: updated.siteId,
            remainder,
            reason,
          })
        ).map((row) => row.id),
      stepUp: (amount) => requireStepUp(deps, request.caller, amount),
    }),
  );
}

/** Why a rule's approval left a deposit to its operators: a screening hit on a sender holds it (for operators only). */
const COMPLIANCE_HOLD_SKIP = 'On compliance hold: a sanctions screening hit on a sender awaits its decision or was confirmed.';

/** A deposit the service approves by a site's rule: the credit and the rule, for the audit entry. */
export interface RuleApproval {
  intentId: string;
  amount: bigint;
  rule: Prisma.InputJsonObject;
}

/**
 * Approves many deposits by a site's rule in one transaction, each exactly as {@link approveDeposit} does (the same
 * state table, check of the money received, journal posting, audit entry and `intent.approved` event), written set by
 * set: one lock of all (in id order), one read of the money received, one update, one journal write, one audit write.
 * A deposit the approval refuses (an operator decided it meanwhile, or the money does not cover the credit) is left
 * as it is and returned with the reason.
 */
export async function approveDepositsByRule(
  deps: DepositReviewDeps,
  request: OperatorRequest,
  approvals: readonly RuleApproval[],
): Promise<{ approved: string[]; skipped: Array<{ intentId: string; reason: string }> }> {
  return commitTransition(deps, request, (tx) => approveDepositsByRuleIn(tx, deps, request, approvals));
}

/** {@link approveDepositsByRule} inside the caller's transaction (the follow-up worker's, which finishes its follow-ups there). */
export async function approveDepositsByRuleIn(
  tx: Prisma.TransactionClient,
  deps: DepositReviewDeps,
  request: OperatorRequest,
  approvals: readonly RuleApproval[],
): Promise<TransitionOutcome<{ approved: string[]; skipped: Array<{ intentId: string; reason: string }> }>> {
  const ids = approvals.map((a) => a.intentId);
  const locked = await deps.depositReview.lockDeposits(tx, ids);
  const received = await deps.bankTransfers.receivedForMany(tx, ids);
  // Read after the locks: a hit on a sender committed before them holds its deposit from the rule's approval too.
  const held = await deps.screenings.heldAmong(tx, ids);
  const skipped: Array<{ intentId: string; reason: string }> = [];
  const decided: Array<{ current: Deposit; step: Step<Approval>; decision: Approval; changes: { amount: bigint; approvedAt: Date } }> = [];
  for (const { intentId, amount, rule } of approvals) {
    const current = locked.get(intentId);
    if (!current) {
      skipped.push({ intentId, reason: 'No deposit intent with this id.' });
      continue;
    }
    if (held.has(intentId)) {
      skipped.push({ intentId, reason: COMPLIANCE_HOLD_SKIP });
      continue;
    }
    const step = approveStep({ amount, rule }, () => Promise.resolve(received.get(intentId) ?? 0n), deps.screenings);
    try {
      const decision = await step.decide(tx, current, assertDepositAction(step.action, current.status));
      decided.push({ current, step, decision, changes: approvalChanges(decision) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      skipped.push({ intentId, reason: error.detail });
    }
  }
  const written = await deps.depositReview.approveDeposits(
    tx,
    decided.map(({ current, decision, changes }) => ({ id: current.id, from: current.status, to: decision.to, ...changes })),
  );
  // Locked by this transaction: nobody else can have moved them.
  if (written.size !== decided.length) throw new Error('a deposit locked in this transaction changed under it');
  const approved = decided.map((d) => ({ ...d, updated: written.get(d.current.id) as Deposit }));
  const postings = approved.flatMap(({ step, updated, decision }) => (step.posting ? [step.posting(updated, decision)] : []));
  // The site's balance rows last, after the audit and the events: every approval of the site waits for them.
  const transactionIds = postings.map(() => randomUUID());
  const actor = actorOf(request.caller);
  await writeAudits(
    tx,
    approved.map(({ current, updated, step, decision }, index) => ({
      actor,
      entityType: 'deposit_intent',
      entityId: current.id,
      action: step.audit,
      siteId: updated.siteId,
      metadata: step.metadata(current, updated, decision, transactionIds[index] ?? null),
    })),
  );
  const events = await writeEventsIfSubscribed(
    tx,
    approved.map(({ updated, step }) => ({
      entityId: updated.id,
      siteId: updated.siteId,
      type: step.event,
      data: toDepositRecord(updated),
      requestId: request.requestId,
    })),
  );
  // `intent.approved` is always sent: an approval is never made without its event.
  if (events.length !== approved.length) throw new Error('an approval without its intent.approved event');
  await deps.journal.postMany(tx, postings, transactionIds);
  const steps = approved.map(({ updated, step }, index) => logged(step, request, updated, events[index]?.eventId ?? null));
  return { result: { approved: approved.map(({ updated }) => updated.id), skipped }, step: steps, events };
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

import type { FollowUp, Prisma } from '@kasa/db';
import { AppError } from '@kasa/http';
import { PAYOUT_STATEMENT_PRINCIPAL, STRAIGHT_THROUGH_PRINCIPAL } from '../shared/operator-principal.js';
import { approveDepositsByRuleIn, type DepositReviewDeps } from '../deposits/review-deposit.use-case.js';
import { markSenderReturnSentIn, type ReturnDeps } from '../returns/sender-return.use-case.js';
import type { ScreeningRepository } from '../screening/screening.repository.js';
import type { SiteRepository } from '../sites/site.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { commitTransition, type TransitionOutcome, type TransitionStep } from '../review/transition.js';
import type { WrittenOutboxEvent } from '../outbox/outbox.repository.js';
import { markWithdrawalReturnedIn, markWithdrawalsSentIn, type WithdrawalReviewDeps } from '../withdrawals/review-withdrawal.use-case.js';
import type { FollowUpPosition, FollowUpRepository, FollowUpSelection } from './follow-up.repository.js';
import type { ApprovalPayload, FollowUpCounts, PayoutReturnedPayload, PayoutSentPayload } from './follow-up-work.js';

export type { ApprovalPayload, FollowUpCounts, PayoutReturnedPayload, PayoutSentPayload } from './follow-up-work.js';

type Tx = Prisma.TransactionClient;

export interface FollowUpDeps extends DepositReviewDeps, WithdrawalReviewDeps, ReturnDeps {
  config: DepositReviewDeps['config'] & WithdrawalReviewDeps['config'];
  bankTransfers: ReturnDeps['bankTransfers'];
  followUps: FollowUpRepository;
  sites: SiteRepository;
  screenings: ScreeningRepository;
}

/** Follow-ups claimed and done per transaction: one short transaction per page, whatever the backlog. */
const PER_TRANSACTION = 500;

const newCounts = (): FollowUpCounts => ({ autoApproved: 0, payoutsSent: 0, payoutsReturned: 0, skipped: 0, deferred: 0 });

/**
 * Carries out the pending follow-ups a selection names (docs/statements.md, "After the lines commit"): the request that
 * promised them runs its own at once, a re-sent file or batch of lines resumes those of its lines, and the follow-up
 * worker takes whatever is due. Each page is claimed (`FOR UPDATE SKIP LOCKED`: two ledgers never take the same one)
 * and done in one transaction that also marks it DONE, or SKIPPED with the reason when an operator decided the record
 * first, so a crash at any point leaves it pending, never half done or done twice. Set-based: a page's approvals, and
 * its payouts sent, are one update, one journal write, one audit write and one event write each.
 * `maxPages` bounds one run (the worker's pass); the default runs the selection to its end.
 */
export async function runFollowUps(
  deps: FollowUpDeps,
  requestId: string | null,
  selection: FollowUpSelection,
  maxPages = Number.POSITIVE_INFINITY,
): Promise<FollowUpCounts> {
  const counts = newCounts();
  if ('lineKeys' in selection) {
    // A batch's lines name their follow-ups once, in the order they must be done, and are then paged in memory: a
    // page read by the keys would send every key of a large file again with each of its pages.
    const ids = await deps.followUps.pendingOfLines(selection);
    for (let start = 0, page = 0; start < ids.length && page < maxPages; start += PER_TRANSACTION, page += 1) {
      await runPage(deps, requestId, ids.slice(start, start + PER_TRANSACTION), counts);
    }
    return counts;
  }
  let after: FollowUpPosition | null = null;
  for (let page = 0; page < maxPages; page += 1) {
    const positions = await deps.followUps.pending(selection, after, PER_TRANSACTION);
    if (positions.length === 0) break;
    after = positions[positions.length - 1] ?? null;
    await runPage(
      deps,
      requestId,
      positions.map((position) => position.id),
      counts,
    );
    if (positions.length < PER_TRANSACTION) break;
  }
  return counts;
}

/** One page in one transaction; a page that fails as a whole is tried one follow-up at a time, so one cannot hold up the rest. */
async function runPage(deps: FollowUpDeps, requestId: string | null, ids: readonly string[], counts: FollowUpCounts): Promise<void> {
  try {
    add(counts, await runInTransaction(deps, requestId, ids));
    return;
  } catch (error) {
    if (ids.length === 1) {
      const reason = error instanceof Error ? error.message : String(error);
      deps.logger.warn('follow-up failed; tried again later', { requestId, followUpId: ids[0], reason });
      await deps.followUps.deferred(ids, reason);
      counts.deferred += 1;
      return;
    }
    deps.logger.info('follow-up page failed; trying one at a time', {
      requestId,
      followUps: ids.length,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
  for (const id of ids) await runPage(deps, requestId, [id], counts);
}

function add(total: FollowUpCounts, more: FollowUpCounts): void {
  total.autoApproved += more.autoApproved;
  total.payoutsSent += more.payoutsSent;
  total.payoutsReturned += more.payoutsReturned;
  total.skipped += more.skipped;
  total.deferred += more.deferred;
}

/** What one kind's work in the transaction did: the ids done, those skipped and why, its log lines and events. */
interface KindOutcome {
  done: string[];
  skipped: Array<{ id: string; reason: string }>;
  steps: TransitionStep[];
  events: WrittenOutboxEvent[];
}

const emptyOutcome = (): KindOutcome => ({ done: [], skipped: [], steps: [], events: [] });

function stepsOf(outcome: TransitionOutcome<unknown>): TransitionStep[] {
  return outcome.step ? [outcome.step].flat() : [];
}

async function runInTransaction(deps: FollowUpDeps, requestId: string | null, ids: readonly string[]): Promise<FollowUpCounts> {
  const context: OperatorRequest = { requestId: requestId ?? 'follow-up', caller: PAYOUT_STATEMENT_PRINCIPAL };
  return commitTransition(deps, context, async (tx) => {
    const claimed = await deps.followUps.claim(tx, ids);
    const of = (kind: FollowUp['kind']) => claimed.filter((followUp) => followUp.kind === kind);
    // A payout's sending before its return: the order the bank booked them in.
    const approvals = await approveDeposits(tx, deps, of('DEPOSIT_APPROVAL'));
    const sent = await sendWithdrawals(tx, deps, of('WITHDRAWAL_SENT'));
    const returnsSent = await eachAlone(tx, deps, of('RETURN_SENT'), (followUp) => {
      const payload = followUp.payload as unknown as PayoutSentPayload;
      return markSenderReturnSentIn(tx, deps, requestOf(followUp, PAYOUT_STATEMENT_PRINCIPAL), followUp.subjectId, payload.bankTxId, {
        rule: 'payout_statement',
        batchId: payload.batchId,
      });
    });
    const returned = await returnWithdrawals(tx, deps, of('WITHDRAWAL_RETURNED'), new Set(of('WITHDRAWAL_SENT').map((f) => f.subjectId)));
    const outcomes = [approvals, sent, returnsSent, returned];
    await deps.followUps.finish(
      tx,
      outcomes.flatMap((outcome) => outcome.done),
      outcomes.flatMap((outcome) => outcome.skipped),
    );
    for (const outcome of outcomes) {
      for (const { id, reason } of outcome.skipped) {
        const followUp = claimed.find((claim) => claim.id === id);
        deps.logger.info('follow-up skipped', {
          requestId: followUp?.requestId ?? requestId,
          followUpId: id,
          kind: followUp?.kind,
          reason,
        });
      }
    }
    const result: FollowUpCounts = {
      autoApproved: approvals.done.length,
      payoutsSent: sent.done.length + returnsSent.done.length,
      payoutsReturned: returned.done.length,
      skipped: outcomes.reduce((sum, outcome) => sum + outcome.skipped.length, 0),
      deferred: 0,
    };
    return { result, step: outcomes.flatMap((outcome) => outcome.steps), events: outcomes.flatMap((outcome) => outcome.events) };
  });
}

/** The request a follow-up's step runs as: the one that promised it (its id on the events and logs), as the service. */
function requestOf(followUp: FollowUp, caller: OperatorRequest['caller']): OperatorRequest {
  return { requestId: followUp.requestId ?? 'follow-up', caller };
}

/**
 * The deposits a site's straight-through rule covered when their money was recorded (record-lines.ts), approved with
 * the operators' own approval, set-based. A site that has since turned its rule off leaves them to its operators.
 */
async function approveDeposits(tx: Tx, deps: FollowUpDeps, followUps: readonly FollowUp[]): Promise<KindOutcome> {
  const outcome = emptyOutcome();
  if (followUps.length === 0) return outcome;
  const payloads = new Map(followUps.map((followUp) => [followUp.id, followUp.payload as unknown as ApprovalPayload]));
  const ruleOn = new Map<string, boolean>();
  for (const siteId of new Set([...payloads.values()].map((payload) => payload.siteId))) {
    ruleOn.set(siteId, (await deps.sites.findById(siteId, tx))?.autoApproveEnabled ?? false);
  }
  const bySubject = new Map<string, FollowUp>();
  for (const followUp of followUps) {
    const payload = payloads.get(followUp.id) as ApprovalPayload;
    if (ruleOn.get(payload.siteId)) bySubject.set(followUp.subjectId, followUp);
    else outcome.skipped.push({ id: followUp.id, reason: 'The site turned straight-through approval off since; its operators decide.' });
  }
  // The events carry the request that recorded the money; one call per such request.
  for (const group of groupByRequest([...bySubject.values()])) {
    const [first] = group as [FollowUp, ...FollowUp[]];
    const approvals = group.map((followUp) => {
      const payload = payloads.get(followUp.id) as ApprovalPayload;
      return { intentId: followUp.subjectId, amount: BigInt(payload.amount), rule: payload.rule };
    });
    const done = await approveDepositsByRuleIn(tx, deps, requestOf(first, STRAIGHT_THROUGH_PRINCIPAL), approvals);
    outcome.done.push(...done.result.approved.map((intentId) => (bySubject.get(intentId) as FollowUp).id));
    outcome.skipped.push(...done.result.skipped.map(({ intentId, reason }) => ({ id: (bySubject.get(intentId) as FollowUp).id, reason })));
    outcome.steps.push(...stepsOf(done));
    outcome.events.push(...done.events);
  }
  return outcome;
}

/** The batched withdrawals debit lines showed leaving, marked SENT set-based. */
async function sendWithdrawals(tx: Tx, deps: FollowUpDeps, followUps: readonly FollowUp[]): Promise<KindOutcome> {
  const outcome = emptyOutcome();
  const bySubject = new Map(followUps.map((followUp) => [followUp.subjectId, followUp]));
  for (const group of groupByRequest(followUps)) {
    const [first] = group as [FollowUp, ...FollowUp[]];
    const done = await markWithdrawalsSentIn(
      tx,
      deps,
      requestOf(first, PAYOUT_STATEMENT_PRINCIPAL),
      group.map((followUp) => {
        const payload = followUp.payload as unknown as PayoutSentPayload;
        return {
          withdrawalId: followUp.subjectId,
          bankTxId: payload.bankTxId,
          rule: { rule: 'payout_statement', batchId: payload.batchId },
        };
      }),
    );
    outcome.done.push(...done.result.sent.map((withdrawalId) => (bySubject.get(withdrawalId) as FollowUp).id));
    outcome.skipped.push(
      ...done.result.skipped.map(({ withdrawalId, reason }) => ({ id: (bySubject.get(withdrawalId) as FollowUp).id, reason })),
    );
    outcome.steps.push(...stepsOf(done));
    outcome.events.push(...done.events);
  }
  return outcome;
}

/**
 * The sent withdrawals credit lines brought back, marked RETURNED with the bank's reason. One whose sending is still a
 * pending follow-up (its try failed, it is due later) waits for it rather than being refused as not sent.
 */
async function returnWithdrawals(
  tx: Tx,
  deps: FollowUpDeps,
  followUps: readonly FollowUp[],
  sentHere: ReadonlySet<string>,
): Promise<KindOutcome> {
  // Those whose sending this transaction took are not waiting: it is done (or refused) just before.
  const waiting = await deps.followUps.sendingPending(
    tx,
    followUps.map((followUp) => followUp.subjectId).filter((id) => !sentHere.has(id)),
  );
  return eachAlone(
    tx,
    deps,
    followUps.filter((followUp) => !waiting.has(followUp.subjectId)),
    (followUp) => {
      const payload = followUp.payload as unknown as PayoutReturnedPayload;
      return markWithdrawalReturnedIn(
        tx,
        deps,
        requestOf(followUp, PAYOUT_STATEMENT_PRINCIPAL),
        followUp.subjectId,
        payload.reason,
        payload.code,
        {
          rule: 'payout_statement',
          batchId: payload.batchId,
          bankTransferId: payload.bankTransferId,
          bankTxId: payload.bankTxId,
        },
      );
    },
  );
}

/** Steps taken one record at a time (rare ones: returns), each behind a savepoint so a refused one is undone alone. */
async function eachAlone(
  tx: Tx,
  deps: FollowUpDeps,
  followUps: readonly FollowUp[],
  step: (followUp: FollowUp) => Promise<TransitionOutcome<unknown>>,
): Promise<KindOutcome> {
  const outcome = emptyOutcome();
  for (const followUp of followUps) {
    await deps.followUps.savepoint(tx);
    try {
      const done = await step(followUp);
      await deps.followUps.release(tx);
      outcome.done.push(followUp.id);
      outcome.steps.push(...stepsOf(done));
      outcome.events.push(...done.events);
    } catch (error) {
      // Moved meanwhile (an operator marked it by hand): their step stands, and this one is undone.
      if (!(error instanceof AppError)) throw error;
      await deps.followUps.rollbackToSavepoint(tx);
      outcome.skipped.push({ id: followUp.id, reason: error.detail });
    }
  }
  return outcome;
}

function groupByRequest(followUps: readonly FollowUp[]): FollowUp[][] {
  const groups = new Map<string | null, FollowUp[]>();
  for (const followUp of followUps) {
    const group = groups.get(followUp.requestId);
    if (group) group.push(followUp);
    else groups.set(followUp.requestId, [followUp]);
  }
  return [...groups.values()];
}

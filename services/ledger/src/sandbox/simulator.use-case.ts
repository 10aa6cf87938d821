import { randomUUID } from 'node:crypto';
import { RETURN_REASON_CODES, type ReturnReasonCode, type UserRejectionReason } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { actorOf, HOSTED_PAGE_PRINCIPAL, sandboxPrincipal } from '../shared/operator-principal.js';
import type { ImportStatementDeps } from '../bank-transfers/import-statement.use-case.js';
import { recordArrival } from '../bank-transfers/record-arrival.js';
import { promiseLineWork } from '../bank-transfers/record-lines.js';
import { runFollowUps, type FollowUpDeps } from '../follow-ups/run-follow-ups.use-case.js';
import { storedSuggestions } from '../bank-transfers/matching.js';
import { approveDeposit, rejectDeposit } from '../deposits/review-deposit.use-case.js';
import { toDepositRecord } from '../deposits/deposit.views.js';
import type { ExpiryRepository } from '../expiry/expiry.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction } from '../review/transition.js';
import {
  approveWithdrawal,
  markWithdrawalReturned,
  markWithdrawalSent,
  rejectWithdrawal,
} from '../withdrawals/review-withdrawal.use-case.js';
import type { WithdrawalReviewRepository } from '../withdrawals/withdrawal-review.repository.js';
import { toWithdrawalRecord } from '../withdrawals/withdrawal.views.js';

/**
 * The sandbox's simulator (docs/sandbox.md): what the bank and Kasa's operators do to a test deposit or withdrawal,
 * done on request of the site's test key, through the very code live money takes. A transfer goes through the
 * matching of a real statement line (every reason, suggestions, straight-through approval); approve, reject, send
 * and return are the operators' transitions, with their journal postings, audit entries (actor: the test key) and
 * signed webhooks. Only a sandbox's records: a live site, or another site's record, is 404.
 */
export interface SimulatorDeps extends ImportStatementDeps, FollowUpDeps {
  config: ImportStatementDeps['config'] & FollowUpDeps['config'];
  withdrawalReview: WithdrawalReviewRepository;
  expiries: ExpiryRepository;
}

/** Who asks: the sandbox (a test key's site) and the key, and the request's id. */
export interface SimulatorCaller {
  siteId: string;
  /** The test key, audited as API_KEY; null: the deposit's hosted page (SYSTEM `hosted-page`, HOSTED_PAGE_PRINCIPAL). */
  apiKeyId: string | null;
  requestId: string;
}

export interface SimulatedTransferInput {
  /** Kuruş; default: the requested amount. */
  amount?: string;
  /** The transfer's description as the sender typed it; default: the deposit's reference. Empty: no reference. */
  reference?: string;
  /** Default: the partner's label of the user, or "Test Sender". */
  senderName?: string;
  /** Received after the deposit expired. */
  late?: boolean;
}

// A valid TR IBAN (checksum included) that belongs to no one: the simulated sender's.
const SIMULATED_SENDER_IBAN = 'TR330006100519786457841326';

function requestOf(caller: SimulatorCaller): OperatorRequest {
  return { requestId: caller.requestId, caller: caller.apiKeyId === null ? HOSTED_PAGE_PRINCIPAL : sandboxPrincipal(caller.apiKeyId) };
}

/** The caller's site, which must be a sandbox: the simulator never touches live money. */
async function sandboxOf(deps: SimulatorDeps, caller: SimulatorCaller): Promise<void> {
  const site = await deps.sites.findById(caller.siteId);
  if (!site || site.livemode) {
    throw new AppError('not_found', 'The simulator answers test keys (sk_test_) only; this key is live.');
  }
}

async function depositOf(deps: SimulatorDeps, caller: SimulatorCaller, intentId: string) {
  await sandboxOf(deps, caller);
  const deposit = await deps.depositReview.findDeposit(intentId).catch(() => null);
  if (!deposit || deposit.siteId !== caller.siteId) throw new AppError('not_found', 'No deposit intent with this id.');
  return deposit;
}

async function withdrawalOf(deps: SimulatorDeps, caller: SimulatorCaller, withdrawalId: string) {
  await sandboxOf(deps, caller);
  const withdrawal = await deps.withdrawalReview.findWithdrawal(withdrawalId).catch(() => null);
  if (!withdrawal || withdrawal.siteId !== caller.siteId) throw new AppError('not_found', 'No withdrawal with this id.');
  return withdrawal;
}

/**
 * Simulated money for a test deposit: a transfer recorded and matched exactly as a bank line (reference, amount,
 * sender, time), then approved straight through when the sandbox's rule covers it. The answer says what matching
 * made of it, and the deposit as the partner now sees it.
 */
export async function simulateTransfer(deps: SimulatorDeps, caller: SimulatorCaller, intentId: string, input: SimulatedTransferInput) {
  const deposit = await depositOf(deps, caller, intentId);
  const skew = deps.config.arrivalClockSkewMs;
  const now = deps.clock.now();
  // A late transfer arrives now, after the deposit's time (and the clock skew allowed) ran out, never in the future:
  // a deposit still inside its time is made due first, as the expiry simulation does.
  if (input.late && deposit.expiresAt.getTime() + skew >= now.getTime()) {
    if (!(await deps.depositReview.expireAt(intentId, new Date(now.getTime() - skew - 1_000)))) {
      throw AppError.conflict(
        'invalid_transition',
        `The intent is ${deposit.status} and its time ran out less than ${skew / 1000} s ago (or not at all): money now is not ` +
          'late. Only a RESERVED intent is made due for a late transfer. Nothing was changed.',
      );
    }
  }
  const receivedAt = now;
  const request = requestOf(caller);
  const { recorded, promised, refusals } = await inTransaction(deps, async (tx) => {
    const arrival = await recordArrival(
      tx,
      deps,
      actorOf(request.caller),
      {
        bankTxId: `sim-${randomUUID()}`,
        amount: input.amount !== undefined ? BigInt(input.amount) : deposit.requestedAmount,
        currency: deposit.currency,
        senderName: (input.senderName ?? deposit.externalUserLabel ?? 'Test Sender').slice(0, 140),
        senderIban: SIMULATED_SENDER_IBAN,
        description: (input.reference ?? deposit.referenceNo).slice(0, 500),
        receivedAt,
        livemode: false,
      },
      caller.requestId,
    );
    // A fresh bank reference each time: never a repeat.
    if (!arrival) throw new Error('a simulated transfer was taken for a repeat');
    // Straight-through approval as for a bank line: promised in this transaction, carried out once committed.
    const work = { paid: arrival.deposit ? [arrival] : [], payouts: { sent: [], returned: [] }, refusals: [] };
    const ids = await promiseLineWork(tx, deps, { receivingAccountId: null }, work, caller.requestId);
    return { recorded: arrival, promised: ids, refusals: work.refusals };
  });
  await deps.outbox.publish(
    recorded.events.map((event) => event.eventId),
    caller.requestId,
  );
  for (const { intentId: refused, refusal } of refusals) {
    deps.logger.info('straight-through approval not applied', { requestId: caller.requestId, intentId: refused, refusal });
  }
  const autoApproved = (await runFollowUps(deps, caller.requestId, { ids: promised })).autoApproved > 0;
  const after = await deps.depositReview.findDeposit(intentId);
  deps.logger.info('sandbox transfer simulated', {
    requestId: caller.requestId,
    siteId: caller.siteId,
    intentId,
    bankTransferId: recorded.transfer.id,
    status: recorded.transfer.status,
    autoApproved,
  });
  return {
    bankTransferId: recorded.transfer.id,
    status: recorded.transfer.status,
    amount: recorded.transfer.amount.toString(),
    receivedAt: recorded.transfer.receivedAt.toISOString(),
    matchReasons: recorded.reasons,
    unmatchedReason: recorded.transfer.unmatchedReason,
    suggestions: storedSuggestions(recorded.transfer.suggestions).map(({ intentId: id, referenceNo, confidence, reasons }) => ({
      intentId: id,
      referenceNo,
      confidence,
      reasons,
    })),
    autoApproved,
    intent: toDepositRecord(after ?? deposit),
  };
}

/** The operators' approval of a test deposit (default: what arrived), with its journal posting and `intent.approved`. */
export async function simulateDepositApproval(deps: SimulatorDeps, caller: SimulatorCaller, intentId: string, amount?: string) {
  await depositOf(deps, caller, intentId);
  const decided = await approveDeposit(deps, requestOf(caller), intentId, amount !== undefined ? { amount: BigInt(amount) } : {});
  return { ...toDepositRecord(await reread(deps, intentId)), eventId: decided.eventId };
}

/** The operators' rejection of a test deposit, with `intent.rejected`. */
export async function simulateDepositRejection(
  deps: SimulatorDeps,
  caller: SimulatorCaller,
  intentId: string,
  input: { reason?: string; userReason?: UserRejectionReason },
) {
  await depositOf(deps, caller, intentId);
  const decided = await rejectDeposit(deps, requestOf(caller), intentId, {
    reason: input.reason ?? 'Rejected in the sandbox',
    userReason: input.userReason ?? null,
  });
  return { ...toDepositRecord(await reread(deps, intentId)), eventId: decided.eventId };
}

/**
 * The deposit's expiry, now: a RESERVED test deposit is cancelled by the expiry transition itself (AUTO_CANCELLED,
 * and `intent.auto_cancelled` when the sandbox chose it), as the sweep would once its time is up.
 */
export async function simulateDepositExpiry(deps: SimulatorDeps, caller: SimulatorCaller, intentId: string) {
  const deposit = await depositOf(deps, caller, intentId);
  const due = new Date(deps.clock.now().getTime() - 1);
  if (deposit.status !== 'RESERVED' || !(await deps.depositReview.expireAt(intentId, due))) {
    throw AppError.conflict(
      'invalid_transition',
      `The intent is ${deposit.status}; only a RESERVED intent (no money recorded) can expire. Nothing was changed.`,
    );
  }
  const { events } = await deps.expiries.cancelIfDue(intentId);
  await deps.outbox.publish(
    events.map((event) => event.eventId),
    caller.requestId,
  );
  return { ...toDepositRecord(await reread(deps, intentId)), eventId: events[0]?.eventId ?? null };
}

async function reread(deps: SimulatorDeps, intentId: string) {
  const row = await deps.depositReview.findDeposit(intentId);
  if (!row) throw new AppError('not_found', 'No deposit intent with this id.');
  return row;
}

export type SimulatedWithdrawalStep = 'approve' | 'reject' | 'send' | 'return';

/**
 * A test withdrawal moved as operators and the bank would: approved (reserved on the sandbox's balance), rejected,
 * sent (paid out) or returned by the bank with an ISO 20022 return reason code, each with its webhook.
 */
export async function simulateWithdrawalStep(
  deps: SimulatorDeps,
  caller: SimulatorCaller,
  withdrawalId: string,
  step: SimulatedWithdrawalStep,
  input: { reason?: string; reasonCode?: ReturnReasonCode },
) {
  await withdrawalOf(deps, caller, withdrawalId);
  const request = requestOf(caller);
  let eventId: string | null = null;
  switch (step) {
    case 'approve':
      eventId = (await approveWithdrawal(deps, request, withdrawalId)).eventId ?? null;
      break;
    case 'reject':
      eventId = (await rejectWithdrawal(deps, request, withdrawalId, input.reason ?? 'Rejected in the sandbox')).eventId ?? null;
      break;
    case 'send':
      eventId = (await markWithdrawalSent(deps, request, withdrawalId, `sim-${randomUUID()}`)).eventId ?? null;
      break;
    case 'return': {
      const code = input.reasonCode ?? 'AC04';
      eventId = (await markWithdrawalReturned(deps, request, withdrawalId, RETURN_REASON_CODES[code], code)).eventId ?? null;
      break;
    }
  }
  const after = await deps.withdrawalReview.findWithdrawal(withdrawalId);
  if (!after) throw new AppError('not_found', 'No withdrawal with this id.');
  return { ...toWithdrawalRecord(after), eventId };
}

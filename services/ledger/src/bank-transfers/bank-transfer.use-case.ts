import type { BankTransfer, Deposit, Prisma } from '@kasa/db';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { actorOf } from '../shared/operator-principal.js';
import { requireStepUp, type StepUpDeps } from '../operators/second-factor.guard.js';
import type { OperatorRequest } from '../shared/request-context.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import { inTransaction, runTransition, type TransitionDeps } from '../review/transition.js';
import { assertTransferAction } from './bank-transfer.states.js';
import { toDepositRecord, toOpsDeposit } from '../deposits/deposit.views.js';
import { writeAudit } from '../shared/audit.repository.js';
import { Postings } from '../journal/accounts.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import { toOpsBankTransfer } from './bank-transfer.views.js';
import type { Clock } from '../shared/clock.js';
import { applyArrival } from './apply-arrival.js';
import { assertNotHeld } from '../screening/compliance-hold.js';
import { screenSenders, type SenderScreeningDeps } from '../screening/screen-senders.js';
import { recordArrival } from './record-arrival.js';
import { explainMatch, storedSuggestions, type MatchReason } from './matching.js';
import { findReferenceNos } from '../site-records/reference-no.js';
import type { BankTransferRepository, NewBankTransfer } from './bank-transfer.repository.js';
import type { ReceivingAccountRepository } from '../sites/receiving-account.repository.js';

export interface BankTransferDeps extends TransitionDeps, SenderScreeningDeps {
  clock: Clock;
  config: { arrivalClockSkewMs: number };
  bankTransfers: BankTransferRepository;
  depositReview: DepositReviewRepository;
  accounts: Pick<ReceivingAccountRepository, 'findById' | 'list'>;
}

// A bank's clock and ours differ a little; a transfer "received" further in the future is a typo.
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * The account a hand entry names, or the only active one when it names none (docs/operations.md, "One bank
 * transaction, one transfer"); a 400 naming `receivingAccountId` when it names none and there is not exactly one.
 */
async function accountOf(deps: BankTransferDeps, receivingAccountId: string | null | undefined): Promise<string> {
  if (receivingAccountId) {
    if (!(await deps.accounts.findById(receivingAccountId))) {
      throw AppError.validation([{ field: 'receivingAccountId', message: 'names no receiving account' }]);
    }
    return receivingAccountId;
  }
  const active = (await deps.accounts.list()).filter((account) => account.active);
  const [only] = active;
  if (only && active.length === 1) return only.id;
  throw AppError.validation(
    [
      {
        field: 'receivingAccountId',
        message: only ? `is required: ${active.length} receiving accounts are active` : 'is required: no receiving account is active',
      },
    ],
    only
      ? `Name the receiving account the money arrived on (receivingAccountId): ${active.length} are active. Nothing was recorded.`
      : 'No receiving account is active: add one, or name the account the money arrived on (receivingAccountId). Nothing was recorded.',
  );
}

/**
 * Records an incoming transfer an operator saw on a receiving account (a hand entry) and matches it by the deposit
 * reference found in its description (case, spaces, dots and dashes tolerated; the check character must be right).
 * The account is the one named, or the only active one. A `bankTxId` the account already has (a hand entry, or the
 * bank's own line) changes nothing and answers the first recording (`replayed: true`); the same id with other details
 * is a 409. The bank's own line arriving later confirms the hand entry instead of crediting it again (hand-entries.ts).
 */
export async function recordBankTransfer(deps: BankTransferDeps, request: OperatorRequest, input: NewBankTransfer) {
  const { caller } = request;
  if (input.receivedAt.getTime() > deps.clock.now().getTime() + FUTURE_TOLERANCE_MS) {
    throw AppError.validation([{ field: 'receivedAt', message: 'must not be in the future' }]);
  }
  const receivingAccountId = await accountOf(deps, input.receivingAccountId);
  const transfer = { ...input, receivingAccountId, handEntry: true, senderIban: normalizeIban(input.senderIban) };
  const outcome = await inTransaction(deps, async (tx) => {
    // Decided alone on the account: the bank's lines of the account wait, so the same transaction is never new to both.
    await deps.bankTransfers.lockAccountLines(tx, receivingAccountId, 'exclusive');
    if (await deps.bankTransfers.findOnAccount(transfer.bankTxId, receivingAccountId, tx)) return null;
    return recordArrival(tx, deps, actorOf(caller), transfer, request.requestId);
  });
  if (outcome) {
    await deps.outbox.publish(
      outcome.events.map((event) => event.eventId),
      request.requestId,
    );
    // One line for the step, matched or not; the sender's name and IBAN stay out of the log.
    deps.logger.info('bank transfer recorded', {
      requestId: request.requestId,
      bankTransferId: outcome.transfer.id,
      bankTxId: outcome.transfer.bankTxId,
      amount: outcome.transfer.amount.toString(),
      status: outcome.transfer.status,
      unmatchedReason: outcome.transfer.unmatchedReason,
      intentId: outcome.deposit?.id ?? null,
      intentStatus: outcome.deposit?.status ?? null,
      siteId: outcome.deposit?.siteId ?? null,
      operatorId: caller.operatorId,
    });
    return {
      replayed: false,
      bankTransfer: toOpsBankTransfer(outcome.transfer),
      deposit: outcome.deposit ? toOpsDeposit(outcome.deposit) : null,
    };
  }

  const existing = await deps.bankTransfers.findOnAccount(transfer.bankTxId, receivingAccountId);
  if (!existing) throw new AppError('service_unavailable', 'The transfer could not be recorded; retry.');
  const same =
    existing.amount === transfer.amount &&
    existing.currency === transfer.currency &&
    existing.senderIban === transfer.senderIban &&
    existing.description === transfer.description;
  if (!same)
    throw AppError.conflict(
      'bank_tx_id_reused',
      'This bankTxId was already recorded on this receiving account with different details; nothing was changed.',
    );
  const deposit = existing.intentId ? await deps.depositReview.findDeposit(existing.intentId) : null;
  deps.logger.info('bank transfer record replayed', {
    requestId: request.requestId,
    bankTransferId: existing.id,
    bankTxId: existing.bankTxId,
    status: existing.status,
    operatorId: caller.operatorId,
  });
  return { replayed: true, bankTransfer: toOpsBankTransfer(existing), deposit: deposit ? toOpsDeposit(deposit) : null };
}

/**
 * Assigns a transfer no deposit has to the intent an operator identified (the reference was missing or
 * wrong); the intent moves exactly as if the transfer had carried its reference. Only UNMATCHED or
 * SET_ASIDE transfers, and only intents not yet decided. Several transfers may fund one intent this way.
 */
export function assignBankTransfer(deps: BankTransferDeps, request: OperatorRequest, bankTransferId: string, intentId: string) {
  return runTransition(deps, request, bankTransferId, {
    ...transferRecord(deps, bankTransferId),
    decide: async (tx, transfer) => {
      const { to, deposit } = await lockTarget(tx, deps, transfer, intentId);
      // The deposit takes the money first: a decided deposit refuses it, and the transfer stays where it was.
      const arrival = await applyArrival(tx, deps, actorOf(request.caller), deposit, transfer, request.requestId);
      if (!arrival) throw AppError.conflict('intent_decided', decidedIntentAdvice(deposit.status));
      const { deposit: paid, events } = arrival;
      const reference = findReferenceNos(transfer.description).includes(deposit.referenceNo)
        ? 'reference_exact'
        : storedSuggestions(transfer.suggestions).some((suggestion) => suggestion.intentId === intentId)
          ? 'reference_near'
          : null;
      return { to, deposit: paid, events, reasons: explainMatch(transfer, deposit, reference, deps.config.arrivalClockSkewMs).reasons };
    },
    update: (tx, transfer, { to, reasons }) =>
      deps.bankTransfers.settle(tx, transfer.id, transfer.status, {
        status: to,
        intentId,
        setAsideReason: null,
        setAsideAt: null,
        matchReasons: reasons,
      }),
    audit: ({ current, decision: { to, deposit, reasons } }) => ({
      action: 'BANK_TRANSFER.ASSIGNED',
      siteId: deposit.siteId,
      metadata: { intentId, from: current.status, to, unmatchedReason: current.unmatchedReason, matchReasons: reasons },
    }),
    log: ({ updated, decision: { deposit } }) => ({
      message: 'bank transfer assigned',
      fields: {
        bankTransferId,
        amount: toOpsBankTransfer(updated).amount,
        intentId,
        intentStatus: deposit.status,
        siteId: deposit.siteId,
        operatorId: request.caller.operatorId,
      },
    }),
    result: ({ updated, decision: { deposit } }) => ({ bankTransfer: toOpsBankTransfer(updated), deposit: toOpsDeposit(deposit) }),
  });
}

/**
 * Sets an unmatched transfer aside with a reason: it leaves the unmatched queue (the dashboard counts what
 * still needs matching) and stays assignable. No money moves: the transfer was credited to nobody. Audited
 * as `BANK_TRANSFER.SET_ASIDE`.
 */
export function setBankTransferAside(deps: BankTransferDeps, request: OperatorRequest, bankTransferId: string, reason: string) {
  return runTransition(deps, request, bankTransferId, {
    ...transferRecord(deps, bankTransferId),
    decide: (_tx, transfer) => ({ to: assertTransferAction('setAside', transfer.status) }),
    update: (tx, transfer, { to }) =>
      deps.bankTransfers.settle(tx, transfer.id, transfer.status, {
        status: to,
        setAsideReason: reason.trim(),
        setAsideAt: deps.clock.now(),
      }),
    audit: ({ current, decision: { to } }) => ({
      action: 'BANK_TRANSFER.SET_ASIDE',
      metadata: { from: current.status, to, reason: reason.trim(), amount: current.amount.toString() },
    }),
    result: ({ updated }) => toOpsBankTransfer(updated),
  });
}

/** What every transfer step shares on the transition recipe: the entity, its 404, its lock and its 409. */
function transferRecord(deps: BankTransferDeps, bankTransferId: string) {
  return {
    entityType: 'bank_transfer',
    notFound: 'No bank transfer with this id.',
    lock: (tx: Prisma.TransactionClient) => deps.bankTransfers.lock(tx, bankTransferId),
    changedMeanwhile: 'The transfer changed meanwhile; nothing was changed.',
  };
}

/** What to do with money for a decided intent, in the assign refusal: a top-up for an approved one, else a return. */
function decidedIntentAdvice(status: string): string {
  const next =
    status === 'APPROVED'
      ? 'To credit this money to it as well, top it up (POST /ops/v1/bank-transfers/{id}/top-up, the console\'s "Credit as top-up", kasa transfers top-up); otherwise return it to the sender.'
      : 'Return the money to the sender (POST /ops/v1/bank-transfers/{id}/return, kasa transfers return), or assign it to another open deposit of the same user.';
  return `The intent is ${status}; a transfer cannot be assigned to a decided intent. ${next} Nothing was changed.`;
}

/** The decided deposit whose exact reference an unmatched transfer carries (`intent_closed`), for the transfer's detail. */
export async function closedIntentOf(
  deps: Pick<BankTransferDeps, 'depositReview' | 'db'>,
  transfer: BankTransfer,
): Promise<Deposit | null> {
  if (transfer.unmatchedReason !== 'intent_closed' || (transfer.status !== 'UNMATCHED' && transfer.status !== 'SET_ASIDE')) return null;
  const [named, ...others] = await deps.depositReview.findDepositsByReference(
    deps.db,
    findReferenceNos(transfer.description),
    transfer.livemode,
  );
  return named && others.length === 0 ? named : null;
}

/**
 * Credits money that arrived after its deposit was approved (`intent_closed`) to that deposit as a top-up: the
 * transfer becomes ASSIGNED to it (reasons `top_up`, and `reference_exact` when its description names it), the
 * intent's credited `amount` and `receivedAmount` grow by the transfer's amount, the site's balance is credited by
 * one journal posting, and `intent.topped_up` tells the partner (`topUp.amount`: what to credit the user). Only
 * UNMATCHED or SET_ASIDE transfers, only APPROVED intents (a rejected intent's money goes back to its sender).
 */
export function topUpBankTransfer(
  deps: BankTransferDeps & StepUpDeps & { journal: JournalRepository },
  request: OperatorRequest,
  bankTransferId: string,
  intentId: string,
) {
  return runTransition(deps, request, bankTransferId, {
    ...transferRecord(deps, bankTransferId),
    decide: async (tx, transfer) => {
      const { to, deposit } = await lockTarget(tx, deps, transfer, intentId);
      if (deposit.status !== 'APPROVED') {
        throw AppError.conflict(
          'invalid_transition',
          deposit.status === 'REJECTED'
            ? 'The intent is REJECTED: only an approved intent can take a top-up. Return the money to the sender instead. Nothing was changed.'
            : `The intent is ${deposit.status}: it is not decided yet, so assign the transfer to it instead (the money then joins its review). Nothing was changed.`,
        );
      }
      // Step-up on what the deposit's credit becomes, read under its lock: approving 40,000 TL and topping it up by
      // 29,000 TL moves as much as approving 69,000 TL at once.
      requireStepUp(deps, request.caller, deposit.amount + transfer.amount);
      // A top-up credits money at once, like an approval: never for a deposit a screening hit holds.
      await assertNotHeld(deps, tx, 'deposit', deposit.id);
      const credited = await deps.depositReview.updateDeposit(tx, deposit.id, 'APPROVED', {
        amount: deposit.amount + transfer.amount,
        receivedAmount: (deposit.receivedAmount ?? 0n) + transfer.amount,
      });
      if (!credited) throw AppError.conflict('state_changed', 'The intent changed meanwhile; nothing was changed.');
      // Nor from a sender a screening finds listed: the credit is refused and nothing is written (the transfer stays
      // where it was, for an operator to set aside and a compliance officer to weigh).
      const held = await screenSenders(tx, deps, [{ depositId: deposit.id, siteId: deposit.siteId, senderName: transfer.senderName }]);
      if (held.length > 0) {
        throw AppError.conflict(
          'compliance_hold',
          "The transfer's sender matches an entry of a sanctions or asset-freeze list: a top-up credits money at once, so it is refused. Nothing was changed; set the transfer aside and tell your compliance officer.",
        );
      }
      const reasons: MatchReason[] = findReferenceNos(transfer.description).includes(deposit.referenceNo)
        ? ['reference_exact', 'top_up']
        : ['top_up'];
      await writeAudit(tx, {
        actor: actorOf(request.caller),
        action: 'INTENT.TOPPED_UP',
        entityType: 'deposit_intent',
        entityId: deposit.id,
        siteId: deposit.siteId,
        metadata: {
          bankTransferId: transfer.id,
          bankTxId: transfer.bankTxId,
          topUpAmount: transfer.amount.toString(),
          amountBefore: deposit.amount.toString(),
          amount: credited.amount.toString(),
          receivedAt: transfer.receivedAt.toISOString(),
        },
      });
      return { to, deposit: credited, reasons };
    },
    update: (tx, transfer, { to, deposit, reasons }) =>
      deps.bankTransfers.settle(tx, transfer.id, transfer.status, {
        status: to,
        intentId: deposit.id,
        setAsideReason: null,
        setAsideAt: null,
        matchReasons: reasons,
      }),
    post: async (tx, { current, decision: { deposit } }) => {
      const posted = await deps.journal.post(tx, Postings.depositApproved(deposit.siteId, deposit.id, current.amount));
      if (!posted.ok) throw new Error('a deposit credit cannot be refused');
      return posted.transactionId;
    },
    audit: ({ current, decision: { to, deposit }, journalTransactionId }) => ({
      action: 'BANK_TRANSFER.TOPPED_UP',
      siteId: deposit.siteId,
      metadata: { intentId: deposit.id, from: current.status, to, unmatchedReason: current.unmatchedReason, journalTransactionId },
    }),
    event: ({ current, decision: { deposit } }) => ({
      siteId: deposit.siteId,
      entityId: deposit.id,
      type: 'intent.topped_up',
      data: toDepositRecord(deposit),
      topUp: { amount: current.amount.toString(), bankTransferId: current.id, receivedAt: current.receivedAt.toISOString() },
    }),
    log: ({ updated, decision: { deposit }, eventId }) => ({
      message: 'deposit topped up',
      fields: {
        bankTransferId,
        intentId: deposit.id,
        siteId: deposit.siteId,
        amount: updated.amount.toString(),
        creditedTotal: deposit.amount.toString(),
        operatorId: request.caller.operatorId,
        eventId,
      },
    }),
    result: ({ updated, decision: { deposit }, eventId }) => ({
      bankTransfer: toOpsBankTransfer(updated),
      deposit: toOpsDeposit(deposit),
      eventId,
    }),
  });
}

/** Real money never pays a sandbox's test deposit, and the simulator's money never a live one (docs/sandbox.md). */
async function assertSameMode(
  tx: Prisma.TransactionClient,
  deps: Pick<BankTransferDeps, 'depositReview'>,
  transfer: BankTransfer,
  deposit: Deposit,
): Promise<void> {
  if ((await deps.depositReview.isLive(tx, deposit)) === transfer.livemode) return;
  throw AppError.conflict(
    'invalid_transition',
    transfer.livemode
      ? "The intent is a sandbox's test deposit; real money cannot pay it. Nothing was changed."
      : "The transfer is the sandbox simulator's money; it cannot pay a live deposit. Nothing was changed.",
  );
}

/**
 * What crediting a transfer to a deposit checks first, under the transfer's lock: the transfer may still go somewhere
 * (its next status), the deposit exists (locked now) and is of the transfer's mode (live or sandbox).
 */
async function lockTarget(tx: Prisma.TransactionClient, deps: BankTransferDeps, transfer: BankTransfer, intentId: string) {
  const to = assertTransferAction('assign', transfer.status);
  const deposit = await deps.depositReview.lockDeposit(tx, intentId);
  if (!deposit) throw AppError.validation([{ field: 'intentId', message: 'names no deposit intent' }]);
  await assertSameMode(tx, deps, transfer, deposit);
  return { to, deposit };
}

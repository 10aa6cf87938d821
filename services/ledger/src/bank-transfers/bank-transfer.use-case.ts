import type { Prisma } from '@kasa/db';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { actorOf } from '../operators/operator-principal.js';
import type { OperatorRequest } from '../shared/request-context.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import { inTransaction, runTransition, type TransitionDeps } from '../shared/transition.js';
import { assertTransferAction } from './bank-transfer.states.js';
import { toOpsDeposit } from '../deposits/deposit.views.js';
import { toOpsBankTransfer } from './bank-transfer.views.js';
import type { Clock } from '../shared/clock.js';
import { applyArrival } from './apply-arrival.js';
import { recordArrival } from './record-arrival.js';
import { explainMatch, storedSuggestions } from './matching.js';
import { findReferenceNos } from '../site-records/reference-no.js';
import type { BankTransferRepository, NewBankTransfer } from './bank-transfer.repository.js';

export interface BankTransferDeps extends TransitionDeps {
  clock: Clock;
  config: { arrivalClockSkewMs: number };
  bankTransfers: BankTransferRepository;
  depositReview: DepositReviewRepository;
}

// A bank's clock and ours differ a little; a transfer "received" further in the future is a typo.
const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Records an incoming transfer and matches it by the deposit reference found in its description (case,
 * spaces, dots and dashes tolerated; the check character must be right). A repeated `bankTxId` changes
 * nothing and answers the first recording (`replayed: true`); the same id with other details is a 409.
 */
export async function recordBankTransfer(deps: BankTransferDeps, request: OperatorRequest, input: NewBankTransfer) {
  const { caller } = request;
  if (input.receivedAt.getTime() > deps.clock.now().getTime() + FUTURE_TOLERANCE_MS) {
    throw AppError.validation([{ field: 'receivedAt', message: 'must not be in the future' }]);
  }
  const transfer = { ...input, senderIban: normalizeIban(input.senderIban) };
  const outcome = await inTransaction(deps, (tx) => recordArrival(tx, deps, actorOf(caller), transfer));
  if (outcome) {
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

  const existing = await deps.bankTransfers.findByBankTxId(transfer.bankTxId);
  if (!existing) throw new AppError('service_unavailable', 'The transfer could not be recorded; retry.');
  const same =
    existing.amount === transfer.amount &&
    existing.currency === transfer.currency &&
    existing.senderIban === transfer.senderIban &&
    existing.description === transfer.description;
  if (!same)
    throw AppError.conflict('bank_tx_id_reused', 'This bankTxId was already recorded with different details; nothing was changed.');
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
      const to = assertTransferAction('assign', transfer.status);
      const deposit = await deps.depositReview.lockDeposit(tx, intentId);
      if (!deposit) throw AppError.validation([{ field: 'intentId', message: 'names no deposit intent' }]);
      // The deposit takes the money first: a decided deposit refuses it, and the transfer stays where it was.
      const paid = await applyArrival(tx, deps, actorOf(request.caller), deposit, transfer);
      if (!paid)
        throw AppError.conflict(
          'intent_decided',
          `The intent is ${deposit.status}; a transfer cannot be assigned to a decided intent. Nothing was changed.`,
        );
      const reference = findReferenceNos(transfer.description).includes(deposit.referenceNo)
        ? 'reference_exact'
        : storedSuggestions(transfer.suggestions).some((suggestion) => suggestion.intentId === intentId)
          ? 'reference_near'
          : null;
      return { to, deposit: paid, reasons: explainMatch(transfer, deposit, reference, deps.config.arrivalClockSkewMs).reasons };
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

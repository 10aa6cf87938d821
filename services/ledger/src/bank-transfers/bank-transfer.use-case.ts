import type { BankTransfer, DepositIntent, PrismaClient } from '@kasa/db';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { maskIban, type Logger } from '@kasa/logger';
import { findReferenceNos } from '../shared/reference-no.js';
import { actorOf } from '../operators/operator-principal.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { writeAudit } from '../shared/audit.repository.js';
import type { ReviewRepository } from '../shared/review.repository.js';
import { toOpsIntent } from '../deposits/deposit.views.js';
import { toOpsBankTransfer } from './bank-transfer.views.js';
import { isUuid } from '../shared/http-guards.js';
import type { Clock } from '../shared/clock.js';
import { applyArrival } from './apply-arrival.js';
import type { UnmatchedReason } from './arrival.js';
import type { BankTransferRepository, NewBankTransfer } from './bank-transfer.repository.js';

export interface BankTransferDeps {
  db: PrismaClient;
  logger: Logger;
  clock: Clock;
  config: { arrivalClockSkewMs: number };
  bankTransfers: BankTransferRepository;
  review: ReviewRepository;
}

const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;
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
  const references = findReferenceNos(transfer.description);
  const outcome = await deps.db.$transaction(async (tx) => {
    const id = await deps.bankTransfers.insertUnlessKnown(tx, transfer);
    if (!id) return null;
    const intents = await deps.review.lockIntentsByReference(tx, references);
    let reason: UnmatchedReason | null = null;
    let matched = null;
    if (references.length === 0) reason = 'no_reference';
    else if (intents.length === 0) reason = 'unknown_reference';
    else if (intents.length > 1) reason = 'ambiguous_reference';
    else {
      matched = await applyArrival(tx, deps, actorOf(caller), intents[0] as DepositIntent, { id, ...transfer });
      if (!matched) reason = 'intent_closed';
    }
    const settled = (await deps.bankTransfers.settle(tx, id, 'UNMATCHED', {
      status: matched ? 'MATCHED' : 'UNMATCHED',
      intentId: matched?.id ?? null,
      unmatchedReason: reason,
    })) as BankTransfer;
    await writeAudit(tx, {
      actor: actorOf(caller),
      action: 'BANK_TRANSFER.RECORDED',
      entityType: 'bank_transfer',
      entityId: id,
      siteId: matched?.siteId ?? null,
      metadata: {
        bankTxId: transfer.bankTxId,
        amount: transfer.amount.toString(),
        senderIban: maskIban(transfer.senderIban),
        status: settled.status,
        intentId: matched?.id ?? null,
        unmatchedReason: reason,
      },
    });
    return { transfer: settled, intent: matched };
  }, TRANSACTION_OPTIONS);
  if (outcome) {
    // One line for the step, matched or not; the sender's name and IBAN stay out of the log.
    deps.logger.info('bank transfer recorded', {
      requestId: request.requestId,
      bankTransferId: outcome.transfer.id,
      bankTxId: outcome.transfer.bankTxId,
      amount: outcome.transfer.amount.toString(),
      status: outcome.transfer.status,
      unmatchedReason: outcome.transfer.unmatchedReason,
      intentId: outcome.intent?.id ?? null,
      intentStatus: outcome.intent?.status ?? null,
      siteId: outcome.intent?.siteId ?? null,
      operatorId: caller.operatorId,
    });
    return {
      replayed: false,
      bankTransfer: toOpsBankTransfer(outcome.transfer),
      intent: outcome.intent ? toOpsIntent(outcome.intent) : null,
    };
  }

  const existing = await deps.bankTransfers.findByBankTxId(transfer.bankTxId);
  if (!existing) throw new AppError('service_unavailable', 'The transfer could not be recorded; retry.');
  const same =
    existing.amount === transfer.amount &&
    existing.currency === transfer.currency &&
    existing.senderIban === transfer.senderIban &&
    existing.description === transfer.description;
  if (!same) throw new AppError('conflict', 'This bankTxId was already recorded with different details; nothing was changed.');
  const intent = existing.intentId ? await deps.review.findIntent(existing.intentId) : null;
  deps.logger.info('bank transfer record replayed', {
    requestId: request.requestId,
    bankTransferId: existing.id,
    bankTxId: existing.bankTxId,
    status: existing.status,
    operatorId: caller.operatorId,
  });
  return { replayed: true, bankTransfer: toOpsBankTransfer(existing), intent: intent ? toOpsIntent(intent) : null };
}

/** Transfers whose money no deposit has yet: the unmatched queue, and what an operator set aside. */
const ASSIGNABLE = ['UNMATCHED', 'SET_ASIDE'] as const;

/**
 * Assigns a transfer no deposit has to the intent an operator identified (the reference was missing or
 * wrong); the intent moves exactly as if the transfer had carried its reference. Only UNMATCHED or
 * SET_ASIDE transfers, and only intents not yet decided. Several transfers may fund one intent this way.
 */
export async function assignBankTransfer(deps: BankTransferDeps, request: OperatorRequest, bankTransferId: string, intentId: string) {
  if (!isUuid(bankTransferId)) throw new AppError('not_found', 'No bank transfer with this id.');
  const { caller } = request;
  const assigned = await deps.db.$transaction(async (tx) => {
    const transfer = await deps.bankTransfers.lock(tx, bankTransferId);
    if (!transfer) throw new AppError('not_found', 'No bank transfer with this id.');
    if (!(ASSIGNABLE as readonly string[]).includes(transfer.status)) {
      throw new AppError(
        'conflict',
        `The transfer is ${transfer.status}; only UNMATCHED or SET_ASIDE transfers can be assigned. Nothing was changed.`,
      );
    }
    const intent = await deps.review.lockIntent(tx, intentId);
    if (!intent) throw AppError.validation([{ field: 'intentId', message: 'names no deposit intent' }]);
    const updated = await applyArrival(tx, deps, actorOf(caller), intent, transfer);
    if (!updated)
      throw new AppError(
        'conflict',
        `The intent is ${intent.status}; a transfer cannot be assigned to a decided intent. Nothing was changed.`,
      );
    const settled = (await deps.bankTransfers.settle(tx, transfer.id, transfer.status, {
      status: 'ASSIGNED',
      intentId,
      setAsideReason: null,
      setAsideAt: null,
    })) as BankTransfer;
    await writeAudit(tx, {
      actor: actorOf(caller),
      action: 'BANK_TRANSFER.ASSIGNED',
      entityType: 'bank_transfer',
      entityId: transfer.id,
      siteId: updated.siteId,
      metadata: { intentId, from: transfer.status, to: 'ASSIGNED', unmatchedReason: transfer.unmatchedReason },
    });
    return { bankTransfer: toOpsBankTransfer(settled), intent: toOpsIntent(updated) };
  }, TRANSACTION_OPTIONS);
  deps.logger.info('bank transfer assigned', {
    requestId: request.requestId,
    bankTransferId,
    amount: assigned.bankTransfer.amount,
    intentId,
    intentStatus: assigned.intent.status,
    siteId: assigned.intent.siteId,
    operatorId: caller.operatorId,
  });
  return assigned;
}

/**
 * Sets an unmatched transfer aside with a reason: it leaves the unmatched queue (the dashboard counts what
 * still needs matching) and stays assignable. No money moves: the transfer was credited to nobody. Audited
 * as `BANK_TRANSFER.SET_ASIDE`.
 */
export async function setBankTransferAside(deps: BankTransferDeps, request: OperatorRequest, bankTransferId: string, reason: string) {
  if (!isUuid(bankTransferId)) throw new AppError('not_found', 'No bank transfer with this id.');
  const { caller } = request;
  return deps.db.$transaction(async (tx) => {
    const transfer = await deps.bankTransfers.lock(tx, bankTransferId);
    if (!transfer) throw new AppError('not_found', 'No bank transfer with this id.');
    if (transfer.status !== 'UNMATCHED') {
      throw new AppError('conflict', `The transfer is ${transfer.status}; only UNMATCHED transfers can be set aside. Nothing was changed.`);
    }
    const settled = (await deps.bankTransfers.settle(tx, transfer.id, 'UNMATCHED', {
      status: 'SET_ASIDE',
      setAsideReason: reason.trim(),
      setAsideAt: deps.clock.now(),
    })) as BankTransfer;
    await writeAudit(tx, {
      actor: actorOf(caller),
      action: 'BANK_TRANSFER.SET_ASIDE',
      entityType: 'bank_transfer',
      entityId: transfer.id,
      metadata: { from: 'UNMATCHED', to: 'SET_ASIDE', reason: reason.trim(), amount: transfer.amount.toString() },
    });
    return toOpsBankTransfer(settled);
  }, TRANSACTION_OPTIONS);
}

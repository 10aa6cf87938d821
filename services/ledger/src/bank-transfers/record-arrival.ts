import type { BankTransfer, Deposit, Prisma } from '@kasa/db';
import { maskIban } from '@kasa/logger';
import { findReferenceNos } from '../site-records/reference-no.js';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import type { Clock } from '../shared/clock.js';
import { applyArrival } from './apply-arrival.js';
import { explainMatch, nearReferenceNos, rankSuggestions, type MatchReason, type Suggestion } from './matching.js';
import type { UnmatchedReason } from './arrival.js';
import type { BankTransferRepository, NewBankTransfer } from './bank-transfer.repository.js';

export interface RecordArrivalDeps {
  clock: Clock;
  config: { arrivalClockSkewMs: number };
  bankTransfers: BankTransferRepository;
  depositReview: DepositReviewRepository;
}

/** A transfer this transaction recorded, the deposit its money went to (null: the unmatched queue) and, unmatched, the deposits a near reference names. */
export interface RecordedArrival {
  transfer: BankTransfer;
  deposit: Deposit | null;
  /** The deposit as it was before this money reached it. */
  before: Deposit | null;
  reasons: MatchReason[];
  suggestions: Suggestion[];
}

/**
 * Records one incoming transfer inside the caller's transaction, whoever delivered it (an operator, a
 * statement): inserted unless its bank reference is known, matched by the deposit reference in its description,
 * the deposit moved ({@link applyArrival}), and audited as `BANK_TRANSFER.RECORDED`. The match's reasons are stored
 * with it; a transfer no exact reference matched keeps the deposits a near reference names as suggestions (it stays
 * UNMATCHED: an operator confirms one by assigning). Null for a repeat: nothing was written.
 */
export async function recordArrival(
  tx: Prisma.TransactionClient,
  deps: RecordArrivalDeps,
  actor: Actor,
  transfer: NewBankTransfer,
): Promise<RecordedArrival | null> {
  const id = await deps.bankTransfers.insertUnlessKnown(tx, transfer);
  if (!id) return null;
  const references = findReferenceNos(transfer.description);
  const deposits = await deps.depositReview.lockDepositsByReference(tx, references);
  const [named] = deposits;
  let reason: UnmatchedReason | null = null;
  let matched: Deposit | null = null;
  if (references.length === 0) reason = 'no_reference';
  else if (!named) reason = 'unknown_reference';
  else if (deposits.length > 1) reason = 'ambiguous_reference';
  else {
    matched = await applyArrival(tx, deps, actor, named, { id, ...transfer });
    if (!matched) reason = 'intent_closed';
  }
  const skew = deps.config.arrivalClockSkewMs;
  const reasons = matched && named ? explainMatch(transfer, named, 'reference_exact', skew).reasons : [];
  const suggestions =
    reason === 'no_reference' || reason === 'unknown_reference'
      ? rankSuggestions(transfer, await deps.depositReview.findDepositsByReference(tx, nearReferenceNos(transfer.description)), skew)
      : [];
  const settled = await deps.bankTransfers.settle(tx, id, 'UNMATCHED', {
    status: matched ? 'MATCHED' : 'UNMATCHED',
    intentId: matched?.id ?? null,
    unmatchedReason: reason,
    matchReasons: reasons,
    suggestions: suggestions.map((s) => ({ ...s })),
  });
  // Inserted UNMATCHED by this transaction a moment ago: nobody else can have moved it.
  if (!settled) throw new Error('a transfer recorded in this transaction changed under it');
  await writeAudit(tx, {
    actor,
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
      matchReasons: reasons,
      suggestions: suggestions.map((s) => s.intentId),
      ...(transfer.statementId ? { statementId: transfer.statementId } : {}),
    },
  });
  return { transfer: settled, deposit: matched, before: matched ? (named ?? null) : null, reasons, suggestions };
}

import type { BankTransfer, Deposit } from '@kasa/db';
import { bookedCurrency } from '../shared/currency.js';
import { storedReasons, storedSuggestions } from './matching.js';
import type { BankLineDifference } from './hand-entries.js';

/** The stored difference (JSON written by hand-entries.ts), or null. */
function bankLineDifferenceOf(stored: BankTransfer['bankLineDifference']): BankLineDifference | null {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return null;
  // Written only by answerHandEntries, whose BankLineDifference this is.
  return stored as unknown as BankLineDifference;
}

/** A bank transfer as operators see it (the sender's IBAN in full: operators match and refund by it). */
export function toOpsBankTransfer(row: BankTransfer) {
  return {
    bankTransferId: row.id,
    bankTxId: row.bankTxId,
    status: row.status,
    amount: row.amount.toString(),
    currency: bookedCurrency(row.currency),
    senderName: row.senderName,
    senderIban: row.senderIban,
    description: row.description,
    purpose: row.purpose,
    receivedAt: row.receivedAt.toISOString(),
    receivedTimeKnown: row.receivedTimeKnown,
    receivingAccountId: row.receivingAccountId,
    handEntry: row.handEntry,
    bankConfirmedAt: row.bankConfirmedAt?.toISOString() ?? null,
    bankLineDifference: bankLineDifferenceOf(row.bankLineDifference),
    livemode: row.livemode,
    intentId: row.intentId,
    unmatchedReason: row.unmatchedReason,
    setAsideReason: row.setAsideReason,
    setAsideAt: row.setAsideAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    matchReasons: storedReasons(row.matchReasons),
  };
}

/**
 * One transfer's detail: the ops view, the deposits a near reference names (best first) and, for money whose exact
 * reference names a decided deposit (`intent_closed`), that deposit: an approved one can take it as a top-up.
 */
export function toOpsBankTransferDetail(row: BankTransfer, closed: Deposit | null = null) {
  return {
    ...toOpsBankTransfer(row),
    suggestions: storedSuggestions(row.suggestions),
    closedIntent:
      closed && (closed.status === 'APPROVED' || closed.status === 'REJECTED')
        ? { intentId: closed.id, referenceNo: closed.referenceNo, status: closed.status, siteId: closed.siteId }
        : null,
  };
}

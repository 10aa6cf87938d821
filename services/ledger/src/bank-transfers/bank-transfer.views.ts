import type { BankTransfer } from '@kasa/db';
import { storedReasons, storedSuggestions } from './matching.js';

/** A bank transfer as operators see it (the sender's IBAN in full: operators match and refund by it). */
export function toOpsBankTransfer(row: BankTransfer) {
  return {
    bankTransferId: row.id,
    bankTxId: row.bankTxId,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
    senderName: row.senderName,
    senderIban: row.senderIban,
    description: row.description,
    receivedAt: row.receivedAt.toISOString(),
    intentId: row.intentId,
    unmatchedReason: row.unmatchedReason,
    setAsideReason: row.setAsideReason,
    setAsideAt: row.setAsideAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    matchReasons: storedReasons(row.matchReasons),
  };
}

/** One transfer's detail: the ops view and the deposits a near reference names, best first. */
export function toOpsBankTransferDetail(row: BankTransfer) {
  return { ...toOpsBankTransfer(row), suggestions: storedSuggestions(row.suggestions) };
}

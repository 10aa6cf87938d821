import type { SenderReturn } from '@kasa/db';
import { givenApprovals, type ApprovalsView } from '../review/four-eyes.js';
import { bookedCurrency } from '../shared/currency.js';

/**
 * A return as the ops API shows it (the sender's IBAN in full: operators pay it back to it). `approvals`: four-eyes,
 * as `approvalsView` reads them (by default every approval recorded, right for a decided return).
 */
export function toOpsSenderReturn(row: SenderReturn, approvals: ApprovalsView = givenApprovals(row.approvals)) {
  return {
    returnId: row.id,
    bankTransferId: row.bankTransferId,
    status: row.status,
    amount: row.amount.toString(),
    currency: bookedCurrency(row.currency),
    senderName: row.senderName,
    senderIban: row.senderIban,
    reason: row.reason,
    requestedBy: row.requestedBy,
    createdAt: row.createdAt.toISOString(),
    approvedAt: row.approvedAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    sentBankTxId: row.sentBankTxId,
    rejectedAt: row.rejectedAt?.toISOString() ?? null,
    rejectedReason: row.rejectedReason,
    intentId: row.intentId,
    livemode: row.livemode,
    approvals,
  };
}

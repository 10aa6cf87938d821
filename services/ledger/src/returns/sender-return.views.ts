import type { SenderReturn } from '@kasa/db';

/** A return as the ops API shows it (the sender's IBAN in full: operators pay it back to it). */
export function toOpsSenderReturn(row: SenderReturn) {
  return {
    returnId: row.id,
    bankTransferId: row.bankTransferId,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
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
  };
}

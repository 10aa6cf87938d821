import type { BankTransfer, DepositIntent, Withdrawal } from '@kasa/db';
import { toDepositListItem, toWithdrawalListItem } from '../domain/records.js';

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

/** An intent as operators see it: the partner's list item plus what review needs. */
export function toOpsIntent(row: DepositIntent) {
  return {
    ...toDepositListItem(row),
    siteId: row.siteId,
    externalUserId: row.externalUserId,
    externalUserLabel: row.externalUserLabel,
    receivedAmount: row.receivedAmount?.toString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    cancelledAt: iso(row.cancelledAt),
  };
}

/** A withdrawal as operators see it; the full target IBAN is shown because operators send the money. */
export function toOpsWithdrawal(row: Withdrawal) {
  return {
    ...toWithdrawalListItem(row),
    siteId: row.siteId,
    externalUserId: row.externalUserId,
    externalUserLabel: row.externalUserLabel,
    targetIban: row.targetIban,
    targetHolderName: row.targetHolderName,
    approvedAt: iso(row.approvedAt),
    sentBankTxId: row.sentBankTxId,
    returnedAt: iso(row.returnedAt),
    returnedReason: row.returnedReason,
  };
}

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
    createdAt: row.createdAt.toISOString(),
  };
}

import type { WithdrawalListItem, WithdrawalRecord } from '@kasa/contracts';
import type { Withdrawal } from '@kasa/db';
import { isoOrNull } from '../shared/iso.js';

type WithdrawalRow = Pick<
  Withdrawal,
  | 'id'
  | 'referenceNo'
  | 'status'
  | 'amount'
  | 'requestedAmount'
  | 'currency'
  | 'sentAt'
  | 'rejectedAt'
  | 'rejectedReason'
  | 'createdAt'
  | 'updatedAt'
>;

/** The withdrawal exactly as the status lookup (and a webhook's `data`) shows it. */
export function toWithdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    withdrawalId: row.id,
    referenceNo: row.referenceNo,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
    sentAt: isoOrNull(row.sentAt),
    rejectedAt: isoOrNull(row.rejectedAt),
    rejectedReason: row.rejectedReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toWithdrawalListItem(row: WithdrawalRow): WithdrawalListItem {
  return { ...toWithdrawalRecord(row), requestedAmount: row.requestedAmount.toString() };
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
    approvedAt: isoOrNull(row.approvedAt),
    sentBankTxId: row.sentBankTxId,
    returnedAt: isoOrNull(row.returnedAt),
    returnedReason: row.returnedReason,
  };
}

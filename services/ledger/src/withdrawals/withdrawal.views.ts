import type { WithdrawalListItem, WithdrawalRecord } from '@kasa/contracts';
import type { Withdrawal } from '@kasa/db';
import { givenApprovals, type ApprovalsView } from '../review/four-eyes.js';
import { bookedCurrency } from '../shared/currency.js';
import { isoOrNull } from '../shared/iso.js';
import { siteRecordFields } from '../site-records/site-record.views.js';
import type { WithdrawalRow } from './withdrawal.repository.js';

/** The withdrawal exactly as the status lookup (and a webhook's `data`) shows it. */
export function toWithdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    withdrawalId: row.id,
    ...siteRecordFields(row, { sentAt: isoOrNull(row.sentAt) }),
    returnedAt: isoOrNull(row.returnedAt),
    returnReason: row.returnedAt ? { code: row.returnedReasonCode, text: row.returnedReason ?? '' } : null,
  };
}

export function toWithdrawalListItem(row: WithdrawalRow): WithdrawalListItem {
  return { ...toWithdrawalRecord(row), requestedAmount: row.requestedAmount.toString() };
}

/**
 * A withdrawal as operators see it; the full target IBAN is shown because operators send the money. `approvals`:
 * four-eyes, as `approvalsView` reads them (by default every approval recorded, right for a decided withdrawal).
 */
export function toOpsWithdrawal(row: Withdrawal, approvals: ApprovalsView = givenApprovals(row.approvals)) {
  return {
    ...toWithdrawalListItem(row),
    currency: bookedCurrency(row.currency),
    siteId: row.siteId,
    externalUserId: row.externalUserId,
    externalUserLabel: row.externalUserLabel,
    targetIban: row.targetIban,
    targetHolderName: row.targetHolderName,
    approvedAt: isoOrNull(row.approvedAt),
    sentBankTxId: row.sentBankTxId,
    returnedAt: isoOrNull(row.returnedAt),
    returnedReason: row.returnedReason,
    approvals,
  };
}

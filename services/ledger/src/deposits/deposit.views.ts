import type { DepositIntentListItem, DepositIntentRecord, UserRejectionReason } from '@kasa/contracts';
import type { Deposit } from '@kasa/db';
import { bookedCurrency } from '../shared/currency.js';
import { isoOrNull } from '../shared/iso.js';
import { senderNameMismatch } from './sender-name.js';
import { siteRecordFields } from '../site-records/site-record.views.js';
import type { DepositRow } from './deposit.repository.js';

/** The deposit intent exactly as the status lookup (and a webhook's `data`) shows it. */
export function toDepositRecord(row: DepositRow): DepositIntentRecord {
  return { intentId: row.id, ...siteRecordFields(row, { approvedAt: isoOrNull(row.approvedAt) }) };
}

export function toDepositListItem(row: DepositRow): DepositIntentListItem {
  return { ...toDepositRecord(row), requestedAmount: row.requestedAmount.toString() };
}

/** An intent as operators see it: the partner's list item plus what review needs. */
/**
 * An intent as operators see it. Given the names on its transfers (`senderNames`, one per transfer, read by lists
 * and the detail), it also gives the different names, how many transfers paid it, and which names do not resemble
 * the user's label (sender-name.ts).
 */
export function toOpsDeposit(row: Deposit & { senderNames?: readonly string[] }) {
  return {
    ...toDepositListItem(row),
    currency: bookedCurrency(row.currency),
    siteId: row.siteId,
    externalUserId: row.externalUserId,
    externalUserLabel: row.externalUserLabel,
    receivedAmount: row.receivedAmount?.toString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    cancelledAt: isoOrNull(row.cancelledAt),
    rejectedUserReason: row.rejectedUserReason as UserRejectionReason | null,
    userConfirmedAt: isoOrNull(row.userConfirmedAt),
    awaitingReviewSince: isoOrNull(row.awaitingReviewSince),
    waitingForRestSince: isoOrNull(row.waitingForRestSince),
    ...(row.senderNames
      ? {
          senderNameMismatch: senderNameMismatch(row.externalUserLabel, row.senderNames),
          senderNames: [...new Set(row.senderNames)],
          transferCount: row.senderNames.length,
        }
      : {}),
  };
}

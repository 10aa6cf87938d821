import type { DepositIntentListItem, DepositIntentRecord, UserRejectionReason } from '@kasa/contracts';
import type { DepositIntent } from '@kasa/db';
import { isoOrNull } from '../shared/iso.js';
import { siteRecordFields } from '../shared/site-record.views.js';
import type { DepositRow } from './deposit.repository.js';

/** The deposit intent exactly as the status lookup (and a webhook's `data`) shows it. */
export function toDepositRecord(row: DepositRow): DepositIntentRecord {
  return { intentId: row.id, ...siteRecordFields(row, { approvedAt: isoOrNull(row.approvedAt) }) };
}

export function toDepositListItem(row: DepositRow): DepositIntentListItem {
  return { ...toDepositRecord(row), requestedAmount: row.requestedAmount.toString() };
}

/** An intent as operators see it: the partner's list item plus what review needs. */
export function toOpsIntent(row: DepositIntent) {
  return {
    ...toDepositListItem(row),
    siteId: row.siteId,
    externalUserId: row.externalUserId,
    externalUserLabel: row.externalUserLabel,
    receivedAmount: row.receivedAmount?.toString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    cancelledAt: isoOrNull(row.cancelledAt),
    rejectedUserReason: row.rejectedUserReason as UserRejectionReason | null,
    userConfirmedAt: isoOrNull(row.userConfirmedAt),
    awaitingReviewSince: isoOrNull(row.awaitingReviewSince),
  };
}

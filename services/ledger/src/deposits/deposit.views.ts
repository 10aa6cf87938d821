import type { DepositIntentListItem, DepositIntentRecord } from '@kasa/contracts';
import type { DepositIntent } from '@kasa/db';
import { isoOrNull } from '../shared/iso.js';

type DepositRow = Pick<
  DepositIntent,
  | 'id'
  | 'referenceNo'
  | 'status'
  | 'amount'
  | 'requestedAmount'
  | 'currency'
  | 'approvedAt'
  | 'rejectedAt'
  | 'rejectedReason'
  | 'createdAt'
  | 'updatedAt'
>;

/** The deposit intent exactly as the status lookup (and a webhook's `data`) shows it. */
export function toDepositRecord(row: DepositRow): DepositIntentRecord {
  return {
    intentId: row.id,
    referenceNo: row.referenceNo,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
    approvedAt: isoOrNull(row.approvedAt),
    rejectedAt: isoOrNull(row.rejectedAt),
    rejectedReason: row.rejectedReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
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
  };
}

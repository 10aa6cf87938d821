import type {
  DepositIntentListItem,
  DepositIntentRecord,
  WithdrawalListItem,
  WithdrawalRecord,
} from '@kasa/contracts';
import type { DepositIntent, Withdrawal } from '@kasa/db';

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

type DepositRow = Pick<
  DepositIntent,
  'id' | 'referenceNo' | 'status' | 'amount' | 'requestedAmount' | 'currency' | 'approvedAt' | 'rejectedAt' | 'rejectedReason' | 'createdAt' | 'updatedAt'
>;
type WithdrawalRow = Pick<
  Withdrawal,
  'id' | 'referenceNo' | 'status' | 'amount' | 'requestedAmount' | 'currency' | 'sentAt' | 'rejectedAt' | 'rejectedReason' | 'createdAt' | 'updatedAt'
>;

/** The deposit intent exactly as the status lookup (and a webhook's `data`) shows it. */
export function toDepositRecord(row: DepositRow): DepositIntentRecord {
  return {
    intentId: row.id,
    referenceNo: row.referenceNo,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
    approvedAt: iso(row.approvedAt),
    rejectedAt: iso(row.rejectedAt),
    rejectedReason: row.rejectedReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDepositListItem(row: DepositRow): DepositIntentListItem {
  return { ...toDepositRecord(row), requestedAmount: row.requestedAmount.toString() };
}

export function toWithdrawalRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    withdrawalId: row.id,
    referenceNo: row.referenceNo,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
    sentAt: iso(row.sentAt),
    rejectedAt: iso(row.rejectedAt),
    rejectedReason: row.rejectedReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toWithdrawalListItem(row: WithdrawalRow): WithdrawalListItem {
  return { ...toWithdrawalRecord(row), requestedAmount: row.requestedAmount.toString() };
}

import type { OpsResponse } from '@kasa/contracts';
import type { BalanceAdjustment } from '@kasa/db';
import { bookedCurrency } from '../shared/currency.js';
import { isoOrNull } from '../shared/iso.js';

export type OpsBalanceAdjustment = OpsResponse<'opsGetBalanceAdjustment'>;

/** A balance adjustment as operators see it: what it moves, why, and who proposed and decided it. */
export function toOpsBalanceAdjustment(row: BalanceAdjustment): OpsBalanceAdjustment {
  return {
    adjustmentId: row.id,
    siteId: row.siteId,
    referenceNo: row.referenceNo,
    direction: row.direction === 'CREDIT' ? 'credit' : 'debit',
    amount: row.amount.toString(),
    currency: bookedCurrency(row.currency),
    reason: row.reason,
    status: row.status,
    proposedByOperatorId: row.proposedByOperatorId,
    proposedByEmail: row.proposedByEmail,
    decidedByOperatorId: row.decidedByOperatorId,
    decidedByEmail: row.decidedByEmail,
    appliedAt: isoOrNull(row.appliedAt),
    rejectedAt: isoOrNull(row.rejectedAt),
    rejectedReason: row.rejectedReason,
    createdAt: row.createdAt.toISOString(),
  };
}

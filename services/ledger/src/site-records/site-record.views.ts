import { isoOrNull } from '../shared/iso.js';
import type { SiteRecordRow } from './site-scoped.repository.js';

/**
 * A partner record's fields after its id, as the status lookup (and a webhook's `data`) shows a deposit
 * intent or a withdrawal: the kind's own timestamp (`own`) sits in its documented place after the currency.
 */
export function siteRecordFields<Status extends string, Own extends object>(row: SiteRecordRow<Status>, own: Own) {
  return {
    referenceNo: row.referenceNo,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
    ...own,
    rejectedAt: isoOrNull(row.rejectedAt),
    rejectedReason: row.rejectedReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

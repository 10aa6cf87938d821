/**
 * The chart of accounts of a site's double-entry journal. Amounts are signed minor units: positive is a
 * debit, negative a credit, and the legs of one transaction always sum to zero.
 *
 * - `bank_clearing` (asset): money received into the service's bank accounts for the site.
 * - `payouts_settled` (asset, credit side): money sent out to the site's users.
 * - `site_available` (liability): what the service owes the site and may pay out now.
 * - `site_reserved` (liability): owed to the site but earmarked for approved, not yet sent withdrawals.
 * - `adjustments` (the house's, either sign): what the service gave the site (debit) or took back (credit) by balance
 *   adjustments, with no bank movement behind them (docs/operations.md, Balance adjustments).
 *
 * Liabilities carry credit (negative) balances, so the operator-facing figures flip their sign.
 */
export const ACCOUNTS = ['bank_clearing', 'payouts_settled', 'site_available', 'site_reserved', 'adjustments'] as const;
export type JournalAccount = (typeof ACCOUNTS)[number];

export interface JournalLeg {
  account: JournalAccount;
  amount: bigint;
}

export type JournalEntityType = 'deposit_intent' | 'withdrawal' | 'balance_adjustment';

/** One balanced journal transaction about one intent, withdrawal or balance adjustment. */
export interface JournalPosting {
  siteId: string;
  entityType: JournalEntityType;
  entityId: string;
  legs: JournalLeg[];
}

function posting(
  siteId: string,
  entityType: JournalEntityType,
  entityId: string,
  debit: JournalAccount,
  credit: JournalAccount,
  amount: bigint,
): JournalPosting {
  if (amount <= 0n) throw new RangeError('a journal amount must be positive');
  return {
    siteId,
    entityType,
    entityId,
    legs: [
      { account: debit, amount },
      { account: credit, amount: -amount },
    ],
  };
}

/** The postings of docs/operations.md (Site balances and the journal), one per money-moving transition. */
export const Postings = {
  /** An approved deposit: the money is in our bank and now owed to the site. */
  depositApproved: (siteId: string, intentId: string, amount: bigint) =>
    posting(siteId, 'deposit_intent', intentId, 'bank_clearing', 'site_available', amount),
  /** A withdrawal approval earmarks the amount (available -> reserved). */
  withdrawalReserved: (siteId: string, id: string, amount: bigint) =>
    posting(siteId, 'withdrawal', id, 'site_available', 'site_reserved', amount),
  /** A rejection after approval gives the earmark back (reserved -> available). */
  withdrawalReleased: (siteId: string, id: string, amount: bigint) =>
    posting(siteId, 'withdrawal', id, 'site_reserved', 'site_available', amount),
  /** Sent: the earmarked money left the bank (reserved -> paid out). */
  withdrawalSettled: (siteId: string, id: string, amount: bigint) =>
    posting(siteId, 'withdrawal', id, 'site_reserved', 'payouts_settled', amount),
  /** Returned by the bank: the money is back and available to the site again. */
  withdrawalReturned: (siteId: string, id: string, amount: bigint) =>
    posting(siteId, 'withdrawal', id, 'payouts_settled', 'site_available', amount),
  /** An applied credit adjustment: the service now owes the site more, with no money received for it. */
  adjustmentCredited: (siteId: string, id: string, amount: bigint) =>
    posting(siteId, 'balance_adjustment', id, 'adjustments', 'site_available', amount),
  /** An applied debit adjustment: the service owes the site less (refused past the available balance). */
  adjustmentDebited: (siteId: string, id: string, amount: bigint) =>
    posting(siteId, 'balance_adjustment', id, 'site_available', 'adjustments', amount),
};

/** What an operator sees: positive figures per account. */
export interface SiteBalanceView {
  siteId: string;
  currency: 'TRY';
  available: string;
  reserved: string;
  receivedTotal: string;
  paidOutTotal: string;
  adjustedTotal: string;
}

export function balanceView(siteId: string, raw: Partial<Record<string, bigint>>): SiteBalanceView {
  const of = (account: JournalAccount) => raw[account] ?? 0n;
  return {
    siteId,
    currency: 'TRY',
    available: (-of('site_available')).toString(),
    reserved: (-of('site_reserved')).toString(),
    receivedTotal: of('bank_clearing').toString(),
    paidOutTotal: (-of('payouts_settled')).toString(),
    // Given to the site (a debit of the house's account) counts positive.
    adjustedTotal: of('adjustments').toString(),
  };
}

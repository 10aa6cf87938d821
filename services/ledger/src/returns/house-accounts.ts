/**
 * The house journal: money in the service's bank that no site owns, booked like a site's (positive debit,
 * negative credit, each transaction summing to zero). Today it holds the returns to senders:
 *
 * - `bank_clearing` (asset): money in our bank that is now owed back to a sender;
 * - `sender_refunds_payable` (liability): owed to senders, approved and not sent yet;
 * - `refunds_settled` (asset, credit side): sent back.
 */
export const HOUSE_ACCOUNTS = ['bank_clearing', 'sender_refunds_payable', 'refunds_settled'] as const;
export type HouseAccount = (typeof HOUSE_ACCOUNTS)[number];

/** One leg of a house journal transaction. */
export interface HouseLeg {
  account: HouseAccount;
  amount: bigint;
}

function legs(debit: HouseAccount, credit: HouseAccount, amount: bigint): HouseLeg[] {
  if (amount <= 0n) throw new RangeError('a journal amount must be positive');
  return [
    { account: debit, amount },
    { account: credit, amount: -amount },
  ];
}

/** The postings of a return to its sender (docs/operations.md, Returns to senders). */
export const HousePostings = {
  /** Approved: the money in our bank is owed back to the sender. */
  returnApproved: (amount: bigint) => legs('bank_clearing', 'sender_refunds_payable', amount),
  /** Rejected after approval: no longer owed back. */
  returnWithdrawn: (amount: bigint) => legs('sender_refunds_payable', 'bank_clearing', amount),
  /** Sent: the money left the bank. */
  returnSent: (amount: bigint) => legs('sender_refunds_payable', 'refunds_settled', amount),
};

import { EVENT_TYPES } from './event-types.js';

export const DEPOSIT_STATUSES = ['RESERVED', 'PENDING_REVIEW', 'APPROVED', 'REJECTED', 'AUTO_CANCELLED', 'LATE_ARRIVAL'] as const;
export const WITHDRAWAL_STATUSES = ['PENDING_REVIEW', 'APPROVED', 'SENT', 'REJECTED', 'RETURNED'] as const;
/** Why a transfer is thought to pay a deposit (docs/operations.md, Matching reasons; the ledger's bank-transfers/matching.ts). */
export const MATCH_REASONS = [
  'reference_exact',
  'reference_near',
  'amount_exact',
  'amount_less',
  'amount_more',
  'sender_matches_user',
  'sender_differs',
  'late',
  'split',
  'top_up',
] as const;
// The event types are declared once, with what each means, in event-types.ts.
export { ALWAYS_SENT_EVENT_TYPES, EVENT_TYPES, OPT_IN_EVENT_TYPES, type EventType, type OptInEventType } from './event-types.js';
/** What a test webhook (`POST /test/webhooks`) may send: a sample of any event type, or `ping`. */
export const TEST_WEBHOOK_TYPES = [...EVENT_TYPES, 'ping'] as const;
export const EVENT_STATUSES = ['PENDING', 'DELIVERED', 'DEAD'] as const;

/**
 * What an operator may tell the end user about a rejected deposit, shown on the hosted page in the user's
 * language (the free-text `reason` goes to the partner and the audit log, never to the page).
 */
export const USER_REJECTION_REASONS = [
  'TRANSFER_NOT_RECEIVED',
  'AMOUNT_MISMATCH',
  'SENDER_NOT_ACCOUNT_HOLDER',
  'REFERENCE_MISSING',
] as const;
export type UserRejectionReason = (typeof USER_REJECTION_REASONS)[number];

export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const CURRENCIES = ['TRY'] as const;
/** Defaults for a site's amount bounds, in kurus (10.00 TRY to 1,000,000.00 TRY). */
export const DEFAULT_MIN_AMOUNT = 1000n;
export const DEFAULT_MAX_AMOUNT = 100_000_000n;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/**
 * Why a bank returned a payout: ISO 20022 return reason codes (the ones Turkish banks send most), each with its
 * meaning. The sandbox's simulator returns a test withdrawal with one of them.
 */
export const RETURN_REASON_CODES = {
  AC01: 'Incorrect account number',
  AC04: 'Closed account number',
  AC06: 'Blocked account',
  AM04: 'Insufficient funds',
  AM05: 'Duplication',
  BE01: 'Name does not match the account holder',
  MS03: 'Reason not specified',
} as const;
export type ReturnReasonCode = keyof typeof RETURN_REASON_CODES;

import type { DepositStatus, UserRejectionReason, WithdrawalStatus } from './statuses.js';

/** A deposit intent as the status lookup returns it (docs/api.md, Records), plus createdAt/updatedAt. */
export interface DepositIntentRecord {
  intentId: string;
  referenceNo: string;
  status: DepositStatus;
  amount: string;
  currency: string;
  approvedAt: string | null;
  rejectedAt: string | null;
  rejectedReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DepositIntentListItem extends DepositIntentRecord {
  requestedAmount: string;
}

export interface CreateDepositResponse {
  intentId: string;
  referenceNo: string;
  depositUrl: string;
  amount: string;
  currency: string;
  expiresAt: string;
}

export interface WithdrawalRecord {
  withdrawalId: string;
  referenceNo: string;
  status: WithdrawalStatus;
  amount: string;
  currency: string;
  sentAt: string | null;
  rejectedAt: string | null;
  rejectedReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WithdrawalListItem extends WithdrawalRecord {
  requestedAmount: string;
}

export interface CreateWithdrawalResponse {
  withdrawalId: string;
  referenceNo: string;
}

export interface ListResponse<T> {
  data: T[];
  nextCursor: string | null;
}

/** What the hosted deposit page shows (ledger -> gateway); bank details only while the end user may pay. */
export interface DepositPageView {
  referenceNo: string;
  status: string;
  /** The amount the end user was asked to send (kuruş). */
  amount: string;
  /** Once approved: the amount credited (an operator may approve less than was asked); null before. */
  creditedAmount: string | null;
  currency: string;
  expiresAt: string;
  /** Whole seconds until expiresAt by the ledger's clock while the end user may pay, else 0: the page's countdown. */
  secondsLeft: number;
  /** The partner's display name of its site. */
  siteName: string;
  bankAccount: { bankName: string; holderName: string; iban: string } | null;
  /** The partner's link back, if it gave one on create. */
  returnUrl: string | null;
  /** When the end user said "I have sent the transfer" on the page; null until then. */
  userConfirmedAt: string | null;
  /** Once rejected: what the operator chose to tell the end user; null for the general text. */
  rejectedUserReason: UserRejectionReason | null;
}

/** A webhook event as the events surface shows it (partner and ops alike). */
export interface EventView {
  eventId: string;
  type: string;
  status: string;
  createdAt: string;
  attemptCount: number;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  deadAt: string | null;
  /** Exactly what the webhook body carries: `{eventId, type, createdAt, data}`. */
  payload: unknown;
}

/** One delivery attempt of an event. */
export interface AttemptView {
  attemptNo: number;
  url: string;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** At most 4 KiB of what the receiver answered. */
  responseBody: string | null;
}

import type { ResponseOf } from './response-types.js';
import type { UserRejectionReason } from './statuses.js';

// The partner API's records by name, for code that builds or reads one; each is its response schema's type
// (./schemas/responses.ts, through FromSchema), so a record and what the document and the contract test say cannot drift.

/**
 * A record with `currency` as the ledger's rows hold it: a text column (always `TRY`, which the schema says). Until
 * the ledger's views narrow it, the records they build may carry any string there; every other field is the schema's.
 */
type CurrencyAsStored<T> = Omit<T, 'currency'> & { currency: string };

/** A deposit intent as the status lookup (and a webhook's `data`) returns it. */
export type DepositIntentRecord = CurrencyAsStored<ResponseOf<'DepositIntent'>>;
/** A deposit intent in a list page: the record plus the amount first asked for. */
export type DepositIntentListItem = CurrencyAsStored<ResponseOf<'DepositIntentListItem'>>;
export type CreateDepositResponse = CurrencyAsStored<ResponseOf<'CreateDepositResponse'>>;
export type DepositIntentList = ResponseOf<'DepositIntentList'>;

/** A withdrawal as the status lookup (and a webhook's `data`) returns it. */
export type WithdrawalRecord = CurrencyAsStored<ResponseOf<'Withdrawal'>>;
/** A withdrawal in a list page: the record plus the amount first asked for. */
export type WithdrawalListItem = CurrencyAsStored<ResponseOf<'WithdrawalListItem'>>;
export type CreateWithdrawalResponse = ResponseOf<'CreateWithdrawalResponse'>;
export type WithdrawalList = ResponseOf<'WithdrawalList'>;

export type WebhookConfigResponse = ResponseOf<'WebhookConfigResponse'>;
export type EventList = ResponseOf<'EventList'>;
export type EventWithAttempts = ResponseOf<'EventWithAttempts'>;
/** One delivery attempt of an event. */
export type AttemptView = ResponseOf<'DeliveryAttempt'>;
export type Problem = ResponseOf<'Problem'>;

/**
 * A webhook event as the events surface shows it (partner and ops alike): the `Event` schema's type, with `type`
 * and `payload` as the ledger reads them (a text column, and the JSON body exactly as delivered).
 */
export type EventView = Omit<ResponseOf<'Event'>, 'type' | 'payload'> & { type: string; payload: unknown };

/** A page of any list, partner or ops: the list schemas' shape (`nextCursor` as they say it) around its own items. */
export type ListResponse<T> = Omit<DepositIntentList, 'data'> & { data: T[] };

/** What the hosted deposit page shows (ledger -> gateway); bank details only while the end user may pay. */
export interface DepositPageView {
  referenceNo: string;
  status: string;
  /** The amount the end user was asked to send (kuruş); the partner's record calls the credited amount `amount`. */
  requestedAmount: string;
  /** Once approved: the amount credited (an operator may approve less than was asked); null before. */
  creditedAmount: string | null;
  currency: string;
  expiresAt: string;
  /** Whole seconds until expiresAt by the ledger's clock while the end user may pay, else 0: the page's countdown. */
  secondsLeft: number;
  /** The partner's display name of its site. */
  siteName: string;
  /** False for a sandbox's (test) deposit: the page says "Test mode" and offers to simulate the transfer. */
  livemode: boolean;
  bankAccount: { bankName: string; holderName: string; iban: string } | null;
  /** The partner's link back, if it gave one on create. */
  returnUrl: string | null;
  /** When the end user said "I have sent the transfer" on the page; null until then. */
  userConfirmedAt: string | null;
  /** Once rejected: what the operator chose to tell the end user; null for the general text. */
  rejectedUserReason: UserRejectionReason | null;
}

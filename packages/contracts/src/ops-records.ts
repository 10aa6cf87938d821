/**
 * What the ops API (`/ops/v1`) answers with: the ledger writes these shapes, the console and the kasa CLI
 * read them. Amounts are strings of kuruş; times are ISO 8601 strings.
 */
import type { AttemptView, DepositIntentListItem, EventView, ListResponse, WithdrawalListItem } from './records.js';
import type { UserRejectionReason } from './statuses.js';

/** Every ops list: newest first, `nextCursor` null on the last page. */
export type ListPage<T> = ListResponse<T>;

export type OperatorRole = 'ADMIN' | 'REVIEWER';

/** An operator account (`/operators`, `/operators/:id/disable`, and inside a login). */
export interface OpsOperator {
  operatorId: string;
  email: string;
  name: string;
  role: OperatorRole;
  disabledAt: string | null;
  createdAt: string;
}

/** `POST /login`: a session token for the operator. */
export interface LoginResult {
  token: string;
  tokenId: string;
  expiresAt: string;
  operator: OpsOperator;
}

/** An operator token as listed, and as `DELETE /operator-tokens/:id` and `POST /logout` answer. */
export interface OpsOperatorToken {
  tokenId: string;
  operatorId: string;
  label: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A token issued for scripts; `token` is shown this once. */
export interface IssuedOperatorToken extends OpsOperatorToken {
  token: string;
}

/** A deposit intent as operators see it: the partner's list item plus what review needs. */
export interface OpsIntent extends DepositIntentListItem {
  siteId: string;
  externalUserId: string;
  externalUserLabel: string | null;
  receivedAmount: string | null;
  expiresAt: string;
  cancelledAt: string | null;
  /** What the end user's hosted page was told about a rejection; null: the general text, or not rejected. */
  rejectedUserReason: UserRejectionReason | null;
  /** When the end user pressed "I have sent the transfer" on the hosted page. */
  userConfirmedAt: string | null;
  /** When its money put it in the review queue; null before any arrived. */
  awaitingReviewSince: string | null;
  /**
   * Lists, search and the detail only: sender names of its transfers that do not resemble the user's label
   * (empty: all do; null: no label or no transfer to compare).
   */
  senderNameMismatch?: string[] | null;
}

/** `GET /intents/:id`: the intent with every bank transfer credited to it. */
export interface OpsIntentDetail extends OpsIntent {
  bankTransfers: OpsBankTransfer[];
}

/** A withdrawal as operators see it, with the full target IBAN (operators send the money). */
export interface OpsWithdrawal extends WithdrawalListItem {
  siteId: string;
  externalUserId: string;
  externalUserLabel: string | null;
  targetIban: string;
  targetHolderName: string;
  approvedAt: string | null;
  sentBankTxId: string | null;
  returnedAt: string | null;
  returnedReason: string | null;
}

/** `GET /withdrawals/:id`: the withdrawal with the balance the reviewer decides against. */
export interface OpsWithdrawalDetail extends OpsWithdrawal {
  siteBalance: OpsBalance;
}

/** An incoming bank transfer; `status` is MATCHED, UNMATCHED or ASSIGNED. */
export interface OpsBankTransfer {
  bankTransferId: string;
  bankTxId: string;
  status: string;
  amount: string;
  currency: string;
  senderName: string;
  senderIban: string;
  description: string;
  receivedAt: string;
  intentId: string | null;
  unmatchedReason: string | null;
  /** Why an operator set it aside (status SET_ASIDE), and when. */
  setAsideReason: string | null;
  setAsideAt: string | null;
  createdAt: string;
}

/** `POST /bank-transfers`: the transfer and the intent it was matched to, if any. */
export interface RecordedBankTransfer extends OpsBankTransfer {
  intent: OpsIntent | null;
}

/** `POST /bank-transfers/:id/assign`: the transfer and the intent it now credits. */
export interface AssignedBankTransfer extends OpsBankTransfer {
  intent: OpsIntent;
}

/** A site's balance by journal account. */
export interface OpsBalance {
  siteId: string;
  currency: string;
  available: string;
  reserved: string;
  receivedTotal: string;
  paidOutTotal: string;
}

/** A balance with its site's slug and name (`/balances`, `/sites/:id/balance`). */
export interface SiteBalance extends OpsBalance {
  slug: string;
  name: string;
}

/** `GET /events/:id`: the event, its site and every delivery attempt, oldest first. */
export interface OpsEventDetail extends EventView {
  siteId: string;
  attempts: AttemptView[];
}

/** One audit log entry; `actor.email` is known for operators only. */
export interface AuditEntry {
  auditId: string;
  createdAt: string;
  actor: { type: string; id: string; email: string | null };
  action: string;
  entityType: string;
  entityId: string;
  siteId: string | null;
  metadata: unknown;
}

/** A site's settings as `GET /sites` shows them. */
export interface OpsSite {
  siteId: string;
  slug: string;
  name: string;
  webhookUrl: string | null;
  rateLimitPerMinute: number;
  depositTtlSeconds: number;
  minAmount: string;
  maxAmount: string;
  /** The hosted page's link back when a deposit has none of its own. */
  returnUrl: string | null;
  createdAt: string;
}

/** A new site; `webhookSecret` is there (once) when it was created with a webhook URL. */
export interface CreatedSite extends OpsSite {
  webhookSecret: string | null;
}

/** A key as `GET /sites/:id/api-keys` lists it: never the key itself, only its prefix. */
export interface OpsApiKey {
  apiKeyId: string;
  keyPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** `POST /sites/:id/api-keys`: the raw key is in `apiKey` this once. */
export interface IssuedApiKey {
  apiKeyId: string;
  siteId: string;
  apiKey: string;
  keyPrefix: string;
  createdAt: string;
}

/** `DELETE /api-keys/:id`. */
export interface RevokedApiKey {
  apiKeyId: string;
  revokedAt: string;
}

/** `GET /journal/check`: `ok` false names every broken invariant in `problems`. */
export interface JournalCheckReport {
  ok: boolean;
  checkedAt: string;
  problems: Array<{ kind: string; detail: Record<string, string> }>;
}

/** A webhook event with the site it belongs to (search results). */
export interface OpsEvent extends EventView {
  siteId: string;
}

/** `GET /search?q=`: every kind of record that matches, each newest first. */
export interface OpsSearchResult {
  query: string;
  deposits: OpsIntent[];
  withdrawals: OpsWithdrawal[];
  bankTransfers: OpsBankTransfer[];
  events: OpsEvent[];
}

/** How many wait, and since when the one that has waited longest waits. */
export interface QueueHead {
  count: number;
  oldestAt: string | null;
  oldestId: string | null;
}

/** `GET /dashboard`: what needs an operator now. */
export interface OpsDashboard {
  generatedAt: string;
  depositsToReview: QueueHead;
  lateArrivals: QueueHead;
  unmatchedTransfers: QueueHead;
  withdrawalsToReview: QueueHead;
  withdrawalsToSend: QueueHead;
  /** Returns to senders waiting for review, and approved ones waiting to be sent. */
  returnsToReview: QueueHead;
  returnsToSend: QueueHead;
  deadEvents: QueueHead;
  /** `oldestId` is a site id here. */
  failingPartners: QueueHead;
}

/** One partner's webhook deliveries (`GET /delivery-health`). */
export interface SiteDeliveryHealth {
  siteId: string;
  slug: string;
  name: string;
  webhookUrl: string | null;
  attempts: number;
  succeeded: number;
  successRate: number | null;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  failingSince: string | null;
  lastFailure: { at: string; statusCode: number | null; error: string | null } | null;
  deadEvents: number;
  pendingEvents: number;
}

export interface DeliveryHealthList {
  generatedAt: string;
  windowHours: number;
  data: SiteDeliveryHealth[];
}

/** Money going back to the sender of a transfer no deposit kept (`/sender-returns`). */
export interface OpsSenderReturn {
  returnId: string;
  bankTransferId: string;
  status: string;
  amount: string;
  currency: string;
  senderName: string;
  senderIban: string;
  reason: string;
  requestedBy: string;
  createdAt: string;
  approvedAt: string | null;
  sentAt: string | null;
  sentBankTxId: string | null;
  rejectedAt: string | null;
  rejectedReason: string | null;
}

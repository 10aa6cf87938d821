/**
 * The partner API (`/api/v1/external` on the gateway) as one table: each operation's method, path, request and
 * response schemas, summary, tag, examples and error answers, declared once. The gateway's partner routers, the
 * partner OpenAPI document (./openapi.ts) and from it the SDK's generated types are derived from it.
 */
import { PARTNER_EXAMPLES as EX } from './openapi-examples.js';
import type { Json } from './openapi-support.js';
import type { ResponseSchemaName } from './response-types.js';
import type { RequestSchemaName } from './schemas/requests.js';

/**
 * The partner API's version: the OpenAPI document's `info.version` and the newest heading of
 * docs/partner-changelog.md (a test holds them equal). Semantic: minor for additions, major for a breaking
 * change (docs/versioning.md).
 */
export const PARTNER_API_VERSION = '1.5.0';

/** Where the gateway mounts the partner API; every path of the table is under it. */
export const PARTNER_BASE_PATH = '/api/v1/external';

export type PartnerMethod = 'GET' | 'POST' | 'PUT';

/** The error answers a partner operation documents (./openapi.ts describes each). */
export type PartnerErrorStatus = '400' | '401' | '404' | '409' | '413' | '415' | '422' | '429' | '500' | '503';

export type PartnerTag = 'Deposits' | 'Withdrawals' | 'Events' | 'Site' | 'Sandbox';

/** A route the gateway serves under `/api/v1/external`. */
export interface PartnerRouteSpec {
  method: PartnerMethod;
  /** Under `/api/v1/external`, parameters as `:name` (Express's form; the document writes `{name}`, each a UUID). */
  path: string;
}

/** One documented operation of the partner API. */
export interface PartnerOperationSpec extends PartnerRouteSpec {
  tag: PartnerTag;
  summary: string;
  description: string;
  /** The success status; 200 unless given. */
  status?: '200' | '201' | '202';
  /** The answer's schema (./schemas/responses.ts). */
  response: ResponseSchemaName;
  /** The success answer's description. */
  responseDescription: string;
  /** An example answer. */
  example: Json;
  /** Takes an Idempotency-Key header, and a replayed answer says so in `Idempotent-Replayed`. */
  idempotent?: true;
  /** The JSON body's request schema, with an example. */
  body?: { schema: RequestSchemaName; example: Json };
  /** The query's request schema (list filters). */
  query?: RequestSchemaName;
  errors: readonly PartnerErrorStatus[];
}

/** Every operation: the key, the rate limit and the services behind the gateway. */
const COMMON = ['401', '429', '500', '503'] as const;
/** Every write that takes an Idempotency-Key: a body or key to check, a key in flight or reused. */
const IDEMPOTENT_WRITE = ['400', '409', '413', '415', '422', ...COMMON] as const;
const LIST = ['400', ...COMMON] as const;
const LOOKUP = ['404', ...COMMON] as const;

/** Every partner operation by its operationId, in the order the document lists them. */
export const PARTNER_ROUTES = {
  createDeposit: {
    method: 'POST',
    path: '/deposits',
    tag: 'Deposits',
    summary: 'Create a deposit intent',
    description:
      'Creates a deposit intent for one end user and returns the hosted deposit page URL. A retry with the same Idempotency-Key and body returns the same intent.',
    status: '201',
    response: 'CreateDepositResponse',
    responseDescription: 'Created, or replayed',
    example: EX.createDepositResponse,
    idempotent: true,
    body: { schema: 'createDeposit', example: EX.createDepositRequest },
    errors: IDEMPOTENT_WRITE,
  },
  createWithdrawal: {
    method: 'POST',
    path: '/withdrawals',
    tag: 'Withdrawals',
    summary: 'Request a withdrawal (payout)',
    description:
      'Records a payout request to a TR IBAN; operators review and send it. A retry with the same Idempotency-Key and body returns the same withdrawal.',
    status: '201',
    response: 'CreateWithdrawalResponse',
    responseDescription: 'Received, or replayed',
    example: EX.createWithdrawalResponse,
    idempotent: true,
    body: { schema: 'createWithdrawal', example: EX.createWithdrawalRequest },
    errors: IDEMPOTENT_WRITE,
  },
  listWithdrawals: {
    method: 'GET',
    path: '/withdrawals',
    tag: 'Withdrawals',
    summary: 'List withdrawals, newest first',
    description: "The site's withdrawals, newest first, in pages joined by an opaque `nextCursor`.",
    response: 'WithdrawalList',
    responseDescription: 'A page',
    example: EX.withdrawalList,
    query: 'listWithdrawals',
    errors: LIST,
  },
  getIntent: {
    method: 'GET',
    path: '/intents/:intentId',
    tag: 'Deposits',
    summary: 'Look up a deposit intent',
    description: "The intent as it stands now; another site's intent answers 404 like a missing one.",
    response: 'DepositIntent',
    responseDescription: 'The intent',
    example: EX.depositIntent,
    errors: LOOKUP,
  },
  getWithdrawal: {
    method: 'GET',
    path: '/withdrawals/:withdrawalId',
    tag: 'Withdrawals',
    summary: 'Look up a withdrawal',
    description: "The withdrawal as it stands now; another site's withdrawal answers 404 like a missing one.",
    response: 'Withdrawal',
    responseDescription: 'The withdrawal',
    example: EX.withdrawal,
    errors: LOOKUP,
  },
  listIntents: {
    method: 'GET',
    path: '/intents',
    tag: 'Deposits',
    summary: 'List deposit intents, newest first',
    description: "The site's deposit intents, newest first, in pages joined by an opaque `nextCursor`.",
    response: 'DepositIntentList',
    responseDescription: 'A page',
    example: EX.depositIntentList,
    query: 'listIntents',
    errors: LIST,
  },
  putWebhookConfig: {
    method: 'PUT',
    path: '/site/webhook-config',
    tag: 'Site',
    summary: 'Change the webhook URL and (by default) rotate the signing secret',
    description:
      'Sets the webhook URL and, unless `rotateSecret` is false, returns a new signing secret once; the previous secret keeps signing for 24 hours. `eventTypes` chooses the opt-in event types; the five of the SPEC are always sent and must be listed.',
    response: 'WebhookConfigResponse',
    responseDescription: 'Recorded',
    example: EX.webhookConfigResponse,
    body: { schema: 'updateWebhookConfig', example: EX.webhookConfigRequest },
    // No Idempotency-Key: a retry rotates again and returns the newest secret; the one before keeps signing.
    errors: ['400', '413', '415', ...COMMON],
  },
  getWebhookConfig: {
    method: 'GET',
    path: '/site/webhook-config',
    tag: 'Site',
    summary: 'Read the webhook URL, when it was last changed and the event types the site receives',
    description:
      'The current delivery target and the time of the last change through the API. Never the signing secret: a lost secret is recovered by rotating it.',
    response: 'WebhookConfig',
    responseDescription: 'The current config',
    example: EX.webhookConfig,
    errors: COMMON,
  },
  testWebhook: {
    method: 'POST',
    path: '/test/webhooks',
    tag: 'Events',
    summary: 'Send a signed test webhook to the webhook URL now',
    description:
      "Sends one signed sample of an event type (or `ping`) to the site's webhook URL right away, signed like every delivery and carrying `test: true`, and answers how the attempt went. Not retried, not written to the events ledger. No Idempotency-Key: it changes nothing, and a repeat sends another sample. 409 when the site has no webhook URL or signing secret.",
    response: 'TestWebhookResponse',
    responseDescription: 'Attempted: `delivered` says whether the receiver answered 2xx',
    example: EX.testWebhookResponse,
    body: { schema: 'testWebhook', example: EX.testWebhookRequest },
    errors: ['400', '409', '413', '415', ...COMMON],
  },
  getBalance: {
    method: 'GET',
    path: '/balance',
    tag: 'Site',
    summary: "Read the site's balance",
    description:
      "The calling site's balance from the journal: `available` is owed to the site and free to pay out, `reserved` is earmarked for approved withdrawals not sent yet.",
    response: 'Balance',
    responseDescription: 'The balance now',
    example: EX.balance,
    errors: COMMON,
  },
  listBalanceTransactions: {
    method: 'GET',
    path: '/balance-transactions',
    tag: 'Site',
    summary: "List the site's balance movements, newest first",
    description:
      "Every movement of the calling site's `available` and `reserved` balances (one leg of a journal posting each), newest first, in pages joined by an opaque `nextCursor`; `createdFrom` inclusive, `createdTo` exclusive. A test key sees its sandbox's movements only.",
    response: 'BalanceTransactionList',
    responseDescription: 'A page',
    example: EX.balanceTransactionList,
    query: 'listBalanceTransactions',
    errors: LIST,
  },
  getBalanceStatementKeys: {
    method: 'GET',
    path: '/balance-statements/keys',
    tag: 'Site',
    summary: 'The public keys that verify signed balance statements',
    description: 'The ed25519 public keys whose `keyId` a statement names; the same keys are printed in docs/api.md.',
    response: 'BalanceStatementKeys',
    responseDescription: 'The keys',
    example: EX.balanceStatementKeys,
    errors: COMMON,
  },
  getBalanceStatement: {
    method: 'GET',
    path: '/balance-statements/:date',
    tag: 'Site',
    summary: "One finished day's signed balance statement",
    description:
      "The calling site's balance movements of one calendar day in Europe/Istanbul (`YYYY-MM-DD`, by each movement's `createdAt`), with the opening and closing balances, signed with ed25519 over the canonical JSON of the rest. Only finished days: today, a future day, or a day that ended less than five minutes ago answers 409 `conflict` with reason `statement_not_final`. The same day answers the same bytes every time.",
    response: 'BalanceStatement',
    responseDescription: 'The signed statement',
    example: EX.balanceStatement,
    errors: ['400', '409', ...COMMON],
  },
  listEvents: {
    method: 'GET',
    path: '/events',
    tag: 'Events',
    summary: 'List webhook events, newest first',
    description: "The site's webhook events with their delivery status, newest first.",
    response: 'EventList',
    responseDescription: 'A page',
    example: EX.eventList,
    query: 'listEvents',
    errors: LIST,
  },
  getEvent: {
    method: 'GET',
    path: '/events/:eventId',
    tag: 'Events',
    summary: 'Read an event with its delivery attempts',
    description: 'One event with every delivery attempt.',
    response: 'EventWithAttempts',
    responseDescription: 'The event',
    example: EX.eventWithAttempts,
    errors: LOOKUP,
  },
  replayEvent: {
    method: 'POST',
    path: '/events/:eventId/replay',
    tag: 'Events',
    summary: 'Deliver an event again (typically a DEAD one): a new delivery cycle with the same eventId',
    description: 'Starts a new delivery cycle of a DELIVERED or DEAD event with the same eventId and a fresh signature.',
    status: '202',
    response: 'Event',
    responseDescription: 'Accepted',
    example: EX.event,
    idempotent: true,
    errors: ['404', ...IDEMPOTENT_WRITE],
  },
  recoverEvents: {
    method: 'POST',
    path: '/events/recover',
    tag: 'Events',
    summary: 'Replay every DEAD event created in a time window',
    description:
      'Starts a new delivery cycle, as a single replay does, for each DEAD event of the site created at or after `since` and before `until` (default now). The window is at most 31 days. `eventIds` lists at most the first 1000 replayed, oldest first; `replayed` counts them all.',
    response: 'RecoverEventsResponse',
    responseDescription: 'Replayed, or the stored answer to a retry',
    example: EX.recoverEventsResponse,
    idempotent: true,
    body: { schema: 'recoverEvents', example: EX.recoverEventsRequest },
    errors: IDEMPOTENT_WRITE,
  },
  simulateTransfer: {
    method: 'POST',
    path: '/test/deposits/:intentId/transfers',
    tag: 'Sandbox',
    summary: 'Simulate money arriving for a test deposit',
    description:
      "Test keys only (404 for a live key; docs/sandbox.md). Sends simulated money for the deposit through the matching a real bank statement line takes: the deposit moves as it would (PENDING_REVIEW, LATE_ARRIVAL, a split, or nothing when the reference is wrong), every matching reason can be exercised with `amount`, `reference`, `senderName` and `late`, and the sandbox's straight-through rule approves a clean one (`intent.approved` follows).",
    status: '201',
    response: 'SimulatedTransfer',
    responseDescription: 'Recorded and matched',
    example: EX.simulatedTransfer,
    idempotent: true,
    body: { schema: 'simulateTransfer', example: { amount: '150000', senderName: 'Ayşe Yılmaz' } },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
  simulateDepositApproval: {
    method: 'POST',
    path: '/test/deposits/:intentId/approve',
    tag: 'Sandbox',
    summary: 'Approve a test deposit as an operator would',
    description:
      "Test keys only. The operators' approval (default: credit what arrived), with its journal posting and `intent.approved`; 409 unless money arrived for it.",
    response: 'SimulatedIntent',
    responseDescription: 'Approved',
    example: EX.simulatedIntent,
    idempotent: true,
    body: { schema: 'simulateApproval', example: {} },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
  simulateDepositRejection: {
    method: 'POST',
    path: '/test/deposits/:intentId/reject',
    tag: 'Sandbox',
    summary: 'Reject a test deposit as an operator would',
    description: "Test keys only. The operators' rejection, with `intent.rejected`; 409 unless money arrived for it.",
    response: 'SimulatedIntent',
    responseDescription: 'Rejected',
    example: { ...EX.simulatedIntent, status: 'REJECTED', approvedAt: null, rejectedReason: 'Rejected in the sandbox' },
    idempotent: true,
    body: { schema: 'simulateRejection', example: { reason: 'Sender is not the account holder', userReason: 'SENDER_NOT_ACCOUNT_HOLDER' } },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
  simulateDepositExpiry: {
    method: 'POST',
    path: '/test/deposits/:intentId/expire',
    tag: 'Sandbox',
    summary: 'Expire a test deposit now',
    description:
      'Test keys only. A RESERVED deposit (no money) is cancelled by the expiry itself, now: AUTO_CANCELLED, and `intent.auto_cancelled` when chosen.',
    response: 'SimulatedIntent',
    responseDescription: 'Cancelled',
    example: { ...EX.simulatedIntent, status: 'AUTO_CANCELLED', approvedAt: null, eventId: null },
    idempotent: true,
    body: { schema: 'simulateEmpty', example: {} },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
  simulateWithdrawalApproval: {
    method: 'POST',
    path: '/test/withdrawals/:withdrawalId/approve',
    tag: 'Sandbox',
    summary: 'Approve a test withdrawal as an operator would',
    description:
      "Test keys only. Reserves the amount on the sandbox's balance (409 when the balance does not cover it); no webhook until it is sent or rejected.",
    response: 'SimulatedWithdrawal',
    responseDescription: 'Approved',
    example: { ...EX.simulatedWithdrawal, status: 'APPROVED', sentAt: null, eventId: null },
    idempotent: true,
    body: { schema: 'simulateEmpty', example: {} },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
  simulateWithdrawalRejection: {
    method: 'POST',
    path: '/test/withdrawals/:withdrawalId/reject',
    tag: 'Sandbox',
    summary: 'Reject a test withdrawal as an operator would',
    description: 'Test keys only. With `withdrawal.rejected`.',
    response: 'SimulatedWithdrawal',
    responseDescription: 'Rejected',
    example: { ...EX.simulatedWithdrawal, status: 'REJECTED', sentAt: null, rejectedReason: 'Rejected in the sandbox' },
    idempotent: true,
    body: { schema: 'simulateRejection', example: { reason: "Target account is not the user's" } },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
  simulateWithdrawalSent: {
    method: 'POST',
    path: '/test/withdrawals/:withdrawalId/send',
    tag: 'Sandbox',
    summary: 'Pay out an approved test withdrawal, as the bank would',
    description: 'Test keys only. APPROVED -> SENT, with `withdrawal.sent`.',
    response: 'SimulatedWithdrawal',
    responseDescription: 'Sent',
    example: EX.simulatedWithdrawal,
    idempotent: true,
    body: { schema: 'simulateEmpty', example: {} },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
  simulateWithdrawalReturn: {
    method: 'POST',
    path: '/test/withdrawals/:withdrawalId/return',
    tag: 'Sandbox',
    summary: 'Return a sent test withdrawal, as the bank would',
    description:
      'Test keys only. SENT -> RETURNED with an ISO 20022 return reason code (default AC04), with `withdrawal.returned`; the amount is available again.',
    response: 'SimulatedWithdrawal',
    responseDescription: 'Returned',
    example: {
      ...EX.simulatedWithdrawal,
      status: 'RETURNED',
      returnedAt: '2026-02-02T09:12:44.120Z',
      returnReason: { code: 'AC04', text: 'Closed account number' },
    },
    idempotent: true,
    body: { schema: 'simulateReturn', example: { reasonCode: 'AC04' } },
    errors: [...IDEMPOTENT_WRITE, '404'],
  },
} as const satisfies Record<string, PartnerOperationSpec>;

/** The name of a partner operation (its operationId). */
export type PartnerOperationId = keyof typeof PARTNER_ROUTES;

/** Every partner operation as the document lists it: lower-case method and full path in the `{name}` form. */
export function partnerRouteList(): Array<{ operationId: PartnerOperationId; method: Lowercase<PartnerMethod>; path: string }> {
  return (Object.entries(PARTNER_ROUTES) as Array<[PartnerOperationId, PartnerOperationSpec]>).map(([operationId, spec]) => ({
    operationId,
    method: spec.method.toLowerCase() as Lowercase<PartnerMethod>,
    path: partnerDocumentPath(spec.path),
  }));
}

/** A table path as the document writes it: under the base path, `:name` as `{name}`. */
export function partnerDocumentPath(path: string): string {
  return `${PARTNER_BASE_PATH}${path.replace(/:(\w+)/g, '{$1}')}`;
}

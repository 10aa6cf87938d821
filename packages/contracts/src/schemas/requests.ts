/**
 * JSON Schemas of the partner API's requests (draft 2020-12, as used by ajv and the OpenAPI 3.1 document).
 * `x-message` is the human sentence a pattern or format failure reports.
 */
import { MINOR_UNITS_PATTERN } from '@kasa/money';
import {
  createPayoutBatchRequestSchema,
  importScreeningListQuerySchema,
  listScreeningHitsQuerySchema,
  decideScreeningHitRequestSchema,
  listRiskFlagsQuerySchema,
  riskReportQuerySchema,
  reviewRiskFlagRequestSchema,
  createOperatorRequestSchema,
  setOperatorScopeRequestSchema,
  createReceivingAccountRequestSchema,
  updateReceivingAccountRequestSchema,
  createSiteRequestSchema,
  issueApiKeyRequestSchema,
  issueOperatorTokenRequestSchema,
  secondFactorCodeRequestSchema,
  disableSecondFactorRequestSchema,
  listAuditQuerySchema,
  listSealsQuerySchema,
  createErasureRequestSchema,
  listErasureRequestsQuerySchema,
  placeLegalHoldSchema,
  listDestructionLogQuerySchema,
  listSitesQuerySchema,
  opsSearchQuerySchema,
  updateSiteRequestSchema,
  deliveryHealthQuerySchema,
  loginRequestSchema,
  markSentRequestSchema,
  recordBankLinesRequestSchema,
  rejectRequestSchema,
} from './ops.js';
import { OPS_RECORD_REQUEST_SCHEMAS } from '../ops-records/index.js';
import { testWebhookRequestSchema, updateWebhookConfigRequestSchema } from './webhooks.js';
import {
  simulateApprovalRequestSchema,
  simulateEmptyRequestSchema,
  simulateRejectionRequestSchema,
  simulateReturnRequestSchema,
  simulateTransferRequestSchema,
} from './sandbox.js';
import { returnUrl } from './return-url.js';
import { DEPOSIT_STATUSES, WITHDRAWAL_STATUSES, EVENT_STATUSES, EVENT_TYPES } from '../statuses.js';

const externalUserId = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9._:@-]+$',
  'x-message': 'must be 1 to 64 characters of A-Z, a-z, 0-9 and . _ : @ -',
  description: "The partner's identifier of the end user.",
} as const;

const externalUserLabel = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  // Printable: no control characters (C0, DEL, C1).
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]+$',
  'x-message': 'must be 1 to 128 printable characters',
  description: 'Short display label of the end user.',
} as const;

const amount = {
  type: 'string',
  pattern: MINOR_UNITS_PATTERN,
  'x-message': 'must be a string of digits in minor units (kurus) with no leading zero, sign or decimal point',
  description: 'Minor units (kurus) as a string of digits, e.g. "150000" for 1,500.00 TRY.',
  examples: ['150000'],
} as const;

const currency = {
  type: 'string',
  enum: ['TRY'],
  default: 'TRY',
  'x-message': 'must be TRY, the only active currency',
  description: 'ISO 4217 code; only TRY.',
} as const;

export const createDepositRequestSchema = {
  $id: 'CreateDepositRequest',
  type: 'object',
  additionalProperties: false,
  required: ['externalUserId', 'amount'],
  properties: { externalUserId, externalUserLabel, amount, currency, returnUrl },
} as const;

export const createWithdrawalRequestSchema = {
  $id: 'CreateWithdrawalRequest',
  type: 'object',
  additionalProperties: false,
  required: ['externalUserId', 'amount', 'targetIban', 'targetHolderName'],
  properties: {
    externalUserId,
    externalUserLabel,
    amount,
    currency,
    targetIban: {
      type: 'string',
      minLength: 15,
      maxLength: 42,
      'x-tr-iban': true,
      description: 'Destination TR IBAN, 26 characters with a valid checksum; spaces are ignored and letters upper-cased.',
      examples: ['TR330006100519786457841326'],
    },
    targetHolderName: {
      type: 'string',
      minLength: 2,
      maxLength: 140,
      // At least one letter: a name of only spaces or punctuation names nobody a bank could pay.
      pattern: "^(?=[^\\p{L}]*\\p{L})[\\p{L} .'-]+$",
      'x-message': "must be 2 to 140 characters: letters (Turkish ones too), spaces and . ' -, with at least one letter",
      description: 'Name of the destination account holder.',
    },
  },
} as const;

const timestamp = {
  type: 'string',
  format: 'date-time',
  'x-message': 'must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00.000Z',
} as const;

function statusList(values: readonly string[]) {
  return {
    type: 'string',
    pattern: `^(${values.join('|')})(,(${values.join('|')}))*$`,
    'x-message': `must be a comma-separated list of ${values.join(', ')}`,
    description: 'Comma-separated statuses.',
  } as const;
}

const limit = {
  type: 'string',
  pattern: '^(100|[1-9][0-9]?)$',
  'x-message': 'must be a whole number from 1 to 100',
  description: 'Page size, 1 to 100; default 50.',
} as const;

const cursor = {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  'x-message': 'must be the nextCursor of the previous page',
  description: 'Opaque; the nextCursor of the previous response, sent back unchanged with the same filters.',
} as const;

function listQuery<Id extends string, Extra extends object = Record<never, never>>(
  id: Id,
  statuses: readonly string[],
  extra: Extra = {} as Extra,
) {
  return {
    $id: id,
    type: 'object',
    additionalProperties: false,
    properties: { createdFrom: timestamp, createdTo: timestamp, status: statusList(statuses), cursor, limit, ...extra },
  } as const;
}

export const listIntentsQuerySchema = listQuery('ListIntentsQuery', DEPOSIT_STATUSES);
export const listWithdrawalsQuerySchema = listQuery('ListWithdrawalsQuery', WITHDRAWAL_STATUSES);
export const listEventsQuerySchema = listQuery('ListEventsQuery', EVENT_STATUSES, { type: statusList(EVENT_TYPES) });

/** `GET /balance-transactions`: the site's balance movements, newest first, in a `createdFrom`/`createdTo` window. */
export const listBalanceTransactionsQuerySchema = {
  $id: 'ListBalanceTransactionsQuery',
  type: 'object',
  additionalProperties: false,
  properties: { createdFrom: timestamp, createdTo: timestamp, cursor, limit },
} as const;

/** The longest window one recovery covers (docs/api.md, Events: recover DEAD events). */
export const RECOVER_WINDOW_MAX_DAYS = 31;

/** `POST /events/recover`: replay every DEAD event created in `[since, until)`; `until` defaults to now. */
export const recoverEventsRequestSchema = {
  $id: 'RecoverEventsRequest',
  type: 'object',
  additionalProperties: false,
  required: ['since'],
  properties: {
    since: { ...timestamp, description: 'Events created at or after this instant.' },
    until: {
      ...timestamp,
      description: `Events created before this instant; default now. At most ${RECOVER_WINDOW_MAX_DAYS} days after since.`,
    },
  },
} as const;

/** Every request schema by the name routes give it: the partner API's, the ops API's and each reviewed record kind's. */
export const REQUEST_SCHEMAS = {
  createSite: createSiteRequestSchema,
  listSites: listSitesQuerySchema,
  opsSearch: opsSearchQuerySchema,
  updateSite: updateSiteRequestSchema,
  deliveryHealth: deliveryHealthQuerySchema,
  createReceivingAccount: createReceivingAccountRequestSchema,
  updateReceivingAccount: updateReceivingAccountRequestSchema,
  issueApiKey: issueApiKeyRequestSchema,
  createDeposit: createDepositRequestSchema,
  createWithdrawal: createWithdrawalRequestSchema,
  listIntents: listIntentsQuerySchema,
  listWithdrawals: listWithdrawalsQuerySchema,
  listEvents: listEventsQuerySchema,
  listBalanceTransactions: listBalanceTransactionsQuerySchema,
  updateWebhookConfig: updateWebhookConfigRequestSchema,
  testWebhook: testWebhookRequestSchema,
  simulateTransfer: simulateTransferRequestSchema,
  simulateApproval: simulateApprovalRequestSchema,
  simulateRejection: simulateRejectionRequestSchema,
  simulateReturn: simulateReturnRequestSchema,
  simulateEmpty: simulateEmptyRequestSchema,
  recoverEvents: recoverEventsRequestSchema,
  operatorLogin: loginRequestSchema,
  createOperator: createOperatorRequestSchema,
  setOperatorScope: setOperatorScopeRequestSchema,
  issueOperatorToken: issueOperatorTokenRequestSchema,
  secondFactorCode: secondFactorCodeRequestSchema,
  disableSecondFactor: disableSecondFactorRequestSchema,
  recordBankLines: recordBankLinesRequestSchema,
  // Deposits, withdrawals, bank transfers and returns to senders: each reviewed record kind's, from its module.
  ...OPS_RECORD_REQUEST_SCHEMAS,
  reject: rejectRequestSchema,
  markSent: markSentRequestSchema,
  createPayoutBatch: createPayoutBatchRequestSchema,
  listAudit: listAuditQuerySchema,
  importScreeningList: importScreeningListQuerySchema,
  listScreeningHits: listScreeningHitsQuerySchema,
  decideScreeningHit: decideScreeningHitRequestSchema,
  listRiskFlags: listRiskFlagsQuerySchema,
  riskReport: riskReportQuerySchema,
  reviewRiskFlag: reviewRiskFlagRequestSchema,
  listSeals: listSealsQuerySchema,
  createErasureRequest: createErasureRequestSchema,
  listErasureRequests: listErasureRequestsQuerySchema,
  placeLegalHold: placeLegalHoldSchema,
  listDestructionLog: listDestructionLogQuerySchema,
} as const;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;

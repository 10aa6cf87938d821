/**
 * JSON Schemas of the partner API's responses. The OpenAPI document uses them, and the contract test
 * validates real responses of the running gateway against them, so code and document cannot drift apart.
 */
import { ERROR_REASONS, ERROR_STATUS } from '../errors.js';
import { DEPOSIT_STATUSES, EVENT_STATUSES, EVENT_TYPES, MATCH_REASONS, WITHDRAWAL_STATUSES } from '../statuses.js';
import { WEBHOOK_EVENT_SCHEMAS } from './webhook-events.js';
import {
  BALANCE_STATEMENT_FORMAT,
  BALANCE_STATEMENT_TIME_ZONE,
  BALANCE_TRANSACTION_TYPES,
  PARTNER_BALANCES,
} from '../balance-statement.js';

const timestamp = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' } as const;
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' } as const;
const amount = { type: 'string', pattern: '^[1-9][0-9]*$', description: 'Minor units (kurus), as a string.' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const referenceNo = { type: 'string', pattern: '^K[DW][23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$' } as const;

export const depositIntentSchema = {
  $id: 'DepositIntent',
  type: 'object',
  additionalProperties: false,
  required: [
    'intentId',
    'referenceNo',
    'status',
    'amount',
    'currency',
    'approvedAt',
    'rejectedAt',
    'rejectedReason',
    'createdAt',
    'updatedAt',
  ],
  properties: {
    intentId: uuid,
    referenceNo,
    status: { type: 'string', enum: [...DEPOSIT_STATUSES] },
    amount,
    currency: { type: 'string', enum: ['TRY'] },
    approvedAt: nullableTimestamp,
    rejectedAt: nullableTimestamp,
    rejectedReason: { type: ['string', 'null'] },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
} as const;

export const depositIntentListItemSchema = {
  ...depositIntentSchema,
  $id: 'DepositIntentListItem',
  required: [...depositIntentSchema.required, 'requestedAmount'],
  properties: { ...depositIntentSchema.properties, requestedAmount: amount },
} as const;

export const createDepositResponseSchema = {
  $id: 'CreateDepositResponse',
  type: 'object',
  additionalProperties: false,
  required: ['intentId', 'referenceNo', 'depositUrl', 'amount', 'currency', 'expiresAt'],
  properties: {
    intentId: uuid,
    referenceNo,
    depositUrl: { type: 'string', format: 'uri', description: 'Hosted deposit page; carries an unguessable token.' },
    amount,
    currency: { type: 'string', enum: ['TRY'] },
    expiresAt: timestamp,
  },
} as const;

export const withdrawalSchema = {
  $id: 'Withdrawal',
  type: 'object',
  additionalProperties: false,
  required: [
    'withdrawalId',
    'referenceNo',
    'status',
    'amount',
    'currency',
    'sentAt',
    'rejectedAt',
    'rejectedReason',
    'createdAt',
    'updatedAt',
    'returnedAt',
    'returnReason',
  ],
  properties: {
    withdrawalId: uuid,
    referenceNo,
    status: { type: 'string', enum: [...WITHDRAWAL_STATUSES] },
    amount,
    currency: { type: 'string', enum: ['TRY'] },
    sentAt: nullableTimestamp,
    rejectedAt: nullableTimestamp,
    rejectedReason: { type: ['string', 'null'] },
    createdAt: timestamp,
    updatedAt: timestamp,
    returnedAt: { ...nullableTimestamp, description: 'When the bank sent the payout back (RETURNED).' },
    returnReason: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['code', 'text'],
      description:
        'Why the bank sent it back (RETURNED): `code` the ISO 20022 return reason (AC01 incorrect account number, AC04 closed account, AC06 blocked account, AM04 insufficient funds, AM05 duplication, BE01 name does not match, MS03 not specified) when the bank gave one, else null; `text` in words.',
      properties: { code: { type: ['string', 'null'], pattern: '^[A-Z]{2}[0-9]{2}$' }, text: { type: 'string' } },
    },
  },
} as const;

export const withdrawalListItemSchema = {
  ...withdrawalSchema,
  $id: 'WithdrawalListItem',
  required: [...withdrawalSchema.required, 'requestedAmount'],
  properties: { ...withdrawalSchema.properties, requestedAmount: amount },
} as const;

export const createWithdrawalResponseSchema = {
  $id: 'CreateWithdrawalResponse',
  type: 'object',
  additionalProperties: false,
  required: ['withdrawalId', 'referenceNo'],
  properties: { withdrawalId: uuid, referenceNo },
} as const;

export function listResponseSchema<const Id extends string, const Item extends string>(id: Id, item: { $id: Item }) {
  return {
    $id: id,
    type: 'object',
    additionalProperties: false,
    required: ['data', 'nextCursor'],
    properties: {
      data: { type: 'array', items: { $ref: item.$id } },
      nextCursor: { type: ['string', 'null'], description: 'Opaque. Null when the range is exhausted.' },
    },
  } as const;
}

export const problemSchema = {
  $id: 'Problem',
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'error'],
  properties: {
    type: {
      type: 'string',
      format: 'uri',
      description: 'Where the error code is explained: its section of docs/errors.md. Branch on `error`, not on this.',
    },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    error: { type: 'string', enum: Object.keys(ERROR_STATUS) },
    reason: {
      type: 'string',
      enum: ERROR_REASONS,
      description:
        "Which case of `error` this is, where a caller must tell cases apart (the cases of `conflict`, and of an operator's " +
        'second factor on `unauthorized` and `forbidden`, listed in docs/errors.md). Branch on `error` and `reason`, never on ' +
        '`detail`: its wording may change.',
    },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    requestId: { type: 'string' },
  },
} as const;

/** The event types a site receives: the five always sent, then the opt-in ones it chose. */
const subscribedEventTypes = {
  type: 'array',
  items: { type: 'string', enum: [...EVENT_TYPES] },
  description: 'Every event type the site receives: the five always sent, then the opt-in ones it chose.',
} as const;

export const webhookConfigResponseSchema = {
  $id: 'WebhookConfigResponse',
  type: 'object',
  additionalProperties: false,
  required: ['webhookUrl', 'webhookSecret', 'rotatedAt', 'eventTypes'],
  properties: {
    webhookUrl: { type: 'string', format: 'uri' },
    webhookSecret: {
      type: ['string', 'null'],
      pattern: '^whsec_[A-Za-z0-9_-]{43}$',
      description: 'Returned once, only when rotateSecret is true; null otherwise.',
    },
    rotatedAt: timestamp,
    eventTypes: subscribedEventTypes,
  },
} as const;

/** What `GET /site/webhook-config` answers: the site's current URL and last rotation, never the secret. */
export const webhookConfigSchema = {
  $id: 'WebhookConfig',
  type: 'object',
  additionalProperties: false,
  required: ['webhookUrl', 'rotatedAt', 'eventTypes'],
  properties: {
    webhookUrl: { type: ['string', 'null'], format: 'uri', description: 'The delivery target; null when none is set.' },
    rotatedAt: { ...nullableTimestamp, description: 'When the URL or secret was last changed through the API; null when never.' },
    eventTypes: subscribedEventTypes,
  },
} as const;

/** What `POST /test/webhooks` answers: how the one attempt went (no retry, nothing recorded). */
export const testWebhookResponseSchema = {
  $id: 'TestWebhookResponse',
  type: 'object',
  additionalProperties: false,
  required: ['delivered', 'statusCode', 'durationMs', 'error'],
  properties: {
    delivered: { type: 'boolean', description: 'true when the receiver answered 2xx.' },
    statusCode: { type: ['integer', 'null'], description: "The receiver's HTTP status; null when no answer arrived." },
    durationMs: { type: 'integer', minimum: 0 },
    error: { type: ['string', 'null'], description: 'Why no answer arrived (network error, timeout, refused URL); null otherwise.' },
  },
} as const;

/** What `GET /balance` answers: the calling site's journal balances, in minor units. */
export const balanceSchema = {
  $id: 'Balance',
  type: 'object',
  additionalProperties: false,
  required: ['available', 'reserved', 'currency'],
  properties: {
    available: { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'Owed to the site and free to pay out (kurus), as a string.' },
    reserved: {
      type: 'string',
      pattern: '^(0|[1-9][0-9]*)$',
      description: 'Earmarked for approved withdrawals not sent yet (kurus), as a string.',
    },
    currency: { type: 'string', enum: ['TRY'] },
  },
} as const;

const balanceFigure = {
  type: 'string',
  pattern: '^(0|-?[1-9][0-9]*)$',
  description: 'Minor units (kurus), as a string; the site is owed this much.',
} as const;

/** One movement of the site's `available` or `reserved` balance: one leg of a journal posting (docs/api.md). */
export const balanceTransactionSchema = {
  $id: 'BalanceTransaction',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'balance', 'type', 'amount', 'currency', 'intentId', 'withdrawalId', 'referenceNo', 'createdAt'],
  properties: {
    id: { ...uuid, description: 'The movement, stable: the same movement always has the same id.' },
    balance: { type: 'string', enum: [...PARTNER_BALANCES], description: 'The balance it moved.' },
    type: {
      type: 'string',
      enum: [...BALANCE_TRANSACTION_TYPES],
      description: 'What moved it. The list may grow (docs/versioning.md): a type you do not know still moves `balance` by `amount`.',
    },
    amount: {
      type: 'string',
      pattern: '^-?[1-9][0-9]*$',
      description: 'Minor units (kurus), signed: positive adds to the balance, negative takes from it.',
    },
    currency: { type: 'string', enum: ['TRY'] },
    intentId: { type: ['string', 'null'], format: 'uuid', description: 'The deposit intent that moved it; null for any other movement.' },
    withdrawalId: { type: ['string', 'null'], format: 'uuid', description: 'The withdrawal that moved it; null for any other movement.' },
    referenceNo: {
      ...referenceNo,
      description: "The deposit's or withdrawal's reference, or an adjustment's (`KA...`), which the service's support can look up.",
    },
    createdAt: { ...timestamp, description: 'When the posting was made; it decides the statement day.' },
  },
} as const;

/** A movement in a signed daily statement: a balance transaction and the balance it left. */
export const balanceStatementMovementSchema = {
  ...balanceTransactionSchema,
  $id: 'BalanceStatementMovement',
  required: [...balanceTransactionSchema.required, 'balanceAfter'],
  properties: {
    ...balanceTransactionSchema.properties,
    balanceAfter: { ...balanceFigure, description: 'The moved balance after this movement, in statement order (kurus).' },
  },
} as const;

const balances = {
  type: 'object',
  additionalProperties: false,
  required: [...PARTNER_BALANCES],
  properties: { available: balanceFigure, reserved: balanceFigure },
} as const;

/** `GET /balance-statements/{date}`: one finished Istanbul day of the site's balance movements, signed. */
export const balanceStatementSchema = {
  $id: 'BalanceStatement',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'siteId', 'livemode', 'date', 'timeZone', 'from', 'to', 'currency', 'opening', 'closing', 'movements', 'signature'],
  properties: {
    format: { type: 'string', enum: [BALANCE_STATEMENT_FORMAT] },
    siteId: { ...uuid, description: 'The site (its sandbox for a test key) the statement is of.' },
    livemode: { type: 'boolean', description: 'false for the sandbox of a test key.' },
    date: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'The calendar day in Europe/Istanbul.' },
    timeZone: { type: 'string', enum: [BALANCE_STATEMENT_TIME_ZONE] },
    from: { ...timestamp, description: 'Start of the day (inclusive), UTC.' },
    to: { ...timestamp, description: 'End of the day (exclusive), UTC.' },
    currency: { type: 'string', enum: ['TRY'] },
    opening: { ...balances, description: 'The balances at `from`.' },
    closing: { ...balances, description: "The balances at `to`: opening plus the day's movements of each balance." },
    movements: {
      type: 'array',
      items: { $ref: 'BalanceStatementMovement' },
      description: 'Every movement of the day, oldest first (createdAt, then id).',
    },
    signature: {
      type: 'object',
      additionalProperties: false,
      required: ['algorithm', 'keyId', 'value'],
      properties: {
        algorithm: { type: 'string', enum: ['ed25519'] },
        keyId: { type: 'string', description: 'Which published key (`GET /balance-statements/keys`) verifies it.' },
        value: {
          type: 'string',
          description: 'base64 ed25519 signature of the canonical JSON of every other member (keys sorted, no spaces), UTF-8.',
        },
      },
    },
  },
} as const;

/** `GET /balance-statements/keys`: the public keys that verify statements. */
export const balanceStatementKeysSchema = {
  $id: 'BalanceStatementKeys',
  type: 'object',
  additionalProperties: false,
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['keyId', 'algorithm', 'publicKey', 'publicKeyPem'],
        properties: {
          keyId: { type: 'string', description: 'The first 16 hex characters of the SHA-256 of the raw public key.' },
          algorithm: { type: 'string', enum: ['ed25519'] },
          publicKey: { type: 'string', description: 'The raw 32-byte ed25519 public key, base64.' },
          publicKeyPem: { type: 'string', description: 'The same key as an SPKI PEM document.' },
        },
      },
    },
  },
} as const;

/** What `POST /events/recover` answers. */
export const recoverEventsResponseSchema = {
  $id: 'RecoverEventsResponse',
  type: 'object',
  additionalProperties: false,
  required: ['replayed', 'eventIds'],
  properties: {
    replayed: { type: 'integer', minimum: 0, description: 'How many DEAD events were put back for delivery.' },
    eventIds: {
      type: 'array',
      maxItems: 1000,
      items: uuid,
      description: 'The replayed events, oldest first; only the first 1000 when more were replayed (`replayed` counts them all).',
    },
  },
} as const;

export const eventSchema = {
  $id: 'Event',
  type: 'object',
  additionalProperties: false,
  required: ['eventId', 'type', 'status', 'createdAt', 'attemptCount', 'payload'],
  properties: {
    eventId: uuid,
    type: { type: 'string', enum: [...EVENT_TYPES] },
    status: { type: 'string', enum: [...EVENT_STATUSES] },
    createdAt: timestamp,
    attemptCount: { type: 'integer', minimum: 0 },
    lastAttemptAt: nullableTimestamp,
    deliveredAt: nullableTimestamp,
    deadAt: nullableTimestamp,
    nextAttemptAt: {
      ...nullableTimestamp,
      description:
        'When the next delivery attempt is due while the event is PENDING: the start of its delivery cycle (creation or replay) before any attempt of that cycle, then lastAttemptAt plus the retry delay (5 minutes). An earliest time: the worker may send later under back-pressure, and a past value means due now. Null once DELIVERED or DEAD.',
    },
    payload: {
      description:
        "The webhook body exactly as delivered: a deposit's event (`intent.*`) or a withdrawal's (`withdrawal.*`), `type` saying which. Never a test webhook: those are not events.",
      oneOf: [{ $ref: 'IntentWebhookEvent' }, { $ref: 'WithdrawalWebhookEvent' }],
    },
  },
} as const;

/** What the ledger answers for each attempt (AttemptView, from the `delivery_attempts` row). */
export const deliveryAttemptSchema = {
  $id: 'DeliveryAttempt',
  type: 'object',
  additionalProperties: false,
  required: ['attemptNo', 'url', 'startedAt', 'durationMs', 'statusCode', 'error', 'responseBody'],
  properties: {
    attemptNo: { type: 'integer', minimum: 1 },
    url: {
      type: 'string',
      // Not `format: uri`: an attempt made while the site had no webhook URL records a sentence instead.
      description: 'The webhook URL the attempt was sent to; "(no webhook URL configured)" when the site had none.',
    },
    startedAt: timestamp,
    durationMs: { type: 'integer', minimum: 0 },
    statusCode: { type: ['integer', 'null'], description: "The receiver's HTTP status; null when no response arrived." },
    error: {
      type: ['string', 'null'],
      maxLength: 1000,
      description: 'Why no complete answer arrived (connection error, timeout, refused URL, missing configuration); null when one did.',
    },
    responseBody: {
      type: ['string', 'null'],
      maxLength: 4096,
      description: "The first 4 KiB (4096 bytes, read as UTF-8) of the receiver's answer; null exactly when statusCode is null.",
    },
  },
} as const;

export const eventWithAttemptsSchema = {
  ...eventSchema,
  $id: 'EventWithAttempts',
  required: [...eventSchema.required, 'attempts'],
  properties: { ...eventSchema.properties, attempts: { type: 'array', items: { $ref: 'DeliveryAttempt' } } },
} as const;

/** The sandbox simulator's answers (docs/sandbox.md): the record after the step, with the event it wrote. */
const simulatorEventId = {
  type: ['string', 'null'],
  format: 'uuid',
  description: 'The webhook event the step wrote; null when none.',
} as const;

export const simulatedTransferSchema = {
  $id: 'SimulatedTransfer',
  type: 'object',
  additionalProperties: false,
  required: [
    'bankTransferId',
    'status',
    'amount',
    'receivedAt',
    'matchReasons',
    'unmatchedReason',
    'suggestions',
    'autoApproved',
    'intent',
  ],
  description: 'What matching made of the simulated money, and the deposit as it now is.',
  properties: {
    bankTransferId: { type: 'string', format: 'uuid' },
    status: {
      type: 'string',
      enum: ['MATCHED', 'UNMATCHED'],
      description: 'MATCHED: it paid the deposit; UNMATCHED: it waits for an operator.',
    },
    amount: { type: 'string' },
    receivedAt: { type: 'string', format: 'date-time' },
    matchReasons: { type: 'array', items: { type: 'string', enum: [...MATCH_REASONS] } },
    unmatchedReason: { type: ['string', 'null'] },
    suggestions: {
      type: 'array',
      description: 'Deposits a near reference names, best first (a real operator would confirm one).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['intentId', 'referenceNo', 'confidence', 'reasons'],
        properties: {
          intentId: { type: 'string', format: 'uuid' },
          referenceNo: { type: 'string' },
          confidence: { type: 'integer', minimum: 0, maximum: 100 },
          reasons: { type: 'array', items: { type: 'string', enum: [...MATCH_REASONS] } },
        },
      },
    },
    autoApproved: { type: 'boolean', description: "The sandbox's straight-through rule approved the deposit (`intent.approved` follows)." },
    intent: { $ref: 'DepositIntent' },
  },
} as const;

export const simulatedIntentSchema = {
  $id: 'SimulatedIntent',
  type: 'object',
  additionalProperties: false,
  required: [...depositIntentSchema.required, 'eventId'],
  properties: { ...depositIntentSchema.properties, eventId: simulatorEventId },
} as const;

export const simulatedWithdrawalSchema = {
  $id: 'SimulatedWithdrawal',
  type: 'object',
  additionalProperties: false,
  required: [...withdrawalSchema.required, 'eventId'],
  properties: { ...withdrawalSchema.properties, eventId: simulatorEventId },
} as const;

export const RESPONSE_SCHEMAS = {
  ...WEBHOOK_EVENT_SCHEMAS,
  SimulatedTransfer: simulatedTransferSchema,
  SimulatedIntent: simulatedIntentSchema,
  SimulatedWithdrawal: simulatedWithdrawalSchema,
  WebhookConfigResponse: webhookConfigResponseSchema,
  WebhookConfig: webhookConfigSchema,
  TestWebhookResponse: testWebhookResponseSchema,
  Balance: balanceSchema,
  BalanceTransaction: balanceTransactionSchema,
  BalanceTransactionList: listResponseSchema('BalanceTransactionList', balanceTransactionSchema),
  BalanceStatementMovement: balanceStatementMovementSchema,
  BalanceStatement: balanceStatementSchema,
  BalanceStatementKeys: balanceStatementKeysSchema,
  RecoverEventsResponse: recoverEventsResponseSchema,
  Event: eventSchema,
  DeliveryAttempt: deliveryAttemptSchema,
  EventWithAttempts: eventWithAttemptsSchema,
  EventList: listResponseSchema('EventList', eventSchema),
  DepositIntent: depositIntentSchema,
  DepositIntentListItem: depositIntentListItemSchema,
  CreateDepositResponse: createDepositResponseSchema,
  Withdrawal: withdrawalSchema,
  WithdrawalListItem: withdrawalListItemSchema,
  CreateWithdrawalResponse: createWithdrawalResponseSchema,
  DepositIntentList: listResponseSchema('DepositIntentList', depositIntentListItemSchema),
  WithdrawalList: listResponseSchema('WithdrawalList', withdrawalListItemSchema),
  Problem: problemSchema,
} as const;

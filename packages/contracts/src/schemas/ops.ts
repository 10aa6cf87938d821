/**
 * JSON Schemas of the ops API's requests (operators and the kasa CLI). A reviewed record kind's own bodies and
 * list query are in its module (../ops-records/); the bodies several kinds take (`reject`, `markSent`) stay here.
 */
import { recordBankTransferRequestSchema } from '../ops-records/bank-transfers.js';
import { amountBound, bankTxId, opsPage, opsTimestamp, purposeCode, reason, uuid } from './ops-common.js';
import { returnUrl } from './return-url.js';
import { webhookUrlProperty } from './webhooks.js';

/** A site's or an operator's name: printable, with at least one letter. */
const displayName = {
  type: 'string',
  minLength: 1,
  maxLength: 140,
  pattern: '^(?=[^\\p{L}]*\\p{L})[^\\u0000-\\u001f\\u007f]+$',
  'x-message': 'must be 1 to 140 printable characters with at least one letter',
} as const;

export const createSiteRequestSchema = {
  $id: 'CreateSiteRequest',
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'name'],
  properties: {
    slug: {
      type: 'string',
      minLength: 2,
      maxLength: 32,
      pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
      'x-message': 'must be 2 to 32 lower-case letters, digits and single hyphens (it becomes part of API keys)',
    },
    name: displayName,
    webhookUrl: webhookUrlProperty,
    rateLimitPerMinute: { type: 'integer', minimum: 1, maximum: 100000 },
    depositTtlSeconds: { type: 'integer', minimum: 1, maximum: 604800 },
    minAmount: amountBound,
    maxAmount: amountBound,
    returnUrl: {
      ...returnUrl,
      description: "The hosted deposit page's link back to the site when a deposit has no returnUrl of its own.",
    },
  },
} as const;

/**
 * An admin's change to a site's settings: only the fields given change. `returnUrl: null` removes the
 * site's way back; the slug (part of every API key) never changes.
 */
export const updateSiteRequestSchema = {
  $id: 'UpdateSiteRequest',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  'x-message': 'must change at least one setting',
  properties: {
    name: displayName,
    webhookUrl: webhookUrlProperty,
    rateLimitPerMinute: createSiteRequestSchema.properties.rateLimitPerMinute,
    depositTtlSeconds: createSiteRequestSchema.properties.depositTtlSeconds,
    minAmount: amountBound,
    maxAmount: amountBound,
    returnUrl: {
      oneOf: [{ ...returnUrl, description: undefined }, { type: 'null' }],
      description: "The hosted deposit page's link back when a deposit names none; null removes it.",
    },
    dualApprovalAbove: {
      type: ['string', 'null'],
      pattern: '^(0|[1-9][0-9]{0,17})$',
      'x-message': 'must be a string of digits in minor units (0 or more, no leading zero), or null',
      description:
        'Four-eyes: a withdrawal or return to a sender above this (kurus) needs approvals from two different operators; null goes back to the service default (DUAL_APPROVAL_ABOVE_KURUS).',
    },
    autoApprove: {
      type: 'object',
      additionalProperties: false,
      required: ['enabled'],
      description:
        'Straight-through approval: a deposit paid by one on-time imported transfer with its exact reference and exactly its amount, at most `maxAmount`, from a sender matching the user when `requireSenderMatch`, is approved by the service. Settings left out keep their value.',
      properties: {
        enabled: { type: 'boolean' },
        maxAmount: amountBound,
        requireSenderMatch: { type: 'boolean' },
      },
    },
    screenDepositSenders: {
      type: 'boolean',
      description:
        "Screen the sender's name of every bank transfer credited to the site's live deposits against the sanctions and asset-freeze lists (docs/compliance.md): a hit holds the deposit from approval until two admins decide it. House-wide admins only.",
    },
  },
} as const;

export const createReceivingAccountRequestSchema = {
  $id: 'CreateReceivingAccountRequest',
  type: 'object',
  additionalProperties: false,
  required: ['bankName', 'holderName', 'iban'],
  properties: {
    bankName: { type: 'string', minLength: 2, maxLength: 140 },
    holderName: { type: 'string', minLength: 2, maxLength: 140 },
    iban: {
      type: 'string',
      minLength: 15,
      maxLength: 42,
      'x-tr-iban': true,
      description: 'TR IBAN, 26 characters with a valid checksum; spaces are ignored and letters upper-cased.',
    },
    accountNumber: {
      type: ['string', 'null'],
      pattern: '^[0-9]{5,20}$',
      'x-message': 'must be the account number: 5 to 20 digits, or null',
      description:
        "The bank's own number for the account (digits, leading zeros kept), for statements that name it instead of the IBAN (docs/statements.md, Whose statement).",
    },
    branchCode: {
      type: ['string', 'null'],
      pattern: '^[0-9]{1,5}$',
      'x-message': 'must be the branch code: 1 to 5 digits, or null',
      description: 'The branch (şube) code the bank writes beside the account number, e.g. `00763` in `0067-00763/93984487`.',
    },
  },
} as const;

/** An admin's change to a receiving account: only the fields given change; its IBAN never does. */
export const updateReceivingAccountRequestSchema = {
  $id: 'UpdateReceivingAccountRequest',
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  'x-message': 'must change at least one field',
  properties: {
    bankName: createReceivingAccountRequestSchema.properties.bankName,
    holderName: createReceivingAccountRequestSchema.properties.holderName,
    accountNumber: createReceivingAccountRequestSchema.properties.accountNumber,
    branchCode: createReceivingAccountRequestSchema.properties.branchCode,
  },
} as const;

export const issueApiKeyRequestSchema = {
  $id: 'IssueApiKeyRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: {
      type: 'string',
      enum: ['live', 'test'],
      description: "`test`: a key of the site's sandbox (`sk_test_`), created with its first test key. Default `live`.",
    },
  },
} as const;

// ---- Operators, review and money movement (ops API) ----

export const loginRequestSchema = {
  $id: 'OperatorLoginRequest',
  type: 'object',
  additionalProperties: false,
  required: ['email', 'password'],
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 1024 },
    code: {
      type: 'string',
      minLength: 1,
      maxLength: 32,
      description:
        'The second-factor code (6 digits from the authenticator app) or an unused recovery code; asked for by 401 `otp_required`.',
    },
  },
} as const;

/** A second-factor code: six digits from the authenticator app, or (where allowed) a recovery code. */
export const secondFactorCodeRequestSchema = {
  $id: 'SecondFactorCodeRequest',
  type: 'object',
  additionalProperties: false,
  required: ['code'],
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 32, description: 'Six digits from the authenticator app, or a recovery code.' },
  },
} as const;

/** Turning a second factor off: an operator's own needs a code; an admin turning off someone else's does not. */
export const disableSecondFactorRequestSchema = {
  $id: 'DisableSecondFactorRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 32, description: "A current code or a recovery code; required for one's own." },
  },
} as const;

/** The live sites an operator is limited to (their test twins too); empty: every site. */
const operatorSiteIds = {
  type: 'array',
  maxItems: 500,
  uniqueItems: true,
  items: uuid,
  description: 'The live sites the operator may see and act on (their test twins too); empty or left out: every site.',
  'x-message': 'must be a list of distinct site ids (UUIDs)',
} as const;

export const createOperatorRequestSchema = {
  $id: 'CreateOperatorRequest',
  type: 'object',
  additionalProperties: false,
  required: ['email', 'name', 'role'],
  properties: {
    email: { type: 'string', maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', 'x-message': 'must be an e-mail address' },
    name: displayName,
    role: { type: 'string', enum: ['REVIEWER', 'ADMIN', 'CONNECTOR'], 'x-message': 'must be REVIEWER, ADMIN or CONNECTOR' },
    password: { type: 'string', minLength: 12, maxLength: 1024, 'x-message': 'must be at least 12 characters' },
    siteIds: operatorSiteIds,
  },
} as const;

/** `PATCH /ops/v1/operators/:operatorId`: an operator's scope (docs/operations.md, Operator scopes). */
export const setOperatorScopeRequestSchema = {
  $id: 'SetOperatorScopeRequest',
  type: 'object',
  additionalProperties: false,
  required: ['siteIds'],
  properties: { siteIds: operatorSiteIds },
} as const;

export const issueOperatorTokenRequestSchema = {
  $id: 'IssueOperatorTokenRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    label: { type: 'string', minLength: 1, maxLength: 140 },
    /** Omit for a token that lives until revoked (scripts); the console's login tokens always expire. */
    expiresInSeconds: { type: 'integer', minimum: 60, maximum: 31536000 },
  },
} as const;

/**
 * A bank line's amount: at most 15 digits of kuruş, the bound a statement file's lines have too (docs/statements.md,
 * Limits; MAX_AMOUNT_DIGITS in @kasa/statements): far above any real payment, far inside PostgreSQL's bigint.
 */
const bankLineAmount = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,14}$',
  'x-message': 'must be a string of at most 15 digits in minor units with no leading zero',
} as const;

/** Text a bank gave: no control characters but tab, line feed and carriage return (the statement files' rule). */
const bankText = (maxLength: number) =>
  ({
    type: 'string',
    maxLength,
    pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$',
    'x-message': `must be at most ${maxLength} characters with no control characters but tab and line breaks`,
  }) as const;

/** One line a bank connector posts: a credit (money in, recorded as a transfer) or a debit (money out, kept). */
const bankLineSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['bankTxId', 'direction', 'amount', 'receivedAt', 'senderName', 'senderIban', 'description'],
  properties: {
    bankTxId: recordBankTransferRequestSchema.properties.bankTxId,
    direction: { type: 'string', enum: ['credit', 'debit'], 'x-message': 'must be credit or debit' },
    amount: bankLineAmount,
    currency: recordBankTransferRequestSchema.properties.currency,
    receivedAt: opsTimestamp,
    senderName: { ...bankText(140), description: 'The counterparty: the sender of a credit, the payee of a debit.' },
    senderIban: {
      type: 'string',
      maxLength: 42,
      description: "The counterparty's IBAN; spaces are ignored and letters upper-cased. May be empty when the bank gives none.",
    },
    description: bankText(500),
    purpose: {
      ...purposeCode,
      description:
        "The transfer's declared purpose when the bank gives one (ISO 20022 ExternalPurpose1Code such as `SALA`, or the bank's own code); kept on the transfer as a statement's is (docs/statements.md).",
    },
  },
} as const;

export const recordBankLinesRequestSchema = {
  $id: 'RecordBankLinesRequest',
  type: 'object',
  additionalProperties: false,
  required: ['lines'],
  properties: {
    lines: { type: 'array', minItems: 1, maxItems: 500, items: bankLineSchema, 'x-message': 'must hold 1 to 500 lines' },
  },
} as const;

export const rejectRequestSchema = {
  $id: 'RejectRequest',
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason },
} as const;

/** POST /ops/v1/payout-batches: which withdrawals (default: every approved payout not yet batched) and the paying account. */
export const createPayoutBatchRequestSchema = {
  $id: 'CreatePayoutBatchRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    withdrawalIds: { type: 'array', minItems: 1, maxItems: 5000, items: { type: 'string', format: 'uuid' } },
    accountId: { type: 'string', format: 'uuid', description: 'The paying receiving account; the oldest active one when left out.' },
  },
} as const;

export const markSentRequestSchema = {
  $id: 'MarkSentRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    bankTxId,
  },
} as const;

const shortText = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9._:-]+$',
  'x-message': 'must be 1 to 64 of A-Z a-z 0-9 . _ : -',
} as const;

export const listAuditQuerySchema = {
  $id: 'ListAuditQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    createdFrom: opsTimestamp,
    createdTo: opsTimestamp,
    ...opsPage,
    siteId: uuid,
    actorId: shortText,
    action: shortText,
    entityType: shortText,
    entityId: shortText,
  },
} as const;

/** `GET /ops/v1/seals`: the page window only (the seals of the history chains, newest first). */
export const listSealsQuerySchema = {
  $id: 'ListSealsQuery',
  type: 'object',
  additionalProperties: false,
  properties: { ...opsPage },
} as const;

export const opsSearchQuerySchema = {
  $id: 'OpsSearchQuery',
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: {
    q: {
      type: 'string',
      minLength: 1,
      maxLength: 140,
      pattern: '\\S',
      'x-message': 'must be 1 to 140 characters and not only spaces',
      description: "A reference (any case, spaces and dashes ignored), an id, the partner's user id, a name, or an IBAN's last digits.",
    },
    limit: opsPage.limit,
  },
} as const;

export const deliveryHealthQuerySchema = {
  $id: 'DeliveryHealthQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    siteId: uuid,
    hours: {
      type: 'string',
      pattern: '^([1-9]|[1-9][0-9]|[1-6][0-9][0-9]|70[0-9]|71[0-9]|720)$',
      'x-message': 'must be a whole number of hours from 1 to 720',
      description: 'The window of attempts that success rates count, in hours (24 unless given; at most 720).',
    },
  },
} as const;

export const listSitesQuerySchema = {
  $id: 'ListSitesQuery',
  type: 'object',
  additionalProperties: false,
  properties: opsPage,
} as const;

/** `POST /ops/v1/screening/lists`' query: which published format the file is in, and a national list's name. */
export const importScreeningListQuerySchema = {
  $id: 'ImportScreeningListQuery',
  type: 'object',
  additionalProperties: false,
  required: ['source'],
  properties: {
    source: {
      type: 'string',
      enum: ['un', 'csv'],
      description: "`un`: the UN Security Council consolidated list (XML); `csv`: a national list in Kasa's CSV layout.",
    },
    list: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z0-9][a-z0-9.-]*$',
      'x-message': 'must be 1 to 64 of a-z 0-9 . - (a national list name such as tr-masak-6415)',
      description: 'The national list the CSV file is a version of (`tr-masak-6415`); required with `source=csv`.',
    },
  },
} as const;

/** `GET /ops/v1/screening/hits`' query: the queue (OPEN, the default) or the decided hits. */
export const listScreeningHitsQuerySchema = {
  $id: 'ListScreeningHitsQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    status: {
      type: 'string',
      enum: ['OPEN', 'CLEARED', 'CONFIRMED', 'DECIDED'],
      description: '`OPEN` (the default): hits awaiting a decision; `CLEARED`, `CONFIRMED`, or `DECIDED` for both.',
    },
  },
} as const;

/** A compliance decision on a screening hit: `clear` (not the listed person: the hold lifts) or `confirm` (frozen). */
export const decideScreeningHitRequestSchema = {
  $id: 'DecideScreeningHitRequest',
  type: 'object',
  additionalProperties: false,
  required: ['decision', 'note'],
  properties: {
    decision: { type: 'string', enum: ['clear', 'confirm'] },
    note: reason,
  },
} as const;

// Risk flags (docs/compliance.md, Risk flags and reports).
const RISK_RULE_NAMES = ['name_mismatch', 'just_under_limit', 'returned_and_resent', 'stranger_credit', 'velocity'] as const;

/** `GET /ops/v1/risk-flags`' query: the queue (OPEN, the default) or the reviewed flags, by rule and site. */
export const listRiskFlagsQuerySchema = {
  $id: 'ListRiskFlagsQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['OPEN', 'CLOSED'], description: '`OPEN` (the default): awaiting review; `CLOSED`: reviewed.' },
    rule: { type: 'string', enum: [...RISK_RULE_NAMES], description: "Only this rule's flags." },
    siteId: { type: 'string', format: 'uuid', description: 'Only the flags of this site.' },
  },
} as const;

/** `GET /ops/v1/risk-flags/report`' period: Istanbul calendar days, both included. */
export const riskReportQuerySchema = {
  $id: 'RiskReportQuery',
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: {
    from: {
      type: 'string',
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      'x-message': 'must be a day written YYYY-MM-DD',
      description: 'The first day (Istanbul).',
    },
    to: {
      type: 'string',
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      'x-message': 'must be a day written YYYY-MM-DD',
      description: 'The last day (Istanbul), included.',
    },
  },
} as const;

/** A compliance officer's review of a risk flag. */
export const reviewRiskFlagRequestSchema = {
  $id: 'ReviewRiskFlagRequest',
  type: 'object',
  additionalProperties: false,
  required: ['outcome', 'note'],
  properties: {
    outcome: { type: 'string', enum: ['no_action', 'reported'], 'x-message': 'must be no_action or reported' },
    note: { ...reason, maxLength: 2000, 'x-message': 'must be 1 to 2000 characters and not only spaces' },
  },
} as const;

// Retention and erasure (docs/compliance.md).
const externalUserId = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '\\S',
  'x-message': 'must be 1 to 64 characters and not only spaces',
  description: "The partner's id of the end user, as their deposits and withdrawals carry it.",
} as const;

export const createErasureRequestSchema = {
  $id: 'CreateErasureRequest',
  type: 'object',
  additionalProperties: false,
  required: ['siteId', 'externalUserId', 'reason'],
  properties: {
    siteId: uuid,
    externalUserId,
    reason: { ...reason, description: 'The ticket or letter the request answers; kept with the request, never in the audit log.' },
  },
} as const;

export const listErasureRequestsQuerySchema = {
  $id: 'ListErasureRequestsQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    createdFrom: opsTimestamp,
    createdTo: opsTimestamp,
    ...opsPage,
    siteId: uuid,
    status: { type: 'string', enum: ['OPEN', 'ANSWERED', 'COMPLETED'], 'x-message': 'must be OPEN, ANSWERED or COMPLETED' },
    overdue: { type: 'string', enum: ['true'], 'x-message': 'must be true', description: 'Only requests still OPEN past their due date.' },
  },
} as const;

export const placeLegalHoldSchema = {
  $id: 'PlaceLegalHold',
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  description: 'Either `siteId` and `externalUserId` (every record of that user), or `recordType` and `recordId` (one record).',
  properties: {
    siteId: uuid,
    externalUserId,
    recordType: {
      type: 'string',
      enum: ['deposit', 'withdrawal', 'bank_transfer', 'sender_return'],
      'x-message': 'must be deposit, withdrawal, bank_transfer or sender_return',
    },
    recordId: uuid,
    reason: { ...reason, description: "Why the records must be kept (a court order, an authority's request)." },
  },
} as const;

export const listDestructionLogQuerySchema = {
  $id: 'ListDestructionLogQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    createdFrom: opsTimestamp,
    createdTo: opsTimestamp,
    ...opsPage,
    recordType: shortText,
    erasureRequestId: uuid,
  },
} as const;

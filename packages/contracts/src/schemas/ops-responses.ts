/**
 * JSON Schemas of what the ops API (`/ops/v1` on the ledger) answers with: the ops OpenAPI document shows
 * them, ../response-types.ts derives the TypeScript types from them, and test/contract validates real ledger
 * answers against them. Each reviewed record kind's views are declared in its module (../ops-records/).
 */
import { STATEMENT_FORMAT_NAMES } from '../generated/statement-formats.js';
import { deskQueueProperties, OPS_RECORD_RESPONSE_SCHEMAS } from '../ops-records/index.js';
import { amount, nullableString, nullableTimestamp, object, timestamp, uuid } from './ops-response-common.js';
import { eventSchema, eventWithAttemptsSchema, listResponseSchema } from './responses.js';

/** `{data: [...]}` without paging: the short lists (operators, tokens, keys, accounts, balances). */
function dataOf<const Id extends string, const Item extends string>(id: Id, item: Item) {
  return object(id, { data: { type: 'array', items: { $ref: item } } });
}

const operator = object('OpsOperator', {
  operatorId: uuid,
  email: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string', enum: ['ADMIN', 'REVIEWER', 'CONNECTOR'] },
  disabledAt: nullableTimestamp,
  createdAt: timestamp,
  secondFactorEnrolledAt: { ...nullableTimestamp, description: 'When the operator turned on their second factor (TOTP); null when off.' },
  siteIds: {
    type: 'array',
    items: uuid,
    description: 'The live sites the operator is limited to (their test twins too); empty: every site.',
  },
});

const tokenProperties = {
  tokenId: uuid,
  operatorId: uuid,
  label: { type: 'string' },
  createdAt: timestamp,
  expiresAt: nullableTimestamp,
  revokedAt: nullableTimestamp,
} as const;

// The dashboard's queues written for the first kinds, before the declarations (../ops-record-desk.ts).
const recordQueues = {
  depositsToReview: { $ref: 'QueueHead' },
  lateArrivals: { $ref: 'QueueHead' },
  waitingForRest: {
    $ref: 'QueueHead',
    description: 'Deposits in review that received less than requested, set to wait for the rest (not counted in depositsToReview).',
  },
  unmatchedTransfers: { $ref: 'QueueHead' },
  bankLineDifferences: {
    $ref: 'QueueHead',
    description:
      "Transfers recorded by hand that the bank's own line disagreed with (amount, or booking day by more than one): each `bankLineDifference` for an operator to look at.",
  },
  withdrawalsToReview: { $ref: 'QueueHead' },
  withdrawalsToSend: { $ref: 'QueueHead' },
  returnsToReview: { $ref: 'QueueHead' },
  returnsToSend: { $ref: 'QueueHead' },
} as const;

// What the desk counts beside records: faults to fix, and the auto-replay's work.
const deskFaults = {
  deadEvents: { $ref: 'QueueHead' },
  failingPartners: { $ref: 'QueueHead' },
  reconciliationDifferences: {
    $ref: 'QueueHead',
    description: "Receiving accounts whose last statement's closing balance differs from what Kasa booked (oldest: the earliest asOf).",
  },
  autoReplayed: {
    $ref: 'QueueHead',
    description:
      'Not a queue: DEAD events replayed by themselves in the last 24 hours because their site answered again (docs/webhooks.md, Auto-replay); oldestAt and oldestId: the first such replay of those hours and its site.',
  },
} as const;

// Journal sums: a balance a correction has overdrawn is negative, so the sign is allowed.
const sum = { type: 'string', pattern: '^-?(0|[1-9][0-9]*)$', description: 'Minor units (kurus), as a string.' } as const;
const balanceProperties = {
  siteId: uuid,
  currency: { type: 'string', enum: ['TRY'] },
  available: sum,
  reserved: sum,
  receivedTotal: sum,
  paidOutTotal: sum,
  adjustedTotal: {
    ...sum,
    description:
      'Applied balance adjustments, credits less debits (kurus; negative when more was taken back): with it, available + reserved = receivedTotal - paidOutTotal + adjustedTotal.',
  },
} as const;

const siteProperties = {
  siteId: uuid,
  slug: { type: 'string', description: "A sandbox's slug is its live site's with `.test`." },
  livemode: { type: 'boolean', description: "False for a site's sandbox (its test twin, docs/sandbox.md)." },
  liveSiteId: { type: ['string', 'null'], format: 'uuid', description: 'For a sandbox: its live site.' },
  testSiteId: { type: ['string', 'null'], format: 'uuid', description: 'For a live site: its sandbox, once a test key was issued.' },
  name: { type: 'string' },
  webhookUrl: nullableString,
  rateLimitPerMinute: { type: 'integer', minimum: 1 },
  depositTtlSeconds: { type: 'integer', minimum: 1 },
  minAmount: amount,
  maxAmount: amount,
  returnUrl: { ...nullableString, description: "The hosted page's link back when a deposit has none of its own." },
  dualApprovalAbove: {
    type: ['string', 'null'],
    pattern: '^(0|[1-9][0-9]*)$',
    description:
      'Four-eyes: a withdrawal or return to a sender above this (kurus) needs two operators; null: the service default (DUAL_APPROVAL_ABOVE_KURUS).',
  },
  createdAt: timestamp,
  autoApprove: object(
    'SiteAutoApprove',
    { enabled: { type: 'boolean' }, maxAmount: amount, requireSenderMatch: { type: 'boolean' } },
    'Straight-through approval (docs/operations.md): off unless enabled.',
  ),
  screenDepositSenders: {
    type: 'boolean',
    description: "The senders of the money credited to the site's deposits are screened against the sanctions lists (docs/compliance.md).",
  },
} as const;

/** The end user an ops event view names: the webhook's data does not carry them. */
const eventUser = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['externalUserId', 'externalUserLabel'],
  description:
    'The end user of the deposit or withdrawal the event reports on, as the partner sent them (not in the webhook data); null when the record is not found.',
  properties: { externalUserId: { type: 'string' }, externalUserLabel: nullableString },
} as const;

/** What a statement import and a connector's batch both count (the document lists them in this order). */
/** One line of an imported file and what became of it (docs/statements.md, "What the answer says of each line"). */
const importedLine = object('ImportedLine', {
  lineKey: { type: 'string', description: "The line's identity on the account (docs/statements.md, Which lines are the same line)." },
  bankTxId: { type: 'string' },
  direction: { type: 'string', enum: ['credit', 'debit'] },
  amount,
  bookedAt: { ...timestamp, description: 'Midnight UTC of the booking day when `timeKnown` is false.' },
  bookingDay: { type: 'string', format: 'date', description: 'The Istanbul calendar day the bank booked the line on.' },
  timeKnown: { type: 'boolean', description: 'Whether the bank gave a time of day (camt.053 DtTm), not a date alone (MT940).' },
  counterpartyName: nullableString,
  outcome: {
    type: 'string',
    enum: [
      'approved',
      'matched',
      'suggested',
      'unmatched',
      'known',
      'hand_entry_confirmed',
      'bank_line_difference',
      'payout_sent',
      'payout_returned',
      'debit',
    ],
    description:
      '`approved`: approved straight through; `matched`: paid its deposit, which awaits an operator; `suggested`: unmatched, a near reference names deposits; `unmatched`: in the unmatched queue; `known`: the same line was imported before; `hand_entry_confirmed` / `bank_line_difference`: answered a transfer recorded by hand; `payout_sent` / `payout_returned`: a batched payout the bank paid out or brought back; `debit`: money out no payout explains.',
  },
  reasons: {
    type: 'array',
    description: 'Why, first the reason that decided: a code to branch on and the words an operator reads.',
    items: object('ImportedLineReason', { code: { type: 'string' }, text: { type: 'string' } }),
  },
  bankTransferId: { type: ['string', 'null'], format: 'uuid', description: 'The transfer the credit line is (null for a debit).' },
  deposit: {
    oneOf: [object('ImportedLineDeposit', { depositId: uuid, referenceNo: { type: 'string' }, siteId: uuid }), { type: 'null' }],
    description: 'The deposit the line paid (outcomes approved and matched).',
  },
  suggestions: {
    type: 'array',
    description: 'The best three deposits a near reference names, best first (outcome suggested).',
    items: object('ImportedLineSuggestion', {
      depositId: uuid,
      referenceNo: { type: 'string' },
      confidence: { type: 'integer', minimum: 0, maximum: 100 },
    }),
  },
  payout: {
    oneOf: [
      object('ImportedLinePayout', { kind: { type: 'string', enum: ['withdrawal', 'sender_return'] }, id: uuid, batchId: uuid }),
      { type: 'null' },
    ],
    description: 'The batched payout the line paid out or brought back.',
  },
});

const CREATED_LINES = { type: 'integer', minimum: 0, description: 'Lines recorded now (transfers and debits).' } as const;
const ARRIVAL_COUNTS = {
  matched: { type: 'integer', minimum: 0, description: 'New transfers matched to a deposit by their exact reference.' },
  suggested: { type: 'integer', minimum: 0, description: 'New unmatched transfers with a suggested deposit.' },
  unmatched: { type: 'integer', minimum: 0, description: 'New transfers left in the unmatched queue.' },
  autoApproved: {
    type: 'integer',
    minimum: 0,
    description:
      'Deposits approved straight through by their site rule before the answer. A batch promising more than 2,000 follow-ups is answered once its lines commit, with 0 here: its approvals run right after (docs/statements.md, After the lines commit).',
  },
  payoutsSent: { type: 'integer', minimum: 0, description: 'Batched payouts a debit line confirmed, marked SENT.' },
  payoutsReturned: { type: 'integer', minimum: 0, description: 'Sent withdrawals a return credit line marked RETURNED.' },
  handEntriesConfirmed: {
    type: 'integer',
    minimum: 0,
    description: 'Transfers recorded by hand that a credit line confirmed (the same transaction: not credited again).',
  },
  bankLineDifferences: {
    type: 'integer',
    minimum: 0,
    description: 'Transfers recorded by hand that a credit line disagreed with: flagged for an operator, not credited again.',
  },
} as const;

const payoutBatchProperties = {
  batchId: uuid,
  receivingAccountId: { ...uuid, description: "The paying account (the file's debtor)." },
  count: { type: 'integer', minimum: 1 },
  total: amount,
  currency: { type: 'string' },
  createdBy: { type: 'string', description: 'The operator id of who created the batch (`bootstrap` for the bootstrap token).' },
  createdByEmail: { ...nullableString, description: "That operator's e-mail; null for the bootstrap token." },
  createdAt: timestamp,
} as const;

const screeningListVersion = object('ScreeningListVersion', {
  versionId: uuid,
  source: { type: 'string', description: '`un-sc-consolidated`, or the national list named at import.' },
  format: { type: 'string', enum: ['un', 'csv'] },
  generated: { ...nullableString, description: "The publisher's date of the file (the UN list's dateGenerated), when given." },
  sha256: { type: 'string', description: "SHA-256 of the file's bytes, hex." },
  entries: { type: 'integer', minimum: 0 },
  importedAt: timestamp,
  importedBy: { type: 'string', description: 'The operator id of who imported it (`bootstrap` for the bootstrap token).' },
  current: { type: 'boolean', description: "Whether it is its list's newest version, the one names are screened against." },
});

const screeningDecision = object('ScreeningDecision', {
  operatorId: { type: 'string' },
  email: nullableString,
  at: timestamp,
  decision: { type: 'string', enum: ['clear', 'confirm'] },
  note: { type: 'string' },
});

const screeningHit = object('ScreeningHit', {
  hitId: uuid,
  status: { type: 'string', enum: ['OPEN', 'CLEARED', 'CONFIRMED'] },
  subjectType: { type: 'string', enum: ['withdrawal', 'deposit'] },
  subjectId: uuid,
  siteId: uuid,
  referenceNo: { ...nullableString, description: "The held record's reference number." },
  screenedName: { type: 'string', description: 'The name screened: the beneficiary (target holder) or the sender.' },
  score: { type: 'number', description: 'How well the name matched the entry, 0 to 1 (0.82 and above is a hit).' },
  entry: object('ScreeningHitEntry', {
    source: { type: 'string' },
    entryId: { type: 'string', description: "The list's own id (the UN list's DATAID)." },
    reference: { ...nullableString, description: "The list's reference (the UN list's REFERENCE_NUMBER, e.g. QDi.400)." },
    matchedName: { type: 'string', description: "The entry's name that matched (its primary name or an alias)." },
    listVersionId: uuid,
  }),
  otherEntries: {
    type: 'array',
    description: 'Other entries that also reached the threshold, best first.',
    items: { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } },
  },
  listVersionIds: { type: 'array', items: uuid, description: 'The list versions the name was screened against.' },
  decisions: { type: 'array', items: { $ref: 'ScreeningDecision' }, description: 'The decisions given so far, oldest first.' },
  createdAt: timestamp,
  decidedAt: nullableTimestamp,
});

const riskFlag = object('RiskFlag', {
  id: uuid,
  siteId: { ...nullableString, format: 'uuid', description: 'The site whose user or payout it concerns; null for money no site has.' },
  rule: { type: 'string', enum: ['name_mismatch', 'just_under_limit', 'returned_and_resent', 'stranger_credit', 'velocity'] },
  subjectType: { type: 'string', enum: ['deposit', 'bank_transfer'] },
  subjectId: uuid,
  externalUserId: nullableString,
  facts: {
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'null'] },
    description: "What the rule saw (docs/compliance.md lists each rule's keys): amounts in kuruş as strings, IBANs masked.",
  },
  status: { type: 'string', enum: ['OPEN', 'CLOSED'] },
  detectedAt: timestamp,
  dueAt: { ...timestamp, description: 'When its review is due: detected plus RISK_REVIEW_DAYS.' },
  overdue: { type: 'boolean', description: 'OPEN past its due time.' },
  outcome: { type: ['string', 'null'], enum: ['no_action', 'reported', null] },
  note: nullableString,
  reviewedBy: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['operatorId', 'email'],
    properties: { operatorId: nullableString, email: nullableString },
    description: 'Who reviewed it; null while OPEN.',
  },
  reviewedAt: nullableTimestamp,
});

export const OPS_RESPONSE_SCHEMAS = {
  OpsOperator: operator,
  ScreeningListVersion: screeningListVersion,
  ScreeningListVersionList: dataOf('ScreeningListVersionList', 'ScreeningListVersion'),
  ScreeningListImport: object('ScreeningListImport', {
    version: { $ref: 'ScreeningListVersion' },
    created: { type: 'boolean', description: 'False when the same file was imported before (nothing changed).' },
  }),
  ScreeningDecision: screeningDecision,
  ScreeningHit: screeningHit,
  ScreeningHitList: dataOf('ScreeningHitList', 'ScreeningHit'),
  RiskFlag: riskFlag,
  RiskFlagList: dataOf('RiskFlagList', 'RiskFlag'),
  RiskReportFile: { $id: 'RiskReportFile', type: 'string', description: 'CSV: one row per flag reported, with its bank line.' },
  OpsOperatorList: dataOf('OpsOperatorList', 'OpsOperator'),
  OpsPrincipal: object(
    'OpsPrincipal',
    {
      operatorId: { type: 'string', description: 'The operator id, or `bootstrap` for OPS_BOOTSTRAP_TOKEN.' },
      role: { type: 'string', enum: ['ADMIN', 'REVIEWER', 'CONNECTOR'] },
      tokenId: { type: ['string', 'null'], format: 'uuid' },
      email: nullableString,
      secondFactor: {
        type: 'string',
        enum: ['ENROLLED', 'REQUIRED', 'OFF'],
        description:
          '`ENROLLED`: the operator has a second factor; `REQUIRED`: their role must have one and this token may only enroll it; `OFF` otherwise (the bootstrap token too).',
      },
      secondFactorAt: { ...nullableTimestamp, description: 'When a code was last entered on this token (step-up lasts ten minutes).' },
      siteIds: {
        type: 'array',
        items: uuid,
        description: 'The sites the operator is limited to, test twins included; empty: every site.',
      },
    },
    'Who the bearer token belongs to.',
  ),
  SecondFactorEnrollment: object(
    'SecondFactorEnrollment',
    {
      secret: { type: 'string', description: 'The base32 TOTP secret, shown this once (for typing into an app).' },
      otpauthUri: { type: 'string', description: 'The otpauth:// URI the QR code carries, shown this once.' },
      qrDataUrl: { type: 'string', description: 'The QR code of otpauthUri as a data:image/svg+xml URL.' },
    },
    'A started enrollment: confirm it with a first code before it counts.',
  ),
  SecondFactorConfirmed: object(
    'SecondFactorConfirmed',
    {
      enrolledAt: timestamp,
      recoveryCodes: {
        type: 'array',
        items: { type: 'string' },
        description: 'Ten recovery codes, each usable once in place of a code; shown this once (only their hashes are kept).',
      },
    },
    'The second factor is on.',
  ),
  SecondFactorVerified: object(
    'SecondFactorVerified',
    { secondFactorAt: timestamp, stepUpUntil: timestamp },
    'The code was right; this token may approve large amounts until stepUpUntil.',
  ),
  LoginResult: object('LoginResult', { token: { type: 'string' }, tokenId: uuid, expiresAt: timestamp, operator: { $ref: 'OpsOperator' } }),
  OpsOperatorToken: object('OpsOperatorToken', tokenProperties),
  OpsOperatorTokenList: dataOf('OpsOperatorTokenList', 'OpsOperatorToken'),
  IssuedOperatorToken: object('IssuedOperatorToken', { ...tokenProperties, token: { type: 'string', description: 'Shown this once.' } }),
  OpsSite: object('OpsSite', siteProperties),
  OpsSiteList: listResponseSchema('OpsSiteList', { $id: 'OpsSite' }),
  CreatedSite: object('CreatedSite', {
    ...siteProperties,
    webhookSecret: { type: ['string', 'null'], description: 'Shown once, when the site was created with a webhook URL.' },
  }),
  OpsApiKey: object('OpsApiKey', { apiKeyId: uuid, keyPrefix: { type: 'string' }, createdAt: timestamp, revokedAt: nullableTimestamp }),
  OpsApiKeyList: dataOf('OpsApiKeyList', 'OpsApiKey'),
  IssuedApiKey: object('IssuedApiKey', {
    apiKeyId: uuid,
    siteId: uuid,
    mode: { type: 'string', enum: ['live', 'test'] },
    apiKey: { type: 'string', pattern: '^sk_(live|test)_', description: 'The raw key, shown this once.' },
    keyPrefix: { type: 'string' },
    createdAt: timestamp,
  }),
  RevokedApiKey: object('RevokedApiKey', { apiKeyId: uuid, revokedAt: timestamp }),
  ReceivingAccount: object('ReceivingAccount', {
    id: uuid,
    bankName: { type: 'string' },
    holderName: { type: 'string' },
    iban: { type: 'string', pattern: '^TR[0-9]{24}$' },
    accountNumber: { type: ['string', 'null'], description: "The bank's own account number, when given." },
    branchCode: { type: ['string', 'null'], description: 'The branch code beside the account number, when given.' },
    active: { type: 'boolean' },
    createdAt: timestamp,
  }),
  ReceivingAccountList: dataOf('ReceivingAccountList', 'ReceivingAccount'),
  // Deposits, withdrawals, bank transfers and returns to senders: each reviewed record kind's views, from its module.
  ...OPS_RECORD_RESPONSE_SCHEMAS,
  CreatedPayoutBatch: object('CreatedPayoutBatch', { batchId: uuid, count: { type: 'integer', minimum: 1 }, total: amount }),
  OpsPayoutBatch: object('OpsPayoutBatch', payoutBatchProperties),
  OpsPayoutBatchList: dataOf('OpsPayoutBatchList', 'OpsPayoutBatch'),
  OpsPayoutBatchDetail: object('OpsPayoutBatchDetail', {
    ...payoutBatchProperties,
    items: {
      type: 'array',
      items: object('OpsPayoutBatchItem', {
        itemId: uuid,
        kind: { type: 'string', enum: ['withdrawal', 'sender_return'] },
        withdrawalId: { type: ['string', 'null'], format: 'uuid' },
        senderReturnId: { type: ['string', 'null'], format: 'uuid' },
        reference: { type: 'string', description: 'The EndToEndId the file and the statement carry.' },
        amount,
        currency: { type: 'string' },
        creditorIban: { type: 'string' },
        creditorName: { type: 'string' },
      }),
    },
  }),
  PayoutFile: { $id: 'PayoutFile', type: 'string', description: 'A pain.001.001.03 XML file, or CSV with `format=csv`.' },
  StatementImport: object(
    'StatementImport',
    {
      statementId: { ...uuid, description: "The file's (first) statement." },
      format: {
        type: 'string',
        enum: STATEMENT_FORMAT_NAMES,
        description: 'The format the file was read as (docs/statements.md, Which format).',
      },
      statements: {
        type: 'array',
        items: object('ImportedStatement', { statementId: uuid, reference: { type: 'string', description: "The bank's statement id." } }),
      },
      lines: { type: 'integer', minimum: 0, description: 'Credit and debit lines in the file.' },
      created: CREATED_LINES,
      duplicates: { type: 'integer', minimum: 0, description: 'Lines imported before (the same line key on this account).' },
      ...ARRIVAL_COUNTS,
      lineOutcomes: {
        type: 'array',
        maxItems: 1000,
        description: "What became of each of the file's first 1,000 lines, in file order, and why; the counts cover every line.",
        items: importedLine,
      },
      lineOutcomesOmitted: { type: 'integer', minimum: 0, description: 'Lines past the first 1,000: counted, not listed.' },
      refusedStatements: {
        type: 'array',
        description:
          "Statements of the file that could not be read (an MT940 statement without its closing balance, in a file of several): nothing of them was imported, the file's other statements were. Empty when the whole file was read.",
        items: object('RefusedStatement', {
          statementId: { type: 'string', description: "The statement's `:20:/:28C:`, as far as it has them." },
          location: { type: 'string', description: 'Where it starts in the file: `line 12`.' },
          reason: { type: 'string', description: 'Why it could not be read.' },
        }),
      },
    },
    'What importing a statement file did.',
  ),
  RecordedBankLines: object(
    'RecordedBankLines',
    {
      lines: { type: 'integer', minimum: 1, description: 'Lines posted.' },
      created: CREATED_LINES,
      duplicates: { type: 'integer', minimum: 0, description: 'Lines recorded before (the same line key on this account).' },
      ...ARRIVAL_COUNTS,
    },
    "What posting a receiving account's lines did.",
  ),
  OpsBalance: object('OpsBalance', balanceProperties),
  SiteBalance: object('SiteBalance', {
    ...balanceProperties,
    slug: { type: 'string' },
    name: { type: 'string' },
    livemode: { type: 'boolean', description: "False for a sandbox (a live site's test twin): its money is simulated." },
  }),
  SiteBalanceList: dataOf('SiteBalanceList', 'SiteBalance'),
  JournalCheckReport: object('JournalCheckReport', {
    ok: { type: 'boolean' },
    checkedAt: timestamp,
    problems: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'detail'],
        properties: {
          kind: {
            type: 'string',
            description:
              'Which invariant failed, e.g. unbalanced_transaction, record_mismatch, unbacked_credit, unaccounted_money, ' +
              'reconciliation_difference, statement_gap, or cross_mode_money: live and sandbox money met (`detail.case` says how: ' +
              'batch_item, transfer_credit, confirmed_by_live_line, sender_return, house_posting, journal_posting), or ' +
              'bank_line_credited_twice: one bank transaction recorded both by hand and from the bank on one account, or ' +
              'promised_work_undone: a follow-up a commit promised marked done with its record unmoved (`detail.case` ' +
              'done_not_applied) or still pending an hour on (overdue), or history_altered: an audit or journal entry ' +
              'edited, deleted or written behind its hash chain, or a link of the chain changed (`detail.case`: row_changed, ' +
              'row_deleted, row_unlinked, link_changed, link_missing, head_mismatch; `detail.rowId` names the row), or a daily seal of ' +
              'the chains that no longer verifies (`detail.case`: seal_signature_invalid, seal_mismatch, seal_missing; `detail.day` ' +
              'names the seal), or ' +
              'unclassified_movement: a journal entry on a site balance that no posting of the chart makes, or about no record ' +
              'of that site (`detail.entryId`), which a partner statement could not explain, or ' +
              'screening_hold_bypassed: a withdrawal approved, put in a payout batch, or sent other than by a batch made ' +
              'before the hit, or a deposit approved, after a sanctions screening hit that is OPEN or CONFIRMED was written ' +
              'for it (`detail.withdrawalId` or `detail.intentId`; `detail.moved`: approved, batched, sent; `detail.hitId`), or ' +
              'personal_data_kept: an anonymised record that still carries personal data, one anonymised without a ' +
              'destruction-log row, or a completed erasure request whose user has a record not anonymised (`detail.case`: ' +
              'kept_after_destruction, destroyed_unlogged, erasure_incomplete).',
          },
          detail: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  }),
  AuditEntry: object('AuditEntry', {
    auditId: uuid,
    createdAt: timestamp,
    actor: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'id', 'email'],
      properties: { type: { type: 'string' }, id: { type: 'string' }, email: nullableString },
    },
    action: { type: 'string' },
    entityType: { type: 'string' },
    entityId: { type: 'string' },
    siteId: { type: ['string', 'null'], format: 'uuid' },
    metadata: { description: 'What the action changed; its shape depends on the action.' },
  }),
  AuditList: listResponseSchema('AuditList', { $id: 'AuditEntry' }),
  HistorySeal: object(
    'HistorySeal',
    {
      sealId: uuid,
      day: { type: 'string', format: 'date', description: 'The Istanbul calendar day sealed.' },
      sealedAt: timestamp,
      heads: {
        type: 'array',
        description: "Each chain's last link when the day was sealed: the chain, its place and its hash (hex).",
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['chain', 'seq', 'linkHash'],
          properties: { chain: { type: 'string' }, seq: { type: 'string' }, linkHash: { type: 'string' } },
        },
      },
      balances: {
        type: 'array',
        description: 'Per site and journal account, the signed sum (kuruş) of the journal entries the sealed heads cover.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['siteId', 'account', 'balance'],
          properties: { siteId: uuid, account: { type: 'string' }, balance: { type: 'string', pattern: '^-?(0|[1-9][0-9]*)$' } },
        },
      },
      previousSealHash: { ...nullableString, description: "The previous day's seal's payloadHash (hex); null for the first seal." },
      payload: { type: 'string', description: 'The exact canonical JSON signed (its UTF-8 bytes).' },
      payloadHash: { type: 'string', description: 'SHA-256 of the payload (hex).' },
      signature: { type: 'string', description: 'ed25519 signature of the payload, base64.' },
      keyId: { type: 'string', description: 'First 16 hex digits of the SHA-256 of the public key.' },
      publicKey: { ...nullableString, description: "The signing key's ed25519 public key (32 bytes, base64); null when not trusted." },
      verifies: {
        type: 'boolean',
        description: 'Whether the seal verifies now: its signature, its place in the seals, its heads in the chains.',
      },
      problems: {
        type: 'array',
        items: { type: 'string' },
        description: 'What does not verify: seal_signature_invalid, seal_mismatch, seal_missing (as the journal check names them).',
      },
    },
    "A day's signed seal of the history chains (docs/compliance.md, Tamper-evident history).",
  ),
  HistorySealList: listResponseSchema('HistorySealList', { $id: 'HistorySeal' }),
  OpsEvent: {
    ...eventSchema,
    $id: 'OpsEvent',
    required: [...eventSchema.required, 'siteId'],
    properties: {
      ...eventSchema.properties,
      siteId: uuid,
      user: eventUser,
    },
  },
  OpsEventList: listResponseSchema('OpsEventList', { $id: 'OpsEvent' }),
  OpsSearchResult: object(
    'OpsSearchResult',
    {
      query: { type: 'string', description: 'What was searched for, trimmed.' },
      deposits: { type: 'array', items: { $ref: 'OpsIntent' } },
      withdrawals: { type: 'array', items: { $ref: 'OpsWithdrawal' } },
      bankTransfers: { type: 'array', items: { $ref: 'OpsBankTransfer' } },
      events: { type: 'array', items: { $ref: 'OpsEvent' } },
    },
    'Every kind of record that matches, each newest first and at most `limit` long.',
  ),
  QueueHead: object(
    'QueueHead',
    {
      count: { type: 'integer', minimum: 0 },
      oldestAt: { ...nullableTimestamp, description: 'Since when the item that has waited longest waits.' },
      oldestId: { type: ['string', 'null'], format: 'uuid', description: 'That item (a site for failingPartners).' },
    },
    'How many wait, and the one that has waited longest.',
  ),
  OpsDashboard: object('OpsDashboard', {
    generatedAt: timestamp,
    ...recordQueues,
    // The queues the kinds declare (their `desk` part), after the hand-written kinds' and before the faults, as the desk shows them.
    ...deskQueueProperties([...Object.keys(recordQueues), ...Object.keys(deskFaults), 'generatedAt']),
    ...deskFaults,
  }),
  AccountReconciliation: object(
    'AccountReconciliation',
    {
      accountId: uuid,
      bankName: { type: 'string' },
      iban: { type: 'string' },
      status: {
        type: 'string',
        enum: ['no_statement', 'reconciled', 'difference'],
        description: '`no_statement`: nothing to reconcile against (the balances are null); `difference`: `difference` is not 0.',
      },
      reason: { ...nullableString, description: 'Why there are no balances (status `no_statement`); null otherwise.' },
      statementClosingBalance: { ...sum, type: ['string', 'null'], description: "The latest statement's closing balance (kurus)." },
      bookedBalance: {
        ...sum,
        type: ['string', 'null'],
        description: 'The earliest statement opening balance plus every credit minus every debit Kasa recorded on the account up to asOf.',
      },
      difference: { ...sum, type: ['string', 'null'], description: 'statementClosingBalance - bookedBalance (kurus).' },
      asOf: { ...nullableTimestamp, description: "The latest statement's period end (else its latest line)." },
      anchorAt: {
        ...nullableTimestamp,
        description: "Where the count starts: the earliest statement's period start (else its first line).",
      },
      statementId: { type: ['string', 'null'], format: 'uuid', description: 'The latest statement.' },
      statementRef: { ...nullableString, description: "The latest statement's bank id." },
      statements: { type: 'integer', minimum: 0, description: 'Statements imported for the account.' },
      counts: object('ReconciliationCounts', {
        statementCredits: { type: 'integer', minimum: 0 },
        statementDebits: { type: 'integer', minimum: 0 },
        unconfirmedCredits: { type: 'integer', minimum: 0, description: 'Credits in the window no statement carries.' },
        unconfirmedDebits: { type: 'integer', minimum: 0, description: 'Debits in the window no statement carries.' },
      }),
      unconfirmedLines: {
        type: 'array',
        description: 'Lines in the window no statement carries (connector or hand-recorded), oldest first, at most 50.',
        items: object('UnconfirmedLine', {
          lineId: uuid,
          direction: { type: 'string', enum: ['credit', 'debit'] },
          bankTxId: { type: 'string' },
          amount,
          bookedAt: timestamp,
          timeKnown: { type: 'boolean', description: 'False when the bank gave the booking date alone.' },
          counterpartyName: nullableString,
          bankTransferId: { type: ['string', 'null'], format: 'uuid', description: 'The transfer, for a credit; null for a debit.' },
        }),
      },
      unconfirmedTotal: { type: 'integer', minimum: 0, description: 'Every such line, beyond the 50 listed.' },
      gaps: {
        type: 'array',
        description: "Consecutive statements where the later one's opening balance is not the earlier one's closing balance.",
        items: object('StatementGap', {
          afterStatementId: uuid,
          afterStatementRef: { type: 'string' },
          closingBalance: sum,
          beforeStatementId: uuid,
          beforeStatementRef: { type: 'string' },
          openingBalance: sum,
          difference: { ...sum, description: 'openingBalance - closingBalance: what moved while no statement covered it.' },
          from: nullableTimestamp,
          to: nullableTimestamp,
        }),
      },
    },
    "A receiving account's last statement balance against what Kasa booked on it (docs/operations.md, Reconciliation).",
  ),
  ReconciliationList: object('ReconciliationList', {
    generatedAt: timestamp,
    data: { type: 'array', items: { $ref: 'AccountReconciliation' } },
  }),
  SiteDeliveryHealth: object('SiteDeliveryHealth', {
    siteId: uuid,
    slug: { type: 'string' },
    name: { type: 'string' },
    webhookUrl: nullableString,
    attempts: { type: 'integer', minimum: 0, description: 'Delivery attempts in the window.' },
    succeeded: { type: 'integer', minimum: 0, description: 'Of those, answered 2xx.' },
    successRate: { type: ['number', 'null'], minimum: 0, maximum: 1, description: 'succeeded / attempts; null without attempts.' },
    lastAttemptAt: nullableTimestamp,
    lastSuccessAt: nullableTimestamp,
    failingSince: { ...nullableTimestamp, description: 'While the latest attempt failed: the first failure after the last success.' },
    lastFailure: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['at', 'statusCode', 'error'],
          properties: { at: timestamp, statusCode: { type: ['integer', 'null'] }, error: nullableString },
        },
        { type: 'null' },
      ],
    },
    deadEvents: { type: 'integer', minimum: 0 },
    pendingEvents: { type: 'integer', minimum: 0 },
  }),
  DeliveryHealthList: object('DeliveryHealthList', {
    generatedAt: timestamp,
    windowHours: { type: 'integer', minimum: 1 },
    data: { type: 'array', items: { $ref: 'SiteDeliveryHealth' } },
  }),
  OpsEventDetail: {
    ...eventWithAttemptsSchema,
    $id: 'OpsEventDetail',
    required: [...eventWithAttemptsSchema.required, 'siteId'],
    properties: { ...eventWithAttemptsSchema.properties, siteId: uuid, user: eventUser },
  },
  ErasureRequest: object('ErasureRequest', {
    erasureRequestId: uuid,
    siteId: uuid,
    externalUserId: { type: 'string' },
    reason: { type: 'string' },
    status: { type: 'string', enum: ['OPEN', 'ANSWERED', 'COMPLETED'] },
    receivedAt: timestamp,
    dueAt: { ...timestamp, description: "receivedAt + 30 days: KVKK's answer period." },
    overdue: { type: 'boolean', description: 'Still OPEN past dueAt.' },
    filedBy: { type: 'string' },
    answeredAt: nullableTimestamp,
    completedAt: nullableTimestamp,
    anonymised: {
      type: 'array',
      description: 'What its passes anonymised, by kind of record.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['recordType', 'count'],
        properties: { recordType: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
      },
    },
    waiting: {
      type: 'object',
      additionalProperties: false,
      required: ['count', 'records'],
      description: 'Records still held at the last pass, and what holds each (the first 500 listed).',
      properties: {
        count: { type: 'integer', minimum: 0 },
        records: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['recordType', 'recordId', 'hold', 'holdEndsAt'],
            properties: {
              recordType: { type: 'string' },
              recordId: uuid,
              hold: { type: 'string', enum: ['retention', 'legal_hold'] },
              holdEndsAt: { ...nullableTimestamp, description: 'When its retention ends; null for a legal hold (until released).' },
              legalHoldId: uuid,
            },
          },
        },
      },
    },
  }),
  ErasureRequestList: listResponseSchema('ErasureRequestList', { $id: 'ErasureRequest' }),
  LegalHold: object('LegalHold', {
    legalHoldId: uuid,
    siteId: { type: ['string', 'null'], format: 'uuid' },
    externalUserId: nullableString,
    recordType: nullableString,
    recordId: { type: ['string', 'null'], format: 'uuid' },
    reason: { type: 'string' },
    placedBy: { type: 'string' },
    placedAt: timestamp,
    releasedBy: nullableString,
    releasedAt: nullableTimestamp,
  }),
  DestructionLogEntry: object('DestructionLogEntry', {
    destructionId: uuid,
    recordType: { type: 'string' },
    recordId: uuid,
    siteId: { type: ['string', 'null'], format: 'uuid' },
    fields: { type: 'array', items: { type: 'string' }, description: 'The columns (and JSON documents) whose personal data was replaced.' },
    cause: { type: 'string', enum: ['erasure_request', 'retention_expired'] },
    erasureRequestId: { type: ['string', 'null'], format: 'uuid' },
    actor: { type: 'string', description: 'The operator who filed the request, or the job.' },
    destroyedAt: timestamp,
  }),
  DestructionLogList: listResponseSchema('DestructionLogList', { $id: 'DestructionLogEntry' }),
} as const;

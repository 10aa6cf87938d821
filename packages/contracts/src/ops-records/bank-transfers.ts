/**
 * Incoming bank transfers in the ops API: recorded by hand, listed, assigned, topped up or set aside. Their
 * statuses, bodies, list query, ops views and operations are declared here once; ./index.ts lists the kind, and
 * the registries and OPS_ROUTES take them from there. Receiving accounts, statements and a connector's lines are
 * the money's way in, not this kind: they stay in ../ops-routes.ts.
 */
import { DECISION, LIST, LIST_TIMEOUT, READ, WRITE, type OpsRecordKind } from '../ops-operation-spec.js';
import type { OpsRecordDocsOf } from '../ops-record-docs.js';
// A request checks an id as text (a pattern, with its message); a view only says `format: uuid`.
import { amountBound, bankTxId, mode, opsListProperties, opsTimestamp, purposeCode, uuid as uuidText } from '../schemas/ops-common.js';
import { amount, eventId, nullableString, nullableTimestamp, object, timestamp, uuid } from '../schemas/ops-response-common.js';
import { listResponseSchema } from '../schemas/responses.js';
import { MATCH_REASONS } from '../statuses.js';

/** A bank transfer's statuses: only the ops API shows them (the ledger's bank-transfer.states.ts moves between them). */
export const BANK_TRANSFER_STATUSES = [
  'MATCHED',
  'UNMATCHED',
  'ASSIGNED',
  'SET_ASIDE',
  'RETURNING',
  'RETURNED',
  'PAYOUT_RETURNED',
] as const;

/** An operator's hand entry of money seen on a receiving account; a connector's line (../schemas/ops.ts) reuses its fields. */
export const recordBankTransferRequestSchema = {
  $id: 'RecordBankTransferRequest',
  type: 'object',
  additionalProperties: false,
  required: ['bankTxId', 'amount', 'senderName', 'senderIban', 'description', 'receivedAt'],
  properties: {
    bankTxId,
    amount: amountBound,
    currency: { type: 'string', enum: ['TRY'], 'x-message': 'must be TRY, the only active currency' },
    senderName: { type: 'string', minLength: 1, maxLength: 140 },
    senderIban: {
      type: 'string',
      minLength: 15,
      maxLength: 42,
      'x-tr-iban': true,
      description: "The sender's TR IBAN, 26 characters with a valid checksum; spaces are ignored and letters upper-cased.",
    },
    description: { type: 'string', maxLength: 500 },
    receivedAt: opsTimestamp,
    receivingAccountId: {
      type: 'string',
      format: 'uuid',
      description:
        "The receiving account the money arrived on. Required when more than one receiving account is active; without it the only active one. The bank's own line with this bankTxId arriving later on the account (connector or statement) confirms this transfer instead of crediting it again.",
    },
  },
} as const;

const assignBankTransferRequestSchema = {
  $id: 'AssignBankTransferRequest',
  type: 'object',
  additionalProperties: false,
  required: ['intentId'],
  properties: { intentId: uuidText },
} as const;

// Bank transfers belong to the service's receiving accounts, not to a site, until matched.
const opsListBankTransfersQuerySchema = {
  $id: 'OpsListBankTransfersQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...opsListProperties(BANK_TRANSFER_STATUSES),
    mode,
    purpose: {
      ...purposeCode,
      description:
        "Only lines whose bank file declared this transfer purpose (ISO 20022 ExternalPurpose1Code such as `SALA`, or a bank's own code; docs/statements.md), matched exactly.",
    },
  },
} as const;

const bankTransferProperties = {
  bankTransferId: uuid,
  bankTxId: { type: 'string' },
  status: { type: 'string', enum: [...BANK_TRANSFER_STATUSES] },
  amount,
  currency: { type: 'string', enum: ['TRY'] },
  senderName: { type: 'string' },
  senderIban: { type: 'string' },
  description: { type: 'string' },
  purpose: {
    type: ['string', 'null'],
    description:
      "The transfer's declared purpose when the bank file carries one (ISO 20022 ExternalPurpose1Code such as `SALA`, or the bank's own code; docs/statements.md).",
  },
  receivedAt: timestamp,
  receivedTimeKnown: {
    type: 'boolean',
    description: 'False when the bank gave the booking date alone (MT940): `receivedAt` is then midnight UTC of that day.',
  },
  receivingAccountId: {
    type: ['string', 'null'],
    format: 'uuid',
    description: 'The account the money arrived on; null: recorded by hand before hand entries named their account, or simulated.',
  },
  handEntry: {
    type: 'boolean',
    description: "Recorded by an operator (POST /bank-transfers) rather than delivered by the bank: the bank's own line confirms it later.",
  },
  bankConfirmedAt: {
    ...nullableTimestamp,
    description: "A hand entry's: when the bank's own line (connector or statement) confirmed it, agreeing in amount and day.",
  },
  bankLineDifference: {
    oneOf: [
      { type: 'null' },
      {
        type: 'object',
        additionalProperties: false,
        required: ['bankLineKey', 'bankAmount', 'handAmount', 'bankBookedAt', 'handReceivedAt', 'statementId', 'detectedAt'],
        properties: {
          bankLineKey: { type: 'string', description: "The bank line's identity on the account (docs/statements.md)." },
          bankAmount: amount,
          handAmount: amount,
          bankBookedAt: timestamp,
          handReceivedAt: timestamp,
          statementId: {
            type: ['string', 'null'],
            format: 'uuid',
            description: 'The statement that carried the line; null: the connector.',
          },
          detectedAt: timestamp,
        },
      },
    ],
    description:
      "A hand entry's: the bank's own line disagreed with it (amount, or booking day by more than one). Nothing was credited a second time; an operator looks at it.",
  },
  livemode: { type: 'boolean', description: "False for the sandbox simulator's money (docs/sandbox.md): it only ever pays test deposits." },
  intentId: { type: ['string', 'null'], format: 'uuid' },
  unmatchedReason: nullableString,
  setAsideReason: { ...nullableString, description: 'Why an operator set the transfer aside (status SET_ASIDE).' },
  setAsideAt: nullableTimestamp,
  createdAt: timestamp,
  matchReasons: {
    type: 'array',
    items: { type: 'string', enum: [...MATCH_REASONS] },
    description: 'Why the transfer went to its deposit (docs/operations.md, Matching reasons); empty when it has none.',
  },
} as const;

/** The bank transfers' part of the ops contract. */
export const BANK_TRANSFER_OPS = {
  requestSchemas: {
    recordBankTransfer: recordBankTransferRequestSchema,
    assignBankTransfer: assignBankTransferRequestSchema,
    opsListBankTransfers: opsListBankTransfersQuerySchema,
  },
  responseSchemas: {
    OpsBankTransfer: object('OpsBankTransfer', bankTransferProperties),
    OpsBankTransferDetail: object('OpsBankTransferDetail', {
      ...bankTransferProperties,
      suggestions: {
        type: 'array',
        description: 'Deposits a near reference in the description names, best first; confirm one by assigning the transfer to it.',
        items: object('MatchSuggestion', {
          intentId: uuid,
          referenceNo: { type: 'string' },
          confidence: { type: 'integer', minimum: 0, maximum: 100 },
          reasons: { type: 'array', items: { type: 'string', enum: [...MATCH_REASONS] } },
        }),
      },
      closedIntent: {
        oneOf: [
          object(
            'ClosedIntent',
            { intentId: uuid, referenceNo: { type: 'string' }, status: { type: 'string', enum: ['APPROVED', 'REJECTED'] }, siteId: uuid },
            'The decided deposit whose exact reference the description carries (unmatched reason `intent_closed`): an APPROVED one can take the money as a top-up; otherwise return it to the sender.',
          ),
          { type: 'null' },
        ],
      },
    }),
    OpsBankTransferList: listResponseSchema('OpsBankTransferList', { $id: 'OpsBankTransfer' }),
    RecordedBankTransfer: object('RecordedBankTransfer', {
      ...bankTransferProperties,
      intent: { oneOf: [{ $ref: 'OpsIntent' }, { type: 'null' }] },
    }),
    AssignedBankTransfer: object('AssignedBankTransfer', { ...bankTransferProperties, intent: { $ref: 'OpsIntent' } }),
    ToppedUpBankTransfer: object('ToppedUpBankTransfer', { ...bankTransferProperties, intent: { $ref: 'OpsIntent' }, eventId }),
  },
  operations: {
    recordBankTransfer: {
      method: 'POST',
      path: '/bank-transfers',
      role: 'REVIEWER',
      tag: 'Bank transfers',
      summary: 'Record an incoming bank transfer',
      description:
        "Records money an operator saw arrive on a receiving account (a hand entry) and matches it to an intent by the reference in its description. `receivingAccountId` names the account; it may be left out only while exactly one receiving account is active (400 naming it otherwise). 201 when recorded, 200 with `Idempotent-Replayed: true` when the account already has this `bankTxId` with the same details, 409 `bank_tx_id_reused` with other details. The bank's own line arriving later confirms the hand entry (`bankConfirmedAt`) or, disagreeing, is kept as its `bankLineDifference`; it is never credited a second time. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
      status: '201',
      response: 'RecordedBankTransfer',
      responseDescription: 'Recorded',
      body: {
        schema: 'recordBankTransfer',
        example: {
          bankTxId: 'FAST-2026-0000042',
          amount: '150000',
          senderName: 'Ayşe Yılmaz',
          senderIban: 'TR330006100519786457841326',
          description: 'KD7MX4Q2RH',
          receivedAt: '2026-01-31T12:00:00.000Z',
          receivingAccountId: '0b8f6c1e-5d2a-4c7b-9e31-2f4a6d8c0e15',
        },
      },
      errors: [...WRITE, '403'],
    },
    listBankTransfers: {
      method: 'GET',
      path: '/bank-transfers',
      role: 'REVIEWER',
      tag: 'Bank transfers',
      summary: 'List bank transfers, newest first',
      description: 'Incoming transfers, for example the UNMATCHED queue, in pages joined by `nextCursor`. ' + LIST_TIMEOUT,
      query: 'opsListBankTransfers',
      response: 'OpsBankTransferList',
      csvExport: true,
      errors: LIST,
    },
    getBankTransfer: {
      method: 'GET',
      path: '/bank-transfers/:bankTransferId',
      role: 'REVIEWER',
      tag: 'Bank transfers',
      summary: 'Read a bank transfer',
      description:
        'One incoming transfer, with why it went to its deposit (`matchReasons`) and, when no exact reference matched, the deposits a near reference names (`suggestions`, best first).',
      response: 'OpsBankTransferDetail',
      errors: [...READ, '404'],
    },
    assignBankTransfer: {
      method: 'POST',
      path: '/bank-transfers/:bankTransferId/assign',
      role: 'REVIEWER',
      tag: 'Bank transfers',
      summary: 'Assign an unmatched transfer to an intent',
      description:
        'Credits an UNMATCHED or SET_ASIDE transfer to the intent an operator identified (its reference was missing or wrong); ' +
        'several transfers may fund one intent.',
      response: 'AssignedBankTransfer',
      responseDescription: 'Assigned',
      body: { schema: 'assignBankTransfer', example: { intentId: '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11' } },
      errors: DECISION,
    },
    topUpBankTransfer: {
      method: 'POST',
      path: '/bank-transfers/:bankTransferId/top-up',
      role: 'REVIEWER',
      tag: 'Bank transfers',
      summary: 'Credit a transfer to an approved deposit as a top-up',
      description:
        'For money that arrived after its deposit was approved (unmatched reason `intent_closed`): credits an UNMATCHED or SET_ASIDE transfer ' +
        "to the APPROVED intent, adding it to the intent's credited `amount` and the site's balance, and emits `intent.topped_up` with " +
        '`topUp.amount`. Money for a REJECTED intent goes back to the sender instead.',
      response: 'ToppedUpBankTransfer',
      responseDescription: 'Credited',
      body: { schema: 'assignBankTransfer', example: { intentId: '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11' } },
      errors: DECISION,
    },
    setBankTransferAside: {
      method: 'POST',
      path: '/bank-transfers/:bankTransferId/set-aside',
      role: 'REVIEWER',
      tag: 'Bank transfers',
      summary: 'Set an unmatched transfer aside with a reason',
      description:
        'Moves an UNMATCHED transfer out of the unmatched queue (`SET_ASIDE`, audited with the reason); no money moves, and it can still be assigned.',
      response: 'OpsBankTransfer',
      responseDescription: 'Set aside',
      body: { schema: 'reject', example: { reason: 'Sender asked us to hold it; waiting for their deposit reference.' } },
      errors: DECISION,
    },
  },
  // Its words in the docs (docs/architecture.md's ledger folders), written there by node scripts/docs-tables.mjs.
  docs: {
    folder:
      'incoming money: recording and matching by reference, the arrival rules, assign and set aside ' +
      '(`bank-transfer.states.ts`, `bank-transfer.repository.ts`, `bank-transfer.use-case.ts`)',
  },
} as const satisfies OpsRecordKind;

// The compiler holds its words in the docs to its other parts (it has no console pages and no desk queue).
BANK_TRANSFER_OPS.docs satisfies OpsRecordDocsOf<typeof BANK_TRANSFER_OPS>;

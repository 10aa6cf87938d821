/**
 * Deposits (intents on the wire) in the ops API: the review queue and its decisions. Their bodies, list query,
 * ops views and operations are declared here once; ./index.ts lists the kind, and the registries and OPS_ROUTES
 * take them from there. The statuses stay in ../statuses.ts: partners see them too.
 */
import { DECISION, LIST, LIST_TIMEOUT, READ, WRITE, type OpsRecordKind } from '../ops-operation-spec.js';
import type { OpsRecordDocsOf } from '../ops-record-docs.js';
// A request checks an id as text (a pattern, with its message); a view only says `format: uuid`.
import { amountBound, opsListProperties, reason, recordFilters, referenceNo, uuid as uuidText } from '../schemas/ops-common.js';
import { amount, eventId, nullableString, nullableTimestamp, object, timestamp, uuid } from '../schemas/ops-response-common.js';
import { depositIntentListItemSchema, listResponseSchema } from '../schemas/responses.js';
import { DEPOSIT_STATUSES, USER_REJECTION_REASONS } from '../statuses.js';

/** What happens to money a partial approval does not credit (docs/operations.md, Queue: deposits to review). */
export const REMAINDER_ACTIONS = ['return', 'set_aside'] as const;
export type RemainderAction = (typeof REMAINDER_ACTIONS)[number];

const approveIntentRequestSchema = {
  $id: 'ApproveIntentRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    amount: amountBound,
    remainder: {
      type: 'object',
      additionalProperties: false,
      required: ['action'],
      description:
        'When `amount` is less than arrived: `return` (default) asks for the rest to go back to its sender(s) in the same ' +
        'transaction; `set_aside` holds it on the deposit and needs a `reason`.',
      properties: {
        action: { type: 'string', enum: [...REMAINDER_ACTIONS], 'x-message': 'must be return or set_aside' },
        reason,
      },
    },
  },
} as const;

const bulkApproveIntentsRequestSchema = {
  $id: 'BulkApproveIntentsRequest',
  type: 'object',
  additionalProperties: false,
  required: ['intentIds'],
  properties: {
    intentIds: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      items: { type: 'string', format: 'uuid' },
      'x-message': 'must hold 1 to 100 different intent ids',
      description: 'The deposits to approve, each for exactly what arrived, in this order.',
    },
  },
} as const;

const rejectIntentRequestSchema = {
  $id: 'RejectIntentRequest',
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: { ...reason, description: 'Why: sent to the partner in `intent.rejected` and kept in the audit log.' },
    userReason: {
      type: 'string',
      enum: [...USER_REJECTION_REASONS],
      'x-message': `must be one of ${USER_REJECTION_REASONS.join(', ')}`,
      description: "What the end user's hosted page says, in the user's language; without it the page gives a general text.",
    },
  },
} as const;

const opsListIntentsQuerySchema = {
  $id: 'OpsListIntentsQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...opsListProperties(DEPOSIT_STATUSES),
    siteId: uuidText,
    referenceNo,
    ...recordFilters,
    waiting: {
      type: 'string',
      enum: ['true', 'false'],
      description: '`true`: only intents waiting for the rest of a short payment; `false`: only the others (the review queue).',
    },
  },
} as const;

const intentProperties = {
  ...depositIntentListItemSchema.properties,
  siteId: uuid,
  externalUserId: { type: 'string' },
  externalUserLabel: nullableString,
  receivedAmount: { type: ['string', 'null'], pattern: '^(0|[1-9][0-9]*)$' },
  expiresAt: timestamp,
  cancelledAt: nullableTimestamp,
  rejectedUserReason: {
    type: ['string', 'null'],
    enum: [...USER_REJECTION_REASONS, null],
    description: "What the end user's hosted page was told about a rejection; null: the general text, or not rejected.",
  },
  userConfirmedAt: { ...nullableTimestamp, description: 'When the end user pressed "I have sent the transfer" on the hosted page.' },
  awaitingReviewSince: { ...nullableTimestamp, description: 'When its money put it in the review queue (the waiting time starts).' },
  waitingForRestSince: {
    ...nullableTimestamp,
    description:
      'When an operator chose to wait for the rest of a short payment: the intent is out of the review queue until more money arrives (null: not waiting).',
  },
  senderNameMismatch: {
    type: ['array', 'null'],
    items: { type: 'string' },
    description:
      "In lists, search and the detail: the transfers' sender names that do not resemble the user's label (empty: all do; " +
      'null: nothing to compare, no label or no transfer). A hint to check before approving.',
  },
  senderNames: {
    type: 'array',
    items: { type: 'string' },
    description: 'In lists, search and the detail: the different sender names of the bank transfers credited to the intent.',
  },
  transferCount: {
    type: 'integer',
    minimum: 0,
    description: 'In lists, search and the detail: how many bank transfers paid the intent.',
  },
} as const;

const READ_WITH_TRANSFERS: readonly string[] = ['senderNameMismatch', 'senderNames', 'transferCount'];
type ReadWithTransfers = 'senderNameMismatch' | 'senderNames' | 'transferCount';

/** An intent object whose sender names and transfer count are there only where the transfers were read (lists, search, detail). */
function intentObject<const Id extends string, const P extends Record<string, unknown>>(id: Id, properties: P) {
  const schema = object(id, properties);
  return {
    ...schema,
    required: schema.required.filter((key): key is Exclude<keyof P & string, ReadWithTransfers> => !READ_WITH_TRANSFERS.includes(key)),
  };
}

/** What became of the money an approval did not credit; null when it credited everything (and for a rejection). */
const remainderOutcome = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['action', 'amount', 'reason', 'returnIds'],
  properties: {
    action: { type: 'string', enum: [...REMAINDER_ACTIONS] },
    amount: { ...amount, description: 'What arrived minus what was credited, in minor units.' },
    reason: { type: 'string' },
    returnIds: {
      type: 'array',
      items: uuid,
      description: 'The returns to senders asked for (PENDING_REVIEW), latest transfer first; empty when set aside.',
    },
  },
} as const;

/** The deposits' part of the ops contract. */
export const DEPOSIT_OPS = {
  requestSchemas: {
    approveIntent: approveIntentRequestSchema,
    bulkApproveIntents: bulkApproveIntentsRequestSchema,
    rejectIntent: rejectIntentRequestSchema,
    opsListIntents: opsListIntentsQuerySchema,
  },
  responseSchemas: {
    OpsIntent: intentObject('OpsIntent', intentProperties),
    OpsIntentList: listResponseSchema('OpsIntentList', { $id: 'OpsIntent' }),
    OpsIntentDetail: intentObject('OpsIntentDetail', {
      ...intentProperties,
      bankTransfers: { type: 'array', items: { $ref: 'OpsBankTransfer' } },
    }),
    OpsIntentDecision: intentObject('OpsIntentDecision', { ...intentProperties, eventId, remainder: remainderOutcome }),
    BulkApproveResult: object(
      'BulkApproveResult',
      {
        results: {
          type: 'array',
          description: 'One per intent asked for, in that order: each approved in its own transaction, or why it was not.',
          items: {
            oneOf: [
              object('BulkApproved', { intentId: uuid, ok: { type: 'boolean', const: true }, intent: { $ref: 'OpsIntentDecision' } }),
              object('BulkApproveFailure', {
                intentId: uuid,
                ok: { type: 'boolean', const: false },
                error: object('BulkApproveError', {
                  reason: {
                    type: 'string',
                    description:
                      "The problem's `reason` when it has one (`not_exact_match`, `invalid_transition`, `step_up_required`...), else its " +
                      '`error` code (`not_found`, `internal_error`...).',
                  },
                  detail: { type: 'string' },
                }),
              }),
            ],
          },
        },
      },
      'Every item decided on its own: a failure is reported for that item and the others go on.',
    ),
  },
  operations: {
    opsListIntents: {
      method: 'GET',
      path: '/intents',
      role: 'REVIEWER',
      tag: 'Deposits',
      summary: 'The deposit review queue, newest first',
      description: "Every site's deposit intents, filtered by status, site or reference, in pages joined by `nextCursor`. " + LIST_TIMEOUT,
      query: 'opsListIntents',
      response: 'OpsIntentList',
      csvExport: true,
      errors: LIST,
    },
    opsGetIntent: {
      method: 'GET',
      path: '/intents/:intentId',
      role: 'REVIEWER',
      tag: 'Deposits',
      summary: 'Read a deposit intent with its bank transfers',
      description: 'The intent as operators see it, with every bank transfer credited to it.',
      response: 'OpsIntentDetail',
      errors: [...READ, '404'],
    },
    approveIntent: {
      method: 'POST',
      path: '/intents/:intentId/approve',
      role: 'REVIEWER',
      tag: 'Deposits',
      summary: 'Approve a deposit',
      description:
        'Approves a PENDING_REVIEW or LATE_ARRIVAL intent, crediting `amount` (default: what arrived); emits `intent.approved`. ' +
        'Crediting less than arrived says what happens to the rest in `remainder`: `return` (default; returns to the ' +
        'sender(s) enter review in the same transaction) or `set_aside` with a `reason`.',
      response: 'OpsIntentDecision',
      responseDescription: 'Approved',
      body: { schema: 'approveIntent', optional: true, example: { amount: '150000', remainder: { action: 'return' } } },
      errors: [...DECISION, '403'],
    },
    bulkApproveIntents: {
      method: 'POST',
      path: '/intents/bulk-approve',
      role: 'REVIEWER',
      tag: 'Deposits',
      summary: 'Approve several exact-match deposits',
      description:
        'Approves each intent in `intentIds` in order, each exactly as `POST /intents/{intentId}/approve` with no amount would ' +
        '(its own transaction, audit entry and `intent.approved`), and only when the money received equals the amount requested ' +
        '(else `not_exact_match`). Each item passes the step-up rule on its own. An item that fails is reported in its result ' +
        'with its reason and the others go on: the answer is 200 even when every item failed.',
      response: 'BulkApproveResult',
      responseDescription: 'One result per intent, in order',
      body: { schema: 'bulkApproveIntents', example: { intentIds: ['7d1e0c4a-3b2f-4e5d-8a9b-0c1d2e3f4a5b'] } },
      errors: [...WRITE, '403'],
    },
    rejectIntent: {
      method: 'POST',
      path: '/intents/:intentId/reject',
      role: 'REVIEWER',
      tag: 'Deposits',
      summary: 'Reject a deposit',
      description:
        'Rejects a PENDING_REVIEW or LATE_ARRIVAL intent with a reason the partner sees; emits `intent.rejected`. ' +
        "`userReason` picks what the end user's hosted page says.",
      response: 'OpsIntentDecision',
      responseDescription: 'Rejected',
      body: {
        schema: 'rejectIntent',
        example: { reason: 'Sender name does not match the account holder.', userReason: 'SENDER_NOT_ACCOUNT_HOLDER' },
      },
      errors: DECISION,
    },
    waitForRest: {
      method: 'POST',
      path: '/intents/:intentId/wait-for-rest',
      role: 'REVIEWER',
      tag: 'Deposits',
      summary: 'Wait for the rest of a short payment',
      description:
        'Takes a PENDING_REVIEW or LATE_ARRIVAL intent that received less than requested out of the review queue until more money ' +
        'arrives (it then returns to the queue with the sum received); it can still be approved or rejected meanwhile. No webhook. ' +
        'Asking again changes nothing.',
      response: 'OpsIntent',
      responseDescription: 'Waiting',
      errors: ['401', '404', '409', '500', '503'],
    },
  },
  // Its words in the docs (docs/architecture.md's ledger folders), written there by node scripts/docs-tables.mjs.
  docs: {
    folder:
      "deposit intents: the partner API's create, lookup and list, the hosted page's reads, the operators' " +
      'review (`deposit.states.ts`, `deposit-review.repository.ts`, `review-deposit.use-case.ts`)',
  },
} as const satisfies OpsRecordKind;

// The compiler holds its words in the docs to its other parts (it has no console pages and no desk queue).
DEPOSIT_OPS.docs satisfies OpsRecordDocsOf<typeof DEPOSIT_OPS>;

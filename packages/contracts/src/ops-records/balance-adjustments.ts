/**
 * Balance adjustments in the ops API: a correction of what the service owes a site with no bank movement behind it
 * (a fee refunded, a settlement corrected), proposed by one admin and posted only when a second, independent admin
 * approves it (docs/operations.md, Balance adjustments). No partner creates or reads one; an applied one is a movement
 * of the site's available balance (`adjustment`), named by its reference. ./index.ts lists the kind.
 */
import { DECISION, LIST, LIST_TIMEOUT, READ, WRITE, type OpsRecordKind } from '../ops-operation-spec.js';
import { amountBound, opsListProperties, reason, referenceNo, uuid as uuidText } from '../schemas/ops-common.js';
import { amount, nullableString, nullableTimestamp, object, timestamp, uuid } from '../schemas/ops-response-common.js';
import { listResponseSchema } from '../schemas/responses.js';

/** An adjustment's statuses (the ledger's balance-adjustment.states.ts moves between them). */
export const BALANCE_ADJUSTMENT_STATUSES = ['PENDING_REVIEW', 'APPLIED', 'REJECTED'] as const;

/** Whether an adjustment adds to what the service owes the site (`credit`) or takes from it (`debit`). */
export const ADJUSTMENT_DIRECTIONS = ['credit', 'debit'] as const;

const proposeBalanceAdjustmentRequestSchema = {
  $id: 'ProposeBalanceAdjustmentRequest',
  type: 'object',
  additionalProperties: false,
  required: ['direction', 'amount', 'reason'],
  properties: {
    direction: { type: 'string', enum: [...ADJUSTMENT_DIRECTIONS], 'x-message': 'must be credit or debit' },
    amount: {
      ...amountBound,
      pattern: '^[1-9][0-9]{0,14}$',
      'x-message': 'must be a positive whole number of kuruş (minor units) as a string, at most 15 digits',
    },
    reason: { ...reason, description: 'Why the balance is corrected: what the approver checks, and what the audit log keeps.' },
  },
} as const;

const opsListBalanceAdjustmentsQuerySchema = {
  $id: 'OpsListBalanceAdjustmentsQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...opsListProperties(BALANCE_ADJUSTMENT_STATUSES),
    siteId: uuidText,
    referenceNo: { ...referenceNo, description: "One adjustment's reference (`KA...`), as a partner's balance movement names it." },
  },
} as const;

/** The balance adjustments' part of the ops contract; a rejection takes the same body as the other kinds'. */
export const BALANCE_ADJUSTMENT_OPS = {
  requestSchemas: {
    proposeBalanceAdjustment: proposeBalanceAdjustmentRequestSchema,
    opsListBalanceAdjustments: opsListBalanceAdjustmentsQuerySchema,
  },
  responseSchemas: {
    OpsBalanceAdjustment: object(
      'OpsBalanceAdjustment',
      {
        adjustmentId: uuid,
        siteId: uuid,
        referenceNo: { type: 'string', description: "What the site's balance movement names it by." },
        direction: { type: 'string', enum: [...ADJUSTMENT_DIRECTIONS] },
        amount,
        currency: { type: 'string', enum: ['TRY'] },
        reason: { type: 'string' },
        status: { type: 'string', enum: [...BALANCE_ADJUSTMENT_STATUSES] },
        proposedByOperatorId: { type: 'string' },
        proposedByEmail: nullableString,
        decidedByOperatorId: { ...nullableString, description: 'Who applied or rejected it; null while in review.' },
        decidedByEmail: nullableString,
        appliedAt: nullableTimestamp,
        rejectedAt: nullableTimestamp,
        rejectedReason: nullableString,
        createdAt: timestamp,
      },
      "A correction of what the service owes a site, with no bank movement behind it; posted to the site's journal once applied.",
    ),
    OpsBalanceAdjustmentList: listResponseSchema('OpsBalanceAdjustmentList', { $id: 'OpsBalanceAdjustment' }),
  },
  operations: {
    proposeBalanceAdjustment: {
      method: 'POST',
      path: '/sites/:siteId/balance-adjustments',
      role: 'ADMIN',
      tag: 'Balances',
      summary: "Propose a correction of a site's available balance",
      description:
        'A balance adjustment PENDING_REVIEW: nothing is posted until a second admin approves it. `credit` adds to what the ' +
        'service owes the site, `debit` takes from it. Proposed by a person with an operator account (the bootstrap token, ' +
        'which is configuration, gets 409 `second_approver_required`).',
      status: '201',
      response: 'OpsBalanceAdjustment',
      responseDescription: 'Proposed',
      body: {
        schema: 'proposeBalanceAdjustment',
        example: { direction: 'credit', amount: '15000', reason: 'Refund of the November fee charged twice (ticket 4711).' },
      },
      errors: [...WRITE, '403', '404', '409'],
    },
    opsListBalanceAdjustments: {
      method: 'GET',
      path: '/balance-adjustments',
      role: 'REVIEWER',
      tag: 'Balances',
      summary: 'Balance adjustments, newest first',
      description:
        'Filtered by status (PENDING_REVIEW, APPLIED, REJECTED), site and reference, in pages joined by `nextCursor`; `order=oldest` for a ' +
        'queue. ' +
        LIST_TIMEOUT,
      query: 'opsListBalanceAdjustments',
      response: 'OpsBalanceAdjustmentList',
      errors: LIST,
    },
    opsGetBalanceAdjustment: {
      method: 'GET',
      path: '/balance-adjustments/:adjustmentId',
      role: 'REVIEWER',
      tag: 'Balances',
      summary: 'Read a balance adjustment',
      description: 'With who proposed it and who decided it.',
      response: 'OpsBalanceAdjustment',
      errors: [...READ, '404'],
    },
    approveBalanceAdjustment: {
      method: 'POST',
      path: '/balance-adjustments/:adjustmentId/approve',
      role: 'ADMIN',
      tag: 'Balances',
      summary: 'Apply a balance adjustment',
      description:
        "PENDING_REVIEW -> APPLIED, posted to the site's journal (credit: adjustments -> site_available; debit: site_available " +
        '-> adjustments). Always four-eyes: the admin who proposed it, the bootstrap token, or an admin tied to the proposer (the ' +
        'one who created or last changed the other account) gets 409 `second_approver_required`; a debit past the available ' +
        'balance gets 409 `insufficient_balance`; above STEP_UP_ABOVE_KURUS a fresh second-factor code is needed (403 ' +
        '`step_up_required`).',
      response: 'OpsBalanceAdjustment',
      responseDescription: 'Applied',
      errors: [...DECISION, '403'],
    },
    rejectBalanceAdjustment: {
      method: 'POST',
      path: '/balance-adjustments/:adjustmentId/reject',
      role: 'ADMIN',
      tag: 'Balances',
      summary: 'Reject a balance adjustment',
      description: 'PENDING_REVIEW -> REJECTED; nothing is posted. The proposer may withdraw their own proposal this way.',
      response: 'OpsBalanceAdjustment',
      responseDescription: 'Rejected',
      body: { schema: 'reject', example: { reason: 'The fee was charged once; the second line is its reversal.' } },
      errors: [...DECISION, '403'],
    },
  },
} as const satisfies OpsRecordKind;

/**
 * Withdrawals in the ops API: the review queue, its decisions and the payout steps. Their bodies, list query,
 * ops views and operations are declared here once; ./index.ts lists the kind, and the registries and OPS_ROUTES
 * take them from there. The statuses stay in ../statuses.ts: partners see them too.
 */
import { DECISION, LIST, LIST_TIMEOUT, READ, type OpsRecordKind } from '../ops-operation-spec.js';
import type { OpsRecordDocsOf } from '../ops-record-docs.js';
// A request checks an id as text (a pattern, with its message); a view only says `format: uuid`.
import { opsListProperties, recordFilters, referenceNo, uuid as uuidText } from '../schemas/ops-common.js';
import { approvals, eventId, nullableString, nullableTimestamp, object, uuid } from '../schemas/ops-response-common.js';
import { rejectRequestSchema } from '../schemas/ops.js';
import { listResponseSchema, withdrawalListItemSchema } from '../schemas/responses.js';
import { WITHDRAWAL_STATUSES } from '../statuses.js';

const approveWithdrawalRequestSchema = {
  $id: 'ApproveWithdrawalRequest',
  type: 'object',
  additionalProperties: false,
  properties: {},
} as const;

const opsListWithdrawalsQuerySchema = {
  $id: 'OpsListWithdrawalsQuery',
  type: 'object',
  additionalProperties: false,
  properties: { ...opsListProperties(WITHDRAWAL_STATUSES), siteId: uuidText, referenceNo, ...recordFilters },
} as const;

const withdrawalProperties = {
  ...withdrawalListItemSchema.properties,
  siteId: uuid,
  externalUserId: { type: 'string' },
  externalUserLabel: nullableString,
  targetIban: { type: 'string', pattern: '^TR[0-9]{24}$' },
  targetHolderName: { type: 'string' },
  approvedAt: nullableTimestamp,
  sentBankTxId: nullableString,
  returnedAt: nullableTimestamp,
  returnedReason: nullableString,
  approvals,
} as const;

/** The withdrawals' part of the ops contract; marking one returned takes the same body as a rejection. */
export const WITHDRAWAL_OPS = {
  requestSchemas: {
    approveWithdrawal: approveWithdrawalRequestSchema,
    markReturned: rejectRequestSchema,
    opsListWithdrawals: opsListWithdrawalsQuerySchema,
  },
  responseSchemas: {
    OpsWithdrawal: object('OpsWithdrawal', withdrawalProperties),
    OpsWithdrawalList: listResponseSchema('OpsWithdrawalList', { $id: 'OpsWithdrawal' }),
    OpsWithdrawalDetail: object('OpsWithdrawalDetail', { ...withdrawalProperties, siteBalance: { $ref: 'OpsBalance' } }),
    OpsWithdrawalDecision: object('OpsWithdrawalDecision', { ...withdrawalProperties, eventId }),
  },
  operations: {
    opsListWithdrawals: {
      method: 'GET',
      path: '/withdrawals',
      role: 'REVIEWER',
      tag: 'Withdrawals',
      summary: 'The withdrawal review queue, newest first',
      description: "Every site's withdrawals, filtered by status, site or reference, in pages joined by `nextCursor`. " + LIST_TIMEOUT,
      query: 'opsListWithdrawals',
      response: 'OpsWithdrawalList',
      csvExport: true,
      errors: LIST,
    },
    opsGetWithdrawal: {
      method: 'GET',
      path: '/withdrawals/:withdrawalId',
      role: 'REVIEWER',
      tag: 'Withdrawals',
      summary: "Read a withdrawal with the site's balance",
      description: 'The withdrawal with the full target IBAN and the balance the reviewer decides against.',
      response: 'OpsWithdrawalDetail',
      errors: [...READ, '404'],
    },
    approveWithdrawal: {
      method: 'POST',
      path: '/withdrawals/:withdrawalId/approve',
      role: 'REVIEWER',
      tag: 'Withdrawals',
      summary: 'Approve a withdrawal',
      description:
        "Approves a PENDING_REVIEW withdrawal and reserves its amount on the site's balance (409 when the balance is short); no webhook. " +
        "Above the site's four-eyes threshold (`dualApprovalAbove`, else DUAL_APPROVAL_ABOVE_KURUS) the first approval is only recorded (`approvals`, still PENDING_REVIEW) and a different person's approval moves it; the same operator again, the bootstrap token, or an operator tied to the first approver (the admin who created or last changed the other's account) is 409 `second_approver_required`, and a first approval whose operator was disabled since no longer counts. " +
        'Above STEP_UP_ABOVE_KURUS it needs a fresh second-factor code (403 `step_up_required`).',
      response: 'OpsWithdrawalDecision',
      body: { schema: 'approveWithdrawal', optional: true },
      errors: [...DECISION, '403'],
    },
    rejectWithdrawal: {
      method: 'POST',
      path: '/withdrawals/:withdrawalId/reject',
      role: 'REVIEWER',
      tag: 'Withdrawals',
      summary: 'Reject a withdrawal',
      description: 'Rejects a PENDING_REVIEW or APPROVED withdrawal, releasing any reservation; emits `withdrawal.rejected`.',
      response: 'OpsWithdrawalDecision',
      body: { schema: 'reject', example: { reason: 'Target IBAN is closed.' } },
      errors: DECISION,
    },
    markWithdrawalSent: {
      method: 'POST',
      path: '/withdrawals/:withdrawalId/mark-sent',
      role: 'REVIEWER',
      tag: 'Withdrawals',
      summary: 'Record that the money was sent',
      description: 'Marks an APPROVED withdrawal SENT, settling the payout; emits `withdrawal.sent`.',
      response: 'OpsWithdrawalDecision',
      body: { schema: 'markSent', optional: true, example: { bankTxId: 'EFT-2026-000123' } },
      errors: DECISION,
    },
    markWithdrawalReturned: {
      method: 'POST',
      path: '/withdrawals/:withdrawalId/mark-returned',
      role: 'REVIEWER',
      tag: 'Withdrawals',
      summary: 'Record that the bank returned the money',
      description: "Marks a SENT withdrawal RETURNED, crediting the site's balance back; emits `withdrawal.returned`.",
      response: 'OpsWithdrawalDecision',
      body: { schema: 'markReturned', example: { reason: 'Returned by the receiving bank: account closed.' } },
      errors: DECISION,
    },
  },
  // Its words in the docs (docs/architecture.md's ledger folders), written there by node scripts/docs-tables.mjs.
  docs: {
    folder:
      "withdrawals: the partner API's create, lookup and list, review and payout (`withdrawal.states.ts`, " +
      '`withdrawal-review.repository.ts`, `review-withdrawal.use-case.ts`)',
  },
} as const satisfies OpsRecordKind;

// The compiler holds its words in the docs to its other parts (it has no console pages and no desk queue).
WITHDRAWAL_OPS.docs satisfies OpsRecordDocsOf<typeof WITHDRAWAL_OPS>;

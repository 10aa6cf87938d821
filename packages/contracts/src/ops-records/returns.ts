/**
 * Returns to senders in the ops API: money going back to the sender of a transfer no deposit kept. No partner
 * sees them, so their statuses live here too, with their list query, ops views and operations; ./index.ts
 * lists the kind, and the registries and OPS_ROUTES take them from there.
 */
import { DECISION, LIST, LIST_TIMEOUT, READ, type OpsRecordKind } from '../ops-operation-spec.js';
import type { OpsRecordDocsOf } from '../ops-record-docs.js';
import { mode, opsListProperties } from '../schemas/ops-common.js';
import { amount, approvals, nullableString, nullableTimestamp, object, timestamp, uuid } from '../schemas/ops-response-common.js';
import { listResponseSchema } from '../schemas/responses.js';

/** A return's statuses (the ledger's sender-return.states.ts moves between them). */
export const SENDER_RETURN_STATUSES = ['PENDING_REVIEW', 'APPROVED', 'SENT', 'REJECTED'] as const;

const opsListSenderReturnsQuerySchema = {
  $id: 'OpsListSenderReturnsQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...opsListProperties(SENDER_RETURN_STATUSES),
    mode: {
      ...mode,
      description:
        "`live` (the default): returns of real money, the operators' queue; `test`: returns of the sandbox simulator's money, which the simulator sends at once (docs/sandbox.md).",
    },
  },
} as const;

/** The returns' part of the ops contract; asking for one is an operation on its bank transfer's path. */
export const SENDER_RETURN_OPS = {
  requestSchemas: {
    opsListSenderReturns: opsListSenderReturnsQuerySchema,
  },
  responseSchemas: {
    OpsSenderReturn: object(
      'OpsSenderReturn',
      {
        returnId: uuid,
        bankTransferId: uuid,
        status: { type: 'string', enum: [...SENDER_RETURN_STATUSES] },
        amount,
        currency: { type: 'string', enum: ['TRY'] },
        senderName: { type: 'string' },
        senderIban: { type: 'string', description: 'In full: operators pay the money back to it.' },
        reason: { type: 'string' },
        requestedBy: { type: 'string' },
        createdAt: timestamp,
        approvedAt: nullableTimestamp,
        sentAt: nullableTimestamp,
        sentBankTxId: nullableString,
        rejectedAt: nullableTimestamp,
        rejectedReason: nullableString,
        intentId: {
          type: ['string', 'null'],
          format: 'uuid',
          description:
            "Set for a partial approval's remainder: part of a transfer this approved deposit did not keep. Null: the whole transfer.",
        },
        livemode: {
          type: 'boolean',
          description:
            "False for a return of the sandbox simulator's money (docs/sandbox.md): the simulator sends it at once; never in the live queue or a payout batch.",
        },
        approvals,
      },
      'Money going back to the sender of a transfer no deposit kept (or the part of it its deposit did not keep).',
    ),
    OpsSenderReturnList: listResponseSchema('OpsSenderReturnList', { $id: 'OpsSenderReturn' }),
  },
  operations: {
    requestSenderReturn: {
      method: 'POST',
      path: '/bank-transfers/:bankTransferId/return',
      role: 'REVIEWER',
      tag: 'Returns',
      summary: "Ask to send a transfer's money back to its sender",
      description:
        'For money no deposit kept (UNMATCHED, SET_ASIDE, or paid for a REJECTED deposit): a return PENDING_REVIEW for the whole ' +
        'amount; the transfer becomes RETURNING. No money moves until the return is approved and sent.',
      status: '201',
      response: 'OpsSenderReturn',
      responseDescription: 'Return asked for',
      body: { schema: 'reject', example: { reason: "Sent from an account not in the user's name; returning it." } },
      errors: DECISION,
    },
    listSenderReturns: {
      method: 'GET',
      path: '/sender-returns',
      role: 'REVIEWER',
      tag: 'Returns',
      summary: 'Returns to senders, newest first',
      description:
        'Filtered by status (PENDING_REVIEW, APPROVED, SENT, REJECTED), in pages joined by `nextCursor`; `order=oldest` for a queue. ' +
        LIST_TIMEOUT,
      query: 'opsListSenderReturns',
      response: 'OpsSenderReturnList',
      csvExport: true,
      errors: LIST,
    },
    getSenderReturn: {
      method: 'GET',
      path: '/sender-returns/:returnId',
      role: 'REVIEWER',
      tag: 'Returns',
      summary: 'Read a return to a sender',
      description: "With the sender's full IBAN, which the money goes back to.",
      response: 'OpsSenderReturn',
      errors: [...READ, '404'],
    },
    approveSenderReturn: {
      method: 'POST',
      path: '/sender-returns/:returnId/approve',
      role: 'REVIEWER',
      tag: 'Returns',
      summary: 'Approve a return',
      description:
        "PENDING_REVIEW -> APPROVED; books the money as owed back to the sender. Above the four-eyes threshold (its deposit site's `dualApprovalAbove`, else DUAL_APPROVAL_ABOVE_KURUS) the first approval is only recorded and a different person's approval moves it (the same operator again, the bootstrap token, or an operator tied to the first approver: 409 `second_approver_required`; a first approval whose operator was disabled since no longer counts); above STEP_UP_ABOVE_KURUS a fresh second-factor code is needed (403 `step_up_required`).",
      response: 'OpsSenderReturn',
      responseDescription: 'Changed',
      errors: [...DECISION, '403'],
    },
    rejectSenderReturn: {
      method: 'POST',
      path: '/sender-returns/:returnId/reject',
      role: 'REVIEWER',
      tag: 'Returns',
      summary: 'Reject a return',
      description: 'PENDING_REVIEW or APPROVED -> REJECTED (an approval is reversed); the transfer goes back to where it was.',
      response: 'OpsSenderReturn',
      responseDescription: 'Changed',
      body: { schema: 'reject', example: { reason: 'The sender asked to keep it for a new deposit.' } },
      errors: DECISION,
    },
    markSenderReturnSent: {
      method: 'POST',
      path: '/sender-returns/:returnId/mark-sent',
      role: 'REVIEWER',
      tag: 'Returns',
      summary: 'Record that the money went back',
      description: 'APPROVED -> SENT; the transfer becomes RETURNED.',
      response: 'OpsSenderReturn',
      responseDescription: 'Changed',
      body: { schema: 'markSent', optional: true, example: { bankTxId: 'EFT-2026-000777' } },
      errors: DECISION,
    },
  },
  // Its words in the docs (docs/architecture.md's ledger folders), written there by node scripts/docs-tables.mjs.
  docs: {
    folder:
      'returns to senders and the house journal (`sender-return.states.ts`, `sender-return.repository.ts`, ' +
      '`sender-return.use-case.ts`, `sender-return.views.ts`, `house-accounts.ts`)',
  },
} as const satisfies OpsRecordKind;

// The compiler holds its words in the docs to its other parts (it has no console pages and no desk queue).
SENDER_RETURN_OPS.docs satisfies OpsRecordDocsOf<typeof SENDER_RETURN_OPS>;

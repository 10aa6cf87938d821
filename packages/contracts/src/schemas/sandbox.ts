/**
 * The sandbox's simulator (`/api/v1/external/test/...`, test keys only; docs/sandbox.md): what a partner's test key
 * asks the bank and Kasa's operators to do to its test records (the answers are in ./responses.ts).
 */
import { RETURN_REASON_CODES, USER_REJECTION_REASONS } from '../statuses.js';

const amount = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,15}$',
  'x-message': 'must be a string of digits in minor units (kurus), at least 1, with no leading zero',
} as const;
const reason = { type: 'string', minLength: 1, maxLength: 500 } as const;

export const simulateTransferRequestSchema = {
  $id: 'SimulateTransferRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    amount: { ...amount, description: 'Kuruş; default: the requested amount. Less or more exercises `amount_less` / `amount_more`.' },
    reference: {
      type: 'string',
      maxLength: 500,
      description:
        "The transfer's description as the sender typed it; default: the deposit's reference. One character off exercises `reference_near`; empty, no reference.",
    },
    senderName: {
      type: 'string',
      minLength: 1,
      maxLength: 140,
      description: "Default: the deposit's user label (`sender_matches_user`); another name exercises `sender_differs`.",
    },
    late: { type: 'boolean', description: 'Received after the deposit expired (`late`: LATE_ARRIVAL).' },
  },
} as const;

export const simulateApprovalRequestSchema = {
  $id: 'SimulateApprovalRequest',
  type: 'object',
  additionalProperties: false,
  properties: { amount: { ...amount, description: 'The credit; default: everything that arrived.' } },
} as const;

export const simulateRejectionRequestSchema = {
  $id: 'SimulateRejectionRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    reason: { ...reason, description: 'What `intent.rejected` / `withdrawal.rejected` carries; default: "Rejected in the sandbox".' },
    userReason: { type: 'string', enum: [...USER_REJECTION_REASONS], description: "A deposit's: what the hosted page tells the user." },
  },
} as const;

export const simulateReturnRequestSchema = {
  $id: 'SimulateReturnRequest',
  type: 'object',
  additionalProperties: false,
  properties: {
    reasonCode: {
      type: 'string',
      enum: Object.keys(RETURN_REASON_CODES),
      description: `The bank's ISO 20022 return reason; default AC04. ${Object.entries(RETURN_REASON_CODES)
        .map(([code, text]) => `${code}: ${text}`)
        .join('; ')}.`,
    },
  },
} as const;

/** An empty body: `expire`, `send` and the withdrawal's `approve` take nothing. */
export const simulateEmptyRequestSchema = {
  $id: 'SimulateEmptyRequest',
  type: 'object',
  additionalProperties: false,
  properties: {},
} as const;

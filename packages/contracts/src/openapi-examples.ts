/**
 * The example requests and answers of the OpenAPI documents. test/contract validates every one against the
 * schema beside it, so an example cannot drift from the contract it illustrates.
 */
import { PROBLEM_TYPE_BASE } from './errors.js';

const intentId = '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11';
const withdrawalId = '9b2e7d4a-5c1f-4e8b-a3d6-0f7c2b9e1a54';
const eventId = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const requestId = '4c0f3c1e-0b7e-4f57-9d7c-3f1f0b1d2a10';

function problemOf(
  error: string,
  status: number,
  title: string,
  detail: string,
  errors?: Array<{ field: string; message: string }>,
  reason?: string,
) {
  return {
    type: `${PROBLEM_TYPE_BASE}${error}`,
    title,
    status,
    detail,
    error,
    ...(reason ? { reason } : {}),
    ...(errors ? { errors } : {}),
    requestId,
  };
}

const depositIntent = {
  intentId,
  referenceNo: 'KD7MX4Q2RH',
  status: 'APPROVED',
  amount: '150000',
  currency: 'TRY',
  approvedAt: '2026-01-31T12:09:41.512Z',
  rejectedAt: null,
  rejectedReason: null,
  createdAt: '2026-01-31T12:00:00.000Z',
  updatedAt: '2026-01-31T12:09:41.512Z',
};

const withdrawal = {
  withdrawalId,
  referenceNo: 'KW4HN8P2TA',
  status: 'SENT',
  amount: '50000',
  currency: 'TRY',
  sentAt: '2026-01-31T15:20:03.004Z',
  rejectedAt: null,
  rejectedReason: null,
  createdAt: '2026-01-31T13:00:00.000Z',
  updatedAt: '2026-01-31T15:20:03.004Z',
  returnedAt: null,
  returnReason: null,
};

const event = {
  eventId,
  type: 'intent.approved',
  status: 'DELIVERED',
  createdAt: '2026-01-31T12:09:41.512Z',
  attemptCount: 1,
  lastAttemptAt: '2026-01-31T12:09:41.790Z',
  deliveredAt: '2026-01-31T12:09:41.902Z',
  deadAt: null,
  nextAttemptAt: null,
  payload: { eventId, type: 'intent.approved', createdAt: '2026-01-31T12:09:41.512Z', livemode: true, data: depositIntent },
};

/** Examples of the partner document, by what they show. */
export const PARTNER_EXAMPLES = {
  createDepositRequest: {
    externalUserId: 'user-42',
    externalUserLabel: 'Ayşe Y.',
    amount: '150000',
    currency: 'TRY',
    returnUrl: 'https://partner.example/wallet',
  },
  createDepositResponse: {
    intentId,
    referenceNo: 'KD7MX4Q2RH',
    depositUrl: 'https://api.kasa.example/deposit/dp_Xq3vN8kLm2pR7tYw9zB4cF6hJ1sD5gA0',
    amount: '150000',
    currency: 'TRY',
    expiresAt: '2026-01-31T12:30:00.000Z',
  },
  createWithdrawalRequest: {
    externalUserId: 'user-42',
    externalUserLabel: 'Ayşe Y.',
    amount: '50000',
    currency: 'TRY',
    targetIban: 'TR330006100519786457841326',
    targetHolderName: 'Ayşe Yılmaz',
  },
  createWithdrawalResponse: { withdrawalId, referenceNo: 'KW4HN8P2TA' },
  depositIntent,
  depositIntentList: { data: [{ ...depositIntent, requestedAmount: '150000' }], nextCursor: null },
  withdrawal,
  withdrawalList: { data: [{ ...withdrawal, requestedAmount: '50000' }], nextCursor: 'eyJjIjoiMjAyNi0wMS0zMVQxMzowMDowMC4wMDBaIn0' },
  webhookConfigRequest: {
    webhookUrl: 'https://partner.example/webhooks/kasa',
    rotateSecret: true,
    eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned', 'intent.topped_up'],
  },
  webhookConfigResponse: {
    webhookUrl: 'https://partner.example/webhooks/kasa',
    webhookSecret: 'whsec_9ZbQ2xV7nK4mR1tY8wC3fH6jL0pS5dG2aE7uI4oB1qM',
    rotatedAt: '2026-01-31T12:00:00.000Z',
    eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned', 'intent.topped_up'],
  },
  event: {
    ...event,
    status: 'PENDING',
    attemptCount: 0,
    lastAttemptAt: null,
    deliveredAt: null,
    nextAttemptAt: '2026-01-31T12:09:41.512Z',
  },
  eventList: { data: [event], nextCursor: null },
  webhookConfig: {
    webhookUrl: 'https://partner.example/webhooks/kasa',
    rotatedAt: '2026-01-31T12:00:00.000Z',
    eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned', 'intent.topped_up'],
  },
  testWebhookRequest: { type: 'ping' },
  testWebhookResponse: { delivered: true, statusCode: 200, durationMs: 87, error: null },
  balance: { available: '1250000', reserved: '50000', currency: 'TRY' },
  balanceTransactionList: {
    data: [
      {
        id: '0d5c7b1e-2f4a-4c3b-9e8d-7a6b5c4d3e2f',
        balance: 'available',
        type: 'deposit',
        amount: '150000',
        currency: 'TRY',
        intentId: '8b0f2a1e-6c3d-4e5f-9a7b-1c2d3e4f5a6b',
        withdrawalId: null,
        referenceNo: 'KD7K2M9PQR',
        createdAt: '2026-01-31T12:01:05.210Z',
      },
    ],
    nextCursor: null,
  },
  balanceStatement: {
    format: 'kasa.balance-statement.v1',
    siteId: '3f2b1c0d-9e8a-4b7c-8d6e-5f4a3b2c1d0e',
    livemode: true,
    date: '2026-01-31',
    timeZone: 'Europe/Istanbul',
    from: '2026-01-30T21:00:00.000Z',
    to: '2026-01-31T21:00:00.000Z',
    currency: 'TRY',
    opening: { available: '1100000', reserved: '50000' },
    closing: { available: '1250000', reserved: '50000' },
    movements: [
      {
        id: '0d5c7b1e-2f4a-4c3b-9e8d-7a6b5c4d3e2f',
        balance: 'available',
        type: 'deposit',
        amount: '150000',
        currency: 'TRY',
        intentId: '8b0f2a1e-6c3d-4e5f-9a7b-1c2d3e4f5a6b',
        withdrawalId: null,
        referenceNo: 'KD7K2M9PQR',
        createdAt: '2026-01-31T12:01:05.210Z',
        balanceAfter: '1250000',
      },
    ],
    signature: {
      algorithm: 'ed25519',
      keyId: 'c667a5ba0da2148d',
      value: 'PZP3lhjdj5JzS70/ASuSsipOmXb+vJl8FpMkfMbn8Zw5WEgbwBehqsJ5VEyWYQ3PGq5CSiGpNjZR4NtIwkEWDw==',
    },
  },
  balanceStatementKeys: {
    keys: [
      {
        keyId: 'c667a5ba0da2148d',
        algorithm: 'ed25519',
        publicKey: 'PDQx/v/f5hc4c+LI2Qxp2htQNTx215VJ+r37c+zjUYY=',
        publicKeyPem:
          '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAPDQx/v/f5hc4c+LI2Qxp2htQNTx215VJ+r37c+zjUYY=\n-----END PUBLIC KEY-----\n',
      },
    ],
  },
  recoverEventsRequest: { since: '2026-01-30T00:00:00.000Z', until: '2026-01-31T00:00:00.000Z' },
  recoverEventsResponse: { replayed: 2, eventIds: [eventId, '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'] },
  eventWithAttempts: {
    ...event,
    attempts: [
      {
        attemptNo: 1,
        url: 'https://partner.example/webhooks/kasa',
        startedAt: '2026-01-31T12:09:41.790Z',
        durationMs: 112,
        statusCode: 200,
        error: null,
        responseBody: 'ok',
      },
    ],
  },
  intentWebhook: { eventId, type: 'intent.approved', createdAt: '2026-01-31T12:09:41.512Z', livemode: true, data: depositIntent },
  topUpWebhook: {
    eventId: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
    type: 'intent.topped_up',
    createdAt: '2026-01-31T16:02:11.204Z',
    livemode: true,
    data: { ...depositIntent, amount: '200000', updatedAt: '2026-01-31T16:02:11.204Z' },
    topUp: { amount: '50000', bankTransferId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', receivedAt: '2026-01-31T15:58:40.000Z' },
  },
  receivedWebhook: {
    eventId: '0d1c2b3a-4958-4a6b-8c7d-e9f8a7b6c5d4',
    type: 'intent.received',
    createdAt: '2026-01-31T12:04:12.330Z',
    livemode: true,
    data: { ...depositIntent, status: 'PENDING_REVIEW', approvedAt: null, updatedAt: '2026-01-31T12:04:12.330Z' },
  },
  autoCancelledWebhook: {
    eventId: '1e2d3c4b-5a69-4b7c-8d9e-0f1a2b3c4d5e',
    type: 'intent.auto_cancelled',
    createdAt: '2026-01-31T12:30:00.418Z',
    livemode: true,
    data: { ...depositIntent, status: 'AUTO_CANCELLED', approvedAt: null, updatedAt: '2026-01-31T12:30:00.418Z' },
  },
  lateArrivalWebhook: {
    eventId: '2f3e4d5c-6b7a-4c8d-9eaf-1b2c3d4e5f60',
    type: 'intent.late_arrival',
    createdAt: '2026-01-31T12:41:07.052Z',
    livemode: true,
    data: { ...depositIntent, status: 'LATE_ARRIVAL', approvedAt: null, updatedAt: '2026-01-31T12:41:07.052Z' },
  },
  pingWebhook: {
    eventId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
    type: 'ping',
    createdAt: '2026-01-31T11:58:02.117Z',
    livemode: true,
    test: true,
    data: {},
  },
  withdrawalWebhook: {
    eventId: '7e6d5c4b-3a29-4817-9605-f4e3d2c1b0a9',
    type: 'withdrawal.sent',
    createdAt: '2026-01-31T15:20:03.004Z',
    livemode: true,
    data: withdrawal,
  },
  simulatedTransfer: {
    bankTransferId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
    status: 'MATCHED',
    amount: '150000',
    receivedAt: '2026-01-31T12:04:12.330Z',
    matchReasons: ['reference_exact', 'amount_exact', 'sender_matches_user'],
    unmatchedReason: null,
    suggestions: [],
    autoApproved: false,
    intent: { ...depositIntent, status: 'PENDING_REVIEW', approvedAt: null, updatedAt: '2026-01-31T12:04:12.330Z' },
  },
  simulatedIntent: { ...depositIntent, eventId },
  simulatedWithdrawal: { ...withdrawal, eventId: '7e6d5c4b-3a29-4817-9605-f4e3d2c1b0a9' },
  validationProblem: problemOf(
    'validation_failed',
    400,
    'The request is not valid',
    'The request body is not valid; nothing was created.',
    [{ field: 'amount', message: 'must be a string of digits in minor units (kurus) with no leading zero, sign or decimal point' }],
  ),
  unauthorizedProblem: problemOf('unauthorized', 401, 'Missing or invalid credentials', 'The API key is not valid.'),
  notFoundProblem: problemOf('not_found', 404, 'Not found', 'No deposit intent with this id.'),
  inUseProblem: problemOf(
    'idempotency_key_in_use',
    409,
    'A request with this Idempotency-Key is still in progress',
    'An earlier request with this Idempotency-Key has not finished; retry later with the same key.',
  ),
  reusedProblem: problemOf(
    'idempotency_key_reused',
    422,
    'Idempotency-Key was used with a different request body',
    'This Idempotency-Key was used with a different request; use a new key for a new operation.',
  ),
  rateLimitedProblem: problemOf(
    'rate_limited',
    429,
    'Too many requests',
    'The rate limit of this API key is exceeded; retry after Retry-After seconds.',
  ),
} as const;

/** Examples of the ops document. */
export const OPS_EXAMPLES = {
  validationProblem: problemOf('validation_failed', 400, 'The request is not valid', 'The request body is not valid.', [
    { field: 'reason', message: 'must be 1 to 500 characters and not only spaces' },
  ]),
  unauthorizedProblem: problemOf(
    'unauthorized',
    401,
    'Missing or invalid credentials',
    'Send an operator token as Authorization: Bearer <token>.',
  ),
  conflictProblem: problemOf(
    'conflict',
    409,
    'The record is not in a state that allows this',
    'The intent is APPROVED; a transfer cannot be assigned to a decided intent. Nothing was changed.',
    undefined,
    'intent_decided',
  ),
} as const;

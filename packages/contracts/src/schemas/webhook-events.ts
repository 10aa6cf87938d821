/**
 * JSON Schemas of the webhook bodies Kasa sends (docs/webhooks.md, What arrives): the same schemas document the
 * `webhooks` of the OpenAPI document and the `payload` of an event in the events API, which is the body exactly as
 * delivered (a `oneOf` of the two event bodies). Each event body's `type` lists only its kind's event types, so `type` tells a
 * reader which body it holds.
 */
import { eventTypesOf } from '../event-types.js';

const timestamp = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;

const livemode = {
  type: 'boolean',
  description: "False for an event of the site's sandbox (a test key's records, simulated money; docs/sandbox.md).",
} as const;

const test = {
  type: 'boolean',
  const: true,
  description:
    'Only on a test webhook (POST /api/v1/external/test/webhooks): a sample, not an event of a record; receivers may ignore it. Never in the events API.',
} as const;

const intentEventTypes = eventTypesOf('intent');
const withdrawalEventTypes = eventTypesOf('withdrawal');

export const topUpSchema = {
  $id: 'TopUp',
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'bankTransferId', 'receivedAt'],
  description:
    'Only in `intent.topped_up`: the money this top-up credited (kuruş), the transfer that brought it and when the bank received it. ' +
    'Credit the user `topUp.amount` once per eventId; `data.amount` is the new credited total of the intent.',
  properties: {
    amount: { type: 'string', pattern: '^[1-9][0-9]*$', description: 'Minor units (kurus), as a string.' },
    bankTransferId: uuid,
    receivedAt: timestamp,
  },
} as const;

export const intentWebhookEventSchema = {
  $id: 'IntentWebhookEvent',
  type: 'object',
  additionalProperties: false,
  required: ['eventId', 'type', 'createdAt', 'livemode', 'data'],
  description:
    'A change of a deposit: a decision, money received or arriving late, an automatic cancellation, or money credited to an approved deposit (`intent.topped_up`); `data` is the intent as GET /api/v1/external/intents/{intentId} returns it after the change.',
  properties: {
    eventId: uuid,
    type: { type: 'string', enum: intentEventTypes },
    createdAt: timestamp,
    livemode,
    test,
    data: { $ref: 'DepositIntent' },
    topUp: { $ref: 'TopUp' },
  },
} as const;

export const withdrawalWebhookEventSchema = {
  $id: 'WithdrawalWebhookEvent',
  type: 'object',
  additionalProperties: false,
  required: ['eventId', 'type', 'createdAt', 'livemode', 'data'],
  description:
    'A withdrawal outcome; `data` is the withdrawal as GET /api/v1/external/withdrawals/{withdrawalId} returns it after the change.',
  properties: {
    eventId: uuid,
    type: { type: 'string', enum: withdrawalEventTypes },
    createdAt: timestamp,
    livemode,
    test,
    data: { $ref: 'Withdrawal' },
  },
} as const;

/** The test webhook `ping`: signed and sent like an event, but about no record. */
export const pingWebhookEventSchema = {
  $id: 'PingWebhookEvent',
  type: 'object',
  additionalProperties: false,
  required: ['eventId', 'type', 'createdAt', 'livemode', 'test', 'data'],
  description:
    'Only as a test webhook of type `ping` (POST /api/v1/external/test/webhooks): it checks the receiver and its signature check; `data` is empty.',
  properties: {
    eventId: uuid,
    type: { type: 'string', const: 'ping' },
    createdAt: timestamp,
    livemode,
    test,
    data: { type: 'object', additionalProperties: false, maxProperties: 0, description: 'Always `{}`.' },
  },
} as const;

export const WEBHOOK_EVENT_SCHEMAS = {
  TopUp: topUpSchema,
  IntentWebhookEvent: intentWebhookEventSchema,
  WithdrawalWebhookEvent: withdrawalWebhookEventSchema,
  PingWebhookEvent: pingWebhookEventSchema,
} as const;

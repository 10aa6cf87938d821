/** JSON Schemas of the webhook surface: the webhook config PUT (docs/api.md, endpoint 7) and test webhooks. */
import { ALWAYS_SENT_EVENT_TYPES, EVENT_TYPES, OPT_IN_EVENT_TYPES } from '../event-types.js';
import { TEST_WEBHOOK_TYPES } from '../statuses.js';

/**
 * The event types a site receives. The SPEC's five are always sent and must be listed; the opt-in ones are added
 * by listing them. Absent from a PUT: the site's choice stays as it is.
 */
export const eventTypesProperty = {
  type: 'array',
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  items: { type: 'string', enum: [...EVENT_TYPES], 'x-message': `must be one of ${EVENT_TYPES.join(', ')}` },
  description: `Every event type the site receives. Must include the five always sent (${ALWAYS_SENT_EVENT_TYPES.join(', ')}); add ${OPT_IN_EVENT_TYPES.slice(0, -1).join(', ')} or ${OPT_IN_EVENT_TYPES.at(-1)} to receive them too. Omitted: unchanged.`,
  examples: [[...ALWAYS_SENT_EVENT_TYPES, OPT_IN_EVENT_TYPES.at(-1)]],
} as const;

/**
 * A webhook URL wherever one is set (the partner's webhook-config PUT, ops site creation): only a loose shape
 * here, the same on both. The rules themselves (characters, https, no credentials, allowed ports, public
 * addresses) are `checkWebhookUrl` in `@kasa/net-guard`, which both paths run, so their verdicts are identical.
 */
export const webhookUrlProperty = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  'x-message': 'must be an absolute https URL of at most 2048 characters',
  description:
    'HTTPS endpoint that receives the webhooks: URL characters only, no credentials, port 443 or 1024-65535, resolving only to public addresses.',
  examples: ['https://partner.example/webhooks/kasa'],
} as const;

export const updateWebhookConfigRequestSchema = {
  $id: 'UpdateWebhookConfigRequest',
  type: 'object',
  additionalProperties: false,
  required: ['webhookUrl'],
  properties: {
    webhookUrl: webhookUrlProperty,
    rotateSecret: {
      type: 'boolean',
      default: true,
      description: 'true (default): generate a new signing secret and return it once. false: keep the secret and change only the URL.',
    },
    eventTypes: eventTypesProperty,
  },
} as const;

/** `POST /test/webhooks`: the event type of the signed sample to send now, or `ping`. */
export const testWebhookRequestSchema = {
  $id: 'TestWebhookRequest',
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: {
      type: 'string',
      enum: [...TEST_WEBHOOK_TYPES],
      'x-message': `must be one of ${TEST_WEBHOOK_TYPES.join(', ')}`,
      description: 'Any event type (a sample body of that type), or `ping` (a body with no record).',
    },
  },
} as const;

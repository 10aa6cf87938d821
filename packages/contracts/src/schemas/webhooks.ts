/** JSON Schemas of the webhook surface: the webhook config PUT (docs/api.md, endpoint 7). */

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
  },
} as const;

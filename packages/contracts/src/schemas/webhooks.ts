/** JSON Schemas of the webhook surface: the webhook config PUT (SPEC endpoint 7). */

export const updateWebhookConfigRequestSchema = {
  $id: 'UpdateWebhookConfigRequest',
  type: 'object',
  additionalProperties: false,
  required: ['webhookUrl'],
  properties: {
    webhookUrl: {
      type: 'string',
      minLength: 1,
      maxLength: 2048,
      format: 'uri',
      'x-message': 'must be an absolute https URL',
      description: 'HTTPS endpoint that receives the webhooks; it must resolve only to public addresses and carry no credentials.',
      examples: ['https://partner.example/webhooks/kasa'],
    },
    rotateSecret: {
      type: 'boolean',
      default: true,
      description: 'true (default): generate a new signing secret and return it once. false: keep the secret and change only the URL.',
    },
  },
} as const;

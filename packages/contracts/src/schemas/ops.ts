/** JSON Schemas of the ops API's requests (operators and the kasa CLI). */

const amountBound = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,17}$',
  'x-message': 'must be a string of digits in minor units with no leading zero',
} as const;

export const createSiteRequestSchema = {
  $id: 'CreateSiteRequest',
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'name'],
  properties: {
    slug: {
      type: 'string',
      minLength: 2,
      maxLength: 32,
      pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
      'x-message': 'must be 2 to 32 lower-case letters, digits and single hyphens (it becomes part of API keys)',
    },
    name: { type: 'string', minLength: 1, maxLength: 140, pattern: '^[^\\u0000-\\u001f\\u007f]+$', 'x-message': 'must be 1 to 140 printable characters' },
    webhookUrl: { type: 'string', maxLength: 2048, pattern: '^https://', 'x-message': 'must be an https:// URL' },
    rateLimitPerMinute: { type: 'integer', minimum: 1, maximum: 100000 },
    depositTtlSeconds: { type: 'integer', minimum: 1, maximum: 604800 },
    minAmount: amountBound,
    maxAmount: amountBound,
  },
} as const;

export const createReceivingAccountRequestSchema = {
  $id: 'CreateReceivingAccountRequest',
  type: 'object',
  additionalProperties: false,
  required: ['bankName', 'holderName', 'iban'],
  properties: {
    bankName: { type: 'string', minLength: 2, maxLength: 140 },
    holderName: { type: 'string', minLength: 2, maxLength: 140 },
    iban: { type: 'string', minLength: 15, maxLength: 42, trIban: true },
  },
} as const;

export const issueApiKeyRequestSchema = {
  $id: 'IssueApiKeyRequest',
  type: 'object',
  additionalProperties: false,
  properties: {},
} as const;

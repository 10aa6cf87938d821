/**
 * The partner API as an OpenAPI 3.1 document, built from the same JSON Schemas the gateway validates with
 * and the same response schemas the contract test checks real responses against.
 */
import { PARTNER_EXAMPLES as EX } from './openapi-examples.js';
import { componentsOf, pathId, problem, queryParametersOf, ref, withoutUnusedSchemas, type Json } from './openapi-support.js';
import { REQUEST_SCHEMAS } from './schemas/requests.js';
import { RESPONSE_SCHEMAS } from './schemas/responses.js';
import { EVENT_TYPES } from './statuses.js';

const json = (description: string, schema: string, example: unknown, headers: Json = {}) => ({
  description,
  headers: { ...RATE_LIMIT_HEADERS, ...headers },
  content: { 'application/json': { schema: ref(schema), example } },
});
const body = (schema: string, example: unknown) => ({ required: true, content: { 'application/json': { schema: ref(schema), example } } });

const RATE_LIMIT_HEADERS = {
  RateLimit: { description: 'Remaining requests and seconds until reset: `"default";r=<n>;t=<s>`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The key\'s quota: `"default";q=60;w=60`.', schema: { type: 'string' } },
  'X-Request-Id': { description: 'Request id; a valid incoming one is kept.', schema: { type: 'string' } },
};

const COMMON_ERRORS = {
  '401': problem('unauthorized: missing or invalid API key', EX.unauthorizedProblem),
  '429': { ...problem('rate_limited', EX.rateLimitedProblem), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
  '500': problem('internal_error'),
  '503': problem('service_unavailable'),
};

const WRITE_ERRORS = {
  '400': problem('validation_failed or idempotency_key_missing', EX.validationProblem),
  '409': problem('idempotency_key_in_use: the same key is still in flight', EX.inUseProblem),
  '413': problem('payload_too_large: body over 64 KiB'),
  '415': problem('unsupported_media_type: Content-Type must be application/json'),
  '422': problem('idempotency_key_reused: the same key with a different body', EX.reusedProblem),
};

const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: 'Client-chosen, 1-255 visible characters (a UUID is best). Scoped to the site and route; kept at least 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function queryParameters(schemaName: 'listIntents' | 'listWithdrawals' | 'listEvents') {
  return queryParametersOf(REQUEST_SCHEMAS[schemaName]);
}

const replayed = {
  'Idempotent-Replayed': {
    description: '`true` when this answer replays an earlier request with the same key.',
    schema: { type: 'string' },
  },
};

/** The headers on every webhook delivery: Kasa's own (SPEC section 6) and the Standard Webhooks trio. */
const WEBHOOK_HEADERS = [
  {
    name: 'Service-Signature',
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=...]` over `eventId.t.rawBody`, keyed with the UTF-8 bytes of the whole `whsec_` secret; two `v1` entries for 24 hours after a rotation.',
    example: 't=1767182400,v1=5b1c0a0e6f0b7f5e3d7c2b8e9f1a4c6d8e0f2a4c6e8f0a2c4e6f8a0c2e4f6a8c',
  },
  {
    name: 'Service-Event-Id',
    description: 'The event id, the same as `eventId` in the body; deduplicate on it.',
    example: '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11',
  },
  {
    name: 'webhook-id',
    description: 'Standard Webhooks: the event id (the same as `Service-Event-Id`).',
    example: '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11',
  },
  { name: 'webhook-timestamp', description: 'Standard Webhooks: unix seconds of this attempt (the same as `t`).', example: '1767182400' },
  {
    name: 'webhook-signature',
    description:
      'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256>` over `id.timestamp.body`, one per active secret (docs/webhooks.md says which secret to give a Standard Webhooks library).',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
].map(({ name, description, example }) => ({ name, in: 'header', required: true, description, schema: { type: 'string' }, example }));

/** One `webhooks` entry per event type: what Kasa POSTs to the site's webhook URL, and what it expects back. */
function webhookOperations(): Json {
  const entries = EVENT_TYPES.map((type): [string, Json] => {
    const schema = type.startsWith('intent.') ? 'IntentWebhookEvent' : 'WithdrawalWebhookEvent';
    return [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          tags: ['Webhooks'],
          summary: `The \`${type}\` event`,
          description:
            "Kasa POSTs this to the site's webhook URL, retried up to 8 times 5 minutes apart until a 2xx. The same eventId may arrive more than once: deduplicate on it.",
          parameters: WEBHOOK_HEADERS,
          requestBody: body(schema, type.startsWith('intent.') ? EX.intentWebhook : EX.withdrawalWebhook),
          responses: {
            '200': { description: 'Stored (or a duplicate): any 2xx ends the delivery.' },
            '401': { description: 'Signature missing or wrong: counted as a failed attempt and retried.' },
          },
        },
      },
    ];
  });
  return Object.fromEntries(entries);
}

/** The webhook bodies as components: `data` is the record exactly as its status lookup returns it. */
function webhookSchemas(): Json {
  const body = (types: readonly string[], record: string, description: string) => ({
    type: 'object',
    additionalProperties: false,
    required: ['eventId', 'type', 'createdAt', 'data'],
    description,
    properties: {
      eventId: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: types },
      createdAt: { type: 'string', format: 'date-time' },
      data: ref(record),
    },
  });
  return {
    IntentWebhookEvent: body(
      EVENT_TYPES.filter((type) => type.startsWith('intent.')),
      'DepositIntent',
      'A deposit decision; `data` is the intent as GET /api/v1/external/intents/{intentId} returns it after the change.',
    ),
    WithdrawalWebhookEvent: body(
      EVENT_TYPES.filter((type) => type.startsWith('withdrawal.')),
      'Withdrawal',
      'A withdrawal outcome; `data` is the withdrawal as GET /api/v1/external/withdrawals/{withdrawalId} returns it after the change.',
    ),
  };
}

/** Builds the document; `serverUrl` is the `{base_url}` a partner was given (without `/api/v1`). */
export function buildOpenApiDocument(serverUrl = 'https://api.kasa.example') {
  return withoutUnusedSchemas(fullDocument(serverUrl));
}

function fullDocument(serverUrl: string) {
  const schemas = { ...componentsOf(REQUEST_SCHEMAS, [RESPONSE_SCHEMAS]), ...webhookSchemas() };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Kasa partner API',
      version: '1.0.0',
      description:
        'Deposit intents and withdrawal requests for partner backends (TRY, bank transfers). Amounts are strings of minor units. ' +
        'Errors are RFC 9457 problem details with the code in `error`. Every POST needs an Idempotency-Key.',
      contact: { name: 'Kasa partner support', url: 'https://kasa.example/support', email: 'partners@kasa.example' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Kasa-Partner-Terms' },
    },
    tags: [
      { name: 'Deposits', description: 'Deposit intents: create, look up, list.' },
      { name: 'Withdrawals', description: 'Withdrawal requests: create, look up, list.' },
      { name: 'Events', description: 'The delivery ledger of webhook events, and replay.' },
      { name: 'Site', description: "The site's webhook configuration." },
      { name: 'Webhooks', description: 'What Kasa sends to the webhook URL.' },
    ],
    webhooks: webhookOperations(),
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: '`sk_live_<site-slug>_<secret>`; server-side only.' } },
      schemas,
    },
    paths: {
      '/api/v1/external/deposits': {
        post: {
          operationId: 'createDeposit',
          tags: ['Deposits'],
          description:
            'Creates a deposit intent for one end user and returns the hosted deposit page URL. A retry with the same Idempotency-Key and body returns the same intent.',
          summary: 'Create a deposit intent',
          parameters: [idempotencyKey],
          requestBody: body('CreateDepositRequest', EX.createDepositRequest),
          responses: {
            '201': json('Created, or replayed', 'CreateDepositResponse', EX.createDepositResponse, replayed),
            ...WRITE_ERRORS,
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/withdrawals': {
        post: {
          operationId: 'createWithdrawal',
          tags: ['Withdrawals'],
          description:
            'Records a payout request to a TR IBAN; operators review and send it. A retry with the same Idempotency-Key and body returns the same withdrawal.',
          summary: 'Request a withdrawal (payout)',
          parameters: [idempotencyKey],
          requestBody: body('CreateWithdrawalRequest', EX.createWithdrawalRequest),
          responses: {
            '201': json('Received, or replayed', 'CreateWithdrawalResponse', EX.createWithdrawalResponse, replayed),
            ...WRITE_ERRORS,
            ...COMMON_ERRORS,
          },
        },
        get: {
          operationId: 'listWithdrawals',
          tags: ['Withdrawals'],
          description: "The site's withdrawals, newest first, in pages joined by an opaque `nextCursor`.",
          summary: 'List withdrawals, newest first',
          parameters: queryParameters('listWithdrawals'),
          responses: {
            '200': json('A page', 'WithdrawalList', EX.withdrawalList),
            '400': problem('validation_failed', EX.validationProblem),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/intents/{intentId}': {
        get: {
          operationId: 'getIntent',
          tags: ['Deposits'],
          description: "The intent as it stands now; another site's intent answers 404 like a missing one.",
          summary: 'Look up a deposit intent',
          parameters: [pathId('intentId')],
          responses: {
            '200': json('The intent', 'DepositIntent', EX.depositIntent),
            '404': problem("not_found (missing or another site's)", EX.notFoundProblem),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/withdrawals/{withdrawalId}': {
        get: {
          operationId: 'getWithdrawal',
          tags: ['Withdrawals'],
          description: "The withdrawal as it stands now; another site's withdrawal answers 404 like a missing one.",
          summary: 'Look up a withdrawal',
          parameters: [pathId('withdrawalId')],
          responses: {
            '200': json('The withdrawal', 'Withdrawal', EX.withdrawal),
            '404': problem("not_found (missing or another site's)", EX.notFoundProblem),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/intents': {
        get: {
          operationId: 'listIntents',
          tags: ['Deposits'],
          description: "The site's deposit intents, newest first, in pages joined by an opaque `nextCursor`.",
          summary: 'List deposit intents, newest first',
          parameters: queryParameters('listIntents'),
          responses: {
            '200': json('A page', 'DepositIntentList', EX.depositIntentList),
            '400': problem('validation_failed', EX.validationProblem),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/site/webhook-config': {
        put: {
          operationId: 'putWebhookConfig',
          tags: ['Site'],
          description:
            'Sets the webhook URL and, unless `rotateSecret` is false, returns a new signing secret once; the previous secret keeps signing for 24 hours.',
          summary: 'Change the webhook URL and (by default) rotate the signing secret',
          requestBody: body('UpdateWebhookConfigRequest', EX.webhookConfigRequest),
          responses: {
            '200': json('Recorded', 'WebhookConfigResponse', EX.webhookConfigResponse),
            '400': problem('validation_failed'),
            '413': problem('payload_too_large'),
            '415': problem('unsupported_media_type'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/events': {
        get: {
          operationId: 'listEvents',
          tags: ['Events'],
          description: "The site's webhook events with their delivery status, newest first.",
          summary: 'List webhook events, newest first',
          parameters: queryParameters('listEvents'),
          responses: {
            '200': json('A page', 'EventList', EX.eventList),
            '400': problem('validation_failed', EX.validationProblem),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/events/{eventId}': {
        get: {
          operationId: 'getEvent',
          tags: ['Events'],
          description: 'One event with every delivery attempt.',
          summary: 'Read an event with its delivery attempts',
          parameters: [pathId('eventId')],
          responses: {
            '200': json('The event', 'EventWithAttempts', EX.eventWithAttempts),
            '404': problem('not_found', EX.notFoundProblem),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/events/{eventId}/replay': {
        post: {
          operationId: 'replayEvent',
          tags: ['Events'],
          description: 'Starts a new delivery cycle of a DELIVERED or DEAD event with the same eventId and a fresh signature.',
          summary: 'Deliver an event again (typically a DEAD one): a new delivery cycle with the same eventId',
          parameters: [pathId('eventId'), idempotencyKey],
          responses: {
            '202': json('Accepted', 'Event', EX.event, replayed),
            '404': problem('not_found', EX.notFoundProblem),
            ...WRITE_ERRORS,
            ...COMMON_ERRORS,
          },
        },
      },
    },
  };
}

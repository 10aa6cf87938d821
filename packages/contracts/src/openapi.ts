/**
 * The partner API as an OpenAPI 3.1 document, built from the same JSON Schemas the gateway validates with
 * and the same response schemas the contract test checks real responses against.
 */
import { REQUEST_SCHEMAS } from './schemas/requests.js';
import { RESPONSE_SCHEMAS } from './schemas/responses.js';

type Json = Record<string, unknown>;

/** Drops `$id` and turns `$ref: "Name"` into `$ref: "#/components/schemas/Name"`, at every depth. */
function toComponent(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toComponent);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === '$id') continue;
    out[key] = key === '$ref' && typeof value === 'string' && !value.startsWith('#') ? `#/components/schemas/${value}` : toComponent(value);
  }
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const json = (description: string, schema: string, headers: Json = {}) => ({
  description,
  headers: { ...RATE_LIMIT_HEADERS, ...headers },
  content: { 'application/json': { schema: ref(schema) } },
});

const RATE_LIMIT_HEADERS = {
  RateLimit: { description: 'Remaining requests and seconds until reset: `"default";r=<n>;t=<s>`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The key\'s quota: `"default";q=60;w=60`.', schema: { type: 'string' } },
  'X-Request-Id': { description: 'Request id; a valid incoming one is kept.', schema: { type: 'string' } },
};

const COMMON_ERRORS = {
  '401': problem('unauthorized: missing or invalid API key'),
  '429': { ...problem('rate_limited'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
  '500': problem('internal_error'),
  '503': problem('service_unavailable'),
};

const WRITE_ERRORS = {
  '400': problem('validation_failed or idempotency_key_missing'),
  '409': problem('idempotency_key_in_use: the same key is still in flight'),
  '413': problem('payload_too_large: body over 64 KiB'),
  '415': problem('unsupported_media_type: Content-Type must be application/json'),
  '422': problem('idempotency_key_reused: the same key with a different body'),
};

const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: 'Client-chosen, 1-255 visible characters (a UUID is best). Scoped to the site and route; kept at least 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function queryParameters(schemaName: 'listIntents' | 'listWithdrawals' | 'listEvents') {
  const schema = REQUEST_SCHEMAS[schemaName] as unknown as { properties: Record<string, Json> };
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: toComponent(property),
  }));
}

const pathId = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
const replayed = {
  'Idempotent-Replayed': {
    description: '`true` when this answer replays an earlier request with the same key.',
    schema: { type: 'string' },
  },
};

/** Builds the document; `serverUrl` is the `{base_url}` a partner was given (without `/api/v1`). */
export function buildOpenApiDocument(serverUrl = 'https://api.kasa.example') {
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(REQUEST_SCHEMAS)) schemas[(schema as { $id: string }).$id ?? name] = toComponent(schema);
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) schemas[name] = toComponent(schema);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Kasa partner API',
      version: '1.0.0',
      description:
        'Deposit intents and withdrawal requests for partner backends (TRY, bank transfers). Amounts are strings of minor units. ' +
        'Errors are RFC 9457 problem details with the code in `error`. Every POST needs an Idempotency-Key.',
    },
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
          summary: 'Create a deposit intent',
          parameters: [idempotencyKey],
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateDepositRequest') } } },
          responses: { '201': json('Created, or replayed', 'CreateDepositResponse', replayed), ...WRITE_ERRORS, ...COMMON_ERRORS },
        },
      },
      '/api/v1/external/withdrawals': {
        post: {
          operationId: 'createWithdrawal',
          summary: 'Request a withdrawal (payout)',
          parameters: [idempotencyKey],
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateWithdrawalRequest') } } },
          responses: { '201': json('Received, or replayed', 'CreateWithdrawalResponse', replayed), ...WRITE_ERRORS, ...COMMON_ERRORS },
        },
        get: {
          operationId: 'listWithdrawals',
          summary: 'List withdrawals, newest first',
          parameters: queryParameters('listWithdrawals'),
          responses: { '200': json('A page', 'WithdrawalList'), '400': problem('validation_failed'), ...COMMON_ERRORS },
        },
      },
      '/api/v1/external/intents/{intentId}': {
        get: {
          operationId: 'getIntent',
          summary: 'Look up a deposit intent',
          parameters: [pathId('intentId')],
          responses: {
            '200': json('The intent', 'DepositIntent'),
            '404': problem("not_found (missing or another site's)"),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/withdrawals/{withdrawalId}': {
        get: {
          operationId: 'getWithdrawal',
          summary: 'Look up a withdrawal',
          parameters: [pathId('withdrawalId')],
          responses: {
            '200': json('The withdrawal', 'Withdrawal'),
            '404': problem("not_found (missing or another site's)"),
            ...COMMON_ERRORS,
          },
        },
      },
      '/api/v1/external/intents': {
        get: {
          operationId: 'listIntents',
          summary: 'List deposit intents, newest first',
          parameters: queryParameters('listIntents'),
          responses: { '200': json('A page', 'DepositIntentList'), '400': problem('validation_failed'), ...COMMON_ERRORS },
        },
      },
      '/api/v1/external/site/webhook-config': {
        put: {
          operationId: 'putWebhookConfig',
          summary: 'Change the webhook URL and (by default) rotate the signing secret',
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookConfigRequest') } } },
          responses: {
            '200': json('Recorded', 'WebhookConfigResponse'),
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
          summary: 'List webhook events, newest first',
          parameters: queryParameters('listEvents'),
          responses: { '200': json('A page', 'EventList'), '400': problem('validation_failed'), ...COMMON_ERRORS },
        },
      },
      '/api/v1/external/events/{eventId}': {
        get: {
          operationId: 'getEvent',
          summary: 'Read an event with its delivery attempts',
          parameters: [pathId('eventId')],
          responses: { '200': json('The event', 'EventWithAttempts'), '404': problem('not_found'), ...COMMON_ERRORS },
        },
      },
      '/api/v1/external/events/{eventId}/replay': {
        post: {
          operationId: 'replayEvent',
          summary: 'Deliver an event again (typically a DEAD one): a new delivery cycle with the same eventId',
          parameters: [pathId('eventId'), idempotencyKey],
          responses: { '202': json('Accepted', 'Event', replayed), '404': problem('not_found'), ...WRITE_ERRORS, ...COMMON_ERRORS },
        },
      },
    },
  };
}

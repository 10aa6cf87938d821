/**
 * The partner API as an OpenAPI 3.1 document, built from the same JSON Schemas the gateway validates with
 * and the same response schemas the contract test checks real responses against. Its operations come from the
 * route table (./partner-routes.ts); its webhooks are what Kasa sends.
 */
import { PARTNER_EXAMPLES as EX } from './openapi-examples.js';
import { componentsOf, pathId, problem, queryParametersOf, ref, withoutUnusedSchemas, type Json } from './openapi-support.js';
import { pathParameterNames } from './ops-routes.js';
import {
  PARTNER_API_VERSION,
  PARTNER_ROUTES,
  partnerDocumentPath,
  type PartnerErrorStatus,
  type PartnerOperationSpec,
} from './partner-routes.js';
import { REQUEST_SCHEMAS } from './schemas/requests.js';
import { RESPONSE_SCHEMAS } from './schemas/responses.js';
import { EVENT_TYPES, eventTypeEntry, type EventType } from './event-types.js';

const body = (schema: string, example: unknown) => ({ required: true, content: { 'application/json': { schema: ref(schema), example } } });

const RATE_LIMIT_HEADERS = {
  RateLimit: { description: 'Remaining requests and seconds until reset: `"default";r=<n>;t=<s>`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The key\'s quota: `"default";q=60;w=60`.', schema: { type: 'string' } },
  'X-Request-Id': { description: 'Request id; a valid incoming one is kept.', schema: { type: 'string' } },
};

const REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: '`true` when this answer replays an earlier request with the same key.',
    schema: { type: 'string' },
  },
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: 'Client-chosen, 1-255 visible characters (a UUID is best). Scoped to the site and route; kept at least 24 hours.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/** Each error answer of the table's lists; a 400's wording and example depend on what the operation checks. */
function errorAnswer(status: PartnerErrorStatus, spec: PartnerOperationSpec, operationId: string): Json {
  switch (status) {
    case '400':
      if (spec.idempotent) return problem('validation_failed or idempotency_key_missing', EX.validationProblem);
      return problem('validation_failed', spec.query ? EX.validationProblem : undefined);
    case '401':
      return problem('unauthorized: missing or invalid API key', EX.unauthorizedProblem);
    case '404':
      return problem("not_found (missing or another site's)", EX.notFoundProblem);
    case '409':
      // A deposit's answer is replayed from the ledger's record of the key, which a database failover can lose.
      if (operationId === 'createDeposit')
        return problem(
          'idempotency_key_in_use: the same key is still in flight; or conflict with reason idempotency_record_lost: the key was answered before but a database failover lost its record, and nothing was created',
          EX.inUseProblem,
        );
      if (operationId === 'getBalanceStatement')
        return problem(
          'conflict with reason statement_not_final: the day has not finished yet (or a posting of it may still be committing)',
        );
      return problem('idempotency_key_in_use: the same key is still in flight', EX.inUseProblem);
    case '413':
      return problem('payload_too_large: body over 64 KiB');
    case '415':
      return problem('unsupported_media_type: Content-Type must be application/json');
    case '422':
      return problem('idempotency_key_reused: the same key with a different body', EX.reusedProblem);
    case '429':
      return { ...problem('rate_limited', EX.rateLimitedProblem), headers: { 'Retry-After': { schema: { type: 'integer' } } } };
    case '500':
      return problem('internal_error');
    case '503':
      return problem('service_unavailable');
  }
}

/** A statement's day, the one path parameter that is not a UUID. */
const STATEMENT_DATE = {
  name: 'date',
  in: 'path',
  required: true,
  description: 'A calendar day in Europe/Istanbul, YYYY-MM-DD.',
  schema: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
};

/** An operation of the table as the document describes it. */
function operation(operationId: string, spec: PartnerOperationSpec): Json {
  const parameters = [
    ...pathParameterNames(spec.path).map((name) => (name === 'date' ? STATEMENT_DATE : pathId(name))),
    ...(spec.idempotent ? [IDEMPOTENCY_KEY] : []),
    ...(spec.query ? queryParametersOf(REQUEST_SCHEMAS[spec.query]) : []),
  ];
  return {
    operationId,
    tags: [spec.tag],
    description: spec.description,
    summary: spec.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body ? { requestBody: body(REQUEST_SCHEMAS[spec.body.schema].$id, spec.body.example) } : {}),
    responses: {
      [spec.status ?? '200']: {
        description: spec.responseDescription,
        headers: { ...RATE_LIMIT_HEADERS, ...(spec.idempotent ? REPLAYED_HEADER : {}) },
        content: { 'application/json': { schema: ref(spec.response), example: spec.example } },
      },
      ...Object.fromEntries(spec.errors.map((status) => [status, errorAnswer(status, spec, operationId)])),
    },
  };
}

/** The document's paths: every operation of the table, under its full path in the document's `{name}` form. */
function partnerPaths(): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const [operationId, spec] of Object.entries(PARTNER_ROUTES) as Array<[string, PartnerOperationSpec]>) {
    const path = partnerDocumentPath(spec.path);
    paths[path] = { ...paths[path], [spec.method.toLowerCase()]: operation(operationId, spec) };
  }
  return paths;
}

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

/**
 * The example body of each event type's `webhooks` entry, and of the test webhook `ping`: the examples written out
 * here, else the record's example with the type and the status its registry entry gives.
 */
const WRITTEN_WEBHOOK_EXAMPLES: Partial<Record<EventType | 'ping', Json>> = {
  'intent.approved': EX.intentWebhook,
  'intent.received': EX.receivedWebhook,
  'intent.auto_cancelled': EX.autoCancelledWebhook,
  'intent.late_arrival': EX.lateArrivalWebhook,
  'intent.topped_up': EX.topUpWebhook,
  'withdrawal.sent': EX.withdrawalWebhook,
  ping: EX.pingWebhook,
};

function webhookExample(type: EventType | 'ping'): Json {
  const written = WRITTEN_WEBHOOK_EXAMPLES[type];
  if (written !== undefined || type === 'ping') return written ?? EX.pingWebhook;
  const { record, status } = eventTypeEntry(type);
  const base = (record === 'intent' ? EX.intentWebhook : EX.withdrawalWebhook) as { data: Json };
  return { ...base, type, data: { ...base.data, status } };
}

/** What a `webhooks` entry says of when and to whom it is sent; `ping` is only ever a test webhook. */
function whenSent(type: EventType | 'ping'): string {
  if (type === 'ping')
    return "Kasa POSTs this once to the site's webhook URL when the partner asks for a test webhook of type `ping` (POST /api/v1/external/test/webhooks): never retried, never recorded, about no record.";
  const entry = eventTypeEntry(type);
  return (
    `${entry.sentWhen} Kasa POSTs this to the site's webhook URL, retried up to 8 times 5 minutes apart until a 2xx. The same eventId may arrive more than once: deduplicate on it.` +
    (entry.delivery === 'opt-in'
      ? ' Sent only to a site that chose it in `eventTypes` of PUT /api/v1/external/site/webhook-config.'
      : ' Sent to every site.')
  );
}

/** The body schema of a `webhooks` entry. */
function webhookSchemaOf(type: EventType | 'ping'): string {
  if (type === 'ping') return 'PingWebhookEvent';
  return eventTypeEntry(type).record === 'intent' ? 'IntentWebhookEvent' : 'WithdrawalWebhookEvent';
}

/** One `webhooks` entry per event type (and the test `ping`): what Kasa POSTs to the site's webhook URL, and what it expects back. */
function webhookOperations(): Json {
  const entries = [...EVENT_TYPES, 'ping' as const].map((type): [string, Json] => {
    return [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          tags: ['Webhooks'],
          summary: type === 'ping' ? 'The test webhook `ping`' : `The \`${type}\` event`,
          description: whenSent(type),
          parameters: WEBHOOK_HEADERS,
          requestBody: body(webhookSchemaOf(type), webhookExample(type)),
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

/** Builds the document; `serverUrl` is the `{base_url}` a partner was given (without `/api/v1`). */
export function buildOpenApiDocument(serverUrl = 'https://api.kasa.example') {
  return withoutUnusedSchemas(fullDocument(serverUrl));
}

function fullDocument(serverUrl: string) {
  const schemas = componentsOf(REQUEST_SCHEMAS, [RESPONSE_SCHEMAS]);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Kasa partner API',
      version: PARTNER_API_VERSION,
      description:
        'Deposit intents and withdrawal requests for partner backends (TRY, bank transfers). Amounts are strings of minor units. ' +
        'Errors are RFC 9457 problem details with the code in `error`. Every POST but a test webhook needs an Idempotency-Key.',
      contact: { name: 'Kasa partner support', url: 'https://kasa.example/support', email: 'partners@kasa.example' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Kasa-Partner-Terms' },
    },
    tags: [
      { name: 'Deposits', description: 'Deposit intents: create, look up, list.' },
      { name: 'Withdrawals', description: 'Withdrawal requests: create, look up, list.' },
      { name: 'Events', description: 'The delivery ledger of webhook events, and replay.' },
      { name: 'Site', description: "The site's webhook configuration, its balance, its balance movements and signed daily statements." },
      {
        name: 'Sandbox',
        description:
          "Test keys only (`sk_test_`): simulate the bank and Kasa's operators on the site's sandbox records, each step with its real webhook (docs/sandbox.md).",
      },
      { name: 'Webhooks', description: 'What Kasa sends to the webhook URL.' },
    ],
    webhooks: webhookOperations(),
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: '`sk_live_<site-slug>_<secret>`; server-side only.' } },
      schemas,
    },
    paths: partnerPaths(),
  };
}

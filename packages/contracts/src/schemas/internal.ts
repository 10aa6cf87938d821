/**
 * JSON Schemas of the ledger's internal API envelopes (gateway -> ledger). Not partner-facing, so not in
 * the OpenAPI document; the partner's request inside an envelope is checked with its own schema.
 */

const sha256Hex = { type: 'string', pattern: '^[0-9a-f]{64}$', 'x-message': 'must be a SHA-256 hex digest' } as const;
const uuid = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  'x-message': 'must be the acting API key id',
} as const;

/**
 * A create as the gateway forwards it: the partner's key and body fingerprint, and the body itself.
 * `answeredBefore`: the gateway remembers answering this key with this body (its Redis entry is done), so the
 * ledger must replay its record of the key and never create anew (409 `idempotency_record_lost` when it has none).
 */
export const createEnvelopeSchema = {
  $id: 'InternalCreateEnvelope',
  type: 'object',
  required: ['idempotencyKey', 'fingerprint', 'request'],
  properties: { idempotencyKey: { type: 'string' }, fingerprint: sha256Hex, request: {}, answeredBefore: { type: 'boolean' } },
} as const;

/** A partner's replay request as the gateway forwards it. */
export const replayEnvelopeSchema = {
  $id: 'InternalReplayEnvelope',
  type: 'object',
  required: ['idempotencyKey', 'fingerprint', 'apiKeyId'],
  properties: { idempotencyKey: { type: 'string' }, fingerprint: sha256Hex, apiKeyId: { type: 'string' } },
} as const;

/** A webhook-config change with the API key that made it (the audit entry names it). */
export const webhookConfigEnvelopeSchema = {
  $id: 'InternalWebhookConfigEnvelope',
  type: 'object',
  required: ['apiKeyId', 'request'],
  properties: { apiKeyId: uuid, request: {} },
} as const;

/** A partner's recovery request as the gateway forwards it, with the API key that made it (each replay's audit names it). */
export const recoverEventsEnvelopeSchema = {
  $id: 'InternalRecoverEventsEnvelope',
  type: 'object',
  required: ['idempotencyKey', 'fingerprint', 'apiKeyId', 'request'],
  properties: { idempotencyKey: { type: 'string' }, fingerprint: sha256Hex, apiKeyId: uuid, request: {} },
} as const;

/** A sandbox simulator step with the test key that asked for it (the audit entries name it). */
export const sandboxEnvelopeSchema = {
  $id: 'InternalSandboxEnvelope',
  type: 'object',
  required: ['apiKeyId', 'request'],
  properties: { apiKeyId: uuid, request: { type: 'object' } },
} as const;

/** The gateway asking who an API key belongs to: the key's hash and the slug it names. */
export const resolveApiKeyRequestSchema = {
  $id: 'InternalResolveApiKey',
  type: 'object',
  required: ['keyHash', 'slug'],
  properties: { keyHash: sha256Hex, slug: { type: 'string' } },
} as const;

export const INTERNAL_SCHEMAS = {
  createEnvelope: createEnvelopeSchema,
  replayEnvelope: replayEnvelopeSchema,
  webhookConfigEnvelope: webhookConfigEnvelopeSchema,
  sandboxEnvelope: sandboxEnvelopeSchema,
  recoverEventsEnvelope: recoverEventsEnvelopeSchema,
  resolveApiKey: resolveApiKeyRequestSchema,
} as const;

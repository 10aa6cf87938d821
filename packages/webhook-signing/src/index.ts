/**
 * `@kasa/webhook-signing`: signs and verifies Kasa webhook deliveries.
 *
 * Scheme (v1):
 * - `Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`
 * - `Service-Event-Id: <eventId>`
 * - `v1 = hex(HMAC-SHA256(key = UTF-8 bytes of the whole "whsec_..." secret,
 *   message = eventId + "." + t + "." + rawBody))`
 *
 * During secret rotation the sender includes one `v1` per secret (new first);
 * a receiver accepts if any `v1` matches any of its secrets.
 *
 * Senders use {@link buildWebhookHeaders} / {@link buildSignatureHeader};
 * receivers use {@link verifyWebhook} or {@link isValidWebhook}.
 *
 * @packageDocumentation
 */

export {
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  MAX_EVENT_ID_LENGTH,
  MAX_HEADER_LENGTH,
  MAX_SIGNATURES,
  SECRET_PREFIX,
  SIGNATURE_HEADER,
  SIGNATURE_SCHEME,
} from './constants.js';
export { WEBHOOK_VERIFICATION_FAILURE_REASONS, WebhookVerificationError, type WebhookVerificationFailureReason } from './errors.js';
export type { HeaderValue, RawBody } from './inputs.js';
export { parseSignatureHeader, type ParsedSignatureHeader } from './parse.js';
export { generateWebhookSecret, isValidWebhookSecretFormat } from './secret.js';
export {
  buildSignatureHeader,
  buildWebhookHeaders,
  signPayload,
  type BuildSignatureHeaderInput,
  type SignPayloadInput,
  type WebhookHeaders,
} from './sign.js';
export {
  buildStandardWebhookHeaders,
  isValidStandardWebhook,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  toStandardWebhooksSecret,
  verifyStandardWebhook,
  type IncomingHeaders,
  type StandardWebhookHeaders,
  type VerifyStandardWebhookInput,
} from './standard.js';
export { isValidWebhook, verifyWebhook, type NowInput, type VerifyWebhookInput } from './verify.js';

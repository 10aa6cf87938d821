import { EVENT_ID_HEADER, MAX_SIGNATURES, SIGNATURE_HEADER, SIGNATURE_SCHEME } from './constants.js';
import { assertValidEventId, assertValidTimestamp, toBodyBytes, type RawBody } from './inputs.js';
import { computeSignature } from './hmac.js';
import { assertUsableSecret } from './secret.js';
import { buildStandardWebhookHeaders, type StandardWebhookHeaders } from './standard.js';

/** Input to {@link signPayload}. */
export interface SignPayloadInput {
  /** The full `whsec_...` secret; its UTF-8 bytes (prefix included) are the HMAC key. */
  secret: string;
  /** Event id, sent alongside in the `Service-Event-Id` header. */
  eventId: string;
  /** Signing time in whole unix seconds (NOT milliseconds). */
  timestamp: number;
  /** Exact request body bytes that will be sent. */
  rawBody: RawBody;
}

/** Input to {@link buildSignatureHeader} and {@link buildWebhookHeaders}. */
export interface BuildSignatureHeaderInput {
  /**
   * Secrets to sign with, current secret first. During rotation pass
   * `[newSecret, previousSecret]` so receivers on either secret verify.
   */
  secrets: readonly string[];
  /** Event id, sent alongside in the `Service-Event-Id` header. */
  eventId: string;
  /** Signing time in whole unix seconds (NOT milliseconds). */
  timestamp: number;
  /** Exact request body bytes that will be sent. */
  rawBody: RawBody;
}

/** Headers to attach to an outgoing webhook request: Kasa's two and the three Standard Webhooks ones. */
export type WebhookHeaders = Record<typeof SIGNATURE_HEADER | typeof EVENT_ID_HEADER, string> & StandardWebhookHeaders;

/**
 * Computes one `v1` signature:
 * `hex(HMAC-SHA256(key = UTF-8(secret), message = eventId + "." + t + "." + rawBody))`.
 *
 * The event id is part of the message so a signature cannot be replayed under
 * a different event id (which would defeat receivers' idempotency checks).
 *
 * @returns 64 lowercase hex characters.
 * @throws TypeError/RangeError on an unusable secret, event id, timestamp or body.
 */
export function signPayload(input: SignPayloadInput): string {
  const { secret, eventId, timestamp, rawBody } = input;
  assertUsableSecret(secret);
  assertValidEventId(eventId);
  assertValidTimestamp(timestamp);
  return computeSignature(secret, eventId, timestamp, toBodyBytes(rawBody)).toString('hex');
}

/**
 * Builds the `Service-Signature` header value:
 * `t=<timestamp>,v1=<sig with secrets[0]>[,v1=<sig with secrets[1]>...]`.
 *
 * @throws TypeError if `secrets` is empty, too long, or holds an unusable secret.
 */
export function buildSignatureHeader(input: BuildSignatureHeaderInput): string {
  const { secrets, eventId, timestamp, rawBody } = input;
  // Checked through `unknown` so plain-JS callers passing a single string get
  // a clear error instead of signing with each character.
  const candidate: unknown = secrets;
  if (!Array.isArray(candidate) || candidate.length === 0) {
    throw new TypeError('secrets must be a non-empty array (current secret first)');
  }
  if (secrets.length > MAX_SIGNATURES) {
    // Receivers reject headers with more entries, so refuse to produce one.
    throw new TypeError(`at most ${MAX_SIGNATURES} secrets can sign one webhook`);
  }
  secrets.forEach((secret: unknown, i) => assertUsableSecret(secret, `secrets[${i}]`));
  assertValidEventId(eventId);
  assertValidTimestamp(timestamp);
  const body = toBodyBytes(rawBody);

  const parts = [`t=${timestamp}`];
  for (const secret of secrets) {
    const hex = computeSignature(secret, eventId, timestamp, body).toString('hex');
    parts.push(`${SIGNATURE_SCHEME}=${hex}`);
  }
  return parts.join(',');
}

/**
 * For senders: every header to attach to the outgoing request, `Service-Signature` (see
 * {@link buildSignatureHeader}) and `Service-Event-Id`, and the Standard Webhooks `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` over the same content with the same keys.
 */
export function buildWebhookHeaders(input: BuildSignatureHeaderInput): WebhookHeaders {
  return {
    [SIGNATURE_HEADER]: buildSignatureHeader(input),
    [EVENT_ID_HEADER]: input.eventId,
    ...buildStandardWebhookHeaders(input),
  };
}

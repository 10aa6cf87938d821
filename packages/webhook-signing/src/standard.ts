/**
 * The Standard Webhooks headers (https://www.standardwebhooks.com/) on every delivery, next to Kasa's own:
 *
 *   webhook-id: <eventId>
 *   webhook-timestamp: <unix seconds>
 *   webhook-signature: v1,<base64 HMAC-SHA256>[ v1,<base64>...]
 *
 * The signed content is the specification's `id.timestamp.body`, which is exactly Kasa's `eventId.t.rawBody`, and
 * the key bytes are Kasa's: the UTF-8 bytes of the whole `whsec_...` secret. Standard Webhooks libraries read a
 * secret as `whsec_` + base64 of the key bytes, so a partner gives them {@link toStandardWebhooksSecret}(secret),
 * never the Kasa secret itself.
 */
import { timingSafeEqual } from 'node:crypto';

import { MAX_HEADER_LENGTH, MAX_SIGNATURES, SECRET_PREFIX } from './constants.js';
import { WebhookVerificationError } from './errors.js';
import { computeSignature } from './hmac.js';
import { assertValidEventId, assertValidTimestamp, describeEventIdProblem, toBodyBytes, type RawBody } from './inputs.js';
import { assertUsableSecret } from './secret.js';
import { normaliseSecrets, normaliseTolerance, resolveNow, type NowInput } from './verify.js';

export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

export type StandardWebhookHeaders = Record<
  typeof STANDARD_ID_HEADER | typeof STANDARD_TIMESTAMP_HEADER | typeof STANDARD_SIGNATURE_HEADER,
  string
>;

/** Request headers as frameworks give them: a plain object (names in any case) or a Fetch `Headers`. */
export type IncomingHeaders = Readonly<Record<string, string | readonly string[] | undefined>> | Headers;

/** Input to {@link verifyStandardWebhook} and {@link isValidStandardWebhook}. */
export interface VerifyStandardWebhookInput {
  /** The request's headers; `webhook-id`, `webhook-timestamp` and `webhook-signature` are read, in any case. */
  headers: IncomingHeaders;
  /** Exact body bytes as received, before any JSON parsing. */
  rawBody: RawBody;
  /** The Kasa secret (`whsec_` + 43 characters, as Kasa gave it), or several during rotation. NOT converted. */
  secrets: string | readonly string[];
  /** Allowed skew in seconds, both directions. Default 300. */
  toleranceSeconds?: number | undefined;
  /** Current time; defaults to the system clock. */
  now?: NowInput | undefined;
}

/**
 * The secret to hand a Standard Webhooks library (`standardwebhooks`, `svix`, or any other language's) for a Kasa
 * site secret: `whsec_` followed by the standard base64 of the UTF-8 bytes of the whole Kasa secret, prefix
 * included. Those libraries base64-decode what follows `whsec_` and use the bytes as the HMAC key, so they end up
 * with exactly Kasa's key.
 *
 * @throws TypeError when `secret` is not a usable Kasa secret (the value is never echoed).
 */
export function toStandardWebhooksSecret(secret: string): string {
  assertUsableSecret(secret);
  return SECRET_PREFIX + Buffer.from(secret, 'utf8').toString('base64');
}

/**
 * The three Standard Webhooks headers, one `v1,` signature per secret (current first, as in Service-Signature).
 *
 * @throws TypeError/RangeError on unusable secrets, event id, timestamp or body, like `buildSignatureHeader`.
 */
export function buildStandardWebhookHeaders(input: {
  secrets: readonly string[];
  eventId: string;
  timestamp: number;
  rawBody: RawBody;
}): StandardWebhookHeaders {
  const { secrets, eventId, timestamp } = input;
  const candidate: unknown = secrets;
  if (!Array.isArray(candidate) || candidate.length === 0) throw new TypeError('secrets must be a non-empty array (current secret first)');
  if (secrets.length > MAX_SIGNATURES) throw new TypeError(`at most ${MAX_SIGNATURES} secrets can sign one webhook`);
  secrets.forEach((secret: unknown, i) => assertUsableSecret(secret, `secrets[${i}]`));
  assertValidEventId(eventId);
  assertValidTimestamp(timestamp);
  const body = toBodyBytes(input.rawBody);
  return {
    [STANDARD_ID_HEADER]: eventId,
    [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_SIGNATURE_HEADER]: secrets
      .map((secret) => `v1,${computeSignature(secret, eventId, timestamp, body).toString('base64')}`)
      .join(' '),
  };
}

/**
 * Verifies the Standard Webhooks headers of a delivery with Kasa secrets (the same keys as Service-Signature, so
 * pass the secret exactly as Kasa gave it). Returns normally when the webhook is authentic and fresh.
 *
 * As the specification asks: `webhook-signature` is a space-separated list of `<version>,<signature>`; entries of
 * other versions are ignored; the request is authentic if any `v1` entry matches any secret (every pair is compared
 * in constant time, without an early exit); the timestamp must be within `toleranceSeconds` both ways.
 *
 * @throws WebhookVerificationError (`missing_event_id`, `missing_header`, `malformed_header`,
 *   `timestamp_out_of_tolerance`, `no_matching_signature`) when the webhook must be rejected.
 * @throws TypeError/RangeError on receiver misconfiguration (no/unusable secrets, bad tolerance or clock, a body
 *   that is not raw bytes).
 */
export function verifyStandardWebhook(input: VerifyStandardWebhookInput): void {
  const secrets = normaliseSecrets(input.secrets);
  const tolerance = normaliseTolerance(input.toleranceSeconds);
  const nowSeconds = resolveNow(input.now);
  const body = toBodyBytes(input.rawBody);

  const id = readHeader(input.headers, STANDARD_ID_HEADER);
  const timestampText = readHeader(input.headers, STANDARD_TIMESTAMP_HEADER);
  const signatureText = readHeader(input.headers, STANDARD_SIGNATURE_HEADER);
  const idProblem = describeEventIdProblem(id);
  if (idProblem !== null) throw new WebhookVerificationError('malformed_header', `${STANDARD_ID_HEADER} header ${idProblem}`);
  if (!/^(0|[1-9][0-9]{0,10})$/.test(timestampText)) {
    throw new WebhookVerificationError('malformed_header', `${STANDARD_TIMESTAMP_HEADER} header is not unix seconds`);
  }
  if (signatureText.length > MAX_HEADER_LENGTH) {
    throw new WebhookVerificationError('malformed_header', `${STANDARD_SIGNATURE_HEADER} header is too long`);
  }
  const received = parseStandardSignatures(signatureText);

  const timestamp = Number(timestampText);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `${STANDARD_TIMESTAMP_HEADER} is more than ${tolerance}s away from the current time`,
    );
  }

  const expected = secrets.map((secret) => computeSignature(secret, id, timestamp, body));
  let matched = false;
  for (const signature of received) {
    for (const candidate of expected) {
      if (signature.length === candidate.length && timingSafeEqual(signature, candidate)) matched = true;
    }
  }
  if (!matched) throw new WebhookVerificationError('no_matching_signature', 'no v1 webhook-signature matches the configured secret(s)');
}

/**
 * Boolean form of {@link verifyStandardWebhook}: `false` for any {@link WebhookVerificationError}; configuration
 * errors still throw.
 */
export function isValidStandardWebhook(input: VerifyStandardWebhookInput): boolean {
  try {
    verifyStandardWebhook(input);
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

/** The `v1` signatures as 32-byte buffers; other versions (e.g. `v1a`, asymmetric) are skipped. */
function parseStandardSignatures(text: string): Buffer[] {
  const entries = text.split(' ').filter((entry) => entry !== '');
  if (entries.length > MAX_SIGNATURES) {
    throw new WebhookVerificationError('malformed_header', `${STANDARD_SIGNATURE_HEADER} header has more than ${MAX_SIGNATURES} entries`);
  }
  const signatures: Buffer[] = [];
  for (const entry of entries) {
    const comma = entry.indexOf(',');
    if (comma <= 0)
      throw new WebhookVerificationError('malformed_header', `${STANDARD_SIGNATURE_HEADER} entry is not <version>,<signature>`);
    if (entry.slice(0, comma) !== 'v1') continue;
    const value = entry.slice(comma + 1);
    // 32 bytes are 44 base64 characters ending in one "=".
    if (!/^[A-Za-z0-9+/]{43}=$/.test(value)) {
      throw new WebhookVerificationError('malformed_header', `${STANDARD_SIGNATURE_HEADER} v1 entry is not a base64 HMAC-SHA256`);
    }
    signatures.push(Buffer.from(value, 'base64'));
  }
  if (signatures.length === 0) throw new WebhookVerificationError('malformed_header', `${STANDARD_SIGNATURE_HEADER} has no v1 signature`);
  return signatures;
}

/** One header's single value, looked up case-insensitively; a repeated header is malformed. */
function readHeader(headers: IncomingHeaders, name: string): string {
  let value: unknown;
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    value = headers.get(name) ?? undefined;
  } else {
    const record = headers as Readonly<Record<string, unknown>>;
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
    if (Array.isArray(value)) {
      if (value.length > 1) throw new WebhookVerificationError('malformed_header', `${name} header appears more than once`);
      value = value[0];
    }
  }
  if (value === undefined || value === null || value === '') {
    throw new WebhookVerificationError(name === STANDARD_ID_HEADER ? 'missing_event_id' : 'missing_header', `${name} header is missing`);
  }
  if (typeof value !== 'string') throw new WebhookVerificationError('malformed_header', `${name} header is malformed`);
  return value;
}

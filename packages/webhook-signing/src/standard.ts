/**
 * The Standard Webhooks headers (https://www.standardwebhooks.com/) on every delivery, next to Kasa's own:
 *
 *   webhook-id: <eventId>
 *   webhook-timestamp: <unix seconds>
 *   webhook-signature: v1,<base64 HMAC-SHA256>[ v1,<base64>...]
 *
 * The signed content is Kasa's own, `eventId.t.rawBody`, and the key bytes are Kasa's own too: the UTF-8
 * bytes of the whole `whsec_...` secret. Standard Webhooks libraries take a secret as `whsec_` + base64 of
 * the key bytes, so a partner gives them {@link toStandardWebhooksSecret}(secret), never the secret itself.
 */
import { timingSafeEqual } from 'node:crypto';

import { DEFAULT_TOLERANCE_SECONDS, MAX_SIGNATURES, SECRET_PREFIX } from './constants.js';
import { WebhookVerificationError } from './errors.js';
import { assertValidEventId, assertValidTimestamp, toBodyBytes, type RawBody } from './inputs.js';
import { assertUsableSecret } from './secret.js';
import { computeSignature } from './sign.js';

export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

export type StandardWebhookHeaders = Record<
  typeof STANDARD_ID_HEADER | typeof STANDARD_TIMESTAMP_HEADER | typeof STANDARD_SIGNATURE_HEADER,
  string
>;

/**
 * The secret to hand a Standard Webhooks library (`standardwebhooks`, `svix`) for a Kasa site secret: `whsec_`
 * followed by the base64 of the UTF-8 bytes of the whole Kasa secret, prefix included.
 */
export function toStandardWebhooksSecret(secret: string): string {
  assertUsableSecret(secret);
  return SECRET_PREFIX + Buffer.from(secret, 'utf8').toString('base64');
}

/** The three Standard Webhooks headers, one `v1,` signature per secret (current first, as in Service-Signature). */
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
 * Verifies the Standard Webhooks headers of a delivery with Kasa secrets (the same keys as Service-Signature).
 * Throws {@link WebhookVerificationError} when a header is missing or malformed, the timestamp is more than
 * `toleranceSeconds` away from `now` (unix seconds), or no `v1,` signature matches any secret.
 */
export function verifyStandardWebhook(input: {
  headers: Record<string, string | string[] | undefined>;
  rawBody: RawBody;
  secrets: string | readonly string[];
  toleranceSeconds?: number;
  now?: number;
}): void {
  const secrets = typeof input.secrets === 'string' ? [input.secrets] : [...input.secrets];
  if (secrets.length === 0) throw new TypeError('at least one secret is needed');
  secrets.forEach((secret: unknown, i) => assertUsableSecret(secret, `secrets[${i}]`));
  const header = (name: string): string => {
    const value = input.headers[name] ?? input.headers[name.toLowerCase()];
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text !== 'string' || text === '')
      throw new WebhookVerificationError(name === STANDARD_ID_HEADER ? 'missing_event_id' : 'missing_header', `missing ${name} header`);
    return text;
  };
  const id = header(STANDARD_ID_HEADER);
  const timestampText = header(STANDARD_TIMESTAMP_HEADER);
  const signatures = header(STANDARD_SIGNATURE_HEADER);
  if (!/^[1-9][0-9]{0,10}$/.test(timestampText))
    throw new WebhookVerificationError('malformed_header', 'webhook-timestamp is not unix seconds');
  const timestamp = Number(timestampText);
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (timestamp < now - tolerance) throw new WebhookVerificationError('timestamp_out_of_tolerance', 'webhook-timestamp is too old');
  if (timestamp > now + tolerance) throw new WebhookVerificationError('timestamp_out_of_tolerance', 'webhook-timestamp is in the future');
  const given = signatures
    .split(' ')
    .slice(0, MAX_SIGNATURES)
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  if (given.length === 0) throw new WebhookVerificationError('malformed_header', 'webhook-signature has no v1 signature');
  const body = toBodyBytes(input.rawBody);
  for (const secret of secrets) {
    const expected = computeSignature(secret, id, timestamp, body);
    if (given.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))) return;
  }
  throw new WebhookVerificationError('no_matching_signature', 'no webhook-signature matches');
}

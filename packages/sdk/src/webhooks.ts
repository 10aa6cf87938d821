/**
 * Verifying a webhook before trusting it. Kasa signs every delivery twice over the same content and key:
 * `Service-Signature` (Kasa's scheme) and the Standard Webhooks `webhook-signature`. Either verifies here.
 */
import {
  toStandardWebhooksSecret,
  verifyStandardWebhook,
  verifyWebhook as verifyServiceSignature,
  WebhookVerificationError,
} from '@kasa/webhook-signing';
import type { components } from './generated/kasa-api.js';

export { toStandardWebhooksSecret, WebhookVerificationError };

/** A webhook body: a deposit decision or a withdrawal outcome, `data` being the record after the change. */
export type WebhookEvent = components['schemas']['IntentWebhookEvent'] | components['schemas']['WithdrawalWebhookEvent'];

export interface VerifyWebhookInput {
  /** Your site's `whsec_...` secret, or during a rotation `[newSecret, previousSecret]`. */
  secret: string | readonly string[];
  /** The request's headers as your framework gives them (names in any case). */
  headers: Record<string, string | string[] | undefined> | Headers;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** Allowed clock difference in seconds, both ways; default 300. */
  toleranceSeconds?: number;
}

/**
 * Checks the signature (Service-Signature, else the Standard Webhooks headers), the timestamp and the event id,
 * then returns the parsed event. Throws `WebhookVerificationError` otherwise: answer 400 or 401 then.
 * Deduplicate on `eventId`: Kasa may deliver an event more than once.
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent {
  const headers = lowerCased(input.headers);
  const rawBody = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : input.rawBody;
  const secrets = typeof input.secret === 'string' ? [input.secret] : [...input.secret];
  const tolerance = input.toleranceSeconds === undefined ? {} : { toleranceSeconds: input.toleranceSeconds };
  if (headers['service-signature'] !== undefined) {
    verifyServiceSignature({ header: headers['service-signature'], eventId: headers['service-event-id'], rawBody, secrets, ...tolerance });
  } else {
    verifyStandardWebhook({ headers, rawBody, secrets, ...tolerance });
  }
  const event = JSON.parse(Buffer.from(rawBody).toString('utf8')) as WebhookEvent;
  const headerId = headers['service-event-id'] ?? headers['webhook-id'];
  if (event.eventId !== headerId)
    throw new WebhookVerificationError('malformed_header', 'the body eventId differs from the signed event id');
  return event;
}

function lowerCased(headers: VerifyWebhookInput['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  const entries: [string, string | string[] | undefined][] =
    typeof Headers !== 'undefined' && headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers as Record<string, string | string[] | undefined>);
  for (const [name, value] of entries) out[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  return out;
}

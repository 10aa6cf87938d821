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

/** The test webhook `ping` (POST /test/webhooks with type `ping`): signed like an event, about no record, `data` empty. */
export type PingWebhookEvent = components['schemas']['PingWebhookEvent'];

export interface VerifyWebhookInput {
  /** Your site's `whsec_...` secret as Kasa gave it, or during a rotation `[newSecret, previousSecret]`. */
  secret: string | readonly string[];
  /** The request's headers as your framework gives them (names in any case), or a Fetch `Headers`. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>> | Headers;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  /** Allowed clock difference in seconds, both ways; default 300. */
  toleranceSeconds?: number;
}

/**
 * Checks the signature (`Service-Signature` with `Service-Event-Id` when present, else the Standard Webhooks
 * `webhook-id`, `webhook-timestamp` and `webhook-signature`), the timestamp and that the body's `eventId` is the
 * signed one, then returns the parsed event.
 *
 * @throws WebhookVerificationError when the webhook must be refused (answer 400 or 401); its `reason` says why.
 * @throws TypeError/RangeError on misconfiguration (no secret, a parsed body instead of the raw one).
 * Deduplicate on `eventId`: Kasa may deliver an event more than once.
 */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent {
  const headers = lowerCased(input.headers);
  const rawBody = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : input.rawBody;
  const secrets = typeof input.secret === 'string' ? [input.secret] : [...input.secret];
  const tolerance = input.toleranceSeconds === undefined ? {} : { toleranceSeconds: input.toleranceSeconds };
  let signedId: string | undefined;
  if (headers['service-signature'] !== undefined) {
    verifyServiceSignature({ header: headers['service-signature'], eventId: headers['service-event-id'], rawBody, secrets, ...tolerance });
    signedId = headers['service-event-id'];
  } else {
    verifyStandardWebhook({ headers, rawBody, secrets, ...tolerance });
    signedId = headers['webhook-id'];
  }
  let event: WebhookEvent;
  try {
    event = JSON.parse(Buffer.from(rawBody).toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('malformed_header', 'the signed body is not JSON');
  }
  if (event === null || typeof event !== 'object' || event.eventId !== signedId) {
    throw new WebhookVerificationError('malformed_header', 'the body eventId differs from the signed event id');
  }
  return event;
}

function lowerCased(headers: VerifyWebhookInput['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    for (const [name, value] of headers.entries()) out[name.toLowerCase()] = value;
    return out;
  }
  for (const [name, value] of Object.entries(headers as Readonly<Record<string, string | readonly string[] | undefined>>)) {
    out[name.toLowerCase()] = typeof value === 'string' || value === undefined ? value : value.join(',');
  }
  return out;
}

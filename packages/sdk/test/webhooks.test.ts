/**
 * verifyWebhook with headers signed the way the worker signs them. Real TLS deliveries are verified with it in
 * services/webhook-worker/test/delivery.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { buildWebhookHeaders, generateWebhookSecret } from '@kasa/webhook-signing';
import { toStandardWebhooksSecret, verifyWebhook, WebhookVerificationError } from '../src/index.js';

const now = () => Math.floor(Date.now() / 1000);

function signed(secrets: string[], event: Record<string, unknown>, timestamp = now()) {
  const rawBody = JSON.stringify(event);
  return { rawBody, headers: buildWebhookHeaders({ secrets, eventId: String(event.eventId), timestamp, rawBody }) };
}

const event = { eventId: 'e-1', type: 'intent.approved', createdAt: new Date().toISOString(), data: { intentId: 'i-1' } };
const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return 'accepted';
};

describe('verifyWebhook', () => {
  const secret = generateWebhookSecret();

  it('returns the parsed event for Kasa headers, for the standard headers alone, and for a Fetch Headers', () => {
    const { rawBody, headers } = signed([secret], event);
    expect(verifyWebhook({ secret, headers, rawBody })).toEqual(event);
    const standardOnly = {
      'Webhook-Id': headers['webhook-id'],
      'Webhook-Timestamp': headers['webhook-timestamp'],
      'Webhook-Signature': headers['webhook-signature'],
    };
    expect(verifyWebhook({ secret, headers: standardOnly, rawBody: Buffer.from(rawBody) }).eventId).toBe('e-1');
    expect(verifyWebhook({ secret, headers: new Headers(headers), rawBody }).eventId).toBe('e-1');
  });

  it('accepts either secret during a rotation', () => {
    const previous = generateWebhookSecret();
    const { rawBody, headers } = signed([secret, previous], event);
    for (const held of [secret, previous, [secret, previous]])
      expect(verifyWebhook({ secret: held, headers, rawBody }).eventId).toBe('e-1');
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', () => {
    const { rawBody, headers } = signed([secret], event);
    const tampered = rawBody.replace('i-1', 'i-2');
    expect(reasonOf(() => verifyWebhook({ secret, headers, rawBody: tampered }))).toBe('no_matching_signature');
    const { 'Service-Signature': _kasa, 'Service-Event-Id': _id, ...standardOnly } = headers;
    expect(reasonOf(() => verifyWebhook({ secret, headers: standardOnly, rawBody: tampered }))).toBe('no_matching_signature');
    expect(reasonOf(() => verifyWebhook({ secret: generateWebhookSecret(), headers, rawBody }))).toBe('no_matching_signature');
    const stale = signed([secret], event, now() - 301);
    expect(reasonOf(() => verifyWebhook({ secret, ...stale }))).toBe('timestamp_out_of_tolerance');
    expect(reasonOf(() => verifyWebhook({ secret, ...stale, toleranceSeconds: 400 }))).toBe('accepted');
    expect(reasonOf(() => verifyWebhook({ secret, headers: {}, rawBody }))).toBe('missing_event_id');
  });

  it('refuses a body whose eventId is not the signed one', () => {
    // Signed for e-1, but the body claims another event: a receiver deduplicating on the body's id would be fooled.
    const rawBody = JSON.stringify({ ...event, eventId: 'e-2' });
    const headers = buildWebhookHeaders({ secrets: [secret], eventId: 'e-1', timestamp: now(), rawBody });
    expect(reasonOf(() => verifyWebhook({ secret, headers, rawBody }))).toBe('malformed_header');
  });

  it('refuses the converted Standard Webhooks secret, and treats a parsed body or no secret as configuration errors', () => {
    const { rawBody, headers } = signed([secret], event);
    expect(reasonOf(() => verifyWebhook({ secret: toStandardWebhooksSecret(secret), headers, rawBody }))).toBe('no_matching_signature');
    expect(() => verifyWebhook({ secret, headers, rawBody: JSON.parse(rawBody) as never })).toThrow(TypeError);
    expect(() => verifyWebhook({ secret: [], headers, rawBody })).toThrow(TypeError);
  });
});

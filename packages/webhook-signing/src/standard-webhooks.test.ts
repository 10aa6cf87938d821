/**
 * The Standard Webhooks headers, checked with the specification's own libraries (`standardwebhooks`, and
 * Svix's `svix`), which a partner can use instead of this package.
 */
import { describe, expect, it } from '@jest/globals';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

import {
  buildWebhookHeaders,
  generateWebhookSecret,
  toStandardWebhooksSecret,
  verifyStandardWebhook,
  WebhookVerificationError,
} from './index.js';

const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({
  eventId: 'evt-1',
  type: 'intent.approved',
  createdAt: '2026-11-23T10:00:00.000Z',
  data: { amount: '75000' },
});

describe('Standard Webhooks headers', () => {
  const secret = generateWebhookSecret();
  const headers = buildWebhookHeaders({ secrets: [secret], eventId: 'evt-1', timestamp: now(), rawBody: body });

  it('verify with the standardwebhooks library given toStandardWebhooksSecret(secret)', () => {
    const payload = new StandardWebhook(toStandardWebhooksSecret(secret)).verify(body, headers) as { eventId: string };
    expect(payload.eventId).toBe('evt-1');
  });

  it('verify with the svix library given the same converted secret', () => {
    // svix 2 returns nothing and throws when the signature does not verify.
    expect(() => new SvixWebhook(toStandardWebhooksSecret(secret)).verify(body, headers)).not.toThrow();
  });

  it('verify with this package', () => {
    expect(() => verifyStandardWebhook({ headers, rawBody: body, secrets: secret })).not.toThrow();
  });

  it('are refused by every verifier when the body was changed', () => {
    const tampered = body.replace('75000', '750000');
    expect(() => new StandardWebhook(toStandardWebhooksSecret(secret)).verify(tampered, headers)).toThrow();
    expect(() => new SvixWebhook(toStandardWebhooksSecret(secret)).verify(tampered, headers)).toThrow();
    expect(() => verifyStandardWebhook({ headers, rawBody: tampered, secrets: secret })).toThrow(WebhookVerificationError);
  });

  it('are refused when the Kasa secret is given unconverted (its bytes are the key, not base64 of it)', () => {
    expect(() => new StandardWebhook(secret).verify(body, headers)).toThrow();
  });

  it('carry one signature per secret during a rotation, each verifying on its own', () => {
    const previous = generateWebhookSecret();
    const rotated = buildWebhookHeaders({ secrets: [secret, previous], eventId: 'evt-2', timestamp: now(), rawBody: body });
    expect(rotated['webhook-signature'].split(' ')).toHaveLength(2);
    for (const held of [secret, previous]) {
      expect(() => new StandardWebhook(toStandardWebhooksSecret(held)).verify(body, rotated)).not.toThrow();
      expect(() => new SvixWebhook(toStandardWebhooksSecret(held)).verify(body, rotated)).not.toThrow();
    }
    expect(() => new StandardWebhook(toStandardWebhooksSecret(generateWebhookSecret())).verify(body, rotated)).toThrow();
  });

  it('are refused when the timestamp is older than the tolerance', () => {
    const old = buildWebhookHeaders({ secrets: [secret], eventId: 'evt-3', timestamp: now() - 600, rawBody: body });
    expect(() => new StandardWebhook(toStandardWebhooksSecret(secret)).verify(body, old)).toThrow();
    expect(() => verifyStandardWebhook({ headers: old, rawBody: body, secrets: secret })).toThrow(WebhookVerificationError);
  });
});

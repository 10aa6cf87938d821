/**
 * The Standard Webhooks headers, checked against published vectors and with the specification's own libraries
 * (`standardwebhooks`, and Svix's `svix`), which a partner can use instead of this package.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

import {
  buildStandardWebhookHeaders,
  buildWebhookHeaders,
  generateWebhookSecret,
  isValidStandardWebhook,
  toStandardWebhooksSecret,
  verifyStandardWebhook,
  WebhookVerificationError,
  type StandardWebhookHeaders,
} from './index.js';
import { expectReason, SECRET_A, SECRET_A_STANDARD, SECRET_B, SECRET_B_STANDARD, VECTOR_1, VECTOR_2 } from './test-helpers.js';

const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({
  eventId: 'evt-1',
  type: 'intent.approved',
  createdAt: '2026-11-23T10:00:00.000Z',
  data: { amount: '75000' },
});

describe('Standard Webhooks test vectors', () => {
  it('converts the published secrets to whsec_ + base64 of their UTF-8 bytes', () => {
    expect(toStandardWebhooksSecret(SECRET_A)).toBe(SECRET_A_STANDARD);
    expect(toStandardWebhooksSecret(SECRET_B)).toBe(SECRET_B_STANDARD);
    expect(Buffer.from(SECRET_A_STANDARD.slice('whsec_'.length), 'base64').toString('utf8')).toBe(SECRET_A);
  });

  it('signs vector 1 and vector 2 (rotation) with the published webhook-signature values', () => {
    const { secret, eventId, timestamp, rawBody } = VECTOR_1;
    expect(buildStandardWebhookHeaders({ secrets: [secret], eventId, timestamp, rawBody })).toEqual({
      'webhook-id': eventId,
      'webhook-timestamp': '1735689600',
      'webhook-signature': VECTOR_1.webhookSignature,
    });
    const two = buildStandardWebhookHeaders(VECTOR_2);
    expect(two['webhook-signature']).toBe(VECTOR_2.webhookSignature);
  });

  it('gives the same signatures as the standardwebhooks and svix libraries own signers with the converted secrets', () => {
    // An independent implementation: the libraries' sign() with the converted secret must produce our value.
    for (const Library of [StandardWebhook, SvixWebhook]) {
      const at = new Date(VECTOR_1.timestamp * 1000);
      expect(new Library(SECRET_A_STANDARD).sign(VECTOR_1.eventId, at, VECTOR_1.rawBody)).toBe(VECTOR_1.webhookSignature);
      const at2 = new Date(VECTOR_2.timestamp * 1000);
      const [forB, forA] = VECTOR_2.webhookSignature.split(' ');
      expect(new Library(SECRET_B_STANDARD).sign(VECTOR_2.eventId, at2, VECTOR_2.rawBody)).toBe(forB);
      expect(new Library(SECRET_A_STANDARD).sign(VECTOR_2.eventId, at2, VECTOR_2.rawBody)).toBe(forA);
      // The libraries' raw-key form, given the Kasa secret's UTF-8 bytes, is the same key.
      const raw = new Library(Buffer.from(SECRET_A, 'utf8'), { format: 'raw' });
      expect(raw.sign(VECTOR_1.eventId, at, VECTOR_1.rawBody)).toBe(VECTOR_1.webhookSignature);
    }
  });

  it('verifies the vectors with this package with the clock pinned, whichever rotation secret is held', () => {
    const headers = (v: typeof VECTOR_2 | typeof VECTOR_1): StandardWebhookHeaders => ({
      'webhook-id': v.eventId,
      'webhook-timestamp': String(v.timestamp),
      'webhook-signature': v.webhookSignature,
    });
    expect(
      isValidStandardWebhook({ headers: headers(VECTOR_1), rawBody: VECTOR_1.rawBody, secrets: SECRET_A, now: VECTOR_1.timestamp }),
    ).toBe(true);
    for (const secrets of [SECRET_A, SECRET_B, [SECRET_B, SECRET_A]]) {
      expect(isValidStandardWebhook({ headers: headers(VECTOR_2), rawBody: VECTOR_2.rawBody, secrets, now: VECTOR_2.timestamp })).toBe(
        true,
      );
    }
    expectReason(
      () => verifyStandardWebhook({ headers: headers(VECTOR_1), rawBody: VECTOR_1.rawBody, secrets: SECRET_B, now: VECTOR_1.timestamp }),
      'no_matching_signature',
    );
    // With the real clock, the old vectors are out of tolerance.
    expectReason(
      () => verifyStandardWebhook({ headers: headers(VECTOR_1), rawBody: VECTOR_1.rawBody, secrets: SECRET_A }),
      'timestamp_out_of_tolerance',
    );
  });

  it('README.md publishes exactly these values', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const value of [SECRET_A_STANDARD, SECRET_B_STANDARD, VECTOR_1.webhookSignature, VECTOR_2.webhookSignature]) {
      expect(readme).toContain(value);
    }
  });
});

describe('Standard Webhooks headers with the official libraries', () => {
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
    expectReason(() => verifyStandardWebhook({ headers, rawBody: tampered, secrets: secret }), 'no_matching_signature');
  });

  it('are refused when the Kasa secret is given unconverted (its bytes are the key, not base64 of it)', () => {
    expect(() => new StandardWebhook(secret).verify(body, headers)).toThrow();
    expect(() => new SvixWebhook(secret).verify(body, headers)).toThrow();
  });

  it('carry one signature per secret during a rotation, each verifying on its own', () => {
    const previous = generateWebhookSecret();
    const rotated = buildWebhookHeaders({ secrets: [secret, previous], eventId: 'evt-2', timestamp: now(), rawBody: body });
    expect(rotated['webhook-signature'].split(' ')).toHaveLength(2);
    for (const held of [secret, previous]) {
      expect(() => new StandardWebhook(toStandardWebhooksSecret(held)).verify(body, rotated)).not.toThrow();
      expect(() => new SvixWebhook(toStandardWebhooksSecret(held)).verify(body, rotated)).not.toThrow();
      expect(isValidStandardWebhook({ headers: rotated, rawBody: body, secrets: held })).toBe(true);
    }
    expect(() => new StandardWebhook(toStandardWebhooksSecret(generateWebhookSecret())).verify(body, rotated)).toThrow();
    expect(isValidStandardWebhook({ headers: rotated, rawBody: body, secrets: generateWebhookSecret() })).toBe(false);
  });

  it('are refused when the timestamp is older or further ahead than the tolerance', () => {
    for (const timestamp of [now() - 600, now() + 600]) {
      const off = buildWebhookHeaders({ secrets: [secret], eventId: 'evt-3', timestamp, rawBody: body });
      expect(() => new StandardWebhook(toStandardWebhooksSecret(secret)).verify(body, off)).toThrow();
      expectReason(() => verifyStandardWebhook({ headers: off, rawBody: body, secrets: secret }), 'timestamp_out_of_tolerance');
    }
  });
});

describe('verifyStandardWebhook: headers as received', () => {
  const secret = generateWebhookSecret();
  const signed = buildStandardWebhookHeaders({ secrets: [secret], eventId: 'evt-9', timestamp: now(), rawBody: body });
  const verify = (headers: Record<string, string | string[] | undefined> | Headers) =>
    verifyStandardWebhook({ headers, rawBody: Buffer.from(body), secrets: secret });

  it('reads header names in any case, and a Fetch Headers object', () => {
    expect(() =>
      verify({
        'Webhook-Id': signed['webhook-id'],
        'WEBHOOK-TIMESTAMP': signed['webhook-timestamp'],
        'Webhook-Signature': signed['webhook-signature'],
      }),
    ).not.toThrow();
    expect(() => verify(new Headers(signed))).not.toThrow();
  });

  it('names the missing header', () => {
    expectReason(() => verify({ ...signed, 'webhook-id': undefined }), 'missing_event_id');
    expectReason(() => verify({ ...signed, 'webhook-timestamp': '' }), 'missing_header');
    expectReason(() => verify({ ...signed, 'webhook-signature': undefined }), 'missing_header');
  });

  it('refuses malformed timestamps, ids, signatures and repeated headers', () => {
    expectReason(() => verify({ ...signed, 'webhook-timestamp': `${signed['webhook-timestamp']}000` }), 'malformed_header');
    expectReason(() => verify({ ...signed, 'webhook-timestamp': '-1' }), 'malformed_header');
    expectReason(() => verify({ ...signed, 'webhook-id': 'evt.9' }), 'malformed_header');
    expectReason(() => verify({ ...signed, 'webhook-signature': 'v1' }), 'malformed_header');
    expectReason(() => verify({ ...signed, 'webhook-signature': 'v1,not-base64' }), 'malformed_header');
    expectReason(() => verify({ ...signed, 'webhook-signature': 'v1a,c2lnbmF0dXJl' }), 'malformed_header');
    expectReason(
      () => verify({ ...signed, 'webhook-signature': Array(9).fill(signed['webhook-signature']).join(' ') }),
      'malformed_header',
    );
    expectReason(() => verify({ ...signed, 'webhook-id': ['evt-9', 'evt-10'] }), 'malformed_header');
  });

  it('ignores entries of other versions next to a matching v1', () => {
    expect(() => verify({ ...signed, 'webhook-signature': `v1a,c2lnbmF0dXJl ${signed['webhook-signature']} v2,abc` })).not.toThrow();
  });

  it('binds the signature to webhook-id and webhook-timestamp', () => {
    expectReason(() => verify({ ...signed, 'webhook-id': 'evt-10' }), 'no_matching_signature');
    expectReason(
      () => verify({ ...signed, 'webhook-timestamp': String(Number(signed['webhook-timestamp']) - 1) }),
      'no_matching_signature',
    );
  });

  it('treats missing or unusable secrets, or a parsed body, as configuration errors', () => {
    expect(() => verifyStandardWebhook({ headers: signed, rawBody: body, secrets: [] })).toThrow(TypeError);
    expect(() => verifyStandardWebhook({ headers: signed, rawBody: body, secrets: toStandardWebhooksSecret(secret).slice(6) })).toThrow(
      TypeError,
    );
    expect(() => verifyStandardWebhook({ headers: signed, rawBody: JSON.parse(body) as never, secrets: secret })).toThrow(TypeError);
    expect(() => verifyStandardWebhook({ headers: signed, rawBody: body, secrets: secret, toleranceSeconds: -1 })).toThrow(RangeError);
  });

  it('is refused, not thrown as a bug, for a converted secret passed where the Kasa secret belongs', () => {
    // A converted secret still starts with whsec_, so it is usable as a key; it is simply the wrong one.
    expect(() => verifyStandardWebhook({ headers: signed, rawBody: body, secrets: toStandardWebhooksSecret(secret) })).toThrow(
      WebhookVerificationError,
    );
  });
});
